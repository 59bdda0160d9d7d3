#!/bin/sh
# tests/e2e/lava-x86.sh with its emulated x86 servers under BIOS (SeaBIOS,
# its console and so iPXE's on the serial port) instead of UEFI: the same
# four LAVA jobs.  make check runs them under UEFI, where the x86 job
# also needs its initrd= word; BIOS adds no check of the kit that UEFI
# leaves out, at the cost of another four boots (docs/testing.md).
LAVA_X86_FIRMWARE=bios exec sh "$TOP/tests/e2e/lava-x86.sh"
