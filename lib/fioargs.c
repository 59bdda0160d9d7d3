#include "fioargs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t fioargs_globals(const struct fioargs *a, char out[][FIOARGS_LEN])
{
	size_t n = 0;

	/* fio's default is direct=0: said either way, so a job file that
	 * is silent on it does what the profile says. */
	snprintf(out[n++], FIOARGS_LEN, "--direct=%d", a->direct ? 1 : 0);
	if (a->fsync)
		snprintf(out[n++], FIOARGS_LEN, "--fsync=%u", a->fsync);
	if (a->runtime) {
		snprintf(out[n++], FIOARGS_LEN, "--runtime=%u", a->runtime);
		snprintf(out[n++], FIOARGS_LEN, "--time_based=1");
	}
	if (a->ramp)
		snprintf(out[n++], FIOARGS_LEN, "--ramp_time=%u", a->ramp);
	if (a->ss[0]) {
		snprintf(out[n++], FIOARGS_LEN, "--steadystate=%s", a->ss);
		snprintf(out[n++], FIOARGS_LEN, "--ss_dur=%u", a->ss_dur);
		if (a->ss_ramp)
			snprintf(out[n++], FIOARGS_LEN, "--ss_ramp=%u", a->ss_ramp);
	}
	snprintf(out[n++], FIOARGS_LEN, "--lat_percentiles=1");
	return n;
}

bool fioargs_steadystate_ok(const char *spec, char *why, size_t why_len)
{
	static const char *const kinds[] = {"iops", "iops_slope", "bw", "bw_slope"};
	const char *colon = strchr(spec, ':');
	size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
	bool kind = false;
	char *end;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		kind |= strlen(kinds[i]) == klen && strncmp(spec, kinds[i], klen) == 0;
	if (!kind || !colon) {
		if (why)
			snprintf(why, why_len, "'%s': a steadystate spec is iops, iops_slope, "
					       "bw or bw_slope, ':' and a threshold "
					       "(iops_slope:0.1%%)", spec);
		return false;
	}
	const char *num = colon + 1;
	double v = strtod(num, &end);
	if (end == num || !isfinite(v) || v < 0 || (*end && strcmp(end, "%") != 0) ||
	    strchr(" \t+-", *num)) {
		if (why)
			snprintf(why, why_len, "'%s': the threshold after ':' is a number "
					       "not below 0, with '%%' for a share of the "
					       "mean (iops:5%%)", spec);
		return false;
	}
	return true;
}
