#!/usr/bin/env python3
"""README.md and the docs held to the binary (tests/integration/readme.sh).

Usage: readme-check.py --buildapp PATH --limit LINES --readme FILE
                       --docs DIR --man FILE --commands-h FILE
                       --ci-run FILE --quick-start-test FILE
                       --all-modes-profile FILE

Prints one line per problem found ("readme-check: ...") and exits 1 when
there is any, 0 when there is none.  What it checks:

- README is at most LIMIT lines; it holds no date (YYYY-MM-DD) and no
  commit hash (a word of 7 to 40 lowercase hex digits with a digit and a
  letter in it): a figure in README is of the tree as it is;
- every `buildapp WORD ...` in README's code (spans and blocks) names a
  command of `buildapp --help` (or a profile, for the build), and every
  option after it is in that command's --help;
- every `[section] key` and `key = value` in README's code names a key of
  `buildapp keys`, and every ```ini block loads (`buildapp plan`);
- docs/profile-keys.md's cache-mode table is what `buildapp plan` prints
  for ALL_MODES_PROFILE, which sweeps all five;
- every copy of the key table in README or docs/ (between
  <!-- keys:begin --> and <!-- keys:end -->) is what `buildapp keys`
  prints, docs/profile-keys.md holds one, and README holds none;
- each command's synopsis is the same in its --help, the man page's
  SYNOPSIS and README's "Commands", every command is in all three, and
  the man page has an entry for it under COMMANDS;
- the man page's EXIT STATUS lists 0, 1 and every EXIT_* of
  builder/commands.h, and nothing else;
- README's first command is the one tests/e2e/kit-boot.sh runs as the
  quick start, and the command .ci/run runs is in README.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

problems = []


def problem(text):
    problems.append(text)
    print("readme-check: " + text)


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def norm(text):
    return " ".join(text.split())


# --- README as Markdown: prose paragraphs, code spans, code blocks -------

def split_markdown(text):
    """Returns (code_lines, code_spans, ini_blocks): the lines of indented
    and fenced code blocks (but ```ini ones), the inline code spans of the
    prose (a paragraph's lines joined first), and each ```ini block."""
    code_lines, spans, ini_blocks = [], [], []
    para = []
    fence = None
    block = []
    lines = text.split("\n")

    def flush():
        if para:
            joined = " ".join(l.strip() for l in para)
            spans.extend(re.findall(r"`([^`]+)`", joined))
            para.clear()

    prev_blank = True
    in_code = False
    for line in lines:
        if fence is not None:
            if line.startswith("```"):
                if fence == "ini":
                    ini_blocks.append("\n".join(block) + "\n")
                else:
                    code_lines.extend(block)
                fence, block = None, []
            else:
                block.append(line)
            continue
        m = re.match(r"^```(\w*)", line)
        if m:
            flush()
            fence = m.group(1)
            continue
        if line.startswith("    ") and (prev_blank or in_code):
            flush()
            code_lines.append(line[4:])
            prev_blank, in_code = False, True
            continue
        in_code = False
        if not line.strip():
            flush()
            prev_blank = True
            continue
        para.append(line)
        prev_blank = False
    flush()
    return code_lines, spans, ini_blocks


# --- the binary ----------------------------------------------------------

def commands(buildapp):
    rc, out, _ = run([buildapp, "--help"])
    if rc != 0:
        problem("buildapp --help exits %d" % rc)
    names = []
    in_list = False
    for line in out.splitlines():
        if line.startswith("Commands:"):
            in_list = True
            continue
        if in_list:
            m = re.match(r"^  ([a-z]+)\s", line)
            if not m:
                break
            names.append(m.group(1))
    if not names:
        problem("buildapp --help lists no commands")
    return names


def helps(buildapp, names):
    texts = {"": run([buildapp, "--help"])[1]}
    for name in names:
        rc, out, err = run([buildapp, name, "--help"])
        if rc != 0:
            problem("buildapp %s --help exits %d" % (name, rc))
        texts[name] = out
    return texts


def help_synopses(text):
    """The synopses of a --help text: after "Usage:", each line that starts
    with buildapp, with the indented lines that follow it."""
    out = []
    cur = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if cur is None and not line.startswith("Usage:"):
            continue
        body = line[len("Usage:"):] if line.startswith("Usage:") else line
        if not line.strip():
            break
        if body.strip().startswith("buildapp"):
            if cur is not None:
                out.append(norm(cur))
            cur = body
        elif line[:1].isspace() and cur is not None:
            cur += " " + body
        else:
            break
    if cur is not None:
        out.append(norm(cur))
    return out


def synopsis_command(syn, names):
    words = syn.split()
    if len(words) < 2 or words[0] != "buildapp":
        return None
    w = words[1]
    if w in names:
        return w
    if w == "[build]" or w.endswith(".ini"):
        return "build"
    return None


def keys_table(buildapp):
    rc, out, _ = run([buildapp, "keys"])
    if rc != 0:
        problem("buildapp keys exits %d" % rc)
    keys = {}
    for line in out.splitlines():
        m = re.match(r"^\| \[([a-z]+)\] \| ([a-z0-9_]+) \|", line)
        if m:
            keys.setdefault(m.group(1), set()).add(m.group(2))
    if not keys:
        problem("buildapp keys prints no key")
    return out, keys


# --- the man page (the roff subset its SYNOPSIS uses) --------------------

def roff_args(rest):
    try:
        return shlex.split(rest.replace("\\", "\\\\"), posix=True)
    except ValueError:
        return rest.split()


def roff_text(s):
    s = s.replace("\\\\", "\\")
    s = re.sub(r"\\f[BIRP]", "", s)
    return s.replace("\\-", "-").replace("\\&", "").replace("\\|", "")


def man_sections(man):
    sections = {}
    name = None
    for line in man.splitlines():
        m = re.match(r"^\.SH\s+\"?([^\"]+)\"?\s*$", line)
        if m:
            name = m.group(1).strip()
            sections[name] = []
        elif name:
            sections[name].append(line)
    return sections


def man_synopses(lines):
    out, cur = [], []
    for line in lines:
        if line in (".br", ".PP", ".sp"):
            if cur:
                out.append(norm(" ".join(cur)))
            cur = []
            continue
        m = re.match(r"^\.([A-Z]{1,2})(?:\s+(.*))?$", line)
        if m:
            macro, rest = m.group(1), m.group(2) or ""
            args = [roff_text(a) for a in roff_args(rest)]
            if macro in ("B", "I"):
                cur.append(" ".join(args))
            elif macro in ("BI", "IB", "RB", "BR", "IR", "RI"):
                cur.append("".join(args))
            else:
                problem("man page SYNOPSIS: macro .%s is not one this test reads" % macro)
        elif line.startswith(".") or line.startswith("'"):
            problem("man page SYNOPSIS: line %r is not one this test reads" % line)
        else:
            cur.append(roff_text(line))
    if cur:
        out.append(norm(" ".join(cur)))
    return out


def man_tags(lines, pattern):
    """The tags of a section's .TP items that match PATTERN (its group 1),
    in order."""
    tags = []
    for i, line in enumerate(lines):
        if line == ".TP" and i + 1 < len(lines):
            m = re.match(pattern, lines[i + 1])
            if m:
                tags.append(m.group(1))
    return tags


def man_command_entries(lines):
    return man_tags(lines, r"^\.BR?\s+\"?([a-z]+)\b")


def man_exit_statuses(lines):
    return [int(t) for t in man_tags(lines, r"^\.B\s+(\d+)\s*$")]


# --- the checks ----------------------------------------------------------

def check_length_dates_hashes(text, limit):
    n = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if n > limit:
        problem("README.md has %d lines, more than %d" % (n, limit))
    for i, line in enumerate(text.splitlines(), 1):
        for d in re.findall(r"\b\d{4}-\d{2}-\d{2}\b", line):
            problem("README.md:%d: a date, %s: README says what is true of the tree, "
                    "its history goes to docs/history/" % (i, d))
        for w in re.findall(r"(?<![\w-])[0-9a-f]{7,40}(?![\w-])", line):
            if re.search(r"[0-9]", w) and re.search(r"[a-f]", w):
                problem("README.md:%d: a commit hash, %s: README says what is true of "
                        "the tree, its history goes to docs/history/" % (i, w))


def invocations(code):
    """Each `buildapp WORD ...` in a piece of code, as its words up to the
    end of the shell command."""
    out = []
    for m in re.finditer(r"(?<![\w./-])buildapp\s+(\S.*)", code):
        words = []
        for w in m.group(1).split():
            if w in ("|", "||", "&&", ";", ">", ">>", "<", "2>&1") or w.startswith("#"):
                break
            words.append(w)
        if words:
            out.append(words)
    return out


def check_invocations(code_pieces, names, help_texts):
    for code in code_pieces:
        # An option on its own (`--key team.pub`): some command has it.
        m = re.match(r"^(--?[a-zA-Z][a-zA-Z0-9-]*)", code)
        if m and not any(re.search(r"(?:^|[\s\[,|])%s(?![\w-])" % re.escape(m.group(1)), t)
                         for t in help_texts.values()):
            problem("README: `%s`: no command has the option %s (buildapp COMMAND --help)"
                    % (code, m.group(1)))
        for words in invocations(code):
            first = words[0]
            if first in names:
                cmd, rest = first, words[1:]
            elif first == "[build]":
                cmd, rest = "build", words[1:]
            elif first.endswith(".ini"):
                cmd, rest = "build", words[1:]
            elif first == "COMMAND":
                cmd, rest = None, words[1:]
            elif first.startswith("-"):
                # buildapp's own options (--help, --version): its --help
                if not re.search(r"(?:^|[\s\[,|])%s(?![\w-])" % re.escape(first),
                                 help_texts.get("", "")):
                    problem("README: `buildapp %s`: option %s is not in `buildapp --help`"
                            % (" ".join(words), first))
                continue
            else:
                problem("README: `buildapp %s`: buildapp has no command %r (buildapp --help)"
                        % (" ".join(words), first))
                continue
            for w in rest:
                for opt in re.findall(r"(?:^|[\[|])(--?[a-zA-Z][a-zA-Z0-9-]*)", w):
                    texts = [help_texts[cmd]] if cmd else list(help_texts.values())
                    if not any(re.search(r"(?:^|[\s\[,|])%s(?![\w-])" % re.escape(opt), t)
                               for t in texts):
                        problem("README: `buildapp %s`: option %s is not in `buildapp %s --help`"
                                % (" ".join(words), opt, cmd or "COMMAND"))


def check_keys(code_pieces, ini_blocks, keys, buildapp):
    sections = set(keys)
    for code in code_pieces:
        for sec, key in re.findall(r"\[([a-z]+)\](?:\s+([a-z][a-z0-9_]*)\b(?![.(\w]))?", code):
            if sec not in sections:
                if sec != "build":
                    problem("README: `%s`: no section [%s] in `buildapp keys`" % (code, sec))
            elif key and key not in keys[sec]:
                problem("README: `%s`: no key %s in [%s] (`buildapp keys`)" % (code, key, sec))
        m = re.match(r"^\s*([a-z][a-z0-9_]*) = \S", code)
        if m and not any(m.group(1) in k for k in keys.values()):
            problem("README: `%s`: no key %s in any section (`buildapp keys`)" % (code, m.group(1)))
    for block in ini_blocks:
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
            f.write(block)
        rc, _, err = run([buildapp, "plan", f.name])
        os.unlink(f.name)
        if rc != 0:
            problem("README: an ini block does not load: %s" % err.strip())


def key_blocks(text):
    m = re.search(r"^<!-- keys:begin -->\n(.*?)^<!-- keys:end -->$", text, re.S | re.M)
    return None if m is None else m.group(1)


def check_key_copies(readme_text, docs, keys_out):
    if key_blocks(readme_text) is not None or re.search(r"^\| \[appliance\] \| ", readme_text, re.M):
        problem("README.md holds a copy of the key table: it lives in docs/profile-keys.md")
    found = False
    for top, _, files in os.walk(docs):
        for f in sorted(files):
            if not f.endswith(".md"):
                continue
            path = os.path.join(top, f)
            text = open(path, encoding="utf-8").read()
            if "<!-- keys:begin -->" not in text:
                continue
            block = key_blocks(text)
            if path.endswith(os.sep + "profile-keys.md") and block is not None:
                found = True
            if block != keys_out:
                problem("%s: its key table differs from `buildapp keys` "
                        "(sh scripts/profile-keys.sh writes it again)" % path)
    if not found:
        problem("%s/profile-keys.md holds no key table between <!-- keys:begin --> and "
                "<!-- keys:end -->" % docs)


def check_cache_table(docs, buildapp, profile):
    """docs/profile-keys.md's cache-mode table is what `buildapp plan`
    prints for a profile that sweeps every mode."""
    rc, out, _ = run([buildapp, "plan", profile])
    want = set()
    table = False
    for line in out.splitlines():
        if line.startswith("Cache modes"):
            table = True
        elif table and not line.strip():
            break
        elif table:
            w = line.split()
            if w[0] != "mode":
                want.add(tuple(w[:4]))
    if rc != 0 or len(want) != 5:
        problem("buildapp plan %s: no cache-mode table of the five modes" % profile)
        return
    path = os.path.join(docs, "profile-keys.md")
    got = set()
    for line in open(path, encoding="utf-8").read().splitlines():
        m = re.match(r"^\| (none|writethrough|writeback|directsync|unsafe) \| (on|off) \| (on|off) \| (on|off) \|$",
                     line)
        if m:
            got.add(m.groups())
    if got != want:
        problem("%s: its cache-mode table %s is not what `buildapp plan %s` prints %s"
                % (path, sorted(got), profile, sorted(want)))


def readme_synopses(text, names):
    m = re.search(r"^## Commands\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        problem("README.md has no \"## Commands\" section")
        return {}
    out = {}
    for line in m.group(1).splitlines():
        s = re.match(r"^- `(buildapp[^`]*)`", line)
        if s:
            cmd = synopsis_command(s.group(1), names)
            if cmd is None:
                problem("README Commands: `%s` names no command" % s.group(1))
            else:
                out.setdefault(cmd, []).append(norm(s.group(1)))
    return out


def by_command(synopses, names, where):
    out = {}
    for syn in synopses:
        cmd = synopsis_command(syn, names)
        if cmd is not None:
            out.setdefault(cmd, []).append(syn)
        elif not re.match(r"^buildapp \[--", syn):
            problem("%s: synopsis `%s` names no command" % (where, syn))
    return out


def check_synopses(names, help_texts, man_syn, readme_syn):
    helps_syn = {}
    for name in names:
        syns = help_synopses(help_texts[name])
        if not syns:
            problem("buildapp %s --help has no Usage: line" % name)
        for syn in syns:
            if synopsis_command(syn, names) != name:
                problem("buildapp %s --help: its synopsis `%s` is not of %s" % (name, syn, name))
            helps_syn.setdefault(name, []).append(syn)
    for name in names:
        h = sorted(helps_syn.get(name, []))
        m = sorted(man_syn.get(name, []))
        r = sorted(readme_syn.get(name, []))
        if not m:
            problem("man page SYNOPSIS: no synopsis of %s" % name)
        if not r:
            problem("README Commands: no synopsis of %s" % name)
        if m and m != h:
            problem("%s: the man page's synopsis %s differs from its --help's %s" % (name, m, h))
        if r and r != h:
            problem("%s: README's synopsis %s differs from its --help's %s" % (name, r, h))
    for where, syn in (("man page SYNOPSIS", man_syn), ("README Commands", readme_syn)):
        for name in syn:
            if name not in names:
                problem("%s: %s is not a command of buildapp --help" % (where, name))


def check_exit_statuses(man_lines, commands_h):
    want = {0, 1}
    for m in re.finditer(r"^#define EXIT_\w+\s+(\d+)", open(commands_h).read(), re.M):
        want.add(int(m.group(1)))
    got = man_exit_statuses(man_lines)
    if set(got) != want or len(got) != len(set(got)):
        problem("man page EXIT STATUS lists %s; the code's statuses (0, 1 and %s's EXIT_*) are %s"
                % (got, commands_h, sorted(want)))


def check_commands_agree(code_lines, ci_run, quick_start_test):
    first = next((l.strip() for l in code_lines if l.strip()), None)
    m = re.search(r"^\s*(sh scripts/install-deps\.sh && make && sh scripts/demo\.sh)\s*$",
                  open(quick_start_test).read(), re.M)
    if m is None:
        problem("%s runs no quick start command this test knows" % quick_start_test)
    elif first != m.group(1):
        problem("README's first command is %r, but %s runs %r as the quick start"
                % (first, quick_start_test, m.group(1)))
    ci = [l.strip() for l in open(ci_run).read().splitlines()
          if l.strip() and not l.lstrip().startswith("#")]
    cmd = ci[-1] if ci else ""
    if not any(re.match(r"^%s(\s|$)" % re.escape(cmd), l.strip()) for l in code_lines):
        problem("%s runs %r, which README gives nowhere as a command" % (ci_run, cmd))


def main():
    ap = argparse.ArgumentParser()
    for a in ("buildapp", "readme", "docs", "man", "commands-h", "ci-run", "quick-start-test",
              "all-modes-profile"):
        ap.add_argument("--" + a, required=True)
    ap.add_argument("--limit", type=int, required=True)
    o = ap.parse_args()

    text = open(o.readme, encoding="utf-8").read()
    man = open(o.man, encoding="utf-8").read()
    names = commands(o.buildapp)
    help_texts = helps(o.buildapp, names)
    keys_out, keys = keys_table(o.buildapp)
    code_lines, spans, ini_blocks = split_markdown(text)

    check_length_dates_hashes(text, o.limit)
    check_invocations(code_lines + spans, names, help_texts)
    check_keys(code_lines + spans, ini_blocks, keys, o.buildapp)
    check_key_copies(text, o.docs, keys_out)
    check_cache_table(o.docs, o.buildapp, o.all_modes_profile)
    sections = man_sections(man)
    man_syn = by_command(man_synopses(sections.get("SYNOPSIS", [])), names, "man page SYNOPSIS")
    check_synopses(names, help_texts, man_syn, readme_synopses(text, names))
    entries = man_command_entries(sections.get("COMMANDS", []))
    for name in names:
        if name not in entries:
            problem("man page COMMANDS: no entry for %s" % name)
    check_exit_statuses(sections.get("EXIT STATUS", []), o.commands_h)
    check_commands_agree(code_lines, o.ci_run, o.quick_start_test)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
