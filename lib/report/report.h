/* report.h - rendering a report in an output format: its findings, the errors of
 * jobfix's configuration, or the statistics
 *
 * Each format is one row of the table in render.c, with its renderers in a
 * file of lib/report/ (render.h). Rendering appends to `out` and leaves the
 * report as it is; a jf_format value that no row has renders as text.
 */
#ifndef JF_REPORT_H
#define JF_REPORT_H

#include "core/diag.h"

/** Renders every diagnostic into `out`. */
void jf_report_render(const jf_report *self, jf_buf *out, jf_format format, bool color);
/**
 * Renders, instead of the diagnostics, their counts per rule and per category
 * of the study, most frequent first (ties: by rule id, by the study's order
 * of categories). Call jf_report_finish() first.
 */
void jf_report_render_statistics(const jf_report *self, jf_buf *out, jf_format format);
/**
 * Renders errors of jobfix's configuration (rule-less diagnostics, in the
 * report's order): as diagnostics in text and concise, `jobfix: error: ...` for
 * those without a position; in json a document whose "config_errors" list
 * holds them; in sarif a log whose invocation failed, with a
 * toolConfigurationNotification for each; in github `::error` annotations.
 */
void jf_report_render_errors(const jf_report *self, jf_buf *out, jf_format format, bool color);

#endif
