#include "atomicfile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "files.h"
#include "log.h"

int atomicfile_write_tmp(const char *tmp, atomicfile_writer *write, const void *ctx)
{
	FILE *f = fopen(tmp, "we");
	if (!f)
		return -errno;
	int r = write(ctx, f);
	if (r == 0 && (fflush(f) != 0 || fsync(fileno(f)) < 0))
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

int atomicfile_write(const char *dir, const char *name, atomicfile_writer *write,
		     const void *ctx)
{
	_cleanup_free_ char *path = NULL, *tmp = NULL;
	if (asprintf(&path, "%s/%s", dir, name) < 0 ||
	    asprintf(&tmp, "%s/.%s.tmp", dir, name) < 0)
		return -ENOMEM;
	int r = atomicfile_write_tmp(tmp, write, ctx);
	if (r == 0 && rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
	}
	if (r < 0)
		return log_error_errno(r, "cannot write '%s'", path);
	/* The rename is durable only with its directory: until then a crash
	 * may bring back the file as it was (a volume's record reading
	 * pristine after its reset began, a crash file not there). */
	r = files_fsync_dir(dir);
	if (r < 0)
		return log_error_errno(r, "cannot sync '%s' after writing '%s'", dir, name);
	return 0;
}
