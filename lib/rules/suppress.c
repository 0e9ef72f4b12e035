/* suppress.c - inline suppressions, the config's filter over a lint's findings, JF006 and JF007 */
#include "rules/suppress.h"

#include "rules/config.h"
#include "core/yml.h"
#include "sources/tree.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

void jf_directive_parse(const char *t, size_t len, jf_directive *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < len; i++) {
		if (t[i] != '#')
			continue;
		size_t j = i + 1;
		while (j < len && is_blank(t[j]))
			j++;
		if (len - j < 7 || memcmp(t + j, "jobfix:", 7))
			continue;
		j += 7;
		while (j < len && is_blank(t[j]))
			j++;
		out->start = (uint32_t)i;
		out->word_start = (uint32_t)j;
		while (j < len && is_word_char(t[j]))
			j++;
		out->word_end = out->end = (uint32_t)j;
		size_t wlen = j - out->word_start;
		const char *word = t + out->word_start;
		bool line = wlen == 6 && !memcmp(word, "ignore", 6);
		bool file = wlen == 11 && !memcmp(word, "ignore-file", 11);
		if (!line && !file) {
			out->kind = JF_DIRECTIVE_UNKNOWN;
			return;
		}
		size_t k = j;
		while (k < len && is_blank(t[k]))
			k++;
		if (k >= len || t[k] != '[') {
			out->kind = JF_DIRECTIVE_BARE;
			return;
		}
		const char *close = memchr(t + k, ']', len - k);
		if (!close) {
			out->kind = JF_DIRECTIVE_UNCLOSED;
			out->end = (uint32_t)len;
			return;
		}
		size_t ce = (size_t)(close - t);
		out->end = (uint32_t)ce + 1;
		for (size_t p = k + 1; p < ce;) {
			size_t q = p;
			while (q < ce && t[q] != ',')
				q++;
			size_t a = p, b = q;
			while (a < b && is_blank(t[a]))
				a++;
			while (b > a && is_blank(t[b - 1]))
				b--;
			if (a < b && out->ncodes < sizeof out->codes / sizeof *out->codes)
				out->codes[out->ncodes++] = (jf_directive_code){ (uint32_t)a, (uint32_t)b };
			p = q + 1;
		}
		out->kind = !out->ncodes ? JF_DIRECTIVE_BARE
		            : file       ? JF_DIRECTIVE_FILE
		                         : JF_DIRECTIVE_IGNORE;
		return;
	}
}

/* A suppression found in a file of the lint. */
typedef struct {
	char *text;
	jf_span span;        /* in the source */
	const jf_rule *rule; /* NULL when jobfix knows no such rule */
	bool used;
} code;

typedef struct {
	const jf_source *src;
	jf_span span;   /* the directive */
	jf_span word;   /* the word after `jobfix:` */
	uint32_t line;  /* 0-based, of the comment */
	bool own_line;  /* only blanks before it: it covers the next line too */
	jf_directive_kind kind;
	JF_ARRAY(code) codes;
} suppression;

typedef JF_ARRAY(suppression) suppressions;

typedef struct {
	const jf_config *cfg;
	suppressions *out;
	const jf_source *src;
} collector;

static void add_comment(void *data, jf_span comment)
{
	collector *c = data;
	const jf_source *src = c->src;
	jf_directive d;
	jf_directive_parse(src->data + comment.start, comment.end - comment.start, &d);
	if (d.kind == JF_DIRECTIVE_NONE)
		return;
	for (size_t i = 0; i < c->out->size; i++)
		if (c->out->items[i].src == src &&
		    c->out->items[i].span.start == comment.start + d.start)
			return; /* the same comment seen through a second tree */
	suppression s = { 0 };
	s.src = src;
	s.span = (jf_span){ comment.start + d.start, comment.start + d.end };
	s.word = (jf_span){ comment.start + d.word_start, comment.start + d.word_end };
	s.line = jf_source_line_of(src, comment.start);
	s.kind = d.kind;
	jf_span line = jf_source_line_span(src, s.line);
	s.own_line = true;
	for (uint32_t i = line.start; i < comment.start; i++)
		s.own_line &= is_blank(src->data[i]);
	for (size_t i = 0; i < d.ncodes; i++) {
		jf_span at = { comment.start + d.codes[i].start, comment.start + d.codes[i].end };
		code k = { jf_xstrndup(src->data + at.start, at.end - at.start), at, NULL, false };
		k.rule = jf_config__find_rule(c->cfg, k.text);
		jf_array_push(&s.codes, k);
	}
	jf_array_push(c->out, s);
}

static bool mentions_jobfix(const jf_source *src)
{
	return src->status == JF_SOURCE_OK && strstr(src->data, "jobfix:") != NULL;
}

/* Every suppression comment in the lint's files: the comments that hold
 * "jobfix:", found by their text and the node there (no walk). */
static void collect(const jf_facts *facts, const jf_config *cfg, suppressions *out)
{
	const jf_workspace *ws = facts->ws;
	for (size_t u = 0; u < ws->files.size; u++) {
		const jf_file *file = ws->files.items[u];
		const jf_source *src = file->src;
		/* A copy of a job spec value: its findings are reported at the value.
		 * A rewritten copy of a file: its comments are the file's. */
		if ((src->origin && !src->same_offsets) || !mentions_jobfix(src))
			continue;
		jf_facts_settle(facts); /* what is kept across files is spans */
		TSTree *tree = jf_facts_tree(facts, file);
		if (!tree)
			continue;
		collector c = { cfg, out, src->origin ? src->origin : src };
		TSNode root = ts_tree_root_node(tree);
		for (const char *p = strstr(src->data, "jobfix:"); p; p = strstr(p + 1, "jobfix:")) {
			uint32_t at = (uint32_t)(p - src->data);
			TSNode n = ts_node_descendant_for_byte_range(root, at, at + 1);
			if (jf_node_type_is(n, JF_T_comment) && ts_node_start_byte(n) <= at)
				add_comment(&c, jf_node_span(n));
		}
	}
	const jf_job *job = facts->job;
	for (size_t i = 0; job && i < job->comments.size; i++) {
		collector c = { cfg, out, job->comments.items[i].src };
		add_comment(&c, job->comments.items[i].span);
	}
}

static void suppressions_release(suppressions *a)
{
	for (size_t i = 0; i < a->size; i++) {
		for (size_t k = 0; k < a->items[i].codes.size; k++)
			free(a->items[i].codes.items[k].text);
		jf_array_release(&a->items[i].codes);
	}
	jf_array_release(a);
}

/* Whether a suppression covers `d`; marks each that does as used. */
static bool suppressed(suppressions *sups, const jf_diag *d)
{
	bool found = false;
	uint32_t line = UINT32_MAX;
	for (size_t i = 0; i < sups->size; i++) {
		suppression *s = &sups->items[i];
		if (s->src != d->src ||
		    (s->kind != JF_DIRECTIVE_IGNORE && s->kind != JF_DIRECTIVE_FILE))
			continue;
		if (s->kind == JF_DIRECTIVE_IGNORE) {
			if (line == UINT32_MAX)
				line = jf_source_line_of(d->src, d->span.start);
			if (line != s->line && !(s->own_line && line == s->line + 1))
				continue;
		}
		for (size_t k = 0; k < s->codes.size; k++) {
			if (s->codes.items[k].rule == d->rule) {
				s->codes.items[k].used = true;
				found = true;
			}
		}
	}
	return found;
}

typedef struct {
	const jf_config *cfg;
	suppressions *sups;
} filter_env;

static bool keep(void *data, jf_diag *d)
{
	filter_env *env = data;
	const char *fs = d->src ? d->src->fs_path : NULL;
	if (jf_config__excluded(env->cfg, fs) || !jf_config__active(env->cfg, d->rule, fs) ||
	    suppressed(env->sups, d))
		return false;
	d->severity = jf_diag_severity_of(d, jf_config__severity(env->cfg, d->rule));
	return true;
}

/* Whether `rule` could have reported in this lint: when a file is linted
 * alone, only the query rules that need no job and the rules of every file. */
static bool could_fire(const jf_facts *facts, const jf_rule *rule)
{
	if (facts->job)
		return true;
	if (!strcmp(rule->info.id, JF005) || !strcmp(rule->info.id, JF301))
		return true;
	bool has_query = false;
	for (int l = 0; l < JF_LANG_COUNT; l++)
		has_query |= rule->queries[l].path != NULL;
	return has_query && !rule->job_only;
}

static bool is_meta_rule(const jf_rule *rule)
{
	return !strcmp(rule->info.id, JF006) || !strcmp(rule->info.id, JF007);
}

static const char *directive_name(const suppression *s)
{
	return s->kind == JF_DIRECTIVE_FILE ? "ignore-file" : "ignore";
}

static void report_unknown_rule(const jf_config *cfg, jf_sink *out, const suppression *s,
                                const code *k)
{
	jf_diag *d = jf_sink_add(out, JF006, s->src, k->span,
	                              "unknown rule '%s' in a suppression", k->text);
	/* The nearest id or name, for a did-you-mean. */
	const char *best = NULL;
	size_t best_d = 3;
	const jf_rule_list *rules = jf_config__rules(cfg);
	for (size_t i = 0; i < rules->items.size; i++) {
		const jf_rule *r = rules->items.items[i];
		const char *cands[] = { r->info.id, r->info.name };
		for (size_t c = 0; c < 2; c++) {
			size_t max = strlen(cands[c]) <= 5 ? 1 : 2;
			size_t dist = jf_edit_distance(k->text, cands[c], max);
			if (dist <= max && dist < best_d) {
				best = cands[c];
				best_d = dist;
			}
		}
	}
	if (best)
		jf_diag_set_help(d, "did you mean '%s'?", best);
	else
		jf_diag_set_help(d, "name rules by id (JF101) or name (hard-coded-local-path); "
		                    "'jobfix rules' lists them");
}

/* JF006 for broken suppressions and unknown rules, JF007 for unused ones. */
static void report_suppressions(const jf_facts *facts, const jf_config *cfg, jf_sink *out,
                                const suppressions *sups)
{
	for (size_t i = 0; i < sups->size; i++) {
		const suppression *s = &sups->items[i];
		jf_diag *d;
		switch (s->kind) {
		case JF_DIRECTIVE_BARE: {
			int wlen = (int)(s->word.end - s->word.start);
			const char *word = s->src->data + s->word.start;
			d = jf_sink_add(out, JF006, s->src, s->span,
			                     "'jobfix: %.*s' names no rule: it suppresses nothing", wlen, word);
			jf_diag_set_help(d,
			                 "name the rules in brackets: `# jobfix: %.*s[JF101]` or "
			                 "`# jobfix: %.*s[hard-coded-local-path]`",
			                 wlen, word, wlen, word);
			continue;
		}
		case JF_DIRECTIVE_UNCLOSED:
			jf_diag_set_help(jf_sink_add(out, JF006, s->src, s->span,
			                                  "suppression without its closing ']': it "
			                                  "suppresses nothing"),
			                 "close the list of rules: `# jobfix: ignore[JF101]`");
			continue;
		case JF_DIRECTIVE_UNKNOWN: {
			int wlen = (int)(s->word.end - s->word.start);
			const char *word = s->src->data + s->word.start;
			char *w = jf_xstrndup(word, (size_t)wlen);
			static const char *const known[] = { "ignore", "ignore-file", NULL };
			const char *near = jf_yml_suggest(w, known);
			d = jf_sink_add(out, JF006, s->src, s->span,
			                     "unknown directive 'jobfix: %s': it suppresses nothing", w);
			if (near)
				jf_diag_set_help(d, "did you mean '%s'?", near);
			else
				jf_diag_set_help(d, "the directives are `# jobfix: ignore[...]` and "
				                    "`# jobfix: ignore-file[...]`");
			free(w);
			continue;
		}
		default:
			break;
		}
		jf_buf unused = JF_BUF_INIT;
		size_t nunused = 0;
		for (size_t k = 0; k < s->codes.size; k++) {
			const code *c = &s->codes.items[k];
			if (!c->rule) {
				report_unknown_rule(cfg, out, s, c);
				continue;
			}
			if (c->used || is_meta_rule(c->rule) ||
			    !jf_config__active(cfg, c->rule, s->src->fs_path) || !could_fire(facts, c->rule))
				continue;
			jf_buf_addf(&unused, "%s'%s'", nunused ? ", " : "", c->text);
			nunused++;
		}
		if (nunused) {
			d = jf_sink_add(out, JF007, s->src, s->span, "%s of %s suppresses nothing%s",
			                     s->kind == JF_DIRECTIVE_FILE ? "file-level suppression"
			                                                  : "suppression",
			                     unused.buf, s->kind == JF_DIRECTIVE_FILE ? " in this file" : "");
			if (nunused < s->codes.size)
				jf_diag_set_help(d,
				                 "remove the rules that no longer fire from `jobfix: %s[...]`",
				                 directive_name(s));
		}
		jf_buf_release(&unused);
	}
}

void jf_suppress_finish(const jf_facts *facts, const jf_config *cfg, jf_sink *out, size_t first)
{
	jf_report *report = out->report;
	suppressions sups = { 0 };
	collect(facts, cfg, &sups);
	filter_env env = { cfg, &sups };
	jf_report_filter(report, first, keep, &env);
	size_t mid = report->diags.size;
	report_suppressions(facts, cfg, out, &sups);
	/* JF006 and JF007 obey the config like any rule, and a suppression may name them. */
	jf_report_filter(report, mid, keep, &env);
	suppressions_release(&sups);
}
