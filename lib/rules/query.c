/* query.c - compiling rule queries, evaluating their predicates, running them
 *
 * The tree-sitter C core parses predicates but leaves their evaluation to the
 * caller. jobfix supports #eq?, #not-eq?, #match?, #not-match?, #any-of? and
 * #not-any-of?; regexes are PCRE2, compiled once with the query.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>

#include "rules/registry.h"

/* Regular expressions: JIT-compiled where the machine allows (the interpreter
 * elsewhere), and bounded either way: a pattern of a user's rules folder
 * meets the text of the linted file, and `(a+)+$` on a long string would
 * backtrack for minutes. */
#define REGEX_MATCH_LIMIT 1000000u /* backtracking steps of one match */
#define REGEX_DEPTH_LIMIT 10000u
#define REGEX_HEAP_LIMIT (20u << 10) /* KiB */
#define REGEX_GIVE_UPS 4 /* per pattern and file, before the pattern is given up on */

enum { REGEX_NO_MATCH, REGEX_MATCH, REGEX_LIMIT };

static pcre2_code *compile_regex(const char *pattern, int *errcode, PCRE2_SIZE *erroff)
{
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	                               PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, errcode, erroff, NULL);
	if (re)
		(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* failing, it is interpreted */
	return re;
}

static pcre2_match_context *match_limits;

static void make_match_limits(void)
{
	match_limits = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(match_limits, REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(match_limits, REGEX_DEPTH_LIMIT);
	pcre2_set_heap_limit(match_limits, REGEX_HEAP_LIMIT);
}

/* Whether `re` matches text[0, len): REGEX_LIMIT when it gave up at a limit. */
static int regex_match(const pcre2_code *re, const char *text, size_t len,
                       pcre2_match_data *md)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, make_match_limits);
	int rc = pcre2_match(re, (PCRE2_SPTR)text, len, 0, 0, md, match_limits);
	if (rc >= 0)
		return REGEX_MATCH;
	return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	                       rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT
	               ? REGEX_LIMIT
	               : REGEX_NO_MATCH;
}

typedef enum { PRED_EQ, PRED_MATCH, PRED_ANY_OF } pred_op;

typedef struct {
	pred_op op;
	bool negate;
	uint32_t capture;
	int64_t other_capture; /* #eq? @a @b; -1 otherwise */
	char **strings;        /* #eq? string, #any-of? strings */
	size_t nstrings;
	pcre2_code *re;
} pred;

typedef JF_ARRAY(pred) pred_array;

struct jf_query {
	TSQuery *ts;
	pred_array *preds; /* one array per pattern */
	uint32_t npatterns;
	const char **capture_names;
	uint32_t ncaptures;
};

static void preds_release(pred_array *a)
{
	for (size_t i = 0; i < a->size; i++) {
		for (size_t k = 0; k < a->items[i].nstrings; k++)
			free(a->items[i].strings[k]);
		free(a->items[i].strings);
		pcre2_code_free(a->items[i].re);
	}
	jf_array_release(a);
}

void jf_query_free(jf_query *self)
{
	if (!self)
		return;
	for (uint32_t i = 0; i < self->npatterns; i++)
		preds_release(&self->preds[i]);
	free(self->preds);
	free(self->capture_names);
	ts_query_delete(self->ts);
	free(self);
}

static const char *query_error_message(TSQueryError e)
{
	switch (e) {
	case TSQueryErrorSyntax:
		return "syntax error in query";
	case TSQueryErrorNodeType:
		return "unknown node type in query";
	case TSQueryErrorField:
		return "unknown field in query";
	case TSQueryErrorCapture:
		return "unknown capture in query";
	case TSQueryErrorStructure:
		return "impossible pattern structure in query";
	case TSQueryErrorLanguage:
		return "incompatible language in query";
	default:
		return "error in query";
	}
}

/* Records "path:line:col: what" for a problem at `byte` of the `len` bytes of `text`. */
static int error_at(jf_error *err, const char *path, const char *text, uint32_t len,
                    uint32_t byte, const char *what)
{
	jf_pos p = jf_text_pos(text, len, byte);
	return jf_error_set(err, JF_EQUERY, "%s:%u:%u: %s", path, p.line, p.col, what);
}

/* Compiles the predicates of pattern `p`; NULL or an error message (static). */
static const char *compile_predicates(jf_query *q, uint32_t p)
{
	uint32_t n;
	const TSQueryPredicateStep *st = ts_query_predicates_for_pattern(q->ts, p, &n);
	uint32_t i = 0;
	while (i < n) {
		uint32_t start = i;
		while (i < n && st[i].type != TSQueryPredicateStepTypeDone)
			i++;
		uint32_t end = i++; /* steps [start, end) form one predicate */
		if (end == start || st[start].type != TSQueryPredicateStepTypeString)
			return "malformed predicate";
		uint32_t len;
		const char *name = ts_query_string_value_for_id(q->ts, st[start].value_id, &len);
		pred pr = { 0 };
		pr.other_capture = -1;
		if (!strcmp(name, "eq?") || !strcmp(name, "not-eq?"))
			pr.op = PRED_EQ;
		else if (!strcmp(name, "match?") || !strcmp(name, "not-match?"))
			pr.op = PRED_MATCH;
		else if (!strcmp(name, "any-of?") || !strcmp(name, "not-any-of?"))
			pr.op = PRED_ANY_OF;
		else
			return "unknown predicate (supported: #eq? #not-eq? #match? #not-match? #any-of? #not-any-of?)";
		pr.negate = jf_str_starts(name, "not-");
		uint32_t argc = end - start - 1;
		const TSQueryPredicateStep *args = st + start + 1;
		if (argc < 2 || args[0].type != TSQueryPredicateStepTypeCapture)
			return "a predicate takes a capture and then its arguments";
		pr.capture = args[0].value_id;
		if (pr.op != PRED_ANY_OF && argc != 2)
			return "#eq? and #match? take exactly two arguments";
		if (pr.op == PRED_EQ && args[1].type == TSQueryPredicateStepTypeCapture) {
			pr.other_capture = args[1].value_id;
		} else {
			pr.nstrings = argc - 1;
			pr.strings = jf_xcalloc(pr.nstrings, sizeof(char *));
			for (uint32_t k = 0; k < pr.nstrings; k++) {
				if (args[1 + k].type != TSQueryPredicateStepTypeString) {
					for (uint32_t j = 0; j < k; j++)
						free(pr.strings[j]);
					free(pr.strings);
					return "predicate arguments after the capture must be strings";
				}
				const char *s = ts_query_string_value_for_id(q->ts, args[1 + k].value_id, &len);
				pr.strings[k] = jf_xstrndup(s, len);
			}
		}
		if (pr.op == PRED_MATCH) {
			int errcode;
			PCRE2_SIZE erroff;
			pr.re = compile_regex(pr.strings[0], &errcode, &erroff);
			if (!pr.re) {
				free(pr.strings[0]);
				free(pr.strings);
				return "invalid regular expression in #match?";
			}
		}
		jf_array_push(&q->preds[p], pr);
	}
	return NULL;
}

int jf_query_compile(jf_lang lang, const char *path, const char *text, uint32_t len,
                     uint32_t body_offset, jf_query **out, jf_error *err)
{
	uint32_t off = body_offset;
	const char *what = NULL;
	*out = jf_query__compile_raw(lang, text, len, &off, &what);
	return *out ? 0 : error_at(err, path, text, len, off, what);
}

uint32_t jf_query_pattern_count(const jf_query *self)
{
	return self->npatterns;
}

bool jf_query_has_capture(const jf_query *self, const char *name)
{
	for (uint32_t i = 0; i < self->ncaptures; i++)
		if (!strcmp(self->capture_names[i], name))
			return true;
	return false;
}

uint32_t jf_query_pattern_start(const jf_query *self, uint32_t pattern)
{
	return ts_query_start_byte_for_pattern(self->ts, pattern);
}

/* What tree-sitter's query compiler must not see: a NUL byte (it reads a
 * node name past its end), an empty string (`""`: strncmp and memcpy of
 * NULL), and a quantifier (`*`, `+`, `?`) applied to an already quantified
 * pattern, as in `(x)?+` or `(x)* @c +`, on some of which tree-sitter 0.25
 * loops forever and none of which means anything. Returns the offset of the
 * first, with *why, or UINT32_MAX. */
static uint32_t refused_text(const char *text, uint32_t len, const char **why)
{
	bool after_quantifier = false;
	/* Whether each open parenthesis is a predicate's `(#...`, for the message. */
	bool predicate[64] = { false };
	uint32_t depth = 0;
	for (uint32_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '\0') {
			*why = "a NUL byte";
			return i;
		}
		if (c == ';') {
			while (i + 1 < len && text[i + 1] != '\n' && text[i + 1] != '\0')
				i++;
		} else if (c == '"') {
			uint32_t open = i;
			for (i++; i < len && text[i] != '"' && text[i] != '\0'; i++)
				if (text[i] == '\\' && i + 1 < len && text[i + 1] != '\0')
					i++;
			if (i < len && text[i] == '\0') {
				*why = "a NUL byte";
				return i;
			}
			if (i == open + 1) {
				*why = depth && depth <= 64 && predicate[depth - 1]
				               ? "an empty string: tree-sitter cannot take one (test for an "
				                 "empty text with #match? @x \"^$\")"
				               : "an empty string names no node";
				return open;
			}
			after_quantifier = false;
		} else if (c == '(') {
			if (depth < 64)
				predicate[depth] = i + 1 < len && text[i + 1] == '#';
			depth++;
			after_quantifier = false;
		} else if (c == ')') {
			depth -= depth > 0;
			after_quantifier = false;
		} else if (c == '@') {
			while (i + 1 < len && text[i + 1] && (isalnum((unsigned char)text[i + 1]) ||
			                       strchr("_-.", text[i + 1])))
				i++;
		} else if (c == '*' || c == '+' || c == '?') {
			if (after_quantifier) {
				*why = "a quantifier applied to a quantified pattern";
				return i;
			}
			after_quantifier = true;
		} else if (!isspace((unsigned char)c)) {
			after_quantifier = false;
		}
	}
	return UINT32_MAX;
}

jf_query *jf_query__compile_raw(jf_lang lang, const char *text, uint32_t len, uint32_t *err_offset,
                                const char **err)
{
	uint32_t off;
	TSQueryError e;
	uint32_t refused = refused_text(text, len, err);
	if (refused != UINT32_MAX) {
		*err_offset = refused;
		return NULL;
	}
	TSQuery *ts = ts_query_new(jf_lang_ts(lang), text, len, &off, &e);
	if (!ts) {
		*err = query_error_message(e);
		*err_offset = off;
		return NULL;
	}
	jf_query *q = jf_xcalloc(1, sizeof(*q));
	q->ts = ts;
	q->npatterns = ts_query_pattern_count(ts);
	q->preds = jf_xcalloc(q->npatterns, sizeof(*q->preds));
	q->ncaptures = ts_query_capture_count(ts);
	q->capture_names = jf_xcalloc(q->ncaptures, sizeof(char *));
	for (uint32_t i = 0; i < q->ncaptures; i++) {
		uint32_t n;
		q->capture_names[i] = ts_query_capture_name_for_id(ts, i, &n);
	}
	if (q->npatterns == 0) {
		*err = "query has no patterns"; /* *err_offset stays where the body starts */
		jf_query_free(q);
		return NULL;
	}
	for (uint32_t p = 0; p < q->npatterns; p++) {
		const char *msg = compile_predicates(q, p);
		if (msg) {
			*err = msg;
			*err_offset = ts_query_start_byte_for_pattern(ts, p);
			jf_query_free(q);
			return NULL;
		}
	}
	return q;
}

static bool node_text_eq(TSNode n, const char *text, const char *s, size_t slen)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	return b - a == slen && memcmp(text + a, s, slen) == 0;
}

static bool pred_holds_for(const pred *pr, TSNode n, const TSQueryMatch *m, const char *text,
                           pcre2_match_data *md, bool *limited)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	switch (pr->op) {
	case PRED_EQ:
		if (pr->other_capture >= 0) {
			for (uint16_t i = 0; i < m->capture_count; i++)
				if (m->captures[i].index == (uint32_t)pr->other_capture)
					return node_text_eq(m->captures[i].node, text, text + a, b - a);
			return false;
		}
		return node_text_eq(n, text, pr->strings[0], strlen(pr->strings[0]));
	case PRED_MATCH: {
		int rc = regex_match(pr->re, text + a, b - a, md);
		if (rc == REGEX_LIMIT)
			*limited = true;
		return rc == REGEX_MATCH;
	}
	case PRED_ANY_OF:
		for (size_t k = 0; k < pr->nstrings; k++)
			if (node_text_eq(n, text, pr->strings[k], strlen(pr->strings[k])))
				return true;
		return false;
	}
	return false;
}

/* A predicate holds when it holds for every node of its capture (none: vacuous). */
static bool predicates_hold(const jf_query *q, const TSQueryMatch *m, const char *text,
                            pcre2_match_data *md, bool *limited)
{
	const pred_array *preds = &q->preds[m->pattern_index];
	for (size_t i = 0; i < preds->size; i++) {
		const pred *pr = &preds->items[i];
		for (uint16_t c = 0; c < m->capture_count; c++) {
			if (m->captures[c].index != pr->capture)
				continue;
			if (pred_holds_for(pr, m->captures[c].node, m, text, md, limited) == pr->negate)
				return false;
		}
	}
	return true;
}

long jf_query_run(const jf_query *self, TSNode root, const char *text, jf_match_fn fn,
                  void *data)
{
	long limited_pattern = -1;
	uint8_t *gave_up = jf_xcalloc(ts_query_pattern_count(self->ts) + 1, 1);
	TSQueryCursor *cur = ts_query_cursor_new();
	pcre2_match_data *md = pcre2_match_data_create(4, NULL);
	JF_ARRAY(jf_capture) caps = { 0 };
	TSQueryMatch m;
	ts_query_cursor_exec(cur, self->ts, root);
	while (ts_query_cursor_next_match(cur, &m)) {
		/* A pattern whose regex gave up this often is given up on in this file:
		 * each give-up costs the whole limit of steps. */
		if (gave_up[m.pattern_index] >= REGEX_GIVE_UPS)
			continue;
		bool limited = false;
		bool hold = predicates_hold(self, &m, text, md, &limited);
		if (limited && limited_pattern < 0)
			limited_pattern = m.pattern_index;
		gave_up[m.pattern_index] += limited;
		if (!hold)
			continue;
		caps.size = 0;
		for (uint16_t c = 0; c < m.capture_count; c++) {
			jf_capture cap = { self->capture_names[m.captures[c].index], m.captures[c].node };
			jf_array_push(&caps, cap);
		}
		jf_match jm = { caps.items, caps.size, m.pattern_index };
		fn(data, &jm);
	}
	jf_array_release(&caps);
	pcre2_match_data_free(md);
	ts_query_cursor_delete(cur);
	free(gave_up);
	return limited_pattern;
}

TSNode jf_match_get(const jf_match *m, const char *name)
{
	for (size_t i = 0; i < m->size; i++)
		if (!strcmp(m->items[i].name, name))
			return m->items[i].node;
	TSNode null = { 0 };
	return null;
}

bool jf_rule_compile_prefilter(jf_rule *rule)
{
	for (int l = 0; l < JF_LANG_COUNT; l++) {
		struct jf_rule_query *q = &rule->queries[l];
		if (!q->prefilter || q->prefilter_re)
			continue;
		int errcode;
		PCRE2_SIZE erroff;
		q->prefilter_re = compile_regex(q->prefilter, &errcode, &erroff);
		if (!q->prefilter_re)
			return false;
	}
	return true;
}

void jf_rule_release_compiled(jf_rule *rule)
{
	for (int l = 0; l < JF_LANG_COUNT; l++) {
		pcre2_code_free(rule->queries[l].prefilter_re);
		rule->queries[l].prefilter_re = NULL;
	}
}

bool jf_rule_may_match(const jf_rule *rule, jf_lang lang, const char *text, uint32_t len)
{
	pcre2_code *re = rule->queries[lang].prefilter_re;
	if (!re)
		return true;
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	int rc = regex_match(re, text, len, md);
	pcre2_match_data_free(md);
	return rc != REGEX_NO_MATCH; /* a prefilter that gives up lets the query decide */
}
