"""The LAVA side of the tests, with LAVA's own code (Debian's lava-dispatcher
and lava-server's device-type templates; /usr/bin/python3, whose path has
them).

lava-job.py render TYPE JOB OUT [VAR=VALUE...]
    A device of TYPE (qemu, x86) as lava-server renders its dictionary: the
    template /usr/share/lava-server/device-types/TYPE.jinja2 extended by
    the VARs set (a Python literal each: no_kvm=True), rendered with JOB's
    context, which lava-server passes the same way.
lava-job.py validate JOB
    JOB checked by LAVA's job schema, strictly, as the server checks it.
lava-job.py results LOG
    The results a lava-run log holds, as one JSON list.
lava-job.py bad-disk JOB OUT CONFIG SERIAL
    JOB with its disk under test read through QEMU's blkdebug driver and
    CONFIG (an error injected on reads of one sector), and the server's
    DMI serial SERIAL.
"""
import ast
import json
import sys

import jinja2
import yaml

TEMPLATES = "/usr/share/lava-server/device-types"


def render(device_type, job, out, assignments):
    context = yaml.safe_load(open(job)).get("context", {})
    lines = ["{%% extends '%s.jinja2' %%}" % device_type]
    for a in assignments:
        name, value = a.split("=", 1)
        lines.append("{%% set %s = %r %%}" % (name, ast.literal_eval(value)))
    # As lava_server.files renders a device dictionary.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([TEMPLATES]),
                             autoescape=False, trim_blocks=True)
    text = env.from_string("\n".join(lines) + "\n").render(**context)
    yaml.safe_load(text)
    with open(out, "w") as f:
        f.write(text)


def validate(job):
    from lava_common.schemas import validate as lava_validate

    lava_validate(yaml.safe_load(open(job)), strict=True)


def results(log):
    # Each line is YAML (lava_common.log.dump: a null is `! "null"`, not
    # JSON's), read as lava-server reads it.
    found = []
    for line in open(log):
        if '"lvl": "results"' not in line:
            continue
        entry = yaml.load(line, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        if entry.get("lvl") == "results":
            found.append(entry["msg"])
    json.dump(found, sys.stdout, indent=1)


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
    elif cmd == "validate":
        validate(args[0])
    elif cmd == "results":
        results(args[0])
    elif cmd == "bad-disk":
        bad_disk(*args)
    else:
        sys.exit("unknown command " + cmd)
