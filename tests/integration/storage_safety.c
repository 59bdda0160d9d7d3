/* The safety check as provision applies it, on a real target: probes
 * TARGET and decides with [host] wipe and disk.  Prints the facts and the
 * verdict; exit 0 allowed, 2 refused, 1 probe failed.
 * Usage: storage_safety TARGET yes|no IDENTITY */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "safety.h"

int main(int argc, char **argv)
{
	struct safety_facts f;
	struct safety_policy p;
	char reason[SAFETY_REASON_MAX];

	log_set_program("storage_safety");
	if (argc != 4) {
		fprintf(stderr, "usage: storage_safety TARGET yes|no IDENTITY\n");
		return 1;
	}
	if (safety_probe(argv[1], &f) < 0)
		return 1;
	printf("exists %d block %d disk '%s' boot %d mounted %d (%s)\n", f.exists,
	       f.block_device, f.disk, f.boot, f.mounted, f.mounted_on);
	for (size_t i = 0; i < f.n_signatures; i++)
		printf("signature %s\n", f.signatures[i]);
	for (size_t i = 0; i < f.n_identities; i++)
		printf("identity %s\n", f.identities[i]);
	printf("partition table %s, named as a kit's layout %d, its mark %d\n",
	       f.ptuuid[0] ? f.ptuuid : "none", f.kit_names, f.kit_mark);
	p.wipe = strcmp(argv[2], "yes") == 0;
	p.identity = argv[3];
	p.own_ptuuid = NULL;
	if (safety_decide(&f, &p, reason, sizeof(reason)) < 0) {
		printf("refused: %s\n", reason);
		return 2;
	}
	printf("allowed\n");
	return 0;
}
