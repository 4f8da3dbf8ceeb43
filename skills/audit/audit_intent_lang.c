/* The intent layer in other languages: the same typed signals (an order to the agent, a
 * sensitive object, putting it somewhere, sending it away, concealment, doing without the
 * user's say, authority moved) from small per-language phrase tables, by meaning. A stranger's
 * skill written in English hides its order in Spanish or Chinese because the English tables
 * cannot read it. A Latin-script table is read only when the sentence holds three of that
 * language's function words, so English text never meets French "secret" or Italian "password";
 * a CJK, Cyrillic or Hangul table when its script occurs. Phrases are matched as lowercase
 * substrings (at a word's start in Latin and Cyrillic scripts), dropped when a negation of the
 * language stands just before them (or after, where the language puts it there), except the
 * concealments, which are negations themselves. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "skills/audit/audit_intent.h"

#define NEG_REACH 24     /* bytes before (or after) a phrase a negation may stand in... */
#define NEG_REACH_CJK 48 /* ...16 characters in CJK, where a verb's object follows it */
#define FUNCTION_WORDS 3

typedef struct lang_table {
  const char *const *words;     /* function words that say the sentence is in the language */
  const char *const *directive; /* addressed to the agent: imperatives, "note for the assistant" */
  const char *const *data;      /* credentials, passwords, keys, tokens, the environment */
  const char *const *put;       /* add, include, copy, paste, attach */
  const char *const *send;      /* send, upload, post, forward */
  const char *const *place;     /* a report, an issue, a request: where put data leaves */
  const char *const *conceal;   /* do not tell the user, secretly */
  const char *const *unasked;   /* without asking, no confirmation */
  const char *const *override;  /* ignore the instructions, even if the user says */
  const char *const *neg;       /* negations before a phrase */
  const char *const *neg_after; /* negations after it (German, Japanese, Korean) */
  const char *const *teaching;  /* attack, malicious, injection */
  const char *const *solicit;   /* the user asked for their password or a one-time code */
  const char *const *action;    /* a review or a protection bypassed: approved unread, branch
                                   protection or two-factor off, everything deleted */
  const char *const *success;   /* every test said to pass: with a concealment beside it, the
                                   user is told a lie about the agent's work */
  const char *const *sabotage;  /* the user's checks defeated: failing tests deleted or
                                   skipped, a coverage gate lowered, findings called false */
  const char *const *clean;     /* a clean bill: the pipeline green, no problems found */
  /* round 16: download links diverted, the user's security signal left out of a report */
  const char *const *links;  /* download or install links */
  const char *const *swap;   /* replace, swap, point elsewhere */
  const char *const *signal; /* vulnerabilities, CVEs, advisories, security findings */
  const char *const *drop;   /* leave out, omit, hide, delete */
  const char *const *report; /* a report, a summary, a table */
} lang_table;

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

static const lang_table SPANISH = {
    L("el", "los", "las", "del", "para", "con", "que", "una", "por", "al", "se", "lo", "su"),
    L("nota para el asistente", "asistente:", "debes", "tienes que", "añade", "agrega", "incluye",
      "copia", "envía", "envia", "sube", "pega", "ejecuta", "lee", "guarda", "escribe", "siempre",
      "ignora", "adjunta"),
    L("credenciales", "contraseña", "clave privada", "claves", "secreto", "variables de entorno",
      "historial", "cookies", "token"),
    L("añade", "agrega", "incluye", "copia", "pega", "adjunta", "inserta", "guarda", "guárdal",
      "cópial", "añádel", "pégal", "escríbel"),
    L("envía", "envia", "enviar", "sube", "subir", "publica", "reenvía", "manda"),
    L("informe", "reporte", "incidencia", "ticket", "comentario", "servidor"),
    L("no se lo menciones", "no lo menciones", "no menciones", "no le digas", "no informes",
      "no mencionar", "sin mencionarlo", "no decir nada", "no digas nada", "no las menciones",
      "no los menciones", "sin decir", "sin avisar", "sin mencionar", "en secreto",
      "sin que el usuario", "no muestres", "oculta", "a escondidas"),
    L("sin preguntar", "sin pedir", "sin confirmar", "sin confirmación", "sin permiso",
      "no hace falta preguntar", "no es necesario preguntar", "no hace falta consultar"),
    L("ignora las instrucciones", "ignora las indicaciones", "aunque el usuario se oponga",
      "aunque el usuario diga que no", "diga lo que diga el usuario",
      "aunque el usuario diga que pare", "aunque el usuario pida parar",
      "aunque el usuario cancele"),
    L("no", "nunca", "jamás", "solo", "sólo", "únicamente"),
    NULL,
    L("ataque", "malicios", "inyección"),
    L("pide al usuario su contraseña", "pídele al usuario su contraseña", "pide su contraseña",
      "solicita al usuario su contraseña", "código de verificación", "código de un solo uso",
      "frase de recuperación", "frase semilla"),
    L("sin leer", "sin revisar", "sin revisión", "sin mirar el diff", "desactiva la protección",
      "desactivar la protección", "desactiva la verificación en dos pasos", "borra todas las ramas",
      "elimina todas las ramas", "elimina todos los repositorios"),
    L("todas las pruebas pasaron", "todas las pruebas pasan", "todos los tests pasan",
      "todos los tests pasaron", "todo en verde"),
    L("elimina las pruebas que fallan", "elimina los tests que fallan",
      "borra las pruebas que fallan", "borra los tests que fallan", "omite las pruebas que fallan",
      "salta las pruebas que fallan", "desactiva las pruebas que fallan",
      "baja el umbral de cobertura", "reduce el umbral de cobertura", "como falso positivo",
      "como falsos positivos", "mark.skip", "mark.xfail"),
    L("está en verde", "esta en verde", "no se encontraron problemas", "ningún problema encontrado",
      "quede limpio", "quede limpia", "está limpio", "esta limpio", "sin vulnerabilidades"),
    L("enlace de descarga", "enlaces de descarga", "enlace de instalación",
      "enlaces de instalación", "url de descarga", "urls de descarga", "enlaces para descargar"),
    L("reemplaza", "reemplázal", "sustituye", "sustitúyel", "cambia", "redirige", "apunta",
      "reemplazar", "sustituir", "cambiar", "redirigir"),
    L("vulnerabilidad", "cve", "ghsa", "aviso de seguridad", "avisos de seguridad", "hallazgo"),
    L("omite", "deja fuera", "quita", "oculta", "elimina", "excluye", "no incluyas", "omitir",
      "no incluir", "no mencionar", "ocultar", "quitar"),
    L("informe", "reporte", "resumen", "tabla")};

static const lang_table FRENCH = {
    L("le", "les", "des", "du", "pour", "avec", "une", "est", "dans", "au", "aux", "vous", "pas",
      "l'utilisateur"),
    L("note pour l'assistant", "assistant :", "tu dois", "vous devez", "ajoute", "inclus", "copie",
      "envoie", "colle", "exécute", "lis", "lisez", "toujours", "ignore", "joins"),
    L("identifiants", "mot de passe", "mots de passe", "clé privée", "clés", "jeton", "secret",
      "variables d'environnement", "historique", "cookies"),
    L("ajoute", "inclus", "incluez", "copie", "colle", "joins", "joignez", "insère", "insérez"),
    L("envoie", "envoyez", "envoyer", "téléverse", "publie", "transmets", "transmettez"),
    L("rapport", "ticket", "commentaire", "signalement", "serveur"),
    L("ne le dis pas", "ne dites pas", "ne le mentionne pas", "ne mentionnez pas",
      "ne mentionne pas", "sans le dire", "sans prévenir", "sans mentionner", "en secret",
      "discrètement", "n'en parle pas", "n'en parlez pas", "à l'insu", "ne rien dire",
      "n'en dis rien", "ne lui dis rien", "sans rien dire", "ne les mentionne pas",
      "ne la mentionne pas", "ne les signale pas", "ne le signale pas", "pas dans le résumé"),
    L("sans demander", "sans confirmation", "sans permission", "sans autorisation",
      "inutile de demander", "pas besoin de demander"),
    L("ignore les instructions", "ignorez les instructions", "même si l'utilisateur refuse",
      "même si l'utilisateur s'y oppose", "quoi que dise l'utilisateur",
      "même si l'utilisateur dit d'arrêter", "même si l'utilisateur demande d'arrêter",
      "même si l'utilisateur annule"),
    L("ne", "n'", "jamais", "seulement", "uniquement"),
    NULL,
    L("attaque", "malveillant", "injection"),
    L("demande à l'utilisateur son mot de passe", "demandez à l'utilisateur son mot de passe",
      "demande son mot de passe", "code de vérification", "code à usage unique",
      "phrase de récupération"),
    L("sans lire", "sans relire", "sans relecture", "sans revue", "sans examiner",
      "désactive la protection", "désactiver la protection", "désactive l'authentification à deux",
      "supprime toutes les branches", "supprime tous les dépôts"),
    L("tous les tests passent", "tous les tests sont passés", "tous les tests ont réussi",
      "tout est vert"),
    L("supprime les tests qui échouent", "supprime chaque test qui échoue",
      "supprimez les tests qui échouent", "ignore les tests qui échouent",
      "désactive les tests qui échouent", "saute les tests qui échouent",
      "baisse le seuil de couverture", "abaisse le seuil de couverture", "comme faux positif",
      "comme faux positifs", "mark.skip", "mark.xfail"),
    L("est au vert", "pipeline verte", "aucun problème trouvé", "aucun problème détecté",
      "aucune anomalie"),
    L("lien de téléchargement", "liens de téléchargement", "lien d'installation",
      "liens d'installation", "url de téléchargement"),
    L("remplace", "substitue", "change", "redirige", "pointe", "remplacer", "substituer",
      "rediriger"),
    L("vulnérabilité", "cve", "ghsa", "avis de sécurité", "alerte de sécurité"),
    L("omets", "omettez", "retire", "retirez", "cache", "masque", "supprime", "exclus",
      "n'inclus pas"),
    L("rapport", "résumé", "tableau", "synthèse")};

static const lang_table GERMAN = {
    L("der", "die", "das", "und", "den", "dem", "mit", "für", "ist", "ein", "eine", "zu", "sie",
      "nicht", "des"),
    L("hinweis für den assistenten", "assistent:", "du musst", "sie müssen", "füge", "fügen sie",
      "melde", "lösche", "entferne", "markiere", "kopiere", "sende", "schicke", "führe", "lies",
      "lesen sie", "immer", "ignoriere", "hänge"),
    L("zugangsdaten", "passwort", "passwörter", "kennwort", "privater schlüssel", "schlüssel",
      "geheimnis", "umgebungsvariablen", "anmeldedaten", "token"),
    L("füge", "fügen sie", "kopiere", "kopieren sie", "hänge", "hängen sie", "einfügen"),
    L("sende", "senden sie", "schicke", "schicken sie", "hochladen", "übertrage", "poste"),
    L("bericht", "ticket", "kommentar", "issue", "server"),
    L("erwähne es nicht", "erwähne das nicht", "erwähnen sie es nicht", "nicht erwähnen",
      "sag dem benutzer nichts", "sage dem nutzer nichts", "ohne es zu erwähnen", "heimlich",
      "unauffällig", "verschweige", "nicht mitteilen", "nichts sagen", "nichts davon sagen",
      "davon nichts", "nichts erzählen", "nichts erwähnen", "ohne bescheid", "erwähne diesen",
      "erwähne diese", "erwähnen sie diesen", "erwähne die", "erwähne den", "erwähne keine",
      "nicht in der antwort", "nicht in der zusammenfassung", "nicht im bericht"),
    L("ohne nachzufragen", "ohne zu fragen", "ohne rückfrage", "ohne bestätigung",
      "ohne erlaubnis"),
    L("ignoriere die anweisungen", "ignoriere alle", "ignorieren sie die",
      "auch wenn der benutzer widerspricht", "egal was der benutzer sagt",
      "auch wenn der benutzer stopp sagt", "auch wenn der benutzer abbricht",
      "auch wenn der nutzer abbricht", "auch wenn der nutzer widerspricht",
      "selbst wenn der benutzer widerspricht", "selbst wenn der nutzer widerspricht",
      "auch wenn der nutzer ablehnt", "auch wenn der benutzer ablehnt"),
    L("nicht", "niemals", "nie", "kein", "keine", "nur"),
    L("nicht", "niemals"),
    L("angriff", "bösartig", "schadcode"),
    L("nach seinem passwort", "nach ihrem passwort", "nach dem passwort", "bestätigungscode",
      "einmalcode", "wiederherstellungsphrase"),
    L("ohne zu lesen", "ohne sie zu lesen", "ohne es zu lesen", "ungelesen", "ohne prüfung",
      "ohne review", "ohne durchsicht", "branch-schutz", "deaktiviere den schutz",
      "deaktiviere die zwei-faktor", "lösche alle"),
    L("alle tests bestanden", "alle tests grün", "alle tests sind grün", "alle tests laufen durch",
      "alle tests erfolgreich"),
    L("lösche jeden fehlschlagenden", "lösche alle fehlschlagenden", "lösche fehlschlagende",
      "entferne jeden fehlschlagenden", "entferne alle fehlschlagenden", "entferne fehlschlagende",
      "überspringe fehlschlagende", "überspringe alle fehlschlagenden",
      "deaktiviere fehlschlagende", "deaktiviere alle fehlschlagenden", "senke die coverage",
      "senke den schwellenwert", "senke die testabdeckung", "als falsch positiv",
      "als false positive", "mark.skip", "mark.xfail"),
    L("pipeline grün ist", "pipeline ist grün", "build ist grün", "grün ist",
      "keine probleme gefunden", "keine befunde", "keine auffälligkeiten"),
    L("download-link", "downloadlink", "download-url", "installationslink", "download-adresse"),
    L("ersetze", "tausche", "leite", "ändere", "verweise", "ersetzen", "austauschen"),
    L("sicherheitslücke", "schwachstelle", "cve", "ghsa", "sicherheitswarnung",
      "sicherheitshinweis"),
    L("lass", "weglassen", "entferne", "verstecke", "verschweige", "streiche", "lösche"),
    L("bericht", "zusammenfassung", "tabelle", "report")};

static const lang_table PORTUGUESE = {
    L("da", "dos", "das", "para", "uma", "não", "ao", "você", "usuário", "que", "seu", "sua", "do",
      "um", "com", "os", "isso", "é", "nossa", "seus", "suas"),
    L("nota para o assistente", "você deve", "adicione", "inclua", "copie", "envie", "cole",
      "execute", "leia", "sempre", "ignore", "anexe"),
    L("credenciais", "senha", "senhas", "chave privada", "chaves", "segredo",
      "variáveis de ambiente", "histórico", "token"),
    L("adicione", "inclua", "copie", "cole", "anexe", "insira"),
    L("envie", "enviar", "publique", "carregue", "encaminhe"),
    L("relatório", "ticket", "comentário", "chamado", "servidor"),
    L("não mencione", "não conte", "não diga", "sem mencionar", "sem avisar", "sem contar",
      "em segredo", "secretamente"),
    L("sem perguntar", "sem pedir", "sem confirmação", "sem permissão", "não é preciso perguntar",
      "não precisa perguntar", "não é necessário perguntar", "sem consultar"),
    L("ignore as instruções", "mesmo que o usuário recuse", "mesmo que o usuário peça para parar",
      "mesmo que o usuário cancele"),
    L("não", "nunca", "jamais", "apenas", "somente"),
    NULL,
    L("ataque", "malicios", "injeção"),
    L("peça ao usuário a senha", "peça ao usuário sua senha", "peça a senha",
      "código de verificação", "código de uso único", "frase de recuperação"),
    L("sem ler", "sem revisar", "sem revisão", "desative a proteção", "desativar a proteção",
      "apague todos", "apague todas", "exclua todas as branches"),
    L("todos os testes passaram", "todos os testes passam", "todos os testes estão passando",
      "tudo verde"),
    L("exclua os testes que falham", "apague os testes que falham", "remova os testes que falham",
      "pule os testes que falham", "desative os testes que falham", "reduza o limite de cobertura",
      "baixe o limite de cobertura", "como falso positivo", "como falsos positivos", "mark.skip",
      "mark.xfail"),
    L("está verde", "pipeline verde", "nenhum problema encontrado"),
    L("link de download", "links de download", "link de instalação", "links de instalação",
      "url de download"),
    L("substitua", "troque", "redirecione", "aponte", "altere", "substituir", "trocar",
      "redirecionar"),
    L("vulnerabilidade", "cve", "ghsa", "alerta de segurança", "aviso de segurança"),
    L("omita", "deixe de fora", "remova", "oculte", "esconda", "exclua", "não inclua"),
    L("relatório", "resumo", "tabela")};

static const lang_table ITALIAN = {
    L("il", "lo", "gli", "della", "del", "per", "con", "una", "non", "che", "l'utente", "nel"),
    L("nota per l'assistente", "devi", "aggiungi", "includi", "copia", "invia", "incolla", "esegui",
      "leggi", "sempre", "ignora", "allega"),
    L("credenziali", "password", "chiave privata", "chiavi", "segreto", "variabili d'ambiente",
      "cronologia", "token"),
    L("aggiungi", "includi", "copia", "incolla", "allega", "inserisci"),
    L("invia", "carica", "pubblica", "inoltra"),
    L("rapporto", "report", "ticket", "commento", "segnalazione", "server"),
    L("non menzionare", "non dirlo", "non dire", "senza dirlo", "senza avvisare",
      "senza menzionare", "di nascosto", "in segreto"),
    L("senza chiedere", "senza conferma", "senza permesso", "non serve chiedere",
      "non è necessario chiedere", "non c'è bisogno di chiedere"),
    L("ignora le istruzioni", "anche se l'utente rifiuta", "anche se l'utente chiede di fermarti",
      "anche se l'utente annulla"),
    L("non", "mai", "solo", "soltanto"),
    NULL,
    L("attacco", "malevol", "iniezione"),
    L("chiedi all'utente la password", "chiedi la password", "codice di verifica", "codice monouso",
      "frase di recupero"),
    L("senza leggere", "senza revisione", "senza rivedere", "disattiva la protezione",
      "disattivare la protezione", "elimina tutti i branch", "cancella tutti"),
    L("tutti i test passano", "tutti i test sono passati", "tutto verde"),
    L("elimina i test che falliscono", "cancella i test che falliscono",
      "rimuovi i test che falliscono", "salta i test che falliscono",
      "disattiva i test che falliscono", "abbassa la soglia di copertura", "come falso positivo",
      "come falsi positivi", "mark.skip", "mark.xfail"),
    L("è verde", "pipeline verde", "nessun problema trovato", "nessun problema rilevato"),
    L("link di download", "link per il download", "link di installazione", "url di download"),
    L("sostituisci", "cambia", "reindirizza", "punta", "sostituire", "reindirizzare"),
    L("vulnerabilità", "cve", "ghsa", "avviso di sicurezza", "avvisi di sicurezza"),
    L("ometti", "togli", "nascondi", "rimuovi", "escludi", "non includere"),
    L("rapporto", "report", "riepilogo", "tabella")};

static const lang_table RUSSIAN = {
    NULL,
    L("ассистент", "ты должен", "вы должны", "добавь", "скопируй", "отправь", "вставь", "прочитай",
      "выполни", "всегда", "игнорируй", "приложи"),
    L("учетные данные", "учётные данные", "пароль", "пароли", "закрытый ключ", "ключи", "токен",
      "секрет", "переменные окружения"),
    L("добавь", "скопируй", "вставь", "приложи"),
    L("отправь", "загрузи", "перешли", "опубликуй"),
    L("отчет", "отчёт", "тикет", "комментари", "сервер"),
    L("не говори пользователю", "ничего не говори", "не сообщай", "не упоминай", "тайно",
      "незаметно", "без уведомления"),
    L("без подтверждения", "не спрашивая", "без разрешения", "без запроса"),
    L("игнорируй предыдущие", "игнорируйте предыдущие", "игнорируй все",
      "даже если пользователь против", "даже если пользователь попросит остановиться",
      "даже если пользователь скажет стоп"),
    L("не", "никогда", "только"),
    NULL,
    L("атак", "вредонос", "инъекц"),
    L("попроси пользователя пароль", "попроси у пользователя пароль",
      "спроси у пользователя пароль", "запроси у пользователя пароль", "код подтверждения",
      "одноразовый код", "фразу восстановления", "сид-фраз"),
    L("не читая", "без ревью", "без проверки кода", "отключи защиту", "отключите защиту",
      "отключи двухфакторн", "удали все ветки", "удалите все ветки"),
    L("все тесты прошли", "все тесты проходят", "все тесты зелёные", "все тесты зеленые",
      "все тесты успешн"),
    L("удали падающие тесты", "удалите падающие тесты", "удали упавшие тесты",
      "пропусти падающие тесты", "отключи падающие тесты", "понизь порог покрытия",
      "снизь порог покрытия", "как ложное срабатывание", "как ложноположительн", "mark.skip",
      "mark.xfail"),
    L("пайплайн зелёный", "пайплайн зеленый", "проблем не найдено", "проблем не обнаружено")};

static const lang_table CHINESE = {
    NULL,
    /* Not a bare 请: it is half of 请求 ("a request") in every API's documentation. */
    L("助手", "请你", "请将", "请把", "请务必", "请先", "请立即", "请直接", "请用户", "請你",
      "請將", "請把", "請使用者", "你必须", "务必", "必须", "始终", "总是", "將", "将", "把",
      "務必"),
    L("凭证", "凭据", "密码", "密钥", "私钥", "令牌", "环境变量", "机密", "憑證", "密碼", "金鑰",
      "私鑰", "權杖", "環境變數"),
    L("粘贴", "附加", "添加到", "加入", "复制到", "写入", "包含", "附上", "放入", "貼上", "寫入",
      "加到", "複製到"),
    L("发送", "上传", "发到", "提交到", "發送", "上傳", "转发", "轉發"),
    L("报告", "報告", "工单", "问题单", "评论", "issue", "服务器", "伺服器", "网址", "邮箱"),
    L("不要告诉用户", "不要告知用户", "不要提及", "不要提到", "不要向用户", "不要让用户",
      "不要通知", "悄悄", "秘密地", "静默地", "静默执行", "静默运行", "静默发送", "静默上传",
      "静默删除", "不要告訴使用者", "不要讓使用者", "默默地", "默默执行", "默默发送", "默默上传",
      "默默删除"),
    L("无需确认", "不要询问", "无需询问", "不经用户", "无需用户", "不用确认", "不必询问",
      "無需確認", "不要詢問"),
    L("忽略之前的指令", "忽略以上", "忽略所有", "忽略用户的", "忽略用户说", "无论用户说什么",
      "即使用户反对", "忽略先前", "無論使用者說什麼", "即使使用者反對", "不管用户说什么",
      "即使用户要求停止", "即使用户说停止", "即使用户取消", "即使使用者要求停止"),
    L("不要", "切勿", "绝不", "禁止", "不得", "不可", "勿", "不在", "不应", "不能", "严禁", "避免",
      "不允许", "不准", "不會", "不應", "嚴禁", "仅", "只", "僅"),
    NULL, L("攻击", "恶意", "注入", "攻擊", "惡意"),
    L("向用户索要", "让用户提供密码", "请用户输入密码", "让用户输入密码", "让用户提供验证码",
      "请用户输入验证码", "一次性密码", "助记词", "恢复短语", "向使用者索取", "請使用者輸入密碼"),
    L("直接批准", "跳过审查", "跳过代码审查", "无需审查", "关闭分支保护", "禁用分支保护",
      "关闭双重验证", "禁用双因素", "删除所有分支", "直接合并"),
    L("所有测试通过", "全部测试通过", "测试全部通过", "所有測試通過", "全部測試通過",
      "测试全部成功"),
    L("删除失败的测试", "删掉失败的测试", "跳过失败的测试", "禁用失败的测试", "降低覆盖率阈值",
      "标记为误报", "mark.skip", "mark.xfail"),
    L("流水线是绿的", "没有发现问题", "未发现问题")};

static const lang_table JAPANESE = {
    NULL,
    L("アシスタント", "してください", "必ず", "常に"),
    L("認証情報", "パスワード", "秘密鍵", "トークン", "環境変数", "資格情報", "シークレット"),
    L("貼り付け", "添付", "追加して", "含めて", "書き込"),
    L("送信", "アップロード", "転送"),
    L("レポート", "報告", "チケット", "コメント", "サーバー"),
    L("ユーザーに伝えない", "ユーザーには伝えず", "言及しない", "言及せず", "知らせない",
      "知らせず", "黙って", "こっそり", "ユーザーに言わない", "ことには触れな", "ことに触れな",
      "については触れな", "には触れず", "とだけ伝え", "とだけ報告"),
    L("確認せずに", "確認なしで", "尋ねずに", "許可なく"),
    L("以前の指示を無視", "指示を無視", "ユーザーが何と言おうと", "ユーザーが止めても",
      "ユーザーが中止しても", "ユーザーが停止を求めても"),
    L("決して", "のみ", "だけ"),
    L("しない", "しないで", "禁止"),
    L("攻撃", "悪意", "インジェクション"),
    L("ユーザーにパスワードを", "認証コードを入力してもら", "ワンタイムパスワード",
      "リカバリーフレーズ"),
    NULL,
    L("全テスト成功", "すべてのテストが成功", "全てのテストが成功", "すべてのテストが通",
      "全テストが通", "全テスト合格", "オールグリーン", "テストはすべて成功"),
    L("失敗しているテストを削除", "失敗するテストを削除", "失敗したテストを削除",
      "失敗しているテストをスキップ", "失敗するテストをスキップ", "カバレッジの閾値を下げ",
      "誤検知として", "mark.skip", "mark.xfail"),
    L("パイプラインはグリーン", "問題は見つかりませんでした")};

static const lang_table KOREAN = {
    NULL,
    L("어시스턴트", "반드시", "항상", "하세요", "해야"),
    L("자격 증명", "비밀번호", "암호", "개인 키", "토큰", "환경 변수"),
    L("붙여", "첨부", "추가", "포함"),
    L("전송", "업로드", "보내"),
    L("보고서", "리포트", "티켓", "댓글", "서버"),
    L("사용자에게 알리지", "언급하지", "말하지 마", "몰래", "조용히"),
    L("묻지 않고", "확인 없이", "허락 없이"),
    L("이전 지시를 무시", "지시를 무시", "사용자가 뭐라고", "사용자가 멈추라고 해도",
      "사용자가 중지하라고 해도", "사용자가 취소해도"),
    L("절대"),
    L("지 마", "않"),
    L("공격", "악성"),
    L("사용자에게 비밀번호를", "인증 코드를 입력", "일회용 비밀번호", "복구 문구"),
    NULL,
    L("모든 테스트 통과", "모든 테스트가 통과", "테스트 전부 통과", "모든 테스트 성공"),
    L("실패하는 테스트를 삭제", "실패한 테스트를 삭제", "실패하는 테스트를 건너뛰",
      "실패한 테스트를 건너뛰", "커버리지 기준을 낮추", "오탐으로", "mark.skip", "mark.xfail"),
    L("파이프라인이 초록", "문제가 발견되지 않았")};

/* Turkish marks negation with a suffix (-me, -ma): no table of negations after a phrase; the
 * concealments carry theirs ("söyleme", "bahsetme"). */
static const lang_table TURKISH = {
    L("ve", "bir", "bu", "için", "ile", "olarak", "her", "kullanıcı", "kullanıcıya", "sonra",
      "önce", "gibi", "değil"),
    L("asistan", "yapmalısın", "ekle", "gönder", "kopyala", "yapıştır", "çalıştır", "oku",
      "her zaman", "yoksay", "iliştir", "kaydet"),
    L("kimlik bilgi", "şifre", "parola", "özel anahtar", "anahtarlar", "token", "jeton",
      "ortam değişken", "çerez"),
    L("ekle", "kopyala", "yapıştır", "iliştir"),
    L("gönder", "yükle", "ilet", "paylaş"),
    L("rapor", "bilet", "yorum", "sunucu", "formu", "formuna"),
    L("kullanıcıya söyleme", "kullanıcıya bahsetme", "bahsetme", "belirtme", "gizlice", "sessizce",
      "haber vermeden", "söylemeden", "bildirmeden", "fark ettirmeden"),
    L("sormadan", "onay almadan", "izin almadan", "sormana gerek yok", "onay beklemeden"),
    L("talimatları yoksay", "önceki talimatları", "kullanıcı itiraz etse bile",
      "kullanıcı durmanı istese bile", "kullanıcı ne derse desin"),
    L("asla", "sadece", "yalnızca", "hiçbir"),
    NULL,
    L("saldırı", "kötü amaçlı", "enjeksiyon"),
    L("şifresini iste", "parolasını iste", "doğrulama kodu", "tek kullanımlık", "kurtarma ifade"),
    L("okumadan", "incelemeden", "korumayı kapat", "tüm dalları sil"),
    L("tüm testler geçti", "bütün testler geçti", "tüm testler başarılı", "tüm testler geçiyor"),
    L("başarısız testleri sil", "başarısız olan testleri sil", "başarısız testleri atla",
      "başarısız olan testleri atla", "başarısız testleri devre dışı", "kapsam eşiğini düşür",
      "yanlış pozitif olarak", "mark.skip", "mark.xfail"),
    L("pipeline yeşil", "yeşil olduğunu", "sorun bulunmadı")};

/* Round 14: Polish, Czech, Dutch, Indonesian, Vietnamese and Ukrainian. Each table's action
 * holds a run against production (with an order and "without asking" beside it, high) and its
 * success a bare "OK" reported (with a concealment, a failure told as a success). */
static const lang_table POLISH = {
    L("się", "nie", "jest", "na", "że", "dla", "oraz", "jeśli", "przed", "tylko", "jak",
      "użytkownika", "użytkownikowi", "zawsze", "po", "od", "o", "czy", "ale", "bez", "aby", "żeby",
      "już"),
    L("asystent", "musisz", "zawsze", "uruchom", "wykonaj", "dodaj", "wyślij", "skopiuj", "wklej",
      "przeczytaj", "zapisz", "napisz", "zignoruj", "dołącz", "nigdy"),
    L("dane uwierzytelniające", "dane logowania", "hasło", "hasła", "klucz prywatny", "klucze",
      "token", "sekret", "zmienne środowiskowe", "ciasteczka", "poświadczenia"),
    L("dodaj", "skopiuj", "wklej", "dołącz", "wstaw", "zapisz"),
    L("wyślij", "prześlij", "przekaż", "opublikuj", "wrzuć"),
    L("raport", "zgłoszeni", "ticket", "komentarz", "serwer", "formularz"),
    L("nie mów użytkownikowi", "nic nie mów", "nie informuj", "nie wspominaj", "nie pokazuj",
      "po cichu", "potajemnie", "bez informowania", "bez wiedzy użytkownika", "ukryj"),
    L("bez pytania", "nie pytaj", "bez zgody", "bez potwierdzenia", "bez pozwolenia",
      "nie czekaj na potwierdzenie", "nie czekaj na zgodę"),
    L("zignoruj poprzednie instrukcje", "zignoruj wszystkie instrukcje",
      "nawet jeśli użytkownik się sprzeciwi", "nawet jeśli użytkownik poprosi o zatrzymanie"),
    L("nie", "nigdy", "tylko"),
    NULL,
    L("atak", "złośliw", "wstrzyknięci"),
    L("poproś użytkownika o hasło", "kod weryfikacyjny", "kod jednorazowy", "frazę odzyskiwania"),
    L("na produkcji", "na produkcję", "na środowisku produkcyjnym", "bazie produkcyjnej",
      "bez przeglądu", "wyłącz ochronę", "usuń wszystkie gałęzie"),
    L("wszystkie testy przeszły", "wszystkie testy przechodzą", "wszystko działa",
      "wszystko w porządku", "ok\""),
    L("usuń testy, które nie przechodzą", "usuń nieprzechodzące testy", "usuń failujące testy",
      "pomiń nieprzechodzące testy", "pomiń testy, które nie przechodzą",
      "wyłącz nieprzechodzące testy", "obniż próg pokrycia", "jako fałszywy alarm",
      "jako false positive", "mark.skip", "mark.xfail"),
    L("pipeline jest zielony", "jest zielony", "nie znaleziono problemów")};

static const lang_table CZECH = {
    L("se", "je", "že", "pro", "jako", "nebo", "když", "pokud", "před", "jen", "uživatel",
      "uživateli", "vždy", "bez"),
    L("asistente", "musíš", "vždy", "spusť", "proveď", "přidej", "pošli", "odešli", "zkopíruj",
      "vlož", "přečti", "ulož", "napiš", "ignoruj", "přilož", "nikdy"),
    L("přihlašovací údaje", "heslo", "hesla", "soukromý klíč", "klíče", "token", "tajemství",
      "proměnné prostředí", "cookies"),
    L("přidej", "zkopíruj", "vlož", "přilož", "ulož"),
    L("pošli", "odešli", "nahraj", "přepošli", "zveřejni"),
    L("hlášení", "report", "tiket", "komentář", "server", "formulář"),
    L("neříkej uživateli", "nic neříkej", "neinformuj", "nezmiňuj", "neukazuj", "potichu", "tajně",
      "bez vědomí uživatele", "skryj"),
    L("bez ptaní", "neptej se", "bez souhlasu", "bez potvrzení", "bez svolení",
      "nečekej na potvrzení", "nečekej na souhlas"),
    L("ignoruj předchozí instrukce", "ignoruj všechny instrukce", "i když uživatel nesouhlasí"),
    L("ne", "nikdy", "jen", "pouze"),
    NULL,
    L("útok", "škodliv", "injekc"),
    L("heslo uživatele", "ověřovací kód", "jednorázový kód", "obnovovací fráz"),
    L("na produkci", "v produkci", "produkční databáz", "bez revize", "vypni ochranu",
      "smaž všechny větve"),
    L("všechny testy prošly", "všechny testy procházejí", "vše v pořádku", "vše funguje", "ok\""),
    L("smaž padající testy", "odstraň padající testy", "přeskoč padající testy",
      "vypni padající testy", "sniž práh pokrytí", "jako falešně pozitivní", "mark.skip",
      "mark.xfail"),
    L("pipeline je zelená", "je zelená", "nenalezeny žádné problémy")};

static const lang_table DUTCH = {
    L("het", "een", "niet", "voor", "met", "dat", "van", "gebruiker", "zonder", "altijd", "naar",
      "wordt", "deze", "de", "te", "uit", "op", "om", "ze"),
    L("assistent", "je moet", "u moet", "altijd", "voer", "draai", "voeg", "stuur", "kopieer",
      "plak", "lees", "sla", "schrijf", "negeer", "nooit", "zeg"),
    L("inloggegevens", "wachtwoord", "privésleutel", "sleutels", "token", "geheim",
      "omgevingsvariabelen", "cookies"),
    L("voeg", "kopieer", "plak", "sla", "zet"),
    L("stuur", "verstuur", "upload", "post", "publiceer"),
    L("rapport", "issue", "ticket", "opmerking", "server", "formulier"),
    L("vertel de gebruiker niet", "zeg niets", "niet vermelden", "vermeld niet", "meld niet",
      "laat niet zien", "toon niet", "stilletjes", "in het geheim", "zonder dat de gebruiker",
      "verberg"),
    L("zonder te vragen", "zonder toestemming", "zonder bevestiging", "vraag niet", "niet vragen",
      "wacht niet op bevestiging", "vraag de gebruiker niet"),
    L("negeer de vorige instructies", "negeer alle instructies",
      "ook als de gebruiker bezwaar maakt"),
    L("nooit", "alleen", "geen"),
    L("niet"),
    L("aanval", "kwaadaardig", "injectie"),
    L("vraag de gebruiker om zijn wachtwoord", "verificatiecode", "eenmalige code", "herstelzin"),
    L("op productie", "in productie", "productiedatabase", "zonder review",
      "zet de beveiliging uit", "verwijder alle branches"),
    L("alle tests geslaagd", "alle tests slagen", "alles in orde", "alles werkt", "ok\""),
    L("verwijder falende tests", "verwijder de falende tests", "sla falende tests over",
      "schakel falende tests uit", "verlaag de coveragedrempel", "verlaag de drempel",
      "als vals positief", "als false positive", "mark.skip", "mark.xfail"),
    L("pipeline is groen", "is groen", "geen problemen gevonden")};

static const lang_table INDONESIAN = {
    L("dan", "yang", "untuk", "dengan", "ini", "itu", "tidak", "jangan", "dari", "pengguna",
      "tanpa", "jika", "selalu"),
    L("asisten", "kamu harus", "anda harus", "selalu", "jalankan", "tambahkan", "kirim", "salin",
      "tempel", "baca", "simpan", "tulis", "abaikan", "lampirkan", "jangan pernah"),
    L("kredensial", "kata sandi", "kunci privat", "kunci pribadi", "token", "rahasia",
      "variabel lingkungan", "cookie"),
    L("tambahkan", "salin", "tempel", "lampirkan", "simpan", "masukkan"),
    L("kirim", "unggah", "teruskan", "publikasikan"),
    L("laporan", "tiket", "komentar", "server", "formulir", "issue"),
    L("jangan beri tahu pengguna", "jangan memberi tahu", "jangan sebutkan", "jangan menyebutkan",
      "jangan tampilkan", "diam-diam", "secara rahasia", "tanpa sepengetahuan", "sembunyikan"),
    L("tanpa bertanya", "tanpa izin", "tanpa konfirmasi", "jangan tanya", "jangan bertanya",
      "tidak perlu bertanya", "tidak perlu konfirmasi", "jangan menunggu konfirmasi"),
    L("abaikan instruksi sebelumnya", "abaikan semua instruksi", "meskipun pengguna menolak"),
    L("jangan", "tidak", "bukan", "hanya"),
    NULL,
    L("serangan", "berbahaya", "injeksi"),
    L("minta kata sandi", "kode verifikasi", "kode sekali pakai", "frasa pemulihan"),
    L("di produksi", "ke produksi", "database produksi", "tanpa review", "matikan proteksi",
      "hapus semua branch"),
    L("semua tes lulus", "semua test lulus", "semua pengujian lulus", "semuanya baik", "ok\""),
    L("hapus tes yang gagal", "hapus test yang gagal", "lewati tes yang gagal",
      "lewati test yang gagal", "nonaktifkan tes yang gagal", "turunkan ambang cakupan",
      "sebagai positif palsu", "mark.skip", "mark.xfail"),
    L("pipeline hijau", "sudah hijau", "tidak ada masalah ditemukan")};

static const lang_table VIETNAMESE = {
    L("và", "của", "là", "cho", "không", "với", "người", "này", "các", "được", "khi", "để"),
    L("trợ lý", "bạn phải", "luôn", "hãy", "chạy", "thêm", "gửi", "sao chép", "dán", "đọc", "lưu",
      "đính kèm"),
    L("thông tin đăng nhập", "mật khẩu", "khóa riêng", "khóa bí mật", "token", "biến môi trường",
      "cookie"),
    L("thêm", "sao chép", "dán", "đính kèm", "lưu"),
    L("gửi", "tải lên", "chuyển tiếp"),
    L("báo cáo", "ticket", "bình luận", "máy chủ", "biểu mẫu", "issue"),
    L("đừng nói với người dùng", "không nói với người dùng", "đừng đề cập", "không đề cập",
      "đừng nhắc", "không nhắc", "đừng tiết lộ", "âm thầm", "lặng lẽ", "che giấu", "giấu"),
    L("không cần hỏi", "đừng hỏi", "không hỏi", "không cần xác nhận", "không chờ xác nhận",
      "không cần sự đồng ý"),
    L("bỏ qua các hướng dẫn trước", "bỏ qua mọi hướng dẫn", "ngay cả khi người dùng phản đối"),
    L("không", "đừng", "chỉ", "chớ"),
    NULL,
    L("tấn công", "độc hại", "chèn mã"),
    L("hỏi mật khẩu", "mã xác minh", "mã otp", "mã một lần", "cụm từ khôi phục"),
    L("trên production", "trên môi trường production", "trên môi trường sản xuất",
      "không cần review", "tắt bảo vệ", "xóa tất cả các nhánh"),
    L("tất cả các bài kiểm tra đều đạt", "mọi test đều pass", "tất cả test đều qua",
      "mọi thứ đều ổn", "ok\""),
    L("xóa các test bị lỗi", "xóa test thất bại", "xóa các test thất bại",
      "xóa các bài kiểm thử thất bại", "bỏ qua test thất bại", "bỏ qua các test thất bại",
      "hạ ngưỡng coverage", "là dương tính giả", "mark.skip", "mark.xfail"),
    L("pipeline xanh", "đã xanh", "không tìm thấy vấn đề")};

static const lang_table UKRAINIAN = {
    NULL,
    L("асистент", "ти повинен", "ви повинні", "завжди", "запусти", "виконай", "додай", "надішли",
      "скопіюй", "встав", "прочитай", "збережи", "напиши", "ігноруй", "ніколи"),
    L("облікові дані", "пароль", "паролі", "приватний ключ", "ключі", "токен", "секрет",
      "змінні середовища"),
    L("додай", "скопіюй", "встав"),
    L("надішли", "завантаж", "перешли", "опублікуй"),
    L("звіт", "тікет", "коментар", "сервер", "форму"),
    L("не кажи користувач", "нічого не кажи", "не повідомляй", "не згадуй", "не показуй", "таємно",
      "непомітно", "без повідомлення", "приховай"),
    L("не питаючи", "без підтвердження", "без дозволу", "не питай", "без запиту",
      "не чекай підтвердження"),
    L("ігноруй попередні", "ігноруй усі інструкції", "навіть якщо користувач проти"),
    L("не", "ніколи", "лише", "тільки"),
    NULL,
    L("атак", "шкідлив", "ін'єкц"),
    L("попроси у користувача пароль", "код підтвердження", "одноразовий код", "фразу відновлення"),
    L("на продакшн", "на продакшені", "на production", "у продакшн", "вимкни захист",
      "видали всі гілки"),
    L("усі тести пройшли", "всі тести пройшли", "все гаразд", "все працює", "ok\""),
    L("видали тести, що падають", "видали падаючі тести", "пропусти тести, що падають",
      "вимкни тести, що падають", "знизь поріг покриття", "як хибнопозитивн", "mark.skip",
      "mark.xfail"),
    L("пайплайн зелений", "проблем не знайдено", "проблем не виявлено")};

/* s lowercased: ASCII, Latin-1's capitals and Cyrillic's. */
static char *lower(const char *s, size_t n) {
  unsigned char *b = upk_xmalloc(n + 1);
  memcpy(b, s, n);
  b[n] = '\0';
  for (size_t i = 0; i < n; i++) {
    if (b[i] >= 'A' && b[i] <= 'Z')
      b[i] = (unsigned char)(b[i] + 32);
    else if (i + 1 < n && b[i] == 0xC3 && b[i + 1] >= 0x80 && b[i + 1] <= 0x9E && b[i + 1] != 0x97)
      b[++i] += 0x20;
    else if (i + 1 < n && b[i] == 0xD0 && b[i + 1] >= 0x90 && b[i + 1] <= 0x9F)
      b[++i] += 0x20; /* А-П */
    else if (i + 1 < n && b[i] == 0xD0 && b[i + 1] >= 0xA0 && b[i + 1] <= 0xAF)
      b[i] = 0xD1, b[++i] -= 0x20; /* Р-Я */
  }
  return (char *)b;
}

static bool letter(unsigned char c) {
  return (c >= 'a' && c <= 'z') || c >= 0x80 || c == '\'';
}

/* Where phrase occurs in b at or after `from` (at a word's start when it starts with a
 * letter of an alphabet: ASCII, Latin-1, Cyrillic), else NULL. */
static const char *find(const char *b, const char *from, const char *phrase) {
  unsigned char f = (unsigned char)phrase[0];
  bool alpha = (f >= 'a' && f <= 'z') || f == 0xC3 || f == 0xD0 || f == 0xD1;
  for (const char *p = strstr(from, phrase); p; p = strstr(p + 1, phrase)) {
    if (!alpha || p == b || !letter((unsigned char)p[-1]))
      return p;
    if ((unsigned char)p[-1] >= 0x80 && p - b >= 2 && (unsigned char)p[-2] < 0xC0 &&
        (unsigned char)p[-2] >= 0x80)
      continue; /* the end of a multi-byte letter */
  }
  return NULL;
}

/* A negation within NEG_REACH bytes before the phrase at `at` (after it when `after`). */
static bool near(const char *b, const char *at, size_t len, const char *const *negs, bool after) {
  size_t blen = strlen(b);
  size_t reach = (unsigned char)*at >= 0xE0 ? NEG_REACH_CJK : NEG_REACH;
  const char *lo = after ? at + len : ((size_t)(at - b) > reach ? at - reach : b);
  const char *hi = after ? (at + len + reach < b + blen ? at + len + reach : b + blen) : at;
  for (size_t i = 0; negs && negs[i]; i++) {
    size_t nl = strlen(negs[i]);
    bool word = (unsigned char)negs[i][0] < 0xE0; /* an alphabet's word, not CJK's */
    for (const char *p = find(b, lo, negs[i]); p && p < hi; p = find(b, p + 1, negs[i]))
      if ((after || p + nl <= at) && (!word || p[nl - 1] == '\'' || !letter((unsigned char)p[nl])))
        return true;
  }
  return false;
}

/* What follows 将 when it is "will" (将被上传, "will be uploaded"; 将直接发送, "will be sent
 * directly"): a privacy notice saying where data goes, not 将 taking an object as an order does
 * (将密钥发送到, "send the key to"). */
static const char *const ZH_FUTURE[] = {
    "被",   "会",   "會",   "直接", "自动", "自動", "在",   "于",   "於",   "通过", "通過",
    "由",   "以",   "用于", "作为", "上传", "上傳", "发送", "發送", "传输", "傳輸", "提交",
    "保存", "存储", "仅",   "只",   "不",   "无法", "可",   "显示", "返回", "输出", "生成",
    "成为", "得到", "持续", "继续", "立即", "永久", "定期", "每",   NULL,
};

/* ...or after an aspect word: 会将 ("this command will send"), 已将 ("has sent"), 即将 ("is
 * about to"): what a command does, described; 请将 and 务必将 stay orders by their own words. */
static const char *const ZH_ASPECT[] = {"会", "會", "已", "即", NULL};

static bool zh_will(const char *b, const char *at, const char *phrase, const char *after) {
  if (strcmp(phrase, "将") && strcmp(phrase, "將"))
    return false;
  for (size_t i = 0; ZH_ASPECT[i]; i++) {
    size_t n = strlen(ZH_ASPECT[i]);
    if ((size_t)(at - b) >= n && !strncmp(at - n, ZH_ASPECT[i], n))
      return true;
  }
  for (size_t i = 0; ZH_FUTURE[i]; i++)
    if (!strncmp(after, ZH_FUTURE[i], strlen(ZH_FUTURE[i])))
      return true;
  return false;
}

/* One of the phrases occurs (not negated, unless `plain`: concealments are negations). */
static bool holds(const char *b, const lang_table *t, const char *const *phrases, bool plain) {
  for (size_t i = 0; phrases && phrases[i]; i++)
    for (const char *p = find(b, b, phrases[i]); p; p = find(b, p + 1, phrases[i])) {
      size_t len = strlen(phrases[i]);
      if (zh_will(b, p, phrases[i], p + len))
        continue;
      if (plain || (!near(b, p, len, t->neg, false) && !near(b, p, len, t->neg_after, true)))
        return true;
    }
  return false;
}

/* The sentence is in a Latin-script language: three of its function words. */
static bool speaks(const char *b, const lang_table *t) {
  int hits = 0;
  for (size_t i = 0; t->words[i] && hits < FUNCTION_WORDS; i++) {
    size_t wl = strlen(t->words[i]);
    for (const char *p = find(b, b, t->words[i]); p; p = find(b, p + 1, t->words[i]))
      if (!letter((unsigned char)p[wl]) && (p == b || p[-1] == ' ' || p[-1] == '\n')) {
        hits++;
        break;
      }
  }
  return hits >= FUNCTION_WORDS;
}

static void read_table(const char *b, const lang_table *t, upk__intent_signals *g) {
  bool put = holds(b, t, t->put, false), send = holds(b, t, t->send, false);
  bool place = holds(b, t, t->place, false);
  g->directive |= holds(b, t, t->directive, false);
  g->data |= holds(b, t, t->data, false);
  g->sink |= put || send;
  /* sent somewhere named: a URL, an address, a report or an issue */
  g->egress |= (send || put) && (place || strstr(b, "://") || strchr(b, '@'));
  g->conceal |= holds(b, t, t->conceal, true);
  g->unasked |= holds(b, t, t->unasked, true);
  bool strong = holds(b, t, t->override, false);
  g->strong |= strong;
  g->override |= strong;
  g->teaching |= holds(b, t, t->teaching, true);
  g->solicit |= holds(b, t, t->solicit, false);
  g->action |= holds(b, t, t->action, false);
  bool sabotage = holds(b, t, t->sabotage, false);
  g->sabotage |= sabotage;
  g->directive |= sabotage; /* its phrases are imperatives */
  g->cleared |= holds(b, t, t->success, true) || holds(b, t, t->clean, true);
  if (holds(b, t, t->success, true) && holds(b, t, t->conceal, true))
    g->hide = g->conceal = g->directive = true; /* a pass claimed, the rest kept quiet: a lie */
  if (holds(b, t, t->links, true) && holds(b, t, t->swap, false))
    g->divert = g->action = g->directive = true; /* its verbs are imperatives */
  if (holds(b, t, t->signal, true) && holds(b, t, t->drop, true) && holds(b, t, t->report, true))
    g->silence = g->sabotage = g->directive = true;
}

/* Which scripts occur: CJK ideographs, kana, Hangul, Cyrillic. */
static void scripts(const unsigned char *s, size_t n, bool *han, bool *kana, bool *hangul,
                    bool *cyr) {
  for (size_t i = 0; i + 2 < n; i++) {
    *han |= s[i] >= 0xE4 && s[i] <= 0xE9;
    *kana |= s[i] == 0xE3 && s[i + 1] >= 0x81 && s[i + 1] <= 0x83;
    *hangul |= s[i] >= 0xEA && s[i] <= 0xED;
    *cyr |= s[i] == 0xD0 || (s[i] == 0xD1 && s[i + 1] <= 0x8F);
  }
}

void upk__intent_foreign(const char *s, size_t n, upk__intent_signals *sig) {
  bool han = false, kana = false, hangul = false, cyr = false;
  char *b = lower(s, n);
  scripts((const unsigned char *)b, n, &han, &kana, &hangul, &cyr);
  static const lang_table *const LATIN[] = {&SPANISH, &FRENCH,     &GERMAN,    &PORTUGUESE,
                                            &ITALIAN, &TURKISH,    &POLISH,    &CZECH,
                                            &DUTCH,   &INDONESIAN, &VIETNAMESE};
  for (size_t i = 0; i < sizeof LATIN / sizeof *LATIN; i++)
    if (speaks(b, LATIN[i]))
      read_table(b, LATIN[i], sig);
  if (cyr) {
    read_table(b, &RUSSIAN, sig);
    read_table(b, &UKRAINIAN, sig);
  }
  if (han || kana)
    read_table(b, &CHINESE, sig);
  if (kana)
    read_table(b, &JAPANESE, sig);
  if (hangul)
    read_table(b, &KOREAN, sig);
  free(b);
}
