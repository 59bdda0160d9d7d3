# SPDX-License-Identifier: GPL-2.0-or-later
# kit-sizes.py MANIFEST HOSTROOT CPIO_BYTES ALLOCATED: the size breakdown
# of a kit's manifest adds up, against measures made without it: the
# files' sizes in the manifest, the cached host root's size, the bytes of
# the regular files its cpio lists, and the image's allocation (du).
import json, os, sys

m = json.load(open(sys.argv[1]))
s = m["sizes"]
files = {f["path"]: f["size"] for f in m["files"]}


def check(ok, what):
    if not ok:
        sys.exit("sizes: " + what + ": " + json.dumps(s, indent=1)[:3000])


img, ird = s["image"], s["initrd"]
check(img["vmlinuz"] == files["ESP:/vmlinuz"], "vmlinuz")
check(img["initrd"] == files["ESP:/initrd"], "initrd")
check(img["vmlinuz"] + img["initrd"] + img["other"] == s["image_data"], "image parts")
check(0 < img["other"] < 8 << 20, "the rest of the image")
check(ird["host_root"] == os.path.getsize(sys.argv[2]), "host root")
check(ird["host_root"] + ird["appliance_files"] == img["initrd"], "initrd parts")
# The netboot initrd: the ESP's and, when the guest kernel is the ESP's
# (stored once), the archive that carries it for a server without an ESP.
nb = s["netboot"]
check(nb["initrd"] == files["netboot:/initrd"], "netboot initrd")
check(nb["initrd"] == img["initrd"] + nb["kernel_archive"], "netboot initrd parts")
once = "initrd:/usr/lib/buildapp/kit/vmlinuz.from" in files
check(once != ("initrd:/usr/lib/buildapp/kit/vmlinuz" in files), "one guest kernel")
check(img["vmlinuz"] * 9 // 10 < nb["kernel_archive"] < img["vmlinuz"] + (1 << 16)
      if once else nb["kernel_archive"] == 0, "the kernel's archive")
for path, n in s["appliance_files"].items():
    check(files["initrd:" + path] == n, path)
root = s["host_root_uncompressed"]
pk = root["packages"]
check(root["modules"] + root["unpackaged"] + sum(pk.values()) == root["total"],
      "root parts")
check(abs(root["total"] - int(open(sys.argv[3]).read())) < root["total"] // 100,
      "root total against the cpio")
check(pk.get("qemu-system-x86", 0) > 1 << 20 and root["modules"] > 0, "packages")
# ICU's data is the empty stub (builder/icustub.c): libicuuc alone is left
check("libicu72" in pk and 0 < pk["libicu72"] < 4 << 20,
      "ICU's library is in the root, its data the stub")
allocated = int(sys.argv[4])
check(s["image_data"] <= allocated < s["image_data"] + (1 << 20), "allocation")
print("size breakdown adds up: %.1f MiB allocated, host root %.1f MiB "
      "(%.1f MiB before compression)" % (allocated / 2**20,
      ird["host_root"] / 2**20, root["total"] / 2**20))
