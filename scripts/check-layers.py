#!/usr/bin/env python3
"""The layering check (docs/architecture.md).

1. Every `#include "..."` names its header from the root, with its part
   (`"skills/index.h"`; the exceptions are the headers the build generates, GENERATED), so a
   reader sees the part at the include. A bare or relative name prints
   `FILE:LINE: include "HEADER" names no part: write it from the root ("PART/HEADER")`.
2. Every `#include "..."` of a part must name a header of a part it may use, and
   never another part's private header (`*_int.h`). A violation prints
   `FILE:LINE: PART may not include TARGET (HEADER)` or
   `FILE:LINE: PART may not include TARGET's private header (HEADER)`.
3. Inside daemon/ the includes run one way: no module (foo.c + foo.h; files
   that share a private header `*_int.h` count as one module) may reach itself
   again through includes. A circle prints each include on it as
   `FILE:LINE: daemon/ include cycle: A -> B (HEADER)`.
   daemon/'s sub-rooms (its folders by domain, DAEMON_ROOM_INCLUDES) include only the rooms
   their rule names, never another room's `*_int.h`, save the DAEMON_ROOM_EXCEPTIONS:
   `FILE:LINE: daemon/ ROOM may not include ROOM (HEADER)`; a file in a folder that is no
   room, or an exception no file uses any more, is refused too.
4. With --links BUILD, the same rules hold at link level: every object the build
   made from a part's source (BUILD/compile_commands.json) is read with `nm`, each
   symbol it uses is mapped to the file that defines it, and a file may use only
   its own part, the parts it may include, and, inside daemon/, its own room or a
   room below it (DAEMON_ROOMS), and only the faces call protocol/lsp.c and
   protocol/mcp.c (FACE_ONLY). A violation prints
   `FILE: PART may not call TARGET (SYMBOL, defined in DEFFILE)` or
   `FILE: daemon/ ROOM calls up into ROOM (SYMBOL, defined in DEFFILE)` or
   `FILE: daemon/ ROOM speaks a protocol only the faces speak (SYMBOL, defined in DEFFILE)`.
5. gpu/ has rooms too (GPU_ROOMS, bottom first: compile, project, run, reference,
   worker): a gpu/ file sits in one (`FILE: gpu/ file in no room`) and includes, and
   with --links calls, only its own room and the rooms below it:
   `FILE:LINE: gpu/ ROOM reaches up into ROOM (HEADER)` or
   `FILE: gpu/ ROOM reaches up into ROOM (SYMBOL, defined in DEFFILE)`.
6. A room inside a library part with private headers of its own (PRIVATE_ROOMS:
   skills/index/, skills/audit/) is closed: its `*_int.h` (in CLOSED_ROOMS, skills/audit/,
   every header) are included only from its own folder (tests aside): `FILE:LINE: only ROOM/ may include its private header (HEADER)`.

Exits 1 on any violation, 0 when the tree is clean.
Usage: scripts/check-layers.py [ROOT] [--links BUILD | --links-only BUILD]
(default ROOT: the repo; --links-only skips the include rules)"""
import collections
import fnmatch
import json
import os
import re
import subprocess
import sys

# Part -> the parts it may include (itself always). A part is a top-level
# directory, or skills/eval inside skills.
ALLOWED = {
    "common": set(),
    "protocol": {"common"},
    "gpu": {"common"},
    "models": {"common"},
    "skills": {"common"},
    "skills/eval": {"skills", "common", "models"},
    "report": {"skills", "skills/eval", "common"},
    "daemon": {"protocol", "common", "gpu", "skills", "skills/eval", "models", "report"},
    "clients": {"protocol", "common", "report"},
}
# Longest prefix first, so skills/eval wins over skills.
PARTS = sorted(ALLOWED, key=len, reverse=True)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE = (".c", ".h", ".cc")


def part_of(path):
    for p in PARTS:
        if path.startswith(p + "/"):
            return p
    return None


# Directories outside the parts whose includes must still be written from the root.
OTHERS = ("tests", "bench")
GENERATED = {"upk_config.h",  # made by the build: not in the source tree
             "skills/audit/audit_intent_tables.h", "skills/audit/audit_intent_langs.h",
             "skills/audit/audit_intent_severity.h", "skills/audit/audit_intent_words.h",
             "skills/audit/audit_md_words.h"}


def sources(root):
    for top in sorted({p.split("/")[0] for p in ALLOWED} | set(OTHERS)):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x not in ("node_modules", "corpus"))
            for f in sorted(files):
                if f.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(d, f), root)


def includes(root, f):
    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1)


def stem(f):
    return os.path.splitext(os.path.basename(f))[0]


def daemon_modules(root, files):
    """daemon/ file -> its module: the file's stem, with the files that share a
    private header *_int.h (and the header) merged into one."""
    mods = [f for f in files if f.startswith("daemon/")]
    parent = {stem(f): stem(f) for f in mods}

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for f in mods:
        for _, hdr in includes(root, f):
            h = stem(hdr)
            if hdr.endswith("_int.h") and h in parent:
                parent[find(stem(f))] = find(h)
    # A group is named after its private header's module (foo_int.h: foo) when there is one.
    names = {}
    for x in sorted(parent):
        if x.endswith("_int"):
            names[find(x)] = x[:-4] if x[:-4] in parent else x
    return {f: names.get(find(stem(f)), find(stem(f))) for f in mods}


def daemon_cycles(root, files):
    """One circle per strongly connected set of daemon/ modules, as its list of
    include edges (file, line, from-module, to-module, header)."""
    mod = daemon_modules(root, files)
    by_stem = {stem(f): m for f, m in mod.items()}
    edges = collections.defaultdict(dict)  # a -> {b: (file, line, header)}
    for f, a in sorted(mod.items()):
        for n, hdr in includes(root, f):
            b = by_stem.get(stem(hdr)) if hdr.endswith(".h") and hdr.startswith("daemon/") else None
            if b and b != a and b not in edges[a]:
                edges[a][b] = (f, n, hdr)
    # Tarjan's strongly connected components, iteratively.
    index, low, stack, on, sccs = {}, {}, [], set(), []
    for v0 in sorted(set(mod.values())):
        if v0 in index:
            continue
        work = [(v0, iter(sorted(edges[v0])))]
        index[v0] = low[v0] = len(index)
        stack.append(v0)
        on.add(v0)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.add(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        sccs.append(comp)
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
    cycles = []
    for comp in sccs:  # the shortest circle in the component
        best = None
        for start in sorted(comp):
            prev, queue, end = {start: None}, collections.deque([start]), None
            while queue and end is None:
                v = queue.popleft()
                for w in sorted(edges[v]):
                    if w == start:
                        end = v
                        break
                    if w in comp and w not in prev:
                        prev[w] = v
                        queue.append(w)
            path = [end]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            path = path[::-1] + [start]
            if best is None or len(path) < len(best):
                best = path
        cycles.append([(*edges[a][b][:2], a, b, edges[a][b][2]) for a, b in zip(best, best[1:])])
    return cycles


# daemon/'s layers, bottom first (docs/architecture.md, "Inside daemon/"): a file may call a
# function defined in its own layer or a layer below, never above. The first pattern that
# matches a file's path inside daemon/ decides its layer. The layers cut across the sub-rooms
# (the folders, DAEMON_ROOM_INCLUDES below): a room holds its domain's files of every layer.
DAEMON_ROOMS = [
    ("core", ["core/session.c", "core/jobs.c", "core/defer.c", "core/transport.c",
              "core/serial.c", "kernels/workers*.c", "kernels/worker_server.c",
              "eval/agent_runner.c", "eval/agent_git.c"]),
    ("services", ["*/*_service.c", "eval/eval_agents.c", "eval/eval_exec.c", "eval/eval_grade.c",
                  "eval/eval_layout.c", "eval/gen_save.c", "eval/gen_teacher.c",
                  "skills/skills_watch.c", "skills/skills_roots.c", "lsp/documents.c",
                  "eval/budget.c", "core/guard.c"]),
    ("handlers", ["*/*_methods.c", "status.c", "eval/trigger_eval.c", "eval/eval_limits.c",
                  "eval/eval_inputs.c", "eval/eval_ready.c", "skills/skills_call.c",
                  "skills/skills_source.c", "skills/skills_lock.c", "skills/skills_fold.c",
                  "skills/install_judge.c",
                  "core/tool_results.c", "mcp/tool_text.c", "kernels/kernel_brief.c"]),
    ("table", ["methods.c"]),
    ("faces", ["server.c", "main.c", "lsp/lsp_*.c", "mcp/mcp_*.c", "mcp/face_*.c",
               "mcp/skills_ext.c"]),
]

# daemon/'s sub-rooms (folders by domain) and the rooms each may include (itself always).
# "hall" is daemon/ itself: main.c, server.c (the session), methods.c (the table joining
# every room's rows) and status.c, which join the rooms. core includes no other room; a domain
# includes core and the domains it builds on; the faces and the hall include any room.
_ANY_ROOM = {"core", "models", "skills", "kernels", "eval", "lsp", "mcp", "hall"}
DAEMON_ROOM_INCLUDES = {
    "core": set(),
    "models": {"core"},
    "skills": {"core"},
    "kernels": {"core"},
    "eval": {"core", "models", "skills", "kernels"},
    "lsp": _ANY_ROOM,
    "mcp": _ANY_ROOM,
    "hall": _ANY_ROOM,
}
# The includes across rooms the rule above does not allow, each with its reason.
DAEMON_ROOM_EXCEPTIONS = {
    ("daemon/skills/judge_service.c", "daemon/eval/budget.h"):
        "the audit's judge prices its call as evals do (upk_budget_price, upk_budget_cost: "
        "the config's price table, pure functions)",
    ("daemon/skills/judge_service.c", "daemon/eval/agent_runner.h"):
        "an agent judge runs its CLI the one way agents are run (upk_agent_run_start on the "
        "judge's own loop: the runner is core-layer, no call into the evals)",
    ("daemon/core/guard.c", "daemon/skills/skills_service.h"):
        "the built-in skill library is one of the places an agent may read "
        "(upk_skills_library_dir: a path, no call into the service)",
    ("daemon/kernels/kernel_methods.c", "daemon/lsp/documents.h"):
        "a run asked through kernels/validate is noted on the open document for its lens "
        "(upk_docs_note_run: documents.c's typed API, not the face)",
}


def daemon_subroom(f):
    """The sub-room (folder) of a daemon/ path, "hall" for daemon/ itself, or None for a
    folder that is no room."""
    rest = f[len("daemon/"):]
    room = rest.split("/")[0] if "/" in rest else "hall"
    return room if room in DAEMON_ROOM_INCLUDES else None


# gpu/'s rooms, bottom first (docs/architecture.md, "Inside gpu/"): a gpu/ file may include
# a header of its own room or a room below, never above, and at link level call only there too.
# The room is the directory under gpu/; a gpu/ file outside every room is refused.
GPU_ROOMS = ["compile", "project", "run", "reference", "worker"]


def gpu_room(path):
    """(rank, name) of a gpu/ file's room, None outside gpu/ or in no room."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "gpu" or parts[1] not in GPU_ROOMS:
        return None
    return GPU_ROOMS.index(parts[1]), parts[1]


def gpu_room_violation(f, g):
    """Why gpu/ file f may not use gpu/ file g (an include or a call), or None."""
    a, b = gpu_room(f), gpu_room(g)
    if a is not None and b is not None and b[0] > a[0]:
        return f"gpu/ {a[1]} reaches up into {b[1]}"
    return None


# Rooms inside a library part with private headers of their own (docs/architecture.md): a
# `*_int.h` in one of these folders is included only by the folder's files (and by tests).
PRIVATE_ROOMS = ("skills/index", "skills/audit")
# Rooms whose every header is private, not only the `*_int.h` ones: the audit's API is
# skills/audit.h, at the part's top; its detectors' headers are the room's own.
CLOSED_ROOMS = ("skills/audit",)


def room_private_violation(f, hdr):
    """Why part file f may not include hdr, a room's private header, or None."""
    room = os.path.dirname(hdr)
    private = hdr.endswith("_int.h") or room in CLOSED_ROOMS
    inside = os.path.dirname(f) == room or f.startswith(room + "/")
    if private and room in PRIVATE_ROOMS and not inside:
        return f"only {room}/ may include its private header ({hdr})"
    return None


# The protocol builders only the faces may call (docs/architecture.md: only the faces speak
# LSP or MCP; below them a job is answered through its face, a service through callbacks).
FACE_ONLY = ("protocol/lsp.c", "protocol/mcp.c")


def daemon_room(f):
    """(rank, name) of a daemon/ source file's layer, or None for a file no layer names."""
    name = f[len("daemon/"):]
    for rank, (room, patterns) in enumerate(DAEMON_ROOMS):
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            return rank, room
    return None


def daemon_room_include(f, hdr, used):
    """Why daemon/ file f may not include daemon/ header hdr across sub-rooms, or None; an
    exception that allowed it is added to used."""
    a, b = daemon_subroom(f), daemon_subroom(hdr)
    if a is None or b is None or a == b:
        return None  # a file in no room is reported once, by itself
    if (f, hdr) in DAEMON_ROOM_EXCEPTIONS:
        used.add((f, hdr))
        return None
    if hdr.endswith("_int.h"):
        return f"daemon/ {a} may not include {b}'s private header ({hdr})"
    if b not in DAEMON_ROOM_INCLUDES[a]:
        return f"daemon/ {a} may not include {b} ({hdr})"
    return None


def objects(build):
    """(source, object), both absolute, for each compilation the build records."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as fh:
        for e in json.load(fh):
            d = e["directory"]
            yield (os.path.normpath(os.path.join(d, e["file"])),
                   os.path.normpath(os.path.join(d, e["output"])))


def symbols(objs):
    """object -> (defined globals, undefined), from one `nm -P -g -A` over all of them."""
    defs, undef = collections.defaultdict(set), collections.defaultdict(set)
    for i in range(0, len(objs), 200):
        out = subprocess.run(["nm", "-P", "-g", "-A", *objs[i:i + 200]], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            obj, _, rest = line.partition(": ")
            fields = rest.split()
            if len(fields) < 2:
                continue
            (undef if fields[1] in "Uw" else defs)[obj].add(fields[0])
    return defs, undef


def link_violations(root, build):
    """Each use of a symbol defined in a file its user may not reach, as a message."""
    root = os.path.realpath(root)
    files = {}  # object -> source relative to root
    for src, obj in objects(build):
        rel = os.path.relpath(os.path.realpath(src), root)
        if not rel.startswith("..") and part_of(rel) and os.path.exists(obj):
            files[obj] = rel
    defs, undef = symbols(sorted(files))
    where = {}  # symbol -> the file defining it
    for obj, names in defs.items():
        for n in names:
            where.setdefault(n, files[obj])
    bad = [f"{f}: daemon/ file in no room (DAEMON_ROOMS in scripts/check-layers.py)"
           for f in set(files.values()) if part_of(f) == "daemon" and daemon_room(f) is None]
    for obj in sorted(files, key=files.get):
        f, part = files[obj], part_of(files[obj])
        for sym in sorted(undef[obj]):
            g = where.get(sym)
            if g is None or g == f:
                continue
            target = part_of(g)
            if target != part and target not in ALLOWED[part]:
                bad.append(f"{f}: {part} may not call {target} ({sym}, defined in {g})")
            elif part == target == "daemon":
                a, b = daemon_room(f), daemon_room(g)
                if a is not None and b is not None and b[0] > a[0]:
                    bad.append(f"{f}: daemon/ {a[1]} calls up into {b[1]} ({sym}, defined in {g})")
            elif part == target == "gpu" and gpu_room_violation(f, g):
                bad.append(f"{f}: {gpu_room_violation(f, g)} ({sym}, defined in {g})")
            elif part == "daemon" and g in FACE_ONLY:
                a = daemon_room(f)
                if a is not None and a[1] != "faces":
                    bad.append(f"{f}: daemon/ {a[1]} speaks a protocol only the faces speak "
                               f"({sym}, defined in {g})")
    return sorted(set(bad)), len(files)


def main():
    args = sys.argv[1:]
    build, links_only = None, "--links-only" in args
    for flag in ("--links", "--links-only"):
        if flag in args:
            i = args.index(flag)
            if i + 1 >= len(args):
                print("usage: check-layers.py [ROOT] [--links BUILD | --links-only BUILD]",
                      file=sys.stderr)
                return 2
            build = args[i + 1]
            del args[i:i + 2]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    if links_only:
        return check_links(root, build)
    files = list(sources(root))
    bad = 0
    used = set()
    for f in files:
        part = part_of(f)
        if part == "daemon" and daemon_subroom(f) is None:
            print(f"{f}: daemon/ file in no sub-room "
                  "(DAEMON_ROOM_INCLUDES in scripts/check-layers.py)")
            bad += 1
        for n, hdr in includes(root, f):
            if hdr in GENERATED:
                continue
            target = part_of(hdr)
            if not os.path.exists(os.path.join(root, hdr)) or (target is None and part):
                where = os.path.normpath(os.path.join(os.path.dirname(f), hdr))
                print(f'{f}:{n}: include "{hdr}" names no part: write it from the root ("{where}")')
                bad += 1
            elif part and target != part and target not in ALLOWED[part]:
                print(f"{f}:{n}: {part} may not include {target} ({hdr})")
                bad += 1
            elif part and target != part and hdr.endswith("_int.h"):
                print(f"{f}:{n}: {part} may not include {target}'s private header ({hdr})")
                bad += 1
            elif part and (why := room_private_violation(f, hdr)):
                print(f"{f}:{n}: {why}")
                bad += 1
            elif part == target == "daemon" and (why := daemon_room_include(f, hdr, used)):
                print(f"{f}:{n}: {why}")
                bad += 1
            elif part == target == "gpu" and gpu_room_violation(f, hdr):
                print(f"{f}:{n}: {gpu_room_violation(f, hdr)} ({hdr})")
                bad += 1
    for f, hdr in sorted(set(DAEMON_ROOM_EXCEPTIONS) - used):
        print(f"{f}: no longer includes {hdr}: remove the exception from DAEMON_ROOM_EXCEPTIONS")
        bad += 1
    for f in files:
        if part_of(f) == "gpu" and gpu_room(f) is None:
            print(f"{f}: gpu/ file in no room (GPU_ROOMS in scripts/check-layers.py)")
            bad += 1
    for cycle in daemon_cycles(root, files):
        for f, n, a, b, hdr in cycle:
            print(f"{f}:{n}: daemon/ include cycle: {a} -> {b} ({hdr})")
        print(f"daemon/ include cycle: {' -> '.join([c[2] for c in cycle] + [cycle[0][2]])}")
        bad += 1
    if bad:
        print(f"check-layers: {bad} include(s) or cycle(s) break the layering (docs/architecture.md)",
              file=sys.stderr)
        return 1
    print(f"check-layers: {len(files)} files, every include respects the layering and "
          "daemon/'s sub-rooms, daemon/ has no include cycle")
    return check_links(root, build) if build else 0


def check_links(root, build):
    try:
        links, n = link_violations(root, build)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"check-layers: cannot read the objects of {build}: {e}", file=sys.stderr)
        return 1
    if n == 0:  # a check of nothing must not pass: a wrong BUILD, or one not built yet
        print(f"check-layers: no object of the parts under {build} (build it first)",
              file=sys.stderr)
        return 1
    for line in links:
        print(line)
    if links:
        print(f"check-layers: {len(links)} link(s) break the layering (docs/architecture.md)",
              file=sys.stderr)
        return 1
    print(f"check-layers: {n} objects, every call respects the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
