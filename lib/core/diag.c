/* diag.c - collecting diagnostics and rendering them: text, concise lines, JSON, SARIF and
 * GitHub Actions workflow commands */
#include "core/diag.h"

#include <inttypes.h>
#include <stdlib.h>

#include "report/jsonw.h"
#include "rules/registry.h"

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

/* Rendering */

/* The one place that names a severity in each format: text, JSON and SARIF
 * (whose levels are error, warning, note) use the severity names; GitHub's
 * workflow commands call a note a notice. */
static const char *level_name(jf_severity s, jf_format format)
{
	if (format == JF_FORMAT_GITHUB && s == JF_SEV_NOTE)
		return "notice";
	return jf_severity_name(s);
}

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
	add_colored(b, color, severity_color(d->severity), level_name(d->severity, JF_FORMAT_TEXT));
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

/* The position, message, help and related places of `d` as JSON members. */
static void json_body(jf_buf *b, const jf_diag *d)
{
	jf_buf_adds(b, "\n      \"file\": ");
	if (d->src) {
		jf_pos a = jf_source_pos(d->src, d->span.start), e = jf_source_pos(d->src, d->span.end);
		jf_jsonw_quote(b, d->src->path);
		jf_buf_addf(b, ",\n      \"line\": %u,\n      \"column\": %u", a.line, a.col);
		jf_buf_addf(b, ",\n      \"end_line\": %u,\n      \"end_column\": %u", e.line, e.col);
	} else {
		jf_buf_adds(b, "null,\n      \"line\": null,\n      \"column\": null");
		jf_buf_adds(b, ",\n      \"end_line\": null,\n      \"end_column\": null");
	}
	jf_buf_adds(b, ",\n      \"message\": ");
	jf_jsonw_quote(b, d->message);
	jf_buf_adds(b, ",\n      \"help\": ");
	if (help_of(d))
		jf_jsonw_quote(b, help_of(d));
	else
		jf_buf_adds(b, "null");
	jf_buf_adds(b, ",\n      \"related\": [");
	for (size_t k = 0; k < d->related.size; k++) {
		const jf_related *rel = &d->related.items[k];
		jf_pos p = jf_source_pos(rel->src, rel->span.start);
		jf_buf_adds(b, k ? ", {" : "{");
		jf_buf_adds(b, "\"file\": ");
		jf_jsonw_quote(b, rel->src->path);
		jf_buf_addf(b, ", \"line\": %u, \"column\": %u, \"message\": ", p.line, p.col);
		jf_jsonw_quote(b, rel->message);
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
		jf_jsonw_quote(b, d->rule->info.id);
		jf_buf_adds(b, ",\n      \"name\": ");
		jf_jsonw_quote(b, d->rule->info.name);
		jf_buf_adds(b, ",\n      \"severity\": ");
		jf_jsonw_quote(b, level_name(d->severity, JF_FORMAT_JSON));
		jf_buf_adds(b, ",\n      \"category\": ");
		jf_jsonw_quote(b, d->rule->info.category);
		jf_buf_adds(b, ",");
		json_body(b, d);
	}
	jf_buf_adds(b, r->diags.size ? "\n  ]\n}\n" : "]\n}\n");
}

/* SARIF 2.1.0 */

/* A SARIF message or multiformatMessageString with text only. */
static void sarif_text(jf_jsonw *w, const char *key, const char *text)
{
	jf_jsonw_pair(w, key, "text", text);
}

#define SARIF_SCHEMA                                                                       \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
/* The key of jobfix's fingerprint in partialFingerprints; bump the version when
 * the way it is computed changes. */
#define SARIF_FINGERPRINT "jobfixLineHash/v1"

static void sarif_rule(jf_jsonw *w, const jf_rule *rule)
{
	const jf_rule_info *r = &rule->info;
	jf_buf t = JF_BUF_INIT, uri = JF_BUF_INIT;
	if (!rule->dir) /* a rule of a user's folder has no page of jobfix's */
		jf_rule_doc_uri(rule, &uri);
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "id", r->id);
	jf_jsonw_str(w, "name", r->name);
	sarif_text(w, "shortDescription", r->summary);
	jf_buf_addf(&t, "%s (failure category: %s)", r->summary, r->category);
	sarif_text(w, "fullDescription", t.buf);
	/* The help is the rule's explanation, as `jobfix explain` prints it. */
	char *text = jf_rule_explain(r, JF_EXPLAIN_TEXT);
	char *markdown = jf_rule_explain(r, JF_EXPLAIN_MARKDOWN);
	jf_jsonw_open(w, "help", '{');
	jf_jsonw_str(w, "text", text ? text : r->help);
	jf_buf_truncate(&t, 0);
	if (markdown)
		jf_buf_adds(&t, markdown);
	else if (uri.len)
		jf_buf_addf(&t, "%s\n\n[%s %s](%s)", r->help, r->id, r->name, uri.buf);
	else
		jf_buf_adds(&t, r->help);
	jf_jsonw_str(w, "markdown", t.buf);
	jf_jsonw_close(w, '}');
	free(text);
	free(markdown);
	if (uri.len)
		jf_jsonw_str(w, "helpUri", uri.buf);
	jf_jsonw_pair(w, "defaultConfiguration", "level", level_name(r->severity, JF_FORMAT_SARIF));
	jf_jsonw_member(w, "properties");
	jf_buf_adds(w->b, "{\"tags\": [");
	jf_jsonw_quote(w->b, r->category);
	jf_buf_adds(w->b, "]}");
	jf_jsonw_close(w, '}');
	jf_buf_release(&t);
	jf_buf_release(&uri);
}

/* The file as a URI reference: relative as the path is shown, or file:///... */
static void sarif_artifact(jf_jsonw *w, const jf_source *src)
{
	jf_buf uri = JF_BUF_INIT;
	const char *path = src->path;
	if (path[0] == '/')
		jf_buf_adds(&uri, "file://");
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	jf_buf_add_uri_path(&uri, path);
	jf_jsonw_pair(w, "artifactLocation", "uri", uri.buf);
	jf_buf_release(&uri);
}

/* A physicalLocation with its region; columns count Unicode code points (the run
 * says so in columnKind), end just past the span, as in the JSON format. */
static void sarif_physical(jf_jsonw *w, const jf_source *src, jf_span span)
{
	jf_pos a = jf_source_pos(src, span.start), e = jf_source_pos(src, span.end);
	jf_jsonw_open(w, "physicalLocation", '{');
	sarif_artifact(w, src);
	jf_jsonw_member(w, "region");
	jf_buf_addf(w->b, "{\"startLine\": %u, \"startColumn\": %u, \"endLine\": %u, \"endColumn\": %u}",
	            a.line, a.col, e.line, e.col);
	jf_jsonw_close(w, '}');
}

/* FNV-1a, 64 bits. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

/*
 * What identifies a finding across runs, and across edits elsewhere in its
 * file: a hash of the rule id, the file as shown and the text of the line the
 * finding starts on, with leading and trailing white space dropped and inner
 * runs of it taken as one space.
 */
static uint64_t finding_key(const jf_diag *d)
{
	const jf_source *s = d->src;
	uint64_t h = 0xcbf29ce484222325u;
	h = fnv1a(h, d->rule->info.id, strlen(d->rule->info.id) + 1);
	h = fnv1a(h, s->path, strlen(s->path) + 1);
	jf_span ls = jf_source_line_span(s, jf_source_line_of(s, d->span.start));
	bool text = false, gap = false;
	for (uint32_t i = ls.start; i < ls.end; i++) {
		char c = s->data[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			gap = text;
			continue;
		}
		if (gap)
			h = fnv1a(h, " ", 1);
		gap = false;
		text = true;
		h = fnv1a(h, &c, 1);
	}
	return h;
}

/* A finding's message; help written for this finding goes on a second line
 * (the rule's own help is in its descriptor). */
static void sarif_message(jf_jsonw *w, const jf_diag *d)
{
	if (!d->help) {
		sarif_text(w, "message", d->message);
		return;
	}
	jf_buf t = JF_BUF_INIT;
	jf_buf_addf(&t, "%s\nhelp: %s", d->message, d->help);
	sarif_text(w, "message", t.buf);
	jf_buf_release(&t);
}

static void sarif_result(jf_jsonw *w, const jf_diag *d, size_t rule_index,
                         uint64_t fingerprint)
{
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "ruleId", d->rule->info.id);
	jf_jsonw_uint(w, "ruleIndex", rule_index);
	jf_jsonw_str(w, "level", level_name(d->severity, JF_FORMAT_SARIF));
	sarif_message(w, d);
	jf_jsonw_open(w, "locations", '[');
	jf_jsonw_open(w, NULL, '{');
	sarif_physical(w, d->src, d->span);
	jf_jsonw_close(w, '}');
	jf_jsonw_close(w, ']');
	if (d->related.size) {
		jf_jsonw_open(w, "relatedLocations", '[');
		for (size_t k = 0; k < d->related.size; k++) {
			const jf_related *rel = &d->related.items[k];
			jf_jsonw_open(w, NULL, '{');
			jf_jsonw_uint(w, "id", k + 1);
			sarif_text(w, "message", rel->message);
			sarif_physical(w, rel->src, rel->span);
			jf_jsonw_close(w, '}');
		}
		jf_jsonw_close(w, ']');
	}
	char hex[17];
	snprintf(hex, sizeof hex, "%016" PRIx64, fingerprint);
	jf_jsonw_pair(w, "partialFingerprints", SARIF_FINGERPRINT, hex);
	jf_jsonw_close(w, '}');
}

/* Statistics: the counts of each rule and of each category of the study */

typedef struct {
	const char *key;       /* rule id, or category name */
	const jf_rule *rule;   /* for rules */
	const char *dimension; /* for categories */
	size_t order;          /* tie-break: the study's order of categories */
	jf_severity severity;
	size_t count;
} stat_row;

typedef JF_ARRAY(stat_row) stat_rows;

typedef struct {
	stat_rows rules, cats;
} stats;

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

/* Counts the report's findings, most frequent first; stats_release() frees. */
static void stats_collect(const jf_report *self, stats *out)
{
	*out = (stats){ 0 };
	for (size_t i = 0; i < self->diags.size; i++) {
		const jf_diag *d = &self->diags.items[i];
		stat_row *r = row_for(&out->rules, d->rule->info.id);
		r->rule = d->rule;
		if (!r->count++ || d->severity > r->severity)
			r->severity = d->severity;
		stat_row *c = row_for(&out->cats, d->rule->info.category);
		c->dimension = jf_category_dimension(d->rule->info.category);
		c->order = category_order(c->key);
		c->count++;
	}
	if (out->rules.size) {
		qsort(out->rules.items, out->rules.size, sizeof(stat_row), cmp_row);
		qsort(out->cats.items, out->cats.size, sizeof(stat_row), cmp_row);
	}
}

static void stats_release(stats *s)
{
	jf_array_release(&s->rules);
	jf_array_release(&s->cats);
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

/* The two tables; nothing when there are no findings. */
static void stats_text(const stats *s, jf_buf *out)
{
	if (!s->rules.size)
		return;
	int wid = (int)max_len(&s->rules, 4, row_id), wname = (int)max_len(&s->rules, 4, row_name);
	int wcat = (int)max_len(&s->cats, 8, row_category);
	jf_buf_addf(out, "%5s  %-*s  %-*s  %s\n", "COUNT", wid, "RULE", wname, "NAME", "SEVERITY");
	for (size_t i = 0; i < s->rules.size; i++) {
		const stat_row *r = &s->rules.items[i];
		jf_buf_addf(out, "%5zu  %-*s  %-*s  %s\n", r->count, wid, r->rule->info.id, wname,
		            r->rule->info.name, jf_severity_name(r->severity));
	}
	jf_buf_addf(out, "\n%5s  %-*s  %s\n", "COUNT", wcat, "CATEGORY", "DIMENSION");
	for (size_t i = 0; i < s->cats.size; i++) {
		const stat_row *c = &s->cats.items[i];
		jf_buf_addf(out, "%5zu  %-*s  %s\n", c->count, wcat, c->key,
		            c->dimension ? c->dimension : "-");
	}
}

/* The members "rules" and "categories" of the JSON statistics, one row a line. */
static void stats_json_members(const stats *s, jf_jsonw *w)
{
	jf_jsonw_open(w, "rules", '[');
	for (size_t i = 0; i < s->rules.size; i++) {
		const stat_row *r = &s->rules.items[i];
		jf_jsonw_member(w, NULL);
		jf_buf_adds(w->b, "{\"rule\": ");
		jf_jsonw_quote(w->b, r->rule->info.id);
		jf_buf_adds(w->b, ", \"name\": ");
		jf_jsonw_quote(w->b, r->rule->info.name);
		jf_buf_adds(w->b, ", \"severity\": ");
		jf_jsonw_quote(w->b, jf_severity_name(r->severity));
		jf_buf_adds(w->b, ", \"category\": ");
		jf_jsonw_quote(w->b, r->rule->info.category);
		jf_buf_addf(w->b, ", \"count\": %zu}", r->count);
	}
	jf_jsonw_close(w, ']');
	jf_jsonw_open(w, "categories", '[');
	for (size_t i = 0; i < s->cats.size; i++) {
		const stat_row *c = &s->cats.items[i];
		jf_jsonw_member(w, NULL);
		jf_buf_adds(w->b, "{\"category\": ");
		jf_jsonw_quote(w->b, c->key);
		jf_buf_adds(w->b, ", \"dimension\": ");
		if (c->dimension)
			jf_jsonw_quote(w->b, c->dimension);
		else
			jf_buf_adds(w->b, "null");
		jf_buf_addf(w->b, ", \"count\": %zu}", c->count);
	}
	jf_jsonw_close(w, ']');
}

/* A notification of the invocation: an error of the configuration, with its
 * place when it has one. */
static void sarif_notification(jf_jsonw *w, const jf_diag *d)
{
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "level", "error");
	sarif_message(w, d);
	if (d->src) {
		jf_jsonw_open(w, "locations", '[');
		jf_jsonw_open(w, NULL, '{');
		sarif_physical(w, d->src, d->span);
		jf_jsonw_close(w, '}');
		jf_jsonw_close(w, ']');
	}
	jf_jsonw_close(w, '}');
}

/*
 * The SARIF log of `r`'s findings (NULL: none), or of the errors of jobfix's
 * configuration in `config_errors` (then nothing was linted: the invocation
 * failed, with each error a toolConfigurationNotification). With `s`, the
 * run's properties carry the statistics.
 */
static void render_sarif(const jf_report *r, const jf_report *config_errors, const stats *s,
                         jf_buf *b)
{
	static const jf_report none = { 0 };
	if (!r)
		r = &none;
	jf_jsonw w;
	jf_jsonw_start(&w, b);
	jf_jsonw_str(&w, "$schema", SARIF_SCHEMA);
	jf_jsonw_str(&w, "version", "2.1.0");
	jf_jsonw_open(&w, "runs", '[');
	jf_jsonw_open(&w, NULL, '{');
	jf_jsonw_open(&w, "tool", '{');
	jf_jsonw_open(&w, "driver", '{');
	jf_jsonw_str(&w, "name", "jobfix");
	jf_jsonw_str(&w, "version", JF_VERSION);
	jf_jsonw_str(&w, "semanticVersion", JF_VERSION);
	jf_jsonw_str(&w, "informationUri", jf_homepage_url());
	/* The rules the results use, in table order: a result's ruleIndex is
	 * its rule's place in this list. */
	size_t nrules = jf_rules_size(), used = 0, overridden = 0;
	size_t *index = jf_xcalloc(nrules ? nrules : 1, sizeof(*index)); /* 1 + place, 0: unused */
	/* The severity the config gives a rule is the level of each of its results. */
	jf_severity *level = jf_xcalloc(nrules ? nrules : 1, sizeof(*level));
	for (size_t i = 0; i < r->diags.size; i++) {
		size_t k = jf_rule_index(r->diags.items[i].rule);
		index[k] = 1;
		level[k] = r->diags.items[i].severity;
	}
	jf_jsonw_open(&w, "rules", '[');
	for (size_t i = 0; i < nrules; i++)
		if (index[i]) {
			index[i] = ++used;
			sarif_rule(&w, jf_rules_at(i));
			overridden += level[i] != jf_rules_at(i)->info.severity;
		}
	jf_jsonw_close(&w, ']');
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, '}');
	jf_jsonw_open(&w, "invocations", '[');
	jf_jsonw_open(&w, NULL, '{');
	bool failed = r->failures.size || (config_errors && config_errors->diags.size);
	jf_jsonw_member(&w, "executionSuccessful");
	jf_buf_adds(b, failed ? "false" : "true");
	if (overridden) {
		/* The config's `severity`: each rule whose level is not its default. */
		jf_jsonw_open(&w, "ruleConfigurationOverrides", '[');
		for (size_t i = 0; i < nrules; i++) {
			if (!index[i] || level[i] == jf_rules_at(i)->info.severity)
				continue;
			jf_jsonw_open(&w, NULL, '{');
			jf_jsonw_member(&w, "descriptor");
			jf_buf_adds(b, "{\"id\": ");
			jf_jsonw_quote(b, jf_rules_at(i)->info.id);
			jf_buf_addf(b, ", \"index\": %zu}", index[i] - 1);
			jf_jsonw_pair(&w, "configuration", "level", level_name(level[i], JF_FORMAT_SARIF));
			jf_jsonw_close(&w, '}');
		}
		jf_jsonw_close(&w, ']');
	}
	if (config_errors && config_errors->diags.size) {
		jf_jsonw_open(&w, "toolConfigurationNotifications", '[');
		for (size_t i = 0; i < config_errors->diags.size; i++)
			sarif_notification(&w, &config_errors->diags.items[i]);
		jf_jsonw_close(&w, ']');
	}
	if (r->failures.size) {
		jf_jsonw_open(&w, "toolExecutionNotifications", '[');
		for (size_t i = 0; i < r->failures.size; i++) {
			jf_jsonw_open(&w, NULL, '{');
			jf_jsonw_str(&w, "level", "error");
			sarif_text(&w, "message", r->failures.items[i]);
			jf_jsonw_close(&w, '}');
		}
		jf_jsonw_close(&w, ']');
	}
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, ']');
	jf_jsonw_str(&w, "columnKind", "unicodeCodePoints");
	jf_jsonw_open(&w, "results", '[');
	/* A finding's fingerprint: its key and how many findings before it in the
	 * same file have the same key (diagnostics are sorted by file). */
	uint64_t *keys = jf_xcalloc(r->diags.size ? r->diags.size : 1, sizeof(*keys));
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		keys[i] = finding_key(d);
		unsigned seen = 0;
		for (size_t k = i; k-- > 0 && !strcmp(r->diags.items[k].src->path, d->src->path);)
			seen += keys[k] == keys[i];
		char n[16];
		int len = snprintf(n, sizeof n, ":%u", seen);
		sarif_result(&w, d, index[jf_rule_index(d->rule)] - 1, fnv1a(keys[i], n, (size_t)len));
	}
	free(keys);
	free(index);
	free(level);
	jf_jsonw_close(&w, ']');
	if (s) {
		jf_jsonw_open(&w, "properties", '{');
		jf_jsonw_open(&w, "statistics", '{');
		stats_json_members(s, &w);
		jf_jsonw_close(&w, '}');
		jf_jsonw_close(&w, '}');
	}
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, ']');
	jf_jsonw_finish(&w);
}

/* GitHub Actions workflow commands, one a finding: an annotation on the file
 * and line. The message carries the related notes and the help on extra lines. */
static void render_github(const jf_report *r, jf_buf *b)
{
	jf_buf msg = JF_BUF_INIT;
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_pos a = jf_source_pos(d->src, d->span.start), e = jf_source_pos(d->src, d->span.end);
		jf_buf_addf(b, "::%s file=", level_name(d->severity, JF_FORMAT_GITHUB));
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
			add_location(&msg, rel->src, rel->span.start);
			jf_buf_addf(&msg, ": %s", rel->message);
		}
		jf_buf_addf(&msg, "\nhelp: %s", help_of(d));
		jf_buf_add_gh_escaped(b, msg.buf, false);
		jf_buf_addc(b, '\n');
	}
	jf_buf_release(&msg);
}


/* The errors of jobfix's configuration as error annotations: on the config
 * file's line when they have one, else on the workflow run. */
static void render_github_errors(const jf_report *r, jf_buf *b)
{
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
		if (help_of(d))
			jf_buf_addf(&msg, "\nhelp: %s", help_of(d));
		jf_buf_add_gh_escaped(b, msg.buf, false);
		jf_buf_addc(b, '\n');
	}
	jf_buf_release(&msg);
}

void jf_report_render_errors(const jf_report *self, jf_buf *out, jf_format format, bool color)
{
	switch (format) {
	case JF_FORMAT_JSON:
		jf_buf_adds(out, "{\n  \"version\": 1,\n  \"diagnostics\": [],\n  \"config_errors\": [");
		for (size_t i = 0; i < self->diags.size; i++) {
			jf_buf_adds(out, i ? ",\n    {" : "\n    {");
			json_body(out, &self->diags.items[i]);
		}
		jf_buf_adds(out, self->diags.size ? "\n  ]\n}\n" : "]\n}\n");
		break;
	case JF_FORMAT_SARIF:
		render_sarif(NULL, self, NULL, out);
		break;
	case JF_FORMAT_GITHUB:
		render_github_errors(self, out);
		break;
	default:
		render_text(self, out, color, format == JF_FORMAT_CONCISE);
	}
}

void jf_report_render(const jf_report *self, jf_buf *out, jf_format format, bool color)
{
	switch (format) {
	case JF_FORMAT_JSON:
		render_json(self, out);
		break;
	case JF_FORMAT_SARIF:
		render_sarif(self, NULL, NULL, out);
		break;
	case JF_FORMAT_GITHUB:
		render_github(self, out);
		break;
	case JF_FORMAT_CONCISE:
		render_text(self, out, color, true);
		break;
	default:
		render_text(self, out, color, false);
	}
}

void jf_report_render_statistics(const jf_report *self, jf_buf *out, jf_format format)
{
	stats s;
	stats_collect(self, &s);
	switch (format) {
	case JF_FORMAT_JSON: {
		jf_jsonw w;
		jf_jsonw_start(&w, out);
		jf_jsonw_uint(&w, "version", 1);
		stats_json_members(&s, &w);
		jf_jsonw_finish(&w);
		break;
	}
	case JF_FORMAT_SARIF:
		/* Code scanning needs the findings: the counts come with them. */
		render_sarif(self, NULL, &s, out);
		break;
	case JF_FORMAT_GITHUB:
		/* The annotations, then the tables for the log. */
		render_github(self, out);
		stats_text(&s, out);
		break;
	default:
		stats_text(&s, out);
	}
	stats_release(&s);
}
