#!/usr/bin/env python3
"""Generate a corpus of agent skills for the index benchmarks (Python 3 stdlib only).

    gen_skills.py OUT --count N [--seeds DIR] [--per-root 1000] [--seed 7]

Writes OUT/root-NN/<name>/SKILL.md (at most --per-root skills per root, like
separate agent directories) and OUT/groups.tsv (name<TAB>group): skills that
serve the same purpose share a group, so an evaluation can accept any of them.

The corpus mixes:
  * real skills published on npm (--seeds, see fetch_seeds.sh), copied as they are;
  * hand-written topics (topics.py), each in several near-duplicate variants
    with different names, description styles and bodies, like the many
    "commit message" skills different authors publish;
  * long-tail distractors: an action (review, migrate, document...) applied to a
    domain object, sharing vocabulary with the topics without serving them.
"""
import argparse
import os
import random
import re
import shutil

from topics import T

AUTHORS = ["acme", "team", "pro", "my", "oss", "dev", "core", "quick", "smart", "super"]
SUFFIXES = ["helper", "assistant", "guide", "expert", "toolkit", "workflow", "kit", "coach"]

GENERIC_TIPS = [
    "Ask the user before making destructive changes.",
    "Show the commands you ran and their output.",
    "Keep the answer concise; link to references instead of pasting them.",
    "Prefer small, reviewable steps over one large change.",
    "When unsure about the user's environment, ask which versions they use.",
    "Read the existing code or files before proposing changes.",
    "Summarize what you changed at the end.",
    "Never invent file paths or command output.",
    "If a step fails, report the error verbatim and stop.",
    "Respect the project's existing conventions and style.",
    "Write outputs to the working directory unless told otherwise.",
    "Use the scripts in scripts/ when they fit; they are tested.",
    "Load references/REFERENCE.md only when the details are needed.",
    "Confirm the goal with the user when the request is ambiguous.",
    "Check the result before declaring the task done.",
]

EXTRA_SECTIONS = [
    ("Output format", "Return a short summary first, then the details as a list. Use code blocks for commands and file contents."),
    ("References", "See references/REFERENCE.md for the full option list and scripts/ for helpers."),
    ("Requirements", "The tools used below must be installed and on PATH. Ask before installing anything."),
    ("Examples", "Input: a short request from the user. Output: the finished artifact and a summary of the steps taken."),
    ("Limitations", "This skill does not cover every edge case; say so when the request is outside its scope."),
]

# action -> (description template, steps)
ACTIONS = {
    "review": ("Review {o} for mistakes, risky settings and style problems", [
        "Read the {o} end to end", "List problems by severity", "Suggest concrete fixes", "Re-check after changes"]),
    "generate": ("Generate {o} from a short description of what is needed", [
        "Ask for the essentials", "Draft the {o}", "Validate the result", "Explain the choices made"]),
    "migrate": ("Migrate {o} to a newer version or format", [
        "Inventory what exists", "Read the upgrade notes", "Convert in small batches", "Verify nothing regressed"]),
    "document": ("Write documentation for {o}", [
        "Find what is undocumented", "Describe purpose and usage", "Add examples", "Keep docs next to the source"]),
    "lint": ("Lint and format {o} with the usual tools", [
        "Pick the linter for the format", "Run it on changed files", "Fix or suppress with reasons", "Add it to CI"]),
    "explain": ("Explain {o} in plain language for newcomers", [
        "Identify the audience", "Start from the big picture", "Walk through one example", "Point to further reading"]),
    "test": ("Write tests that cover {o}", [
        "List behaviors worth testing", "Write one test per behavior", "Cover edge cases", "Run the tests in CI"]),
    "troubleshoot": ("Troubleshoot errors and odd behavior in {o}", [
        "Reproduce the problem", "Read the logs and error messages", "Form and test a hypothesis", "Write down the fix"]),
    "audit": ("Audit {o} for compliance, cost and security issues", [
        "Collect the current state", "Compare with the policy", "Rank the findings", "Track remediation"]),
    "convert": ("Convert {o} between formats while keeping structure", [
        "Detect the source format", "Map fields and structure", "Convert", "Spot-check the output"]),
}

OBJECTS = {
    "git": ["git hooks", "gitignore files", "monorepo layouts", "git submodules", "branch protection rules"],
    "ci": ["CI configuration", "build caches", "Jenkins pipelines", "CircleCI configs", "pipeline secrets"],
    "docker": ["container images", "compose files", "container registries", "image tags", "docker networks"],
    "kubernetes": ["kubernetes manifests", "ingress rules", "kustomize overlays", "network policies", "service meshes"],
    "iac": ["terraform state", "pulumi stacks", "cloudformation templates", "ansible inventories", "packer templates"],
    "cloud": ["s3 buckets", "vpc networks", "azure resources", "gcp projects", "cdn settings"],
    "documents": ["word documents", "spreadsheets", "slide decks", "scanned forms", "pdf reports"],
    "docs": ["architecture decision records", "runbooks", "code comments", "tutorials", "changelogs"],
    "release": ["release branches", "version files", "package manifests", "app bundles", "docker tags"],
    "database": ["sql views", "stored procedures", "database indexes", "orm models", "query logs"],
    "data": ["csv files", "data pipelines", "parquet datasets", "jupyter notebooks", "data dictionaries"],
    "python": ["python scripts", "requirements files", "virtual environments", "django apps", "flask apis"],
    "testing": ["unit tests", "test fixtures", "snapshot tests", "mocks and stubs", "coverage reports"],
    "frontend": ["vue components", "angular modules", "svelte stores", "webpack configs", "design tokens"],
    "api": ["openapi specs", "grpc services", "rate limits", "api keys", "sdk clients"],
    "security": ["firewall rules", "audit logs", "access policies", "password policies", "sso settings"],
    "gpu": ["triton kernels", "gpu clusters", "nccl settings", "tensor cores usage", "opencl kernels"],
    "ml": ["training datasets", "model cards", "feature stores", "evaluation reports", "embedding indexes"],
    "observability": ["grafana dashboards", "log pipelines", "on-call runbooks", "slo definitions", "status pages"],
    "tools": ["dotfiles", "makefiles", "cli tools", "tmux sessions", "editor settings"],
    "writing": ["press releases", "newsletters", "product descriptions", "cover letters", "social posts"],
    "engineering": ["legacy modules", "design documents", "technical debt", "coding standards", "architecture diagrams"],
    "ops": ["systemd services", "load balancers", "dns records", "backup jobs", "server inventories"],
    "mobile": ["android builds", "push notifications", "app permissions", "deep links", "flutter widgets"],
    "ecommerce": ["product catalogs", "checkout flows", "discount rules", "shipping rates", "order exports"],
    "finance": ["expense reports", "tax documents", "financial statements", "payroll data", "cash flow forecasts"],
    "marketing": ["ad campaigns", "landing pages", "email campaigns", "brand guidelines", "analytics tags"],
    "media": ["podcast episodes", "photo libraries", "audio files", "video thumbnails", "music playlists"],
    "games": ["game levels", "shader graphs", "save files", "game assets", "multiplayer netcode"],
    "personal": ["calendars", "todo lists", "habit trackers", "reading lists", "family schedules"],
    "career": ["job applications", "interview prep notes", "linkedin profiles", "portfolio sites", "salary negotiations"],
}


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def yaml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def split(s):
    return [x.strip() for x in s.split("|") if x.strip()]


def description(t, style, rng):
    desc, when, kw = t[3], split(t[4]), t[5].split()
    w = ", ".join(when[:2]) if style != 3 else rng.choice(when)
    if style == 0:
        return f"{desc}. Use when {w}."
    if style == 1:
        return f"This skill should be used when {w}. It helps {desc[0].lower() + desc[1:]}."
    if style == 2:
        return f"{desc}. Covers {', '.join(rng.sample(kw, min(4, len(kw))))}."
    return f"Helps with {t[2].lower()}: {desc[0].lower() + desc[1:]}. Use when {w}."


def body(t, rng, focus=None):
    title, when, steps, pits = t[2], split(t[4]), split(t[6]), split(t[9])
    if focus is not None:  # variants emphasise a subset of the steps, as authors do
        rng.shuffle(steps)
        steps = steps[: max(2, len(steps) - focus)]
    out = [f"# {title}", "", f"{t[3]}.", ""]
    out += ["## When to use", ""] + [f"- When {w}" for w in when] + [""]
    out += ["## Workflow", ""] + [f"{i + 1}. {s}." for i, s in enumerate(steps)] + [""]
    out += ["## Example", "", f"```{t[7]}", t[8], "```", ""]
    out += ["## Pitfalls", ""] + [f"- {p}." for p in pits]
    out += [f"- {g}" for g in rng.sample(GENERIC_TIPS, 3)] + [""]
    for name, text in rng.sample(EXTRA_SECTIONS, rng.randint(0, 2)):
        out += [f"## {name}", "", text, ""]
    return "\n".join(out)


def distractor_body(action, obj, steps, rng):
    out = [f"# {action.capitalize()} {obj}", "", f"A focused workflow to {action} {obj}.", "",
           "## Steps", ""] + [f"{i + 1}. {s.format(o=obj)}." for i, s in enumerate(steps)] + [""]
    out += ["## Notes", ""] + [f"- {g}" for g in rng.sample(GENERIC_TIPS, 4)] + [""]
    for name, text in rng.sample(EXTRA_SECTIONS, rng.randint(1, 3)):
        out += [f"## {name}", "", text, ""]
    return "\n".join(out)


class Writer:
    def __init__(self, out, per_root):
        self.out, self.per_root, self.n, self.names, self.groups = out, per_root, 0, set(), []

    def add(self, name, group, text):
        if name in self.names:
            return False
        root = os.path.join(self.out, f"root-{self.n // self.per_root:02d}", name)
        os.makedirs(root, exist_ok=True)
        with open(os.path.join(root, "SKILL.md"), "w") as f:
            f.write(text)
        self.names.add(name)
        self.groups.append((name, group))
        self.n += 1
        return True


def skill_text(name, desc, body_text):
    return f"---\nname: {name}\ndescription: {yaml_str(desc)}\n---\n\n{body_text}\n"


def add_seeds(w, seeds):
    for n in sorted(os.listdir(seeds)):
        p = os.path.join(seeds, n, "SKILL.md")
        if os.path.isfile(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                w.add(n, n, f.read())


def add_topic(w, t, variant, rng):
    name = t[0]
    if variant == 1:
        name = f"{t[0]}-{rng.choice(SUFFIXES)}"
    elif variant >= 2:
        name = f"{rng.choice(AUTHORS)}-{t[0]}" if variant % 2 == 0 else f"{slug(t[2])}"
        if variant >= 4:
            name = f"{name}-v{variant}"
    text = skill_text(name, description(t, variant % 4, rng), body(t, rng, None if variant == 0 else variant % 3))
    return w.add(name, t[0], text)


def add_distractor(w, domain, obj, action, rng, k=0):
    tmpl, steps = ACTIONS[action]
    name = f"{slug(obj)}-{action}" + (f"-{k}" if k else "")
    desc = tmpl.format(o=obj) + "."
    if rng.random() < 0.5:
        desc += f" Use when working with {obj} in {domain} projects."
    return w.add(name, name, skill_text(name, desc, distractor_body(action, obj, steps, rng)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seeds")
    ap.add_argument("--per-root", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    w = Writer(a.out, a.per_root)
    if a.seeds and os.path.isdir(a.seeds):
        add_seeds(w, a.seeds)
    # topics: 1 canonical + 3 near-duplicate variants each
    for variant in range(4):
        for t in T:
            add_topic(w, t, variant, rng)
    # long tail: every action over every object, then more topic variants
    combos = [(d, o, act) for d, objs in OBJECTS.items() for o in objs for act in ACTIONS]
    rng.shuffle(combos)
    k = 0
    while w.n < a.count:
        for d, o, act in combos:
            if w.n >= a.count:
                break
            add_distractor(w, d, o, act, rng, k)
        k += 1
        for t in T:
            if w.n >= a.count:
                break
            add_topic(w, t, 3 + k, rng)
    with open(os.path.join(a.out, "groups.tsv"), "w") as f:
        for n, g in w.groups:
            f.write(f"{n}\t{g}\n")
    print(f"{w.n} skills in {(w.n + a.per_root - 1) // a.per_root} roots under {a.out}")


if __name__ == "__main__":
    main()
