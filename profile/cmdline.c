#include "cmdline.h"

#include <stdio.h>
#include <string.h>

#include "uploadurl.h"

#define UPLOAD_WORD CMDLINE_PREFIX "upload="

const char *cmdline_shown(const char *line, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *w = line; *w && used < len;) {
		size_t sp = strspn(w, " \t\n"), k;
		char word[UPLOADURL_MAX + sizeof UPLOAD_WORD], shown[UPLOADURL_MAX];

		used += (size_t)snprintf(buf + used, len - used, "%.*s", (int)sp, w);
		w += sp;
		k = strcspn(w, " \t\n");
		if (k && used < len && strncmp(w, UPLOAD_WORD, strlen(UPLOAD_WORD)) == 0) {
			/* A URL too long to take is not shown at all: it
			 * may hold a password. */
			snprintf(word, sizeof word, "%.*s", (int)(k - strlen(UPLOAD_WORD)),
				 w + strlen(UPLOAD_WORD));
			used += (size_t)snprintf(buf + used, len - used, UPLOAD_WORD "%s",
						 k < sizeof word
							 ? uploadurl_redact(word, shown, sizeof shown)
							 : "(too long)");
		} else if (k && used < len) {
			used += (size_t)snprintf(buf + used, len - used, "%.*s", (int)k, w);
		}
		w += k;
	}
	return buf;
}

bool cmdline_has_word(const char *line, const char *word)
{
	size_t n = strlen(word);

	for (const char *w = line; *w;) {
		w += strspn(w, " \t\n");
		size_t k = strcspn(w, " \t\n");
		if (k == n && strncmp(w, word, n) == 0)
			return true;
		w += k;
	}
	return false;
}
