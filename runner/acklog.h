/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The acknowledgements of a durability run (docs/guest-protocol.md): the
 * guest's console log, read as it grows, and each ACK line's sequence
 * number appended to an acknowledgements file and made durable
 * (fdatasync) before it is counted, so what the host acts on (the crash
 * point, the check after it) is what it had on disk. */
#ifndef BUILDAPP_ACKLOG_H
#define BUILDAPP_ACKLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define ACKLOG_LINE_MAX 256

struct acklog {
	const char *console; /* borrowed */
	int fd;              /* the acknowledgements file */
	off_t seen;          /* console bytes read */
	char part[ACKLOG_LINE_MAX]; /* the console's unfinished last line */
	size_t part_len;
	bool part_overflow;  /* that line is longer: not an ACK line */
	uint64_t acks;       /* acknowledgements made durable */
	bool out_of_order;   /* an ACK that was not the next sequence number */
	double first_at, last_at; /* monotonic seconds of the first, last */
};

/* Starts reading CONSOLE (which need not exist yet) into a new
 * acknowledgements file at PATH.  Returns 0 or a negative errno. */
int acklog_open(struct acklog *a, const char *console, const char *path);
/* Reads what the console gained; appends and syncs its acknowledgements.
 * Returns 0, or a negative errno when the file cannot be written. */
int acklog_poll(struct acklog *a);
/* Closes the file.  Accepts a zeroed or closed A. */
void acklog_close(struct acklog *a);

/* The acknowledgements in the file at PATH: sequence numbers 0..N-1, one
 * per line, in order; *RET_N is N.  Returns 0, -EBADMSG for a file that
 * holds anything else, or a negative errno. */
int acklog_read(const char *path, uint64_t *ret_n);

#endif
