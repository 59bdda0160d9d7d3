#include "volreset.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "files.h"
#include "log.h"
#include "sha256.h"
#include "volrecord.h"
#include "written.h"

/* A sweep has one volume per backend and preallocation: a few. */
#define VOLUMES_MAX 32

struct volstate {
	char path[STORAGE_PATH_MAX];
	bool known;           /* written holds all the last run wrote */
	bool unwritten;       /* the last run opened the volume read-only */
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
	s->unwritten = false;
}

/* BUILDAPP_TRACK_WRITES=no: the baseline of scripts/bench-tracking.sh and
 * bench-sweep.sh, every run untracked and every reset full. */
static bool every_reset_full(void)
{
	const char *env = getenv("BUILDAPP_TRACK_WRITES");

	return env && strcmp(env, "no") == 0;
}

bool volreset_wants_tracking(const struct storage_volume *v)
{
	return !every_reset_full() && (v->block_device || v->fill);
}

/* The whole volume as it is on disk: the LV, or the image file with its
 * qcow2 metadata (both resets write through QEMU's qcow2 driver). */
static int volume_sha256(const struct storage_volume *v, char hex[SHA256_HEX_LEN])
{
	_cleanup_close_ int fd = open(v->path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return log_error_errno(-errno, "cannot open '%s'", v->path);
	r = sha256_fd_hex(fd, NULL, 0, hex);
	if (r < 0)
		return log_error_errno(r, "cannot read '%s'", v->path);
	return 0;
}

/* After a fast reset of V (or none): its hash, the full reset, its hash
 * again. */
static int check_reset(const struct storage_volume *v, const char *pristine,
		       const char *kind, struct journal_reset_check *c)
{
	const char *kind_upper = strcmp(kind, "none") == 0 ? "NONE" : "FAST";
	double secs;
	int r;

	r = volume_sha256(v, c->fast);
	if (r >= 0)
		r = storage_reset(v, pristine, &secs);
	if (r >= 0)
		r = volume_sha256(v, c->full);
	if (r < 0)
		return r;
	c->done = true;
	c->identical = strcmp(c->fast, c->full) == 0;
	if (!c->identical)
		log_warning("'%s': THE %s RESET DIFFERS FROM THE FULL ONE: sha256 "
			    "%s after it, %s after the full one (the volume is "
			    "now as the full reset leaves it)",
			    v->path, kind_upper, c->fast, c->full);
	else
		log_info("  reset checked: the %s reset of '%s' is the full one "
			 "(sha256 %.12s...)", kind, v->path, c->fast);
	return 0;
}

int volreset_run(const struct storage_volume *v, const char *pristine,
		 double *ret_seconds, const char **ret_kind,
		 struct journal_reset_check *check)
{
	struct volstate *s = state_of(v, false);
	int r;

	/* From here until a run that only read ends, V may be written: so
	 * the target's record says first (volrecord.h). */
	r = volrecord_mark(v, false);
	if (r < 0)
		return r;
	/* Read-only, the last run cannot have changed a byte. */
	if (s && s->known && s->unwritten) {
		forget(s);
		*ret_seconds = 0;
		*ret_kind = "none";
		return check ? check_reset(v, pristine, "none", check) : 0;
	}
	if (s && s->known && volreset_wants_tracking(v)) {
		double secs = 0;

		r = written_reset(v, pristine, &s->written, &secs);
		if (r >= 0) {
			*ret_seconds = secs + s->read_seconds;
			*ret_kind = "fast";
			forget(s);
			return check ? check_reset(v, pristine, "fast", check) : 0;
		}
		log_warning("'%s': the fast reset failed: a full one instead",
			    v->path);
	}
	/* Whatever happens next, the volume's state is no longer known. */
	forget(s);
	*ret_kind = "full";
	return storage_reset(v, pristine, ret_seconds);
}

int volreset_sync(const struct storage_volume *v)
{
	_cleanup_close_ int fd = open(v->path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *copy = NULL;
	int r;

	if (fd < 0 || fsync(fd) < 0)
		return log_error_errno(-errno, "cannot sync '%s' after its reset", v->path);
	if (v->block_device)
		return 0;
	copy = strdup(v->path);
	if (!copy)
		return -ENOMEM;
	if ((r = files_fsync_dir(dirname(copy))) < 0)
		return log_error_errno(r, "cannot sync the directory of '%s' after its reset",
				       v->path);
	return 0;
}

int volreset_check_last(const struct storage_volume *v, const char *pristine,
			struct journal_reset_check *check)
{
	struct volstate *s = state_of(v, false);
	const char *kind;
	double secs;
	int r;

	if (!s || !s->known || (!s->unwritten && !volreset_wants_tracking(v)))
		return 0;
	r = volreset_run(v, pristine, &secs, &kind, check);
	/* Checked, V is as the full reset leaves it. */
	if (r >= 0 && check->done)
		volreset_note_pristine(v);
	return r;
}

void volreset_note_written(const struct storage_volume *v, struct written *w,
			   double read_seconds)
{
	struct volstate *s = state_of(v, true);

	forget(s);
	if (!s && w)
		written_release(w);
	if (!s || !w)
		return;
	s->written = *w;
	s->read_seconds = read_seconds;
	s->known = true;
	*w = (struct written){NULL, 0, 0, 0};
}

void volreset_note(const struct storage_volume *v, struct vm_result *vr)
{
	bool known = vr && vr->written_known;

	volreset_note_written(v, known ? &vr->written : NULL,
			      known ? vr->written_seconds : 0);
	if (vr)
		vr->written_known = false;
}

void volreset_note_pristine(const struct storage_volume *v)
{
	struct volstate *s = state_of(v, true);

	forget(s);
	/* (Unless every reset is to be full.) */
	if (!s || every_reset_full())
		return;
	s->known = true;
	s->unwritten = true;
	if (volrecord_mark(v, true) < 0)
		log_warning("'%s' is recorded as written: the next sweep on it "
			    "resets it in full", v->path);
}
