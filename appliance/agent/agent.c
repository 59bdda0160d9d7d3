/* The guest agent's own services to its workloads: console lines, the
 * kernel command line's parameters, the tools it runs. */
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "guestproto.h"

#define MAX_PARAMS 64
#define RAW_MAX (4u << 20) /* fio's JSON is ~10 KB */

static struct {
	char *key, *value;
} params[MAX_PARAMS];
static int n_params;
static char cmdline[4096];
const char *agent_mnt = AGENT_MNT;
const char *agent_disk;

void agent_line(const char *kind, const char *fmt, ...)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), GUESTPROTO_TAG "%s", kind);
	if (fmt && *fmt && n < (int)sizeof(buf) - 2) {
		buf[n++] = ' ';
		va_list ap;
		va_start(ap, fmt);
		int m = vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
		va_end(ap);
		n = m < 0 ? n : n + m;
		if (n > (int)sizeof(buf) - 2)
			n = sizeof(buf) - 2;
	}
	buf[n++] = '\n';
	/* One write: the console driver does not split it. */
	ssize_t r = write(STDOUT_FILENO, buf, n);
	(void)r;
}

void agent_metric(const char *name, double value, const char *unit)
{
	agent_line(GUESTPROTO_METRIC, "name=%s value=%.6f unit=%s", name, value,
		   unit);
}

int agent_error(const char *fmt, ...)
{
	char buf[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	agent_line(GUESTPROTO_ERROR, "%s", buf);
	return -1;
}


const char *agent_param(const char *key)
{
	for (int i = 0; i < n_params; i++)
		if (strcmp(params[i].key, key) == 0)
			return params[i].value;
	return NULL;
}

int agent_param_u64(const char *key, uint64_t def, uint64_t *ret)
{
	const char *v = agent_param(key);
	if (!v) {
		*ret = def;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || end == v || *end || *v == '-')
		return agent_error("bad number for " GUESTPROTO_PARAM_PREFIX
				   "%s: '%s'",
				   key, v);
	*ret = x;
	return 0;
}

int agent_add_param(char *w)
{
	const size_t plen = strlen(GUESTPROTO_PARAM_PREFIX);

	if (strncmp(w, GUESTPROTO_PARAM_PREFIX, plen) != 0)
		return 0;
	char *eq = strchr(w, '=');
	if (!eq)
		return 0;
	if (n_params == MAX_PARAMS)
		return agent_error("too many " GUESTPROTO_PARAM_PREFIX
				   "parameters");
	*eq = '\0';
	params[n_params].key = w + plen;
	params[n_params].value = eq + 1;
	n_params++;
	return 0;
}

int agent_read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return agent_error("cannot open /proc/cmdline: %s",
				   strerror(errno));
	ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n < 0)
		return agent_error("cannot read /proc/cmdline: %s",
				   strerror(errno));
	cmdline[n] = '\0';
	char *save = NULL;
	for (char *w = strtok_r(cmdline, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save)) {
		if (agent_add_param(w) < 0)
			return -1;
	}
	return 0;
}

static char *const child_env[] = {
	"PATH=/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/",
	"LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu",
	NULL,
};

static void print_frame(const char *frame, char *out, size_t len)
{
	unsigned lines = 0;
	for (size_t i = 0; i < len; i++)
		if (out[i] == '\n' || i == len - 1)
			lines++;
	agent_line(GUESTPROTO_RAW_BEGIN, "%s lines=%u", frame, lines);
	static const char tag[] = GUESTPROTO_TAG GUESTPROTO_RAW " ";
	char *p = out, *end = out + len;
	while (p < end) {
		char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* Whole line in one write, however long (agent_line's
		 * buffer would cut it). */
		char *line = malloc(sizeof(tag) + n + 1);
		if (line) {
			memcpy(line, tag, sizeof(tag) - 1);
			memcpy(line + sizeof(tag) - 1, p, n);
			line[sizeof(tag) - 1 + n] = '\n';
			ssize_t w = write(STDOUT_FILENO, line, sizeof(tag) + n);
			(void)w;
			free(line);
		}
		p += n + 1;
	}
	agent_line(GUESTPROTO_RAW_END, "%s", frame);
}

int agent_run(const char *const *argv, const char *frame)
{
	return agent_run_env(argv, frame, NULL);
}

int agent_run_env(const char *const *argv, const char *frame, char *const *env_extra)
{
	/* The child's whole environment: ours is the kernel's (or, on the
	 * host, the runner's), which the tools must not see. */
	char *env[sizeof(child_env) / sizeof(child_env[0]) + 16];
	size_t n = 0;
	for (char *const *e = child_env; *e; e++)
		env[n++] = *e;
	for (char *const *e = env_extra; e && *e && n < sizeof(env) / sizeof(env[0]) - 1; e++)
		env[n++] = *e;
	env[n] = NULL;
	struct command_opts o = {
		.env = env,
		.out = frame ? COMMAND_OUT_CAPTURE : COMMAND_OUT_INHERIT,
		.max = RAW_MAX,
	};
	struct command_result res = {0};
	int r = command_spawn((char *const *)argv, &o, &res);

	if (r < 0 && r != -EINTR) {
		free(res.out);
		return agent_error("cannot run %s: %s", argv[0], strerror(-r));
	}
	if (frame && res.out)
		print_frame(frame, res.out, res.len);
	free(res.out);
	if (frame && (!res.out || res.cut))
		return agent_error("%s: output %s", argv[0],
				   res.out ? "too long, cut" : "lost: out of memory");
	if (r == -EINTR)
		return agent_error("%s killed by signal %d", argv[0], res.signal);
	return r;
}
