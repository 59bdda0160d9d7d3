/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An upward #include: compiled as a file of FOLDER (lib, storage,
 * profile, runner, report or appliance) including UPWARD, a header of a folder above it, it must not
 * build.  With -DCONTROL the same file is compiled with every folder's
 * headers in reach and must build, so the failure is the include path's. */
#include UPWARD

int build_fail_probe(void);
int build_fail_probe(void)
{
	return 0;
}
