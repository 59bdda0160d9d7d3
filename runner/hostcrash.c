#include "hostcrash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "guestproto.h"
#include "log.h"
#include "parse.h"

#define RECORDS_PREFIX GUESTPROTO_TAG GUESTPROTO_RECORDS " "

void hostcrash_path(const char *results_dir, unsigned position, char *buf, size_t len)
{
	snprintf(buf, len, "%s/console/run-%04u.crash", results_dir, position);
}

static int write_file(const void *ctx, FILE *f)
{
	const struct hostcrash *c = ctx;

	fprintf(f, "%s\ncell=%s\nindex=%u\nposition=%u\nacks=%" PRIu64
		   "\nack_seconds=%.9g\nreset=%s\nrun_seconds=%.3f\ncrashed_at=%" PRId64 "\n",
		c->records, c->cell, c->index, c->position, c->acks, c->ack_seconds,
		c->reset, c->run_seconds, c->crashed_at);
	return ferror(f) ? -EIO : 0;
}

int hostcrash_write(const char *results_dir, const struct hostcrash *c)
{
	char path[PATH_MAX], dir[PATH_MAX];
	int r;

	hostcrash_path(results_dir, c->position, path, sizeof(path));
	snprintf(dir, sizeof(dir), "%s/console", results_dir);
	r = atomicfile_write(dir, strrchr(path, '/') + 1, write_file, c);
	if (r < 0)
		return r;
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0) {
		r = log_error_errno(-errno, "cannot sync '%s'", dir);
		unlink(path);
		return r;
	}
	return 0;
}

int hostcrash_reboot(const char *results_dir, const struct hostcrash *c)
{
	char path[PATH_MAX];
	int r = hostcrash_write(results_dir, c);

	if (r < 0)
		return r;
	hostcrash_path(results_dir, c->position, path, sizeof(path));
	log_info("  crash = host: rebooting after %" PRIu64 " acknowledgements, "
		 "without a sync", c->acks);
	_cleanup_close_ int trigger = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (trigger >= 0)
		(void)!write(trigger, "b", 1);
	reboot(RB_AUTOBOOT);
	r = -errno;
	/* Still up: the run is failed now, not finished after a boot. */
	unlink(path);
	return log_error_errno(r, "cannot reboot this host");
}

void hostcrash_release(struct hostcrash *c)
{
	free(c->records);
	memset(c, 0, sizeof(*c));
}

/* VALUE of "KEY=VALUE" in LINE, or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);
	return strncmp(line, key, n) == 0 && line[n] == '=' ? line + n + 1 : NULL;
}

static int parse_line(char *line, struct hostcrash *c, unsigned *seen)
{
	const char *v;
	uint64_t u;

	if (strncmp(line, RECORDS_PREFIX, strlen(RECORDS_PREFIX)) == 0) {
		free(c->records);
		c->records = strdup(line);
		*seen |= 1;
		return c->records ? 0 : -ENOMEM;
	}
	if ((v = value_of(line, "cell"))) {
		if (!*v || strlen(v) >= sizeof(c->cell))
			return -EBADMSG;
		snprintf(c->cell, sizeof(c->cell), "%s", v);
		*seen |= 2;
	} else if ((v = value_of(line, "index"))) {
		if (parse_uint64(v, &u) < 0 || u > UINT_MAX)
			return -EBADMSG;
		c->index = (unsigned)u;
		*seen |= 4;
	} else if ((v = value_of(line, "position"))) {
		if (parse_uint64(v, &u) < 0 || u > UINT_MAX)
			return -EBADMSG;
		c->position = (unsigned)u;
		*seen |= 8;
	} else if ((v = value_of(line, "acks"))) {
		if (parse_uint64(v, &c->acks) < 0)
			return -EBADMSG;
		*seen |= 16;
	} else if ((v = value_of(line, "ack_seconds"))) {
		char *end;
		c->ack_seconds = strtod(v, &end);
		if (end == v || *end)
			return -EBADMSG;
		*seen |= 32;
	} else if ((v = value_of(line, "reset"))) {
		if (strlen(v) >= sizeof(c->reset))
			return -EBADMSG;
		snprintf(c->reset, sizeof(c->reset), "%s", v);
		*seen |= 64;
	} else if ((v = value_of(line, "run_seconds"))) {
		c->run_seconds = strtod(v, NULL);
	} else if ((v = value_of(line, "crashed_at"))) {
		c->crashed_at = strtoll(v, NULL, 10);
	}
	/* Other lines: what a later version adds. */
	return 0;
}

int hostcrash_read(const char *path, struct hostcrash *ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[8192];
	unsigned seen = 0;
	int r = 0;

	memset(ret, 0, sizeof(*ret));
	ret->ack_seconds = NAN;
	ret->run_seconds = NAN;
	if (!f)
		return -errno;
	while (r >= 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		r = parse_line(line, ret, &seen);
	}
	if (r >= 0 && seen != 127)
		r = -EBADMSG;
	if (r < 0) {
		hostcrash_release(ret);
		if (r == -EBADMSG)
			log_error("'%s': not a crash file (a RECORDS line, then cell, "
				  "index, position, acks, ack_seconds and reset)", path);
		return r;
	}
	return 0;
}

static int is_crash_file(const struct dirent *e)
{
	unsigned position;
	int end = 0;
	/* %n counts only when the literal ".crash" matched to its end. */
	return sscanf(e->d_name, "run-%u.crash%n", &position, &end) == 1 && end > 0 &&
	       e->d_name[end] == '\0';
}

int hostcrash_list(const char *results_dir, char ***ret, size_t *ret_n)
{
	char dir[PATH_MAX];
	struct dirent **names = NULL;
	int n, r = 0;

	*ret = NULL;
	*ret_n = 0;
	snprintf(dir, sizeof(dir), "%s/console", results_dir);
	/* Zero-padded positions: alphabetical is position order. */
	n = scandir(dir, &names, is_crash_file, alphasort);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	char **paths = calloc((size_t)n + 1, sizeof(*paths));
	for (int i = 0; i < n; i++) {
		if (paths && r >= 0 &&
		    asprintf(&paths[i], "%s/%s", dir, names[i]->d_name) < 0) {
			paths[i] = NULL;
			r = -ENOMEM;
		}
		free(names[i]);
	}
	free(names);
	if (!paths || r < 0) {
		for (int i = 0; paths && i < n; i++)
			free(paths[i]);
		free(paths);
		return -ENOMEM;
	}
	*ret = paths;
	*ret_n = (size_t)n;
	return 0;
}
