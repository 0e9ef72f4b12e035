/* github.c - the github format: GitHub Actions workflow commands, an annotation for each
 * finding or error of jobfix's configuration */
#include "report/render.h"

#include "rules/registry.h"

/* Workflow commands call a note a notice. */
static const char *level(jf_severity s)
{
	return s == JF_SEV_NOTE ? "notice" : jf_severity_name(s);
}

/* GitHub Actions workflow commands, one a finding: an annotation on the file
 * and line. The message carries the related notes and the help on extra lines. */
void jf_render__github(const jf_report *r, jf_buf *b, bool color)
{
	(void)color;
	jf_buf msg = JF_BUF_INIT;
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_pos a = jf_source_pos(d->src, d->span.start), e = jf_source_pos(d->src, d->span.end);
		jf_buf_addf(b, "::%s file=", level(d->severity));
		jf_buf_add_gh_escaped(b, d->src->path, true);
		jf_buf_addf(b, ",line=%u,endLine=%u", a.line, e.line);
		/* GitHub takes columns only for a span within one line. */
		if (a.line == e.line)
			jf_buf_addf(b, ",col=%u,endColumn=%u", a.col, e.col);
		jf_buf_adds(b, ",title=");
		jf_buf_truncate(&msg, 0);
		jf_buf_addf(&msg, "%s %s", d->rule->info.id, d->rule->info.name);
		jf_buf_add_gh_escaped(b, msg.buf, true);
		jf_buf_adds(b, "::");
		jf_buf_truncate(&msg, 0);
		jf_buf_adds(&msg, d->message);
		for (size_t k = 0; k < d->related.size; k++) {
			const jf_related *rel = &d->related.items[k];
			jf_buf_adds(&msg, "\nnote: ");
			jf_render__location(&msg, rel->src, rel->span.start);
			jf_buf_addf(&msg, ": %s", rel->message);
		}
		jf_buf_addf(&msg, "\nhelp: %s", jf_render__help(d));
		jf_buf_add_gh_escaped(b, msg.buf, false);
		jf_buf_addc(b, '\n');
	}
	jf_buf_release(&msg);
}

/* The errors of jobfix's configuration as error annotations: on the config
 * file's line when they have one, else on the workflow run. */
void jf_render__github_errors(const jf_report *r, jf_buf *b, bool color)
{
	(void)color;
	jf_buf msg = JF_BUF_INIT;
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_buf_adds(b, "::error ");
		if (d->src) {
			jf_pos a = jf_source_pos(d->src, d->span.start);
			jf_pos e = jf_source_pos(d->src, d->span.end);
			jf_buf_adds(b, "file=");
			jf_buf_add_gh_escaped(b, d->src->path, true);
			jf_buf_addf(b, ",line=%u,endLine=%u", a.line, e.line);
			if (a.line == e.line)
				jf_buf_addf(b, ",col=%u,endColumn=%u", a.col, e.col);
			jf_buf_addc(b, ',');
		}
		jf_buf_adds(b, "title=");
		jf_buf_add_gh_escaped(b, "jobfix configuration", true);
		jf_buf_adds(b, "::");
		jf_buf_truncate(&msg, 0);
		jf_buf_adds(&msg, d->message);
		if (jf_render__help(d))
			jf_buf_addf(&msg, "\nhelp: %s", jf_render__help(d));
		jf_buf_add_gh_escaped(b, msg.buf, false);
		jf_buf_addc(b, '\n');
	}
	jf_buf_release(&msg);
}

/* The annotations, then the tables for the log. */
void jf_render__github_statistics(const jf_report *r, const jf_stats *s, jf_buf *out)
{
	jf_render__github(r, out, false);
	jf_render__stats_text(r, s, out);
}
