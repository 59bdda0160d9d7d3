/* The protocol between the runner (host) and the guest agent (PID 1 of
 * the benchmark guest): kernel command line in, console lines out.
 * docs/guest-protocol.md is the reference; this header holds the
 * spellings both sides share.  It is included by the statically linked
 * agent too, so it declares nothing that needs the project's libraries. */
#ifndef BUILDAPP_GUESTPROTO_H
#define BUILDAPP_GUESTPROTO_H

/* Kernel command line: "buildapp.workload=fio buildapp.fio_bs=4096 ..." */
#define GUESTPROTO_PARAM_PREFIX "buildapp."

/* Console lines.  Every line the agent prints starts with this tag;
 * anything else on the console (kernel messages) is ignored. */
#define GUESTPROTO_TAG "BUILDAPP:"
#define GUESTPROTO_BEGIN "BEGIN"         /* BEGIN workload=K kernel=R */
#define GUESTPROTO_INFO "INFO"           /* INFO key=value */
#define GUESTPROTO_METRIC "METRIC"       /* METRIC name=N value=V unit=U */
#define GUESTPROTO_RAW_BEGIN "RAW-BEGIN" /* RAW-BEGIN TOOL lines=N */
#define GUESTPROTO_RAW "RAW"             /* RAW <one line of tool output> */
#define GUESTPROTO_RAW_END "RAW-END"     /* RAW-END TOOL */
#define GUESTPROTO_ERROR "ERROR"         /* ERROR free text */
#define GUESTPROTO_END "END"             /* END status=N */
/* The durability workload: where its records are on the disk, then one
 * line per record made durable (docs/guest-protocol.md). */
#define GUESTPROTO_RECORDS "RECORDS" /* RECORDS size=S count=N extents=L:P:B,... */
#define GUESTPROTO_ACK "ACK"         /* ACK seq=N */

/* Layout of the guest image (the pristine content of the disk under
 * test, an ext4 filesystem on the whole disk). */
#define GUESTPROTO_FS_LABEL "buildapp-data"
#define GUESTPROTO_TARBALL "workload.tar" /* in /data; gzip/xz/bzip2 or plain */
#define GUESTPROTO_DATA_DIR "data"
#define GUESTPROTO_TREE_DIR "tree"   /* the tarball, extracted: tarball-read */
#define GUESTPROTO_WORK_DIR "work"   /* created by the workloads */

/* In the initramfs: kernel modules to load, one path per line, in order. */
#define GUESTPROTO_MODULE_LIST "/etc/buildapp/modules"

/* fio, in the guest kit and on the host alike: the build host's own,
 * copied into the kit, so a job file is checked with the fio that runs it. */
#define GUESTPROTO_FIO "/usr/bin/fio"
/* In the initramfs: the profile's fio job file ([workload] fio_job), which
 * buildapp.fio_job= names; on the host, the runner names its own copy. */
#define GUESTPROTO_JOB_FILE "/etc/buildapp/job.fio"
/* The environment variables a job file is given (docs/guest-protocol.md):
 * its target, and the fio knobs of the cell. */
#define GUESTPROTO_JOB_VARS(X)                                                 \
	X(TARGET, "filename=: a file in the work directory, or the disk")     \
	X(DIR, "directory=: the work directory (fio_target = file)")          \
	X(BS, "block size in bytes")                                           \
	X(IODEPTH, "queue depth")                                              \
	X(NUMJOBS, "clones of each job")                                       \
	X(IOENGINE, "psync, libaio or io_uring")                               \
	X(RW, "read, write, randread, randwrite, rw or randrw")                \
	X(RWMIXREAD, "percent of reads in rw and randrw")                      \
	X(SIZE, "bytes per job")                                               \
	X(RUNTIME, "seconds, time_based; 0: until SIZE is done")              \
	X(DIRECT, "1: O_DIRECT (fio_direct), 0: buffered")                    \
	X(FSYNC, "fsync every N writes; 0: none")                              \
	X(RAMP, "ramp_time: seconds run before fio measures")
#define GUESTPROTO_JOB_VAR_PREFIX "BUILDAPP_"
/* A job's name names its metrics (fio_NAME_read_iops): 1 to 32 letters,
 * digits, '_' and '-'.  The profile's check refuses other names and the
 * host's parser takes no other. */
#define GUESTPROTO_JOB_NAME_MAX 32
static inline int guestproto_job_name_ok(const char *s)
{
	const char *c = s;

	for (; *c && c - s < GUESTPROTO_JOB_NAME_MAX + 1; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			return 0;
	return c > s && !*c && c - s <= GUESTPROTO_JOB_NAME_MAX;
}

/* The kit's last file: without it the kernel failed to unpack the whole
 * initramfs (typically: guest memory too small). */
#define GUESTPROTO_KIT_COMPLETE "/etc/buildapp/complete"

#endif
