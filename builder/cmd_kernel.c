/* buildapp kernel [SETTING]: the kernel a build takes, for scripts. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tools.h"

int cmd_kernel(int argc, char **argv)
{
	char path[PATH_MAX], version[256];

	bool help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		FILE *f = help ? stdout : stderr;
		fprintf(f, "Usage: buildapp kernel [auto|PATH]\n\n"
			   "Prints the kernel image and its version (\"PATH VERSION\")\n"
			   "that [appliance] kernel = SETTING (default auto) takes: with\n"
			   "auto, the newest /boot/vmlinuz-VERSION that has\n"
			   "/lib/modules/VERSION.\n\n"
			   "  -h, --help   this text\n");
		commands_help_exit(f, "no kernel (none in /boot with its modules, or PATH "
				      "unreadable)", "a PATH not named vmlinuz-VERSION", false);
		return help ? 0 : EXIT_BAD_INPUT;
	}
	int r = tools_find_kernel(argc == 2 ? argv[1] : NULL, path, sizeof(path),
				  version, sizeof(version));
	if (r < 0)
		return r == -EINVAL ? EXIT_BAD_INPUT : 1;
	printf("%s %s\n", path, version);
	return 0;
}
