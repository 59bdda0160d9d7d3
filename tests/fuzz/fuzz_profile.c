/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the profile loader must never crash, leak or hang,
 * whatever the bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loader.h"
#include "log.h"
#include "planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null_stream;
	struct profile profile;
	struct plan plan;

	if (!null_stream) {
		null_stream = fopen("/dev/null", "w");
		log_set_stream(null_stream);
	}
	if (loader_load_buffer("fuzz.ini", (const char *)data, size, &profile) == 0 &&
	    planner_build(&profile, &plan) == 0)
		plan_release(&plan);
	return 0;
}
