/* A skill file's language for the audit's rules (the YARA externals lang, is_script). */
#include "skills/audit/audit_int.h"

#include <string.h>
#include <strings.h>

static const struct {
  const char *ext, *lang;
} EXTS[] = {
    {".sh", "sh"},           {".bash", "sh"},
    {".zsh", "sh"},          {".ksh", "sh"},
    {".command", "sh"},      {".py", "python"},
    {".pyw", "python"},      {".ipynb", "python"},
    {".js", "js"},           {".mjs", "js"},
    {".cjs", "js"},          {".ts", "js"},
    {".mts", "js"},          {".cts", "js"},
    {".jsx", "js"},          {".tsx", "js"},
    {".ps1", "powershell"},  {".psm1", "powershell"},
    {".psd1", "powershell"}, {".rb", "ruby"},
    {".pl", "perl"},         {".pm", "perl"},
    {".bat", "batch"},       {".cmd", "batch"},
    {".md", "markdown"},     {".markdown", "markdown"},
    {".mdx", "markdown"},    {".txt", "text"},
    {".rst", "text"},        {".yar", "text"}, /* rules that name what they detect */
    {".yara", "text"},       {".dockerfile", "dockerfile"},
    {".php", "php"},         {".lua", "lua"},
    {".awk", "awk"},         {".go", "go"},
    {".cmake", "cmake"},     {".vbs", "vbscript"}, /* code a build tool or Windows runs */
    {".vbe", "vbscript"},    {".kts", "kotlin"},
    {".kt", "kotlin"},       {".fish", "sh"},
};

static const struct {
  const char *interp, *lang;
} SHEBANGS[] = {
    {"bash", "sh"},   {"zsh", "sh"},        {"dash", "sh"},    {"ksh", "sh"},
    {"sh", "sh"},     {"python", "python"}, {"node", "js"},    {"deno", "js"},
    {"bun", "js"},    {"tsx", "js"},        {"ts-node", "js"}, {"pwsh", "powershell"},
    {"ruby", "ruby"}, {"perl", "perl"},     {"php", "php"},    {"lua", "lua"},
    {"awk", "awk"},   {"gawk", "awk"},
};

/* "#!/usr/bin/env -S python3 -u" -> "python3": the interpreter's base name. */
static const char *shebang(const char *d, size_t len, char *buf, size_t cap) {
  if (len < 3 || d[0] != '#' || d[1] != '!')
    return NULL;
  const char *end = memchr(d, '\n', len < 256 ? len : 256);
  size_t n = end ? (size_t)(end - d) : (len < 256 ? len : 256);
  size_t i = 2, w = 0;
  for (int word = 0; word < 4 && i < n; word++) {
    while (i < n && (d[i] == ' ' || d[i] == '\t'))
      i++;
    size_t s = i;
    while (i < n && d[i] != ' ' && d[i] != '\t' && d[i] != '\r')
      i++;
    const char *slash = memrchr(d + s, '/', i - s);
    size_t b = slash ? (size_t)(slash + 1 - d) : s;
    if (i - b == 0 || d[b] == '-' || (i - b == 3 && !memcmp(d + b, "env", 3)))
      continue; /* env and its options: the next word names the interpreter */
    w = i - b < cap - 1 ? i - b : cap - 1;
    memcpy(buf, d + b, w);
    break;
  }
  buf[w] = '\0';
  return w ? buf : NULL;
}

const char *upk__audit_lang(const char *rel, const char *data, size_t len) {
  const char *base = strrchr(rel, '/'), *dot = strrchr(base ? base : rel, '.');
  if (!strcasecmp(base ? base + 1 : rel, "CMakeLists.txt"))
    return "cmake"; /* code run at every configure, though its .txt says prose */
  for (size_t i = 0; dot && i < sizeof EXTS / sizeof *EXTS; i++)
    if (!strcasecmp(dot, EXTS[i].ext))
      return EXTS[i].lang;
  const char *name = base ? base + 1 : rel;
  if (!strncasecmp(name, "Dockerfile", 10) || !strncasecmp(name, "Containerfile", 13))
    return "dockerfile"; /* what runs, runs in an image being built */
  if (!strcasecmp(name, "Rakefile") || !strcasecmp(name, "Gemfile"))
    return "ruby"; /* code the build tool runs, though no extension says so */
  if (!strcasecmp(name, "Makefile") || !strcasecmp(name, "GNUmakefile"))
    return "make";
  char buf[64];
  const char *interp = shebang(data, len, buf, sizeof buf);
  for (size_t i = 0; interp && i < sizeof SHEBANGS / sizeof *SHEBANGS; i++)
    if (!strncmp(interp, SHEBANGS[i].interp, strlen(SHEBANGS[i].interp)))
      return SHEBANGS[i].lang;
  return "other";
}

bool upk__audit_is_script(const char *lang) {
  return strcmp(lang, "markdown") && strcmp(lang, "text") && strcmp(lang, "other");
}
