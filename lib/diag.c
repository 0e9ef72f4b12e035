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
	if (d->src)
		add_location(b, d->src, d->span.start);
	else
		jf_buf_adds(b, "jobfix"); /* an error of the command line's options */
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
	if (d->rule)
		jf_buf_addf(b, " [%s %s]", d->rule->info.id, d->rule->info.name);
	jf_buf_addc(b, '\n');
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
	if (!s || !s->len || s->status == JF_SOURCE_BINARY)
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
	return d->help ? d->help : d->rule ? d->rule->info.help : NULL;
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
		if (help_of(d)) {
			jf_buf_adds(b, "   = ");
			add_colored(b, color, C_BOLD, "help");
			jf_buf_addf(b, ": %s\n", help_of(d));
		}
		jf_buf_addc(b, '\n');
	}
}

static void json_str(jf_buf *b, const char *s)
{
	jf_buf_add_json_str(b, s, strlen(s));
}

/* The position, message, help and related places of `d` as JSON members. */
static void json_body(jf_buf *b, const jf_diag *d)
{
	jf_buf_adds(b, "\n      \"file\": ");
	if (d->src) {
		jf_pos a = jf_source_pos(d->src, d->span.start), e = jf_source_pos(d->src, d->span.end);
		json_str(b, d->src->path);
		jf_buf_addf(b, ",\n      \"line\": %u,\n      \"column\": %u", a.line, a.col);
		jf_buf_addf(b, ",\n      \"end_line\": %u,\n      \"end_column\": %u", e.line, e.col);
	} else {
		jf_buf_adds(b, "null,\n      \"line\": null,\n      \"column\": null");
		jf_buf_adds(b, ",\n      \"end_line\": null,\n      \"end_column\": null");
	}
	jf_buf_adds(b, ",\n      \"message\": ");
	json_str(b, d->message);
	jf_buf_adds(b, ",\n      \"help\": ");
	if (help_of(d))
		json_str(b, help_of(d));
	else
		jf_buf_adds(b, "null");
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

static void render_json(const jf_report *r, jf_buf *b)
{
	jf_buf_adds(b, "{\n  \"version\": 1,\n  \"diagnostics\": [");
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_buf_adds(b, i ? ",\n    {" : "\n    {");
		jf_buf_adds(b, "\n      \"rule\": ");
		json_str(b, d->rule->info.id);
		jf_buf_adds(b, ",\n      \"name\": ");
		json_str(b, d->rule->info.name);
		jf_buf_adds(b, ",\n      \"severity\": ");
		json_str(b, jf_severity_name(d->severity));
		jf_buf_adds(b, ",\n      \"category\": ");
		json_str(b, d->rule->info.category);
		jf_buf_adds(b, ",");
		json_body(b, d);
	}
	jf_buf_adds(b, r->diags.size ? "\n  ]\n}\n" : "]\n}\n");
}

void jf_report_render_errors(const jf_report *self, jf_buf *out, jf_format format, bool color)
{
	if (format != JF_FORMAT_JSON) {
		render_text(self, out, color, format == JF_FORMAT_CONCISE);
		return;
	}
	jf_buf_adds(out, "{\n  \"version\": 1,\n  \"diagnostics\": [],\n  \"config_errors\": [");
	for (size_t i = 0; i < self->diags.size; i++) {
		jf_buf_adds(out, i ? ",\n    {" : "\n    {");
		json_body(out, &self->diags.items[i]);
	}
	jf_buf_adds(out, self->diags.size ? "\n  ]\n}\n" : "]\n}\n");
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

/* Statistics */

typedef struct {
	const char *key;       /* rule id, or category name */
	const jf_rule *rule;   /* for rules */
	const char *dimension; /* for categories */
	size_t order;          /* tie-break: the study's order of categories */
	jf_severity severity;
	size_t count;
} stat_row;

typedef JF_ARRAY(stat_row) stat_rows;

static stat_row *row_for(stat_rows *rows, const char *key)
{
	for (size_t i = 0; i < rows->size; i++)
		if (!strcmp(rows->items[i].key, key))
			return &rows->items[i];
	stat_row r = { key, NULL, NULL, 0, JF_SEV_NOTE, 0 };
	jf_array_push(rows, r);
	return jf_array_last(rows);
}

static int cmp_row(const void *pa, const void *pb)
{
	const stat_row *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return strcmp(a->key, b->key);
}

static size_t category_order(const char *name)
{
	size_t i = 0;
	while (jf_categories[i].name && strcmp(jf_categories[i].name, name))
		i++;
	return i;
}

static size_t max_len(const stat_rows *rows, size_t min, const char *(*field)(const stat_row *))
{
	for (size_t i = 0; i < rows->size; i++)
		if (strlen(field(&rows->items[i])) > min)
			min = strlen(field(&rows->items[i]));
	return min;
}

static const char *row_id(const stat_row *r)
{
	return r->rule->info.id;
}

static const char *row_name(const stat_row *r)
{
	return r->rule->info.name;
}

static const char *row_category(const stat_row *r)
{
	return r->key;
}

void jf_report_render_statistics(const jf_report *self, jf_buf *out, jf_format format)
{
	stat_rows rules = { 0 }, cats = { 0 };
	for (size_t i = 0; i < self->diags.size; i++) {
		const jf_diag *d = &self->diags.items[i];
		stat_row *r = row_for(&rules, d->rule->info.id);
		r->rule = d->rule;
		if (!r->count++ || d->severity > r->severity)
			r->severity = d->severity;
		stat_row *c = row_for(&cats, d->rule->info.category);
		c->dimension = jf_category_dimension(d->rule->info.category);
		c->order = category_order(c->key);
		c->count++;
	}
	if (rules.size) {
		qsort(rules.items, rules.size, sizeof(stat_row), cmp_row);
		qsort(cats.items, cats.size, sizeof(stat_row), cmp_row);
	}
	if (format == JF_FORMAT_JSON) {
		jf_buf_adds(out, "{\n  \"version\": 1,\n  \"rules\": [");
		for (size_t i = 0; i < rules.size; i++) {
			const stat_row *r = &rules.items[i];
			jf_buf_adds(out, i ? ",\n    {\"rule\": " : "\n    {\"rule\": ");
			json_str(out, r->rule->info.id);
			jf_buf_adds(out, ", \"name\": ");
			json_str(out, r->rule->info.name);
			jf_buf_adds(out, ", \"severity\": ");
			json_str(out, jf_severity_name(r->severity));
			jf_buf_adds(out, ", \"category\": ");
			json_str(out, r->rule->info.category);
			jf_buf_addf(out, ", \"count\": %zu}", r->count);
		}
		jf_buf_adds(out, rules.size ? "\n  ],\n  \"categories\": [" : "],\n  \"categories\": [");
		for (size_t i = 0; i < cats.size; i++) {
			const stat_row *c = &cats.items[i];
			jf_buf_adds(out, i ? ",\n    {\"category\": " : "\n    {\"category\": ");
			json_str(out, c->key);
			jf_buf_adds(out, ", \"dimension\": ");
			if (c->dimension)
				json_str(out, c->dimension);
			else
				jf_buf_adds(out, "null");
			jf_buf_addf(out, ", \"count\": %zu}", c->count);
		}
		jf_buf_adds(out, cats.size ? "\n  ]\n}\n" : "]\n}\n");
	} else if (rules.size) {
		int wid = (int)max_len(&rules, 4, row_id), wname = (int)max_len(&rules, 4, row_name);
		int wcat = (int)max_len(&cats, 8, row_category);
		jf_buf_addf(out, "%5s  %-*s  %-*s  %s\n", "COUNT", wid, "RULE", wname, "NAME", "SEVERITY");
		for (size_t i = 0; i < rules.size; i++) {
			const stat_row *r = &rules.items[i];
			jf_buf_addf(out, "%5zu  %-*s  %-*s  %s\n", r->count, wid, r->rule->info.id, wname,
			            r->rule->info.name, jf_severity_name(r->severity));
		}
		jf_buf_addf(out, "\n%5s  %-*s  %s\n", "COUNT", wcat, "CATEGORY", "DIMENSION");
		for (size_t i = 0; i < cats.size; i++) {
			const stat_row *c = &cats.items[i];
			jf_buf_addf(out, "%5zu  %-*s  %s\n", c->count, wcat, c->key,
			            c->dimension ? c->dimension : "-");
		}
	}
	jf_array_release(&rules);
	jf_array_release(&cats);
}
