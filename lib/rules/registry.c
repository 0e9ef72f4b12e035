/* registry.c - the rules: jobfix's own table (embedded query headers and checks.def), a
 * user's rules folder, the lists a lint runs, and the queries a linter compiles */
#define _XOPEN_SOURCE 700 /* realpath */
#include "rules/registry.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <strings.h>

#include "core/embed.h"
#include "core/path.h"
#include "rules/checks.h"

#define ERROR JF_SEV_ERROR
#define WARNING JF_SEV_WARNING
#define NOTE JF_SEV_NOTE

static const jf_rule c_checks[] = {
#define JF_CHECK(id, name, sev, cat, summary, help, fn)                                     \
	{ .info = { id, name, sev, cat, summary, help, "job" }, .check = fn },
#define JF_EMITTED(id, name, sev, cat, summary, help)                                       \
	{ .info = { id, name, sev, cat, summary, help, "job" } },
#define JF_HOOK(name, fn)
#define JF_RECORD(kind, check, prefix, reads)
#include "rules/checks.def"
#undef JF_CHECK
#undef JF_EMITTED
#undef JF_HOOK
#undef JF_RECORD
};

static const struct {
	const char *name;
	jf_hook_fn fn;
} hooks[] = {
#define JF_CHECK(id, name, sev, cat, summary, help, fn)
#define JF_EMITTED(id, name, sev, cat, summary, help)
#define JF_HOOK(name, fn) { name, fn },
#define JF_RECORD(kind, check, prefix, reads)
#include "rules/checks.def"
#undef JF_CHECK
#undef JF_EMITTED
#undef JF_HOOK
#undef JF_RECORD
};

const jf_category jf_categories[] = {
	{ "Path Not Found", "Execution environment" },
	{ "Library Not Found", "Execution environment" },
	{ "Permission Denied", "Execution environment" },
	{ "Illegal Argument", "General code error" },
	{ "Type Mismatch", "General code error" },
	{ "Key Not Found", "General code error" },
	{ "Attribute Not Found", "General code error" },
	{ "Null Reference", "General code error" },
	{ "Syntax Error", "General code error" },
	{ "Illegal Index", "General code error" },
	{ "Undefined Variable", "General code error" },
	{ "Not Implemented", "General code error" },
	{ "Division by Zero", "General code error" },
	{ "GPU Out of Memory", "Deep-learning specific" },
	{ "CPU Out of Memory", "Deep-learning specific" },
	{ "Tensor Mismatch", "Deep-learning specific" },
	{ "Loss NaN", "Deep-learning specific" },
	{ "Framework API Misuse", "Deep-learning specific" },
	{ "Corrupt Data", "Data" },
	{ "Unexpected Encoding", "Data" },
	{ NULL, NULL },
};

const char *jf_category_dimension(const char *category)
{
	for (const jf_category *c = jf_categories; category && c->name; c++)
		if (!strcmp(c->name, category))
			return c->dimension;
	return NULL;
}

/* Header parsing */

enum {
	H_ID,
	H_NAME,
	H_SEVERITY,
	H_CATEGORY,
	H_SUMMARY,
	H_MESSAGE,
	H_HELP,
	H_CHECK,
	H_SCOPE,
	H_PREFILTER,
	H_COUNT
};

static const char *const header_keys[] = { "id",   "name",  "severity", "category",  "summary",
	                                   "message", "help", "check",   "scope", "prefilter",
	                                   NULL };

/* The fields of a query file's header, each value with its span in the file. */
typedef struct {
	char *value[H_COUNT];
	jf_span at[H_COUNT];
	uint32_t body; /* where the patterns start */
} header;

/* A problem in a query file's header: the message and where. */
typedef struct {
	char msg[160];
	jf_span at;
} header_error;

static void header_fail(header_error *e, jf_span at, const char *msg)
{
	snprintf(e->msg, sizeof e->msg, "%s", msg);
	e->at = at;
}

static void header_release(header *h)
{
	for (int i = 0; i < H_COUNT; i++)
		free(h->value[i]);
}

/* Parses the leading `; key: value` comment block of text[0, len). */
static bool parse_header(const char *text, uint32_t len, header *h, header_error *e)
{
	const char *s = text, *end = text + len, *p = text;
	*h = (header){ 0 };
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q == eol) { /* blank line ends nothing; keep going */
			p = eol + (eol < end);
			continue;
		}
		if (*q != ';')
			break;
		while (q < eol && *q == ';')
			q++;
		while (q < eol && *q == ' ')
			q++;
		const char *colon = memchr(q, ':', (size_t)(eol - q));
		const char *k = q;
		bool is_field = colon != NULL;
		for (const char *c = k; is_field && c < colon; c++)
			if (!((*c >= 'a' && *c <= 'z') || *c == '-'))
				is_field = false;
		if (is_field && colon > k) {
			size_t klen = (size_t)(colon - k);
			jf_span key_at = { (uint32_t)(k - s), (uint32_t)(colon - s) };
			const char *v = colon + 1;
			while (v < eol && *v == ' ')
				v++;
			const char *ve = eol;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r'))
				ve--;
			int f = 0;
			while (header_keys[f] && (strlen(header_keys[f]) != klen ||
			                          strncmp(header_keys[f], k, klen)))
				f++;
			if (!header_keys[f]) {
				char key[40];
				snprintf(key, sizeof key, "%.*s", (int)(klen < 32 ? klen : 32), k);
				const char *near = NULL;
				for (int i = 0; header_keys[i] && !near; i++)
					if (jf_edit_distance(key, header_keys[i], 2) <= 2)
						near = header_keys[i];
				if (near)
					snprintf(e->msg, sizeof e->msg,
					         "unknown header key '%s' (did you mean '%s'?)", key, near);
				else
					snprintf(e->msg, sizeof e->msg, "unknown header key '%s'", key);
				e->at = key_at;
				return false;
			}
			if (h->value[f]) {
				header_fail(e, key_at, "header key given twice");
				return false;
			}
			h->value[f] = jf_xstrndup(v, (size_t)(ve - v));
			h->at[f] = (jf_span){ (uint32_t)(v - s), (uint32_t)(ve - s) };
		}
		p = eol + (eol < end);
	}
	h->body = (uint32_t)(p - s);
	return true;
}

/* Fills `r` from header `h` of its query for `lang`, taking its strings. False
 * with `e` set when a field is missing or wrong. */
static bool rule_from_header(jf_rule *r, jf_lang lang, header *h, header_error *e)
{
	static const int required[] = { H_ID, H_NAME, H_SEVERITY, H_CATEGORY, H_SUMMARY, H_MESSAGE,
		                        H_HELP };
	for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
		if (!h->value[required[i]]) {
			snprintf(e->msg, sizeof e->msg,
			         "the header has no '%s' (it needs id, name, severity, category, "
			         "summary, message and help)",
			         header_keys[required[i]]);
			e->at = (jf_span){ 0, 0 };
			return false;
		}
	}
	const char *sev = h->value[H_SEVERITY];
	if (!strcmp(sev, "error"))
		r->info.severity = JF_SEV_ERROR;
	else if (!strcmp(sev, "warning"))
		r->info.severity = JF_SEV_WARNING;
	else if (!strcmp(sev, "note"))
		r->info.severity = JF_SEV_NOTE;
	else {
		header_fail(e, h->at[H_SEVERITY], "severity must be error, warning or note");
		return false;
	}
	if (h->value[H_SCOPE]) {
		if (strcmp(h->value[H_SCOPE], "job") && strcmp(h->value[H_SCOPE], "file")) {
			header_fail(e, h->at[H_SCOPE], "scope must be 'job' or 'file'");
			return false;
		}
		r->job_only = !strcmp(h->value[H_SCOPE], "job");
	}
	if (h->value[H_CHECK]) {
		for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++)
			if (!strcmp(hooks[i].name, h->value[H_CHECK]))
				r->hook = hooks[i].fn;
		if (!r->hook) {
			header_fail(e, h->at[H_CHECK], "check: names no C hook in checks.def");
			return false;
		}
	}
	r->info.id = h->value[H_ID];
	r->info.name = h->value[H_NAME];
	r->info.category = h->value[H_CATEGORY];
	r->info.summary = h->value[H_SUMMARY];
	r->message = h->value[H_MESSAGE];
	r->info.help = h->value[H_HELP];
	r->queries[lang].prefilter = h->value[H_PREFILTER];
	h->value[H_ID] = h->value[H_NAME] = h->value[H_CATEGORY] = h->value[H_SUMMARY] = NULL;
	h->value[H_MESSAGE] = h->value[H_HELP] = h->value[H_PREFILTER] = NULL;
	return true;
}

/* Records a problem of jobfix's own table: "path:line:col: msg" at `at` of
 * the `len` bytes of `text`, or "path: msg" without a text. */
static int table_problem(jf_error *err, const char *path, const char *text, uint32_t len,
                         uint32_t at, const char *msg)
{
	if (!text)
		return jf_error_set(err, JF_EQUERY, "%s: %s", path, msg);
	jf_pos p = jf_text_pos(text, len, at);
	return jf_error_set(err, JF_EQUERY, "%s:%u:%u: %s", path, p.line, p.col, msg);
}

static jf_lang lang_of_path(const char *path)
{
	if (jf_str_starts(path, "python/"))
		return JF_LANG_PYTHON;
	if (jf_str_starts(path, "bash/"))
		return JF_LANG_BASH;
	return JF_LANG_NONE;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void free_header(jf_rule *r)
{
	free((char *)r->info.id);
	free((char *)r->info.name);
	free((char *)r->info.category);
	free((char *)r->info.summary);
	free((char *)r->message);
	free((char *)r->info.help);
	for (int l = 0; l < JF_LANG_COUNT; l++)
		free(r->queries[l].prefilter);
}

static bool same_header(const jf_rule *a, const jf_rule *b)
{
	return same_str(a->info.name, b->info.name) && a->info.severity == b->info.severity &&
	       same_str(a->info.category, b->info.category) &&
	       same_str(a->info.summary, b->info.summary) && same_str(a->message, b->message) &&
	       same_str(a->info.help, b->info.help) && a->hook == b->hook && a->job_only == b->job_only;
}

static void set_languages(jf_rule *r)
{
	r->languages[0] = '\0';
	for (int l = JF_LANG_YAML; l < JF_LANG_COUNT; l++) {
		if (!r->queries[l].path)
			continue;
		if (r->languages[0])
			strcat(r->languages, ", ");
		strcat(r->languages, jf_lang_name((jf_lang)l));
	}
	r->info.language = r->languages[0] ? r->languages : "job";
}

/* Rules, growing: one query file at a time, each language of a rule in its own file. */
typedef jf_rule_array rule_array;

/* The rule of `rules` with id `id`, or NULL. */
static jf_rule *find_id(const rule_array *rules, const char *id)
{
	for (size_t i = 0; i < rules->size; i++)
		if (!strcmp(rules->items[i]->info.id, id))
			return rules->items[i];
	return NULL;
}

/* Adds `r` (a query of one language) to `rules`, or its query to the rule with
 * the same id and header. Returns the rule, or NULL when the id is taken by a
 * rule with another header or the same language. */
static jf_rule *add_rule(rule_array *rules, jf_rule *r, jf_lang lang)
{
	jf_rule *same = find_id(rules, r->info.id);
	if (same) {
		if (!same_header(same, r) || same->queries[lang].path)
			return NULL;
		same->queries[lang] = r->queries[lang];
		r->queries[lang] = (struct jf_rule_query){ 0 };
		free_header(r);
		return same;
	}
	jf_rule *heap = jf_xmalloc(sizeof(*heap));
	*heap = *r;
	jf_array_push(rules, heap);
	return heap;
}

/* jobfix's own rules */

static jf_rule_list builtin;
static jf_error builtin_error;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

/* Adds the rule of an embedded query file; 0, or JF_EQUERY with what is wrong in `err`. */
static int add_query_file(rule_array *rules, const jf_embedded *f, jf_error *err)
{
	jf_lang lang = lang_of_path(f->path);
	if (lang == JF_LANG_NONE)
		return table_problem(err, f->path, NULL, 0, 0,
		                     "query files live in queries/python/ or queries/bash/");
	const char *slash = strrchr(f->path, '/');
	jf_rule r = { 0 };
	header h;
	header_error e;
	if (!parse_header(f->data, f->len, &h, &e) || !rule_from_header(&r, lang, &h, &e)) {
		header_release(&h);
		free_header(&r);
		return table_problem(err, f->path, f->data, f->len, e.at.start, e.msg);
	}
	header_release(&h);
	char expect[128];
	snprintf(expect, sizeof expect, "%s-%s.scm", r.info.id, r.info.name);
	if (!slash || strcmp(slash + 1, expect)) {
		free_header(&r);
		return table_problem(err, f->path, NULL, 0, 0, "file name must be <id>-<name>.scm");
	}
	r.queries[lang].path = f->path;
	r.queries[lang].text = f->data;
	r.queries[lang].len = f->len;
	r.queries[lang].body_offset = h.body;
	if (!add_rule(rules, &r, lang)) {
		free_header(&r);
		return table_problem(err, f->path, NULL, 0, 0,
		                     "rule id used twice with different headers");
	}
	return 0;
}

int jf_rule_cmp(const jf_rule *a, const jf_rule *b)
{
	int c = strcmp(a->info.id, b->info.id);
	if (c || a->dir == b->dir)
		return c;
	return !a->dir ? -1 : !b->dir ? 1 : strcmp(a->dir, b->dir);
}

static int cmp_rule(const void *a, const void *b)
{
	return jf_rule_cmp(*(const jf_rule *const *)a, *(const jf_rule *const *)b);
}

static void build_builtin(void)
{
	rule_array rules = { 0 };
	jf_error *err = &builtin_error;
	int rc = 0;
	for (size_t i = 0; i < sizeof c_checks / sizeof *c_checks; i++) {
		jf_rule *r = jf_xmalloc(sizeof(*r));
		*r = c_checks[i];
		jf_array_push(&rules, r);
	}
	for (size_t i = 0; i < jf_embedded_queries_count && !rc; i++)
		rc = add_query_file(&rules, &jf_embedded_queries[i], err);
	for (size_t i = 0; i < rules.size && !rc; i++)
		for (size_t k = i + 1; k < rules.size && !rc; k++)
			if (!strcmp(rules.items[i]->info.name, rules.items[k]->info.name) ||
			    (rules.items[i]->check &&
			     !strcmp(rules.items[i]->info.id, rules.items[k]->info.id)))
				rc = table_problem(err, rules.items[k]->info.id, NULL, 0, 0,
				                   "rule id or name used twice");
	for (size_t i = 0; i < rules.size && !rc; i++)
		if (!jf_rule_compile_prefilter(rules.items[i]))
			rc = table_problem(err, rules.items[i]->info.id, NULL, 0, 0,
			                   "the prefilter does not compile");
	if (rules.size)
		qsort(rules.items, rules.size, sizeof(jf_rule *), cmp_rule);
	for (size_t i = 0; i < rules.size; i++) {
		set_languages(rules.items[i]);
		if (!rc)
			jf_array_push(&builtin.items, rules.items[i]);
	}
	/* A broken table lists no rule; its rules stay allocated for the process. */
	jf_array_release(&rules);
}

const jf_rule_list *jf_rules_builtin(void)
{
	pthread_once(&builtin_once, build_builtin);
	return &builtin;
}

const char *jf_rules_builtin_error(void)
{
	pthread_once(&builtin_once, build_builtin);
	return builtin_error.code ? jf_error_message(&builtin_error) : NULL;
}

/* Lists of rules */

void jf_rule_list_init(jf_rule_list *self, const jf_rules_dir *dir)
{
	const jf_rule_list *own = jf_rules_builtin();
	memset(self, 0, sizeof(*self));
	for (size_t i = 0; i < own->items.size; i++)
		jf_array_push(&self->items, own->items.items[i]);
	for (size_t i = 0; dir && i < dir->rules.size; i++)
		jf_array_push(&self->items, (const jf_rule *)dir->rules.items[i]);
	if (self->items.size)
		qsort(self->items.items, self->items.size, sizeof(jf_rule *), cmp_rule);
}

void jf_rule_list_release(jf_rule_list *self)
{
	jf_array_release(&self->items);
}

const jf_rule *jf_rule_list_find(const jf_rule_list *self, const char *id_or_name)
{
	for (size_t i = 0; i < self->items.size; i++) {
		const jf_rule *r = self->items.items[i];
		if (!strcmp(r->info.id, id_or_name) || !strcmp(r->info.name, id_or_name))
			return r;
	}
	return NULL;
}

#ifndef JF_HOMEPAGE_URL
#error "JF_HOMEPAGE_URL is defined by CMakeLists.txt (a cache variable)"
#endif

const char *jf_homepage_url(void)
{
	return JF_HOMEPAGE_URL;
}

void jf_rule_doc_uri(const jf_rule *rule, jf_buf *out)
{
	jf_buf_addf(out, "%s/blob/main/docs/rules/%s-%s.md", JF_HOMEPAGE_URL, rule->info.id,
	            rule->info.name);
}

/* Rules from a user's folder */

static void problem(jf_rules_dir *u, const jf_source *src, jf_span at, const char *help,
                    const char *fmt, ...) JF_PRINTF(5, 6);
static void problem(jf_rules_dir *u, const jf_source *src, jf_span at, const char *help,
                    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jf_diag *d = jf_report_vadd(&u->problems, NULL, src, at, fmt, ap);
	va_end(ap);
	if (help)
		jf_diag_set_help(d, "%s", help);
}

/* Whether `id` is letters A-Z then digits, so that id prefixes select it. */
static bool good_id(const char *id)
{
	size_t letters = strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
	size_t digits = strspn(id + letters, "0123456789");
	return letters > 0 && digits > 0 && !id[letters + digits];
}

static bool good_name(const char *name)
{
	if (!(*name >= 'a' && *name <= 'z'))
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		      (*c == '-' && c[1] && c[1] != '-')))
			return false;
	return true;
}

/* The rule with this id or name among jobfix's own and those of `u` so far, or NULL. */
static const jf_rule *find_clash(const jf_rules_dir *u, const char *id_or_name)
{
	const jf_rule *r = jf_rule_list_find(jf_rules_builtin(), id_or_name);
	for (size_t i = 0; i < u->rules.size && !r; i++)
		if (!strcmp(u->rules.items[i]->info.id, id_or_name) ||
		    !strcmp(u->rules.items[i]->info.name, id_or_name))
			r = u->rules.items[i];
	return r;
}

/* Reads one rule file of a user's folder; its problems go into `u`. */
static void load_user_file(jf_rules_dir *u, jf_lang lang, const char *fs_path, const char *display)
{
	jf_source *src = jf_source_load(fs_path, display);
	jf_array_push(&u->sources, src);
	jf_span top = { 0, 0 };
	if (src->status != JF_SOURCE_OK) {
		problem(u, src, top, NULL, "cannot read the rule file: %s", jf_source_why(src));
		return;
	}
	const char *base = strrchr(fs_path, '/');
	base = base ? base + 1 : fs_path;
	header h;
	header_error e;
	jf_rule r = { 0 };
	r.dir = u->dir;
	if (!parse_header(src->data, src->len, &h, &e) || !rule_from_header(&r, lang, &h, &e)) {
		problem(u, src, e.at, "docs/config.md shows the header of a rule file", "%s", e.msg);
		header_release(&h);
		free_header(&r);
		return;
	}
	header_release(&h);
	jf_span id_at = h.at[H_ID], name_at = h.at[H_NAME];
	const jf_rule *clash_name = find_clash(u, r.info.name);
	const jf_rule *clash_id = find_clash(u, r.info.id);
	char expect[256];
	snprintf(expect, sizeof expect, "%s-%s.scm", r.info.id, r.info.name);
	bool ok = false;
	if (!good_id(r.info.id)) {
		problem(u, src, id_at,
		        "use capital letters then digits, e.g. X101, so that prefixes select it",
		        "rule id '%s' is not letters followed by digits", r.info.id);
	} else if (!good_name(r.info.name)) {
		problem(u, src, name_at, "use lower-case words joined by '-', e.g. no-print-in-loop",
		        "rule name '%s' is not kebab-case", r.info.name);
	} else if (clash_id && (!clash_id->dir || !same_header(clash_id, &r) ||
	                        clash_id->queries[lang].path)) {
		problem(u, src, id_at, "give the rule an id of its own",
		        "rule id '%s' is taken by %s %s", r.info.id,
		        clash_id->dir ? "the rule file of" : "jobfix's rule", clash_id->info.name);
	} else if (clash_name && clash_name != clash_id) {
		problem(u, src, name_at, "give the rule a name of its own",
		        "rule name '%s' is taken by %s", r.info.name, clash_name->info.id);
	} else if (!jf_category_dimension(r.info.category)) {
		const char *names[sizeof jf_categories / sizeof *jf_categories];
		for (size_t i = 0; i < sizeof jf_categories / sizeof *jf_categories; i++)
			names[i] = jf_categories[i].name;
		const char *near = NULL;
		for (size_t i = 0; names[i] && !near; i++)
			if (jf_edit_distance(r.info.category, names[i], 3) <= 3)
				near = names[i];
		jf_span at = h.at[H_CATEGORY];
		if (near)
			problem(u, src, at, NULL, "unknown category '%s': did you mean '%s'?",
			        r.info.category, near);
		else
			problem(u, src, at, "docs/config.md lists the categories of the study",
			        "unknown category '%s'", r.info.category);
	} else if (strcmp(base, expect)) {
		problem(u, src, top, NULL, "the file of rule %s must be named '%s'", r.info.id, expect);
	} else if (!jf_rule_compile_prefilter(&r)) {
		problem(u, src, h.at[H_PREFILTER], "write a PCRE2 regular expression",
		        "the prefilter does not compile");
	} else {
		ok = true;
	}
	if (!ok) {
		jf_rule_release_compiled(&r);
		free_header(&r);
		return;
	}
	uint32_t off = h.body;
	const char *what = NULL;
	jf_query *q = jf_query__compile_raw(lang, src->data, src->len, &off, &what);
	if (!q) {
		problem(u, src, (jf_span){ off, off }, NULL, "%s", what);
		jf_rule_release_compiled(&r);
		free_header(&r);
		return;
	}
	if (!r.hook && !jf_query_has_capture(q, "finding")) {
		problem(u, src, (jf_span){ h.body, h.body },
		        "mark the span of each finding with @finding, or name a C hook with `check:`",
		        "the query captures no @finding: the rule could never report anything");
		jf_query_free(q);
		jf_rule_release_compiled(&r);
		free_header(&r);
		return;
	}
	jf_query_free(q); /* compiled to check it: the linter compiles its own */
	r.queries[lang].path = src->path;
	r.queries[lang].text = src->data;
	r.queries[lang].len = src->len;
	r.queries[lang].body_offset = h.body;
	jf_rule *added = add_rule(&u->rules, &r, lang);
	if (!added) /* a clash checked above: cannot happen */
		JF_BUG("rule %s added twice", r.info.id);
	set_languages(added);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the *.scm files of `sub` ("python", "bash" or "" for the folder
 * itself) in name order. */
static void load_user_subdir(jf_rules_dir *u, const char *display_dir, const char *sub, jf_lang lang)
{
	char *fs = *sub ? jf_xasprintf("%s/%s", u->dir, sub) : jf_xstrdup(u->dir);
	DIR *d = opendir(fs);
	JF_ARRAY(char *) names = { 0 };
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		if (jf_str_ends(e->d_name, ".scm") && e->d_name[0] != '.')
			jf_array_push(&names, jf_xstrdup(e->d_name));
	if (d)
		closedir(d);
	if (names.size)
		qsort(names.items, names.size, sizeof(char *), cmp_str);
	for (size_t i = 0; i < names.size; i++) {
		char *path = jf_xasprintf("%s/%s", fs, names.items[i]);
		char *shown = *sub ? jf_xasprintf("%s/%s/%s", display_dir, sub, names.items[i])
		                   : jf_xasprintf("%s/%s", display_dir, names.items[i]);
		if (lang == JF_LANG_NONE) {
			jf_source *src = jf_source_load(path, shown);
			jf_array_push(&u->sources, src);
			problem(u, src, (jf_span){ 0, 0 }, "move it into python/ or bash/ of the folder",
			        "a rule file must be in a language folder: python/ or bash/");
		} else {
			load_user_file(u, lang, path, shown);
		}
		free(path);
		free(shown);
		free(names.items[i]);
	}
	jf_array_release(&names);
	free(fs);
}

int jf_rules_dir_load(jf_rules_dir *self, const char *dir, const char *display_dir)
{
	memset(self, 0, sizeof(*self));
	char *real = realpath(dir, NULL);
	if (!real || !jf_path_is_dir(real)) {
		free(real);
		return JF_ENOTFOUND;
	}
	self->dir = real;
	load_user_subdir(self, display_dir, "", JF_LANG_NONE);
	load_user_subdir(self, display_dir, "python", JF_LANG_PYTHON);
	load_user_subdir(self, display_dir, "bash", JF_LANG_BASH);
	return 0;
}

void jf_rules_dir_release(jf_rules_dir *self)
{
	for (size_t i = 0; i < self->rules.size; i++) {
		jf_rule_release_compiled(self->rules.items[i]);
		free_header(self->rules.items[i]);
		free(self->rules.items[i]);
	}
	jf_array_release(&self->rules);
	jf_report_release(&self->problems);
	jf_sources_release(&self->sources);
	free(self->dir);
	memset(self, 0, sizeof(*self));
}

/* The public look-ups: jobfix's own rules */

size_t jf_rules_count(void)
{
	return jf_rules_builtin()->items.size;
}

const jf_rule_info *jf_rules_get(size_t i)
{
	const jf_rule_list *own = jf_rules_builtin();
	return i < own->items.size ? &own->items.items[i]->info : NULL;
}

const char *jf_severity_name(jf_severity s)
{
	return s == JF_SEV_ERROR ? "error" : s == JF_SEV_WARNING ? "warning" : "note";
}

const jf_rule_info *jf_rules_lookup(const char *id_or_name)
{
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *r = jf_rules_get(i);
		if (!strcasecmp(r->id, id_or_name) || !strcmp(r->name, id_or_name))
			return r;
	}
	return NULL;
}

/* Whether upper-case `s` is meant as an id: "JF" and a few more characters. */
static bool looks_like_id(const char *s)
{
	return s[0] == 'J' && s[1] == 'F' && strlen(s) <= 7;
}

const char *jf_rules_suggest(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return NULL;
	/* "101" for JF101. */
	if (n == 3 && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
	    isdigit((unsigned char)s[2])) {
		char id[6] = { 'J', 'F', s[0], s[1], s[2], '\0' };
		const jf_rule_info *r = jf_rules_lookup(id);
		if (r)
			return r->id;
	}
	char up[65], low[65];
	for (size_t i = 0; i <= n; i++) {
		up[i] = (char)toupper((unsigned char)s[i]);
		low[i] = (char)tolower((unsigned char)s[i]);
	}
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *r = jf_rules_get(i);
		/* An id is close at one edit ("JF10", "JF1O1"); a name at a few. */
		if (looks_like_id(up)) {
			size_t d = jf_edit_distance(up, r->id, 1);
			if (d <= 1 && d < best_d) {
				best_d = d;
				best = r->id;
			}
			continue;
		}
		size_t max = strlen(r->name) <= 8 ? 2 : 3;
		size_t d = jf_edit_distance(low, r->name, max);
		if (d <= max && d < best_d) {
			best_d = d;
			best = r->name;
		}
	}
	if (best)
		return best;
	/* A part of a name: "local-path" for hard-coded-local-path. */
	for (size_t i = 0; n >= 4 && i < jf_rules_count(); i++)
		if (strstr(jf_rules_get(i)->name, low))
			return jf_rules_get(i)->name;
	return NULL;
}

/* The queries of a linter */

/* One combination of rule queries, compiled. */
struct jf_lang_query {
	jf_lang lang;
	char *key; /* one '1' or '0' per rule of the list */
	jf_query *query;
	const jf_rule **rule_of; /* per pattern */
	char *error;
};

typedef struct {
	uint32_t start; /* in the combined text */
	const jf_rule *rule;
} segment;

static void compile_lang_query(struct jf_lang_query *lq, const jf_rule_list *rules,
                               const bool *wanted)
{
	jf_buf text = JF_BUF_INIT;
	JF_ARRAY(segment) segs = { 0 };
	for (size_t i = 0; i < rules->items.size; i++) {
		const jf_rule *r = rules->items.items[i];
		const struct jf_rule_query *rq = &r->queries[lq->lang];
		if (!rq->path || (wanted && !wanted[i]))
			continue;
		segment s = { (uint32_t)text.len, r };
		jf_array_push(&segs, s);
		jf_buf_add(&text, rq->text + rq->body_offset, rq->len - rq->body_offset);
		jf_buf_addc(&text, '\n');
	}
	if (segs.size) {
		uint32_t off = 0;
		const char *what = NULL;
		lq->query = jf_query__compile_raw(lq->lang, text.buf, (uint32_t)text.len, &off, &what);
		size_t s = 0;
		if (!lq->query) {
			while (s + 1 < segs.size && segs.items[s + 1].start <= off)
				s++;
			const struct jf_rule_query *rq = &segs.items[s].rule->queries[lq->lang];
			/* Compile the file alone for the message with its own line:col. */
			jf_error err = JF_ERROR_INIT;
			jf_query *alone = NULL;
			if (jf_query_compile(lq->lang, rq->path, rq->text, rq->len, rq->body_offset, &alone,
			                     &err))
				lq->error = jf_xstrdup(jf_error_message(&err));
			else
				lq->error = jf_xasprintf("%s: %s", rq->path, what);
			jf_query_free(alone);
			jf_error_clear(&err);
		} else {
			uint32_t n = jf_query_pattern_count(lq->query);
			lq->rule_of = jf_xcalloc(n, sizeof(*lq->rule_of));
			for (uint32_t p = 0; p < n; p++) {
				uint32_t start = jf_query_pattern_start(lq->query, p);
				while (s + 1 < segs.size && segs.items[s + 1].start <= start)
					s++;
				lq->rule_of[p] = segs.items[s].rule;
			}
		}
	}
	jf_array_release(&segs);
	jf_buf_release(&text);
}

int jf_query_cache_get(jf_query_cache *self, const jf_rule_list *rules, jf_lang lang,
                       const bool *wanted, const jf_query **out,
                       const jf_rule *const **rule_of, jf_error *err)
{
	size_t n = rules->items.size;
	char *key = jf_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		key[i] = !wanted || wanted[i] ? '1' : '0';
	key[n] = '\0';
	struct jf_lang_query *lq = NULL;
	for (size_t i = 0; i < self->items.size && !lq; i++)
		if (self->items.items[i]->lang == lang && !strcmp(self->items.items[i]->key, key))
			lq = self->items.items[i];
	if (lq) {
		free(key);
	} else {
		lq = jf_xcalloc(1, sizeof(*lq));
		lq->lang = lang;
		lq->key = key;
		compile_lang_query(lq, rules, wanted);
		jf_array_push(&self->items, lq);
	}
	*out = lq->query;
	*rule_of = lq->rule_of;
	if (lq->error)
		return jf_error_set(err, JF_EQUERY, "%s", lq->error);
	return 0;
}

void jf_query_cache_release(jf_query_cache *self)
{
	for (size_t i = 0; i < self->items.size; i++) {
		struct jf_lang_query *lq = self->items.items[i];
		free(lq->key);
		jf_query_free(lq->query);
		free(lq->rule_of);
		free(lq->error);
		free(lq);
	}
	jf_array_release(&self->items);
}
