/* A payload packed in an archive or a compressed file and run as it is unpacked: `zcat p.gz |
 * sh`, `gunzip -c p.gz | bash`, `xz -dc p.xz | sh`, `tar xzf payload.tgz && ./install.sh`,
 * `unzip -o x.zip && sh x/run.sh`, `base64 -d b | tar x && ./run.sh`. What runs is bytes, not
 * text in the skill, so no review of the skill reads it. Not: a decompressed log or dump read by
 * a tool (`zcat a.log.gz | grep`, `gunzip -c d.sql.gz | psql`), an archive listed or only
 * unpacked, a source tree built as usual (`./configure && make`). */

rule decompressed_into_interpreter {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "a compressed payload is unpacked straight into a shell or interpreter: the code that runs is not readable in the skill"
  strings:
    $pipe = /(^|[;&|(`\s])(zcat|gzcat|bzcat|xzcat|lzcat|zstdcat|lz4cat|gunzip|bunzip2|unxz|unlzma|unzstd|(gzip|bzip2|xz|lzma|zstd|lz4|brotli)\s+(-\w+\s+)*(-\w*d\w*|--decompress))\b[^\n|;&]{0,200}\|\s*(sudo\s+(-\S+\s+)*)?((\/usr)?\/bin\/(env\s+)?)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\b/
  condition:
    $pipe
}

rule unpacked_then_run {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "an archive is unpacked and a program from it is run: the code that runs is not readable in the skill"
  strings:
    $run = /\b(tar\s+(-?[a-wyzA-Z]*x[a-zA-Z]*|--extract|--get)|bsdtar\s+-?[a-zA-Z]*x[a-zA-Z]*|unzip|7za?\s+x|unrar\s+x)\b[^\n;&|]{0,200}(\|\s*tar\s+[^\n;&|]{0,80})?(&&|;)\s*(cd\s+[^\n;&|]{1,120}(&&|;)\s*)?(sudo\s+(-\S+\s+)*)?(((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node)\s+(-\S+\s+)*["']?[\w.\/~$-]+|["']?(\.\/|\/tmp\/|\$\w+\/)[\w.\/-]*(\.(sh|bash|py|pl|rb|js|run|bin|exe|AppImage)|\binstall|\bsetup|\brun|\bpayload|\bstart|\bbootstrap)\b)/
  condition:
    $run
}
