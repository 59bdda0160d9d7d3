/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driver of the WebDAV upload test (tests/integration/upload-webdav.sh):
 * upload-helper DIR URL NAME [ATTEMPTS [BYTES_PER_SECOND]] uploads the
 * bundle DIR as the appliance does and prints where it went, or the
 * error; exit status 0 or 1.  UPLOAD_CA, when set, is the PEM file of
 * the CAs an https:// upload trusts (the kit's upload-ca.pem). */
#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "upload.h"

int main(int argc, char **argv)
{
	struct upload_result res;

	if (argc < 4) {
		fprintf(stderr, "usage: upload-helper DIR URL NAME [ATTEMPTS [BYTES_PER_SECOND]]\n");
		return 2;
	}
	log_set_program("upload-helper");
	struct upload_options o = {
		.dir = argv[1], .url = argv[2], .name = argv[3],
		.attempts = argc > 4 ? (unsigned)atoi(argv[4]) : 3,
		.retry_seconds = 1, .timeout_seconds = 10,
		.max_bytes_per_second = argc > 5 ? strtoull(argv[5], NULL, 10) : 0,
		.ca_file = getenv("UPLOAD_CA"),
	};
	if (upload_bundle(&o, &res) < 0) {
		printf("failed: %s\n", res.error);
		return 1;
	}
	printf("sent to %s: %zu files, %llu bytes\n", res.where, res.files, res.bytes);
	return 0;
}
