/* explain.c - the long text of each rule: read from rules/<id>.md, rendered for a terminal or as Markdown */
#include <ctype.h>
#include <pthread.h>

#include "core/embed.h"
#include "report/explain.h"
#include "rules/registry.h"

static const char *const titles[JF_DOC_COUNT] = {
	[JF_DOC_FINDS] = "What it finds",   [JF_DOC_WHY] = "Why it fails",
	[JF_DOC_EXAMPLE] = "Example",       [JF_DOC_FIX] = "How to fix",
	[JF_DOC_SILENCE] = "How to silence",
};

const char *jf_doc_section_title(jf_doc_section s)
{
	return (unsigned)s < JF_DOC_COUNT ? titles[s] : NULL;
}

static const char *severity_meaning(jf_severity s)
{
	return s == JF_SEV_ERROR     ? "the job will fail"
	       : s == JF_SEV_WARNING ? "the job will likely fail or waste GPU time"
	                             : "information; it fails a run only with --fail-on note";
}

/* ---- reading rules/<id>.md ---- */

typedef struct {
	char *section[JF_DOC_COUNT]; /* NULL when the text is incomplete */
	jf_error error; /* why the text is incomplete or malformed */
} rule_doc;

/* The texts of jobfix's own rules, built once (load_docs). Rules of a
 * user's folder have none. */
static struct {
	const jf_rule *rule;
	rule_doc doc;
} *docs;
static size_t ndocs;

static bool is_blank(const char *p, const char *eol)
{
	for (; p < eol; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return false;
	return true;
}

static bool line_starts(const char *p, const char *eol, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(eol - p) >= n && !memcmp(p, prefix, n);
}

/* The level of an ATX heading line ("## Title" is 2), or 0 for any other line. */
static int heading_level(const char *p, const char *eol)
{
	int n = 0;
	while (p + n < eol && p[n] == '#' && n < 7)
		n++;
	if (n == 0 || n > 6 || (p + n < eol && p[n] != ' ' && p[n] != '\t' && p[n] != '\r'))
		return 0;
	return n;
}

/* A copy of [p, end) without the blank lines around it, or NULL when all blank. */
static char *trimmed_copy(const char *p, const char *end)
{
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (!is_blank(p, eol))
			break;
		p = eol + (eol < end);
	}
	while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end > p ? jf_xstrndup(p, (size_t)(end - p)) : NULL;
}

/*
 * Splits `data` into the sections, in `out` (each freshly allocated). Returns
 * 0, or JF_EPARSE with the message in `err` (and then `out` is all NULL).
 */
static int parse_doc(const char *path, const char *data, size_t len, char **out, jf_error *err)
{
	const char *p = data, *end = data + len, *body = NULL;
	int cur = -1, fence_line = 0;
	bool fence = false;
	int rc = 0;
	for (int line = 1; p < end && !rc; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		int level = fence ? 0 : heading_level(p, eol);
		if (level) {
			const char *t = p + level;
			if (level == 1) {
				rc = jf_error_set(err, JF_EPARSE,
				                  "%s:%d: '# ' headings are not allowed: the page title "
				                  "comes from the rule table",
				                  path, line);
			} else if (level > 2) {
				/* `###` and deeper belong to the section they are in. */
				if (cur < 0)
					rc = jf_error_set(err, JF_EPARSE, "%s:%d: text before '## %s'", path,
					                  line, titles[0]);
			} else {
				const char *title = t + (t < eol && *t == ' ');
				const char *te = eol;
				while (te > title && (te[-1] == ' ' || te[-1] == '\r'))
					te--;
				if (cur >= 0)
					out[cur] = trimmed_copy(body, p);
				if (cur >= 0 && !out[cur])
					rc = jf_error_set(err, JF_EPARSE, "%s: section '## %s' is empty", path,
					                  titles[cur]);
				else if (cur + 1 >= JF_DOC_COUNT)
					rc = jf_error_set(err, JF_EPARSE,
					                  "%s:%d: '## %.*s' after the last section '## %s'",
					                  path, line, (int)(te - title), title,
					                  titles[JF_DOC_COUNT - 1]);
				else if ((size_t)(te - title) != strlen(titles[cur + 1]) ||
				         memcmp(title, titles[cur + 1], (size_t)(te - title)))
					rc = jf_error_set(err, JF_EPARSE,
					                  "%s:%d: expected '## %s' here, found '## %.*s'", path,
					                  line, titles[cur + 1], (int)(te - title), title);
				if (!rc)
					cur++;
				body = eol + (eol < end);
			}
		} else {
			if (line_starts(p, eol, "```")) {
				fence = !fence;
				fence_line = line;
			}
			if (cur < 0 && !is_blank(p, eol))
				rc = jf_error_set(err, JF_EPARSE, "%s:%d: text before '## %s'", path, line,
				                  titles[0]);
		}
		p = eol + (eol < end);
	}
	if (!rc && fence)
		rc = jf_error_set(err, JF_EPARSE, "%s:%d: code fence never closed", path,
		                  fence_line);
	if (!rc && cur >= 0)
		out[cur] = trimmed_copy(body, end);
	if (!rc && cur >= 0 && !out[cur])
		rc = jf_error_set(err, JF_EPARSE, "%s: section '## %s' is empty", path, titles[cur]);
	if (!rc && cur < JF_DOC_COUNT - 1)
		rc = jf_error_set(err, JF_EPARSE, "%s: section '## %s' is missing", path,
		                  titles[cur + 1]);
	if (rc)
		for (int i = 0; i < JF_DOC_COUNT; i++) {
			free(out[i]);
			out[i] = NULL;
		}
	return rc;
}

int jf_rule_doc__check(const char *path, const char *data, size_t len, jf_error *err)
{
	char *out[JF_DOC_COUNT] = { 0 };
	int rc = parse_doc(path, data, len, out, err);
	for (int i = 0; i < JF_DOC_COUNT; i++)
		free(out[i]);
	return rc;
}

/* The texts of jobfix's own rules, built once per process, as their table is. */
static void load_docs(void)
{
	const jf_rule_list *own = jf_rules_builtin();
	size_t n = own->items.size;
	docs = jf_xcalloc(n ? n : 1, sizeof *docs);
	for (size_t i = 0; i < n; i++) {
		const jf_rule *r = own->items.items[i];
		rule_doc *d = &docs[ndocs].doc;
		docs[ndocs++].rule = r;
		char file[64];
		snprintf(file, sizeof file, "%s.md", r->info.id);
		const jf_embedded *f = NULL;
		for (size_t k = 0; k < jf_embedded_rule_docs_count && !f; k++)
			if (!strcmp(jf_embedded_rule_docs[k].path, file))
				f = &jf_embedded_rule_docs[k];
		char path[80];
		snprintf(path, sizeof path, "rules/%s", file);
		if (!f)
			jf_error_set(&d->error, JF_ENOTFOUND, "%s: no such file: every rule needs its text",
			             path);
		else
			parse_doc(path, f->data, f->len, d->section, &d->error);
	}
}

static const rule_doc *doc_of(const jf_rule_info *rule)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_docs);
	for (size_t i = 0; rule && i < ndocs; i++)
		if (&docs[i].rule->info == rule)
			return &docs[i].doc;
	return NULL;
}

const char *jf_rule_doc__error(const jf_rule_info *rule)
{
	const rule_doc *d = doc_of(rule);
	return !d ? "not a rule of the table" : d->error.code ? jf_error_message(&d->error) : NULL;
}

const char *jf_rule_doc(const jf_rule_info *rule, jf_doc_section s)
{
	const rule_doc *d = doc_of(rule);
	return d && (unsigned)s < JF_DOC_COUNT ? d->section[s] : NULL;
}

/* ---- rendering ---- */

/* How to silence any finding by hand (docs/config.md, "Suppressions"), as
 * suppress.c implements it; %s is the rule id. Lines as rendered. */
static void add_silence_by_hand(jf_buf *b, const char *indent, const char *id)
{
	jf_buf_addf(b,
	            "%sAny finding can also be silenced by hand, in the file it is reported in:\n"
	            "%s`# jobfix: ignore[%s]` (the rule's id or name) at the end of the line the\n"
	            "%sfinding starts on, or alone on the line right before it, silences the rule\n"
	            "%son that line; `# jobfix: ignore-file[%s]` anywhere in the file silences it\n"
	            "%sin the whole file. `ignore: [%s]` in `.jobfix.yaml` turns the rule off, and\n"
	            "%s`per-file-ignores` turns it off in some files. A suppression that silences\n"
	            "%snothing is reported as JF007 unused-suppression.\n",
	            indent, indent, id, indent, indent, id, indent, id, indent, indent);
}

/* Appends `s` with the first letter upper case and a final period. */
static void add_sentence(jf_buf *b, const char *s)
{
	size_t start = b->len;
	jf_buf_adds(b, s);
	if (b->len > start && islower((unsigned char)b->buf[start]))
		b->buf[start] = (char)toupper((unsigned char)b->buf[start]);
	if (b->len > start && b->buf[b->len - 1] != '.')
		jf_buf_addc(b, '.');
}

/*
 * Appends plain text `s` as inline Markdown: outside `code spans`, the
 * characters Markdown would read as markup are escaped; in a table cell, `|`
 * everywhere.
 */
static void add_md_inline(jf_buf *b, const char *s, bool cell)
{
	bool code = false;
	for (; *s; s++) {
		if (*s == '`')
			code = !code;
		else if (*s == '|' && cell)
			jf_buf_addc(b, '\\');
		else if (!code && strchr("\\<>*_[]", *s))
			jf_buf_addc(b, '\\');
		jf_buf_addc(b, *s);
	}
}

/* A line of Markdown as plain text: `[text](target)` becomes `text` outside code spans. */
static void add_text_line(jf_buf *b, const char *p, const char *eol)
{
	bool code = false;
	while (p < eol) {
		if (*p == '`')
			code = !code;
		if (!code && *p == '[') {
			const char *close = memchr(p, ']', (size_t)(eol - p));
			const char *paren = close && close + 1 < eol && close[1] == '(' ?
			                            memchr(close, ')', (size_t)(eol - close)) : NULL;
			if (paren) {
				jf_buf_add(b, p + 1, (size_t)(close - p - 1));
				p = paren + 1;
				continue;
			}
		}
		jf_buf_addc(b, *p++);
	}
}

/* A section body for a terminal: text indented by 2, code by 6, fences dropped. */
static void add_text_body(jf_buf *b, const char *s)
{
	const char *p = s, *end = s + strlen(s);
	bool fence = false;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (line_starts(p, eol, "```")) {
			fence = !fence;
		} else if (is_blank(p, eol)) {
			jf_buf_addc(b, '\n');
		} else if (fence) {
			jf_buf_adds(b, "      ");
			jf_buf_add(b, p, (size_t)(eol - p));
			jf_buf_addc(b, '\n');
		} else {
			jf_buf_adds(b, "  ");
			add_text_line(b, p, eol);
			jf_buf_addc(b, '\n');
		}
		p = eol + (eol < end);
	}
}

/* Appends `s` word-wrapped at 78 columns, each line indented by `indent` spaces. */
static void add_wrapped(jf_buf *b, int indent, const char *s)
{
	int col = 0;
	while (*s) {
		size_t w = strcspn(s, " ");
		if (col > indent && col + 1 + (int)w > 78) {
			jf_buf_addc(b, '\n');
			col = 0;
		}
		if (col == 0) {
			jf_buf_addf(b, "%*s", indent, "");
			col = indent;
		} else {
			jf_buf_addc(b, ' ');
			col++;
		}
		jf_buf_add(b, s, w);
		col += (int)w;
		s += w;
		while (*s == ' ')
			s++;
	}
	jf_buf_addc(b, '\n');
}

static void explain_text(jf_buf *b, const jf_rule_info *r, const rule_doc *d)
{
	const char *dim = jf_category_dimension(r->category);
	jf_buf_addf(b, "%s %s\n\n", r->id, r->name);
	jf_buf summary = JF_BUF_INIT;
	add_sentence(&summary, r->summary);
	add_wrapped(b, 2, summary.buf);
	jf_buf_release(&summary);
	jf_buf_addf(b, "\n  severity:   %s (%s)\n", jf_severity_name(r->severity),
	            severity_meaning(r->severity));
	jf_buf_addf(b, "  category:   %s\n", r->category);
	jf_buf_addf(b, "  dimension:  %s\n", dim ? dim : "none");
	for (int s = 0; s < JF_DOC_COUNT; s++) {
		jf_buf_addf(b, "\n%s\n\n", titles[s]);
		add_text_body(b, d->section[s]);
	}
	jf_buf_addc(b, '\n');
	add_silence_by_hand(b, "  ", r->id);
}

static void explain_markdown(jf_buf *b, const jf_rule_info *r, const rule_doc *d)
{
	const char *dim = jf_category_dimension(r->category);
	jf_buf_addf(b, "# %s %s\n\n", r->id, r->name);
	size_t start = b->len;
	add_md_inline(b, r->summary, false);
	if (b->len > start && islower((unsigned char)b->buf[start]))
		b->buf[start] = (char)toupper((unsigned char)b->buf[start]);
	jf_buf_adds(b, ".\n\n| Severity | Category | Dimension |\n|---|---|---|\n");
	jf_buf_addf(b, "| %s: %s | %s | %s |\n", jf_severity_name(r->severity),
	            severity_meaning(r->severity), r->category, dim ? dim : "none");
	for (int s = 0; s < JF_DOC_COUNT; s++)
		jf_buf_addf(b, "\n## %s\n\n%s\n", titles[s], d->section[s]);
	jf_buf_addc(b, '\n');
	add_silence_by_hand(b, "", r->id);
}

char *jf_rule_explain(const jf_rule_info *rule, jf_explain_format format)
{
	const rule_doc *d = doc_of(rule);
	if (!d || d->error.code)
		return NULL;
	jf_buf b = JF_BUF_INIT;
	if (format == JF_EXPLAIN_MARKDOWN)
		explain_markdown(&b, rule, d);
	else
		explain_text(&b, rule, d);
	return jf_buf_detach(&b, NULL);
}

char *jf_rules_index_markdown(void)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_adds(
		&b,
		"# Rules\n\n"
		"Every rule has an id (`JFnnn`) and a name; both are stable, and either names the\n"
		"rule wherever one is asked for (`jobfix explain JF101`, `jobfix explain\n"
		"hard-coded-local-path`). The ranges follow the failure dimensions of the study\n"
		"jobfix is built on (*An Empirical Study on Program Failures of Deep Learning\n"
		"Jobs*, ICSE 2020): `JF0xx` the job spec itself, `JF1xx` the execution\n"
		"environment (paths, libraries, permissions), `JF2xx` deep-learning specific\n"
		"(framework API misuse, GPUs), `JF3xx` general code errors (arguments, types,\n"
		"syntax), `JF4xx` data and encoding. Each rule names the study's failure\n"
		"category it prevents.\n\n"
		"Severity: `error` means the job will fail; `warning` that it will likely fail or\n"
		"waste GPU time; `note` is information. Every rule prefers silence to a guess:\n"
		"when jobfix cannot know (a path computed at run time, an unknown image user),\n"
		"it says nothing.\n\n"
		"| Rule | Severity | Category | Summary |\n|---|---|---|---|\n");
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *r = jf_rules_get(i);
		jf_buf_addf(&b, "| [%s %s](rules/%s-%s.md) | %s | %s | ", r->id, r->name, r->id, r->name,
		            jf_severity_name(r->severity), r->category);
		add_md_inline(&b, r->summary, true);
		jf_buf_adds(&b, " |\n");
	}
	jf_buf_adds(
		&b,
		"\n## Silencing\n\n"
		"Findings are best silenced by fixing them; each rule's page says which\n"
		"look-alikes the rule leaves alone. A finding jobfix gets wrong can be silenced\n"
		"by hand, in the file it is reported in: `# jobfix: ignore[JF101]` (the rule's id\n"
		"or name) at the end of the line the finding starts on, or alone on the line right\n"
		"before it, silences the rule on that line; `# jobfix: ignore-file[JF101]` anywhere\n"
		"in the file silences it in the whole file. `ignore: [JF101]` in `.jobfix.yaml`\n"
		"turns the rule off, `per-file-ignores` in some files, `exclude` skips files\n"
		"([config.md](config.md)). A suppression that silences nothing is reported as\n"
		"JF007 unused-suppression. `--fail-on error` keeps warnings and notes from\n"
		"failing a run.\n\n"
		"`jobfix explain RULE` prints a rule's page in the terminal. These pages are\n"
		"generated from the same text by `jobfix explain --format markdown RULE`.\n");
	return jf_buf_detach(&b, NULL);
}
