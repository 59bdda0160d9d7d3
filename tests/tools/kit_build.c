/* kit-build OUTDIR CACHEDIR [raw|qcow2]: builds the kit of a profile made
 * in C (no INI), the way `buildapp PROFILE.ini` does after loading it.
 * Used by the end-to-end test while the profile loader lives elsewhere. */
#include <stdio.h>
#include <string.h>

#include "kit.h"
#include "log.h"

int main(int argc, char **argv)
{
	struct profile p;

	if (argc < 3) {
		fprintf(stderr, "usage: kit-build OUTDIR CACHEDIR [raw|qcow2]\n");
		return 2;
	}
	memset(&p, 0, sizeof(p));
	snprintf(p.appliance.name, sizeof(p.appliance.name), "kit-test");
	p.appliance.format = argc > 3 && strcmp(argv[3], "qcow2") == 0
				     ? IMAGE_FORMAT_QCOW2
				     : IMAGE_FORMAT_RAW;
	snprintf(p.appliance.kernel, sizeof(p.appliance.kernel), "auto");
	snprintf(p.appliance.console, sizeof(p.appliance.console), "ttyS0");
	p.appliance.after = AFTER_POWEROFF;
	snprintf(p.host.disk, sizeof(p.host.disk), "KIT-TEST-DUT");
	p.host.write_cache = WRITE_CACHE_OFF;
	p.host.page_cache = PAGE_CACHE_DROP;
	p.host.dirty_ratio = 20;
	p.host.dirty_background_ratio = -1;
	p.host.scheduler = SCHEDULER_KEEP;
	p.host.read_ahead_kb = -1;
	p.host.strict = true;
	log_set_program("kit-build");
	return kit_build(&p, &(struct kit_options){.outdir = argv[1],
						   .format = -1,
						   .cache_dir = argv[2]}) < 0;
}
