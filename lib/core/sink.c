/* sink.c - reporting findings by rule id */
#include "core/sink.h"

jf_diag *jf_sink_add(jf_sink *self, const char *rule_id, const jf_source *src, jf_span span,
                     const char *fmt, ...)
{
	const jf_rule *rule = self->rule(self->data, rule_id);
	if (!rule)
		JF_BUG("no rule %s", rule_id);
	va_list ap;
	va_start(ap, fmt);
	jf_diag *d = jf_report_vadd(self->report, rule, src, span, fmt, ap);
	va_end(ap);
	return d;
}

void jf_sink_not_linted(jf_sink *self, const jf_source *src)
{
	jf_diag *d = jf_sink_add(self, JF005, src, (jf_span){ 0, 0 }, "'%s' is not linted: %s",
	                         src->path, jf_source_why(src));
	if (jf_source_help(src))
		jf_diag_set_help(d, "%s", jf_source_help(src));
}

/* Adds `msg` (taken) to `skipped` unless it is there already. */
static void add_skipped(jf_strings *skipped, char *msg)
{
	for (size_t i = 0; i < skipped->size; i++)
		if (!strcmp(skipped->items[i], msg)) {
			free(msg);
			return;
		}
	jf_array_push(skipped, msg);
}

void jf_sink_skip(jf_sink *self, const char *rule_id, const char *fmt, ...)
{
	const jf_rule *rule = self->rule(self->data, rule_id);
	jf_buf b = JF_BUF_INIT;
	jf_buf_addf(&b, "%s %s", rule_id, rule ? jf_rule_info_of(rule)->name : "?");
	if (self->job)
		jf_buf_addf(&b, " in %s", self->job);
	jf_buf_adds(&b, ": ");
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	add_skipped(self->skipped, jf_buf_detach(&b, NULL));
}

void jf_sink_cover_entry(jf_sink *self, const char *script, jf_cover state, const char *why)
{
	if (!self->covered)
		return;
	for (size_t i = 0; i < self->covered->size; i++) {
		jf_cover_line l;
		if (!jf_cover_line_read(self->covered->items[i], &l))
			continue;
		bool same = l.kind == JF_COVER_LINE_ENTRY && !strcmp(l.script, script);
		jf_cover_line_release(&l);
		if (same)
			return;
	}
	jf_array_push(self->covered, jf_cover_entry_line(script, state, why));
}

void jf_sink_cover_imports(jf_sink *self, jf_cover state, size_t modules, size_t open,
                           const char *why)
{
	if (self->covered)
		jf_array_push(self->covered, jf_cover_imports_line(state, modules, open, why));
}

void jf_sink_skips_move(jf_sink *self, jf_strings *from)
{
	for (size_t i = 0; i < from->size; i++)
		add_skipped(self->skipped, from->items[i]);
	from->size = 0;
}

jf_diag *jf_sink_find(jf_sink *self, const char *rule_id, const jf_source *src, jf_span span)
{
	jf_report *r = self->report;
	jf_source_shown(&src, &span); /* as jf_sink_add() placed it */
	for (size_t i = 0; i < r->diags.size; i++) {
		jf_diag *d = &r->diags.items[i];
		if (d->src == src && d->span.start == span.start &&
		    !strcmp(jf_rule_info_of(d->rule)->id, rule_id))
			return d;
	}
	return NULL;
}
