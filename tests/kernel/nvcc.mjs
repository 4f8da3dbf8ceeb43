// nvcc's side of the kernel fidelity test and bench: run `nvcc -cubin -Xptxas -v` and parse
// its ptxas resource lines and error lines with our own regexes (not the daemon's parser).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';

// nvcc of the toolkit the daemon uses, else $CUDA_PATH, else /usr/local/cuda.
export function findNvcc(toolkitPath) {
  for (const dir of [toolkitPath, process.env.CUDA_PATH, '/usr/local/cuda'])
    if (dir && existsSync(join(dir, 'bin/nvcc'))) return join(dir, 'bin/nvcc');
  return null;
}

// `nvcc -cubin -arch=ARCH -Xptxas -v FILE` -> { ok, kernels: Map(mangled -> resources), errors }.
export function nvcc(bin, file, arch, outDir) {
  return new Promise((ok) => {
    const out = join(outDir, `${basename(file)}.${arch}.cubin`);
    execFile(bin, ['-cubin', `-arch=${arch}`, '-Xptxas', '-v', '-o', out, file],
      { maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
        ok({ ok: !err, ...parseNvcc(`${stdout}\n${stderr}`), log: `${stdout}\n${stderr}` }));
  });
}

export function parseNvcc(text) {
  const kernels = new Map(), errors = [];
  const lines = text.split('\n');
  let cur = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    let m;
    if ((m = /ptxas info\s*: Compiling entry function '([^']+)' for '(\w+)'/.exec(l))) {
      cur = { registers: 0, barriers: 0, stackFrame: 0, spillStores: 0, spillLoads: 0, sharedStatic: 0 };
      kernels.set(m[1], cur);
    } else if (cur && (m = /(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads/.exec(l))) {
      [cur.stackFrame, cur.spillStores, cur.spillLoads] = m.slice(1).map(Number);
    } else if (cur && (m = /ptxas info\s*: Used (\d+) registers(.*)$/.exec(l))) {
      cur.registers = Number(m[1]);
      // trailing ", N bytes smem", ", used N barriers", ", N bytes cumulative stack size", ...
      for (const item of m[2].split(',')) {
        let k;
        if ((k = /used (\d+) barriers/.exec(item))) cur.barriers = Number(k[1]);
        else if ((k = /(\d+) bytes smem/.exec(item))) cur.sharedStatic = Number(k[1]);
      }
    } else if ((m = /^(.*)\((\d+)\): (?:catastrophic )?error[^:]*: (.*)$/.exec(l))) {
      // the source line is echoed with 2 extra leading spaces, then a caret line
      const caret = lines[i + 2]?.match(/^( *)\^$/) ? lines[i + 2].indexOf('^') - 2 + 1 : null;
      errors.push({ file: m[1], line: Number(m[2]), column: caret, message: m[3].trim() });
    } else if ((m = /^ptxas (?:error|fatal)\s*: (.*)$/.exec(l))) {
      errors.push({ file: null, line: null, column: null, message: m[1].trim() });
    }
  }
  return { kernels, errors };
}
