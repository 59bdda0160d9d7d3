#!/usr/bin/env python3
"""The docs and the code's own words held to the code
(tests/integration/docs-drift.sh).

Usage: docs-check.py --top DIR --buildapp PATH

DIR is a tree of buildapp (the repository, or a copy of it); PATH the
buildapp built from the repository.  Prints one line per problem found
("docs-check: ...") and exits 1 when there is any, 0 when there is none.
What it checks:

- metrics: every metric name in an example of docs/, README.md or the man
  page (a metric object's "name" or "metric" member, an answer's
  "LEVEL vs REF, METRIC (WORKLOAD", "vs REF in METRIC", a METRIC line, a
  LAVA case of an answer, a code span in a table of metrics) is one the
  code writes: a name given to agent_metric, results_add or
  journal_run_add_metric, a row of runner/results.c's bonnie++ columns or
  of the durability's lost_as, a *METRIC* define of runner/, or fio's
  fio[_JOB]_DIR_SUFFIX of runner/results.c's formats.  A name with a part
  in capitals (fio_JOB_read_iops, fio_D_iops) is an example of a shape:
  each such part stands for any text;
- paths: every repository path (a top folder of the tree, then a path)
  named in docs/, README.md, and the comments of scripts/ and tests/
  exists (or, for a module, its .c or .h; a part in capitals, *, or {a,b}
  is a pattern that must match something), and every relative link of a
  Markdown file leads to a file of the tree;
- the man page's FILES names every shipped profile (profiles/*.ini) and
  job file (profiles/jobs/*.fio);
- every option a command's parser takes (the getopt_long tables and
  option strings of builder/cmd_*.c, and the options main.c and the
  commands compare argv with) is in that command's --help;
- exit statuses: builder/ returns no number but 0 and 1 (the others by
  their EXIT_* name of builder/commands.h), and every --help ends with an
  "Exit status:" paragraph that names 0, 1 and 2 and no status outside
  0, 1 and commands.h's EXIT_*.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

problems = []


def problem(text):
    problems.append(text)
    print("docs-check: " + text)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def tree_files(top):
    """The files of the tree: git's list where TOP is a checkout, else
    every file below TOP but build output."""
    if os.path.exists(os.path.join(top, ".git")):
        rc, out, _ = run(["git", "-C", top, "ls-files", "--cached", "--others",
                          "--exclude-standard"])
        if rc == 0 and out.strip():
            return [f for f in out.split("\n") if f and os.path.exists(os.path.join(top, f))]
    files = []
    for d, subdirs, names in os.walk(top):
        rel = os.path.relpath(d, top)
        subdirs[:] = [s for s in subdirs if not (rel == "." and s in ("build", ".git", "out"))]
        for n in names:
            files.append(os.path.normpath(os.path.join(rel, n)))
    return files


# --- metrics -------------------------------------------------------------

def split_args(text):
    """The top-level arguments of a call whose text starts after its '('."""
    out, depth, cur, quote = [], 0, "", None
    for i, ch in enumerate(text):
        if quote:
            cur += ch
            if ch == quote and text[i - 1] != "\\":
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                out.append(cur)
                return out
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return out


# The argument that is the metric's name, per function that adds one.
NAME_ARG = {"agent_metric": 0, "results_add": 1, "journal_run_add_metric": 1}


def code_metrics(top):
    """The metric names the code writes, and the fio name patterns."""
    names = set()
    sources = glob.glob(os.path.join(top, "runner", "*.c")) + \
        glob.glob(os.path.join(top, "appliance", "agent", "*.c"))
    for path in sources:
        text = read(path)
        for m in re.finditer(r"\b(%s)\s*\(" % "|".join(NAME_ARG), text):
            args = split_args(text[m.end():m.end() + 600])
            k = NAME_ARG[m.group(1)]
            if k < len(args):
                s = re.fullmatch(r'\s*"([a-z][a-z0-9_]*)"\s*', args[k])
                if s:
                    names.add(s.group(1))
        names.update(re.findall(r'\[RECORD_\w+\]\s*=\s*"([a-z][a-z0-9_]*)"', text))
    results = read(os.path.join(top, "runner", "results.c"))
    names.update(re.findall(r'\{\s*"(bonnie_[a-z0-9_]+)",\s*"[^"]*"\s*\}', results))
    for path in glob.glob(os.path.join(top, "runner", "*.h")):
        names.update(re.findall(r'#define \w*METRIC\w*\s+"([a-z][a-z0-9_]*)"', read(path)))
    # fio's names: a format "%s_%s_SUFFIX" (PREFIX, DIR) or "%s_SUFFIX"
    # (PREFIX alone: the sync latency); a SUFFIX handed on to fio_latency
    # is a latency, named SUFFIX_mean and SUFFIX_pNN (its table of
    # percentiles) in runner/results.c.
    pcts = ["mean"] + re.findall(r'\{\s*"[0-9.]+",\s*"(p[0-9_]+)"\s*\}', results)
    suffixes, undirected = [], []
    for m in re.finditer(r'"%s(_%s)?_([a-z][a-z0-9_]*)"', results):
        after = results[m.end():m.end() + 160].split("snprintf")[0]
        parts = [m.group(2) + "_" + p for p in pcts] if "fio_latency(" in after \
            else [m.group(2)]
        (suffixes if m.group(1) else undirected).extend(parts)
    if not names or not suffixes:
        problem("the code's metric names were not found (runner/, appliance/agent/): "
                "this test reads them where they are written")
    # fio's metrics: PREFIX_DIR_SUFFIX or PREFIX_SUFFIX, PREFIX fio or
    # fio_JOB (a job file's job), DIR read, write or trim.
    alt = lambda xs: "|".join(re.escape(s) for s in xs) or "(?!)"
    fio = re.compile(r"fio_(?:.+_)?(?:(?:read|write|trim)_(?:%s)|(?:%s))" %
                     (alt(suffixes), alt(undirected))) if suffixes else None
    samples = set(names)
    for s in suffixes:
        for d in ("read", "write", "trim"):
            samples.add("fio_%s_%s" % (d, s))
            samples.add("fio_job_%s_%s" % (d, s))
    for s in undirected:
        samples.update(("fio_" + s, "fio_job_" + s))
    return names, fio, samples


def doc_metric_uses(text):
    """(line, name) of each metric name an example in TEXT uses."""
    uses = []
    pats = [
        r'"name"\s*:\s*"([^"]+)"\s*,\s*"(?:value|unit)"',
        r'"metric"\s*:\s*"([^"]+)"',
        r"\bvs [^\s,]+, ([A-Za-z][A-Za-z0-9_]*) \(",
        r"\bvs \S+ in ([A-Za-z][A-Za-z0-9_]*)\b",
        r"\bMETRIC name=([A-Za-z0-9_]+)",
        r"\bcase=answer/\S*/([A-Za-z0-9_]+) result=",
    ]
    for i, line in enumerate(text.split("\n"), 1):
        for p in pats:
            for m in re.finditer(p, line):
                uses.append((i, m.group(1)))
    # The tables of metrics: each code span in their metrics column.
    lines = text.split("\n")
    col = None
    for i, line in enumerate(lines, 1):
        if not line.startswith("|"):
            col = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if col is None:
            col = next((k for k, c in enumerate(cells) if c.startswith("metrics")), -1)
            continue
        if col >= 0 and col < len(cells) and not set(cells[col]) <= set("-: "):
            # Every metric's name has a '_'; other words there (fio's
            # frame, an option) are not names of metrics.
            for name in re.findall(r"`([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*)`", cells[col]):
                uses.append((i, name))
    return uses


def check_metrics(top):
    names, fio, samples = code_metrics(top)
    docs = sorted(glob.glob(os.path.join(top, "docs", "*.md"))) + \
        [os.path.join(top, "README.md"), os.path.join(top, "docs", "buildapp.1")]
    for path in docs:
        if not os.path.exists(path):
            continue
        for line, name in doc_metric_uses(read(path)):
            where = "%s:%d" % (os.path.relpath(path, top), line)
            if name in names or (fio and fio.fullmatch(name)):
                continue
            if re.search(r"(^|_)[A-Z][A-Z0-9]*(_|$)", name):
                shape = re.compile("_".join(".+" if re.fullmatch(r"[A-Z][A-Z0-9]*", p)
                                            else re.escape(p) for p in name.split("_")))
                if any(shape.fullmatch(s) for s in samples):
                    continue
                problem("%s: the metric shape %s fits no name the code writes" % (where, name))
                continue
            problem("%s: metric %s is not one the code writes (runner/, appliance/agent/)"
                    % (where, name))


# --- paths ---------------------------------------------------------------

def comment_text(path, text):
    """The comments of a script or C source (what names paths for a
    reader); the whole text of anything else."""
    if path.endswith((".c", ".h")):
        return "\n".join(m.group(0) if "\n" not in m.group(0) else m.group(0)
                         for m in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S))
    if path.endswith((".sh", ".py", ".mk", ".ini", ".jsonl")) or "." not in os.path.basename(path):
        out = []
        for line in text.split("\n"):
            m = re.search(r"(?:^|\s)#(.*)$", line)
            out.append(m.group(1) if m else "")
        return "\n".join(out)
    return text


def pattern_of(path):
    """A path with parts in capitals, * or {a,b} as a glob, else None."""
    if not re.search(r"[*{]|(?:^|/|-|_|\.)[A-Z][A-Z0-9]+(?:[^a-z]|$)", path):
        return None
    p = re.sub(r"\{[^}]*\}", "*", path)
    return re.sub(r"(?<![a-z])[A-Z][A-Z0-9]+(?![a-z])", "*", p)


def check_paths(top, files):
    fileset = set(files)
    dirs = sorted({f.split("/")[0] for f in files if "/" in f})
    folders = {os.path.dirname(f) for f in files}
    while True:
        more = {os.path.dirname(d) for d in folders} - folders
        if not more:
            break
        folders |= more
    rx = re.compile(r"(?<![\w./$@-])((?:%s)/[A-Za-z0-9_./*{},-]*[A-Za-z0-9_*}/-])"
                    % "|".join(re.escape(d) for d in dirs))
    for f in files:
        if not (f.startswith(("docs/", "scripts/", "tests/")) or f == "README.md"):
            continue
        # Data: recorded outputs and saved inputs, not a reader's words.
        if f.startswith(("tests/fuzz/corpus", "tests/unit/data/", "docs/reproductions/",
                         "scripts/replay/")):
            continue
        try:
            text = read(os.path.join(top, f))
        except OSError:
            continue
        body = text if f.endswith((".md", ".1")) else comment_text(f, text)
        for m in rx.finditer(body):
            path = m.group(1).rstrip(".")
            line = body.count("\n", 0, m.start()) + 1
            pat = pattern_of(path)
            if pat is not None:
                if not glob.glob(os.path.join(top, pat)):
                    problem("%s:%d: %s matches nothing in the tree" % (f, line, path))
                continue
            p = path.rstrip("/")
            if p in fileset or p in folders or p + ".c" in fileset or p + ".h" in fileset:
                continue
            problem("%s:%d: %s is not in the tree" % (f, line, path))
        if f.endswith(".md"):
            for m in re.finditer(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue
                line = text.count("\n", 0, m.start()) + 1
                rel = os.path.normpath(os.path.join(os.path.dirname(f), target))
                if rel.startswith(".."):
                    problem("%s:%d: the link %s leads out of the tree" % (f, line, target))
                elif rel not in fileset and rel not in folders:
                    problem("%s:%d: the link %s leads to no file of the tree" % (f, line, target))
        for m in re.finditer(r"(?<![\w.(])\.\./[A-Za-z0-9_./-]*[A-Za-z0-9_/-]", body):
            rel = os.path.normpath(os.path.join(os.path.dirname(f), m.group(0)))
            line = body.count("\n", 0, m.start()) + 1
            if rel.startswith(".."):
                problem("%s:%d: %s is outside the tree" % (f, line, m.group(0)))
            elif rel.rstrip("/") not in fileset and rel.rstrip("/") not in folders:
                problem("%s:%d: %s (from %s) is not in the tree" % (f, line, m.group(0),
                                                                     os.path.dirname(f)))


# --- the man page's FILES -------------------------------------------------

def check_man_files(top, files):
    man = read(os.path.join(top, "docs", "buildapp.1"))
    m = re.search(r"^\.SH FILES\n(.*?)(?=^\.SH |\Z)", man, re.S | re.M)
    section = re.sub(r"\\f[BIRP]|\\&", "", (m.group(1) if m else "")).replace("\\-", "-")
    if not m:
        problem("docs/buildapp.1 has no FILES section")
    shipped = sorted(f for f in files if re.fullmatch(r"profiles/[^/]+\.ini", f) or
                     re.fullmatch(r"profiles/jobs/[^/]+\.fio", f))
    for f in shipped:
        if not re.search(r"(?<![\w.-])%s(?![\w-])" % re.escape(os.path.basename(f)), section):
            problem("docs/buildapp.1 FILES: does not name %s (installed by make install)" % f)


# --- options and exit statuses ---------------------------------------------

def command_helps(buildapp):
    rc, out, _ = run([buildapp, "--help"])
    names = re.findall(r"^  ([a-z]+)\s", out.split("Commands:", 1)[-1], re.M)
    helps = {None: out}
    for n in names:
        helps[n] = run([buildapp, n, "--help"])[1]
    return helps


def parsed_options(top):
    """{command: set of options} its parser takes, from builder/: the
    getopt_long tables and option strings, and the literal options it
    compares argv with.  main.c's are the command None's."""
    opts = {}
    for path in sorted(glob.glob(os.path.join(top, "builder", "cmd_*.c"))) + \
            [os.path.join(top, "builder", "main.c")]:
        text = read(path)
        base = os.path.basename(path)
        own = None if base == "main.c" else base[len("cmd_"):-len(".c")]
        spans = [(m.start(), m.group(1)) for m in
                 re.finditer(r"^int cmd_(\w+)\(int argc, char \*\*argv\)", text, re.M)]

        def command_at(pos):
            cmd = own
            for start, name in spans:
                if start <= pos:
                    cmd = name
            # A parser outside every cmd_ function (parse_args) is the file's.
            before = [s for s in spans if s[0] <= pos]
            if before and re.search(r"^\}", text[before[-1][0]:pos], re.M):
                cmd = own
            return cmd

        for m in re.finditer(r"struct option \w+\[\]\s*=\s*\{(.*?)\};", text, re.S):
            for long in re.findall(r'\{\s*"([a-z][a-z0-9-]*)"\s*,', m.group(1)):
                opts.setdefault(command_at(m.start()), set()).add("--" + long)
        for m in re.finditer(r'getopt_long\s*\(\s*argc\s*,\s*argv\s*,\s*"([^"]*)"', text):
            for ch in m.group(1).replace(":", ""):
                opts.setdefault(command_at(m.start()), set()).add("-" + ch)
        for m in re.finditer(r'strcmp\(\s*argv\[[^\]]+\]\s*,\s*"(-[^"]+)"\s*\)', text):
            opts.setdefault(command_at(m.start()), set()).add(m.group(1))
    return opts


def check_options(top, helps):
    for cmd, options in sorted(parsed_options(top).items(), key=lambda x: x[0] or ""):
        text = helps.get(cmd)
        shown = "buildapp %s--help" % (cmd + " " if cmd else "")
        if text is None:
            problem("builder/cmd_%s.c parses options, but %s is not a command" % (cmd, cmd))
            continue
        for o in sorted(options):
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), text):
                problem("%s: no word of %s, which its parser takes" % (shown, o))


def check_exit_statuses(top, helps):
    allowed = {0, 1}
    commands_h = read(os.path.join(top, "builder", "commands.h"))
    for m in re.finditer(r"^#define EXIT_\w+\s+(\d+)", commands_h, re.M):
        allowed.add(int(m.group(1)))
    # What a command returns is its exit status: a number above 1 there
    # is a status outside the list, or one not said by its name.
    for path in sorted(glob.glob(os.path.join(top, "builder", "cmd_*.c"))) + \
            [os.path.join(top, "builder", "main.c")]:
        text = read(path)
        for m in re.finditer(r"\b(?:return\b|exit\s*\()([^;]*);", text):
            for n in re.findall(r"(?:^|[?:])\s*\(?\s*(\d+)\s*\)?\s*(?=$|[?:])", m.group(1)):
                if int(n) > 1:
                    line = text.count("\n", 0, m.start()) + 1
                    problem("%s:%d: exit status %s as a number: give it by its EXIT_* "
                            "name (builder/commands.h, the one list)"
                            % (os.path.relpath(path, top), line, n))
    for cmd, text in helps.items():
        shown = "buildapp %s--help" % (cmd + " " if cmd else "")
        m = re.search(r"^Exit status: (.*?)(?:\n\n|\Z)", text, re.S | re.M)
        if not m:
            problem("%s: no 'Exit status:' paragraph" % shown)
            continue
        para = " ".join(m.group(1).split())
        said = {int(n) for n in re.findall(r"(?:^|, )(\d+) ", para)}
        if not {0, 1, 2} <= said or not said <= allowed:
            problem("%s: its exit statuses %s are not 0, 1, 2 and others of the list %s"
                    % (shown, sorted(said), sorted(allowed)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", required=True)
    ap.add_argument("--buildapp", required=True)
    o = ap.parse_args()
    files = tree_files(o.top)
    check_metrics(o.top)
    check_paths(o.top, files)
    check_man_files(o.top, files)
    helps = command_helps(o.buildapp)
    check_options(o.top, helps)
    check_exit_statuses(o.top, helps)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
