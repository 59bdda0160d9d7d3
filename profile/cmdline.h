/* The kernel command line as it carries a kit's settings to the
 * appliance's init: buildapp.KEY=VALUE words (a key of [host] or
 * [appliance], [guest] accel, [workload] crash_reboot) that override the
 * plan's, the kit's own words ending with CMDLINE_END.  What a boot
 * loader or a lab's engine adds after that word is the lab's; a line
 * that lacks it was cut short on its way (iPXE reads a typed line of at
 * most 255 characters), and the appliance says so. */
#ifndef BUILDAPP_CMDLINE_H
#define BUILDAPP_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#define CMDLINE_PREFIX "buildapp."
#define CMDLINE_END "buildapp.end"

/* LINE as a console may show it, into BUF: every buildapp.upload= URL
 * without its user:password@ (uploadurl_redact).  Returns BUF. */
const char *cmdline_shown(const char *line, char *buf, size_t len);

/* Whether WORD (a whole word) is one of LINE's space-separated words. */
bool cmdline_has_word(const char *line, const char *word);

#endif
