"""A journal of one volume's sweep with [sweep] verify_reset = yes: each
run ok in cell PREFIX/KIND with a metric whose name starts with METRIC, and QEMU's cache=unsafe
flags; the first run's reset full, every later one's fast and checked, the
last run's writes checked after it; every check identical, a real sha256,
and the same one each time (each reset's result is the pristine volume).

With --pristine=SHA256 that one hash must be SHA256 (the pristine guest
image's, as `buildapp kit` writes disk.img: what the volume holds after a
reset when it is the image's size).

usage: reset-checks.py [--pristine=SHA256] RUNS.jsonl PREFIX KIND:METRIC..."""
import json
import re
import sys

EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
UNSAFE = {"writeback": True, "direct": False, "no-flush": True}


def check(c, where, errors):
    if not c:
        errors.append(f"{where}: no reset check")
        return None
    for side in ("fast", "full"):
        h = c.get(side)
        if not isinstance(h, str) or not re.fullmatch("[0-9a-f]{64}", h) or h == EMPTY:
            errors.append(f"{where}: {side} is not the sha256 of a volume: {h!r}")
    if c.get("identical") is not True or c.get("fast") != c.get("full"):
        errors.append(f"{where}: the fast reset differs from the full one: {c}")
    return c.get("full")


def main(path, prefix, wants, pristine=None):
    # guestfish's cat ends the text with a newline of its own.
    runs = [json.loads(l) for l in open(path) if l.strip()]
    runs.sort(key=lambda r: r["position"])
    kinds = dict(w.split(":") for w in wants)
    errors, hashes = [], set()
    if sorted(r["cell"]["id"] for r in runs) != sorted(f"{prefix}/{k}" for k in kinds):
        errors.append(f"want one run of each of {sorted(kinds)} in {prefix}, got "
                      f"{[r['cell']['id'] for r in runs]}")
    for i, r in enumerate(runs):
        where = f"run {i + 1} ({r['cell']['id']})"
        kind = r["cell"]["id"][len(prefix) + 1:]
        if r["status"] != "ok":
            errors.append(f"{where}: status {r['status']}: {r.get('message')}")
        if r.get("applied_cache") != UNSAFE:
            errors.append(f"{where}: QEMU did not apply cache=unsafe: {r.get('applied_cache')}")
        if not any(m["name"].startswith(kinds.get(kind) or "?") for m in r["metrics"]):
            errors.append(f"{where}: no {kinds.get(kind)} result")
        want = "full" if i == 0 else "fast"
        if r.get("reset") != want:
            errors.append(f"{where}: reset {r.get('reset')!r}, want {want!r}")
        if i == 0 and r.get("reset_check"):
            errors.append(f"{where}: a full reset was checked")
        if i > 0:
            hashes.add(check(r.get("reset_check"), where + ": reset_check", errors))
        if i == len(runs) - 1:
            hashes.add(check(r.get("reset_check_after"), where + ": reset_check_after", errors))
        elif r.get("reset_check_after"):
            errors.append(f"{where}: a check after a run that is not the last")
    if len(hashes) != 1:
        errors.append(f"the resets left different volumes: {sorted(map(str, hashes))}")
    elif pristine and hashes != {pristine}:
        errors.append(f"the resets left {hashes.pop()}, not the pristine image {pristine}")
    for e in errors:
        print("reset-checks:", e, file=sys.stderr)
    if not errors:
        print(f"reset-checks: {len(runs)} runs; each one's writes undone by a fast "
              f"reset identical to the full one (sha256 {hashes.pop()})")
    return 1 if errors else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    pristine = None
    if args and args[0].startswith("--pristine="):
        pristine = args.pop(0).split("=", 1)[1]
    sys.exit(main(args[0], args[1], args[2:], pristine))
