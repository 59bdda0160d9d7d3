/* replaced by the report_html/hostinfo/reference work at merge */
#include "hostinfo.h"

#include <stddef.h>

int hostinfo_read(const char *dir, struct json_object **ret)
{
	(void)dir;
	*ret = NULL;
	return 0;
}
