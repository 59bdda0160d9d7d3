#include "extents.h"

#include <errno.h>
#include <unistd.h>

int extents_for_each(int fd, off_t size,
		     int (*fn)(off_t start, off_t end, void *opaque),
		     void *opaque)
{
	for (off_t pos = 0; pos < size;) {
		off_t data = lseek(fd, pos, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			return 0; /* a hole to the end */
		if (data < 0 && errno != EINVAL)
			return -errno;
		if (data < 0)
			return fn(pos, size, opaque); /* no hole support */
		off_t hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return -errno;
		if (hole > size)
			hole = size;
		int r = fn(data, hole, opaque);
		if (r < 0)
			return r;
		pos = hole;
	}
	return 0;
}
