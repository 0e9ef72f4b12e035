/* render.c - the table of output formats, and rendering a report through it */
#include "report/render.h"

#include "rules/registry.h"

/*
 * One row a format, in the order the command line lists them. The first row,
 * text, also renders a jf_format value that no row has. A file name is guessed
 * to hold the format whose suffix is its longest match (x.sarif.json: sarif).
 */
static const jf_renderer renderers[] = {
	{ JF_FORMAT_TEXT, "text", NULL, { ".txt" }, jf_render__text, jf_render__text,
	  jf_render__stats_text },
	{ JF_FORMAT_CONCISE, "concise", NULL, { NULL }, jf_render__concise, jf_render__concise,
	  jf_render__stats_text },
	{ JF_FORMAT_JSON, "json", NULL, { ".json" }, jf_render__json, jf_render__json_errors,
	  jf_render__stats_json },
	{ JF_FORMAT_SARIF, "sarif", "SARIF 2.1.0", { ".sarif", ".sarif.json" }, jf_render__sarif,
	  jf_render__sarif_errors, jf_render__sarif_statistics },
	{ JF_FORMAT_GITHUB, "github", "GitHub Actions annotations", { NULL }, jf_render__github,
	  jf_render__github_errors, jf_render__github_statistics },
};

#define NRENDERERS (sizeof renderers / sizeof *renderers)

static const jf_renderer *renderer_of(jf_format format)
{
	for (size_t i = 0; i < NRENDERERS; i++)
		if (renderers[i].format == format)
			return &renderers[i];
	return &renderers[0];
}

int jf_format_from_name(const char *name, jf_format *out)
{
	for (size_t i = 0; i < NRENDERERS; i++) {
		if (!strcmp(renderers[i].name, name)) {
			*out = renderers[i].format;
			return 0;
		}
	}
	return JF_ENOTFOUND;
}

int jf_format_from_file_name(const char *path, jf_format *out)
{
	const jf_renderer *best = NULL;
	size_t n = strlen(path), best_len = 0;
	for (size_t i = 0; i < NRENDERERS; i++) {
		const jf_renderer *r = &renderers[i];
		for (size_t k = 0; k < JF_RENDERER_SUFFIXES && r->suffixes[k]; k++) {
			size_t len = strlen(r->suffixes[k]);
			if (n > len && len > best_len && !strcmp(path + n - len, r->suffixes[k])) {
				best = r;
				best_len = len;
			}
		}
	}
	if (!best)
		return JF_ENOTFOUND;
	*out = best->format;
	return 0;
}

const char *jf_format_name_at(size_t i, jf_format *format)
{
	if (i >= NRENDERERS)
		return NULL;
	if (format)
		*format = renderers[i].format;
	return renderers[i].name;
}

const char *jf_format_summary(jf_format format)
{
	const jf_renderer *r = renderer_of(format);
	return r->format == format ? r->summary : NULL;
}

void jf_report_render(const jf_report *self, jf_buf *out, jf_format format, bool color)
{
	renderer_of(format)->render(self, out, color);
}

void jf_report_render_errors(const jf_report *self, jf_buf *out, jf_format format, bool color)
{
	renderer_of(format)->render_errors(self, out, color);
}

void jf_report_render_statistics(const jf_report *self, jf_buf *out, jf_format format)
{
	jf_stats s;
	jf_stats_collect(&s, self);
	renderer_of(format)->render_statistics(self, &s, out);
	jf_stats_release(&s);
}

/* Shared by the renderers */

const char *jf_render__help(const jf_diag *d)
{
	return d->help ? d->help : d->rule ? d->rule->info.help : NULL;
}

void jf_render__location(jf_buf *b, const jf_source *src, uint32_t byte)
{
	jf_pos p = jf_source_pos(src, byte);
	jf_buf_addf(b, "%s:%u:%u", src->path, p.line, p.col);
}
