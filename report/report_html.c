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
#include "report.h"
#include "htmltext.h"
#include "report_chart.h"
#include "report_loss_html.h"
#include "summary.h"

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
	/* report_axischart.c: a line per series, its points, its band */
	".series .band{opacity:.3;stroke:none}"
	".series .line{fill:none;stroke-width:2}"
	".series .point{stroke:#fff;stroke-width:1}"
	".series-name{font-size:11px}"
	".series.c0 .line,.series.c0 .point{stroke:#3d74ab}"
	".series.c1 .line,.series.c1 .point{stroke:#c7771f}"
	".series.c2 .line,.series.c2 .point{stroke:#2f8f65}"
	".series.c3 .line,.series.c3 .point{stroke:#b8434c}"
	".series.c4 .line,.series.c4 .point{stroke:#7a58a6}"
	".series.c5 .line,.series.c5 .point{stroke:#8f7f1f}"
	".series.c6 .line,.series.c6 .point{stroke:#2a8aab}"
	".series.c7 .line,.series.c7 .point{stroke:#777}"
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
	"table.crashes tbody th{font-weight:600;background:var(--soft)}"
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

/* The value of member KEY of O (host.json's, a study's table) as text:
 * strings as they are, numbers and booleans as JSON prints them, NULL
 * for null or absent. */
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
	XW(htmltext_element(w, "dt", NULL, term));
	if (!value)
		XW(htmltext_element(w, "dd", "unknown", "unknown"));
	else
		XW(htmltext_element(w, "dd", class, value));
	return 0;
}

/* The host's sweep efficiency (docs/report.md), "unknown" without
 * timings.json. */
static int write_efficiency(xmlTextWriterPtr w, const struct model_host *host)
{
	const struct model_efficiency *e = &host->efficiency;
	char buf[96];

	if (!host->has_efficiency)
		return dl_item(w, "sweep efficiency", NULL, NULL);
	snprintf(buf, sizeof(buf), "%.2f (%.0f s measuring in %.0f s of wall time)", e->ratio,
		 e->measured_seconds, e->wall_seconds);
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

/* INFO is host.json as the host wrote it (hostjson.h), kept as read. */
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
	/* Absent from bundles made before host.json carried them. */
	json_object *sb = NULL;
	if (json_object_object_get_ex(info, "secure_boot", &sb)) {
		char text[96];
		const char *lockdown = value_text(info, "lockdown");
		snprintf(text, sizeof(text), "%s (kernel lockdown: %s)",
			 !sb ? "unknown" : json_object_get_boolean(sb) ? "on" : "off",
			 lockdown ? lockdown : "unknown");
		XW(dl_item(w, "Secure Boot", text, NULL));
	}
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

static int write_hosts(xmlTextWriterPtr w, const struct model *mo)
{
	char buf[128];

	XW(xmlwrite_start(w, "section"));
	XW(htmltext_element(w, "h2", NULL, mo->n_hosts > 1 ? "Hosts" : "Host"));
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "hosts"));
	for (size_t i = 0; i < mo->n_hosts; i++) {
		const struct model_host *h = &mo->hosts[i];
		XW(xmlwrite_start(w, "div"));
		XW(xmlwrite_attr(w, "class", "host"));
		XW(htmltext_element(w, "h3", NULL, h->label ? h->label : "host"));
		XW(xmlwrite_start(w, "dl"));
		XW(dl_item(w, "bundle", h->source, "hash"));
		if (h->planned)
			snprintf(buf, sizeof(buf), "%u (plan: %u), %u failed", h->runs,
				 h->planned, h->failed);
		else
			snprintf(buf, sizeof(buf), "%u, %u failed", h->runs, h->failed);
		XW(dl_item(w, "runs", buf,
			   h->failed || report_host_unfinished(h, NULL, 0) ? "differs" : NULL));
		XW(write_efficiency(w, h));
		if (h->info && json_object_is_type(h->info, json_type_object))
			XW(write_host_info(w, h->info));
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
		XW(htmltext_element(w, "th", NULL,
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
			XW(htmltext_element(w, "td",
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

static void percent(double ratio, char *buf, size_t len)
{
	double p = (ratio - 1) * 100;

	if (!isfinite(p))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, fabs(p) < 10 ? "%+.1f%%" : "%+.0f%%", p);
}

/* RATIO as a change in percent and its interval: two cells. */
static int write_ratio_cells(xmlTextWriterPtr w, const struct model_ratio *ratio)
{
	char buf[96], lo[32], hi[32];

	percent(ratio->ratio, buf, sizeof(buf));
	XW(htmltext_element(w, "td", "num", buf));
	if (isnan(ratio->low)) {
		XW(htmltext_element(w, "td", "num", "none"));
		return 0;
	}
	percent(ratio->low, lo, sizeof(lo));
	percent(ratio->high, hi, sizeof(hi));
	snprintf(buf, sizeof(buf), "[%s, %s]", lo, hi);
	XW(htmltext_element(w, "td", "num", buf));
	return 0;
}

static int write_comparisons(xmlTextWriterPtr w, const struct model_metric *m)
{
	static const char *const heads[] = {"comparison", "ratio", "95% interval",
					    "n", "difference", NULL};
	char buf[640];

	if (m->n_comparisons == 0)
		return 0;
	XW(htmltext_table_start(w, "comparisons", heads));
	for (size_t i = 0; i < m->n_comparisons; i++) {
		const struct model_comparison *c = &m->comparisons[i];
		bool shown = c->shown, measured = !c->unmeasured;
		unsigned nl = c->n_level, nr = c->n_reference;
		XW(xmlwrite_start(w, "tr"));
		XW(xmlwrite_attr(w, "class", shown ? "shown" : "not-shown"));
		snprintf(buf, sizeof(buf), "%s%s", c->sentence ?: "",
			 c->pooled ? " (pooled)" : "");
		XW(htmltext_element(w, "td", NULL, buf));
		if (measured) {
			XW(write_ratio_cells(w, &c->r));
		} else {
			XW(htmltext_element(w, "td", "num", "\u2013"));
			XW(htmltext_element(w, "td", "num", "\u2013"));
		}
		snprintf(buf, sizeof(buf), "%u / %u", nl, nr);
		XW(htmltext_element(w, "td", "num", buf));
		XW(htmltext_element(w, "td", shown ? "yes" : NULL,
				    shown ? "shown" : !measured ? "not measured"
						    : c->no_spread ? "runs did not vary"
						    : c->disagree  ? "settings disagree"
								   : "none shown"));
		XW(xmlwrite_end_full(w));
	}
	return htmltext_table_end(w);
}

static int write_metric(xmlTextWriterPtr w, const char *workload,
			const struct model_metric *metric, unsigned *chart)
{
	const char *name = metric->name ?: "?";
	const char *unit = metric->unit ?: "";
	const char *better = metric->lower_is_better ? "lower" : "higher";
	char buf[256];

	if (report_loss_html_wanted(metric))
		return report_loss_html_write(w, workload, metric, (*chart)++);

	XW(xmlwrite_start(w, "figure"));
	XW(xmlwrite_start(w, "figcaption"));
	snprintf(buf, sizeof(buf), "%s: %s%s%s%s ", workload, name, *unit ? " (" : "",
		 unit, *unit ? ")" : "");
	XW(htmltext_text(w, buf));
	snprintf(buf, sizeof(buf), "%s is better", better);
	XW(htmltext_element(w, "span", "better", buf));
	XW(xmlwrite_end_full(w));
	XW(report_chart_write(w, metric, (*chart)++,
			      summary_unit_records(metric->unit) ? REPORT_CHART_COUNTS
								 : REPORT_CHART_RUNS));
	XW(report_axischart_write(w, metric));
	XW(xmlwrite_end_full(w));
	XW(report_chart_values(w, metric));
	return write_comparisons(w, metric);
}

static int write_workloads(xmlTextWriterPtr w, const struct model *mo)
{
	unsigned chart = 0;

	for (size_t i = 0; i < mo->n_workloads; i++) {
		const struct model_workload *wl = &mo->workloads[i];
		const char *name = wl->name ?: "?";
		XW(xmlwrite_start(w, "section"));
		XW(xmlwrite_attr(w, "class", "workload"));
		XW(htmltext_element(w, "h2", NULL, name));
		for (size_t m = 0; m < wl->n_metrics; m++)
			XW(write_metric(w, name, &wl->metrics[m], &chart));
		XW(xmlwrite_end_full(w));
	}
	return 0;
}

static int write_failures(xmlTextWriterPtr w, const struct model *mo)
{
	static const char *const heads[] = {"host", "cell", "run", "status",
					    "message", "console log", NULL};
	char index[16];

	XW(xmlwrite_start(w, "section"));
	XW(htmltext_element(w, "h2", NULL, "Failed and timed-out runs"));
	if (mo->n_failures == 0) {
		XW(htmltext_element(w, "p", "muted", "None: every run ended normally."));
		return xmlwrite_end_full(w) < 0 ? -EIO : 0;
	}
	XW(htmltext_table_start(w, NULL, heads));
	for (size_t i = 0; i < mo->n_failures; i++) {
		const struct model_failure *f = &mo->failures[i];
		snprintf(index, sizeof(index), "%u", f->index);
		XW(xmlwrite_start(w, "tr"));
		XW(htmltext_element(w, "td", NULL, f->host ?: ""));
		XW(htmltext_element(w, "td", "hash", f->cell ?: ""));
		XW(htmltext_element(w, "td", "num", index));
		XW(htmltext_element(w, "td", "differs", f->status ?: ""));
		XW(htmltext_element(w, "td", NULL, f->message ?: ""));
		XW(htmltext_element(w, "td", "hash", f->console_log ?: ""));
		XW(xmlwrite_end_full(w));
	}
	XW(htmltext_table_end(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_plan_differences(xmlTextWriterPtr w, const struct model *mo)
{
	static const char *const heads[] = {"host", "key", "its value",
					    "the reference host's", NULL};

	if (mo->n_plan_differences == 0)
		return 0;
	XW(xmlwrite_start(w, "section"));
	XW(htmltext_element(w, "h2", NULL, "Plan differences between hosts"));
	XW(htmltext_element(w, "p", "muted",
			      "Only what the plans have in common is compared."));
	XW(htmltext_table_start(w, NULL, heads));
	for (size_t i = 0; i < mo->n_plan_differences; i++) {
		const struct model_plan_difference *d = &mo->plan_differences[i];
		XW(xmlwrite_start(w, "tr"));
		XW(htmltext_element(w, "td", NULL, d->host ?: ""));
		XW(htmltext_element(w, "td", "hash", d->key ?: ""));
		XW(htmltext_element(w, "td", NULL, d->value ?: "(none)"));
		XW(htmltext_element(w, "td", NULL, d->reference_value ?: "(none)"));
		XW(xmlwrite_end_full(w));
	}
	XW(htmltext_table_end(w));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_baseline(xmlTextWriterPtr w, const struct model *mo)
{
	static const char *const heads[] = {"host", "cell", "metric", "ratio",
					    "95% interval", NULL};
	char buf[128];

	if (!mo->has_baseline)
		return 0;
	XW(xmlwrite_start(w, "section"));
	XW(htmltext_element(w, "h2", NULL, "Baseline check"));
	snprintf(buf, sizeof(buf), "Against the bundle %s: ",
		 mo->baseline_source ?: "?");
	XW(xmlwrite_start(w, "p"));
	XW(htmltext_text(w, buf));
	size_t n = mo->n_worse;
	snprintf(buf, sizeof(buf), n ? "%zu significantly worse" : "no cell significantly worse",
		 n);
	XW(htmltext_element(w, "strong", n ? "differs" : NULL, buf));
	XW(xmlwrite_end_full(w));
	if (n) {
		XW(htmltext_table_start(w, NULL, heads));
		for (size_t i = 0; i < n; i++) {
			const struct model_worse *o = &mo->worse[i];
			XW(xmlwrite_start(w, "tr"));
			XW(htmltext_element(w, "td", NULL, o->host ?: ""));
			XW(htmltext_element(w, "td", "hash", o->cell ?: ""));
			XW(htmltext_element(w, "td", NULL, o->metric ?: ""));
			XW(write_ratio_cells(w, &o->r));
			XW(xmlwrite_end_full(w));
		}
		XW(htmltext_table_end(w));
	}
	XW(xmlwrite_end_full(w));
	return 0;
}

/* The array member KEY of O, or NULL. */
static json_object *array_of(json_object *o, const char *key)
{
	json_object *a;

	if (!o || !json_object_object_get_ex(o, key, &a) ||
	    !json_object_is_type(a, json_type_array))
		return NULL;
	return a;
}

static int write_side(xmlTextWriterPtr w, const char *title, json_object *t)
{
	XW(xmlwrite_start(w, "div"));
	XW(htmltext_element(w, "h4", NULL, title));
	XW(write_json_table(w, array_of(t, "columns"), array_of(t, "rows")));
	XW(xmlwrite_end_full(w));
	return 0;
}

/* The verdict on each of a study's claims (claims.h): the claim, the
 * verdict, and the comparisons it rests on. */
static int write_verdicts(xmlTextWriterPtr w, json_object *verdicts)
{
	if (!verdicts || json_object_array_length(verdicts) == 0)
		return 0;
	XW(htmltext_element(w, "h4", NULL, "Verdicts on the study's claims"));
	XW(xmlwrite_start(w, "ul"));
	XW(xmlwrite_attr(w, "class", "verdicts"));
	for (size_t i = 0; i < json_object_array_length(verdicts); i++) {
		json_object *v = json_object_array_get_idx(verdicts, i);
		json_object *cmp = array_of(v, "comparisons");
		XW(xmlwrite_start(w, "li"));
		XW(htmltext_element(w, "div", NULL, jsonget_string(v, "claim") ?: ""));
		XW(xmlwrite_start(w, "div"));
		XW(htmltext_element(w, "strong", NULL, jsonget_string(v, "verdict") ?: ""));
		XW(xmlwrite_end_full(w));
		for (size_t k = 0; cmp && k < json_object_array_length(cmp); k++)
			XW(htmltext_element(w, "div", "muted",
					      json_object_get_string(
						      json_object_array_get_idx(cmp, k))));
		XW(xmlwrite_end_full(w));
	}
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_references(xmlTextWriterPtr w, json_object *refs)
{
	if (!refs || json_object_array_length(refs) == 0)
		return 0;
	XW(xmlwrite_start(w, "section"));
	XW(xmlwrite_attr(w, "class", "workload"));
	XW(htmltext_element(w, "h2", NULL, "The studies side by side"));
	for (size_t i = 0; i < json_object_array_length(refs); i++) {
		json_object *r = json_object_array_get_idx(refs, i), *t;
		XW(htmltext_element(w, "h3", NULL,
				      jsonget_string(r, "title") ?: jsonget_string(r, "study")));
		XW(htmltext_element(w, "p", "muted", jsonget_string(r, "source") ?: ""));
		XW(xmlwrite_start(w, "div"));
		XW(xmlwrite_attr(w, "class", "tables"));
		XW(write_side(w, "published",
			     json_object_object_get_ex(r, "published", &t) ? t : NULL));
		XW(write_side(w, "measured here",
			     json_object_object_get_ex(r, "measured", &t) ? t : NULL));
		XW(xmlwrite_end_full(w));
		json_object *notes = array_of(r, "notes");
		if (notes && json_object_array_length(notes)) {
			XW(xmlwrite_start(w, "ul"));
			for (size_t k = 0; k < json_object_array_length(notes); k++)
				XW(htmltext_element(w, "li", "muted",
						      json_object_get_string(
							      json_object_array_get_idx(notes, k))));
			XW(xmlwrite_end_full(w));
		}
		XW(write_verdicts(w, array_of(r, "verdicts")));
	}
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_answers(xmlTextWriterPtr w, const struct model *mo)
{
	XW(xmlwrite_start(w, "section"));
	XW(xmlwrite_attr(w, "class", "answers"));
	XW(htmltext_element(w, "h2", NULL, "Answers"));
	size_t n = mo->n_headlines, asked = mo->n_asked;
	char where[160], title[220];
	report_answers_where(mo, where, sizeof where);
	if (asked) {
		snprintf(title, sizeof title, "What this profile asks, %s", where);
		XW(htmltext_element(w, "h3", NULL, title));
		XW(xmlwrite_start(w, "ul"));
		XW(xmlwrite_attr(w, "class", "asked"));
		for (size_t i = 0; i < asked; i++)
			XW(htmltext_element(w, "li", NULL, mo->headlines[i]));
		XW(xmlwrite_end_full(w));
		if (n > asked)
			XW(htmltext_element(w, "h3", NULL, "Also compared"));
	}
	if (n > asked || n == 0) {
		XW(xmlwrite_start(w, "ul"));
		for (size_t i = asked; i < n; i++)
			XW(htmltext_element(w, "li", NULL, mo->headlines[i]));
		if (n == 0)
			XW(htmltext_element(w, "li", "none",
					      "No comparison: the sweep varied no axis with runs on both sides."));
		XW(xmlwrite_end_full(w));
	}
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
	XW(htmltext_element(w, "title", NULL, buf));
	XW(htmltext_element(w, "style", NULL, css));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_page(xmlTextWriterPtr w, const struct model *mo)
{
	const char *title = mo->title ?: "sweep";

	XW(xmlTextWriterWriteDTD(w, BAD_CAST "html", NULL, NULL, NULL));
	XW(xmlTextWriterWriteString(w, BAD_CAST "\n"));
	XW(xmlwrite_start(w, "html"));
	XW(xmlwrite_attr(w, "lang", "en"));
	XW(write_head(w, title));
	XW(xmlwrite_start(w, "body"));
	XW(xmlwrite_start(w, "header"));
	XW(htmltext_element(w, "h1", NULL, title));
	XW(htmltext_element(w, "p", "method", mo->method ?: ""));
	for (size_t i = 0; i < mo->n_hosts; i++) {
		char unfinished[320];
		if (report_host_unfinished(&mo->hosts[i], unfinished, sizeof unfinished))
			XW(htmltext_element(w, "p", "differs", unfinished));
	}
	XW(xmlwrite_end_full(w));
	XW(write_answers(w, mo));
	XW(write_baseline(w, mo));
	if (mo->n_hosts)
		XW(write_hosts(w, mo));
	XW(write_workloads(w, mo));
	XW(write_failures(w, mo));
	XW(write_plan_differences(w, mo));
	XW(write_references(w, mo->references));
	XW(htmltext_element(w, "footer", NULL,
			      "Made by buildapp report from the journals of the bundles "
			      "above; report.json holds the same numbers."));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlTextWriterWriteString(w, BAD_CAST "\n"));
	return 0;
}

int report_html_write(const struct model *report, FILE *f)
{
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
