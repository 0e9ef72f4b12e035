/* diag.c - collecting diagnostics and rendering them as text, concise lines or JSON */
#include "diag.h"

#include <stdlib.h>

#include "rules.h"

static char *vformat(const char *fmt, va_list ap)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_vaddf(&b, fmt, ap);
	return jf_buf_detach(&b, NULL);
}

jf_diag *jf_report_add(jf_report *self, const jf_rule *rule, const jf_source *src, jf_span span,
                       const char *fmt, ...)
{
	jf_diag d = { 0 };
	va_list ap;
	d.rule = rule;
	d.severity = rule->info.severity;
	d.src = src;
	d.span = span;
	va_start(ap, fmt);
	d.message = vformat(fmt, ap);
	va_end(ap);
	jf_array_push(&self->diags, d);
	return jf_array_last(&self->diags);
}

jf_diag *jf_report_add_error(jf_report *self, const jf_source *src, jf_span span, const char *fmt,
                             ...)
{
	jf_diag d = { 0 };
	va_list ap;
	d.severity = JF_SEV_ERROR;
	d.src = src;
	d.span = span;
	va_start(ap, fmt);
	d.message = vformat(fmt, ap);
	va_end(ap);
	jf_array_push(&self->diags, d);
	return jf_array_last(&self->diags);
}

void jf_diag_relate(jf_diag *self, const jf_source *src, jf_span span, const char *fmt, ...)
{
	jf_related r = { src, span, NULL };
	va_list ap;
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

static void diag_release(jf_diag *d)
{
	free(d->message);
	free(d->help);
	for (size_t i = 0; i < d->related.size; i++)
		free(d->related.items[i].message);
	jf_array_release(&d->related);
}

static int cmp_diag(const void *pa, const void *pb)
{
	const jf_diag *a = pa, *b = pb;
	int c = strcmp(a->src->path, b->src->path);
	if (c)
		return c;
	if (a->span.start != b->span.start)
		return a->span.start < b->span.start ? -1 : 1;
	c = strcmp(a->rule->info.id, b->rule->info.id);
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

void jf_report_release(jf_report *self)
{
	for (size_t i = 0; i < self->diags.size; i++)
		diag_release(&self->diags.items[i]);
	jf_array_release(&self->diags);
}

/* Rendering */

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_BLUE "\033[1;34m"

static const char *severity_color(jf_severity s)
{
	return s == JF_SEV_ERROR ? "\033[1;31m" : s == JF_SEV_WARNING ? "\033[1;33m" : "\033[1;36m";
}

static void add_colored(jf_buf *b, bool color, const char *code, const char *text)
{
	if (color)
		jf_buf_adds(b, code);
	jf_buf_adds(b, text);
	if (color)
		jf_buf_adds(b, C_RESET);
}

static void add_location(jf_buf *b, const jf_source *src, uint32_t byte)
{
	jf_pos p = jf_source_pos(src, byte);
	jf_buf_addf(b, "%s:%u:%u", src->path, p.line, p.col);
}

static void render_header(jf_buf *b, const jf_diag *d, bool color)
{
	if (color)
		jf_buf_adds(b, C_BOLD);
	add_location(b, d->src, d->span.start);
	jf_buf_adds(b, ": ");
	if (color)
		jf_buf_adds(b, C_RESET);
	add_colored(b, color, severity_color(d->severity), jf_severity_name(d->severity));
	jf_buf_adds(b, ": ");
	if (color)
		jf_buf_adds(b, C_BOLD);
	jf_buf_adds(b, d->message);
	if (color)
		jf_buf_adds(b, C_RESET);
	jf_buf_addf(b, " [%s %s]\n", d->rule->info.id, d->rule->info.name);
}

/* Snippets show at most this many characters of a line, around the span. */
#define SNIPPET_WIDTH 120
#define SNIPPET_BEFORE 40

/* Moves `i` back or forward by `n` characters within [lo, hi). */
static uint32_t back_chars(const char *s, uint32_t i, uint32_t lo, uint32_t n)
{
	while (i > lo && n > 0) {
		i--;
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n--;
	}
	while (i > lo && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

static uint32_t forward_chars(const char *s, uint32_t i, uint32_t hi, uint32_t n)
{
	while (i < hi && n > 0) {
		i++;
		while (i < hi && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		n--;
	}
	return i;
}

/* Appends s[a, b) for a terminal: control characters and invalid UTF-8 as U+FFFD. */
static void add_printable(jf_buf *b, const char *s, uint32_t a, uint32_t e)
{
	const unsigned char *u = (const unsigned char *)s;
	for (uint32_t i = a; i < e;) {
		unsigned char c = u[i];
		uint32_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
		bool ok = len && i + len <= e && c <= 0xf4;
		for (uint32_t k = 1; ok && k < len; k++)
			ok = (u[i + k] & 0xc0) == 0x80;
		if (!ok || (c < 0x20 && c != '\t') || c == 0x7f) {
			jf_buf_adds(b, "\xef\xbf\xbd");
			i += ok ? len : 1;
			while (!ok && i < e && (u[i] & 0xc0) == 0x80)
				i++;
			continue;
		}
		jf_buf_add(b, s + i, len);
		i += len;
	}
}

/* Appends the source line of the span (or a window of it) and a caret underline. */
static void render_snippet(jf_buf *b, const jf_diag *d, bool color)
{
	const jf_source *s = d->src;
	if (!s->len || s->status == JF_SOURCE_BINARY)
		return;
	uint32_t line = jf_source_line_of(s, d->span.start);
	jf_span ls = jf_source_line_span(s, line);
	uint32_t at = d->span.start < ls.end ? d->span.start : ls.end;
	uint32_t from = back_chars(s->data, at, ls.start, SNIPPET_BEFORE);
	if (forward_chars(s->data, ls.start, ls.end, SNIPPET_WIDTH) == ls.end)
		from = ls.start; /* the whole line fits */
	uint32_t to = forward_chars(s->data, from, ls.end, SNIPPET_WIDTH);
	char num[16];
	int w = snprintf(num, sizeof num, "%u", line + 1);
	uint32_t end = d->span.end > to ? to : d->span.end;
	const char *gutter = color ? C_BLUE : "";
	const char *reset = color ? C_RESET : "";

	jf_buf_addf(b, "%s%*s |%s\n", gutter, w, "", reset);
	jf_buf_addf(b, "%s%s |%s ", gutter, num, reset);
	if (from > ls.start)
		jf_buf_adds(b, "...");
	add_printable(b, s->data, from, to);
	if (to < ls.end)
		jf_buf_adds(b, "...");
	jf_buf_addf(b, "\n%s%*s |%s ", gutter, w, "", reset);
	if (from > ls.start)
		jf_buf_adds(b, "   ");
	for (uint32_t i = from; i < at; i++) {
		unsigned char c = (unsigned char)s->data[i];
		if ((c & 0xc0) != 0x80)
			jf_buf_addc(b, c == '\t' ? '\t' : ' ');
	}
	if (color)
		jf_buf_adds(b, severity_color(d->severity));
	uint32_t carets = 0;
	for (uint32_t i = at; i < end; i++)
		carets += ((unsigned char)s->data[i] & 0xc0) != 0x80;
	for (uint32_t i = 0; i < (carets ? carets : 1); i++)
		jf_buf_addc(b, '^');
	if (color)
		jf_buf_adds(b, C_RESET);
	jf_buf_addc(b, '\n');
}

static const char *help_of(const jf_diag *d)
{
	return d->help ? d->help : d->rule->info.help;
}

static void render_text(const jf_report *r, jf_buf *b, bool color, bool concise)
{
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		render_header(b, d, color);
		if (concise)
			continue;
		render_snippet(b, d, color);
		for (size_t k = 0; k < d->related.size; k++) {
			const jf_related *rel = &d->related.items[k];
			jf_buf_adds(b, "   = ");
			add_colored(b, color, C_BOLD, "note");
			jf_buf_adds(b, ": ");
			add_location(b, rel->src, rel->span.start);
			jf_buf_addf(b, ": %s\n", rel->message);
		}
		jf_buf_adds(b, "   = ");
		add_colored(b, color, C_BOLD, "help");
		jf_buf_addf(b, ": %s\n\n", help_of(d));
	}
}

static void json_str(jf_buf *b, const char *s)
{
	jf_buf_add_json_str(b, s, strlen(s));
}

static void render_json(const jf_report *r, jf_buf *b)
{
	jf_buf_adds(b, "{\n  \"version\": 1,\n  \"diagnostics\": [");
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_pos a = jf_source_pos(d->src, d->span.start), e = jf_source_pos(d->src, d->span.end);
		jf_buf_adds(b, i ? ",\n    {" : "\n    {");
		jf_buf_adds(b, "\n      \"rule\": ");
		json_str(b, d->rule->info.id);
		jf_buf_adds(b, ",\n      \"name\": ");
		json_str(b, d->rule->info.name);
		jf_buf_adds(b, ",\n      \"severity\": ");
		json_str(b, jf_severity_name(d->severity));
		jf_buf_adds(b, ",\n      \"category\": ");
		json_str(b, d->rule->info.category);
		jf_buf_adds(b, ",\n      \"file\": ");
		json_str(b, d->src->path);
		jf_buf_addf(b, ",\n      \"line\": %u,\n      \"column\": %u", a.line, a.col);
		jf_buf_addf(b, ",\n      \"end_line\": %u,\n      \"end_column\": %u", e.line, e.col);
		jf_buf_adds(b, ",\n      \"message\": ");
		json_str(b, d->message);
		jf_buf_adds(b, ",\n      \"help\": ");
		json_str(b, help_of(d));
		jf_buf_adds(b, ",\n      \"related\": [");
		for (size_t k = 0; k < d->related.size; k++) {
			const jf_related *rel = &d->related.items[k];
			jf_pos p = jf_source_pos(rel->src, rel->span.start);
			jf_buf_adds(b, k ? ", {" : "{");
			jf_buf_adds(b, "\"file\": ");
			json_str(b, rel->src->path);
			jf_buf_addf(b, ", \"line\": %u, \"column\": %u, \"message\": ", p.line, p.col);
			json_str(b, rel->message);
			jf_buf_adds(b, "}");
		}
		jf_buf_adds(b, "]\n    }");
	}
	jf_buf_adds(b, r->diags.size ? "\n  ]\n}\n" : "]\n}\n");
}

void jf_report_render(const jf_report *self, jf_buf *out, jf_format format, bool color)
{
	switch (format) {
	case JF_FORMAT_JSON:
		render_json(self, out);
		break;
	case JF_FORMAT_CONCISE:
		render_text(self, out, color, true);
		break;
	default:
		render_text(self, out, color, false);
	}
}
