/* write.c - writing reports to a FILE: the linter's findings, its statistics, the config's errors */
#include "linter.h"
#include "report/render.h"
#include "report/report.h"
#include "rules/config.h"

/* Writes `b` to `out`: 0, or JF_EIO when it was cut short. */
static int write_all(jf_buf *b, FILE *out)
{
	size_t n = fwrite(b->buf, 1, b->len, out);
	int rc = n == b->len ? 0 : JF_EIO;
	jf_buf_release(b);
	return rc;
}

int jf_linter_write(jf_linter *self, FILE *out, jf_format format, int color)
{
	jf_buf b = JF_BUF_INIT;
	jf_report_finish(&self->report);
	self->report.coverage = self->opts.coverage ? &self->coverage : NULL;
	jf_report_render(&self->report, &b, format, color != 0);
	self->report.coverage = NULL;
	return write_all(&b, out);
}

int jf_linter_write_statistics(jf_linter *self, FILE *out, jf_format format)
{
	jf_buf b = JF_BUF_INIT;
	jf_report_finish(&self->report);
	self->report.coverage = self->opts.coverage ? &self->coverage : NULL;
	jf_report_render_statistics(&self->report, &b, format);
	self->report.coverage = NULL;
	return write_all(&b, out);
}

int jf_linter_write_coverage(jf_linter *self, FILE *out, jf_format format)
{
	jf_buf b = JF_BUF_INIT;
	if (format == JF_FORMAT_TEXT || format == JF_FORMAT_CONCISE || format == JF_FORMAT_GITHUB)
		jf_coverage_render_text(&self->coverage, &b);
	else if (format == JF_FORMAT_JSON)
		jf_coverage_render_json(&self->coverage, &b);
	return write_all(&b, out);
}

int jf_config_write_errors(const jf_config *self, FILE *out, jf_format format, int color)
{
	jf_buf b = JF_BUF_INIT;
	jf_report_render_errors(jf_config__errors(self), &b, format, color != 0);
	return write_all(&b, out);
}
