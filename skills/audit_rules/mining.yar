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
