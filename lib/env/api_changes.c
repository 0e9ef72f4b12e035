/* api_changes.c - data/api-changes.yaml, read once, and version ranges decided against it */
#include <ctype.h>
#include <pthread.h>
#include <yaml.h>

#include "core/embed.h"
#include "core/yml.h"
#include "env/api_changes.h"

#define DATA_PATH "api-changes.yaml"

static JF_ARRAY(jf_api_change) table;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* The `changes` sequence of the parsed data, or NULL. */
static yaml_node_t *entries(yaml_document_t *doc)
{
	yaml_node_t *seq = jf_yml_get(doc, yaml_document_get_root_node(doc), "changes");
	return seq && seq->type == YAML_SEQUENCE_NODE ? seq : NULL;
}


/* Reads entry `e` into `c`; false when it lacks what every entry needs. */
static bool read_entry(yaml_document_t *doc, yaml_node_t *e, jf_api_change *c)
{
	memset(c, 0, sizeof *c);
	const char *kind = jf_yml_scalar(jf_yml_get(doc, e, "kind"));
	c->kind = !kind || !strcmp(kind, "attribute") ? JF_API_ATTRIBUTE
	          : !strcmp(kind, "module")           ? JF_API_MODULE
	          : !strcmp(kind, "method")           ? JF_API_METHOD
	          : !strcmp(kind, "arity")            ? JF_API_ARITY
	                                              : JF_API_KEYWORD;
	yaml_node_t *rs = jf_yml_get(doc, e, "receivers");
	if (rs && rs->type == YAML_SEQUENCE_NODE) {
		size_t n = (size_t)(rs->data.sequence.items.top - rs->data.sequence.items.start);
		const char **list = jf_xcalloc(n + 1, sizeof *list);
		for (size_t i = 0; i < n; i++) {
			const char *r = jf_yml_scalar(yaml_document_get_node(doc, rs->data.sequence.items.start[i]));
			list[i] = jf_xstrdup(r ? r : "");
		}
		c->receivers = list;
	}
	const char *arity = jf_yml_scalar(jf_yml_get(doc, e, "arity"));
	c->arity = arity ? atoi(arity) : 0;
	const char *required = jf_yml_scalar(jf_yml_get(doc, e, "required"));
	c->required = required && !strcmp(required, "true");
	const char *position = jf_yml_scalar(jf_yml_get(doc, e, "position"));
	c->position = position ? atoi(position) : 0;
	c->name = jf_yml_text(doc, e, "name");
	c->package = jf_yml_text(doc, e, "package");
	c->keyword = jf_yml_text(doc, e, "keyword");
	c->removed = jf_yml_text(doc, e, "removed");
	c->restored = jf_yml_text(doc, e, "restored");
	c->added = jf_yml_text(doc, e, "added");
	c->error = jf_yml_text(doc, e, "error");
	c->replacement = jf_yml_text(doc, e, "replacement");
	c->fix = jf_yml_text(doc, e, "fix");
	c->line = (unsigned)e->start_mark.line + 1;
	return c->name && c->package && c->error && (c->removed || c->added) &&
	       (c->kind != JF_API_KEYWORD || c->keyword) &&
	       ((c->kind != JF_API_METHOD && c->kind != JF_API_ARITY) || c->receivers) &&
	       (c->kind != JF_API_ARITY || c->arity > 0);
}

static void release_entry(jf_api_change *c)
{
	const char *strs[] = { c->name, c->package, c->keyword, c->removed, c->restored, c->added,
		               c->error, c->replacement, c->fix };
	for (size_t s = 0; s < sizeof strs / sizeof *strs; s++)
		free((char *)strs[s]);
	for (size_t i = 0; c->receivers && c->receivers[i]; i++)
		free((char *)c->receivers[i]);
	free((void *)c->receivers);
}

static int by_name(const void *a, const void *b)
{
	const jf_api_change *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : x->line < y->line ? -1 : x->line > y->line;
}

/* `prefix.rest` of a renames line as a dotted name from the package's top
 * module ("tf.Session" with prefix tf and package tensorflow:
 * "tensorflow.Session"); NULL when the word does not start with the prefix. */
static char *expand(const char *word, size_t n, const char *prefix, const char *package)
{
	size_t p = strlen(prefix);
	if (n <= p + 1 || strncmp(word, prefix, p) || word[p] != '.')
		return NULL;
	return jf_xasprintf("%s%.*s", package, (int)(n - p), word + p);
}

/* Reads line `line` ("OLD NEW") of renames group `g` into `c`; false when it is not one. */
static bool read_rename(yaml_document_t *doc, yaml_node_t *g, const char *line, unsigned at,
                        jf_api_change *c)
{
	memset(c, 0, sizeof *c);
	const char *prefix = jf_yml_scalar(jf_yml_get(doc, g, "prefix"));
	const char *package = jf_yml_scalar(jf_yml_get(doc, g, "package"));
	const char *removed = jf_yml_scalar(jf_yml_get(doc, g, "removed"));
	size_t a = strcspn(line, " ");
	const char *second = line + a + strspn(line + a, " ");
	size_t b = strcspn(second, " ");
	if (!prefix || !package || !removed || !a || !b || second[b])
		return false;
	c->name = expand(line, a, prefix, package);
	c->fix = expand(second, b, prefix, package);
	c->package = jf_xstrdup(package);
	c->removed = jf_xstrdup(removed);
	c->kind = JF_API_ATTRIBUTE;
	c->line = at;
	if (c->name) {
		const char *dot = strrchr(c->name, '.');
		c->error = jf_xasprintf("AttributeError: module '%.*s' has no attribute '%s'",
		                        (int)(dot - c->name), c->name, dot + 1);
		c->replacement = c->fix ? jf_xasprintf("%s%s", prefix, c->fix + strlen(package))
		                        : NULL;
	}
	return c->name && c->fix;
}

/* The `renames` groups of the parsed data, or NULL. */
static yaml_node_t *rename_groups(yaml_document_t *doc)
{
	yaml_node_t *seq = jf_yml_get(doc, yaml_document_get_root_node(doc), "renames");
	return seq && seq->type == YAML_SEQUENCE_NODE ? seq : NULL;
}

/* Calls fn(c, data) for each entry of the data (`changes`, then each line of `renames`),
 * well-formed or not (`ok`); the entry is the callee's to keep or release. */
static void each_entry(yaml_document_t *doc, void (*fn)(jf_api_change *c, bool ok, void *data),
                       void *data)
{
	yaml_node_t *seq = entries(doc);
	for (yaml_node_item_t *i = seq ? seq->data.sequence.items.start : NULL;
	     seq && i < seq->data.sequence.items.top; i++) {
		jf_api_change c;
		bool ok = read_entry(doc, yaml_document_get_node(doc, *i), &c);
		fn(&c, ok, data);
	}
	yaml_node_t *groups = rename_groups(doc);
	for (yaml_node_item_t *i = groups ? groups->data.sequence.items.start : NULL;
	     groups && i < groups->data.sequence.items.top; i++) {
		yaml_node_t *g = yaml_document_get_node(doc, *i);
		yaml_node_t *names = jf_yml_get(doc, g, "names");
		for (yaml_node_item_t *k = names && names->type == YAML_SEQUENCE_NODE
		                                   ? names->data.sequence.items.start
		                                   : NULL;
		     k && k < names->data.sequence.items.top; k++) {
			yaml_node_t *line = yaml_document_get_node(doc, *k);
			const char *text = jf_yml_scalar(line);
			jf_api_change c;
			bool ok = text && read_rename(doc, g, text, (unsigned)line->start_mark.line + 1, &c);
			fn(&c, ok, data);
		}
	}
}

static void keep_entry(jf_api_change *c, bool ok, void *data)
{
	(void)data;
	if (ok)
		jf_array_push(&table, *c); /* kept for the process */
	else
		release_entry(c); /* jf_api_changes_check() reports it */
}

static void load(void)
{
	const jf_embedded *f = jf_embedded_data_find(DATA_PATH);
	yaml_document_t doc;
	if (!f || !jf_yml_load_data(f->data, f->len, &doc, NULL))
		return;
	each_entry(&doc, keep_entry, NULL);
	yaml_document_delete(&doc);
	if (table.size)
		qsort(table.items, table.size, sizeof *table.items, by_name);
}

const jf_api_change *jf_api_changes(size_t *count)
{
	pthread_once(&loaded, load);
	*count = table.size;
	return table.items;
}

size_t jf_api_find(const char *name, size_t len, size_t *first)
{
	size_t n;
	const jf_api_change *t = jf_api_changes(&n);
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first entry not before `name` */
		size_t mid = lo + (hi - lo) / 2;
		int d = strncmp(t[mid].name, name, len);
		if (d < 0 || (!d && strlen(t[mid].name) < len))
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	while (k < n && !strncmp(t[k].name, name, len) && !t[k].name[len])
		k++;
	*first = lo;
	return k - lo;
}

const jf_api_change *jf_api_find_name(const char *name, size_t len)
{
	size_t first, count = jf_api_find(name, len, &first), n;
	const jf_api_change *t = jf_api_changes(&n);
	for (size_t i = first; i < first + count; i++)
		if (t[i].kind == JF_API_ATTRIBUTE || t[i].kind == JF_API_MODULE)
			return &t[i];
	return NULL;
}

/* ---- versions ---- */

/* A closed or open bound of a range of versions; version NULL: unbounded. */
typedef struct {
	char *version;
	bool inclusive;
} bound;

typedef struct {
	bound lo, hi;
	bool empty;
} range;

/* The release of `v` ("2.1.0a0+29c" -> "2.1.0"), and whether it is a pre-release or dev build. */
static char *release_of(const char *v, bool *pre)
{
	size_t n = strcspn(v, "+");
	size_t k = 0;
	while (k < n && (isdigit((unsigned char)v[k]) || v[k] == '.'))
		k++;
	while (k && v[k - 1] == '.')
		k--;
	const char *rest = v + k;
	*pre = k < n && strncmp(rest, ".post", 5) && strncmp(rest, "post", 4) &&
	       strncmp(rest, "-post", 5);
	return jf_xstrndup(v, k);
}

/* "1.21" -> "1.22", "1" -> "2": the first release after every "prefix.*". */
static char *next_release(const char *prefix)
{
	const char *dot = strrchr(prefix, '.');
	const char *last = dot ? dot + 1 : prefix;
	return jf_xasprintf("%.*s%ld", (int)(last - prefix), prefix, strtol(last, NULL, 10) + 1);
}

static void set_lo(range *r, const char *v, bool inclusive)
{
	int d = r->lo.version ? jf_version_cmp(v, r->lo.version) : 1;
	if (d > 0 || (d == 0 && !inclusive)) {
		free(r->lo.version);
		r->lo = (bound){ jf_xstrdup(v), inclusive };
	}
}

static void set_hi(range *r, const char *v, bool inclusive)
{
	int d = r->hi.version ? jf_version_cmp(v, r->hi.version) : -1;
	if (d < 0 || (d == 0 && !inclusive)) {
		free(r->hi.version);
		r->hi = (bound){ jf_xstrdup(v), inclusive };
	}
}

/* Reads one clause of a specifier ("  >= 1.20 "); false when it is not one. */
static bool clause(range *r, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	static const char *const ops[] = { "===", "==", "!=", "~=", ">=", "<=", ">", "<", NULL };
	size_t op = 0;
	while (ops[op] && strncmp(s, ops[op], strlen(ops[op])))
		op++;
	if (!ops[op])
		return n == 0 || (n == 1 && *s == '*');
	size_t skip = strlen(ops[op]);
	while (skip < n && isspace((unsigned char)s[skip]))
		skip++;
	char *v = jf_xstrndup(s + skip, n - skip);
	bool ok = *v && (isdigit((unsigned char)*v));
	bool wild = jf_str_ends(v, ".*");
	if (wild)
		v[strlen(v) - 2] = '\0';
	if (ok && (op == 0 || op == 1) && wild) {
		char *next = next_release(v);
		set_lo(r, v, true);
		set_hi(r, next, false);
		free(next);
	} else if (ok && (op == 0 || op == 1)) {
		set_lo(r, v, true);
		set_hi(r, v, true);
	} else if (ok && op == 3) { /* ~=X.Y.Z: >=X.Y.Z, ==X.Y.* */
		char *prefix = jf_xstrdup(v);
		char *dot = strrchr(prefix, '.');
		ok = dot != NULL;
		if (ok) {
			*dot = '\0';
			char *next = next_release(prefix);
			set_lo(r, v, true);
			set_hi(r, next, false);
			free(next);
		}
		free(prefix);
	} else if (ok && op == 4) {
		set_lo(r, v, true);
	} else if (ok && op == 5) {
		set_hi(r, v, true);
	} else if (ok && op == 6) {
		set_lo(r, v, false);
	} else if (ok && op == 7) {
		set_hi(r, v, false);
	}
	/* `!=` takes one version out: no bound moves. */
	free(v);
	return ok;
}

/* The range pip specifier `spec` allows; false when it cannot be read. */
static bool read_spec(const char *spec, range *r)
{
	memset(r, 0, sizeof *r);
	size_t n = strcspn(spec, ";#");
	for (const char *p = spec; p < spec + n;) {
		size_t len = strcspn(p, ",");
		if (p + len > spec + n)
			len = (size_t)(spec + n - p);
		if (!clause(r, p, len))
			return false;
		p += len + (p[len] == ',');
	}
	return true;
}

/* Whether every version of `r` is >= `v` (`v` NULL: none is bounded). */
static bool all_at_least(const range *r, const char *v)
{
	return r->lo.version && jf_version_cmp(r->lo.version, v) >= 0;
}

/* Whether every version of `r` is < `v`. */
static bool all_below(const range *r, const char *v)
{
	if (!r->hi.version)
		return false;
	int d = jf_version_cmp(r->hi.version, v);
	return d < 0 || (d == 0 && !r->hi.inclusive);
}

/* Whether the use of `c` fails in every version of `r` (JF_YES), in none (JF_NO). */
static jf_tri decide(const jf_api_change *c, const range *r)
{
	if (c->added)
		return all_below(r, c->added) ? JF_YES : all_at_least(r, c->added) ? JF_NO : JF_UNKNOWN;
	bool from = all_at_least(r, c->removed);
	bool until = !c->restored || all_below(r, c->restored);
	if (from && until)
		return JF_YES;
	if (all_below(r, c->removed) || (c->restored && all_at_least(r, c->restored)))
		return JF_NO;
	return JF_UNKNOWN;
}

jf_tri jf_api_fails(const jf_api_change *c, const char *version, const char *spec)
{
	range r = { 0 };
	jf_tri answer = JF_UNKNOWN;
	if (version) {
		bool pre;
		char *rel = release_of(version, &pre);
		/* A development build ("2.1.0a0+29c30b1") may already hold what its
		 * release brings, or not yet: it decides only when every version the
		 * entry names came before its release. */
		const char *bounds[] = { c->removed, c->restored, c->added };
		bool decides = *rel != '\0';
		for (size_t i = 0; pre && decides && i < 3; i++)
			decides = !bounds[i] || jf_version_cmp(bounds[i], rel) < 0;
		if (decides) {
			r.lo = (bound){ jf_xstrdup(rel), true };
			r.hi = (bound){ jf_xstrdup(rel), true };
			answer = decide(c, &r);
		}
		free(rel);
	} else if (spec && read_spec(spec, &r)) {
		answer = decide(c, &r);
	}
	free(r.lo.version);
	free(r.hi.version);
	return answer;
}

/* ---- the data's own check ---- */

int jf_api_changes_check(jf_error *err)
{
	const jf_embedded *f = jf_embedded_data_find(DATA_PATH);
	yaml_document_t doc;
	if (!f)
		return jf_error_set(err, JF_EPARSE, "data/%s is not embedded", DATA_PATH);
	unsigned bad;
	if (!jf_yml_load_data(f->data, f->len, &doc, &bad))
		return jf_error_set(err, JF_EPARSE, "data/%s:%u: does not parse", DATA_PATH, bad);
	yaml_node_t *seq = entries(&doc);
	int rc = seq ? 0 : jf_error_set(err, JF_EPARSE, "data/%s has no `changes` list", DATA_PATH);
	static const char *const keys[] = { "name", "package", "kind", "keyword", "required",
		                            "receivers", "arity",
		                            "position", "removed", "restored", "added", "error",
		                            "replacement", "fix", "source", "verified", "note", NULL };
	for (yaml_node_item_t *i = seq ? seq->data.sequence.items.start : NULL;
	     !rc && seq && i < seq->data.sequence.items.top; i++) {
		yaml_node_t *e = yaml_document_get_node(&doc, *i);
		unsigned long line = (unsigned long)e->start_mark.line + 1;
		if (e->type != YAML_MAPPING_NODE) {
			rc = jf_error_set(err, JF_EPARSE, "data/%s:%lu: an entry must be a mapping",
			                  DATA_PATH, line);
			break;
		}
		const yaml_node_t *unknown = jf_yml_unknown_key(&doc, e, keys);
		if (unknown)
			rc = jf_error_set(err, JF_EPARSE, "data/%s:%lu: unknown key '%s'", DATA_PATH, line,
			                  jf_yml_scalar(unknown) ? jf_yml_scalar(unknown) : "?");
		const char *kind = jf_yml_scalar(jf_yml_get(&doc, e, "kind"));
		yaml_node_t *source = jf_yml_get(&doc, e, "source");
		jf_api_change c;
		bool complete = read_entry(&doc, e, &c);
		const char *why =
			rc                                              ? NULL
			: !complete ? "needs name, package, error and a version (keyword: and keyword; "
			              "method and arity: receivers; arity: arity)"
			: kind && strcmp(kind, "attribute") && strcmp(kind, "module") &&
			  strcmp(kind, "keyword") && strcmp(kind, "method") && strcmp(kind, "arity")
				? "kind must be attribute, module, keyword, method or arity"
			: !source || (source->type == YAML_SEQUENCE_NODE &&
			              source->data.sequence.items.start == source->data.sequence.items.top)
				? "has no source"
			: c.added && (c.removed || c.restored) ? "names both added and removed"
			: c.restored && !c.removed              ? "restored needs removed"
			: c.restored && jf_version_cmp(c.removed, c.restored) >= 0
				? "restored must come after removed"
			: !strchr(c.name, '.')                  ? "name must be dotted"
			: c.required && c.kind != JF_API_KEYWORD ? "required is for keyword entries"
			                                         : NULL;
		if (why)
			rc = jf_error_set(err, JF_EPARSE, "data/%s:%lu: '%s' %s", DATA_PATH, line,
			                  c.name ? c.name : "?", why);
		release_entry(&c);
	}
	yaml_node_t *groups = rename_groups(&doc);
	static const char *const group_keys[] = { "package", "prefix", "removed", "source", "verified",
		                                  "note", "names", NULL };
	for (yaml_node_item_t *i = groups ? groups->data.sequence.items.start : NULL;
	     !rc && groups && i < groups->data.sequence.items.top; i++) {
		yaml_node_t *g = yaml_document_get_node(&doc, *i);
		unsigned long line = (unsigned long)g->start_mark.line + 1;
		const yaml_node_t *unknown = jf_yml_unknown_key(&doc, g, group_keys);
		if (unknown)
			rc = jf_error_set(err, JF_EPARSE, "data/%s:%lu: unknown key '%s'", DATA_PATH, line,
			                  jf_yml_scalar(unknown) ? jf_yml_scalar(unknown) : "?");
		yaml_node_t *names = jf_yml_get(&doc, g, "names");
		if (!rc && (!jf_yml_get(&doc, g, "source") || !names || names->type != YAML_SEQUENCE_NODE))
			rc = jf_error_set(err, JF_EPARSE, "data/%s:%lu: a renames group needs source and "
			                                  "names", DATA_PATH, line);
		for (yaml_node_item_t *k = rc ? NULL : names->data.sequence.items.start;
		     k && k < names->data.sequence.items.top && !rc; k++) {
			yaml_node_t *n = yaml_document_get_node(&doc, *k);
			const char *text = jf_yml_scalar(n);
			jf_api_change c;
			if (!text || !read_rename(&doc, g, text, 0, &c))
				rc = jf_error_set(err, JF_EPARSE,
				                  "data/%s:%lu: a rename is 'OLD NEW', both starting with "
				                  "the group's prefix",
				                  DATA_PATH, (unsigned long)n->start_mark.line + 1);
			release_entry(&c);
		}
	}
	yaml_document_delete(&doc);
	return rc;
}
