# SPDX-License-Identifier: GPL-2.0-or-later
# kit-kernel.py IMAGE NETBOOT_DIR MANIFEST: the kit stores the guest
# kernel once (docs/kit.md).  The ESP's initrd, read out of the raw IMAGE
# with mtools, carries no kit/vmlinuz but kit/vmlinuz.from naming the
# ESP's /vmlinuz by its sha256; the netboot initrd is the ESP's initrd
# followed by an archive holding kit/vmlinuz, byte-identical to the ESP's
# /vmlinuz; the manifest's hashes say the same.
import hashlib, json, os, subprocess, sys, tempfile

image, netboot, manifest = sys.argv[1:4]
KIT = "usr/lib/buildapp/kit/"
files = {f["path"]: f for f in json.load(open(manifest))["files"]}
here = os.path.dirname(os.path.abspath(__file__))


def fail(what):
    sys.exit("kit kernel: " + what)


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def chain(path, name=None, out=None):
    argv = ["python3", os.path.join(here, "cpio-chain.py"), path]
    if name:
        argv += [name, out]
    lines = subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True).stdout
    return [line.split(" ") for line in lines.splitlines()]


table = json.loads(subprocess.run(["sfdisk", "-J", image], check=True,
                                  stdout=subprocess.PIPE).stdout)
start = table["partitiontable"]["partitions"][0]["start"] * 512
with tempfile.TemporaryDirectory() as t:
    for name in ("vmlinuz", "initrd"):
        subprocess.run(["mcopy", "-n", "-i", "%s@@%d" % (image, start),
                        "::/" + name, os.path.join(t, name)], check=True)
        if sha(os.path.join(t, name)) != files["ESP:/" + name]["sha256"]:
            fail("ESP:/%s is not the manifest's" % name)
    esp = chain(os.path.join(t, "initrd"), KIT + "vmlinuz.from", os.path.join(t, "ref"))
    names = {n for _, n, _ in esp}
    if KIT + "vmlinuz" in names:
        fail("the ESP's initrd carries " + KIT + "vmlinuz")
    ref = open(os.path.join(t, "ref")).read()
    if ref != "%s  ESP:/vmlinuz\n" % files["ESP:/vmlinuz"]["sha256"]:
        fail("vmlinuz.from is %r" % ref)
    nb = os.path.join(netboot, "initrd")
    if sha(nb) != files["netboot:/initrd"]["sha256"]:
        fail("netboot:/initrd is not the manifest's")
    if open(nb, "rb").read(os.path.getsize(os.path.join(t, "initrd"))) != \
            open(os.path.join(t, "initrd"), "rb").read():
        fail("the netboot initrd does not begin with the ESP's")
    entries = chain(nb, KIT + "vmlinuz", os.path.join(t, "guest"))
    last = int(entries[-1][0])
    if [n for a, n, _ in entries if int(a) == last][-1] != KIT + "vmlinuz":
        fail("the netboot initrd's last archive does not end with the kernel")
    if open(os.path.join(t, "guest"), "rb").read() != open(os.path.join(t, "vmlinuz"), "rb").read():
        fail("the netboot initrd's kit/vmlinuz is not the ESP's /vmlinuz")
    if open(os.path.join(netboot, "vmlinuz"), "rb").read() != open(os.path.join(t, "vmlinuz"), "rb").read():
        fail("the netboot vmlinuz is not the ESP's")
print("kit kernel: stored once on the ESP (%d bytes), in the netboot initrd's "
      "archive %d of its own" % (files["ESP:/vmlinuz"]["size"], last))
