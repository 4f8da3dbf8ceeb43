/* upskillctl's command table and what is generated from it: help, getopt
 * tables, bash/zsh/fish completion, the man page and docs/upskillctl.md. */
#include "clients/commands.h"

#include <stdlib.h>
#include <string.h>

#include "upk_config.h"
#include "common/xalloc.h"

#define AGENTS_HELP "claude, codex, cursor, agents, ..."

const ctl_opt ctl_globals[] = {
    {"json", 0, 'j', NULL, "print JSON instead of tables (the daemon's result as it is)"},
    {"timeout", 0, 't', "SEC",
     "give up after SEC seconds (a positive number; default 120, 3600 when "
     "an agent: target is named)"},
    {"verbose", 'v', 'v', NULL, "the daemon logs in detail on stderr"},
    {"server", 0, 's', "CMD", "run CMD (through /bin/sh) as the daemon instead of upskilld --lsp"},
    {"extra-dir", 0, 'X', "DIR",
     "also index the skills in DIR, a collection (repeatable; as skills.extraDirs in "
     "~/.config/upskilld/config.yaml)"},
    {"version", 0, 'V', NULL, "print the version and exit"},
    {"help", 'h', 'h', NULL, "this help; COMMAND --help for one command's"},
    {0},
};

/* eval's and generate's cost limits and dry run (docs/eval.md "Cost limits and dry runs"). */
// clang-format off
#define LIMIT_OPTS                                                                                \
  {"max-calls", 0, 'L', "N",                                                                      \
   "start no call (model API call or agent run) after N; the result is partial (exit 3)"},        \
  {"max-cost-usd", 0, '$', "X",                                                                   \
   "start no call once the calls cost X USD (prices: in the config); partial (exit 3)"},          \
  {"dry-run", 0, 'D', NULL,                                                                       \
   "print the plan (trials, calls, estimated tokens and cost per model) and run nothing"}
// clang-format on

/* Options and commands are in the order the help lists them. */

const ctl_cmd ctl_commands[] = {
    {"ping", "", "check the daemon answers, and how fast", NULL, 0, 0, NULL, {{0}}},
    {"status",
     "",
     "version, uptime, work in flight, CUDA toolkit, GPU driver and providers",
     NULL,
     0,
     0,
     NULL,
     {{0}}},
    {"list",
     "",
     "skills the agents see: one row per name, its other copies under it",
     "Each name's first row is the copy an agent reads (project before user before extra "
     "before built-in); its other copies follow, indented: shadowed ones, copies for other "
     "agents and ones that do not load. --all prints one row per placement instead.",
     0,
     0,
     NULL,
     {{"agent", 0, 'a', "AGENT", "only the skills this agent sees (" AGENTS_HELP ")"},
      {"scope", 0, 's', "SCOPE", "only skills of this scope", "project user builtin extra"},
      {"all", 0, 'A', NULL, "one row per placement (every agent directory), ungrouped"},
      {0}}},
    {"lookup",
     "TASK",
     "the skills that fit a task, best first, with why they matched",
     "While the daemon's first scan of the skill directories runs, lookup waits for it "
     "(a progress bar on a terminal) rather than answer from a partial index. Each skill shows "
     "its relevance (0 to 1, comparable across tasks); when none reaches the cut, lookup says "
     "that no skill fits, lists the nearest and exits 1.",
     0,
     0,
     NULL,
     {{"limit", 0, 'n', "N", "at most N skills (1 to 100, default 10)"},
      {"agent", 0, 'a', "AGENT", "only skills this agent sees", NULL, 1},
      {0}}},
    {"validate",
     "PATH",
     "check a skill directory or SKILL.md: file:line:col diagnostics",
     "Exits 1 when the skill has errors.",
     0,
     0,
     NULL,
     {{"lenient", 0, 'l', NULL, "check as agents load skills, not the strict specification"}, {0}}},
    {"install",
     "PATH|SOURCE",
     "validate a skill and copy it into the agents' skill directories",
     "PATH is a skill directory or its SKILL.md. SOURCE holds several: owner/repo[/path][@ref] "
     "(on skills.gitHost, default GitHub), a git URL (#ref), or a directory of skills; it is "
     "fetched with git (shallow, cached), --list shows its skills, --skill or --all chooses. "
     "Project installs are recorded in skills-lock.json (the skills CLI's format). A skill "
     "with errors is refused: its diagnostics are printed (file:line:col) and nothing is "
     "written.",
     0,
     0,
     NULL,
     {{"agent", 0, 'a', "AGENT", "install for this agent (default: every agent)", NULL, 1},
      {"scope", 0, 's', "SCOPE", "the project's directories or the user's", "project user"},
      {"force", 0, 'f', NULL, "replace a different skill of the same name"},
      {"skill", 0, 'k', "NAME", "from a SOURCE: install this skill", NULL, 1},
      {"all", 0, 'A', NULL, "from a SOURCE: install every skill it holds"},
      {"list", 0, 'L', NULL, "list the skills a SOURCE holds; install nothing"},
      {"allow-risky", 0, 'R', NULL, "install from a git SOURCE despite high audit findings"},
      {0}}},
    {"audit",
     "PATH|SOURCE",
     "what a skill does that a stranger's should not: file:line findings by severity",
     "Downloads piped to a shell, credentials read, data sent to a host, decoded or invisible "
     "text, instructions to the agent to ignore the user or hide its actions, executables. "
     "Installs from git sources run it first and refuse high findings unless --allow-risky. "
     "Exits 1 when a finding is high; with --fail-on, 3 when a finding is at or above that "
     "severity (and 0 otherwise).",
     0,
     0,
     NULL,
     {{"skill", 0, 'k', "NAME", "only this skill of the SOURCE", NULL, 1},
      {"junit", 0, 'J', "FILE", "also write the findings as JUnit XML (a failing test each)"},
      {"sarif", 0, 'S', "FILE", "also write the findings as SARIF 2.1.0 (for code scanning)"},
      {"fail-on", 0, 'O', "SEVERITY", "exit 3 when a finding is this severe or more",
       "high medium low"},
      {"judge", 0, 'j', "MODEL", "also have this model or agent:claude-code|codex read each skill"},
      {"judge-failure", 0, 'W', "WHAT", "when the judge fails: warn (default) or fail (high)",
       "warn fail"},
      {"judge-timeout-ms", 0, 'T', "MS", "the judge's deadline per skill (default 120000)"},
      {"dry-run", 0, 'D', NULL, "with --judge: show what the judge would read; call nothing"},
      {"max-cost-usd", 0, '$', "X",
       "with --judge: no call whose estimated cost would pass X USD (config prices)"},
      {0}}},
    {"remove",
     "NAME",
     "remove an installed skill",
     NULL,
     0,
     0,
     NULL,
     {{"agent", 0, 'a', "AGENT", "remove it for this agent only", NULL, 1},
      {"scope", 0, 's', "SCOPE", "the project's directories or the user's", "project user"},
      {0}}},
    {"restore",
     "",
     "install again exactly what the project's skills-lock.json names",
     "Each skill from its source at the commit the lock records (the skills CLI's entries, "
     "which name none, at their ref). Everything is fetched and checked before anything is "
     "placed. With --frozen (as npm ci) any drift from the lock's hashes refuses the whole "
     "restore and the lock is never rewritten.",
     0,
     0,
     NULL,
     {{"frozen", 0, 'F', NULL, "fail on any difference from the lock; leave it untouched"}, {0}}},
    {"check",
     "[NAME...]",
     "list the locked skills whose source holds a different version now",
     "Fetches each source at its ref (not the recorded commit) and compares the skill's hash "
     "with skills-lock.json's. Exits 1 when something is outdated.",
     0,
     0,
     NULL,
     {{0}}},
    {"update",
     "[NAME...]",
     "install the outdated locked skills again and rewrite their lock entries",
     NULL,
     0,
     0,
     NULL,
     {{0}}},
    {"prompt",
     "",
     "the <available_skills> block an agent's system prompt gets",
     NULL,
     0,
     0,
     NULL,
     {{"agent", 0, 'a', "AGENT", "the skills this agent sees (default: all, each name once)"},
      {0}}},
    {"check-kernel",
     "FILE.cu|DIR|build.toml",
     "compile CUDA for H100: diagnostics, registers, spills, occupancy",
     "FILE.cu is compiled with NVRTC (nvcc for host code); a kernel-builder project (a "
     "directory with build.toml, or the build.toml) gets a row per kernel and capability; a "
     "directory without build.toml has every .cu file in its tree checked (not build output, "
     ".git or what .gitignore ignores; links not followed; at most 10,000 entries), one row per "
     "file and a summary line. --run also runs the "
     "kernel on the GPU and checks it against a reference (docs/gpu.md); --against PROBLEM.py "
     "makes the reference a PyTorch (KernelBench) problem, and --against DIR [KERNEL_DIR] "
     "checks each DIR/P.py with KERNEL_DIR/P.cu and P.json, then prints fast_0, fast_1 and "
     "fast_2. Exits 1 when there are errors.",
     1,
     0,
     NULL,
     {{"include", 'I', 'I', "DIR", "add DIR to the include path", NULL, 1},
      {"define", 'D', 'D', "NAME[=V]", "define a macro", NULL, 1},
      {"arch", 0, 'a', "ARCH", "the target (default sm_90a)"},
      {"backend", 0, 'B', "BACKEND", "the compiler (auto: nvcc for host code)", "auto nvrtc nvcc"},
      {"block", 0, 'b', "[KERNEL=]N|XxY[xZ]",
       "judge occupancy at this block (1 to 1024 threads), of every kernel or of KERNEL "
       "(repeatable), instead of the launches the file makes",
       NULL, 1},
      {"dynamic-smem", 0, 'M', "[KERNEL=]BYTES",
       "dynamic shared memory per block, of every kernel or of KERNEL", NULL, 1},
      {"all-instantiations", 0, 'A', NULL,
       "list each template instantiation (default: one row per template, worst figures)"},
      {"name", 0, 'n', "KERNEL", "report this kernel (instantiates templates)", NULL, 1},
      {"no-cache", 0, 'C', NULL, "compile again even when the result is cached"},
      {"run", 0, 'r', "SPEC.json", "run it on the GPU as the spec says and check the result"},
      {"against", 0, 'P', "PROBLEM.py|DIR", "the reference is a PyTorch problem (or a directory)"},
      {"html", 0, 'H', "FILE", "also write the check as one HTML file"},
      {"junit", 0, 'J', "FILE", "also write the check as JUnit XML (a test per file and kernel)"},
      {"sarif", 0, 'S', "FILE", "also write the diagnostics as SARIF 2.1.0 (for code scanning)"},
      {"python", 0, CTL_OPT_PYTHON, "PATH",
       "the python3 (with torch) that runs a PyTorch reference (--against, --run)"},
      {"allow-kernel-option", 0, CTL_OPT_ALLOW_OPTION, "GLOB",
       "allow a compiler option that a project's build.toml or a run spec names (a glob on "
       "NAME=VALUE)",
       NULL, 1},
      {0}}},
    {"generate",
     "TASK",
     "write, test, refine and save a skill with a teacher model or agent",
     "Progress shows on a terminal while it runs; the attempts and the held-out score follow.",
     1,
     0,
     NULL,
     {{"from", 'f', 'f', "PATH", "an agent trace or a skill directory to improve"},
      {"model", 'm', 'm', "MODEL", "the teacher model"},
      {"teacher", 0, 'm', "MODEL",
       "the teacher, as --model: agent:claude-code, agent:codex or agent:NAME runs that agent CLI "
       "headless"},
      {"eval-model", 0, 'e', "MODEL",
       "a student model the skill is refined for (agent:claude-code, ... run that agent)", NULL, 1},
      {"test-gen-model", 0, 'T', "MODEL", "the model that writes the tests"},
      {"example", 0, 'x', "TEXT", "an \"input -> output\" example", NULL, 1},
      {"attempts", 0, 'a', "N", "skills evaluated at most (1 to 20)"},
      {"install", 0, 'i', "AGENTS", "install it afterwards for these agents (comma-separated)"},
      {"output", 'o', 'o', "DIR", "the skill directory to write"},
      {"trigger", 0, 'R', "FILE",
       "then refine its description against these trigger queries on the agent eval models"},
      {"optimize", 0, 'O', "N", "with --trigger: better descriptions to try (default 3)"},
      LIMIT_OPTS,
      {0}}},
    {"eval",
     "SKILL",
     "pass rates with and without a skill, per model",
     "SKILL is a directory or an installed skill's name. Prints bars with 95% intervals, the "
     "lift and tokens per model, and with --runs 2 or more pass@k and pass^k for k = 1 .. runs; "
     "the run is stored (see runs, report).",
     1,
     0,
     NULL,
     {{"model", 'm', 'm', "MODEL",
       "a model to evaluate (default: the configured one); agent:claude-code, agent:codex or "
       "agent:NAME runs that agent CLI in a workspace per run",
       NULL, 1},
      {"runs", 0, 'r', "N", "runs per case and condition"},
      {"no-baseline", 0, 'B', NULL, "only with the skill"},
      {"grader", 0, 'G', "MODEL",
       "judge statements in words (evals.json's expectations) with this model"},
      {"baseline-skill", 0, 'K', "DIR",
       "compare against this older version of the skill instead of none (old_skill)"},
      {"tests", 0, 't', "FILE",
       "the test cases (default: the skill's tests, else its evals/evals.json)"},
      {"concurrency", 0, 'c', "N", "model calls in flight at most"},
      {"max-parallel", 0, 'P', "N", "agent runs at once (default: the core count)"},
      {"trigger", 0, 'T', "FILE",
       "a trigger eval of the description instead: queries that should and should not load "
       "the skill"},
      {"optimize", 0, 'O', "N",
       "trigger mode: up to N better descriptions from the teacher, the best kept"},
      {"holdout", 0, 'H', "X",
       "trigger mode: the share of queries held out as the test set (0 to 0.95)"},
      {"apply", 0, 'A', NULL, "trigger mode: write the best description to the SKILL.md"},
      {"junit", 0, 'J', "FILE", "also write every trial as JUnit XML (a test each)"},
      {"allow-scripts", 0, 'X', NULL,
       "run the `script` assertions of the skill's own test cases (read them first)"},
      {"fail-under", 0, 'U', "RATE",
       "exit 3 when a model's with-skill pass rate is below RATE (0 to 1)"},
      LIMIT_OPTS,
      {0}}},
    {"runs",
     "",
     "stored evaluation and generation runs",
     NULL,
     0,
     0,
     NULL,
     {{"csv", 0, 'c', "FILE", "also write every trial as CSV"}, {0}}},
    {"report",
     "RUN_ID [B]",
     "a run (or A beside B) as one self-contained HTML file",
     "Without -o the HTML goes to stdout.",
     0,
     0,
     NULL,
     {{"output", 'o', 'o', "FILE", "write the HTML to FILE"}, {0}}},
    {"condense",
     "TRACE",
     "an agent trace as the teacher model sees it",
     "The condensed text goes to stdout, what was left out to stderr.",
     0,
     0,
     NULL,
     {{"budget", 0, 'b', "N", "tokens the condensed trace may take"},
      {"format", 0, 'f', "FORMAT", "how to read the trace", "auto markdown json jsonl codex"},
      {0}}},
    {"raw",
     "METHOD [JSON]",
     "send any request (params: a JSON object or array), print the result",
     NULL,
     0,
     0,
     NULL,
     {{0}}},
    {"trust",
     "[DIR]",
     "trust a project: its config may then run programs, read your files and name hosts",
     "DIR (default: the current directory) is recorded in your own state "
     "($XDG_STATE_HOME/upskilld/trust.json, mode 0600) as its real path and a SHA-256 of its "
     "upskill.config.yaml and build.toml; the daemon then applies the keys it refuses from an "
     "untrusted project (agent commands and arguments, their environment, login files and "
     "stripEnv, skills.gitHost, runs_dir and skills_dir outside the project). An edit to "
     "either file lapses the trust until you trust it again. Only you can: no daemon method or "
     "agent tool writes the store. Prints the real path, the hash and the files covered; "
     "--list prints the trusted projects.",
     0,
     1,
     NULL,
     {{"list", 0, 'l', NULL,
       "list the trusted projects: whether each config still matches, and since when"},
      {0}}},
    {"untrust",
     "[DIR]",
     "forget a trusted project (default: the current directory)",
     "Its config is data again: the keys that need trust are refused, with the rule named.",
     0,
     1,
     NULL,
     {{0}}},
    {"completion",
     "SHELL",
     "print a completion script for bash, zsh or fish",
     "bash: source <(upskillctl completion bash); zsh: upskillctl completion zsh > "
     "\"${fpath[1]}/_upskillctl\"; fish: upskillctl completion fish > "
     "~/.config/fish/completions/upskillctl.fish.",
     0,
     1,
     "bash zsh fish",
     {{0}}},
    {"man",
     "",
     "print the man page (roff)",
     NULL,
     0,
     1,
     NULL,
     {{"markdown", 0, 'M', NULL, "print it as Markdown (docs/upskillctl.md)"}, {0}}},
    {"help", "[COMMAND]", "this help, or one command's", NULL, 0, 1, "commands", {{0}}},
    {0},
};

const ctl_cmd *ctl_find_command(const char *name) {
  for (const ctl_cmd *c = ctl_commands; name && c->name; c++)
    if (!strcmp(c->name, name))
      return c;
  return NULL;
}

static int opt_val(const ctl_opt *o) {
  return o->val ? o->val : o->shrt;
}

const struct option *ctl_longopts(const char *name) {
  static struct option out[CTL_MAX_OPTS + 1];
  const ctl_cmd *c = ctl_find_command(name);
  size_t n = 0;
  for (const ctl_opt *o = c ? c->opts : NULL; o && o->lng; o++)
    out[n++] = (struct option){o->lng, o->arg ? required_argument : no_argument, 0, opt_val(o)};
  out[n] = (struct option){0, 0, 0, 0};
  return out;
}

const char *ctl_shortopts(const char *name) {
  static char out[3 * CTL_MAX_OPTS + 1];
  const ctl_cmd *c = ctl_find_command(name);
  size_t n = 0;
  for (const ctl_opt *o = c ? c->opts : NULL; o && o->lng; o++) {
    if (!o->shrt)
      continue;
    out[n++] = o->shrt;
    if (o->arg)
      out[n++] = ':';
  }
  out[n] = '\0';
  return out;
}

void ctl_usage_hint(const char *name) {
  fprintf(stderr, "see 'upskillctl %s --help'\n", name);
}

/* "-m, --model MODEL" or "--agent AGENT", into buf. */
static const char *opt_label(const ctl_opt *o, char *buf, size_t len) {
  char sh[8] = "";
  if (o->shrt)
    snprintf(sh, sizeof sh, "-%c, ", o->shrt);
  snprintf(buf, len, "%s--%s%s%s", sh, o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
  return buf;
}

/* The synopsis: "list [--agent AGENT] [--scope SCOPE] [--all]". */
static void synopsis(const ctl_cmd *c, FILE *f) {
  fprintf(f, "upskillctl %s", c->name);
  if (c->args && *c->args)
    fprintf(f, " %s", c->args);
  for (const ctl_opt *o = c->opts; o->lng; o++) {
    if (o->shrt)
      fprintf(f, " [-%c%s%s]%s", o->shrt, o->arg ? " " : "", o->arg ? o->arg : "",
              o->repeat ? "..." : "");
    else
      fprintf(f, " [--%s%s%s]%s", o->lng, o->arg ? " " : "", o->arg ? o->arg : "",
              o->repeat ? "..." : "");
  }
}

static void opt_lines(const ctl_opt *opts, FILE *f) {
  char buf[96];
  for (const ctl_opt *o = opts; o->lng; o++) {
    fprintf(f, "  %-28s %s", opt_label(o, buf, sizeof buf), o->help);
    if (o->choices)
      fprintf(f, " (%s)", o->choices);
    if (o->repeat)
      fputs("; repeatable", f);
    fputc('\n', f);
  }
}

/* Words of `text` wrapped at 78 columns, each line indented by `indent`. */
static void wrap(const char *text, int indent, FILE *f) {
  int col = 0;
  const char *p = text;
  while (*p) {
    while (*p == ' ')
      p++;
    size_t n = strcspn(p, " ");
    if (!n)
      break;
    if (col && col + 1 + (int)n > 78) {
      fputc('\n', f);
      col = 0;
    }
    if (!col)
      col = fprintf(f, "%*s", indent, "");
    else
      col += fprintf(f, " ");
    col += fprintf(f, "%.*s", (int)n, p);
    p += n;
  }
  if (col)
    fputc('\n', f);
}

void ctl_usage(FILE *f) {
  fputs("usage: upskillctl [options] COMMAND [ARGS] [options]\n\n"
        "The command-line client of upskilld: it starts the daemon, asks it and prints tables\n"
        "(or --json). Options may come anywhere on the line.\n\ncommands:\n",
        f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    char head[64];
    snprintf(head, sizeof head, "%s %s", c->name, c->args);
    if (strlen(head) > 26) /* a long synopsis on its own line */
      fprintf(f, "  %s\n  %-26s %s\n", head, "", c->summary);
    else
      fprintf(f, "  %-26s %s\n", head, c->summary);
  }
  fputs("\noptions:\n", f);
  opt_lines(ctl_globals, f);
  fputs("\n'upskillctl COMMAND --help' shows a command's options.\n", f);
}

void ctl_command_help(const ctl_cmd *c, FILE *f) {
  fputs("usage: ", f);
  synopsis(c, f);
  fprintf(f, "\n\n%s.\n", c->summary);
  if (c->details) {
    fputc('\n', f);
    wrap(c->details, 0, f);
  }
  if (c->opts[0].lng) {
    fputs("\noptions:\n", f);
    opt_lines(c->opts, f);
  }
  fputs("\nglobal options (anywhere on the line):\n", f);
  opt_lines(ctl_globals, f);
}

/* ---- completion ---------------------------------------------------------- */

static void command_words(FILE *f) {
  for (const ctl_cmd *c = ctl_commands; c->name; c++)
    fprintf(f, "%s%s", c == ctl_commands ? "" : " ", c->name);
}

static void option_words(const ctl_opt *opts, FILE *f, int first) {
  for (const ctl_opt *o = opts; o->lng; o++) {
    if (o->shrt)
      fprintf(f, "%s-%c", first ? "" : " ", o->shrt), first = 0;
    fprintf(f, "%s--%s", first ? "" : " ", o->lng);
    first = 0;
  }
}

static void bash(FILE *f) {
  fputs("# bash completion for upskillctl (generated by `upskillctl completion bash`)\n"
        "_upskillctl() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i\n"
        "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
        "    case ${COMP_WORDS[i]} in\n"
        "      --timeout | --server) ((i++)) ;;\n"
        "      -*) ;;\n"
        "      *) cmd=${COMP_WORDS[i]}; break ;;\n"
        "    esac\n"
        "  done\n"
        "  case \"$cmd $prev\" in\n",
        f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++)
    for (const ctl_opt *o = c->opts; o->lng; o++)
      if (o->choices)
        fprintf(f, "    \"%s --%s\") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n",
                c->name, o->lng, o->choices);
  fputs("    *\" --timeout\" | *\" --server\") return ;;\n  esac\n"
        "  if [[ -z $cmd ]]; then\n"
        "    if [[ $cur == -* ]]; then\n      COMPREPLY=($(compgen -W \"",
        f);
  option_words(ctl_globals, f, 1);
  fputs("\" -- \"$cur\"))\n    else\n      COMPREPLY=($(compgen -W \"", f);
  command_words(f);
  fputs("\" -- \"$cur\"))\n    fi\n    return\n  fi\n  local opts=\n  case $cmd in\n", f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    fprintf(f, "    %s)", c->name);
    if (c->arg_choices) {
      fputs(" [[ $cur != -* && $prev == \"$cmd\" ]] && { COMPREPLY=($(compgen -W \"", f);
      if (!strcmp(c->arg_choices, "commands"))
        command_words(f);
      else
        fputs(c->arg_choices, f);
      fputs("\" -- \"$cur\")); return; };", f);
    }
    fputs(" opts=\"", f);
    option_words(c->opts, f, 1);
    fputs("\" ;;\n", f);
  }
  fputs("  esac\n"
        "  [[ $cur == -* ]] && COMPREPLY=($(compgen -W \"$opts --help ",
        f);
  option_words(ctl_globals, f, 1);
  fputs("\" -- \"$cur\"))\n  return 0\n}\n"
        "complete -o default -F _upskillctl upskillctl\n",
        f);
}

/* Text inside a zsh single-quoted _arguments spec's [description]. */
static void zsh_text(const char *s, FILE *f) {
  for (; *s; s++) {
    if (*s == '\'')
      fputs("'\\''", f);
    else if (*s == '[' || *s == ']' || *s == ':' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else
      fputc(*s, f);
  }
}

static void zsh_spec(const ctl_opt *o, const char *flag, FILE *f) {
  fprintf(f, " '%s%s[", o->repeat ? "*" : "", flag);
  zsh_text(o->help, f);
  fputc(']', f);
  if (o->arg) {
    fputc(':', f);
    zsh_text(o->arg, f);
    fputc(':', f);
    if (o->choices)
      fprintf(f, "(%s)", o->choices);
    else if (strstr(o->arg, "FILE") || strstr(o->arg, "DIR") || strstr(o->arg, "PATH") ||
             strstr(o->arg, ".json") || strstr(o->arg, ".py"))
      fputs("_files", f);
  }
  fputc('\'', f);
}

static void zsh_opts(const ctl_opt *opts, FILE *f) {
  char flag[64];
  for (const ctl_opt *o = opts; o->lng; o++) {
    if (o->shrt) {
      snprintf(flag, sizeof flag, "-%c", o->shrt);
      zsh_spec(o, flag, f);
    }
    snprintf(flag, sizeof flag, "--%s", o->lng);
    zsh_spec(o, flag, f);
  }
}

static void zsh(FILE *f) {
  fputs("#compdef upskillctl\n# zsh completion for upskillctl (generated by `upskillctl "
        "completion zsh`)\n_upskillctl() {\n  local curcontext=$curcontext state line\n"
        "  local -a commands globals\n  commands=(\n",
        f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    fprintf(f, "    '%s:", c->name);
    zsh_text(c->summary, f);
    fputs("'\n", f);
  }
  fputs("  )\n  globals=(", f);
  zsh_opts(ctl_globals, f);
  fputs(")\n  _arguments -C $globals '1:command:->command' '*::arg:->args'\n"
        "  case $state in\n  command) _describe -t commands command commands ;;\n"
        "  args)\n    case $words[1] in\n",
        f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    fprintf(f, "    %s) _arguments $globals", c->name);
    zsh_opts(c->opts, f);
    if (c->arg_choices && !strcmp(c->arg_choices, "commands"))
      fputs(" '1:command:(", f), command_words(f), fputs(")'", f);
    else if (c->arg_choices)
      fprintf(f, " '1:%s:(%s)'", c->args, c->arg_choices);
    else if (c->args && *c->args)
      fputs(" '*:file:_files'", f);
    fputs(" ;;\n", f);
  }
  fputs("    esac ;;\n  esac\n}\n_upskillctl \"$@\"\n", f);
}

/* Text inside a fish single-quoted string. */
static void fish_text(const char *s, FILE *f) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

static void fish_opts(const ctl_opt *opts, const char *cond, FILE *f) {
  for (const ctl_opt *o = opts; o->lng; o++) {
    fputs("complete -c upskillctl", f);
    if (cond)
      fprintf(f, " -n '__fish_seen_subcommand_from %s'", cond);
    if (o->shrt)
      fprintf(f, " -s %c", o->shrt);
    fprintf(f, " -l %s", o->lng);
    if (o->choices)
      fprintf(f, " -x -a '%s'", o->choices);
    else if (o->arg)
      fputs(" -r", f);
    fputs(" -d ", f);
    fish_text(o->help, f);
    fputc('\n', f);
  }
}

static void fish(FILE *f) {
  fputs("# fish completion for upskillctl (generated by `upskillctl completion fish`)\n"
        "complete -c upskillctl -e\n",
        f);
  fish_opts(ctl_globals, NULL, f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    fprintf(f, "complete -c upskillctl -f -n __fish_use_subcommand -a %s -d ", c->name);
    fish_text(c->summary, f);
    fputc('\n', f);
    fish_opts(c->opts, c->name, f);
    if (c->arg_choices) {
      fprintf(f, "complete -c upskillctl -f -n '__fish_seen_subcommand_from %s' -a '", c->name);
      if (!strcmp(c->arg_choices, "commands"))
        command_words(f);
      else
        fputs(c->arg_choices, f);
      fputs("'\n", f);
    }
  }
}

int ctl_completion(const char *shell, FILE *f) {
  if (!strcmp(shell, "bash"))
    bash(f);
  else if (!strcmp(shell, "zsh"))
    zsh(f);
  else if (!strcmp(shell, "fish"))
    fish(f);
  else
    return -1;
  return 0;
}

/* ---- the man page and its Markdown twin ------------------------------------ */

static const char *const ABOUT =
    "upskillctl starts the upskilld daemon (the upskilld next to it, $UPSKILLD, or upskilld on "
    "PATH; --server CMD for another), asks it over LSP-framed JSON-RPC and prints tables for "
    "people, or the daemon's result as JSON with --json. Global options may come before or "
    "after the command. Output on stdout is the answer only: a progress bar (indexing skills, "
    "evaluations, long compiles) is drawn on stderr, and only when stderr is a terminal, so "
    "redirected output and --json never hold control characters. Commands that do not compile "
    "kernels ask the daemon not to start its kernel workers.";

static const char *const EXIT_STATUS =
    "0: done. 1: the answer was an error (a failed request, a skill or kernel with errors). "
    "2: a usage error (unknown command or option, a bad argument). 3: eval --fail-under: a "
    "model's with-skill pass rate is below the rate; audit --fail-on: a finding is at or above "
    "the severity; eval or generate stopped at --max-calls or --max-cost-usd (the result is "
    "partial and says why).";

static const char *const MESSAGES =
    "Errors go to stderr with the reason first, on one line (upskillctl: REASON), then the "
    "diagnostics it is about, FILE:LINE:COL: severity: message [code], each once and on the "
    "file it is about (a skill's file from a git source by its path in the source, a restore's "
    "by skills-lock.json). A hint names what to type to upskillctl: its own options, never a "
    "request's parameter or a daemon flag. JSON-RPC error codes show only with -v; --json "
    "prints the daemon's error as it is. A mistyped command or option, or a skill remove does "
    "not find, gets the nearest that exists. What you type is yours: check-kernel's -I DIR, "
    "--python and --allow-kernel-option are allowed for that command as if given to upskilld "
    "itself, on the command line of the daemon upskillctl starts (docs/security.md, \"The "
    "user's command line\"); nothing a project's files or an agent says can do that.";

static const char *const MESSAGES_EXAMPLE =
    "$ upskillctl lokup \"convert a PDF\"\n"
    "upskillctl: unknown command 'lokup'; see upskillctl --help\n"
    "did you mean 'upskillctl lookup'?\n"
    "$ upskillctl lookup --limt 3 \"convert a PDF\"\n"
    "upskillctl lookup: unknown option '--limt'; did you mean '--limit'?\n"
    "see 'upskillctl lookup --help'\n"
    "$ upskillctl remove pdff\n"
    "upskillctl: no installed skill named 'pdff' in project scope\n"
    "did you mean 'pdf'? (upskillctl list shows the installed skills)\n"
    "$ upskillctl install acme/risky\n"
    "upskillctl: install refused: the audit of acme/risky found 1 high risk(s) (diagnostics); "
    "--allow-risky installs it anyway\n"
    "skills/setup/scripts/install.sh:3:1: error: a download is piped into a shell or "
    "interpreter: whatever the server sends runs [audit/download-exec]\n"
    "$ upskillctl check-kernel gain.cu\n"
    "gain.cu:1:18: error: cannot open source file \"gain.h\" (add the directory that holds it "
    "with -I DIR) [nvrtc/error]\n"
    "$ upskillctl check-kernel gain.cu -I ~/src/common\n"
    "sm_90a, nvrtc 13.0, compiled in 393.4 ms\n"
    "$ upskillctl status\n"
    "  provider anthropic   not configured: set ANTHROPIC_API_KEY\n"
    "  models               none: set ANTHROPIC_API_KEY or OPENAI_API_KEY, GENERIC_BASE_URL for "
    "a local OpenAI-compatible server, or use an agent CLI you are logged in to (eval --model "
    "agent:claude-code, generate --teacher agent:codex)\n";

static const char *const ENVIRONMENT =
    "UPSKILLD: the daemon to start. NO_COLOR: upskillctl prints no colour in any case. HOME, "
    "XDG_CONFIG_HOME, XDG_CACHE_HOME: where the daemon finds user skills, configuration and "
    "its caches.";

/* roff-escaped text: backslashes and hyphens escaped, a leading . or ' guarded. */
static void roff(const char *s, FILE *f) {
  if (*s == '.' || *s == '\'')
    fputs("\\&", f);
  for (; *s; s++) {
    if (*s == '\\')
      fputs("\\e", f);
    else if (*s == '-')
      fputs("\\-", f);
    else
      fputc(*s, f);
  }
}

static void roff_opts(const ctl_opt *opts, FILE *f) {
  char buf[96];
  for (const ctl_opt *o = opts; o->lng; o++) {
    fputs(".TP\n.B ", f);
    roff(opt_label(o, buf, sizeof buf), f);
    fputc('\n', f);
    roff(o->help, f);
    if (o->choices) {
      fputs(" (", f);
      roff(o->choices, f);
      fputc(')', f);
    }
    if (o->repeat)
      fputs("; repeatable", f);
    fputs(".\n", f);
  }
}

void ctl_man(FILE *f) {
  fprintf(f, ".TH UPSKILLCTL 1 \"\" \"upskilld %s\" \"User Commands\"\n.SH NAME\n", UPK_VERSION);
  fputs("upskillctl \\- the command\\-line client of the upskilld daemon\n.SH SYNOPSIS\n"
        ".B upskillctl\n[\\fIoptions\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIoptions\\fR]\n"
        ".SH DESCRIPTION\n",
        f);
  roff(ABOUT, f);
  fputs("\n.SH OPTIONS\n", f);
  roff_opts(ctl_globals, f);
  fputs(".SH COMMANDS\n", f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    fputs(".SS ", f);
    roff(c->name, f);
    fputs("\n.B ", f);
    char *syn = NULL;
    size_t len = 0;
    FILE *m = upk_xmemstream(&syn, &len);
    synopsis(c, m);
    fclose(m);
    roff(syn, f);
    free(syn);
    fputs("\n.PP\n", f);
    roff(c->summary, f);
    fputs(".\n", f);
    if (c->details) {
      roff(c->details, f);
      fputc('\n', f);
    }
    roff_opts(c->opts, f);
  }
  fputs(".SH MESSAGES\n", f);
  roff(MESSAGES, f);
  fputs("\n.SH EXIT STATUS\n", f);
  roff(EXIT_STATUS, f);
  fputs("\n.SH ENVIRONMENT\n", f);
  roff(ENVIRONMENT, f);
  fputs("\n.SH SEE ALSO\n.BR upskilld (1)\n", f);
}

static void md_opts(const ctl_opt *opts, FILE *f) {
  char buf[96];
  for (const ctl_opt *o = opts; o->lng; o++) {
    fprintf(f, "- `%s`: %s", opt_label(o, buf, sizeof buf), o->help);
    if (o->choices)
      fprintf(f, " (%s)", o->choices);
    fputs(o->repeat ? "; repeatable\n" : "\n", f);
  }
}

void ctl_markdown(FILE *f) {
  fputs("# upskillctl\n\n<!-- Generated by `upskillctl man --markdown` from the command table "
        "in clients/commands.c;\n     tests/clients/upskillctl.sh checks that it matches. -->\n\n",
        f);
  wrap(ABOUT, 0, f);
  fputs("\n```\nupskillctl [options] COMMAND [ARGS] [options]\n```\n\n"
        "Every command takes `--help`; `upskillctl completion bash|zsh|fish` prints a completion\n"
        "script and `upskillctl man` the man page (installed as upskillctl.1).\n\n"
        "## Global options\n\n",
        f);
  md_opts(ctl_globals, f);
  fputs("\n## Commands\n", f);
  for (const ctl_cmd *c = ctl_commands; c->name; c++) {
    fprintf(f, "\n### %s\n\n```\n", c->name);
    synopsis(c, f);
    fprintf(f, "\n```\n\n%s.", c->summary);
    if (c->details) {
      fputc('\n', f);
      wrap(c->details, 0, f);
    } else {
      fputc('\n', f);
    }
    if (c->opts[0].lng) {
      fputc('\n', f);
      md_opts(c->opts, f);
    }
  }
  fputs("\n## Messages\n\n", f);
  wrap(MESSAGES, 0, f);
  fprintf(f, "\n```\n%s```\n", MESSAGES_EXAMPLE);
  fputs("\n## Exit status\n\n", f);
  wrap(EXIT_STATUS, 0, f);
  fputs("\n## Environment\n\n", f);
  wrap(ENVIRONMENT, 0, f);
}
