/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An empty ICU data library, put in the host root in place of
 * libicudata's 30 MiB of converter tables, collation rules and locale
 * data (builder/icustub.c).  It is ICU's own bootstrap "stubdata": the
 * common-data header with a table of contents of no entries, under the
 * entry point libicuuc links (icudtNN_dat, from the installed ICU's
 * headers).  Loaded with it, ICU runs its built-in code (character
 * properties, UTF-8/16) and answers what needs data, such as a converter
 * for a legacy encoding, with U_FILE_ACCESS_ERROR.  Data only: built with
 * -nostdlib, it links nothing. */
#include <unicode/udata.h>
#include <unicode/utypes.h>

/* The layout ICU's udata.cpp reads at the entry point (MappedData, then
 * the pointer table of contents). */
struct icu_common_data {
	uint16_t header_size;
	uint8_t magic1, magic2;
	UDataInfo info;
	char padding[8];
	uint32_t count, reserved;
	uint32_t toc[4];
};

__attribute__((visibility("default"), aligned(16)))
const struct icu_common_data U_ICUDATA_ENTRY_POINT = {
	.header_size = 32,
	.magic1 = 0xda,
	.magic2 = 0x27,
	.info = {
		.size = sizeof(UDataInfo),
		.isBigEndian = U_IS_BIG_ENDIAN,
		.charsetFamily = U_CHARSET_FAMILY,
		.sizeofUChar = sizeof(UChar),
		.dataFormat = {0x54, 0x6f, 0x43, 0x50}, /* "ToCP" */
		.formatVersion = {1, 0, 0, 0},
	},
	.padding = "stubdat",
	.count = 0, /* no entries */
};
