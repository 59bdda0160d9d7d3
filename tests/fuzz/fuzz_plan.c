/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the appliance's plan reader gets a kit's plan.json
 * from whoever made the kit; whatever the bytes, it must refuse or
 * accept them without crashing, leaking or hanging, and what it accepts
 * must hold together (every run names a cell). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null_stream;
	struct plan plan;

	if (!null_stream) {
		null_stream = fopen("/dev/null", "w");
		log_set_stream(null_stream);
	}
	if (plan_parse_json("fuzz.json", (const char *)data, size, &plan) < 0)
		return 0;
	for (size_t i = 0; i < plan.n_runs; i++)
		if (plan.runs[i].cell >= plan.n_cells)
			abort();
	plan_release(&plan);
	return 0;
}
