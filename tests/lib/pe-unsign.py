#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pe-unsign.py IN OUT: OUT is the PE image IN (an EFI-stub kernel) without
its Authenticode signature: the certificate table's data directory entry
zeroed and the table cut off, as `sbattach --remove` does.  The kernel
still boots where nothing checks signatures; under Secure Boot it must
not."""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
pe = struct.unpack_from("<I", data, 0x3C)[0]
if data[pe:pe + 4] != b"PE\0\0":
    sys.exit("not a PE image")
opt = pe + 24
magic = struct.unpack_from("<H", data, opt)[0]
dirs = opt + (112 if magic == 0x20B else 96)  # PE32+ or PE32
cert = dirs + 4 * 8  # IMAGE_DIRECTORY_ENTRY_SECURITY
offset, size = struct.unpack_from("<II", data, cert)
if size == 0:
    sys.exit("not signed")
struct.pack_into("<II", data, cert, 0, 0)
del data[offset:offset + size]
open(sys.argv[2], "wb").write(data)
