#include "commands.h"
#include "log.h"

int cmd_plan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("plan: not implemented yet");
	return 1;
}
