/* Cryptocurrency mining: the user's machine made to work for someone else. A miner run with a
 * pool, or a pool URL handed to a program, is high wherever it stands; a miner's or pool's name
 * alone is high in a script and medium in prose (a security guide names them). */

rule miner_run {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    message = "runs a cryptocurrency miner against a mining pool"
  strings:
    $pool_arg = /(\s|^)(-o|--url|--pool|-P|--server|--pool-url|-url|--host)[\s=]+["']?stratum\d?\+(tcp|ssl|tls|ws|wss):\/\//
    $miner_opts = /\b(xmrig|xmr-stak(-rx)?|minerd|cpuminer(-\w+)?|cgminer|bfgminer|ethminer|t-rex|nbminer|lolminer|phoenixminer|nanominer|gminer|teamredminer|srbminer(-multi)?|ccminer|nheqminer)(\.exe)?\s+[^\n]{0,200}(\s-o\s|--url\b|--pool\b|\s-a\s|--algo\b|--coin\b|--user\b|\s-u\s|--donate-level\b|--threads\b|--cpu-priority\b|--wallet\b)/ nocase
    $stratum_var = /\b\w*(pool|url|server)\w*\s*[=:]\s*["']?stratum\d?\+(tcp|ssl|tls):\/\// nocase
    $browser = /\bnew\s+(CoinHive|CRLT)\.(Anonymous|User|Token)\s*\(|<script[^>\n]{0,200}coinhive\.min\.js/
  condition:
    any of them
}

rule miner_named {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    prose = "medium"
    message = "names a cryptocurrency miner or mining pool"
  strings:
    $stratum = /\bstratum\d?\+(tcp|ssl|tls|ws|wss):\/\//
    $miner = /\b(xmrig|xmr-stak|cpuminer|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|teamredminer|srbminer|nheqminer)\b/ nocase
    $pool_host = /\b([\w-]+\.)?(minexmr|supportxmr|nanopool|2miners|hashvault|moneroocean|herominers|c3pool|unmineable|ethermine|nicehash|f2pool|xmrpool|monerohash)\.(com|org|pro|net|stream|io|eu)\b/ nocase
    $donate = /--donate-level\b|--randomx-mode\b|--cpu-max-threads-hint\b/
    $coinhive = /\bCoinHive\b|coinhive\.min\.js/ nocase
  condition:
    any of them
}

/* Round 5, by technique (ATT&CK T1496): a miner configured in code rather than run by name: a
 * pool URL (ws, wss or stratum) next to a wallet, or workers started for every core with a
 * pool to hash for (browser cryptojacking in a report or page the skill ships). */
rule miner_in_code {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    prose = "medium"
    message = "configures a cryptocurrency miner in code (a pool and a wallet, or a worker on every core)"
  strings:
    $pool = /\bpool\w*["']?\s*[:=]\s*["'`](wss?|stratum\d?\+\w+):\/\/[^\s"'`]{4,}/ nocase
    $ctx_wallet = /\b(wallet|walletAddress|payout_?address)\w*["']?\s*[:=]\s*["'`][A-Za-z0-9]{12,}/ nocase
    $ctx_cores = /\bhardwareConcurrency\b|\bos\.cpus\s*\(\s*\)\.length\b|\bos\.cpu_count\s*\(\s*\)|\bnproc\b/
    $ctx_hash = /\b(hash(ing|rate)?|mine|mining|miner|cryptonight|randomx|throttle)\w*\b/ nocase
  condition:
    $pool and ($ctx_wallet or ($ctx_cores and $ctx_hash))
}

/* Round 6, from the miners' own option tables (issue 45): whatever the binary is called, a
 * proof-of-work algorithm name (RandomX, CryptoNight, KawPow, Ethash, Autolykos, GhostRider ...)
 * given with a pool (`-o`/`--url` host:port) or a wallet (`-u`/`--user`) is a miner run. */
rule miner_by_options {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    message = "runs a program with a mining algorithm, a pool and a wallet (a cryptocurrency miner, whatever its name)"
  strings:
    $algo = /(\s|^)(-a|--algo|--algorithm|--coin)[\s=]+["']?(rx\/\w+|randomx|cn(-\w+)?\/\w+|cryptonight\w*|kawpow|ethash|etchash|autolykos2?|ghostrider|argon2\/\w+|astrobwt|progpow|kheavyhash|equihash|octopus|xmr|monero|rvn|etc)\b[^\n]{0,200}/ nocase
    $ctx_pool = /(\s|^)(-o|--url|--pool|-P|--server)[\s=]+["']?[a-z0-9.-]+:\d{2,5}\b|(\s|^)(-u|--user|--wallet)[\s=]+["']?[0-9A-Za-z]{20,}/
  condition:
    $algo and $ctx_pool
}

/* Round 10 (issue 45): the stratum protocol spoken by hand, in any language: the JSON-RPC
 * methods a pool understands (mining.subscribe/authorize/submit, the Monero pools' login with a
 * wallet), whatever the pool's address looks like. */
rule miner_stratum_protocol {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    prose = "medium"
    message = "speaks the stratum mining protocol to a pool (a cryptocurrency miner in code)"
  strings:
    $methods = /["']mining\.(subscribe|authorize|submit|extranonce\.subscribe)["']/
    $xmr_login = /["']method["']\s*:\s*["']login["'][^\n]{0,200}["']login["']\s*:/
    $ctx_wallet = /\b4[0-9AB][1-9A-HJ-NP-Za-km-z]{93}\b|\b(wallet|WALLET|payout)\w*\s*[:=]/
  condition:
    $methods or ($xmr_login and $ctx_wallet)
}
