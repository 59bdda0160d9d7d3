#include "storage_spec.h"

#include <string.h>

void storage_spec_from_profile(const struct profile *profile,
			       struct storage_spec *ret)
{
	const struct profile_storage *s = &profile->storage;

	/* Both are (1 << enum value) sets over the same enums. */
	_Static_assert(AXIS_BIT(BACKEND_RAW) == STORAGE_BIT(BACKEND_RAW),
		       "axis and storage bit sets differ");
	memset(ret, 0, sizeof(*ret));
	ret->backends = s->backends;
	ret->size = s->size;
	ret->qcow2_prealloc = s->qcow2_prealloc;
	ret->raw_prealloc = s->raw_prealloc;
	ret->cluster_size = s->cluster_size;
	ret->fill = s->fill;
}
