# SPDX-License-Identifier: GPL-2.0-or-later
"""A journal of one volume's sweep with [sweep] verify_reset = yes: runs
ok of each CELL given and no other, with a metric whose name starts with its METRIC; a
guest run with QEMU's cache=unsafe flags, a host-native run ("guest":
false) with none.  The resets follow the runner's rules (runner/volreset.c):
the first run's reset is full (none with --filled); a reset after a guest run is fast and
checked, and so is one after a host-native run (its writes to the device
traced by the kernel: runner/blocktrace.h); a check after the last run.
Every check identical, a real sha256, and the same one each time (each
reset's result is the pristine volume), and at least one check made.

With --reads-only the guest runs only read a read-only disk: the reset
after one is none, and checked, in place of fast (a host-native run's
still fast).

With --filled the volume is filled ([storage] fill): provisioning wrote
the pristine image into it, and the first run's reset is none, and
checked, in place of full.

With --pristine=SHA256 that one hash must be SHA256 (the pristine guest
image's, as `buildapp kit` writes disk.img: what the volume holds after a
reset when it is the image's size).

usage: reset-checks.py [--pristine=SHA256] [--reads-only] [--filled] RUNS.jsonl CELL:METRIC..."""
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


def main(path, wants, pristine=None, after_guest="fast", first="full"):
    # guestfish's cat ends the text with a newline of its own.
    runs = [json.loads(l) for l in open(path) if l.strip()]
    runs.sort(key=lambda r: r["position"])
    metrics = dict(w.rsplit(":", 1) for w in wants)
    errors, hashes, kinds = [], set(), []
    if sorted({r["cell"]["id"] for r in runs}) != sorted(metrics):
        errors.append(f"want runs of each of {sorted(metrics)} and no other, got "
                      f"{[r['cell']['id'] for r in runs]}")
    after_host = False
    for i, r in enumerate(runs):
        cell = r["cell"]["id"]
        guest = r["cell"].get("guest", True)
        where = f"run {i + 1} ({cell})"
        kinds.append("guest" if guest else "host")
        if r["status"] != "ok":
            errors.append(f"{where}: status {r['status']}: {r.get('message')}")
        want_cache = UNSAFE if guest else None
        if r.get("applied_cache") != want_cache:
            errors.append(f"{where}: cache flags {r.get('applied_cache')}, want {want_cache}")
        if not any(m["name"].startswith(metrics.get(cell) or "?") for m in r["metrics"]):
            errors.append(f"{where}: no {metrics.get(cell)} result")
        want = first if i == 0 else "fast" if after_host else after_guest
        if r.get("reset") != want:
            errors.append(f"{where}: reset {r.get('reset')!r}, want {want!r}")
        if want == "full" and r.get("reset_check"):
            errors.append(f"{where}: a full reset was checked")
        if want != "full":
            hashes.add(check(r.get("reset_check"), where + ": reset_check", errors))
        last = i == len(runs) - 1
        if last:
            hashes.add(check(r.get("reset_check_after"), where + ": reset_check_after", errors))
        elif r.get("reset_check_after"):
            errors.append(f"{where}: a check after a run that is not the last")
        after_host = not guest
    if not hashes:
        errors.append("no reset was checked")
    elif len(hashes) != 1:
        errors.append(f"the resets left different volumes: {sorted(map(str, hashes))}")
    elif pristine and hashes != {pristine}:
        errors.append(f"the resets left {hashes.pop()}, not the pristine image {pristine}")
    for e in errors:
        print("reset-checks:", e, file=sys.stderr)
    if not errors:
        what = ("left the volume as a full reset does (reset none, checked)"
                if after_guest == "none" else
                "had its writes undone by a fast reset identical to the full one")
        if "host" in kinds:
            what += ", each host-native run's writes by a fast reset too"
        print(f"reset-checks: {len(runs)} runs ({', '.join(kinds)}), each ok; each guest "
              f"run {what} (sha256 {hashes.pop()})")
    return 1 if errors else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    pristine, after_guest, first = None, "fast", "full"
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt.startswith("--pristine="):
            pristine = opt.split("=", 1)[1]
        elif opt == "--reads-only":
            after_guest = "none"
        elif opt == "--filled":
            first = "none"
        else:
            sys.exit(__doc__)
    if len(args) < 2:
        sys.exit(__doc__)
    sys.exit(main(args[0], args[1:], pristine, after_guest, first))
