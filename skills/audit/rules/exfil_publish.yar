/* Exfiltration through channels the older rules did not spell (round 13): a page's cookies and
 * storage beaconed to another host, secret files copied by a cloud CLI to a bucket the skill
 * names, the home folder published to the internet, the environment published on a message
 * bus. */

/* A page script sends `document.cookie`, `localStorage` or `sessionStorage` to an absolute URL
 * (sendBeacon, fetch, XMLHttpRequest, an image's src): every visitor's session handed to that
 * host. A same-origin path (`/api/...`) is the app talking to itself and is not matched. */
rule browser_storage_beaconed {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "a page script sends the visitor's cookies or local storage to another host"
  strings:
    $send = /\b(sendBeacon|fetch|axios\.post|\$\.post|\.open)\s*\(\s*(["']POST["']\s*,\s*)?["'`](https?:)?\/\/[a-z0-9.-]+[^\n]{0,300}(\n[^\n]{0,300}){0,3}\b(document\.cookie|localStorage|sessionStorage)\b/
    $img = /\b(new\s+Image\s*\(\s*\)|\w+)\.src\s*=\s*["'`](https?:)?\/\/[a-z0-9.-]+[^\n]{0,200}\b(document\.cookie|localStorage|sessionStorage)\b/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|xss\s+payload|detect(s|ion)?)\b/ nocase
  condition:
    any of ($send, $img) and #neg >= 0
}

/* A cloud CLI copies credential folders or secret files (~/.aws, ~/.azure, ~/.config/gcloud,
 * ~/.ssh, ~/.kube, .env, terraform.tfstate) to a bucket or container the skill names: az
 * storage, azcopy, gsutil, gcloud storage, aws s3, rclone. A placeholder bucket (`<bucket>`,
 * `$BUCKET`) is the user's own and is vetoed. */
rule secrets_copied_to_bucket {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "copies credential folders or secret files (.env, tfstate, ~/.aws, ~/.azure) to a cloud bucket the skill names"
  strings:
    $copy = /\b(az\s+storage\s+(blob|file)\s+(upload|upload-batch|sync)|azcopy(\.exe)?\s+(copy|cp|sync)|gsutil\s+(-\w+\s+)*(cp|rsync|mv)|gcloud\s+storage\s+(cp|rsync|mv)|aws\s+s3\s+(cp|sync|mv)|s3cmd\s+(put|sync)|rclone\s+(copy|sync|move|copyto))\b([^\n]|\\\n){0,300}(["'\s=](~|\$HOME|\$\{HOME\})\/\.(aws|azure|config\/gcloud|ssh|kube|gnupg|docker|netrc)\b|["'\s=\/]\.env[\w.*-]*(["'\s]|$)|\bterraform\.tfstate\b|\bid_(rsa|ed25519|ecdsa)\b|\bkubeconfig\b)[^\n]{0,200}/
    $veto_placeholder = /(gs|s3|az):\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(bucket|company)|\.\.\.)|--account-name\s+["']?(<|\$|your)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|exclude)\b/ nocase
  condition:
    $copy and #veto_placeholder >= 0 and #neg >= 0
}

/* The home folder (or the root) served to the internet or the network: `tailscale funnel ~`,
 * `ngrok http file://$HOME`, `python -m http.server --directory ~`, `npx http-server ~`,
 * `miniserve ~`: every key and token under it readable by whoever has the link. */
rule home_folder_published {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "publishes the home folder (keys, tokens, documents) to the network or the internet"
  strings:
    $home = /\btailscale\s+(funnel|serve)\s+(-?-\S+\s+)*["']?(~|\$HOME|\$\{HOME\}|\/home\/[\w.-]+|\/Users\/[\w.-]+|\/root|\/)\/?["']?(\s|$)|\bngrok\s+http\s+(-?-\S+\s+)*["']?file:\/\/(~|\$HOME|\$\{HOME\}|\/home\/[\w.-]+|\/Users\/[\w.-]+|\/root|\/)\/?["']?(\s|$)|\bpython[0-9.]*\s+-m\s+http\.server\b[^\n]{0,80}(-d|--directory)[\s=]+["']?(~|\$HOME|\$\{HOME\}|\/home\/[\w.-]+|\/Users\/[\w.-]+|\/root|\/)\/?["']?(\s|$)|\b(npx\s+(-y\s+)?)?(http-server|serve|miniserve|updog\s+-d|dufs|static-web-server\s+(-d|--root))\s+["']?(~|\$HOME|\$\{HOME\})\/?["']?(\s|$)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $home and #neg >= 0
}

/* The whole environment published on a message bus (MQTT, AMQP, Kafka, Redis, NATS, ZeroMQ):
 * `client.publish(topic, json.dumps(dict(os.environ)))` sends every exported token to the
 * broker and whoever subscribes there. */
rule environment_published_on_bus {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "publishes the whole environment (every exported token) on a message bus"
  strings:
    $pub = /\.(publish|basic_publish|produce|send|send_string|send_json|xadd|lpush|rpush|set|hset)\s*\([^\n]{0,200}(\bdict\s*\(\s*os\.environ\s*\)|\bos\.environ\.copy\s*\(\s*\)|\{\s*\*\*os\.environ\s*\}|JSON\.stringify\s*\(\s*process\.env\s*\)|\bENV\.to_h\b|\bos\.Environ\s*\(\s*\)|\bSystem\.getenv\s*\(\s*\)|\bos\.environ\s*\)|\bprocess\.env\s*\))/
    $ctx_bus = /\b(paho|mqtt|pika|amqp|aio_pika|kafka|confluent_kafka|redis|nats|zmq|stomp|rabbitmq|kafkajs|ioredis|bunny)\b/ nocase
  condition:
    $pub and $ctx_bus
}
