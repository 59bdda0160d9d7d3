/* The profile language: every section and key, with its type, default
 * and range (the list itself is keys_list.h).  The loader validates
 * against this table, the plan's JSON form of the profile is read and
 * written by it; profile/keyref.h adds what only the builder needs (the
 * doc strings, typo hints, the Markdown of `buildapp keys`).
 *
 * A key's value lives in a field of struct profile whose C type is that
 * of its key type (KEY_CTYPE_*).  An entry of the table is made only by
 * KEY_DEF / KEY_DEF_NAMED, which check the field's type at compile time,
 * and keys.c reaches a field only through the accessor of its type: a
 * key declared with a type its field does not have does not compile
 * (tests/build-fail/key-wrong-type.c). */
#ifndef BUILDAPP_KEYS_H
#define BUILDAPP_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "names.h"
#include "profile.h"

/* Every key type, once: keys.c has one setter, formatter and JSON writer
 * per entry (set_T, format_T, json_T), so a type added here without them
 * does not compile.  The C type of a field of type T is KEY_CTYPE_T. */
#define KEY_TYPES(X)                                                           \
	X(STRING)    /* free text, at most the field's size - 1 bytes */       \
	X(BOOL)                                                                \
	X(UINT)      /* decimal integer in [min, max], an unsigned */          \
	X(UINT64)    /* decimal integer in [min, max], a uint64_t */           \
	X(SIZE)      /* size with K/M/G/T suffix in [min, max] */              \
	X(KEEP_UINT) /* "keep" (stored as -1) or an integer in [min, max] */   \
	X(PERCENT)   /* decimal number in [min, max] */                        \
	X(ENUM)      /* one name of `names`, into a field of its enum */       \
	X(LIST)      /* comma-separated names of `names`: a matrix axis */     \
	X(SIZE_LIST) /* comma-separated sizes in [min, max] or "default"      \
		      * (stored as 0): struct l2_cache_axis, an axis */        \
	X(UINT_LIST) /* comma-separated integers in [min, max], in the order  \
		      * given: struct num_axis, an axis */                     \
	X(SIZES)     /* comma-separated sizes in [min, max], likewise */       \
	X(INCLUDE)   /* a base profile: read by the loader, stored nowhere */

#define KEY_TYPE_ENUM_ITEM(T) KEY_##T,
enum key_type { KEY_TYPES(KEY_TYPE_ENUM_ITEM) _KEY_TYPE_MAX };
#undef KEY_TYPE_ENUM_ITEM

#define KEY_CTYPE_STRING char /* an array of char */
#define KEY_CTYPE_BOOL bool
#define KEY_CTYPE_UINT unsigned
#define KEY_CTYPE_UINT64 uint64_t
#define KEY_CTYPE_SIZE uint64_t
#define KEY_CTYPE_KEEP_UINT int
#define KEY_CTYPE_PERCENT double
#define KEY_CTYPE_ENUM int /* any enum of int's size; read and written as int */
#define KEY_CTYPE_LIST axis_mask
#define KEY_CTYPE_SIZE_LIST struct l2_cache_axis
#define KEY_CTYPE_UINT_LIST struct num_axis
#define KEY_CTYPE_SIZES struct num_axis

struct key_def {
	const char *section;
	const char *name;
	enum key_type type;
	const char *default_value; /* as written in a profile */
	uint64_t min, max;         /* numeric types */
	const struct name_table *names; /* KEY_ENUM, KEY_LIST */
	size_t offset;             /* into struct profile, of a KEY_CTYPE_* */
	size_t size;               /* of that field */
	/* KEY_LIST: of the struct axis_order kept beside the field, the
	 * order the profile lists the values in (profile.h) */
	size_t order_offset;
};

/* ---- making entries: only through these, which check the field -------- */

#define KEY_MEMBER_(m) (((struct profile *)0)->m)
/* True when member M of struct profile has the C type of key type T. */
#define KEY_IS_STRING(m) __builtin_types_compatible_p(__typeof__(KEY_MEMBER_(m)), \
						      char[sizeof(KEY_MEMBER_(m))])
#define KEY_IS_SCALAR_(T, m)                                                   \
	__builtin_types_compatible_p(__typeof__(KEY_MEMBER_(m)), KEY_CTYPE_##T)
#define KEY_IS_BOOL(m) KEY_IS_SCALAR_(BOOL, m)
#define KEY_IS_UINT(m) KEY_IS_SCALAR_(UINT, m)
#define KEY_IS_UINT64(m) KEY_IS_SCALAR_(UINT64, m)
#define KEY_IS_SIZE(m) KEY_IS_SCALAR_(SIZE, m)
#define KEY_IS_KEEP_UINT(m) KEY_IS_SCALAR_(KEEP_UINT, m)
#define KEY_IS_PERCENT(m) KEY_IS_SCALAR_(PERCENT, m)
#define KEY_IS_SIZE_LIST(m) KEY_IS_SCALAR_(SIZE_LIST, m)
#define KEY_IS_UINT_LIST(m) KEY_IS_SCALAR_(UINT_LIST, m)
#define KEY_IS_SIZES(m) KEY_IS_SCALAR_(SIZES, m)
/* An ENUM key over names TABLE is a field of `enum TABLE`; a LIST key
 * over them an axis_mask. */
#define KEY_IS_NAMED_ENUM(m, table)                                            \
	(__builtin_types_compatible_p(__typeof__(KEY_MEMBER_(m)), enum table) && \
	 sizeof(KEY_MEMBER_(m)) == sizeof(int))
#define KEY_IS_NAMED_LIST(m, table) KEY_IS_SCALAR_(LIST, m)

/* 0, after failing the build unless OK. */
#define KEY_CHECK_(ok, msg)                                                    \
	(0 * sizeof(struct {                                                   \
		 _Static_assert(ok, msg);                                      \
		 char c;                                                       \
	 }))
#define KEY_FIELD_(ok, T, m)                                                   \
	.type = KEY_##T,                                                       \
	.offset = offsetof(struct profile, m) +                               \
		  KEY_CHECK_(ok, "profile field '" #m "' is not of the C type of KEY_" #T), \
	.size = sizeof(KEY_MEMBER_(m))

/* A key of type T stored in struct profile member M. */
#define KEY_DEF(T, sec, key, def, lo, hi, m)                                   \
	{ .section = sec, .name = key, .default_value = def, .min = lo,        \
	  .max = hi, .names = NULL, KEY_FIELD_(KEY_IS_##T(m), T, m) }
/* Where a key of type T stored in member M keeps its values' order: a
 * LIST in member M##_order ("guest.cache" pasted with "_order" is
 * guest.cache_order), which must be a struct axis_order; others nowhere. */
#define KEY_ORDER_ENUM_(m) 0
#define KEY_ORDER_LIST_(m)                                                     \
	(offsetof(struct profile, m##_order) +                                 \
	 KEY_CHECK_(__builtin_types_compatible_p(__typeof__(KEY_MEMBER_(m##_order)), \
						 struct axis_order),           \
		    "profile field '" #m "_order' is not a struct axis_order"))
/* An ENUM or LIST key over the names TABLE (TABLE##_names). */
#define KEY_DEF_NAMED(T, sec, key, def, table, m)                              \
	{ .section = sec, .name = key, .default_value = def, .min = 0,         \
	  .max = 0, .names = &table##_names,                                   \
	  KEY_FIELD_(KEY_IS_NAMED_##T(m, table), T, m),                         \
	  .order_offset = KEY_ORDER_##T##_(m) }
/* A key read by the loader and stored nowhere ([appliance] include). */
#define KEY_DEF_INCLUDE(sec, key)                                              \
	{ .section = sec, .name = key, .type = KEY_INCLUDE,                    \
	  .default_value = "", .offset = 0, .size = 0 }

/* ---- the table ---------------------------------------------------------- */

extern const struct key_def profile_keys[];
extern const size_t n_profile_keys;
extern const char *const profile_sections[];
extern const size_t n_profile_sections;

/* The key SECTION.NAME, or NULL. */
const struct key_def *keys_find(const char *section, const char *name);
/* True for a key whose value is stored (and so in a plan): not include. */
bool keys_stored(const struct key_def *k);

/* Of CANDIDATES (n entries), the one WORD is likely a typo of, or NULL. */
typedef const char *keys_hint_fn(const char *word,
				 const char *const *candidates, size_t n);
/* Parses VALUE (profile text) as key K into PROFILE.  Returns 0, or
 * -EINVAL with a one-line REASON (no file/key prefix), or -ENOMEM.  An
 * unknown name is reported with HINT's guess when HINT is not NULL. */
int keys_set_hinted(struct profile *profile, const struct key_def *k,
		    const char *value, keys_hint_fn *hint, char *reason,
		    size_t reason_len);
/* keys_set_hinted without hints. */
int keys_set(struct profile *profile, const struct key_def *k,
	     const char *value, char *reason, size_t reason_len);
/* Sets every key to its default. Returns 0 or a negative errno. */
int keys_set_defaults(struct profile *profile);
/* Writes key K of PROFILE as profile text ("4G", "none,unsafe", "keep")
 * into BUF; returns BUF. */
const char *keys_format(const struct profile *profile, const struct key_def *k,
			char *buf, size_t len);
/* Key K of PROFILE as the plan's JSON writes it (docs/plan.md); a new
 * reference, or NULL for a key that is not stored. */
struct json_object;
struct json_object *keys_to_json(const struct profile *profile,
				 const struct key_def *k);

#endif
