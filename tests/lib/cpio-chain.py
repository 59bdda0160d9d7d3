# SPDX-License-Identifier: GPL-2.0-or-later
# cpio-chain.py INITRD [NAME OUT]: the entries of an initrd made of zstd
# cpio "newc" archives laid end to end (as the kernel unpacks them), one
# line each: "ARCHIVE NAME SIZE" (ARCHIVE counts from 0).  With NAME, the
# last entry of that name (the one the kernel leaves) is written to OUT.
import subprocess, sys

data = subprocess.run(["zstd", "-dcq", sys.argv[1]], check=True,
                      stdout=subprocess.PIPE).stdout
pos, archive, found = 0, 0, None
while pos < len(data):
    if data[pos] == 0:  # padding between archives
        pos += 1
        continue
    if data[pos:pos + 6] != b"070701":
        sys.exit("%s: no cpio header at byte %d" % (sys.argv[1], pos))
    h = data[pos:pos + 110]
    size, namesize = int(h[54:62], 16), int(h[94:102], 16)
    name = data[pos + 110:pos + 110 + namesize - 1].decode()
    body = (pos + 110 + namesize + 3) & ~3
    pos = (body + size + 3) & ~3
    if name == "TRAILER!!!":
        archive += 1
        continue
    print(archive, name, size)
    if len(sys.argv) > 2 and name == sys.argv[2]:
        found = data[body:body + size]
if len(sys.argv) > 2:
    if found is None:
        sys.exit("%s: no %s" % (sys.argv[1], sys.argv[2]))
    open(sys.argv[3], "wb").write(found)
