/* diag.c - collecting diagnostics in a report: adding, filtering, sorting, dropping duplicates
 * (lib/report/ renders them) */
#include "core/diag.h"

#include <stdlib.h>

static char *vformat(const char *fmt, va_list ap)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_vaddf(&b, fmt, ap);
	return jf_buf_detach(&b, NULL);
}

jf_diag *jf_report_vadd(jf_report *self, const jf_rule *rule, const jf_source *src, jf_span span,
                        const char *fmt, va_list ap)
{
	jf_diag d = { 0 };
	if (rule)
		jf_source_shown(&src, &span);
	d.rule = rule;
	d.severity = rule ? jf_rule_info_of(rule)->severity : JF_SEV_ERROR;
	d.src = src;
	d.span = span;
	d.message = vformat(fmt, ap);
	jf_array_push(&self->diags, d);
	return jf_array_last(&self->diags);
}

void jf_diag_set_unproven(jf_diag *self)
{
	self->unproven = true;
	self->severity = jf_diag_severity_of(self, self->severity);
}

jf_severity jf_diag_severity_of(const jf_diag *d, jf_severity s)
{
	return d->unproven && s > JF_SEV_WARNING ? JF_SEV_WARNING : s;
}

jf_diag *jf_report_add(jf_report *self, const jf_rule *rule, const jf_source *src, jf_span span,
                       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jf_diag *d = jf_report_vadd(self, rule, src, span, fmt, ap);
	va_end(ap);
	return d;
}

jf_diag *jf_report_add_error(jf_report *self, const jf_source *src, jf_span span, const char *fmt,
                             ...)
{
	va_list ap;
	va_start(ap, fmt);
	jf_diag *d = jf_report_vadd(self, NULL, src, span, fmt, ap);
	va_end(ap);
	return d;
}

void jf_diag_relate(jf_diag *self, const jf_source *src, jf_span span, const char *fmt, ...)
{
	va_list ap;
	jf_source_shown(&src, &span);
	jf_related r = { src, span, NULL };
	va_start(ap, fmt);
	r.message = vformat(fmt, ap);
	va_end(ap);
	jf_array_push(&self->related, r);
}

void jf_diag_set_help(jf_diag *self, const char *fmt, ...)
{
	va_list ap;
	free(self->help);
	va_start(ap, fmt);
	self->help = vformat(fmt, ap);
	va_end(ap);
}

void jf_diag_add_edit(jf_diag *self, const jf_source *src, jf_span span, const char *text)
{
	jf_edit e = { src, span, jf_xstrdup(text) };
	jf_array_push(&self->edits, e);
}

const char *jf_diag_category(const jf_diag *d)
{
	return d->category ? d->category : jf_rule_info_of(d->rule)->category;
}

static void diag_release(jf_diag *d)
{
	free(d->message);
	free(d->help);
	for (size_t i = 0; i < d->related.size; i++)
		free(d->related.items[i].message);
	jf_array_release(&d->related);
	for (size_t i = 0; i < d->edits.size; i++)
		free(d->edits.items[i].text);
	jf_array_release(&d->edits);
}

void jf_report_filter(jf_report *self, size_t from, bool (*keep)(void *data, jf_diag *d),
                      void *data)
{
	size_t out = from;
	for (size_t i = from; i < self->diags.size; i++) {
		if (keep(data, &self->diags.items[i]))
			self->diags.items[out++] = self->diags.items[i];
		else
			diag_release(&self->diags.items[i]);
	}
	self->diags.size = out;
}

static int cmp_diag(const void *pa, const void *pb)
{
	const jf_diag *a = pa, *b = pb;
	int c = strcmp(a->src->path, b->src->path);
	if (c)
		return c;
	if (a->span.start != b->span.start)
		return a->span.start < b->span.start ? -1 : 1;
	c = strcmp(jf_rule_info_of(a->rule)->id, jf_rule_info_of(b->rule)->id);
	if (c)
		return c;
	return strcmp(a->message, b->message);
}

void jf_report_finish(jf_report *self)
{
	if (!self->diags.size)
		return;
	qsort(self->diags.items, self->diags.size, sizeof(jf_diag), cmp_diag);
	size_t out = 1;
	for (size_t i = 1; i < self->diags.size; i++) {
		jf_diag *prev = &self->diags.items[out - 1], *d = &self->diags.items[i];
		if (!cmp_diag(prev, d) && prev->src == d->src && prev->span.end == d->span.end) {
			diag_release(d);
			continue;
		}
		self->diags.items[out++] = *d;
	}
	self->diags.size = out;
}

void jf_report_add_failure(jf_report *self, const char *message)
{
	jf_array_push(&self->failures, jf_xstrdup(message));
}

void jf_report_release(jf_report *self)
{
	for (size_t i = 0; i < self->diags.size; i++)
		diag_release(&self->diags.items[i]);
	jf_array_release(&self->diags);
	for (size_t i = 0; i < self->failures.size; i++)
		free(self->failures.items[i]);
	jf_array_release(&self->failures);
}
