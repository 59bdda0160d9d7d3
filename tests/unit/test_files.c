/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/files (copy, tree copy and removal) and lib/sha256 (hex, one
 * buffer, incremental). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "files.h"
#include "sha256.h"

static char dir[] = "/tmp/test-files.XXXXXX";

static void put(const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void same_text(const char *name, const char *text)
{
	char path[PATH_MAX], buf[256] = "";
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, text);
}

static mode_t mode_of(const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode;
}

static void copy_file(void **state)
{
	(void)state;
	char from[PATH_MAX], to[PATH_MAX];
	put("a", "hello\n", 0600);
	put("b", "old and longer\n", 0644);
	snprintf(from, sizeof(from), "%s/a", dir);
	snprintf(to, sizeof(to), "%s/b", dir);
	/* Truncated, not overwritten in place. */
	assert_int_equal(files_copy(from, to, 0644, 0), 0);
	same_text("b", "hello\n");
	snprintf(to, sizeof(to), "%s/c", dir);
	assert_int_equal(files_copy(from, to, 0640, 0), 0);
	assert_int_equal(mode_of("c") & 07777, 0640);
	snprintf(to, sizeof(to), "%s/d", dir);
	assert_int_equal(files_copy(from, to, 0644, 1), 0);
	assert_int_equal(mode_of("d") & 07777, 0600); /* a hard link */
	snprintf(from, sizeof(from), "%s/missing", dir);
	assert_int_equal(files_copy(from, to, 0644, 0), -ENOENT);
}

static void copy_and_remove_tree(void **state)
{
	(void)state;
	char from[PATH_MAX], to[PATH_MAX], path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/t", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/t/sub", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	put("t/sub/f", "x", 0755);
	snprintf(path, sizeof(path), "%s/t/link", dir);
	assert_int_equal(symlink("sub/f", path), 0);
	snprintf(from, sizeof(from), "%s/t", dir);
	snprintf(to, sizeof(to), "%s/u", dir);
	assert_int_equal(files_copy_tree(from, to), 0);
	same_text("u/sub/f", "x");
	assert_int_equal(mode_of("u/sub/f") & 07777, 0755);
	assert_int_equal(mode_of("u/sub") & 07777, 0700);
	assert_true(S_ISLNK(mode_of("u/link")));
	same_text("u/link", "x");

	assert_int_equal(files_remove_tree(to), 0);
	assert_int_equal(access(to, F_OK), -1);
	assert_int_equal(files_remove_tree(to), 0); /* already gone */
	/* A symlink is removed, not followed. */
	snprintf(path, sizeof(path), "%s/tl", dir);
	assert_int_equal(symlink(from, path), 0);
	assert_int_equal(files_remove_tree(path), 0);
	same_text("t/sub/f", "x");
}

static void hex(void **state)
{
	(void)state;
	char h[SHA256_HEX_LEN];
	/* FIPS 180-2's "abc". */
	assert_int_equal(sha256_fd_hex(-1, "abc", 3, h), 0);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223"
			       "b00361a396177a9cb410ff61f20015ad");
	/* The data, then what the file holds from its offset. */
	put("abc", "bc", 0644);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/abc", dir);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(sha256_fd_hex(fd, "a", 1, h), 0);
	close(fd);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223"
			       "b00361a396177a9cb410ff61f20015ad");
}

/* FIPS 180-2's two-block message, whole and in pieces. */
static void digest(void **state)
{
	(void)state;
	static const char msg[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char want[] = "248d6a61d20638b8e5c026930c3e6039"
				   "a33ce45964ff2167f6ecedd419db06c1";
	unsigned char md[SHA256_LEN];
	char h[SHA256_HEX_LEN];

	assert_int_equal(sha256_digest(msg, strlen(msg), md), 0);
	sha256_hex(md, h);
	assert_string_equal(h, want);

	struct sha256 *s = sha256_new();
	assert_non_null(s);
	for (size_t i = 0; i < strlen(msg); i += 5)
		sha256_update(s, msg + i, strlen(msg) - i < 5 ? strlen(msg) - i : 5);
	sha256_update(s, "", 0);
	assert_int_equal(sha256_final(s, md), 0);
	sha256_free(s);
	sha256_hex(md, h);
	assert_string_equal(h, want);
	sha256_free(NULL);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return files_remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_file),
		cmocka_unit_test(copy_and_remove_tree),
		cmocka_unit_test(hex),
		cmocka_unit_test(digest),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
