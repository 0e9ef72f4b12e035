/* render.h - inside lib/report/: a row of the table of formats, each format's renderers,
 * the statistics, and what the renderers share
 *
 * A format is a row of the table in render.c and one file here holding its
 * renderers, which append to `out`:
 *  - render: the findings of a report, sorted and deduplicated by
 *    jf_report_finish() (every one has a rule and a source); `color` asks for
 *    ANSI colour, which only the text formats have;
 *  - render_errors: the errors of jobfix's configuration, rule-less
 *    diagnostics in the report's order, `src` NULL for those of the command
 *    line; nothing was linted;
 *  - render_statistics: the counts `s` of the findings of `r`, instead of the
 *    findings or with them for readers that need them.
 * A format names a severity with jf_severity_name() unless its readers call
 * it otherwise (GitHub: a note is a notice).
 */
#ifndef JF_RENDER_H
#define JF_RENDER_H

#include "report/jsonw.h"
#include "report/report.h"

/* Statistics (stats.c): the counts of each rule and of each category of the study. */

typedef struct {
	const char *key;       /* rule id, or category name */
	const jf_rule *rule;   /* for rules */
	const char *dimension; /* for categories; NULL for a category the study does not have */
	size_t order;          /* tie-break: the study's order of categories */
	jf_severity severity;  /* for rules: the highest of their findings */
	size_t count;
} jf_stat_row;

typedef JF_ARRAY(jf_stat_row) jf_stat_rows;

typedef struct {
	jf_stat_rows rules, cats; /* most frequent first */
} jf_stats;

/** Counts the findings of `r` into `self`; free with jf_stats_release(). */
void jf_stats_collect(jf_stats *self, const jf_report *r);
void jf_stats_release(jf_stats *self);
/** The members "rules" and "categories" of the JSON statistics, one row a line. */
void jf_stats_json_members(const jf_stats *self, jf_jsonw *w);

/* The table's row. */

#define JF_RENDERER_SUFFIXES 4

typedef void (*jf_render_fn)(const jf_report *r, jf_buf *out, bool color);
typedef void (*jf_render_statistics_fn)(const jf_report *r, const jf_stats *s, jf_buf *out);

typedef struct {
	jf_format format;
	const char *name;    /* as the command line spells it: "sarif" */
	const char *summary; /* for listings: "SARIF 2.1.0"; NULL when the name says it */
	/* The ends of the file names guessed to hold it (".sarif"), NULL after the last. */
	const char *suffixes[JF_RENDERER_SUFFIXES];
	jf_render_fn render;
	jf_render_fn render_errors;
	jf_render_statistics_fn render_statistics;
} jf_renderer;

/* The renderers, by file. */

/* text.c: for a terminal, with the source line and notes; concise: the first line only */
void jf_render__text(const jf_report *r, jf_buf *out, bool color);
void jf_render__concise(const jf_report *r, jf_buf *out, bool color);
/* json.c */
void jf_render__json(const jf_report *r, jf_buf *out, bool color);
void jf_render__json_errors(const jf_report *r, jf_buf *out, bool color);
/* sarif.c: SARIF 2.1.0 */
void jf_render__sarif(const jf_report *r, jf_buf *out, bool color);
/** Starts a SARIF 2.1.0 log in `b`: its one run's tool.driver is open, with jobfix's name,
 * version and URI; the rules and the rest follow (also for `jobfix triage`). */
void jf_sarif_start(jf_jsonw *w, jf_buf *b);
void jf_render__sarif_errors(const jf_report *r, jf_buf *out, bool color);
void jf_render__sarif_statistics(const jf_report *r, const jf_stats *s, jf_buf *out);
/* github.c: GitHub Actions workflow commands */
void jf_render__github(const jf_report *r, jf_buf *out, bool color);
void jf_render__github_errors(const jf_report *r, jf_buf *out, bool color);
void jf_render__github_statistics(const jf_report *r, const jf_stats *s, jf_buf *out);
/* stats.c: the statistics alone, as two text tables (nothing without findings) or as JSON */
void jf_render__stats_text(const jf_report *report, const jf_stats *s, jf_buf *out);
void jf_render__stats_json(const jf_report *report, const jf_stats *s, jf_buf *out);

/* coverage.c: what each job's checks covered (--coverage), as text, as the
 * "coverage" member of a json document, or as a document of its own. */
void jf_coverage_render_text(const jf_cover_jobs *jobs, jf_buf *out);
void jf_coverage_json_member(const jf_cover_jobs *jobs, jf_jsonw *w);
void jf_coverage_render_json(const jf_cover_jobs *jobs, jf_buf *out);

/* Shared by the renderers (render.c). */

/** The help shown with `d`: its own, else its rule's; NULL when it has neither. */
const char *jf_render__help(const jf_diag *d);
/** Appends "path:line:col" of byte `byte` of `src`. */
void jf_render__location(jf_buf *b, const jf_source *src, uint32_t byte);

#endif
