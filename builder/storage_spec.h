/* The profile's [storage] section as the storage module's spec. */
#ifndef BUILDAPP_STORAGE_SPEC_H
#define BUILDAPP_STORAGE_SPEC_H

#include "profile.h"
#include "storage.h"

/* Fills *ret from PROFILE's storage section (axis bits map one to one). */
void storage_spec_from_profile(const struct profile *profile,
			       struct storage_spec *ret);

#endif
