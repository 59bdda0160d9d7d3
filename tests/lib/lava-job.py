"""The LAVA side of the tests, with LAVA's own code (Debian's lava-dispatcher
and lava-server's device-type templates; /usr/bin/python3, whose path has
them).

lava-job.py render TYPE JOB OUT [VAR=VALUE...]
    A device of TYPE (qemu, x86) as lava-server renders its dictionary: the
    template /usr/share/lava-server/device-types/TYPE.jinja2 extended by
    the VARs set (a Python literal each: no_kvm=True), rendered with JOB's
    context, which lava-server passes the same way.
lava-job.py render-dict DICTIONARY JOB OUT
    A device dictionary as a lab writes one (a Jinja file that extends a
    device type's template), rendered with JOB's context, into OUT.
lava-job.py validate JOB
    JOB checked by LAVA's job schema, strictly, as the server checks it.
lava-job.py results LOG|--api YAML
    The results of a job as one JSON list of {definition, case, id, result,
    measurement, units}: from a lava-run log, or from the YAML that
    `lavacli results JOB --yaml` read through the server's API.
lava-job.py check RESULTS BUNDLE ok|failed
    Fails unless RESULTS (as `results` prints them) say the job ended
    complete and hold one case per planned run of BUNDLE (an uploaded
    bundle: its plan.json and runs.jsonl), each as its journal says: ok,
    pass with the journal's first metric as measurement and unit; failed,
    fail with no measurement; and the sweep's case as its outcome.
lava-job.py check RESULTS MANIFEST notmade
    Fails unless RESULTS say the job ended complete and hold one failed
    case per planned run of the kit (its NAME.manifest.json's plan), none
    with a measurement (a sweep that stopped before its first run).
lava-job.py kernel-words DEVICE
    The words LAVA gives the kernel on a device of type x86 (its rendered
    dictionary DEVICE): those of its iPXE `set extraargs` and `set console`
    lines, one a line.
lava-job.py bad-disk JOB OUT CONFIG SERIAL
    JOB with its disk under test read through QEMU's blkdebug driver and
    CONFIG (an error injected on reads of one sector), and the server's
    DMI serial SERIAL.
"""
import ast
import json
import re
import sys

import jinja2
import yaml

TEMPLATES = "/usr/share/lava-server/device-types"


def render_text(dictionary, job, out):
    context = yaml.safe_load(open(job)).get("context", {})
    # As lava_server.files renders a device dictionary.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([TEMPLATES]),
                             autoescape=False, trim_blocks=True)
    text = env.from_string(dictionary).render(**context)
    yaml.safe_load(text)
    with open(out, "w") as f:
        f.write(text)


def render(device_type, job, out, assignments):
    lines = ["{%% extends '%s.jinja2' %%}" % device_type]
    for a in assignments:
        name, value = a.split("=", 1)
        lines.append("{%% set %s = %r %%}" % (name, ast.literal_eval(value)))
    render_text("\n".join(lines) + "\n", job, out)


def validate(job):
    from lava_common.schemas import validate as lava_validate

    lava_validate(yaml.safe_load(open(job)), strict=True)


def number(v):
    return None if v in (None, "", "None") else float(v)


def from_log(log):
    # Each line is YAML (lava_common.log.dump: a null is `! "null"`, not
    # JSON's), read as lava-server reads it.
    for line in open(log):
        if '"lvl": "results"' not in line:
            continue
        m = yaml.load(line, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["msg"]
        yield {"definition": m["definition"], "case": m["case"],
               "id": m.get("extra", {}).get("test_case_id", m["case"]),
               "result": m["result"], "measurement": number(m.get("measurement")),
               "units": m.get("units", "")}


def from_api(path):
    # lavacli's YAML: the case's metadata is what the dispatcher logged,
    # its extra a list of one-key maps.
    for r in yaml.safe_load(open(path)):
        extra = {}
        for e in r.get("metadata", {}).get("extra") or []:
            extra.update(e)
        yield {"definition": r["suite"], "case": r["name"],
               "id": extra.get("test_case_id", r["name"]), "result": r["result"],
               "measurement": number(r.get("measurement")), "units": r.get("unit", "")}


def results(args):
    found = list(from_api(args[1]) if args[0] == "--api" else from_log(args[0]))
    json.dump(found, sys.stdout, indent=1)


def planned_cases(results_path, plan):
    """The job's buildapp-sweep cases by id, after checking that the job
    ended complete with one case per planned run of PLAN."""
    results = json.load(open(results_path))
    cases = {r["id"]: r for r in results if r["definition"] == "buildapp-sweep"}
    job = [r for r in results if r["definition"] == "lava" and r["case"] == "job"]
    assert job and job[0]["result"] == "pass", ("the job did not end complete", job)
    planned = ["%s/run-%d" % (plan["cells"][r["cell"]]["id"], r["run"] + 1) for r in plan["runs"]]
    made = sorted(c for c in cases if c not in ("sweep", "upload"))
    assert made == sorted(planned), (made, planned)
    return cases, planned


def check(results_path, bundle, outcome):
    plan = json.load(open(bundle + "/plan.json"))
    runs = [json.loads(line) for line in open(bundle + "/runs.jsonl")]
    cases, _ = planned_cases(results_path, plan)
    for r in runs:
        c = cases["%s/run-%d" % (r["cell"]["id"], r["index"] + 1)]
        # LAVA's case name: the id lowercased, each run of non-word
        # characters one '_' (lava_dispatcher/actions/test/monitor.py).
        assert c["case"] == re.sub(r"\W+", "_", c["id"].lower()), c
        assert (r["status"] == "ok") == (outcome == "ok"), r
        if r["status"] == "ok":
            m = r["metrics"][0]
            assert c["result"] == "pass", c
            assert c["measurement"] == m["value"] and c["units"] == m["unit"], (c, m)
        else:
            assert c["result"] == "fail" and c["measurement"] is None, c
    assert cases["sweep"]["result"] == ("pass" if outcome == "ok" else "fail"), cases["sweep"]
    assert cases["upload"]["result"] == "pass", cases["upload"]
    r = runs[0]
    print("%s run %d: %s %s" % (r["cell"]["id"], r["index"] + 1, r["status"],
          r["metrics"][0] if r["metrics"] and r["status"] == "ok" else r["message"]))


def check_not_made(results_path, manifest):
    cases, planned = planned_cases(results_path, json.load(open(manifest))["plan"])
    for c in planned:
        assert cases[c]["result"] == "fail" and cases[c]["measurement"] is None, cases[c]
    assert cases["sweep"]["result"] == "fail", cases["sweep"]
    print("%d planned runs, each a failed case" % len(planned))


def kernel_words(device):
    doc = yaml.safe_load(open(device))
    ipxe = doc["actions"]["boot"]["methods"]["ipxe"]
    mac = ipxe["parameters"]["lava_mac"]
    for line in ipxe["ramdisk"]["commands"]:
        for prefix in ("set extraargs ", "set console "):
            if line.startswith(prefix):
                for w in line[len(prefix):].replace("{LAVA_MAC}", mac).split():
                    print(w)


def bad_disk(job, out, config, serial):
    doc = yaml.safe_load(open(job))
    images = doc["actions"][0]["deploy"]["images"]
    arg = images["disk"]["image_arg"]
    old = "format=qcow2,file={disk}"
    assert old in arg, arg
    images["disk"]["image_arg"] = arg.replace(
        old, "driver=blkdebug,config=%s,image.driver=qcow2,image.file.filename={disk}" % config
    ) + " -smbios type=1,serial=%s" % serial
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "render":
        render(args[0], args[1], args[2], args[3:])
    elif cmd == "render-dict":
        render_text(open(args[0]).read(), args[1], args[2])
    elif cmd == "validate":
        validate(args[0])
    elif cmd == "results":
        results(args)
    elif cmd == "check" and args[2] == "notmade":
        check_not_made(args[0], args[1])
    elif cmd == "check":
        check(*args)
    elif cmd == "kernel-words":
        kernel_words(args[0])
    elif cmd == "bad-disk":
        bad_disk(*args)
    else:
        sys.exit("unknown command " + cmd)
