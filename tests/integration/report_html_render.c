/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driver of tests/integration/report-html.sh: renders a report model
 * (report.json, docs/report.md) to report.html.
 * Usage: report-html-render MODEL.json OUT.html */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json.h>

#include "model.h"
#include "report_html.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s MODEL.json OUT.html\n", argv[0]);
		return 2;
	}
	json_object *model = json_object_from_file(argv[1]);
	if (!model) {
		fprintf(stderr, "%s: %s\n", argv[1], json_util_get_last_err());
		return 2;
	}
	struct model *m = NULL;
	int r = model_from_json(model, &m);
	json_object_put(model);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-r));
		return 1;
	}
	FILE *f = fopen(argv[2], "w");
	if (!f) {
		fprintf(stderr, "%s: %s\n", argv[2], strerror(errno));
		model_free(m);
		return 1;
	}
	r = report_html_write(m, f);
	if (fclose(f) != 0 && r == 0)
		r = -EIO;
	model_free(m);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-r));
		return 1;
	}
	return 0;
}
