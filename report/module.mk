# SPDX-License-Identifier: GPL-2.0-or-later
# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/report/%.o: INCDIRS = $(REPORT_INCDIRS)

# The report: from result bundles (journal, summary, plan, host.json,
# timings) to report.{txt,csv,json,html}: the comparisons and their
# intervals, the studies' tables beside them, the rack's servers.
REPORT_SRCS := report/report.c report/report_axes.c report/model.c report/model_json.c report/report_cmp.c report/report_loss.c report/report_rack.c \
	report/report_text.c report/report_lines.c report/report_html.c report/report_loss_html.c report/report_chart.c \
	report/report_axischart.c report/htmltext.c \
	report/bundle.c report/hostjson.c report/compare.c report/reference.c \
	report/reftable.c report/precision.c report/verdict.c report/claims.c
$(B)/libreport.a: $(REPORT_SRCS:%.c=$(B)/%.o) $(B)/report/reference_data.o
REPORT_LIBS = $(call pc_libs,libxml-2.0)
REPORT_ARCHIVES = $(B)/libreport.a $(RUNNER_ARCHIVES)
REPORT_LINK_LIBS = $(REPORT_LIBS) $(RUNNER_LINK_LIBS)

# The studies' published tables, built into the program (reference_data.h):
# each report/reference/NAME.json becomes a NUL-terminated char array.
REFERENCE_JSON := $(sort $(wildcard report/reference/*.json))
$(B)/report/reference_data.c: $(REFERENCE_JSON) report/module.mk
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@){ \
	  echo '/* Generated from the JSON files of report/reference: do not edit. */'; \
	  echo '#include "reference_data.h"'; \
	  for f in $(REFERENCE_JSON); do \
	    echo "static const unsigned char d_$$(basename $$f .json | tr -c 'a-z0-9\n' _)[] = {"; \
	    xxd -i < $$f; echo ', 0};'; \
	  done; \
	  echo 'const struct reference_data reference_data[] = {'; \
	  for f in $(REFERENCE_JSON); do n=$$(basename $$f .json); \
	    echo "	{\"$$n\", (const char *)d_$$(echo $$n | tr -c 'a-z0-9\n' _)},"; \
	  done; \
	  echo '};'; \
	  echo 'const size_t n_reference_data = sizeof(reference_data) / sizeof(reference_data[0]);'; \
	} > $@.tmp && mv $@.tmp $@
$(B)/report/reference_data.o: $(B)/report/reference_data.c report/reference_data.h
	$(call quiet,CC,$<)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
$(B)/report/report_html.o $(B)/report/report_chart.o $(B)/report/report_axischart.o \
	$(B)/report/report_loss_html.o $(B)/report/htmltext.o \
	$(B)/tests/unit/test_report_html.o: ALL_CFLAGS += $(XML_CFLAGS)

# Driver of the report.html test (tests/integration/report-html.sh).
$(B)/tests/integration/report-html-render: \
		$(B)/tests/integration/report_html_render.o $(REPORT_ARCHIVES)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(REPORT_LINK_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/report-html-render
