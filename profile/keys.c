#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "parse.h"
#include "profile.h"

#define K 1024ULL
#define M (1024ULL * K)
#define G (1024ULL * M)
#define T (1024ULL * G)

const char *const profile_sections[] = {
	"appliance", "host", "storage", "guest", "workload", "sweep", "report",
};
const size_t n_profile_sections =
	sizeof(profile_sections) / sizeof(profile_sections[0]);

/* The doc strings are dropped here: profile/keyref.c has them. */
#define KEYS_ENTRY(type, sec, key, def, lo, hi, member, doc)                   \
	KEY_DEF(type, sec, key, def, lo, hi, member),
#define KEYS_NAMED(type, sec, key, def, table, member, doc)                    \
	KEY_DEF_NAMED(type, sec, key, def, table, member),
#define KEYS_UNSTORED(sec, key, doc) KEY_DEF_INCLUDE(sec, key),
const struct key_def profile_keys[] = {
#include "keys_list.h"
};
const size_t n_profile_keys = sizeof(profile_keys) / sizeof(profile_keys[0]);

const struct key_def *keys_find(const char *section, const char *name)
{
	for (size_t i = 0; i < n_profile_keys; i++)
		if (strcasecmp(profile_keys[i].section, section) == 0 &&
		    strcasecmp(profile_keys[i].name, name) == 0)
			return &profile_keys[i];
	return NULL;
}

bool keys_stored(const struct key_def *k)
{
	return k && k->type != KEY_INCLUDE;
}

/* ---- typed access --------------------------------------------------------- */

/* The field of key K.  Its C type is KEY_CTYPE_ of K's type: KEY_DEF
 * checked that when the entry was made, so the casts of FIELD are
 * right; asking for a key as another type is a bug, and stops here
 * rather than writing the wrong bytes. */
static void *field_of(const struct profile *p, const struct key_def *k,
		      enum key_type type)
{
	if (k->type != type)
		abort();
	return (char *)p + k->offset;
}
#define FIELD(type, p, k) ((KEY_CTYPE_##type *)field_of(p, k, KEY_##type))
#define CFIELD(type, p, k) ((const KEY_CTYPE_##type *)field_of(p, k, KEY_##type))

/* Fills REASON and evaluates to -EINVAL. */
#define REASON(...) (snprintf(reason, reason_len, __VA_ARGS__), -EINVAL)

#define SET_ARGS                                                               \
	struct profile *p, const struct key_def *k, const char *value,        \
		keys_hint_fn *hint, char *reason, size_t reason_len
#define FORMAT_ARGS                                                            \
	const struct profile *p, const struct key_def *k, char *buf, size_t len

static const char *list_names(const struct name_table *t, char *buf,
			      size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->count && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", t->names[i]);
	return buf;
}

static int name_reason(const struct key_def *k, const char *item,
		       keys_hint_fn *hint, char *reason, size_t reason_len)
{
	char all[256];
	const char *guess =
		hint ? hint(item, k->names->names, (size_t)k->names->count) : NULL;

	list_names(k->names, all, sizeof(all));
	if (guess)
		return REASON(
			   "unknown value '%.64s' (did you mean '%s'?); one of: %s",
			   item, guess, all);
	return REASON(
		   "unknown value '%.64s'; one of: %s", item, all);
}

static int range_reason(const struct key_def *k, const char *value,
			char *reason, size_t reason_len)
{
	char lo[32], hi[32];

	if (k->type == KEY_SIZE || k->type == KEY_SIZE_LIST)
		return REASON(
			   "'%.64s' is out of range %s..%s", value,
			   format_size(k->min, lo, sizeof(lo)),
			   format_size(k->max, hi, sizeof(hi)));
	return REASON(
		   "'%.64s' is out of range %llu..%llu", value,
		   (unsigned long long)k->min, (unsigned long long)k->max);
}

/* An integer (or a size when SIZE) of VALUE in k's range, into *RET. */
static int parse_number(const struct key_def *k, const char *value, bool size,
			uint64_t *ret, char *reason, size_t reason_len)
{
	int r = size ? parse_size(value, ret) : parse_uint64(value, ret);

	if (r == -EINVAL)
		return REASON(size ? "'%.64s' is not a size (e.g. 512M, 4G)"
				   : "'%.64s' is not a whole number",
			      value);
	if (r < 0 || *ret < k->min || *ret > k->max)
		return range_reason(k, value, reason, reason_len);
	return 0;
}

/* ---- one setter, formatter and JSON writer per key type ------------------ */

static int set_STRING(SET_ARGS)
{
	(void)hint;
	if (strlen(value) >= k->size)
		return REASON(
			   "longer than %zu characters", k->size - 1);
	snprintf(FIELD(STRING, p, k), k->size, "%s", value);
	return 0;
}

static void format_STRING(FORMAT_ARGS)
{
	snprintf(buf, len, "%s", CFIELD(STRING, p, k));
}

static json_object *json_STRING(const struct profile *p, const struct key_def *k)
{
	return json_object_new_string(CFIELD(STRING, p, k));
}

static int set_BOOL(SET_ARGS)
{
	bool b;

	(void)hint;
	if (parse_bool(value, &b) < 0)
		return REASON(
			   "'%.64s' is not a boolean (yes/no, on/off, "
			   "true/false)", value);
	*FIELD(BOOL, p, k) = b;
	return 0;
}

static void format_BOOL(FORMAT_ARGS)
{
	snprintf(buf, len, "%s", *CFIELD(BOOL, p, k) ? "yes" : "no");
}

static json_object *json_BOOL(const struct profile *p, const struct key_def *k)
{
	return json_object_new_boolean(*CFIELD(BOOL, p, k));
}

static int set_UINT(SET_ARGS)
{
	uint64_t u;
	int r = parse_number(k, value, false, &u, reason, reason_len);

	(void)hint;
	if (r == 0 && u > UINT_MAX)
		r = range_reason(k, value, reason, reason_len);
	if (r < 0)
		return r;
	*FIELD(UINT, p, k) = (unsigned)u;
	return 0;
}

static void format_UINT(FORMAT_ARGS)
{
	snprintf(buf, len, "%u", *CFIELD(UINT, p, k));
}

static json_object *json_UINT(const struct profile *p, const struct key_def *k)
{
	return json_object_new_uint64(*CFIELD(UINT, p, k));
}

static int set_UINT64(SET_ARGS)
{
	uint64_t u;
	int r = parse_number(k, value, false, &u, reason, reason_len);

	(void)hint;
	if (r < 0)
		return r;
	*FIELD(UINT64, p, k) = u;
	return 0;
}

static void format_UINT64(FORMAT_ARGS)
{
	snprintf(buf, len, "%llu", (unsigned long long)*CFIELD(UINT64, p, k));
}

static json_object *json_UINT64(const struct profile *p, const struct key_def *k)
{
	return json_object_new_uint64(*CFIELD(UINT64, p, k));
}

static int set_SIZE(SET_ARGS)
{
	uint64_t u;
	int r = parse_number(k, value, true, &u, reason, reason_len);

	(void)hint;
	if (r < 0)
		return r;
	*FIELD(SIZE, p, k) = u;
	return 0;
}

static void format_SIZE(FORMAT_ARGS)
{
	format_size(*CFIELD(SIZE, p, k), buf, len);
}

static json_object *json_SIZE(const struct profile *p, const struct key_def *k)
{
	return json_object_new_uint64(*CFIELD(SIZE, p, k));
}

static int set_KEEP_UINT(SET_ARGS)
{
	uint64_t u;
	int r;

	(void)hint;
	if (strcmp(value, "keep") == 0) {
		*FIELD(KEEP_UINT, p, k) = -1;
		return 0;
	}
	r = parse_uint64(value, &u);
	if (r == -EINVAL)
		return REASON(
			   "'%.64s' is neither 'keep' nor a "
			   "whole number", value);
	if (r < 0 || u < k->min || u > k->max || u > INT_MAX)
		return range_reason(k, value, reason, reason_len);
	*FIELD(KEEP_UINT, p, k) = (int)u;
	return 0;
}

static void format_KEEP_UINT(FORMAT_ARGS)
{
	int v = *CFIELD(KEEP_UINT, p, k);

	if (v < 0)
		snprintf(buf, len, "keep");
	else
		snprintf(buf, len, "%d", v);
}

static json_object *json_KEEP_UINT(const struct profile *p, const struct key_def *k)
{
	int v = *CFIELD(KEEP_UINT, p, k);

	return v < 0 ? json_object_new_string("keep") : json_object_new_int64(v);
}

static int set_PERCENT(SET_ARGS)
{
	char *end;
	double d;

	(void)hint;
	errno = 0;
	d = strtod(value, &end);
	if (errno || *end || end == value || !isdigit((unsigned char)*value))
		return REASON(
			   "'%.64s' is not a number", value);
	if (d < (double)k->min || d > (double)k->max)
		return range_reason(k, value, reason, reason_len);
	*FIELD(PERCENT, p, k) = d;
	return 0;
}

static void format_PERCENT(FORMAT_ARGS)
{
	snprintf(buf, len, "%g", *CFIELD(PERCENT, p, k));
}

static json_object *json_PERCENT(const struct profile *p, const struct key_def *k)
{
	return json_object_new_double(*CFIELD(PERCENT, p, k));
}

static int set_ENUM(SET_ARGS)
{
	int idx = name_table_lookup(k->names, value);

	if (idx < 0)
		return name_reason(k, value, hint, reason, reason_len);
	*FIELD(ENUM, p, k) = idx;
	return 0;
}

static void format_ENUM(FORMAT_ARGS)
{
	snprintf(buf, len, "%s", k->names->names[*CFIELD(ENUM, p, k)]);
}

static json_object *json_ENUM(const struct profile *p, const struct key_def *k)
{
	return json_object_new_string(k->names->names[*CFIELD(ENUM, p, k)]);
}

/* The order kept beside the mask of LIST key K (keys.h). */
static struct axis_order *order_of(const struct profile *p, const struct key_def *k)
{
	if (k->type != KEY_LIST || !k->order_offset)
		abort();
	return (struct axis_order *)((char *)p + k->order_offset);
}

static int set_LIST(SET_ARGS)
{
	_cleanup_free_ char *copy = strdup(value);
	axis_mask mask = 0;
	struct axis_order order = {0};
	char *rest = copy, *item;
	int idx;

	if (!copy)
		return -ENOMEM;
	while ((item = strsep(&rest, ","))) {
		item = parse_strip(item);
		if (!*item)
			return REASON(
				   "empty item in list");
		idx = name_table_lookup(k->names, item);
		if (idx < 0)
			return name_reason(k, item, hint, reason, reason_len);
		if (idx >= AXIS_MASK_BITS)
			abort(); /* a name table longer than a mask */
		if (mask & AXIS_BIT(idx))
			return REASON(
				   "'%s' listed twice", item);
		mask |= AXIS_BIT(idx);
		order.v[order.n++] = (uint8_t)idx;
	}
	if (!mask)
		return REASON( "empty list");
	*FIELD(LIST, p, k) = mask;
	*order_of(p, k) = order;
	return 0;
}

/* The values of LIST key K in the order the profile listed them, into
 * OUT (room for AXIS_MASK_BITS); returns how many. */
static size_t listed(const struct profile *p, const struct key_def *k, int *out)
{
	return axis_listed(*CFIELD(LIST, p, k), order_of(p, k), out);
}

static void format_LIST(FORMAT_ARGS)
{
	int v[AXIS_MASK_BITS];
	size_t n = listed(p, k, v), used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		if (v[i] < k->names->count)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "", k->names->names[v[i]]);
}

static json_object *json_LIST(const struct profile *p, const struct key_def *k)
{
	int v[AXIS_MASK_BITS];
	size_t n = listed(p, k, v);
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		if (v[i] < k->names->count)
			json_object_array_add(arr, json_object_new_string(k->names->names[v[i]]));
	return arr;
}

/* "default, 1M, 8M": each item once, at most L2_CACHE_MAX_VALUES. */
static int set_SIZE_LIST(SET_ARGS)
{
	_cleanup_free_ char *copy = strdup(value);
	struct l2_cache_axis axis = {.n = 0};
	char *rest = copy, *item;
	uint64_t u;
	int r;

	(void)hint;
	if (!copy)
		return -ENOMEM;
	while ((item = strsep(&rest, ","))) {
		item = parse_strip(item);
		if (!*item)
			return REASON("empty item in list");
		if (strcmp(item, "default") == 0) {
			u = 0;
		} else {
			r = parse_size(item, &u);
			if (r == -EINVAL)
				return REASON("'%.64s' is neither 'default' nor a "
					      "size (e.g. 1M, 8M)", item);
			if (r < 0 || u < k->min || u > k->max)
				return range_reason(k, item, reason, reason_len);
		}
		for (unsigned i = 0; i < axis.n; i++)
			if (axis.bytes[i] == u)
				return REASON("'%s' listed twice", item);
		if (axis.n == L2_CACHE_MAX_VALUES)
			return REASON("more than %d sizes", L2_CACHE_MAX_VALUES);
		axis.bytes[axis.n++] = u;
	}
	*FIELD(SIZE_LIST, p, k) = axis;
	return 0;
}

/* Item I of AXIS as profile text: "default" or a size. */
static const char *l2_item(const struct l2_cache_axis *a, unsigned i, char *buf,
			   size_t len)
{
	return a->bytes[i] ? format_size(a->bytes[i], buf, len) : "default";
}

static void format_SIZE_LIST(FORMAT_ARGS)
{
	const struct l2_cache_axis *a = CFIELD(SIZE_LIST, p, k);
	size_t used = 0;
	char one[32];

	buf[0] = '\0';
	for (unsigned i = 0; i < a->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 l2_item(a, i, one, sizeof(one)));
}

static json_object *json_SIZE_LIST(const struct profile *p, const struct key_def *k)
{
	const struct l2_cache_axis *a = CFIELD(SIZE_LIST, p, k);
	json_object *arr = json_object_new_array();
	char one[32];

	for (unsigned i = 0; i < a->n; i++)
		json_object_array_add(arr, json_object_new_string(l2_item(a, i, one, sizeof(one))));
	return arr;
}

/* "1, 8, 32": numbers (sizes with SIZE) in k's range, each once, at most
 * NUM_AXIS_MAX, in the order given. */
static int set_num_axis(SET_ARGS, bool size)
{
	_cleanup_free_ char *copy = strdup(value);
	struct num_axis axis = {.n = 0};
	char *rest = copy, *item;
	int r;

	(void)hint;
	if (!copy)
		return -ENOMEM;
	while ((item = strsep(&rest, ","))) {
		item = parse_strip(item);
		if (!*item)
			return REASON("empty item in list");
		if (axis.n == NUM_AXIS_MAX)
			return REASON("more than %d values", NUM_AXIS_MAX);
		r = parse_number(k, item, size, &axis.v[axis.n], reason, reason_len);
		if (r < 0)
			return r;
		for (unsigned i = 0; i < axis.n; i++)
			if (axis.v[i] == axis.v[axis.n])
				return REASON("'%s' listed twice", item);
		axis.n++;
	}
	*(struct num_axis *)field_of(p, k, size ? KEY_SIZES : KEY_UINT_LIST) = axis;
	return 0;
}

static void format_num_axis(const struct num_axis *a, bool size, char *buf, size_t len)
{
	size_t used = 0;
	char one[32];

	buf[0] = '\0';
	for (unsigned i = 0; i < a->n && used < len; i++) {
		if (size)
			format_size(a->v[i], one, sizeof(one));
		else
			snprintf(one, sizeof(one), "%llu", (unsigned long long)a->v[i]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", one);
	}
}

/* An array of integers (bytes for sizes): the plan's reader takes them
 * back through json_to_text. */
static json_object *json_num_axis(const struct num_axis *a)
{
	json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < a->n; i++)
		json_object_array_add(arr, json_object_new_uint64(a->v[i]));
	return arr;
}

static int set_UINT_LIST(SET_ARGS)
{
	return set_num_axis(p, k, value, hint, reason, reason_len, false);
}

static void format_UINT_LIST(FORMAT_ARGS)
{
	format_num_axis(CFIELD(UINT_LIST, p, k), false, buf, len);
}

static json_object *json_UINT_LIST(const struct profile *p, const struct key_def *k)
{
	return json_num_axis(CFIELD(UINT_LIST, p, k));
}

static int set_SIZES(SET_ARGS)
{
	return set_num_axis(p, k, value, hint, reason, reason_len, true);
}

static void format_SIZES(FORMAT_ARGS)
{
	format_num_axis(CFIELD(SIZES, p, k), true, buf, len);
}

static json_object *json_SIZES(const struct profile *p, const struct key_def *k)
{
	return json_num_axis(CFIELD(SIZES, p, k));
}

/* include: the loader reads it; nothing is stored, formatted or planned. */
static int set_INCLUDE(SET_ARGS)
{
	(void)p, (void)k, (void)value, (void)hint, (void)reason, (void)reason_len;
	return 0;
}

static void format_INCLUDE(FORMAT_ARGS)
{
	(void)p, (void)k;
	if (len)
		buf[0] = '\0';
}

static json_object *json_INCLUDE(const struct profile *p, const struct key_def *k)
{
	(void)p, (void)k;
	return NULL;
}

struct key_ops {
	int (*set)(SET_ARGS);
	void (*format)(FORMAT_ARGS);
	json_object *(*to_json)(const struct profile *p, const struct key_def *k);
};

#define KEY_OPS_ITEM(type) [KEY_##type] = {set_##type, format_##type, json_##type},
static const struct key_ops key_ops[_KEY_TYPE_MAX] = {KEY_TYPES(KEY_OPS_ITEM)};

/* ---- by key --------------------------------------------------------------- */

int keys_set_hinted(struct profile *profile, const struct key_def *k,
		    const char *value, keys_hint_fn *hint, char *reason,
		    size_t reason_len)
{
	return key_ops[k->type].set(profile, k, value, hint, reason, reason_len);
}

int keys_set(struct profile *profile, const struct key_def *k,
	     const char *value, char *reason, size_t reason_len)
{
	return keys_set_hinted(profile, k, value, NULL, reason, reason_len);
}

int keys_set_defaults(struct profile *profile)
{
	char reason[256];

	for (size_t i = 0; i < n_profile_keys; i++) {
		int r = keys_set(profile, &profile_keys[i],
				 profile_keys[i].default_value, reason,
				 sizeof(reason));
		if (r < 0)
			return r;
	}
	return 0;
}

const char *keys_format(const struct profile *profile, const struct key_def *k,
			char *buf, size_t len)
{
	buf[0] = '\0';
	key_ops[k->type].format(profile, k, buf, len);
	return buf;
}

json_object *keys_to_json(const struct profile *profile, const struct key_def *k)
{
	return key_ops[k->type].to_json(profile, k);
}
