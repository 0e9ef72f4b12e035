/* patterns.c - data/triage.yaml read once, each pattern's literal, and the prefilter */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "core/embed.h"
#include "core/yml.h"
#include "core/util.h"
#include "rules/registry.h"
#include "triage/patterns.h"

#define DATA_PATH "triage.yaml"
#define LITERAL_MIN 4

const char *jf_retry_name(jf_retry r)
{
	return r == JF_RETRY_NO ? "no" : r == JF_RETRY_YES ? "yes" : "maybe";
}

/* The prefilter: every key is found through its first 4 bytes (lower case), hashed into a
 * bit set that rejects most positions at once, then looked up in an open-addressed table. */
#define GRAM_BITS 16

typedef struct {
	uint32_t gram;
	uint32_t first; /* the first key of this gram in `keys`, chained through `next` */
} gram_slot;

typedef struct {
	char *key;
	size_t len;
	uint32_t id;
	uint32_t next; /* the next key of the same gram; UINT32_MAX: none */
} key_entry;

struct jf_keyset {
	uint64_t seen[(1u << GRAM_BITS) / 64];
	JF_ARRAY(key_entry) keys;
	gram_slot *slots; /* capacity `nslots`, a power of two; gram 0 marks a free slot */
	size_t nslots, used;
};

/* ASCII lower case, the same in every locale. */
static unsigned char lower[256];
static pthread_once_t lower_once = PTHREAD_ONCE_INIT;

static void make_lower(void)
{
	for (int c = 0; c < 256; c++)
		lower[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

static inline uint32_t gram_of(const unsigned char *p)
{
	return (uint32_t)lower[p[0]] << 24 | (uint32_t)lower[p[1]] << 16 | (uint32_t)lower[p[2]] << 8 |
	       (uint32_t)lower[p[3]];
}

/* Whether text[0, n) is key[0, n), ASCII case ignored (key is lower case). */
static inline bool same_lower(const unsigned char *text, const char *key, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lower[text[i]] != (unsigned char)key[i])
			return false;
	return true;
}

static inline uint32_t gram_hash(uint32_t g)
{
	return (g * 2654435761u) >> (32 - GRAM_BITS);
}

jf_keyset *jf_keyset_new(void)
{
	pthread_once(&lower_once, make_lower);
	jf_keyset *self = jf_xcalloc(1, sizeof *self);
	self->nslots = 64;
	self->slots = jf_xcalloc(self->nslots, sizeof *self->slots);
	return self;
}

void jf_keyset_free(jf_keyset *self)
{
	if (!self)
		return;
	for (size_t i = 0; i < self->keys.size; i++)
		free(self->keys.items[i].key);
	jf_array_release(&self->keys);
	free(self->slots);
	free(self);
}

static gram_slot *slot_of(const jf_keyset *self, uint32_t g)
{
	size_t mask = self->nslots - 1;
	for (size_t i = (g * 2654435761u) & mask;; i = (i + 1) & mask)
		if (self->slots[i].gram == g || self->slots[i].gram == 0)
			return &self->slots[i];
}

static void rehash(jf_keyset *self)
{
	gram_slot *old = self->slots;
	size_t n = self->nslots;
	self->nslots *= 2;
	self->slots = jf_xcalloc(self->nslots, sizeof *self->slots);
	for (size_t i = 0; i < n; i++)
		if (old[i].gram)
			*slot_of(self, old[i].gram) = old[i];
	free(old);
}

void jf_keyset_add(jf_keyset *self, const char *key, uint32_t id)
{
	size_t len = strlen(key);
	if (len < LITERAL_MIN)
		JF_BUG("keyset key '%s' shorter than %d bytes", key, LITERAL_MIN);
	uint32_t g = gram_of((const unsigned char *)key);
	if (g == 0)
		JF_BUG("keyset key '%s' starts with NUL bytes", key);
	if ((self->used + 1) * 2 > self->nslots)
		rehash(self);
	gram_slot *s = slot_of(self, g);
	uint32_t index = (uint32_t)self->keys.size;
	key_entry e = { jf_xstrdup(key), len, id, UINT32_MAX };
	if (s->gram == 0) {
		s->gram = g;
		s->first = index;
		self->used++;
	} else {
		uint32_t k = s->first; /* appended last: keys are found in the order added */
		while (self->keys.items[k].next != UINT32_MAX)
			k = self->keys.items[k].next;
		self->keys.items[k].next = index;
	}
	jf_array_push(&self->keys, e);
	uint32_t h = gram_hash(g);
	self->seen[h / 64] |= 1ull << (h % 64);
}

void jf_keyset_scan(const jf_keyset *self, const char *text, size_t len,
                    bool (*found)(void *data, uint32_t id, size_t at), void *data)
{
	if (len < LITERAL_MIN || !self->keys.size)
		return;
	const unsigned char *p = (const unsigned char *)text;
	uint32_t g = gram_of(p) >> 8;
	for (size_t i = 0; i + LITERAL_MIN <= len; i++) {
		g = g << 8 | lower[p[i + 3]];
		uint32_t h = gram_hash(g);
		if (!(self->seen[h / 64] >> (h % 64) & 1))
			continue;
		const gram_slot *s = slot_of(self, g);
		if (s->gram != g)
			continue;
		for (uint32_t k = s->first; k != UINT32_MAX; k = self->keys.items[k].next) {
			const key_entry *e = &self->keys.items[k];
			if (e->len <= len - i && same_lower(p + i, e->key, e->len) && !found(data, e->id, i))
				return;
		}
	}
}

/* The literal of a regex */

/* The end of the group or class that starts at re[i] ('(' or '['); strlen(re) if unclosed. */
static size_t skip_group(const char *re, size_t i)
{
	int depth = 0;
	bool in_class = false;
	size_t n = strlen(re);
	for (; i < n; i++) {
		char c = re[i];
		if (c == '\\') {
			i++;
		} else if (in_class) {
			if (c == ']')
				in_class = false;
		} else if (c == '[') {
			in_class = true;
			if (re[i + 1] == '^')
				i++;
			if (re[i + 1] == ']') /* "[]...]": a ']' first is literal */
				i++;
		} else if (c == '(') {
			depth++;
		} else if (c == ')' && --depth == 0) {
			return i + 1;
		}
		if (depth == 0 && !in_class)
			return i + 1; /* a class at the top level ends here */
	}
	return n;
}

/* Whether re[i] starts a quantifier that lets the atom before it be absent. */
static bool optional_quantifier(const char *re, size_t i)
{
	return re[i] == '?' || re[i] == '*' || (re[i] == '{' && re[i + 1] == '0');
}

static bool quantifier(const char *re, size_t i)
{
	return re[i] == '?' || re[i] == '*' || re[i] == '+' || re[i] == '{';
}

char *jf_triage_literal(const char *re)
{
	jf_buf run = JF_BUF_INIT, best = JF_BUF_INIT;
	size_t n = strlen(re);
	if (strstr(re, "(?x") || strstr(re, "(?-i")) /* spaces ignored, or case flags mixed */
		return NULL;
	/* A top-level alternation: no literal is common to every match. */
	for (size_t i = 0; i < n;) {
		if (re[i] == '\\')
			i += 2;
		else if (re[i] == '(' || re[i] == '[')
			i = skip_group(re, i);
		else if (re[i++] == '|')
			return NULL;
	}
#define END_RUN()                                     \
	do {                                          \
		if (run.len > best.len) {             \
			jf_buf_truncate(&best, 0);    \
			jf_buf_add(&best, run.buf, run.len); \
		}                                     \
		jf_buf_truncate(&run, 0);             \
	} while (0)
	for (size_t i = 0; i < n;) {
		char c = re[i];
		char lit = 0;
		if (c == '\\') {
			char e = re[i + 1];
			if (e && !isalnum((unsigned char)e))
				lit = e; /* an escaped punctuation character */
			else if (e == 'Q') { /* \Q...\E: literal text */
				END_RUN();
				const char *end = strstr(re + i + 2, "\\E");
				size_t stop = end ? (size_t)(end - re) : n;
				for (size_t k = i + 2; k < stop; k++)
					jf_buf_addc(&run, (char)tolower((unsigned char)re[k]));
				END_RUN();
				i = end ? stop + 2 : n;
				continue;
			}
			else if (!e || !strchr("dDwWsSbBhHvVRXAzZGKnrtfe", e))
				break; /* \x41, \p{..}, \1 ...: not told apart here */
			i += 2;
		} else if (c == '(' || c == '[') {
			i = skip_group(re, i);
		} else if (strchr(".^$)|", c)) {
			i++;
		} else if (quantifier(re, i)) {
			i++;
			if (c == '{')
				while (i < n && re[i - 1] != '}')
					i++;
			continue;
		} else {
			lit = c;
			i++;
		}
		if (!lit) { /* a group, a class or an escape: the run ends (a quantifier after it is
		             * skipped as one of its own next) */
			END_RUN();
			continue;
		}
		if (optional_quantifier(re, i)) {
			END_RUN(); /* the atom may be absent: the run ends before it */
			continue;
		}
		char low = (char)tolower((unsigned char)lit);
		jf_buf_addc(&run, low);
		if (quantifier(re, i)) { /* repeated: the run ends with it, and the next starts with it */
			END_RUN();
			jf_buf_addc(&run, low);
			i++;
			if (re[i - 1] == '{')
				while (i < n && re[i - 1] != '}')
					i++;
		}
	}
	END_RUN();
#undef END_RUN
	jf_buf_release(&run);
	if (best.len < LITERAL_MIN) {
		jf_buf_release(&best);
		return NULL;
	}
	return jf_buf_detach(&best, NULL);
}

/* The top-level alternatives of re[0, n): up to `max` (start, end) pairs; their count, or
 * max + 1 when there are more. */
static size_t alternatives(const char *re, size_t n, size_t (*at)[2], size_t max)
{
	size_t count = 0, start = 0;
	for (size_t i = 0; i <= n;) {
		if (i == n || re[i] == '|') {
			if (count == max)
				return max + 1;
			at[count][0] = start, at[count][1] = i;
			count++;
			start = ++i;
		} else if (re[i] == '\\') {
			i += 2;
		} else if (re[i] == '(' || re[i] == '[') {
			i = skip_group(re, i);
		} else {
			i++;
		}
	}
	return count;
}

#define ALTERNATIVES_MAX 16

static char **literals_of(const char *re, size_t n, int depth);

/* One literal for each alternative of re[0, n) (split at `at`), or NULL when one has none. */
static char **each_literal(const char *re, size_t (*at)[2], size_t count, int depth)
{
	char **all = jf_xcalloc(ALTERNATIVES_MAX * ALTERNATIVES_MAX + 1, sizeof *all);
	size_t k = 0;
	for (size_t a = 0; a < count; a++) {
		char **some = literals_of(re + at[a][0], at[a][1] - at[a][0], depth + 1);
		if (!some || k + ALTERNATIVES_MAX > ALTERNATIVES_MAX * ALTERNATIVES_MAX) {
			jf_triage_literals_free(some);
			jf_triage_literals_free(all);
			return NULL;
		}
		for (char **l = some; *l; l++)
			all[k++] = *l;
		free(some);
	}
	return all;
}

/* The literals of re[0, n): one (jf_triage_literal()), else one per top-level alternative,
 * else one per alternative of the first group every match goes through. */
static char **literals_of(const char *re, size_t n, int depth)
{
	char *text = jf_xstrndup(re, n);
	char *one = jf_triage_literal(text);
	free(text);
	if (one) {
		char **all = jf_xcalloc(2, sizeof *all);
		all[0] = one;
		return all;
	}
	size_t at[ALTERNATIVES_MAX][2];
	if (depth > 2 || strstr(re, "(?x") || strstr(re, "(?-i"))
		return NULL;
	size_t count = alternatives(re, n, at, ALTERNATIVES_MAX);
	if (count > ALTERNATIVES_MAX)
		return NULL;
	if (count > 1)
		return each_literal(re, at, count, depth);
	for (size_t i = 0; i < n;) {
		if (re[i] == '\\') {
			i += 2;
			continue;
		}
		if (re[i] != '(') {
			i = re[i] == '[' ? skip_group(re, i) : i + 1;
			continue;
		}
		size_t end = skip_group(re, i);
		/* a group of its own (not a look-around or a flag), that every match goes through */
		size_t body = re[i + 1] != '?' ? i + 1 : re[i + 2] == ':' ? i + 3 : 0;
		if (body && end <= n && re[end - 1] == ')' && !optional_quantifier(re, end) &&
		    !(end < n && re[end] == '{')) {
			count = alternatives(re + body, end - 1 - body, at, ALTERNATIVES_MAX);
			if (count > 1 && count <= ALTERNATIVES_MAX) {
				for (size_t a = 0; a < count; a++)
					at[a][0] += body, at[a][1] += body;
				return each_literal(re, at, count, depth);
			}
		}
		i = end;
	}
	return NULL;
}

char **jf_triage_literals(const char *re)
{
	return literals_of(re, strlen(re), 0);
}

void jf_triage_literals_free(char **literals)
{
	for (size_t i = 0; literals && literals[i]; i++)
		free(literals[i]);
	free(literals);
}

/* Reading the data */

static jf_triage_table table;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static bool retry_of(const char *s, jf_retry *out)
{
	if (!s)
		return false;
	if (!strcmp(s, "no"))
		*out = JF_RETRY_NO;
	else if (!strcmp(s, "yes"))
		*out = JF_RETRY_YES;
	else if (!strcmp(s, "maybe"))
		*out = JF_RETRY_MAYBE;
	else
		return false;
	return true;
}

static size_t seq_len(yaml_node_t *s)
{
	return s && s->type == YAML_SEQUENCE_NODE
	               ? (size_t)(s->data.sequence.items.top - s->data.sequence.items.start)
	               : 0;
}

static yaml_node_t *seq_at(yaml_document_t *doc, yaml_node_t *s, size_t i)
{
	return yaml_document_get_node(doc, s->data.sequence.items.start[i]);
}

static char error_text[256];

static bool fail(unsigned line, const char *what)
{
	snprintf(error_text, sizeof error_text, "data/%s:%u: %s", DATA_PATH, line, what);
	table.error = error_text;
	return false;
}

/* A key the reader does not know fails the table, so that no value is silently cut. */
static bool known_keys(yaml_document_t *doc, yaml_node_t *e, const char *const *known)
{
	if (e->type != YAML_MAPPING_NODE)
		return fail((unsigned)e->start_mark.line + 1, "an entry must be a mapping");
	yaml_node_t *k = jf_yml_unknown_key(doc, e, known);
	if (!k)
		return true;
	char what[200];
	snprintf(what, sizeof what, "unknown key '%.60s' (a comma in an unquoted value of a "
	         "{...} mapping ends the value)", jf_yml_scalar(k) ? jf_yml_scalar(k) : "?");
	return fail((unsigned)k->start_mark.line + 1, what);
}

static bool read_category(yaml_document_t *doc, yaml_node_t *e, jf_triage_category *c)
{
	static const char *const keys[] = { "name", "dimension", "retry", "why", NULL };
	unsigned line = (unsigned)e->start_mark.line + 1;
	if (!known_keys(doc, e, keys))
		return false;
	c->name = jf_yml_text(doc, e, "name");
	c->why = jf_yml_text(doc, e, "why");
	c->dimension = jf_yml_text(doc, e, "dimension");
	if (!c->name || !c->why || !retry_of(jf_yml_scalar(jf_yml_get(doc, e, "retry")), &c->retry))
		return fail(line, "a category needs name, retry (no, yes, maybe) and why");
	if (!c->dimension) {
		const char *d = jf_category_dimension(c->name);
		if (!d)
			return fail(line, "a category other than the study's needs a dimension");
		c->dimension = jf_xstrdup(d);
	}
	return true;
}

static bool read_pattern(yaml_document_t *doc, yaml_node_t *e, jf_triage_pattern *p)
{
	static const char *const keys[] = { "id", "match", "category", "rank", "retry", "why",
		                            "cause", "stage", "explains", "hint", "example",
		                            "source", NULL };
	unsigned line = (unsigned)e->start_mark.line + 1;
	if (!known_keys(doc, e, keys))
		return false;
	p->line = line;
	p->id = jf_yml_text(doc, e, "id");
	p->match = jf_yml_text(doc, e, "match");
	p->why = jf_yml_text(doc, e, "why");
	p->cause = jf_yml_text(doc, e, "cause");
	p->hint = jf_yml_text(doc, e, "hint");
	p->example = jf_yml_text(doc, e, "example");
	p->source = jf_yml_text(doc, e, "source");
	const char *stage = jf_yml_scalar(jf_yml_get(doc, e, "stage"));
	p->setup = stage && !strcmp(stage, "setup");
	if (!p->id || !p->match || !p->hint || !p->example || !p->source)
		return fail(line, "a pattern needs id, match, category, rank, hint, example and source");
	if (stage && !p->setup)
		return fail(line, "stage can only be setup");
	p->category = jf_triage_category_find(&table, jf_yml_scalar(jf_yml_get(doc, e, "category")));
	if (!p->category)
		return fail(line, "unknown category");
	const char *rank = jf_yml_scalar(jf_yml_get(doc, e, "rank"));
	p->rank = rank ? atoi(rank) : 0;
	if (p->rank < 1 || p->rank > 100)
		return fail(line, "rank must be 1 to 100");
	p->retry = p->category->retry;
	const char *retry = jf_yml_scalar(jf_yml_get(doc, e, "retry"));
	if (retry && !retry_of(retry, &p->retry))
		return fail(line, "retry must be no, yes or maybe");
	if (p->retry != p->category->retry && !p->why)
		return fail(line, "a retry other than the category's needs a why");
	if (!strcmp(p->category->name, "Unknown") && p->retry != JF_RETRY_MAYBE)
		return fail(line, "an Unknown failure's retry is maybe: the log does not tell");
	yaml_node_t *ex = jf_yml_get(doc, e, "explains");
	if (ex) {
		size_t n = seq_len(ex);
		if (!n)
			return fail(line, "explains must be a list of categories");
		p->explains = jf_xcalloc(n + 1, sizeof *p->explains);
		for (size_t i = 0; i < n; i++)
			if (!(p->explains[i] = jf_triage_category_find(&table, jf_yml_scalar(seq_at(doc, ex, i)))))
				return fail(line, "explains names an unknown category");
	}
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)p->match, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[120];
		pcre2_get_error_message(code, msg, sizeof msg);
		char what[200];
		snprintf(what, sizeof what, "%s: the regex does not compile at offset %zu: %s", p->id,
		         (size_t)off, (const char *)msg);
		return fail(line, what);
	}
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* failing, it is interpreted */
	p->re = re;
	p->literals = jf_triage_literals(p->match);
	return true;
}

static void load(void)
{
	const jf_embedded *f = jf_embedded_data_find(DATA_PATH);
	table.literals = jf_keyset_new();
	if (!f) {
		fail(0, "not compiled into jobfix");
		return;
	}
	yaml_document_t doc;
	unsigned line;
	if (!jf_yml_load_data(f->data, f->len, &doc, &line)) {
		fail(line, "not valid YAML");
		return;
	}
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	yaml_node_t *cats = jf_yml_get(&doc, root, "categories"), *pats = jf_yml_get(&doc, root, "patterns");
	size_t nc = seq_len(cats), np = seq_len(pats);
	jf_triage_category *categories = jf_xcalloc(nc + 1, sizeof *categories);
	jf_triage_pattern *patterns = jf_xcalloc(np + 1, sizeof *patterns);
	table.categories = categories;
	table.patterns = patterns;
	bool ok = nc && np;
	if (!ok)
		fail(1, "needs `categories` and `patterns` lists");
	for (size_t i = 0; ok && i < nc; i++, table.ncategories++)
		ok = read_category(&doc, seq_at(&doc, cats, i), &categories[i]);
	for (size_t i = 0; ok && i < np; i++) {
		ok = read_pattern(&doc, seq_at(&doc, pats, i), &patterns[i]);
		table.npatterns++;
		if (!ok)
			break;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(patterns[k].id, patterns[i].id))
				ok = fail(patterns[i].line, "a pattern id is used twice");
	}
	yaml_document_delete(&doc);
	if (!ok) {
		table.npatterns = 0; /* a broken table matches nothing; `error` says why */
		return;
	}
	static const char *const words[JF_WORD_COUNT] = {
		[JF_WORD_EPOCH] = "epoch", [JF_WORD_STEP] = "step", [JF_WORD_ITER] = "iter",
		[JF_WORD_RATE] = "it/s]", [JF_WORD_RATE2] = "s/it]", [JF_WORD_EVAL] = "eval",
		[JF_WORD_VALID] = "valid", [JF_WORD_TEST] = "test",
		[JF_WORD_TRACEBACK] = "traceback (most recent call last)",
		[JF_WORD_ERROR] = "error", [JF_WORD_EXCEPTION] = "exception", [JF_WORD_FAIL] = "fail",
		[JF_WORD_FATAL] = "fatal", [JF_WORD_ABORT] = "abort", [JF_WORD_KILLED] = "killed",
		[JF_WORD_DENIED] = "denied", [JF_WORD_REFUSED] = "refused",
		[JF_WORD_TIMED_OUT] = "timed out", [JF_WORD_DUMPED] = "core dumped",
		[JF_WORD_SEGFAULT] = "segmentation fault", [JF_WORD_ILLEGAL] = "illegal instruction",
		[JF_WORD_CRASH] = "crash", [JF_WORD_UNSUCCESSFUL] = "unsuccessful",
		[JF_WORD_NO_SUCH] = "no such file", [JF_WORD_NOT_FOUND] = "not found",
		[JF_WORD_UNRECOGNIZED] = "unrecognized", [JF_WORD_REJECTED] = "rejected",
		[JF_WORD_INVALID] = "invalid", [JF_WORD_CANNOT] = "cannot", [JF_WORD_UNABLE] = "unable to",
		[JF_WORD_EXCEEDED] = "exceeded", [JF_WORD_ASSERT] = "assert", [JF_WORD_WARN] = "warn",
	};
	table.unfiltered = jf_xcalloc(table.npatterns + 1, sizeof *table.unfiltered);
	for (size_t i = 0; i < table.npatterns; i++) {
		for (char **l = patterns[i].literals; l && *l; l++)
			jf_keyset_add(table.literals, *l, (uint32_t)i);
		if (!patterns[i].literals)
			table.unfiltered[table.nunfiltered++] = (uint32_t)i;
	}
	for (size_t k = 0; k < JF_WORD_COUNT; k++)
		jf_keyset_add(table.literals, words[k], (uint32_t)(table.npatterns + k));
}

const jf_triage_table *jf_triage_table_get(void)
{
	pthread_once(&loaded, load);
	return &table;
}

const jf_triage_category *jf_triage_category_find(const jf_triage_table *t, const char *name)
{
	for (size_t i = 0; name && i < t->ncategories; i++)
		if (!strcmp(t->categories[i].name, name))
			return &t->categories[i];
	return NULL;
}

/* Matching */

#define MATCH_LIMIT 100000u

static pcre2_match_context *limits;

static void make_limits(void)
{
	limits = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(limits, MATCH_LIMIT);
	pcre2_set_depth_limit(limits, 10000u);
}

bool jf_triage_pattern_matches(const jf_triage_pattern *p, const char *text, size_t len,
                               void *match_data)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, make_limits);
	return pcre2_match(p->re, (PCRE2_SPTR)text, len, 0, 0, match_data, limits) >= 0;
}

void *jf_triage_match_data_new(void)
{
	return pcre2_match_data_create(1, NULL);
}

void jf_triage_match_data_free(void *md)
{
	pcre2_match_data_free(md);
}
