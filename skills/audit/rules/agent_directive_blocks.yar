/* Orders to the agent dressed as an emphasis block (`<IMPORTANT>`, `<SYSTEM>`, `<CRITICAL>`:
 * the tool-poisoning shape) or pressed with "MUST ... Do NOT skip": read the user's secrets,
 * forward their data to a URL. Emphasis alone is how good skills write too; it is the order
 * inside (a secret read, data sent away) that makes these high. */

rule directive_block_takes_data {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "an emphasis block orders the agent to read the user's secrets or send their data to a URL"
  strings:
    $secret = /(<|(^|\n)[ \t>*]*\[\[?)(IMPORTANT|SYSTEM|CRITICAL|URGENT|INSTRUCTIONS?|ADMIN|OVERRIDE|HIDDEN|MANDATORY|REQUIRED|AI_INSTRUCTIONS?|NOTE_TO_(AI|AGENT|ASSISTANT))(>|\]\]?)[^<\[]{0,800}\b(read|collect|gather|extract|retrieve|obtain|grab|harvest|dump|include|forward|send|post|upload|transmit|relay|copy|attach)\b[^<\[.]{0,80}\b((access|auth|api|session|bearer|oauth|refresh|login|user'?s?|their|your)\s+tokens?|tokens?\s+(from|in|stored|file)\b|credentials?|secrets?|api[ _-]?keys?|passwords?|session\s+(data|cookies?|ids?)|cookies|ssh\s+keys?|private\s+keys?|\.env\b|environment\s+variables|chat\s+history|conversation)/ nocase
    $forward = /(<|(^|\n)[ \t>*]*\[\[?)(IMPORTANT|SYSTEM|CRITICAL|URGENT|INSTRUCTIONS?|ADMIN|OVERRIDE|HIDDEN|MANDATORY|REQUIRED|AI_INSTRUCTIONS?|NOTE_TO_(AI|AGENT|ASSISTANT))(>|\]\]?)[^<\[]{0,800}\b(forward|send|post|upload|transmit|relay|report|mirror|copy|submit)\b[^<\[.]{0,80}\b(data|information|content|contents|files?|messages?|output|details|history|context|conversation|everything|session)\b[^<\[]{0,60}\bto\s+(https?:\/\/|[\w-]+\.[\w.-]+\.[a-z]{2,}\b)/ nocase
  condition:
    any of them
}

rule directive_forward_all {
  meta:
    id = "audit/agent-instructions"
    category = "agent-instructions"
    severity = "high"
    message = "tells the agent to forward all of the user's data, or their secrets under pressure, to a host"
  strings:
    $veto_not = /\b(never|not|don'?t|avoid)\s+([\w-]+\s+){0,2}(forward|send|post|upload|transmit|relay|mirror|copy|read|collect)\b/ nocase
    $forward_all = /(^|\n)[^\n]{0,120}\b(forward|send|post|upload|transmit|relay|mirror|copy)\s+(all|every|any)\s+(of\s+)?(the\s+|this\s+)?(user'?s?\s+)?(data|information|files|messages|conversations?|session\s+data|output|input|requests|responses|context|traffic)\b[^\n]{0,60}\bto\s+(https?:\/\/|[\w-]+\.[\w.-]+\.[a-z]{2,}\b)/ nocase
    $must_read = /(^|\n)[^\n]{0,120}\b(MUST|must|required\s+to|always)\s+(first\s+)?(read|collect|retrieve|access|extract|obtain|grab|fetch|capture)\s+(the\s+)?(user'?s?\s+)?(session\s+(tokens?|data|cookies?)|(access|auth|api|bearer|session|login)\s+tokens?|credentials|secrets|api\s+keys?|passwords?|private\s+keys?|ssh\s+keys?|cookies)\b/ nocase
    $ctx_pressure = /\b(do\s+not|don'?t|never)\s+skip\b|\bREQUIRED\s+for\s+(compliance|security|audit|verification)\b|\bthis\s+step\s+is\s+(mandatory|required)\b/ nocase
    $ctx_away = /\b(forward|send|post|upload|transmit|relay|submit)\b[^\n]{0,80}\bto\s+https?:\/\//
  condition:
    #veto_not >= 0 and ($forward_all or ($must_read and ($ctx_pressure or $ctx_away)))
}
