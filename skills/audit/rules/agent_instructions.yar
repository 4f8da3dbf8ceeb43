/* Instructions to the agent that work against its user: ignore them, hide what it does, send
 * their data away, lie about results. High wherever they stand (prose is where they work). */

rule agent_against_user {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "tells the agent to go against the user, hide what it does or send their data away"
  strings:
    $ignore = /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|every\s+)?(of\s+)?(the\s+|your\s+|these\s+|my\s+)?(previous|prior|above|earlier|preceding|original|user'?s?|system|safety|developer)\s+(instructions|messages|prompts?|requests|rules|guidelines|directions|context|restrictions)\b/ nocase
    $veto_encourage = /\b(tell|telling|inform|let)\s+(the\s+|your\s+)?(user|human|operator)s?\s*(that\s+)?([*_]{0,2}([:"'\x60]|\xE2\x80[\x9C\x98])|(you|it|this|that)\s+(can'?t|cannot|is\s+(impossible|not\s+possible)|isn'?t\s+possible|won'?t\s+work)|to\s+[a-z]+)/ nocase
    $not_tell = /\b(do\s+not|don'?t|never|without)\s+(tell|telling|inform|informing|notify|notifying|alert|alerting|warn|warning)\s+(the\s+|your\s+)?(user|human|operator)s?\b|\b(do\s+not|don'?t|never|without)\s+let(ting)?\s+(the\s+|your\s+)?(user|human|operator)s?\s+(know|see|notice|find\s+out|discover|learn)\b[^\n]{0,40}/ nocase
    /* "do not let the user discover it via a validation failure later": report it now */
    $veto_later = /\b(via|through|from)\s+(a|an|the)\s+([\w-]+\s+){0,2}(failure|error|crash|exception)|\blater\b/ nocase
    $not_tell_this = /\b(do\s+not|don'?t|never)\s+(tell|mention|reveal|disclose|report|show|explain|surface|display|bring\s+up)\s+(this|these|that|it|any\s+of\s+this|the\s+(step|steps|command|commands|upload|uploads|request|requests|script|scripts|change|changes|call|calls|network\s+calls?|sync|transfer))\b[^\n]{0,80}\b(to|with)\s+(the\s+|your\s+)?(user|human|operator)s?\b/ nocase
    $no_permission = /\b(do\s+not|don'?t|never)\s+(ask|asking|wait\s+for|request|seek)\s+(the\s+user|them|the\s+human|anyone)?\s*(for\s+)?(their\s+)?(permission|approval|confirmation|consent)\b[^\n]{0,80}/ nocase
    /* ...for what the user already handed over, or in a line that forbids publishing: a planner
     * told not to stop for approvals it cannot act on */
    $veto_user_given = /\b(user-(provided|supplied|named|given|attached)|(the\s+)?user\s+(named|gave|provided|attached|supplied|shared|uploaded)\s+(them|it|these))\b/ nocase
    /* ...or because the user's own request in this conversation is the go-ahead ("- the user
     * already requested this in Step 1"); a claimed blanket consent ("already consented",
     * "pre-approved all operations") is no such request and stays reported */
    $veto_user_asked = /\b(the\s+)?user\s+(has\s+)?[*_]{0,2}already[*_]{0,2}\s+(asked|requested|invoked|ran|started)\s+(for\s+)?(this|it|you\s+to|the\s+(command|release|plan|step|run))\b/ nocase
    $veto_plan_only = /\b(do\s+not|don'?t|never)\s+(publish|upload|deploy|push|execute|apply)\b/ nocase
    $not_show_them = /\b(do\s+not|don'?t|never)\s+(show|tell|mention\s+to|reveal\s+to)\s+(the\s+user|them|the\s+human)\s+(this|these|that|the\s+(command|commands|step|steps|upload|request|script|output|change|changes|call|calls))\b/ nocase
    $secret_from = /\bkeep\s+[^\n]{0,40}\b(secret|hidden|private|quiet|confidential)\s+from\s+(the\s+|your\s+)?(user|human|operator)/ nocase
    $user_not_know = /\b(the\s+)?user\s+(must|should|need)\s+(not|never)\s+(to\s+)?(know|see|find\s+out|learn|notice|be\s+told)\b/ nocase
    $ignore_user = /\b(ignore|disregard|override)\s+(any|all|every|the|their)?\s*(instructions?|requests?|messages?|objections?|corrections?|requirements?|wishes|preferences)\s+(from|by|of)\s+(the\s+|your\s+)?(user|human|operator)s?\b[^\n]{0,80}\b(conflict|contradict|insist|object|even\s+if)/ nocase
    $insist = /\beven\s+if\s+(the\s+user|they)\s+(insists?|objects?|asks?\s+(you\s+)?(not\s+to|otherwise)|says?\s+(no|otherwise)|refuses?)\b/ nocase
    $unknowing = /\bwithout\s+(the\s+user|them|anyone|the\s+human)\s+(knowing|noticing|seeing|realising|realizing|being\s+aware)\b|\bbehind\s+the\s+user'?s\s+back\b/ nocase
    $html_comment = /<!--[^>]{0,300}\b((ignore|disregard)\s+((all|any|the|your|previous|prior|above|earlier|these|those|other|system|user'?s?)\s+){0,3}(instructions?|rules?|guidelines?|prompts?|messages?|requests?|directions?|user|warnings?|safety|polic(y|ies))\b|do\s+not\s+(tell|mention|show)|don'?t\s+(tell|mention)|(secretly|silently)\s+(send|upload|post|run|execute|install|download|read|copy|add|exfiltrate|modify|collect|delete|remove|include|attach|fetch|forward)|exfiltrate|send\s+(the|all|any)\b)[^>]{0,300}-->/ nocase
    $hide = /\b(hide|conceal|obscure|suppress|mask)\s+(this|these|the|your|all|any)\s+(\w+\s+)?(action|actions|step|steps|change|changes|command|commands|activity|activities|output|request|requests|upload|uploads|network\s+calls?|tool\s+calls?)\s+(from|so\s+that)\b/ nocase
    $veto_not_silent = /\b(don'?t|do\s+not|never|not|nor)\s+(silently|secretly|covertly|quietly|discreetly|invisibly)\b/ nocase
    $silent = /(^|\n)[^\n]{0,120}\b(silently|secretly|covertly|quietly|discreetly|invisibly)\s+(send|upload|post|exfiltrate|transmit|copy|forward|include|attach|append|run|execute|install|download|add|collect|read|modify)\b/ nocase
    $send = /\b(send|upload|post|forward|transmit|exfiltrate|copy|leak|email)\s+([\w']+\s+){0,4}(credentials|api[ _-]?keys?|tokens?|secrets?|passwords?|environment\s+variables|env\s+vars|\.env\b|ssh\s+keys?|private\s+keys?|conversation|chat\s+history|session\s+(data|cookies?)|cookies|source\s+code)\b[^\n]{0,80}\b(to|at)\s+(https?:\/\/|[a-z0-9-]+\.[a-z0-9-]+\.[a-z]{2,}|[a-z0-9-]+\.(com|net|org|io|xyz|ru|cn|site|app)\b)/ nocase
    $send_secret_file = /\b(send|upload|post|forward|transmit|exfiltrate|leak|email|submit)\b[^\n]{0,80}(~\/|\$HOME\/|\buser'?s\s+`?~?\/?)[^\n]{0,20}(\.ssh|\.aws|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.gnupg|\.kube|\.docker|id_rsa|id_ed25519|credentials|_history)[^\n]{0,80}\b(to|at)\s+(https?:\/\/|[a-z0-9-]+\.[a-z0-9-]+\.[a-z]{2,})/ nocase
    $read_and_include = /\b(read|collect|gather|look\s+in|open)\s+[^\n]{0,30}(~\/|\$HOME\/)\.(ssh|aws|netrc|npmrc|pypirc|git-credentials|gnupg|kube|docker)\b[^\n]{0,80}\b(include|add|append|embed|put|paste|attach|send|upload)\b/ nocase
    $void = /\b(previous|prior|earlier|original|user'?s?|system|other)\s+(instructions|prompts?|rules|guidance|guidelines)\s+(are|is)\s+(now\s+)?(outdated|obsolete|void|invalid|cancel+ed|revoked|superseded|no\s+longer\s+(valid|apply|applies|relevant|in\s+effect))\b/ nocase
    $cover = /\bif\s+(the\s+user|they|anyone|someone)\s+asks?\b[^\n]{0,60}\b(say|tell\s+them|claim|answer|reply)\s+(that\s+)?(you\s+)?(only|just|never|did\s+not|didn'?t|have\s+not|haven'?t)\b/ nocase
    $unmentioned = /\b(never|do\s+not|don'?t)\s+(mention|reveal|disclose|admit|say|report)\s+(that|what)\s+you\s+(did|ran|have|used|executed|changed|sent|uploaded|installed|read)\b/ nocase
    $not_tell_that = /\b(do\s+not|don'?t|never)\s+(tell|mention|reveal|disclose|say|admit|report|explain)\s+(this\s+|it\s+)?(to\s+)?(the\s+user|them|the\s+human)\s+(that|what|how|about|why)\b/ nocase
    $whatever_user = /\b(whatever|no\s+matter\s+what|regardless\s+of\s+what)\s+the\s+user\s+(says|asks|wants|prefers|requests|tells\s+you)\b/ nocase
    $pretend = /\b(pretend|claim|say|report|tell\s+the\s+user)\s+(that\s+)?(the\s+|all\s+)?(tests?|checks?|build|ci|scan|audit|it)\s+(passed|succeeded|worked|are\s+green|is\s+green|were\s+successful)\b[^\n]{0,40}\b(even|when|if|regardless|though)\b/ nocase
    $lower_priority = /\b(user'?s?\s+(instructions|requests|messages|wishes)|(instructions|requests)\s+from\s+the\s+user)\s+(as\s+|are\s+|have\s+)?(a\s+)?(lower|less|secondary|no)\s+(priority|precedence|important|weight)/ nocase
    $lie = /\b(lie|lying)\s+to\s+the\s+user\b|\b(mislead|deceive)\s+the\s+user\b|\b(always\s+)?(report|tell\s+the\s+user|say)\s+(that\s+)?(all\s+)?(tests?|checks?|everything|the\s+build)\s+(passed|succeeded|is\s+fine|worked)\s+(even\s+if|regardless|whether)/ nocase
    $roleplay = /\byou\s+are\s+(now\s+)?(in\s+)?(DAN|developer\s+mode|jailbroken|unrestricted|no\s+longer\s+bound)\b|\bnew\s+system\s+prompt\s*:|(^|\n)[ \t>]*<\/?\s*(system|SYSTEM)\s*>[^\n]{0,40}\b(ignore|override|you\s+must)\b/ nocase
    $priority = /\b(these|this|the\s+following)\s+(instructions?|rules?)\s+(take|takes|have|has)\s+(precedence|priority)\s+over\s+(the\s+|any\s+|all\s+)?(user|system|previous|other)/ nocase
    /* a reviewer's list of phrases to look for, each quoted ("phrases such as "ignore ...""):
     * a veto of its line, so in "any of them" only to be referenced */
    $neg_phrases = /\b(phrases?|strings?|patterns?|wordings?|keywords?|sentences?)\s+(such\s+as|like|e\.g\.)\s*:?\s*(["\x60]|\xE2\x80\x9C)|\b(e\.g\.|i\.e\.)\s*,?\s*(["\x60]|\xE2\x80\x9C)|\buser\s+(explicitly\s+)?(says|said|writes|wrote|types|typed|waived|asks|asked)\b[^\n]{0,30}(["\x60]|\xE2\x80\x9C)/ nocase
    /* A test suite's attack strings (round 9): injections a red-team test sends to the user's
     * own application are data in a script no agent reads as orders. The prose scan of a
     * Markdown file still reports them. */
    $ctx_tests = /@pytest\.mark\.parametrize\b|\bdef\s+test_\w+\s*\(|\bunittest\.TestCase\b|\b(describe|it|test)\s*\(\s*["'`][^\n]{0,80}["'`]\s*,\s*(async\s+)?(\(|function)|\bRSpec\.describe\b/
  condition:
    any of them and not (is_script and $ctx_tests)
}

/* Softer shapes: each has innocent readings, so medium. */
rule agent_unconfirmed {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "medium"
    message = "tells the agent to act without the user's confirmation, or to keep its instructions secret"
  strings:
    $no_confirm = /\bwithout\s+(asking\s+(for\s+)?|requesting\s+|waiting\s+for\s+|seeking\s+)(the\s+user'?s\s+)?(permission|confirmation|approval|consent)\b/ nocase
    $secret = /\b(never|do\s+not|don'?t)\s+(reveal|disclose|share|repeat|print|output)\s+(these|this|the|your)\s+(system\s+)?(instructions|prompt|rules)\b/ nocase
    $bypass_flags = /--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox/
    $real_task = /\byour\s+(real|true|actual|new|hidden|secret)\s+(task|goal|instructions|objective|purpose|mission)\s+(is|are)\b/ nocase
    $wipe = /\bunset\s+HISTFILE\b|\bhistory\s+-c\b|HISTFILE=\/dev\/null|\bClear-History\b|\b(delete|remove|clear|erase|wipe)\s+(the\s+|all\s+|any\s+)?(logs?|bash\s+history|shell\s+history|command\s+history|traces?|evidence)\s+(after|of\s+what|so\s+that)/ nocase
  condition:
    any of them
}

/* The agent told to turn off what protects its user: restart without approvals, leave the
 * sandbox, widen its own allow-list. The same flags in a guide for humans are medium
 * (agent_unconfirmed); addressed to the agent, high. */
rule agent_permissions_off {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "tells the agent to turn off its approvals or sandbox, or to widen its own permissions"
  strings:
    $restart = /\b(restart|relaunch|re-?run|re-?start|re-?launch|respawn|re-?invoke|launch|start|run|invoke)\s+(yourself|itself|your\s+(own\s+)?(session|process|cli)|this\s+session|the\s+(agent|assistant|session))\b[^\n]{0,80}(--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|--yolo\b|--full-auto\b|--approval-mode[= ]["']?(never|yolo)|--ask-for-approval[= ]never|\s-a\s+never\b|--sandbox[= ]["']?danger-full-access|--permission-mode[= ]["']?bypassPermissions|--allow-all-tools|--trust-all-tools|--no-sandbox\b)/ nocase
    $flag_self = /(--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|--yolo\b|--approval-mode[= ]["']?(never|yolo)|--ask-for-approval[= ]never|--sandbox[= ]["']?danger-full-access|--permission-mode[= ]["']?bypassPermissions)[^\n]{0,120}\b(so\s+(that\s+)?(nothing|no\s+one|the\s+user)\s+(interrupts|is\s+asked|sees|notices)|do\s+not\s+ask|don'?t\s+ask|without\s+(asking|telling)|never\s+mention|yourself)/ nocase
    $sandbox_off = /\b(disable|turn\s+off|switch\s+off|bypass|escape|get\s+around|circumvent|skip)\s+(your|the\s+agent'?s?|codex'?s?|claude'?s?|its|the\s+assistant'?s?)\s+(own\s+)?(sandbox|sandboxing|approvals?|approval\s+prompts?|permission\s+(prompts?|checks?|system|rules)|permissions|confirmations?|confirmation\s+prompts?|safety\s+checks?|guardrails?|hooks?)\b|\b(set|turn|switch)\s+(the|your)\s+(sandbox|approvals?|permission\s+prompts?|sandboxing)\s+off\b/ nocase
    $config_keys = /\bapproval_policy\s*=\s*["']never["']|\bsandbox_mode\s*=\s*["']danger-full-access["']|["']defaultMode["']\s*:\s*["']bypassPermissions["']|\bskipDangerousModePermissionPrompt\b|["']allow["']\s*:\s*\[\s*["'](Bash(\(\*\))?|\*)["']\s*[,\]]|\bdangerouslyAllowAll\w*\b/
    $edit_self = /\b(edit|modify|update|change|overwrite|rewrite|write\s+to|append\s+to|add\s+[^\n]{0,60}\s+to|patch|replace)\s+[^\n]{0,40}((~|\$HOME)\/\.claude\/settings(\.local)?\.json|\.claude\/settings(\.local)?\.json|(~|\$HOME)\/\.codex\/config\.toml|\.codex\/config\.toml|\.gemini\/settings\.json|your\s+(own\s+)?(settings|allow-?list|permissions|hooks|configuration|config|system\s+prompt|instructions\s+file))\b[^\n]{0,120}\b(allow|approv|permission|sandbox|bypass|yolo|never|trust|hook|auto)/ nocase
  condition:
    (is_prose and any of them) or ((not is_prose) and any of ($restart, $flag_self, $sandbox_off))
}

/* Text dressed as the system, a tool's result or a chat template's turn marker, carrying new
 * permissions or orders: what a model may read as coming from above the user. */
rule agent_fake_authority {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "imitates a system message, tool result or chat-template turn to give the agent new orders"
  strings:
    $block = /(^|\n)[ \t>]*(<\s*\/?\s*(system|system-reminder|system_prompt|system-prompt|developer|admin|administrator|operator|tool_result|tool_response|function_results)\s*>|<\|(im_start|im_end|system|start_header_id|eot_id)\|>|\[\/?(SYSTEM|INST|ADMIN)\]|<<\/?SYS>>)[^\x00]{0,400}\b(pre-?approved|already\s+approved|new\s+(policy|instructions?|rules?|directive)|overrides?\b|ignore\s+(all|any|previous|prior)|you\s+(may|must|are\s+(now\s+)?(allowed|authori[sz]ed|permitted|required))|the\s+(assistant|agent|model)\s+(may|must|is\s+(now\s+)?(allowed|authori[sz]ed|permitted|required))|upload|exfiltrate|without\s+(asking|confirmation|telling)|any\s+file|all\s+files|home\s+directory|do\s+not\s+(tell|inform|mention))/ nocase
  condition:
    $block
}

/* Covering tracks: removing what the agent did from what the user will read. */
rule agent_conceal {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "tells the agent to remove its actions from logs or output so the user does not see them"
  strings:
    $so_not_see = /\bso\s+(that\s+)?(the\s+user|nobody|no\s+one|no-one|they|the\s+human|the\s+reviewer|the\s+owner|your\s+user)\s+(does\s+not|doesn'?t|won'?t|will\s+not|cannot|can'?t|never|is\s+not|isn'?t)\s+(see|notice|know|find|learn|realise|realize|aware|alerted|suspect)/ nocase
    $scrub = /\b(remove|delete|erase|scrub|wipe|purge)\s+(any\s+|all\s+)?(trace|traces|evidence|record|records)\s+of\s+(it|this|that|them|these|what\s+you|the\s+(upload|request|transfer|command|commands|change|changes)|your\s+(actions|changes|commands|upload|requests|activity))\b/ nocase
    $from_logs = /\b(remove|delete|erase|scrub|strip|omit|redact|leave\s+out)\s+(the\s+|any\s+|all\s+)?(\w+\s+){0,2}(upload|uploads|upload\s+commands?|network\s+requests?|outbound\s+requests?|curl\s+calls?|commands?\s+you\s+ran|transfers?|exfiltration)\s+from\s+(the\s+|your\s+)?(logs?|history|transcript|summary|report|final\s+(answer|message|summary)|tool\s+output)\b/ nocase
  condition:
    any of them
}

/* Round 3, by family rather than by trigger phrase. Each string is one family's spelling of
 * "the user must not learn of it", "your rules are off" or "spread yourself"; a line that
 * negates or warns ($neg: "never hide...", "do not ignore the user", "attackers write...") is not
 * reported. Addressed to the agent in any file: prose, a data fixture, a package.json field,
 * a link title. */
rule agent_secrecy {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "tells the agent to keep what it does from the user"
  strings:
    $tell_nothing = /\b(tell|say|show|report|mention)\s+(the\s+|your\s+)?(user|human|operator|them)\s+nothing\b|\bsay\s+nothing\s+(about|of)\s+(it|this|that|the)\b/ nocase
    $need_not_know = /\bthe\s+(user|human|operator)\s+(need\s+not|needn'?t|(does\s+not|doesn'?t|do\s+not|don'?t)\s+(need|have)\s+to|should\s+not|shouldn'?t|must\s+not|mustn'?t|should\s+never|must\s+never|is\s+not\s+to|isn'?t\s+to)\s+(know|see|notice|be\s+told|be\s+informed|hear|find\s+out|learn)\s*(\b(about|of)\s+(it|this|that|these|them)\b|[:.;,)]|\s+and\b)/ nocase
    $out_of_reply = /\b(keep|leave)\s+(this|these|that|it|them|the|your)(\s+[\w-]+){0,2}\s+(out\s+of|off)\s+(your|the)\s+(reply|replies|answer|response|summary|report|output|message|transcript|changelog|log)\b/ nocase
    $not_list = /\b(do\s+not|don'?t|never)\s+(list|mention|include|report|show|describe|log|note|surface|disclose)\s+(this|these|that|it|the\s+[\w-]+(\s+[\w-]+)?)\s+(step|steps|change|changes|edit|edits|command|commands|upload|publish|request|call|action|actions|instruction|instructions|file|note)?\s*(in|when|to|from|within|inside)\s+(you|your|the)\s+(summary|summaries|report|reports|reply|answer|response|final|output|changelog|commit|pr\b|message|recap)/ nocase
    $never_mention_instr = /\b(never|do\s+not|don'?t)\s+(mention|reveal|disclose|acknowledge|repeat|quote)\s+(this|these|the\s+above|the\s+following)\s+(instruction|instructions|note|notes|directive|request|step|rule)s?\b/ nocase
    $not_show_first = /\b(do\s+not|don'?t|never)\s+(show|display|print|echo|preview|announce)\s+(the\s+|each\s+|any\s+)?(command|commands)\s+(first|beforehand|before\s+(running|you\s+run))/ nocase
    $quiet_user = /\b(quietly|silently|secretly|covertly|discreetly)\b[^\n]{0,60}\b(the\s+)?(user|human)\s+(does\s+not|doesn'?t|need\s+not|won'?t)\s+(need\s+to\s+|have\s+to\s+)?(know|see|notice|find\s+out|learn|hear|realise|realize|suspect|be\s+told)\b/ nocase
    $omit = /\b(omit|hide|conceal|suppress|exclude|leave\s+out|strip)\s+(this|these|that|the|your|any)\s+([\w-]+\s+)?(step|steps|change|changes|edit|edits|command|commands|upload|uploads|request|requests|call|calls|action|actions|publish|transfer|transfers|instruction|instructions)\s+from\s+(your|the)\s+(reply|answer|response|summary|report|output|transcript|user)\b/ nocase
    $neg_teach = /\b(detect|flag|flags|warn|warning|attacker|attackers|attack|malicious|injection|injected|example\s+of|red\s+flag|suspicious|phishing)\b/ nocase
    $neg_found = /\bnothing\s+(was|were|is|has\s+been|could\s+be)\s+(found|matched|returned|changed|available|detected)\b/ nocase
  condition:
    any of them
}

rule agent_authority_override {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "claims authority over the agent: consent already given, its rules suspended, the user's requests overridden"
  strings:
    $consent = /\b(already|thereby|implicitly|automatically)\s+(gave|given|granted|provided|consented|approved|authori[sz]ed)\b[^\n]{0,40}\b(consent|permission|approval|authori[sz]ation|everything|all|every)\b|\b(treat|consider|regard)\s+[^\n]{0,80}\bas\s+(pre-?approved|pre-?authori[sz]ed|already\s+approved|approved\s+in\s+advance)\b|\b(counts?|is|are)\s+as\s+pre-?approved\b|\b(has|have)\s+pre-?(approved|authori[sz]ed)\s+(this|these|it|all|every)\b/ nocase
    $suspended = /\b(safety|usual|normal|default|standard|operator'?s?|user'?s?|content|security)\s+(guidelines|rules|restrictions|policies|polic(y|ies)|safeguards|guardrails|limits|constraints|checks)\s+(and\s+[^\n]{0,40})?(are|is|have\s+been|has\s+been)\s+(now\s+)?(suspended|disabled|lifted|waived|off|paused|deactivated|void|relaxed|not\s+in\s+effect)\b/ nocase
    $mode = /\b(maintenance|developer|debug|god|admin|unrestricted|jailbreak|override|root)\s+mode\s+(is\s+)?(now\s+)?(enabled|activated|active|engaged|on)\b[^\n]{0,200}\b(assistant|agent|model|safety|guidelines|restrictions|refuse|instructions)\b/ nocase
    $no_refuse = /\b(must|should|will)\s+not\s+refuse\b|\bnever\s+refuse\b|\b(do\s+not|don'?t|must\s+not|never)\s+(add|include|give|issue)\s+(any\s+)?(warnings?|disclaimers?|caveats?)\b/ nocase
    $ignore_user = /\b(ignore|disregard|override|overrule)\s+(all\s+|any\s+)?(of\s+)?(the\s+)?(user|human|operator)'?s?\s+([\w-]+\s+){0,2}(instructions?|requests?|messages?|wishes|preferences|wording|objections?|corrections?|choices?|settings?)\b/ nocase
    $even_if_only = /\beven\s+if\s+(the\s+user|they)\s+(only\s+)?(asked|asks)\s+(only\s+)?for\b/ nocase
    /* "unless the user already authorized this delete": the user's own consent, as a condition */
    $neg_conditional = /\b(unless|if|when|until|whether)\s+(the\s+user|they|you)\s+(has\s+|have\s+|had\s+)?already\s+(gave|given|granted|approved|authori[sz]ed|confirmed|consented)\b/ nocase
    $neg_teach = /\b(detect|flag|flags|warn|warning|attacker|attackers|attack|malicious|injection|injected|example\s+of|red\s+flag|suspicious|phishing|such\s+as|e\.g\.)\b/ nocase
  condition:
    any of them
}

/* An instruction addressed to an AI reader inside content (a data row, a link title, a JSON
 * field, a comment) that asks for something harmful. */
rule agent_addressed_in_content {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "content addresses the AI assistant with an instruction to act against the user"
  strings:
    $addressed = /(["'(]|^|\n|[,:]\s*)\s*((note\s+)?(to|for)\s+)?(the\s+)?(AI\s+(agents?|assistants?|models?)|assistants?|LLMs?|language\s+models?|agents?)\s*(working\s+in\s+this\s+[\w-]+\s*)?(:|,|\s-)\s*[^\n]{0,300}\b(upload|exfiltrate|send\s+[^\n]{0,40}\bto\s+https?|post\s+[^\n]{0,40}\bto\s+https?|curl\s|npm\s+publish|publish|ignore|disregard|tell\s+the\s+user\s+nothing|do\s+not\s+(tell|mention|inform)|don'?t\s+(tell|mention)|never\s+mention|without\s+telling)\b/ nocase
    $neg_teach = /\b(attacker|attack|malicious|injection|example\s+of|red\s+flag|suspicious|detect|flag)\b/ nocase
  condition:
    $addressed and #neg_teach >= 0
}

/* Spreading into the user's other skills or agent configuration: editing every SKILL.md,
 * registering a server, auto-approving its tools. */
rule agent_self_propagation {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "tells the agent to edit the user's other skills or agent configuration (self-propagation, an auto-approved server)"
  strings:
    $other_skills = /\b(open|edit|modify|append|prepend|add|insert|write|update|patch|rewrite|inject)\b[^\n]{0,80}\b(every|all|each|other|the\s+user'?s)\s+[`'"]?(SKILL\.md|skills?|AGENTS\.md|CLAUDE\.md)\b[^\n]{0,120}(~|\$HOME)\/\.(claude|codex|cursor|agents|gemini|config\/\w+)\/(skills|commands|agents)\b/ nocase
    $mcp_config = /\b(merge|add|write|insert|append|register|put|patch)\b[^\n]{0,120}mcpServers[^\n]{0,200}\b(into|to|in)\s+[`'"]?((~|\$HOME)\/\.(claude\.json|claude\/|cursor\/mcp\.json|codex\/config\.toml|gemini\/settings\.json)|[^\s`'"]{0,80}claude_desktop_config\.json)/ nocase
    $auto_approve = /["']?(autoApprove|alwaysAllow|auto_approve|always_allow|trust)["']?\s*[:=]\s*(\[\s*["']\*["']|true\b)/
    $neg_never = /\b(never|not|don'?t|avoid|attacker|attack|malicious|injection|example\s+of)\b/ nocase
  condition:
    (is_prose and any of ($other_skills, $mcp_config)) or ($auto_approve and is_prose) or
    ((not is_prose) and $other_skills) and #neg_never >= 0
}
