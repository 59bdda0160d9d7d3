#include "report_html.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlIO.h>

#include "cleanup.h"
#include "jsonget.h"
#include "report_chart.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(xmlTextWriter, xmlFreeTextWriter)

/* No '<', '>' or '&' in here: the writer escapes text, and <style> is
 * raw text in HTML, so those would reach the CSS as entities. */
static const char css[] =
	":root{--ink:#1d232b;--muted:#5b6570;--line:#d5dae0;--soft:#f3f5f7;"
	"--good:#1b7f3b;--bad:#b3261e;--warn:#8a5a00;--accent:#0b5cad}"
	"*{box-sizing:border-box}"
	"body{margin:0 auto;max-width:72rem;padding:1rem 1.25rem 3rem;"
	"font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',"
	"sans-serif;color:var(--ink);background:#fff}"
	"h1{font-size:1.6rem;margin:.5rem 0 .25rem;line-height:1.2}"
	"h2{font-size:1.25rem;margin:2rem 0 .5rem;padding-bottom:.2rem;"
	"border-bottom:2px solid var(--ink)}"
	"h3{font-size:1.05rem;margin:1.5rem 0 .4rem}"
	"h4{font-size:.95rem;margin:.6rem 0 .2rem}"
	"p.sub,p.method,.muted{color:var(--muted)}"
	"p.method{font-size:.9rem;margin:.25rem 0 1rem}"
	"section.answers ul{list-style:none;padding:0;margin:0}"
	"section.answers li{padding:.45rem .75rem;margin:.3rem 0;"
	"border-left:4px solid var(--accent);background:var(--soft);"
	"font-size:1.02rem}"
	"section.answers li.none{border-left-color:var(--line)}"
	".hosts{display:flex;flex-wrap:wrap;gap:1rem}"
	".host{flex:1 1 20rem;border:1px solid var(--line);border-radius:6px;"
	"padding:.5rem .9rem}"
	".host h3{margin:.2rem 0 .4rem}"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;"
	"margin:0;font-size:.9rem}"
	"dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}"
	"td.hash{overflow-wrap:anywhere;min-width:8rem}"
	"code,.hash{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
	"font-size:.85em}"
	".unknown{color:var(--muted);font-style:italic}"
	".differs{color:var(--bad);font-weight:600}"
	"figure{margin:1rem 0 .5rem}"
	"figcaption{font-weight:600;margin-bottom:.3rem}"
	"figcaption .better{font-weight:400;color:var(--muted)}"
	".scroll{overflow-x:auto}"
	"svg.chart{display:block;width:100%;height:auto;"
	"font-family:system-ui,'DejaVu Sans',sans-serif}"
	"svg text{fill:var(--ink)}"
	".tick,.unit{font-size:10px;fill:var(--muted)}"
	".label{font-size:11px}.group{font-size:12px;font-weight:600}"
	".val{font-size:9px;fill:var(--muted)}"
	".grid{stroke:var(--line);stroke-width:.6}"
	".axis{stroke:var(--ink);stroke-width:1}"
	".bracket{stroke:var(--muted);stroke-width:1}"
	".bar{stroke:rgba(0,0,0,.35);stroke-width:.6}"
	".bar.none{stroke:none}"
	".c0{fill:#8fb8de}.c1{fill:#f2b36f}.c2{fill:#8fd1b4}.c3{fill:#e99aa0}"
	".c4{fill:#c7b0e0}.c5{fill:#d9c77a}.c6{fill:#9fd4e6}.c7{fill:#c9c9c9}"
	".bar.mismatch{stroke:var(--warn);stroke-width:1.2}"
	".bar.worse{stroke:var(--bad);stroke-width:2}"
	".bar.outlier,.key-bar.key-outlier{stroke:var(--ink);stroke-width:2.2;"
	"stroke-dasharray:4 2}"
	".hatch-bg{fill:#f4e3c1}.hatch{stroke:var(--warn);stroke-width:2}"
	".ci,.key-ci{stroke:var(--ink);stroke-width:1.4;fill:none}"
	".run,.key-run{fill:var(--ink);stroke:none;opacity:.8}"
	".run.first,.key-run.first{fill:#fff;stroke:var(--bad);stroke-width:1.5;"
	"opacity:1}"
	".key-bar{fill:#8fb8de;stroke:rgba(0,0,0,.35)}"
	".mark{font-size:13px;font-weight:700}"
	".mark.mismatch{fill:var(--warn)}.mark.worse{fill:var(--bad)}"
	"text.mark.outlier{font-size:9px}span.mark.outlier{font-size:.8em}"
	"ul.legend{list-style:none;padding:0;margin:.3rem 0 0;display:flex;"
	"flex-wrap:wrap;gap:.2rem 1.1rem;font-size:.82rem;color:var(--muted)}"
	"ul.legend li{display:flex;align-items:center;gap:.3rem}"
	"table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.88rem;"
	"width:100%}"
	"th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid "
	"var(--line);vertical-align:top}"
	"th{border-bottom:2px solid var(--ink);font-weight:600}"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}"
	"tr.not-shown td{color:var(--muted)}"
	"table.values{width:auto}table.values td{padding-left:1.2rem}"
	"table.values tbody th{font-weight:600;border-bottom:1px solid var(--line)}"
	"caption{text-align:left;font-size:.82rem;color:var(--muted)}"
	"span.muted{font-size:.8em}table.values td{white-space:nowrap}"
	"td.yes{color:var(--good);font-weight:600}"
	".tables{display:flex;flex-wrap:wrap;gap:1rem}"
	".tables div{flex:1 1 22rem;min-width:0;overflow-x:auto}"
	"section.workload{margin-top:1.5rem}"
	"footer{margin-top:3rem;font-size:.8rem;color:var(--muted)}"
	"@media (max-width:40rem){body{padding:.6rem;font-size:14px}"
	"table.comparisons td:nth-child(2),table.comparisons th:nth-child(2),"
	"table.comparisons td:nth-child(3),table.comparisons th:nth-child(3)"
	"{display:none}"
	"th,td{padding:.2rem .3rem}}"
	"@media print{@page{margin:15mm}"
	"body{max-width:none;padding:0;font-size:10.5pt;color:#000;"
	"background:#fff}"
	"*{print-color-adjust:exact;-webkit-print-color-adjust:exact}"
	"section.answers li{background:none;border-left:3px solid #000}"
	".host{border-color:#000;break-inside:avoid}"
	"section.workload{break-before:page}"
	"figure,tr{break-inside:avoid}"
	"h2,h3,figcaption{break-after:avoid}"
	".scroll{overflow:visible}"
	"svg.chart{min-width:0!important;max-width:100%!important}"
	"p.method,.muted,dt,.tick,.unit,.val,ul.legend,tr.not-shown td"
	"{color:#333;fill:#333}}";

char *report_html_clean(const char *s)
{
	size_t n = strlen(s);
	/* U+FFFD takes 3 bytes in place of one. */
	char *out = malloc(3 * n + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int len = xmlUTF8Size(p);
		bool bad = len < 1 || xmlGetUTF8Char(p, &len) < 0 ||
			   (*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f;
		if (bad) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
			continue;
		}
		memcpy(o, p, (size_t)len);
		o += len;
		p += len;
	}
	*o = '\0';
	return out;
}

int report_html_text(xmlTextWriterPtr w, const char *s)
{
	_cleanup_free_ char *clean = report_html_clean(s ? s : "");

	if (!clean)
		return -1;
	return xmlTextWriterWriteString(w, BAD_CAST clean);
}

int report_html_element(xmlTextWriterPtr w, const char *name,
			const char *class, const char *text)
{
	if (xmlwrite_start(w, name) < 0 || (class && xmlwrite_attr(w, "class", class) < 0) ||
	    report_html_text(w, text) < 0)
		return -1;
	return xmlwrite_end_full(w);
}

/* The value of member KEY of O as text: strings as they are, numbers and
 * booleans as JSON prints them, NULL for null or absent. */
static const char *value_text(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static int dl_item(xmlTextWriterPtr w, const char *term, const char *value,
		   const char *class)
{
	XW(report_html_element(w, "dt", NULL, term));
	if (!value)
		XW(report_html_element(w, "dd", "unknown", "unknown"));
	else
		XW(report_html_element(w, "dd", class, value));
	return 0;
}

/* The host's sweep efficiency (docs/report.md), "unknown" without
 * timings.json. */
static int write_efficiency(xmlTextWriterPtr w, json_object *host)
{
	json_object *e = NULL;
	double ratio, measured, wall;
	char buf[96];

	if (!json_object_object_get_ex(host, "efficiency", &e) || !e ||
	    !jsonget_number(e, "ratio", &ratio) ||
	    !jsonget_number(e, "measured_seconds", &measured) ||
	    !jsonget_number(e, "wall_seconds", &wall))
		return dl_item(w, "sweep efficiency", NULL, NULL);
	snprintf(buf, sizeof(buf), "%.2f (%.0f s measuring in %.0f s of wall time)", ratio,
		 measured, wall);
	return dl_item(w, "sweep efficiency", buf, NULL);
}

static void format_bytes(double v, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	unsigned u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static int write_disk(xmlTextWriterPtr w, json_object *disk)
{
	char buf[256];
	double v;

	if (!disk || !json_object_is_type(disk, json_type_object))
		return dl_item(w, "disk under test", "none (a directory target)",
			       "unknown");
	snprintf(buf, sizeof(buf), "%s%s%s", value_text(disk, "model") ?: "unknown model",
		 value_text(disk, "name") ? " /dev/" : "", value_text(disk, "name") ?: "");
	XW(dl_item(w, "disk under test", buf, NULL));
	XW(dl_item(w, "disk firmware", value_text(disk, "firmware"), NULL));
	XW(dl_item(w, "disk serial", value_text(disk, "serial"), "hash"));
	XW(dl_item(w, "disk WWID", value_text(disk, "wwid"), "hash"));
	const char *size = NULL;
	if (jsonget_number(disk, "size_bytes", &v) && isfinite(v)) {
		format_bytes(v, buf, sizeof(buf));
		size = buf;
	}
	XW(dl_item(w, "disk size", size, NULL));
	bool rot;
	XW(dl_item(w, "rotational",
		  jsonget_bool(disk, "rotational", &rot) ? (rot ? "yes (HDD)" : "no (SSD/NVMe)")
							 : NULL,
		  NULL));
	const char *ls = value_text(disk, "logical_sector_bytes");
	const char *ps = value_text(disk, "physical_sector_bytes");
	snprintf(buf, sizeof(buf), "%s B logical, %s B physical", ls ?: "?", ps ?: "?");
	XW(dl_item(w, "sectors", ls || ps ? buf : NULL, NULL));
	const char *req = value_text(disk, "write_cache_requested");
	const char *back = value_text(disk, "write_cache_read_back");
	snprintf(buf, sizeof(buf), "set %s, read back %s", req ?: "(not set)",
		 back ?: "unknown");
	bool differs = req && back && strcmp(req, "keep") != 0 && strcmp(req, back) != 0;
	return dl_item(w, "write cache", buf, differs ? "differs" : NULL);
}

static int write_host_info(xmlTextWriterPtr w, json_object *info)
{
	char buf[256];
	double v;

	snprintf(buf, sizeof(buf), "%s \u00d7 %s", value_text(info, "cpu_model") ?: "unknown CPU",
		 value_text(info, "cpus") ?: "?");
	XW(dl_item(w, "CPU", buf, NULL));
	const char *mem = NULL;
	if (jsonget_number(info, "memory_bytes", &v) && isfinite(v)) {
		format_bytes(v, buf, sizeof(buf));
		mem = buf;
	}
	XW(dl_item(w, "memory", mem, NULL));
	json_object *disk = NULL;
	json_object_object_get_ex(info, "disk", &disk);
	XW(write_disk(w, disk));
	XW(dl_item(w, "kernel", value_text(info, "kernel"), NULL));
	XW(dl_item(w, "QEMU", value_text(info, "qemu_version"), NULL));
	XW(dl_item(w, "libvirt", value_text(info, "libvirt_version"), NULL));
	const char *accel = value_text(info, "accel");
	XW(dl_item(w, "accelerator",
		  !accel ? NULL
		  : strcmp(accel, "kvm") == 0 ? "KVM"
		  : strcmp(accel, "tcg") == 0 ? "TCG (emulated: not a disk benchmark)"
					      : accel,
		  accel && strcmp(accel, "tcg") == 0 ? "differs" : NULL));
	XW(dl_item(w, "firmware", value_text(info, "firmware"), NULL));
	json_object *kit = NULL, *plan = NULL;
	json_object_object_get_ex(info, "kit", &kit);
	json_object_object_get_ex(info, "plan", &plan);
	XW(dl_item(w, "kit", kit ? value_text(kit, "profile") : "none (buildapp run)",
		  kit ? NULL : "unknown"));
	if (kit)
		XW(dl_item(w, "kit sha256", value_text(kit, "sha256"), "hash"));
	XW(dl_item(w, "plan seed", value_text(plan, "seed"), NULL));
	XW(dl_item(w, "plan sha256", value_text(plan, "sha256"), "hash"));
	return dl_item(w, "started", value_text(info, "started"), NULL);
}

static int write_hosts(xmlTextWriterPtr w, json_object *hosts)
{
	char buf[128];

	XW(xmlwrite_start(w, "section"));
	XW(report_html_element(w, "h2", NULL,
			      json_object_array_length(hosts) > 1 ? "Hosts" : "Host"));
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "hosts"));
	for (size_t i = 0; i < json_object_array_length(hosts); i++) {
		json_object *h = json_object_array_get_idx(hosts, i), *info = NULL;
		XW(xmlwrite_start(w, "div"));
		XW(xmlwrite_attr(w, "class", "host"));
		const char *label = jsonget_string(h, "label");
		XW(report_html_element(w, "h3", NULL, label ? label : "host"));
		XW(xmlwrite_start(w, "dl"));
		XW(dl_item(w, "bundle", jsonget_string(h, "source"), "hash"));
		unsigned runs = 0, failed = 0;
		jsonget_uint(h, "runs", &runs);
		jsonget_uint(h, "failed", &failed);
		snprintf(buf, sizeof(buf), "%u, %u failed", runs, failed);
		XW(dl_item(w, "runs", buf, failed ? "differs" : NULL));
		XW(write_efficiency(w, h));
		if (json_object_object_get_ex(h, "info", &info) && info &&
		    json_object_is_type(info, json_type_object))
			XW(write_host_info(w, info));
		else
			XW(dl_item(w, "host", "no host.json in this bundle", "unknown"));
		XW(xmlwrite_end_full(w));
		XW(xmlwrite_end_full(w));
	}
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

/* A table from COLUMNS (header texts) and ROWS, an array of arrays whose
 * items print as JSON values (strings as they are). */
static int write_json_table(xmlTextWriterPtr w, json_object *columns,
			    json_object *rows)
{
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "scroll"));
	XW(xmlwrite_start(w, "table"));
	XW(xmlwrite_start(w, "thead"));
	XW(xmlwrite_start(w, "tr"));
	for (size_t i = 0; columns && i < json_object_array_length(columns); i++)
		XW(report_html_element(w, "th", NULL,
				      json_object_get_string(json_object_array_get_idx(columns, i))));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_start(w, "tbody"));
	for (size_t r = 0; rows && r < json_object_array_length(rows); r++) {
		json_object *row = json_object_array_get_idx(rows, r);
		XW(xmlwrite_start(w, "tr"));
		for (size_t i = 0; json_object_is_type(row, json_type_array) &&
				   i < json_object_array_length(row);
		     i++) {
			json_object *v = json_object_array_get_idx(row, i);
			XW(report_html_element(w, "td",
					      json_object_is_type(v, json_type_double) ||
							      json_object_is_type(v, json_type_int)
						      ? "num"
						      : NULL,
					      v ? json_object_get_string(v) : ""));
		}
		XW(xmlwrite_end_full(w));
	}
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

/* Starts a table of class CLASS (or none) with a fixed header: the texts
 * of HEADS, NULL-ended.  In a box that scrolls on a narrow screen. */
static int table_start(xmlTextWriterPtr w, const char *class,
		       const char *const *heads)
{
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "scroll"));
	XW(xmlwrite_start(w, "table"));
	if (class)
		XW(xmlwrite_attr(w, "class", class));
	XW(xmlwrite_start(w, "thead"));
	XW(xmlwrite_start(w, "tr"));
	for (; *heads; heads++)
		XW(report_html_element(w, "th", NULL, *heads));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_start(w, "tbody"));
	return 0;
}

static int table_end(xmlTextWriterPtr w)
{
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

static void percent(double ratio, char *buf, size_t len)
{
	double p = (ratio - 1) * 100;

	if (!isfinite(p))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, fabs(p) < 10 ? "%+.1f%%" : "%+.0f%%", p);
}

/* The ratio of O ("ratio", "ratio_low", "ratio_high") as a change in
 * percent and its interval: two cells. */
static int write_ratio_cells(xmlTextWriterPtr w, json_object *o)
{
	double r = NAN, rl = NAN, rh = NAN;
	char buf[96], lo[32], hi[32];

	jsonget_number(o, "ratio", &r);
	jsonget_number(o, "ratio_low", &rl);
	jsonget_number(o, "ratio_high", &rh);
	percent(r, buf, sizeof(buf));
	XW(report_html_element(w, "td", "num", buf));
	percent(rl, lo, sizeof(lo));
	percent(rh, hi, sizeof(hi));
	snprintf(buf, sizeof(buf), "[%s, %s]", lo, hi);
	XW(report_html_element(w, "td", "num", buf));
	return 0;
}

static int write_comparisons(xmlTextWriterPtr w, json_object *cmps)
{
	static const char *const heads[] = {"comparison", "ratio", "95% interval",
					    "n", "difference", NULL};
	char buf[640];

	if (!cmps || json_object_array_length(cmps) == 0)
		return 0;
	XW(table_start(w, "comparisons", heads));
	for (size_t i = 0; i < json_object_array_length(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i);
		bool shown = false, pooled = false, measured = true;
		unsigned nl = 0, nr = 0;
		jsonget_bool(c, "shown", &shown);
		jsonget_bool(c, "pooled", &pooled);
		jsonget_bool(c, "measured", &measured);
		jsonget_uint(c, "n_level", &nl);
		jsonget_uint(c, "n_reference", &nr);
		XW(xmlwrite_start(w, "tr"));
		XW(xmlwrite_attr(w, "class", shown ? "shown" : "not-shown"));
		snprintf(buf, sizeof(buf), "%s%s", jsonget_string(c, "sentence") ?: "",
			 pooled ? " (pooled)" : "");
		XW(report_html_element(w, "td", NULL, buf));
		if (measured) {
			XW(write_ratio_cells(w, c));
		} else {
			XW(report_html_element(w, "td", "num", "\u2013"));
			XW(report_html_element(w, "td", "num", "\u2013"));
		}
		snprintf(buf, sizeof(buf), "%u / %u", nl, nr);
		XW(report_html_element(w, "td", "num", buf));
		XW(report_html_element(w, "td", shown ? "yes" : NULL,
				      shown ? "shown" : measured ? "none shown" : "not measured"));
		XW(xmlwrite_end_full(w));
	}
	return table_end(w);
}

static int write_metric(xmlTextWriterPtr w, const char *workload,
			json_object *metric, unsigned *chart)
{
	const char *name = jsonget_string(metric, "name") ?: "?";
	const char *unit = jsonget_string(metric, "unit") ?: "";
	const char *better = jsonget_string(metric, "better");
	char buf[256];

	XW(xmlwrite_start(w, "figure"));
	XW(xmlwrite_start(w, "figcaption"));
	snprintf(buf, sizeof(buf), "%s: %s%s%s%s ", workload, name, *unit ? " (" : "",
		 unit, *unit ? ")" : "");
	XW(report_html_text(w, buf));
	snprintf(buf, sizeof(buf), "%s is better",
		 better && strcmp(better, "lower") == 0 ? "lower" : "higher");
	XW(report_html_element(w, "span", "better", better ? buf : ""));
	XW(xmlwrite_end_full(w));
	XW(report_chart_write(w, metric, (*chart)++));
	XW(xmlwrite_end_full(w));
	XW(report_chart_values(w, metric));
	return write_comparisons(w, report_html_array(metric, "comparisons"));
}

static int write_workloads(xmlTextWriterPtr w, json_object *workloads)
{
	unsigned chart = 0;

	for (size_t i = 0; i < json_object_array_length(workloads); i++) {
		json_object *wl = json_object_array_get_idx(workloads, i);
		json_object *metrics = report_html_array(wl, "metrics");
		const char *name = jsonget_string(wl, "workload") ?: "?";
		XW(xmlwrite_start(w, "section"));
		XW(xmlwrite_attr(w, "class", "workload"));
		XW(report_html_element(w, "h2", NULL, name));
		for (size_t m = 0; metrics && m < json_object_array_length(metrics); m++)
			XW(write_metric(w, name, json_object_array_get_idx(metrics, m), &chart));
		XW(xmlwrite_end_full(w));
	}
	return 0;
}

static int write_failures(xmlTextWriterPtr w, json_object *failures)
{
	static const char *const heads[] = {"host", "cell", "run", "status",
					    "message", "console log", NULL};

	XW(xmlwrite_start(w, "section"));
	XW(report_html_element(w, "h2", NULL, "Failed and timed-out runs"));
	if (!failures || json_object_array_length(failures) == 0) {
		XW(report_html_element(w, "p", "muted", "None: every run ended normally."));
		return xmlwrite_end_full(w) < 0 ? -EIO : 0;
	}
	XW(table_start(w, NULL, heads));
	for (size_t i = 0; i < json_object_array_length(failures); i++) {
		json_object *f = json_object_array_get_idx(failures, i);
		XW(xmlwrite_start(w, "tr"));
		XW(report_html_element(w, "td", NULL, value_text(f, "host") ?: ""));
		XW(report_html_element(w, "td", "hash", value_text(f, "cell") ?: ""));
		XW(report_html_element(w, "td", "num", value_text(f, "index") ?: ""));
		XW(report_html_element(w, "td", "differs", value_text(f, "status") ?: ""));
		XW(report_html_element(w, "td", NULL, value_text(f, "message") ?: ""));
		XW(report_html_element(w, "td", "hash", value_text(f, "console_log") ?: ""));
		XW(xmlwrite_end_full(w));
	}
	XW(table_end(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_plan_differences(xmlTextWriterPtr w, json_object *diffs)
{
	static const char *const heads[] = {"host", "key", "its value",
					    "the reference host's", NULL};

	if (!diffs || json_object_array_length(diffs) == 0)
		return 0;
	XW(xmlwrite_start(w, "section"));
	XW(report_html_element(w, "h2", NULL, "Plan differences between hosts"));
	XW(report_html_element(w, "p", "muted",
			      "Only what the plans have in common is compared."));
	XW(table_start(w, NULL, heads));
	for (size_t i = 0; i < json_object_array_length(diffs); i++) {
		json_object *d = json_object_array_get_idx(diffs, i);
		XW(xmlwrite_start(w, "tr"));
		XW(report_html_element(w, "td", NULL, value_text(d, "host") ?: ""));
		XW(report_html_element(w, "td", "hash", value_text(d, "key") ?: ""));
		XW(report_html_element(w, "td", NULL, value_text(d, "value") ?: "(none)"));
		XW(report_html_element(w, "td", NULL,
				      value_text(d, "reference_value") ?: "(none)"));
		XW(xmlwrite_end_full(w));
	}
	XW(table_end(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_baseline(xmlTextWriterPtr w, json_object *baseline)
{
	static const char *const heads[] = {"host", "cell", "metric", "ratio",
					    "95% interval", NULL};
	json_object *worse = report_html_array(baseline, "worse");
	char buf[128];

	if (!baseline || !json_object_is_type(baseline, json_type_object))
		return 0;
	XW(xmlwrite_start(w, "section"));
	XW(report_html_element(w, "h2", NULL, "Baseline check"));
	snprintf(buf, sizeof(buf), "Against the bundle %s: ",
		 value_text(baseline, "source") ?: "?");
	XW(xmlwrite_start(w, "p"));
	XW(report_html_text(w, buf));
	size_t n = worse ? json_object_array_length(worse) : 0;
	snprintf(buf, sizeof(buf), n ? "%zu significantly worse" : "no cell significantly worse",
		 n);
	XW(report_html_element(w, "strong", n ? "differs" : NULL, buf));
	XW(xmlwrite_end_full(w));
	if (n) {
		XW(table_start(w, NULL, heads));
		for (size_t i = 0; i < n; i++) {
			json_object *o = json_object_array_get_idx(worse, i);
			XW(xmlwrite_start(w, "tr"));
			XW(report_html_element(w, "td", NULL, value_text(o, "host") ?: ""));
			XW(report_html_element(w, "td", "hash", value_text(o, "cell") ?: ""));
			XW(report_html_element(w, "td", NULL, value_text(o, "metric") ?: ""));
			XW(write_ratio_cells(w, o));
			XW(xmlwrite_end_full(w));
		}
		XW(table_end(w));
	}
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_side(xmlTextWriterPtr w, const char *title, json_object *t)
{
	XW(xmlwrite_start(w, "div"));
	XW(report_html_element(w, "h4", NULL, title));
	XW(write_json_table(w, report_html_array(t, "columns"), report_html_array(t, "rows")));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_references(xmlTextWriterPtr w, json_object *refs)
{
	if (!refs || json_object_array_length(refs) == 0)
		return 0;
	XW(xmlwrite_start(w, "section"));
	XW(xmlwrite_attr(w, "class", "workload"));
	XW(report_html_element(w, "h2", NULL, "The studies side by side"));
	for (size_t i = 0; i < json_object_array_length(refs); i++) {
		json_object *r = json_object_array_get_idx(refs, i), *t;
		XW(report_html_element(w, "h3", NULL,
				      jsonget_string(r, "title") ?: jsonget_string(r, "study")));
		XW(report_html_element(w, "p", "muted", jsonget_string(r, "source") ?: ""));
		XW(xmlwrite_start(w, "div"));
		XW(xmlwrite_attr(w, "class", "tables"));
		XW(write_side(w, "published",
			     json_object_object_get_ex(r, "published", &t) ? t : NULL));
		XW(write_side(w, "measured here",
			     json_object_object_get_ex(r, "measured", &t) ? t : NULL));
		XW(xmlwrite_end_full(w));
		json_object *notes = report_html_array(r, "notes");
		if (notes && json_object_array_length(notes)) {
			XW(xmlwrite_start(w, "ul"));
			for (size_t k = 0; k < json_object_array_length(notes); k++)
				XW(report_html_element(w, "li", "muted",
						      json_object_get_string(
							      json_object_array_get_idx(notes, k))));
			XW(xmlwrite_end_full(w));
		}
	}
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_answers(xmlTextWriterPtr w, json_object *headlines)
{
	XW(xmlwrite_start(w, "section"));
	XW(xmlwrite_attr(w, "class", "answers"));
	XW(report_html_element(w, "h2", NULL, "Answers"));
	XW(xmlwrite_start(w, "ul"));
	size_t n = headlines ? json_object_array_length(headlines) : 0;
	for (size_t i = 0; i < n; i++)
		XW(report_html_element(w, "li", NULL,
				      json_object_get_string(json_object_array_get_idx(headlines, i))));
	if (n == 0)
		XW(report_html_element(w, "li", "none",
				      "No comparison: the sweep varied no axis with runs on both sides."));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_head(xmlTextWriterPtr w, const char *title)
{
	char buf[256];

	XW(xmlwrite_start(w, "head"));
	XW(xmlwrite_start(w, "meta"));
	XW(xmlwrite_attr(w, "charset", "utf-8"));
	XW(xmlwrite_end(w)); /* void elements: <meta .../> is valid HTML5 */
	XW(xmlwrite_start(w, "meta"));
	XW(xmlwrite_attr(w, "name", "viewport"));
	XW(xmlwrite_attr(w, "content", "width=device-width, initial-scale=1"));
	XW(xmlwrite_end(w));
	snprintf(buf, sizeof(buf), "%s: buildapp report", title);
	XW(report_html_element(w, "title", NULL, buf));
	XW(report_html_element(w, "style", NULL, css));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_page(xmlTextWriterPtr w, json_object *report)
{
	const char *title = jsonget_string(report, "title") ?: "sweep";
	json_object *hosts = report_html_array(report, "hosts"), *baseline = NULL;

	XW(xmlTextWriterWriteDTD(w, BAD_CAST "html", NULL, NULL, NULL));
	XW(xmlTextWriterWriteString(w, BAD_CAST "\n"));
	XW(xmlwrite_start(w, "html"));
	XW(xmlwrite_attr(w, "lang", "en"));
	XW(write_head(w, title));
	XW(xmlwrite_start(w, "body"));
	XW(xmlwrite_start(w, "header"));
	XW(report_html_element(w, "h1", NULL, title));
	XW(report_html_element(w, "p", "method", jsonget_string(report, "method") ?: ""));
	XW(xmlwrite_end_full(w));
	XW(write_answers(w, report_html_array(report, "headlines")));
	if (json_object_object_get_ex(report, "baseline", &baseline))
		XW(write_baseline(w, baseline));
	if (hosts)
		XW(write_hosts(w, hosts));
	XW(write_workloads(w, report_html_array(report, "workloads")));
	XW(write_failures(w, report_html_array(report, "failures")));
	XW(write_plan_differences(w, report_html_array(report, "plan_differences")));
	XW(write_references(w, report_html_array(report, "references")));
	XW(report_html_element(w, "footer", NULL,
			      "Made by buildapp report from the journals of the bundles "
			      "above; report.json holds the same numbers."));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlTextWriterWriteString(w, BAD_CAST "\n"));
	return 0;
}

int report_html_write(json_object *report, FILE *f)
{
	const char *format = jsonget_string(report, "format");
	unsigned version = 0;

	if (!format || strcmp(format, "buildapp-report") != 0 ||
	    !jsonget_uint(report, "version", &version) || version != 1 ||
	    !report_html_array(report, "workloads"))
		return -EINVAL;
	xmlOutputBufferPtr out = xmlOutputBufferCreateFile(f, NULL);
	if (!out)
		return -ENOMEM;
	/* The writer owns OUT from here; closing it flushes F, not closes it. */
	_cleanup_(xmlFreeTextWriterp) xmlTextWriterPtr w = xmlNewTextWriter(out);
	if (!w) {
		xmlOutputBufferClose(out);
		return -ENOMEM;
	}
	int r = write_page(w, report);
	if (r < 0)
		return r;
	if (xmlTextWriterFlush(w) < 0 || fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}
