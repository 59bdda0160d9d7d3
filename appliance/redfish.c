/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "redfish.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json.h>

#include "cleanup.h"
#include "jsonget.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(CURL, curl_easy_cleanup)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct curl_slist, curl_slist_free_all)

/* A BMC's answers are small: a larger one is not a Redfish resource. */
#define ANSWER_MAX (1 << 20)
#define TIMEOUT_SECONDS 30

/* ---- parsing ------------------------------------------------------------- */

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* O's member KEY when it is an object, else NULL (borrowed). */
static json_object *object_at(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_object)
		       ? v
		       : NULL;
}

/* The values of the array V (of strings) into RET: listed, power_cycle,
 * values. */
static void allowable(json_object *v, struct redfish_system *ret)
{
	size_t used = 0;

	if (!v || !json_object_is_type(v, json_type_array))
		return;
	ret->listed = true;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);
		if (!json_object_is_type(e, json_type_string))
			continue;
		const char *s = json_object_get_string(e);
		ret->power_cycle |= strcmp(s, "PowerCycle") == 0;
		if (used < sizeof(ret->values))
			used += (size_t)snprintf(ret->values + used, sizeof(ret->values) - used,
						 "%s%.30s", used ? ", " : "", s);
	}
}

int redfish_parse_members(const char *text, char path[BMCSPEC_URL_MAX], size_t *ret_count)
{
	_cleanup_(json_object_putp) json_object *o = parse(text);
	json_object *members = NULL;

	if (!o || !json_object_object_get_ex(o, "Members", &members) ||
	    !json_object_is_type(members, json_type_array))
		return -EBADMSG;
	*ret_count = json_object_array_length(members);
	path[0] = '\0';
	if (*ret_count) {
		const char *id = jsonget_string(json_object_array_get_idx(members, 0), "@odata.id");
		if (!id || strlen(id) >= BMCSPEC_URL_MAX)
			return -EBADMSG;
		snprintf(path, BMCSPEC_URL_MAX, "%s", id);
	}
	return 0;
}

int redfish_parse_system(const char *text, struct redfish_system *ret)
{
	_cleanup_(json_object_putp) json_object *o = parse(text);
	json_object *values = NULL;

	memset(ret, 0, sizeof(*ret));
	if (!o)
		return -EBADMSG;
	const char *state = jsonget_string(o, "PowerState");
	snprintf(ret->power_state, sizeof(ret->power_state), "%s", state ? state : "");
	json_object *reset = object_at(object_at(o, "Actions"), "#ComputerSystem.Reset");
	if (!reset)
		return 0;
	const char *target = jsonget_string(reset, "target");
	const char *info = jsonget_string(reset, "@Redfish.ActionInfo");
	if ((target && strlen(target) >= sizeof(ret->target)) ||
	    (info && strlen(info) >= sizeof(ret->action_info)))
		return -EBADMSG;
	snprintf(ret->target, sizeof(ret->target), "%s", target ? target : "");
	snprintf(ret->action_info, sizeof(ret->action_info), "%s", info ? info : "");
	if (json_object_object_get_ex(reset, "ResetType@Redfish.AllowableValues", &values))
		allowable(values, ret);
	return 0;
}

int redfish_parse_action_info(const char *text, struct redfish_system *ret)
{
	_cleanup_(json_object_putp) json_object *o = parse(text);
	json_object *params = NULL, *values = NULL;

	if (!o || !json_object_object_get_ex(o, "Parameters", &params) ||
	    !json_object_is_type(params, json_type_array))
		return -EBADMSG;
	for (size_t i = 0; i < json_object_array_length(params); i++) {
		json_object *p = json_object_array_get_idx(params, i);
		const char *name = jsonget_string(p, "Name");
		if (name && strcmp(name, "ResetType") == 0 &&
		    json_object_object_get_ex(p, "AllowableValues", &values))
			allowable(values, ret);
	}
	return 0;
}

/* A Redfish error answer's message (error.message, or its first
 * @Message.ExtendedInfo's Message) into BUF; "" for none. */
static void error_message(const char *text, char *buf, size_t len)
{
	_cleanup_(json_object_putp) json_object *o = text ? parse(text) : NULL;
	json_object *e = o ? object_at(o, "error") : NULL, *info = NULL;
	const char *m = NULL;

	buf[0] = '\0';
	if (!e)
		return;
	if (json_object_object_get_ex(e, "@Message.ExtendedInfo", &info) &&
	    json_object_is_type(info, json_type_array) && json_object_array_length(info) > 0)
		m = jsonget_string(json_object_array_get_idx(info, 0), "Message");
	if (!m)
		m = jsonget_string(e, "message");
	if (m)
		snprintf(buf, len, "%s", m);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < ' ')
			*p = ' ';
}

/* ---- HTTP ---------------------------------------------------------------- */

struct answer {
	char *data;
	size_t len;
	bool too_big;
};

static size_t keep(char *data, size_t size, size_t n, void *ctx)
{
	struct answer *a = ctx;
	size_t add = size * n;

	if (a->too_big || a->len + add > ANSWER_MAX) {
		a->too_big = true;
		return 0;
	}
	char *p = realloc(a->data, a->len + add + 1);
	if (!p)
		return 0;
	memcpy(p + a->len, data, add);
	a->len += add;
	p[a->len] = '\0';
	a->data = p;
	return add;
}

/* METHOD on PATH (an absolute path on RF's base) with the JSON BODY
 * (NULL: none).  Returns 0 with the HTTP status in *STATUS and the answer
 * in *RET (the caller frees it; "" for none), or a negative errno with
 * WHY (no answer came: curl's message). */
static int request(const struct redfish *rf, const char *method, const char *path,
		   const char *body, long *status, char **ret, char *why, size_t len)
{
	_cleanup_(curl_easy_cleanupp) CURL *c = curl_easy_init();
	_cleanup_(curl_slist_free_allp) struct curl_slist *h = NULL;
	struct answer a = {0};
	char url[2 * BMCSPEC_URL_MAX], err[CURL_ERROR_SIZE] = "";
	CURLcode rc;

	*status = 0;
	if (!c) {
		snprintf(why, len, "libcurl could not start");
		return -ENOMEM;
	}
	snprintf(url, sizeof(url), "%s%s", rf->base, path);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)TIMEOUT_SECONDS);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)(2 * TIMEOUT_SECONDS));
	curl_easy_setopt(c, CURLOPT_USERAGENT, "buildapp-appliance");
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (rf->ca[0])
		curl_easy_setopt(c, CURLOPT_CAINFO, rf->ca);
	curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	curl_easy_setopt(c, CURLOPT_USERNAME, rf->user);
	curl_easy_setopt(c, CURLOPT_PASSWORD, rf->password);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
	h = curl_slist_append(h, "Accept: application/json");
	h = curl_slist_append(h, "OData-Version: 4.0");
	if (body) {
		h = curl_slist_append(h, "Content-Type: application/json");
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	}
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	h = curl_slist_append(h, "Expect:");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	if (rc != CURLE_OK) {
		free(a.data);
		snprintf(why, len, "%.8s %.100s: %.140s", method, url,
			 a.too_big ? "an answer larger than 1 MiB"
			 : err[0]  ? err
				   : curl_easy_strerror(rc));
		return rc == CURLE_OUT_OF_MEMORY ? -ENOMEM : -EIO;
	}
	*ret = a.data ? a.data : strdup("");
	return *ret ? 0 : -ENOMEM;
}

/* GET PATH, a 200 with its body in *RET.  Else a negative errno with WHY
 * in a sentence. */
static int get(const struct redfish *rf, const char *path, char **ret, char *why, size_t len)
{
	char detail[REDFISH_TEXT_MAX];
	long status;
	char *text = NULL;
	int r = request(rf, "GET", path, NULL, &status, &text, detail, sizeof(detail));

	if (r < 0) {
		snprintf(why, len, "the BMC does not answer: %s", detail);
		return r;
	}
	if (status == 200) {
		*ret = text;
		return 0;
	}
	error_message(text, detail, sizeof(detail));
	free(text);
	if (status == 401 || status == 403)
		snprintf(why, len, "the BMC refused the account of [host] bmc_credentials (GET %s: "
			 "HTTP %ld%s%s)", path, status, detail[0] ? ", " : "", detail);
	else
		snprintf(why, len, "GET %s: HTTP %ld%s%s", path, status, detail[0] ? ", " : "",
			 detail);
	return status == 404 ? -ENOENT : status == 401 || status == 403 ? -EACCES : -EIO;
}

/* ---- the BMC ------------------------------------------------------------- */

int redfish_open(struct redfish *rf, const char *bmc, const char *credentials, const char *ca,
		 char *why, size_t len)
{
	memset(rf, 0, sizeof(*rf));
	bmcspec_split(bmc, rf->base, rf->system);
	snprintf(rf->ca, sizeof(rf->ca), "%s", ca ? ca : "");
	snprintf(rf->what, sizeof(rf->what), "Redfish %.120s%.120s", rf->base,
		 rf->system[0] ? rf->system : "");
	int r = bmcspec_read_credentials(credentials, rf->user, rf->password, why, len);
	if (r < 0)
		return r;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		redfish_close(rf);
		snprintf(why, len, "libcurl could not start");
		return -ENOMEM;
	}
	return 0;
}

void redfish_close(struct redfish *rf)
{
	explicit_bzero(rf->user, sizeof(rf->user));
	explicit_bzero(rf->password, sizeof(rf->password));
}

/* A path on the BMC of the URL or path T (a target or ActionInfo): its
 * path, when T is one, or is on RF's base.  False for another host. */
static bool on_base(const struct redfish *rf, const char *t, char *path, size_t len)
{
	size_t n = strlen(rf->base);

	if (t[0] == '/') {
		snprintf(path, len, "%s", t);
		return true;
	}
	if (strncmp(t, rf->base, n) == 0 && t[n] == '/') {
		snprintf(path, len, "%s", t + n);
		return true;
	}
	return false;
}

int redfish_check(struct redfish *rf, char *why, size_t len)
{
	_cleanup_free_ char *text = NULL, *info = NULL;
	struct redfish_system sys;
	size_t count = 0;
	int r;

	if (!rf->system[0]) {
		r = get(rf, BMCSPEC_SYSTEMS, &text, why, len);
		if (r < 0)
			return r;
		char first[BMCSPEC_URL_MAX];
		if (redfish_parse_members(text, first, &count) < 0) {
			snprintf(why, len, "GET " BMCSPEC_SYSTEMS ": not a Redfish collection");
			return -EBADMSG;
		}
		if (count != 1 || !on_base(rf, first, rf->system, sizeof(rf->system))) {
			snprintf(why, len, "the Redfish service at %s has %zu systems: name this "
				 "server's in [host] bmc (%s" BMCSPEC_SYSTEMS "/ID)", rf->base, count,
				 rf->base);
			return -EINVAL;
		}
		free(TAKE_PTR(text));
		snprintf(rf->what, sizeof(rf->what), "Redfish %.120s%.120s", rf->base,
			 rf->system);
	}
	r = get(rf, rf->system, &text, why, len);
	if (r < 0)
		return r;
	if (redfish_parse_system(text, &sys) < 0) {
		snprintf(why, len, "GET %s: not a Redfish resource", rf->system);
		return -EBADMSG;
	}
	if (strcmp(sys.power_state, "On") != 0) {
		snprintf(why, len, "%s reads this system's PowerState as '%s' while this server "
			 "runs: it is not this server's, or does not control its power", rf->what,
			 sys.power_state[0] ? sys.power_state : "(none)");
		return -EOPNOTSUPP;
	}
	if (!sys.target[0] || !on_base(rf, sys.target, rf->target, sizeof(rf->target))) {
		snprintf(why, len, "%s offers no ComputerSystem.Reset action%s", rf->what,
			 sys.target[0] ? " on the BMC itself (its target is another host)" : "");
		return -EOPNOTSUPP;
	}
	if (!sys.listed && sys.action_info[0]) {
		char path[BMCSPEC_URL_MAX];
		if (!on_base(rf, sys.action_info, path, sizeof(path)) ||
		    (r = get(rf, path, &info, why, len)) < 0 ||
		    redfish_parse_action_info(info, &sys) < 0) {
			if (!info)
				snprintf(why + strlen(why), len - strlen(why),
					 " (the Reset action's ActionInfo)");
			else
				snprintf(why, len, "GET %s: not a Redfish ActionInfo", path);
			return r < 0 ? r : -EBADMSG;
		}
	}
	if (!sys.listed) {
		snprintf(why, len, "%s lists no ResetType values for its Reset action "
			 "(ResetType@Redfish.AllowableValues, or an ActionInfo): a power cycle "
			 "cannot be known to be allowed", rf->what);
		return -EOPNOTSUPP;
	}
	if (!sys.power_cycle) {
		snprintf(why, len, "%s does not allow a power cycle: its Reset's ResetType values "
			 "are %s, and PowerCycle is not one", rf->what,
			 sys.values[0] ? sys.values : "none");
		return -EOPNOTSUPP;
	}
	return 0;
}

int redfish_power_cycle(const struct redfish *rf, unsigned wait_seconds, char *why,
			size_t len)
{
	_cleanup_free_ char *text = NULL;
	char detail[REDFISH_TEXT_MAX];
	long status;
	int r;

	r = request(rf, "POST", rf->target, "{\"ResetType\": \"PowerCycle\"}", &status, &text,
		    detail, sizeof(detail));
	if (r < 0) {
		snprintf(why, len, "the BMC does not answer the power cycle: %s", detail);
		return r;
	}
	if (status != 200 && status != 202 && status != 204) {
		error_message(text, detail, sizeof(detail));
		snprintf(why, len, "the BMC refused the power cycle (POST %s: HTTP %ld%s%s)",
			 rf->target, status, detail[0] ? ", " : "", detail);
		return -EIO;
	}
	/* A BMC answers first, then cuts the power: this process ends here. */
	sleep(wait_seconds);
	snprintf(why, len, "the BMC accepted the power cycle (HTTP %ld), but the power did not "
		 "go within %u s", status, wait_seconds);
	return -ETIMEDOUT;
}
