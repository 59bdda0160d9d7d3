/* libFuzzer target: the guest console parser reads what a guest printed,
 * kernel noise and all; whatever the bytes, for every workload, it must
 * not crash, overrun or hang, and its strings stay terminated. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of just SIZE bytes, so reading past them is caught. */
	char *text = malloc(size ? size : 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	for (int kind = 0; kind < _WORKLOAD_MAX; kind++) {
		struct results r;
		results_parse(text, size, (enum workload_kind)kind, &r);
		if (r.n_metrics > RESULTS_MAX_METRICS || r.n_notes > RESULTS_NOTES_MAX ||
		    r.n_steady > RESULTS_STEADY_MAX ||
		    !memchr(r.error, '\0', sizeof(r.error)) ||
		    !memchr(r.kernel, '\0', sizeof(r.kernel)))
			abort();
		for (size_t i = 0; i < r.n_notes; i++)
			if (!memchr(r.notes[i], '\0', sizeof(r.notes[i])) || !r.notes[i][0])
				abort();
	}
	free(text);
	return 0;
}
