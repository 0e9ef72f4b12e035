/* rules.c - the rule table, built from the embedded query headers and checks.def */
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "checks.h"
#include "embed.h"
#include "rules.h"

#define ERROR JF_SEV_ERROR
#define WARNING JF_SEV_WARNING
#define NOTE JF_SEV_NOTE

static const jf_rule c_checks[] = {
#define JF_CHECK(id, name, sev, cat, summary, help, fn)                                     \
	{ .info = { id, name, sev, cat, summary, help, "job" }, .check = fn },
#define JF_HOOK(name, fn)
#include "checks.def"
#undef JF_CHECK
#undef JF_HOOK
};

static const struct {
	const char *name;
	jf_hook_fn fn;
} hooks[] = {
#define JF_CHECK(id, name, sev, cat, summary, help, fn)
#define JF_HOOK(name, fn) { name, fn },
#include "checks.def"
#undef JF_CHECK
#undef JF_HOOK
};

static JF_ARRAY(jf_rule) table;
static bool table_ready;
static const char *table_error;
static char table_error_buf[512];

/* The value of header line "; key: value" in [p, end) as a static copy. */
typedef struct {
	char key[32];
	const char *value;
	uint32_t vlen;
} header_field;

static const char *set_error(const char *path, const char *msg)
{
	snprintf(table_error_buf, sizeof table_error_buf, "%s: %s", path, msg);
	return table_error_buf;
}

static const char *check_header(jf_rule *r, const jf_embedded *f, const char *severity,
                                const char *check);

static const char *fail_header(const jf_embedded *f, const char *msg, const char *severity,
                               const char *check)
{
	free((char *)severity);
	free((char *)check);
	return set_error(f->path, msg);
}

/* Parses the leading `; key: value` comment block. Returns NULL or an error. */
static const char *parse_header(jf_rule *r, const jf_embedded *f, uint32_t *body_offset)
{
	const char *s = f->data, *end = f->data + f->len;
	const char *severity = NULL;
	const char *check = NULL;
	const char *p = s;
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
			char key[32];
			size_t klen = (size_t)(colon - k);
			if (klen >= sizeof key)
				return fail_header(f, "header key too long", severity, check);
			memcpy(key, k, klen);
			key[klen] = '\0';
			const char *v = colon + 1;
			while (v < eol && *v == ' ')
				v++;
			const char *ve = eol;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r'))
				ve--;
			char *value = jf_xstrndup(v, (size_t)(ve - v));
			const char **slot = !strcmp(key, "id")       ? &r->info.id
			                    : !strcmp(key, "name")     ? &r->info.name
			                    : !strcmp(key, "severity") ? &severity
			                    : !strcmp(key, "category") ? &r->info.category
			                    : !strcmp(key, "summary")  ? &r->info.summary
			                    : !strcmp(key, "message")  ? &r->message
			                    : !strcmp(key, "help")     ? &r->info.help
			                    : !strcmp(key, "check")    ? &check
			                    : !strcmp(key, "prefilter") ? &r->prefilter
			                    : NULL;
			if (!strcmp(key, "scope")) {
				if (strcmp(value, "job") && strcmp(value, "file")) {
					free(value);
					return fail_header(f, "scope must be 'job' or 'file'", severity, check);
				}
				r->job_only = !strcmp(value, "job");
				free(value);
			} else if (!slot) {
				free(value);
				return fail_header(f, "unknown header key", severity, check);
			} else if (*slot) {
				free(value);
				return fail_header(f, "header key given twice", severity, check);
			} else {
				*slot = value; /* lives as long as the process: the table is static */
			}
		}
		p = eol + (eol < end);
	}
	*body_offset = (uint32_t)(p - s);
	const char *err = check_header(r, f, severity, check);
	free((char *)severity);
	free((char *)check);
	return err;
}

/* Validates the fields parse_header() found; NULL or an error. */
static const char *check_header(jf_rule *r, const jf_embedded *f, const char *severity,
                                const char *check)
{
	if (!r->info.id || !r->info.name || !severity || !r->info.category || !r->info.summary ||
	    !r->message || !r->info.help)
		return set_error(f->path,
		                 "header needs id, name, severity, category, summary, message and help");
	if (!strcmp(severity, "error"))
		r->info.severity = JF_SEV_ERROR;
	else if (!strcmp(severity, "warning"))
		r->info.severity = JF_SEV_WARNING;
	else if (!strcmp(severity, "note"))
		r->info.severity = JF_SEV_NOTE;
	else
		return set_error(f->path, "severity must be error, warning or note");
	if (check) {
		for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++)
			if (!strcmp(hooks[i].name, check))
				r->hook = hooks[i].fn;
		if (!r->hook)
			return set_error(f->path, "check: names no C hook in checks.def");
	}
	return NULL;
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
	free((char *)r->prefilter);
}

static const char *add_query_file(const jf_embedded *f)
{
	jf_lang lang = lang_of_path(f->path);
	if (lang == JF_LANG_NONE)
		return set_error(f->path, "query files live in queries/python/ or queries/bash/");
	const char *slash = strrchr(f->path, '/');
	if (slash && !strcmp(slash + 1, "facts.scm"))
		return NULL;
	jf_rule r = { 0 };
	uint32_t body = 0;
	const char *err = parse_header(&r, f, &body);
	if (err) {
		free_header(&r);
		return err;
	}
	char expect[128];
	snprintf(expect, sizeof expect, "%s-%s.scm", r.info.id, r.info.name);
	if (!slash || strcmp(slash + 1, expect)) {
		free_header(&r);
		return set_error(f->path, "file name must be <id>-<name>.scm");
	}
	jf_rule *same = NULL;
	for (size_t i = 0; i < table.size; i++)
		if (!strcmp(table.items[i].info.id, r.info.id))
			same = &table.items[i];
	if (same) {
		bool agree = same_str(same->info.name, r.info.name) &&
		             same->info.severity == r.info.severity &&
		             same_str(same->info.category, r.info.category) &&
		             same_str(same->info.summary, r.info.summary) &&
		             same_str(same->message, r.message) && same_str(same->info.help, r.info.help) &&
		             same_str(same->prefilter, r.prefilter) && same->hook == r.hook &&
		             same->job_only == r.job_only;
		free_header(&r);
		if (!agree || same->queries[lang].path)
			return set_error(f->path, "rule id used twice with different headers");
		r = *same;
	}
	r.queries[lang] = (struct jf_rule_query){ f->path, f->data, f->len, body, NULL };
	if (same)
		*same = r;
	else
		jf_array_push(&table, r);
	return NULL;
}

static int cmp_rule(const void *a, const void *b)
{
	return strcmp(((const jf_rule *)a)->info.id, ((const jf_rule *)b)->info.id);
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

int jf_rules_init(const char **err)
{
	if (table_ready) {
		*err = table_error;
		return table_error ? JF_EQUERY : 0;
	}
	table_ready = true;
	for (size_t i = 0; i < sizeof c_checks / sizeof *c_checks; i++)
		jf_array_push(&table, c_checks[i]);
	for (size_t i = 0; i < jf_embedded_queries_count && !table_error; i++)
		table_error = add_query_file(&jf_embedded_queries[i]);
	for (size_t i = 0; i < table.size && !table_error; i++)
		for (size_t k = i + 1; k < table.size; k++)
			if (!strcmp(table.items[i].info.name, table.items[k].info.name) ||
			    (table.items[i].check && !strcmp(table.items[i].info.id, table.items[k].info.id)))
				table_error = set_error(table.items[k].info.id, "rule id or name used twice");
	qsort(table.items, table.size, sizeof(jf_rule), cmp_rule);
	for (size_t i = 0; i < table.size; i++)
		set_languages(&table.items[i]);
	*err = table_error;
	return table_error ? JF_EQUERY : 0;
}

size_t jf_rules_size(void)
{
	const char *err;
	jf_rules_init(&err);
	return table.size;
}

const jf_rule *jf_rules_at(size_t i)
{
	return i < jf_rules_size() ? &table.items[i] : NULL;
}

size_t jf_rule_index(const jf_rule *rule)
{
	if (!table.size || rule < table.items || rule >= table.items + table.size)
		JF_BUG("rule '%s' is not in the rule table", rule->info.id);
	return (size_t)(rule - table.items);
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

const jf_rule *jf_rules_find(const char *id_or_name)
{
	for (size_t i = 0; i < jf_rules_size(); i++)
		if (!strcmp(table.items[i].info.id, id_or_name) ||
		    !strcmp(table.items[i].info.name, id_or_name))
			return &table.items[i];
	return NULL;
}

const jf_rule_info *jf_rules_lookup(const char *id_or_name)
{
	for (size_t i = 0; i < jf_rules_size(); i++)
		if (!strcasecmp(table.items[i].info.id, id_or_name) ||
		    !strcmp(table.items[i].info.name, id_or_name))
			return &table.items[i].info;
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
	for (size_t i = 0; i < jf_rules_size(); i++) {
		const jf_rule_info *r = &table.items[i].info;
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
	for (size_t i = 0; n >= 4 && i < jf_rules_size(); i++)
		if (strstr(table.items[i].info.name, low))
			return table.items[i].info.name;
	return NULL;
}

const jf_query *jf_rule_query(const jf_rule *rule, jf_lang lang, const char **err)
{
	static char *last_error;
	struct jf_rule_query *q = (struct jf_rule_query *)&rule->queries[lang];
	*err = NULL;
	if (!q->path)
		return NULL;
	if (!q->compiled) {
		char *msg = NULL;
		q->compiled = jf_query_compile(lang, q->path, q->text, q->len, q->body_offset, &msg);
		if (!q->compiled) {
			free(last_error);
			last_error = msg;
			*err = msg;
		}
	}
	return q->compiled;
}

size_t jf_rules_count(void)
{
	return jf_rules_size();
}

const jf_rule_info *jf_rules_get(size_t i)
{
	const jf_rule *r = jf_rules_at(i);
	return r ? &r->info : NULL;
}

const char *jf_severity_name(jf_severity s)
{
	return s == JF_SEV_ERROR ? "error" : s == JF_SEV_WARNING ? "warning" : "note";
}

const jf_query *jf_facts_query(jf_lang lang, const char **err)
{
	static jf_query *compiled[JF_LANG_COUNT];
	static char *last_error;
	*err = NULL;
	if (compiled[lang])
		return compiled[lang];
	char path[64];
	snprintf(path, sizeof path, "%s/facts.scm", jf_lang_name(lang));
	for (size_t i = 0; i < jf_embedded_queries_count; i++) {
		const jf_embedded *f = &jf_embedded_queries[i];
		if (strcmp(f->path, path))
			continue;
		char *msg = NULL;
		compiled[lang] = jf_query_compile(lang, f->path, f->data, f->len, 0, &msg);
		if (!compiled[lang]) {
			free(last_error);
			last_error = msg;
			*err = msg;
		}
		return compiled[lang];
	}
	return NULL;
}

/* Compiled combinations of rule queries: one per language and set of rules. */
typedef struct {
	jf_lang lang;
	char *key; /* one '1' or '0' per rule of the table */
	jf_query *query;
	const jf_rule **rule_of; /* per pattern */
	char *error;
} lang_query;

static JF_ARRAY(lang_query) lang_queries;

typedef struct {
	uint32_t start; /* in the combined text */
	const jf_rule *rule;
} segment;

static void compile_lang_query(lang_query *lq, const bool *wanted)
{
	jf_buf text = JF_BUF_INIT;
	JF_ARRAY(segment) segs = { 0 };
	for (size_t i = 0; i < jf_rules_size(); i++) {
		const jf_rule *r = jf_rules_at(i);
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
			char *msg = NULL;
			/* Compile the file alone for the message with its own line:col. */
			jf_query_free(
				jf_query_compile(lq->lang, rq->path, rq->text, rq->len, rq->body_offset, &msg));
			lq->error = msg ? msg : jf_xasprintf("%s: %s", rq->path, what);
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

const jf_query *jf_rules_lang_query(jf_lang lang, const bool *wanted, const jf_rule *const **rule_of,
                                    const char **err)
{
	size_t n = jf_rules_size();
	char *key = jf_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		key[i] = !wanted || wanted[i] ? '1' : '0';
	key[n] = '\0';
	lang_query *lq = NULL;
	for (size_t i = 0; i < lang_queries.size && !lq; i++)
		if (lang_queries.items[i].lang == lang && !strcmp(lang_queries.items[i].key, key))
			lq = &lang_queries.items[i];
	if (lq) {
		free(key);
	} else {
		lang_query fresh = { lang, key, NULL, NULL, NULL };
		compile_lang_query(&fresh, wanted);
		jf_array_push(&lang_queries, fresh);
		lq = jf_array_last(&lang_queries);
	}
	*err = lq->error;
	*rule_of = lq->rule_of;
	return lq->query;
}
