/* report.html from hand-written report models (tests/unit/data/report-*.json,
 * docs/report.md): parsed back with libxml2's HTML parser, the page must
 * hold one bar per cell and one dot per run, the marks of mismatched and
 * worse cells and of a rack's outliers, the failures, hosts, plan differences and the studies'
 * tables, and nothing that reaches outside the file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

#include "model.h"
#include "htmltext.h"
#include "report_chart.h"
#include "report_html.h"

struct page {
	json_object *model;
	char *html;
	size_t len;
	htmlDocPtr doc;
};

static void render(const char *name, struct page *p)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/tests/unit/data/report-%s.json",
		 getenv("TOP") ? getenv("TOP") : ".", name);
	p->model = json_object_from_file(path);
	assert_non_null(p->model);
	struct model *m = NULL;
	assert_int_equal(model_from_json(p->model, &m), 0);
	FILE *f = open_memstream(&p->html, &p->len);
	assert_non_null(f);
	assert_int_equal(report_html_write(m, f), 0);
	model_free(m);
	assert_int_equal(fclose(f), 0);
	p->doc = htmlReadMemory(p->html, (int)p->len, "report.html", "UTF-8",
				HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	assert_non_null(p->doc);
}

static void release(struct page *p)
{
	xmlFreeDoc(p->doc);
	free(p->html);
	json_object_put(p->model);
}

static int count(struct page *p, const char *xpath)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(p->doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST xpath, ctx);
	assert_non_null(o);
	int n = o->nodesetval ? o->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return n;
}

#define HAS_CLASS(c) "contains(concat(' ', normalize-space(@class), ' '), ' " c " ')"

/* What the model says the chart must show. */
struct expect {
	int cells, runs, firsts, mismatched, worse, comparisons, outliers;
};

static struct expect expected(json_object *model)
{
	struct expect e = {0};
	json_object *wls, *ms, *cells, *runs, *cmps, *v;

	json_object_object_get_ex(model, "workloads", &wls);
	for (size_t i = 0; i < json_object_array_length(wls); i++) {
		json_object_object_get_ex(json_object_array_get_idx(wls, i), "metrics", &ms);
		for (size_t m = 0; m < json_object_array_length(ms); m++) {
			json_object *metric = json_object_array_get_idx(ms, m);
			json_object_object_get_ex(metric, "cells", &cells);
			json_object_object_get_ex(metric, "comparisons", &cmps);
			e.comparisons += (int)json_object_array_length(cmps);
			if (json_object_object_get_ex(metric, "loss_comparisons", &v) && v)
				e.comparisons += (int)json_object_array_length(v);
			if (json_object_object_get_ex(metric, "outliers", &v) && v)
				e.outliers += (int)json_object_array_length(v);
			for (size_t c = 0; c < json_object_array_length(cells); c++) {
				json_object *cell = json_object_array_get_idx(cells, c);
				/* A loss is drawn by crash: a dot per crash. */
				if (json_object_object_get_ex(cell, "loss", &v) && v)
					json_object_object_get_ex(v, "runs", &runs);
				else
					json_object_object_get_ex(cell, "runs", &runs);
				e.cells++;
				e.runs += (int)json_object_array_length(runs);
				e.firsts += json_object_array_length(runs) > 0;
				json_object_object_get_ex(cell, "cache_mismatches", &v);
				e.mismatched += json_object_get_int(v) > 0;
				if (json_object_object_get_ex(cell, "baseline", &v) && v &&
				    json_object_object_get_ex(v, "worse", &v))
					e.worse += json_object_get_boolean(v);
			}
		}
	}
	return e;
}

static int array_length(json_object *model, const char *key)
{
	json_object *a;

	if (!json_object_object_get_ex(model, key, &a) || !a)
		return 0;
	return (int)json_object_array_length(a);
}

/* What every page must be: HTML5 doctype first, nothing fetched, no
 * script, ids unique, and one bar, dot and first-run mark per the model. */
static void check_common(struct page *p)
{
	struct expect e = expected(p->model);

	assert_true(strncmp(p->html, "<!DOCTYPE html>\n<html lang=\"en\">", 31) == 0);
	assert_null(strstr(p->html, "<script"));
	assert_null(strstr(p->html, "<?xml"));
	assert_int_equal(count(p, "//@src | //@href | //link | //img | //iframe"), 0);
	/* The only URL is SVG's namespace name, which is never fetched. */
	size_t urls = 0;
	for (const char *s = p->html; (s = strstr(s, "http")); s++)
		urls++;
	assert_int_equal(urls, (size_t)count(p, "//svg[" HAS_CLASS("chart") "]"));
	for (const char *s = p->html; (s = strstr(s, "url(")); s++)
		assert_true(s[4] == '#');
	assert_int_equal(count(p, "//*[@id and @id = preceding::*/@id]"), 0);
	assert_int_equal(count(p, "//meta[@name='viewport']"), 1);
	assert_int_equal(count(p, "//svg[" HAS_CLASS("chart") "][@viewBox or @viewbox]"),
			 count(p, "//svg[" HAS_CLASS("chart") "]"));

	assert_int_equal(count(p, "//svg//rect[" HAS_CLASS("bar") "]"), e.cells);
	assert_int_equal(count(p, "//svg//circle[" HAS_CLASS("run") "]"), e.runs);
	assert_int_equal(count(p, "//svg//circle[" HAS_CLASS("run") " and " HAS_CLASS("first") "]"),
			 e.firsts);
	assert_int_equal(count(p, "//rect[" HAS_CLASS("bar") " and " HAS_CLASS("mismatch") "]"),
			 e.mismatched);
	assert_int_equal(count(p, "//rect[" HAS_CLASS("bar") " and " HAS_CLASS("worse") "]"),
			 e.worse);
	assert_int_equal(count(p, "//rect[" HAS_CLASS("bar") " and " HAS_CLASS("outlier") "]"),
			 e.outliers);
	assert_int_equal(count(p, "//svg//text[" HAS_CLASS("outlier") " and .='outlier']"),
			 e.outliers);
	assert_int_equal(count(p, "//li[contains(., 'outlier (dashed outline)')]") > 0,
			 e.outliers > 0);
	/* Every bar says what it is when pointed at. */
	assert_int_equal(count(p, "//rect[" HAS_CLASS("bar") "]/title"), e.cells);
	/* Headlines first, one item each. */
	assert_int_equal(count(p, "(//section)[1][" HAS_CLASS("answers") "]"), 1);
	int headlines = array_length(p->model, "headlines");
	assert_int_equal(count(p, "//section[" HAS_CLASS("answers") "]//li"),
			 headlines ? headlines : 1);
	/* The profile's questions' answers in a list of their own, first. */
	int asked = json_object_get_int(json_object_object_get(p->model, "asked"));
	assert_int_equal(count(p, "//section[" HAS_CLASS("answers") "]/ul[1][" HAS_CLASS("asked") "]/li"),
			 asked);
	assert_int_equal(count(p, "//section[" HAS_CLASS("answers") "]/h3"),
			 asked ? (headlines > asked ? 2 : 1) : 0);
	/* The comparisons' tables: a row each, after the charts' tables of values. */
	assert_int_equal(count(p, "//table[thead/tr/th[1]='comparison']/tbody/tr"),
			 e.comparisons);
	assert_int_equal(count(p, "//div[" HAS_CLASS("host") "]"),
			 array_length(p->model, "hosts"));
}

static void one_host(void **state)
{
	struct page p;
	(void)state;

	render("one-host", &p);
	check_common(&p);
	/* The title escaped by the writer and read back whole. */
	assert_int_equal(count(&p, "//h1[.='ci-smoke <lab-7> & \"friends\"']"), 1);
	assert_int_equal(count(&p, "//section[" HAS_CLASS("workload") "]"), 2);
	assert_int_equal(count(&p, "//figure"), 3);
	assert_int_equal(count(&p, "//figcaption[contains(., 'higher is better')]"), 1);
	assert_int_equal(count(&p, "//figcaption[contains(., 'lower is better')]"), 2);
	assert_int_equal(count(&p, "//figcaption[contains(., '(\xc2\xb5s)')]"), 1);
	/* Failures with their message and console log; the BEL in one
	 * message is not passed on (HTML cannot carry it). */
	assert_int_equal(count(&p, "//table[thead/tr/th[1]='host']/tbody/tr"), 3);
	assert_int_equal(count(&p, "//td[.='console/p17-lvm-raw-none-fio-2.log']"), 1);
	assert_int_equal(count(&p, "//td[.='still running after 300 s']"), 1);
	assert_null(memchr(p.html, '\a', p.len));
	assert_int_equal(count(&p, "//td[contains(., 'not syncing: \xef\xbf\xbdVFS')]"), 1);
	/* The host header. */
	assert_int_equal(count(&p, "//dd[.='SAMSUNG MZ7L3480 /dev/sda']"), 1);
	assert_int_equal(count(&p, "//dd[.='512 B logical, 4096 B physical']"), 1);
	assert_int_equal(count(&p, "//dd[.='set off, read back off']"), 1);
	assert_int_equal(count(&p, "//dd[.='KVM']"), 1);
	assert_int_equal(count(&p, "//dt[.='kit sha256']"), 1);
	assert_int_equal(count(&p, "//dt[.='plan seed']/following-sibling::dd[1][.='1']"), 1);
	/* A cell without runs still has its (empty) bar, and says so. */
	assert_int_equal(count(&p, "//rect[" HAS_CLASS("none") "]"), 1);
	/* The mismatched cell's hatch is defined in its own chart. */
	assert_int_equal(count(&p, "//svg[.//rect[" HAS_CLASS("mismatch") "]]//pattern"), 1);
	assert_int_equal(count(&p, "//li[contains(., 'cache flags applied did not match')]"), 1);
	/* Nothing about baselines, references or plan differences here. */
	assert_int_equal(count(&p, "//h2[.='Baseline check' or .='The studies side by side' or "
				   ".='Plan differences between hosts']"),
			 0);
	release(&p);
}

/* A durability sweep's loss, drawn and tabled by crash
 * (report-loss.json: `buildapp report` of the made-up journal
 * tests/unit/data/durability-host-crash.jsonl): a dot per crash, each
 * crash's host crash record in the table of crashes, the comparison. */
static void loss(void **state)
{
	struct page p;
	(void)state;

	render("loss", &p);
	check_common(&p);
	assert_int_equal(count(&p, "//figcaption[contains(., 'loss by crash')]"), 1);
	assert_int_equal(count(&p, "//ul[" HAS_CLASS("legend") "]/li[.='crashes that lost']"), 1);
	/* A header row per cell, a row per crash. */
	assert_int_equal(count(&p, "//table[" HAS_CLASS("crashes") "]/tbody/tr[th]"), 2);
	assert_int_equal(count(&p, "//table[" HAS_CLASS("crashes") "]/tbody/tr[td]"), 4);
	assert_int_equal(count(&p, "//table[" HAS_CLASS("crashes") "]//th[contains(., "
				   "'unsafe on a, after a host crash: lost acknowledged writes in 2 "
				   "of 2 crashes [16%, 100%]')]"),
			 1);
	assert_int_equal(count(&p, "//td[.='firmware (kexec not used: kexec_file_load: "
				   "Operation not permitted)']"),
			 1);
	assert_int_equal(count(&p, "//td[.='1536 KiB']/following-sibling::td[.='0 KiB']"), 1);
	assert_int_equal(count(&p, "//td[.='212 s']"), 1);
	/* The line from before the record has none, and says so. */
	assert_int_equal(count(&p, "//td[" HAS_CLASS("unknown") " and .='not recorded']"), 1);
	assert_int_equal(count(&p, "//table[" HAS_CLASS("loss") "]/tbody/tr[" HAS_CLASS("not-shown")
				   "]/td[2][.='2 of 2 [16%, 100%]']"),
			 1);
	/* No interval over the records pooled. */
	assert_null(strstr(p.html, "[11%, 18%]"));
	release(&p);
}

static void two_hosts(void **state)
{
	struct page p;
	(void)state;

	render("two-hosts", &p);
	check_common(&p);
	assert_int_equal(count(&p, "//div[" HAS_CLASS("host") "]/h3"), 2);
	/* lab-8's cache read back on though off was asked; it ran under TCG. */
	assert_int_equal(count(&p, "//dd[" HAS_CLASS("differs") " and .='set off, read back on']"), 1);
	assert_int_equal(count(&p, "//dd[starts-with(., 'TCG')]"), 1);
	assert_int_equal(count(&p, "//h2[.='Plan differences between hosts']"), 1);
	assert_int_equal(count(&p, "//table[thead/tr/th[2]='key']/tbody/tr"), 2);
	assert_int_equal(count(&p, "//h2[.='Baseline check']"), 1);
	assert_int_equal(count(&p, "//strong[.='2 significantly worse']"), 1);
	assert_int_equal(count(&p, "//li[contains(., 'worse than the baseline')]"), 1);
	assert_int_equal(count(&p, "//p[.='None: every run ended normally.']"), 1);
	/* Groups are the hosts: one label under each of them. */
	assert_int_equal(count(&p, "//svg//text[" HAS_CLASS("group") "]"), 2);
	release(&p);
}

static void references(void **state)
{
	struct page p;
	(void)state;

	render("references", &p);
	check_common(&p);
	assert_int_equal(count(&p, "//h2[.='The studies side by side']"), 1);
	assert_int_equal(count(&p, "//div[" HAS_CLASS("tables") "]/div/h4"), 2);
	assert_int_equal(count(&p, "//div[" HAS_CLASS("tables") "]/div[1]//tbody/tr"), 2);
	assert_int_equal(count(&p, "//div[" HAS_CLASS("tables") "]/div[2]//td[.='15.2 +/- 0.9']"), 1);
	assert_int_equal(count(&p, "//div[" HAS_CLASS("tables") "]/div[2]//td[" HAS_CLASS("num") "]"), 2);
	assert_int_equal(count(&p, "//dd[.='no host.json in this bundle']"), 1);
	/* No group (one varied axis): no group labels. */
	assert_int_equal(count(&p, "//svg//text[" HAS_CLASS("group") "]"), 0);
	release(&p);
}

/* A rack's report (what `buildapp report` wrote over test_report_rack's
 * four servers): SRV-3_D3 stands out in both cells of dd_mbps. */
static void rack(void **state)
{
	struct page p;
	(void)state;

	render("rack", &p);
	check_common(&p);
	assert_int_equal(count(&p, "//rect[" HAS_CLASS("outlier") "]"), 2);
	assert_int_equal(count(&p, "//rect[" HAS_CLASS("outlier") "]/title[contains(., 'SRV-3_D3') "
				   "and contains(., 'stands out')]"),
			 2);
	assert_int_equal(count(&p, "//table[" HAS_CLASS("values") "]//span[" HAS_CLASS("outlier") "]"),
			 2);
	assert_int_equal(count(&p, "//li[contains(., 'outlier (dashed outline)')]"), 1);
	release(&p);
}

/* A sweep of fio_iodepth (1, 2, 4) under two cache modes and on the host
 * (report-fio-matrix.json, a real bundle's model with intervals made
 * narrow): each metric gets the chart against the depth, a line per cache
 * mode and one for the host, a point per cell and the intervals as bands;
 * with two depths left, no such chart. */
static void fio_depth_chart(void **state)
{
	struct page p;
	(void)state;

	render("fio-matrix", &p);
	check_common(&p);
	int metrics = count(&p, "//figure");
	assert_int_equal(count(&p, "//svg[" HAS_CLASS("axischart") "]"), metrics);
	assert_int_equal(count(&p, "//svg[" HAS_CLASS("axischart") "]//g[" HAS_CLASS("series") "]"),
			 3 * metrics);
	assert_int_equal(count(&p, "//svg[" HAS_CLASS("axischart") "]//circle[" HAS_CLASS("point") "]"),
			 9 * metrics);
	assert_int_equal(count(&p, "//path[" HAS_CLASS("band") "]"), 3 * metrics);
	assert_int_equal(count(&p, "//svg[" HAS_CLASS("axischart") "]//text[.='fio_iodepth']"),
			 metrics);
	assert_int_equal(count(&p, "//text[" HAS_CLASS("series-name") " and .='cache=none']"), metrics);
	assert_int_equal(count(&p, "//text[" HAS_CLASS("series-name") " and .='host']"), metrics);
	assert_int_equal(count(&p, "//circle[" HAS_CLASS("point") "]/title"), 9 * metrics);

	/* Two levels: the bars say it all. */
	json_object *workloads = json_object_object_get(p.model, "workloads");
	json_object *ms = json_object_object_get(json_object_array_get_idx(workloads, 0), "metrics");
	for (size_t i = 0; i < json_object_array_length(ms); i++) {
		json_object *cells = json_object_object_get(json_object_array_get_idx(ms, i), "cells");
		for (size_t k = json_object_array_length(cells); k-- > 0;) {
			const char *id = json_object_get_string(json_object_object_get(
				json_object_array_get_idx(cells, k), "id"));
			if (strstr(id, "qd=4"))
				json_object_array_del_idx(cells, k, 1);
		}
	}
	struct model *m = NULL;
	char *html = NULL;
	size_t len = 0;
	assert_int_equal(model_from_json(p.model, &m), 0);
	FILE *f = open_memstream(&html, &len);
	assert_int_equal(report_html_write(m, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_null(strstr(html, "axischart"));
	free(html);
	model_free(m);
	release(&p);
}

static void bad_models(void **state)
{
	char *out = NULL;
	size_t len = 0;
	(void)state;

	const char *bad[] = {"{}", "{\"format\": \"buildapp-report\", \"version\": 2, \"workloads\": []}",
			     "{\"format\": \"other\", \"version\": 1, \"workloads\": []}",
			     "{\"format\": \"buildapp-report\", \"version\": 1}", "[1]"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *m = json_tokener_parse(bad[i]);
		struct model *mo = NULL;
		/* Refused as it is read: there is no page to write. */
		assert_int_equal(model_from_json(m, &mo), -EINVAL);
		assert_null(mo);
		json_object_put(m);
	}
	/* The least model: an empty sweep still makes a page. */
	json_object *m = json_tokener_parse(
		"{\"format\": \"buildapp-report\", \"version\": 1, \"workloads\": []}");
	struct model *mo = NULL;
	assert_int_equal(model_from_json(m, &mo), 0);
	FILE *f = open_memstream(&out, &len);
	assert_int_equal(report_html_write(mo, f), 0);
	model_free(mo);
	fclose(f);
	assert_non_null(strstr(out, "No comparison"));
	assert_non_null(strstr(out, "</html>"));
	free(out);
	json_object_put(m);
}

static void clean_text(void **state)
{
	(void)state;
	char *s = htmltext_clean("a\x01" "b\xff" "c\xe2\x82" "d\t\xc2\xb5\x7f");
	assert_string_equal(s, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd"
			       "d\t\xc2\xb5\xef\xbf\xbd");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_host),   cmocka_unit_test(two_hosts),
		cmocka_unit_test(loss),
		cmocka_unit_test(references), cmocka_unit_test(bad_models),
		cmocka_unit_test(fio_depth_chart),
		cmocka_unit_test(clean_text), cmocka_unit_test(rack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
