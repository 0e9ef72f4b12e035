/* text.c - the text formats: a finding with its source line, notes and help for a
 * terminal (text), or its first line only (concise) */
#include "report/render.h"

#include "rules/registry.h"

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

static void render_header(jf_buf *b, const jf_diag *d, bool color)
{
	if (color)
		jf_buf_adds(b, C_BOLD);
	if (d->src)
		jf_render__location(b, d->src, d->span.start);
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
	if (line == 0)
		ls.start = jf_source_bom(s); /* a byte-order mark is nothing an editor shows */
	uint32_t at = d->span.start < ls.start ? ls.start
	              : d->span.start < ls.end ? d->span.start
	                                       : ls.end;
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

static void render(const jf_report *r, jf_buf *b, bool color, bool concise)
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
			jf_render__location(b, rel->src, rel->span.start);
			jf_buf_addf(b, ": %s\n", rel->message);
		}
		if (jf_render__help(d)) {
			jf_buf_adds(b, "   = ");
			add_colored(b, color, C_BOLD, "help");
			jf_buf_addf(b, ": %s\n", jf_render__help(d));
		}
		jf_buf_addc(b, '\n');
	}
}

void jf_render__text(const jf_report *r, jf_buf *out, bool color)
{
	render(r, out, color, false);
}

void jf_render__concise(const jf_report *r, jf_buf *out, bool color)
{
	render(r, out, color, true);
}
