/* What every command's --help ends with: its exit statuses. */
#include "commands.h"

#include <stdio.h>
#include <string.h>

/* TEXT, words separated by single blanks, wrapped at 70 columns. */
static void wrapped(FILE *f, const char *text)
{
	size_t col = 0;

	for (const char *w = text; *w;) {
		size_t n = strcspn(w, " ");
		if (col && col + 1 + n > 70) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, n, f);
		col += n;
		w += n;
		w += strspn(w, " ");
	}
	fputc('\n', f);
}

void commands_help_exit(FILE *f, const char *one, const char *bad, bool worse)
{
	char text[1024], three[128] = "";

	if (worse)
		snprintf(three, sizeof(three), ", %d a cell significantly worse than the "
			 "--baseline's (the report is written)", EXIT_WORSE);
	snprintf(text, sizeof(text),
		 "Exit status: 0 success, 1 %s, %d bad usage or bad input%s%s%s%s.",
		 one ? one : "failure", EXIT_BAD_INPUT, bad ? " (" : "", bad ? bad : "",
		 bad ? ")" : "", three);
	fputc('\n', f);
	wrapped(f, text);
}
