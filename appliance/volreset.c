#include "volreset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "written.h"

/* A sweep has one volume per backend and preallocation: a few. */
#define VOLUMES_MAX 32

struct volstate {
	char path[STORAGE_PATH_MAX];
	bool known;           /* written holds all the last run wrote */
	struct written written;
	double read_seconds;  /* reading it back, after that run */
};

static struct volstate states[VOLUMES_MAX];

static struct volstate *state_of(const struct storage_volume *v, bool add)
{
	for (size_t i = 0; i < VOLUMES_MAX; i++) {
		if (strcmp(states[i].path, v->path) == 0)
			return &states[i];
		if (!states[i].path[0] && add) {
			snprintf(states[i].path, sizeof states[i].path, "%s", v->path);
			return &states[i];
		}
	}
	return NULL;
}

static void forget(struct volstate *s)
{
	if (!s)
		return;
	written_release(&s->written);
	s->known = false;
}

bool volreset_wants_tracking(const struct storage_volume *v)
{
	const char *env = getenv("BUILDAPP_TRACK_WRITES");

	/* "no": the comparison of scripts/bench-tracking.sh, every run
	 * untracked and every reset full. */
	if (env && strcmp(env, "no") == 0)
		return false;
	return v->block_device || v->fill;
}

int volreset_run(const struct storage_volume *v, const char *pristine,
		 double *ret_seconds, const char **ret_kind)
{
	struct volstate *s = state_of(v, false);
	int r;

	if (s && s->known && volreset_wants_tracking(v)) {
		double secs = 0;

		r = written_reset(v, pristine, &s->written, &secs);
		if (r >= 0) {
			*ret_seconds = secs + s->read_seconds;
			*ret_kind = "fast";
			forget(s);
			return 0;
		}
		log_warning("'%s': the fast reset failed: a full one instead",
			    v->path);
	}
	/* Whatever happens next, the volume's state is no longer known. */
	forget(s);
	*ret_kind = "full";
	return storage_reset(v, pristine, ret_seconds);
}

void volreset_note(const struct storage_volume *v, struct vm_result *vr)
{
	struct volstate *s = state_of(v, true);

	forget(s);
	if (!s || !vr || !vr->written_known)
		return;
	s->written = vr->written;
	s->read_seconds = vr->written_seconds;
	s->known = true;
	vr->written = (struct written){NULL, 0, 0, 0};
	vr->written_known = false;
}
