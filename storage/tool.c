/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tool.h"

#include "command.h"

int tool_run(char *const argv[], const char *stdin_path, char **ret_out)
{
	/* Their stdout is not for the user: the callers say what was made. */
	struct command_opts o = {.stdin_path = stdin_path, .out = COMMAND_OUT_DISCARD};

	return command_check(argv, &o, ret_out);
}
