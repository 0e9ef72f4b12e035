/* lint.c - the linter: loading and parsing files once, running the rules over them */
#define _XOPEN_SOURCE 700 /* realpath */
#include "lint.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#include "rules/checks.h"
#include "rules/config.h"
#include "core/path.h"
#include "report/report.h"
#include "rules/suppress.h"

/* Parsing stops after this long on one file (pathological input). */
#define JF_PARSE_BUDGET_SECONDS 5.0

static void *ts_malloc(size_t n)
{
	return jf_xmalloc(n);
}

static void *ts_calloc(size_t n, size_t size)
{
	return jf_xcalloc(n, size);
}

static void *ts_realloc(void *p, size_t n)
{
	return jf_xrealloc(p, n);
}

jf_linter *jf_linter_new(const jf_options *opts)
{
	static bool allocator_set;
	if (!allocator_set) {
		ts_set_allocator(ts_malloc, ts_calloc, ts_realloc, free);
		allocator_set = true;
	}
	jf_linter *l = jf_xcalloc(1, sizeof(*l));
	jf_options defaults = JF_OPTIONS_INIT;
	l->opts = opts ? *opts : defaults;
	return l;
}

void jf_linter_free(jf_linter *self)
{
	if (!self)
		return;
	jf_report_release(&self->report);
	for (size_t i = 0; i < self->sources.size; i++)
		jf_source_free(self->sources.items[i]);
	jf_array_release(&self->sources);
	for (int i = 0; i < JF_LANG_COUNT; i++)
		if (self->parsers[i])
			ts_parser_delete(self->parsers[i]);
	free(self->error);
	jf_linter_restrict(self, NULL);
	jf_array_release(&self->read);
	for (size_t i = 0; i < self->skipped.size; i++)
		free(self->skipped.items[i]);
	jf_array_release(&self->skipped);
	free(self);
}

/* Changed files */

static bool file_id_of(const char *path, jf_file_id *out)
{
	struct stat st;
	if (!path || stat(path, &st) != 0)
		return false;
	*out = (jf_file_id){ st.st_dev, st.st_ino };
	return true;
}

static bool ids_have(const jf_file_ids *ids, jf_file_id id)
{
	for (size_t i = 0; i < ids->size; i++)
		if (ids->items[i].dev == id.dev && ids->items[i].ino == id.ino)
			return true;
	return false;
}

void jf_linter_restrict(jf_linter *self, const char *const *files)
{
	jf_array_release(&self->changed);
	for (size_t i = 0; i < self->changed_real.size; i++)
		free(self->changed_real.items[i]);
	jf_array_release(&self->changed_real);
	self->restricted = files != NULL;
	for (size_t i = 0; files && files[i]; i++) {
		jf_file_id id;
		char *real = realpath(files[i], NULL);
		if (!file_id_of(files[i], &id) || !real) {
			free(real);
			continue;
		}
		jf_array_push(&self->changed, id);
		jf_array_push(&self->changed_real, real);
	}
}

int jf_linter_has_read(const jf_linter *self, const char *path)
{
	jf_file_id id;
	return file_id_of(path, &id) && ids_have(&self->read, id);
}

/* Whether the job may read a changed file: one is its spec, or lies in its code folder. */
static bool may_read_changed(const jf_linter *self, const jf_job *job)
{
	jf_file_id id;
	if (file_id_of(job->spec->fs_path, &id) && ids_have(&self->changed, id))
		return true;
	char *code = job->code_dir ? realpath(job->code_dir, NULL) : NULL;
	bool found = false;
	for (size_t i = 0; code && i < self->changed_real.size && !found; i++)
		found = jf_path_under(self->changed_real.items[i], code) != NULL;
	free(code);
	return found;
}

/* Whether a source read since index `from` of the linter's is a changed file. */
static bool read_changed(const jf_linter *self, size_t from)
{
	jf_file_id id;
	for (size_t i = from; i < self->sources.size; i++)
		if (file_id_of(self->sources.items[i]->fs_path, &id) && ids_have(&self->changed, id))
			return true;
	return false;
}

static bool keep_none(void *data, jf_diag *d)
{
	(void)data;
	(void)d;
	return false;
}

const char *jf_linter_error(const jf_linter *self)
{
	return self->error ? self->error : "";
}

static int set_error(jf_linter *l, int code, const char *fmt, ...) JF_PRINTF(3, 4);
static int set_error(jf_linter *l, int code, const char *fmt, ...)
{
	jf_buf b = JF_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(l->error);
	l->error = jf_buf_detach(&b, NULL);
	return code;
}

void jf_ctx_skip(jf_ctx *ctx, const char *rule_id, const char *fmt, ...)
{
	const jf_rule *rule = jf_rules_find(rule_id);
	jf_buf b = JF_BUF_INIT;
	jf_buf_addf(&b, "%s %s: ", rule_id, rule ? rule->info.name : "?");
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	jf_linter *l = ctx->linter;
	for (size_t i = 0; i < l->skipped.size; i++)
		if (!strcmp(l->skipped.items[i], b.buf)) {
			jf_buf_release(&b);
			return;
		}
	jf_array_push(&l->skipped, jf_buf_detach(&b, NULL));
}

const char *jf_linter_skipped(const jf_linter *self, size_t i)
{
	return i < self->skipped.size ? self->skipped.items[i] : NULL;
}

jf_image *jf_ctx_image(jf_ctx *ctx)
{
	if (!ctx->image)
		ctx->image = jf_image_resolve(ctx->job);
	return ctx->image;
}

jf_source *jf_ctx_keep(jf_ctx *ctx, jf_source *src)
{
	jf_array_push(&ctx->linter->sources, src);
	return src;
}

static jf_diag *vreport(jf_ctx *ctx, const char *rule_id, const jf_source *src, jf_span span,
                        const char *fmt, va_list ap)
{
	const jf_rule *rule = jf_config__find_rule(ctx->linter->opts.config, rule_id);
	if (!rule)
		JF_BUG("no rule %s", rule_id);
	jf_buf b = JF_BUF_INIT;
	jf_buf_vaddf(&b, fmt, ap);
	jf_diag *d = jf_report_add(&ctx->linter->report, rule, src, span, "%s", b.buf);
	jf_buf_release(&b);
	return d;
}

jf_diag *jf_ctx_report_at(jf_ctx *ctx, const char *rule_id, const jf_source *src, jf_span span,
                          const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jf_diag *d = vreport(ctx, rule_id, src, span, fmt, ap);
	va_end(ap);
	return d;
}

jf_diag *jf_ctx_report(jf_ctx *ctx, const char *rule_id, const jf_unit *unit, jf_span span,
                       const char *fmt, ...)
{
	va_list ap;
	const jf_source *src = unit->src;
	if (unit->origin_src) {
		src = unit->origin_src;
		span = unit->origin;
	}
	va_start(ap, fmt);
	jf_diag *d = vreport(ctx, rule_id, src, span, fmt, ap);
	va_end(ap);
	return d;
}

void jf_words_release(jf_words *w)
{
	for (size_t i = 0; i < w->size; i++)
		free(w->items[i].value);
	jf_array_release(w);
}

TSNode jf_iter_start(jf_iter *it, TSNode root)
{
	it->cur = ts_tree_cursor_new(root);
	return root;
}

TSNode jf_iter_next(jf_iter *it, bool descend)
{
	if (descend && ts_tree_cursor_goto_first_child(&it->cur))
		return ts_tree_cursor_current_node(&it->cur);
	while (!ts_tree_cursor_goto_next_sibling(&it->cur))
		if (!ts_tree_cursor_goto_parent(&it->cur))
			return (TSNode){ 0 };
	return ts_tree_cursor_current_node(&it->cur);
}

void jf_iter_release(jf_iter *it)
{
	ts_tree_cursor_delete(&it->cur);
}

bool jf_py_try_catches(const jf_unit *unit, TSNode try_stmt, const char *const *names)
{
	for (uint32_t i = 0; i < ts_node_named_child_count(try_stmt); i++) {
		TSNode c = ts_node_named_child(try_stmt, i);
		if (!jf_node_type_is(c, "except_clause"))
			continue;
		TSNode what = ts_node_named_child(c, 0);
		if (ts_node_is_null(what) || jf_node_type_is(what, "block"))
			return true; /* a bare except */
		jf_iter it;
		bool found = false;
		for (TSNode n = jf_iter_start(&it, what); !ts_node_is_null(n) && !found;
		     n = jf_iter_next(&it, true))
			if (jf_node_type_is(n, "identifier")) {
				char *name = jf_node_text(unit, n);
				found = jf_str_in(name, names);
				free(name);
			}
		jf_iter_release(&it);
		if (found)
			return true;
	}
	return false;
}

bool jf_ctx_installs(const jf_ctx *ctx, const char *dist)
{
	for (size_t i = 0; i < ctx->installed.size; i++) {
		const char *s = ctx->installed.items[i];
		if (jf_dist_name_eq(s, strlen(s), dist))
			return true;
	}
	return false;
}

bool jf_word_passes(const char *word, const char *opt)
{
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : strlen(word);
	if (n < 2 || word[0] != '-')
		return false;
	if (n == strlen(opt))
		return !strncmp(word, opt, n);
	return word[1] == '-' && n > 2 && n < strlen(opt) && !strncmp(word, opt, n);
}

char *jf_node_text(const jf_unit *unit, TSNode n)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	if (b > unit->src->len || a > b)
		return jf_xstrdup("");
	return jf_xstrndup(unit->src->data + a, b - a);
}

bool jf_node_is(const jf_unit *unit, TSNode n, const char *s)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(s);
	return b - a == len && memcmp(unit->src->data + a, s, len) == 0;
}

static TSParser *parser_for(jf_linter *l, jf_lang lang)
{
	if (!l->parsers[lang]) {
		l->parsers[lang] = ts_parser_new();
		if (!ts_parser_set_language(l->parsers[lang], jf_lang_ts(lang)))
			JF_BUG("tree-sitter cannot load the %s grammar", jf_lang_name(lang));
	}
	return l->parsers[lang];
}

typedef struct {
	const jf_source *src;
	struct timespec start;
	unsigned calls;
} parse_input;

static const char *read_source(void *payload, uint32_t byte, TSPoint pos, uint32_t *n)
{
	const parse_input *in = payload;
	(void)pos;
	if (byte >= in->src->len) {
		*n = 0;
		return "";
	}
	*n = in->src->len - byte;
	return in->src->data + byte;
}

static bool parse_progress(TSParseState *state)
{
	parse_input *in = state->payload;
	if (++in->calls % 64)
		return false;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double s = (double)(now.tv_sec - in->start.tv_sec) +
	           (double)(now.tv_nsec - in->start.tv_nsec) / 1e9;
	return s > JF_PARSE_BUDGET_SECONDS; /* true cancels the parse */
}

/* Parses `src` (or only `ranges` of it); NULL when the time budget ran out. */
static TSTree *parse(jf_linter *l, jf_lang lang, const jf_source *src, const TSRange *ranges,
                     uint32_t nranges)
{
	TSParser *p = parser_for(l, lang);
	parse_input in = { src, { 0, 0 }, 0 };
	clock_gettime(CLOCK_MONOTONIC, &in.start);
	ts_parser_set_included_ranges(p, ranges, nranges);
	TSInput input = { &in, read_source, TSInputEncodingUTF8, NULL };
	TSParseOptions opts = { &in, parse_progress };
	TSTree *t = ts_parser_parse_with_options(p, NULL, input, opts);
	ts_parser_reset(p);
	ts_parser_set_included_ranges(p, NULL, 0);
	return t;
}

static jf_unit *add_unit(jf_ctx *ctx, jf_source *src, jf_lang lang, jf_role role, TSTree *tree)
{
	jf_unit *u = jf_xcalloc(1, sizeof(*u));
	u->src = src;
	u->lang = lang;
	u->role = role;
	u->tree = tree;
	jf_array_push(&ctx->units, u);
	return u;
}

jf_unit *jf_ctx_find(const jf_ctx *ctx, const char *fs_path)
{
	for (size_t i = 0; i < ctx->units.size; i++)
		if (ctx->units.items[i]->fs_path && !strcmp(ctx->units.items[i]->fs_path, fs_path))
			return ctx->units.items[i];
	return NULL;
}

jf_unit *jf_ctx_load(jf_ctx *ctx, const char *fs_path, const char *display_path, jf_lang lang,
                     jf_role role, const char *container_dir, int depth)
{
	jf_unit *u = jf_ctx_find(ctx, fs_path);
	if (u)
		return u;
	jf_source *src = jf_ctx_keep(ctx, jf_source_load(fs_path, display_path));
	TSTree *tree = NULL;
	switch (src->status) {
	case JF_SOURCE_OK:
		tree = parse(ctx->linter, lang, src, NULL, 0);
		break;
	case JF_SOURCE_BINARY:
		jf_diag_set_help(
			jf_ctx_report_at(ctx, "JF301", src, (jf_span){ 0, 0 },
			                 lang == JF_LANG_PYTHON
			                         ? "'%s' holds NUL bytes: Python refuses it as source code"
			                         : "'%s' holds NUL bytes: it is a binary file, not a shell script",
			                 display_path),
			"the job runs this file as a script: point the command at the source file");
		return NULL;
	case JF_SOURCE_TOO_LARGE:
		jf_ctx_report_at(ctx, "JF005", src, (jf_span){ 0, 0 },
		                 "'%s' is not linted: it is larger than %u MiB", display_path,
		                 JF_SOURCE_MAX_BYTES >> 20);
		return NULL;
	case JF_SOURCE_UNREADABLE:
		jf_ctx_report_at(ctx, "JF005", src, (jf_span){ 0, 0 }, "'%s' is not linted: %s",
		                 display_path, strerror(src->err));
		return NULL;
	default:
		return NULL;
	}
	if (!tree) {
		jf_ctx_report_at(ctx, "JF005", src, (jf_span){ 0, 0 },
		                 "'%s' is not linted: parsing took longer than %.0f seconds", display_path,
		                 JF_PARSE_BUDGET_SECONDS);
		return NULL;
	}
	u = add_unit(ctx, src, lang, role, tree);
	u->fs_path = jf_xstrdup(fs_path);
	u->container_dir = container_dir ? jf_xstrdup(container_dir) : NULL;
	u->depth = depth;
	jf_check_syntax(ctx, u);
	return u;
}

jf_unit *jf_ctx_add_embedded(jf_ctx *ctx, jf_source *src, const TSRange *ranges, uint32_t n,
                             jf_lang lang, jf_role role, const jf_source *origin_src,
                             jf_span origin)
{
	TSTree *tree = parse(ctx->linter, lang, src, ranges, n);
	if (!tree)
		return NULL;
	jf_unit *u = add_unit(ctx, src, lang, role, tree);
	u->origin_src = origin_src;
	u->origin = origin;
	jf_check_syntax(ctx, u);
	return u;
}

static void unit_free(jf_unit *u)
{
	ts_tree_delete(u->tree);
	free(u->fs_path);
	free(u->container_dir);
	free(u->import_root);
	jf_array_release(&u->imports);
	free(u);
}

/* Query rules */

static char *fill_template(const char *tmpl, const jf_match *m, const jf_unit *unit,
                           const char *capture, const char *value);

typedef struct {
	jf_ctx *ctx;
	const jf_rule *const *rule_of;
	const jf_unit *unit;
} match_env;

/* The message template with each {{capture}} replaced by its text (one line,
 * shortened), or by `value` for the capture named `capture`. */
char *jf_rule_message(const jf_rule *rule, const jf_match *m, const jf_unit *unit)
{
	return fill_template(rule->message, m, unit, NULL, NULL);
}

char *jf_rule_message_with(const jf_rule *rule, const jf_match *m, const jf_unit *unit,
                           const char *capture, const char *value)
{
	return fill_template(rule->message, m, unit, capture, value);
}

/* Strips the prefix letters and quotes of a string literal in place. */
static void unquote(char *text, const char *type)
{
	if (strcmp(type, "string") && strcmp(type, "raw_string"))
		return;
	size_t p = strspn(text, "rRbBuUfF");
	size_t len = strlen(text + p), q = 0;
	if (len >= 6 && (!strncmp(text + p, "\"\"\"", 3) || !strncmp(text + p, "'''", 3)))
		q = 3;
	else if (len >= 2 && (text[p] == '"' || text[p] == '\''))
		q = 1;
	memmove(text, text + p + q, len - 2 * q);
	text[len - 2 * q] = '\0';
}

static char *fill_template(const char *tmpl, const jf_match *m, const jf_unit *unit,
                           const char *capture, const char *value)
{
	jf_buf b = JF_BUF_INIT;
	for (const char *p = tmpl; *p;) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open, "}}") : NULL;
		if (!open || !close) {
			jf_buf_adds(&b, p);
			break;
		}
		jf_buf_add(&b, p, (size_t)(open - p));
		char name[64];
		size_t n = (size_t)(close - open - 2);
		snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), open + 2);
		TSNode node = jf_match_get(m, name);
		bool given = capture && !strcmp(capture, name);
		if (given || !ts_node_is_null(node)) {
			char *text = given ? jf_xstrdup(value) : jf_node_text(unit, node);
			if (!given)
				unquote(text, ts_node_type(node));
			size_t len = strcspn(text, "\n");
			if (len > 60)
				len = 57;
			jf_buf_add(&b, text, len);
			if (len < strlen(text))
				jf_buf_adds(&b, "...");
			free(text);
		}
		p = close + 2;
	}
	return jf_buf_detach(&b, NULL);
}

static void on_match(void *data, const jf_match *m)
{
	match_env *env = data;
	const jf_rule *rule = env->rule_of[m->pattern];
	if (rule->job_only && !env->ctx->job)
		return;
	if (rule->hook) {
		rule->hook(env->ctx, rule, env->unit, m);
		return;
	}
	TSNode at = jf_match_get(m, "finding");
	if (ts_node_is_null(at))
		return;
	char *msg = fill_template(rule->message, m, env->unit, NULL, NULL);
	jf_ctx_report(env->ctx, rule->info.id, env->unit, jf_node_span(at), "%s", msg);
	free(msg);
}

static int run_unit_queries(jf_ctx *ctx, const jf_unit *unit, const bool *wanted);

/*
 * Runs the rule queries over every unit: per language one query of the rules
 * whose prefilter matches in at least one of the job's files, one pass per
 * file where some rule may match. Files of a clean job cost no compilation.
 */
static int run_queries(jf_ctx *ctx)
{
	size_t nrules = jf_rules_size(), nunits = ctx->units.size;
	const jf_config *cfg = ctx->linter->opts.config;
	bool *may = jf_xcalloc(nunits * nrules + 1, sizeof(bool));
	bool *wanted = jf_xcalloc(JF_LANG_COUNT * nrules + 1, sizeof(bool));
	for (size_t u = 0; u < nunits; u++) {
		const jf_unit *unit = ctx->units.items[u];
		/* Findings in an excluded file are dropped: spare the queries. */
		const char *fs = unit->origin_src ? unit->origin_src->fs_path : unit->src->fs_path;
		if (jf_config__excluded(cfg, fs))
			continue;
		for (size_t r = 0; r < nrules; r++) {
			const jf_rule *rule = jf_rules_at(r);
			bool m = rule->queries[unit->lang].path && (ctx->job || !rule->job_only) &&
			         jf_config__active(cfg, rule, fs) &&
			         jf_rule_may_match(rule, unit->src->data, unit->src->len);
			may[u * nrules + r] = m;
			wanted[unit->lang * nrules + r] |= m;
		}
	}
	int rc = 0;
	for (size_t u = 0; u < nunits && !rc; u++) {
		bool any = false;
		for (size_t r = 0; r < nrules; r++)
			any |= may[u * nrules + r];
		if (any)
			rc = run_unit_queries(ctx, ctx->units.items[u],
			                      wanted + ctx->units.items[u]->lang * nrules);
	}
	free(may);
	free(wanted);
	return rc;
}

/* Runs the query of the `wanted` rules of the unit's language over it. */
static int run_unit_queries(jf_ctx *ctx, const jf_unit *unit, const bool *wanted)
{
	const char *err;
	const jf_rule *const *rule_of;
	const jf_query *q = jf_rules_lang_query(unit->lang, wanted, &rule_of, &err);
	if (err)
		return set_error(ctx->linter, JF_EQUERY, "%s", err);
	if (!q)
		return 0;
	match_env env = { ctx, rule_of, unit };
	jf_query_run(q, ts_tree_root_node(unit->tree), unit->src->data, on_match, &env);
	return 0;
}

char *jf_match_text(const jf_unit *unit, const jf_match *m, const char *capture)
{
	TSNode n = jf_match_get(m, capture);
	return ts_node_is_null(n) ? NULL : jf_node_text(unit, n);
}

/* Linting */

static jf_lang lang_of_file(const char *path)
{
	if (jf_str_ends(path, ".py"))
		return JF_LANG_PYTHON;
	if (jf_str_ends(path, ".sh") || jf_str_ends(path, ".bash"))
		return JF_LANG_BASH;
	if (jf_str_ends(path, ".yaml") || jf_str_ends(path, ".yml"))
		return JF_LANG_YAML;
	FILE *f = fopen(path, "rb");
	char line[128] = "";
	if (f) {
		if (!fgets(line, sizeof line, f))
			line[0] = '\0';
		fclose(f);
	}
	if (jf_str_starts(line, "#!")) {
		if (strstr(line, "python"))
			return JF_LANG_PYTHON;
		if (strstr(line, "sh"))
			return JF_LANG_BASH;
	}
	return JF_LANG_NONE;
}

static int lint_path(jf_linter *self, const char *path)
{
	const char *err;
	if (jf_rules_init(&err))
		return set_error(self, JF_EQUERY, "%s", err);
	if (jf_path_is_dir(path))
		return set_error(self, JF_EIO, "cannot lint '%s': Is a directory", path);
	if (!jf_path_is_file(path)) {
		FILE *f = fopen(path, "rb");
		if (!f)
			return set_error(self, JF_EIO, "cannot read '%s': %s", path, strerror(errno));
		fclose(f);
	}
	if (jf_config__excluded(self->opts.config, path))
		return 0; /* the config excludes it: nothing to lint */
	jf_lang lang = lang_of_file(path);
	if (lang == JF_LANG_NONE)
		return set_error(self, JF_ENOTFOUND,
		                 "cannot tell what '%s' is: name job specs *.yaml, Python *.py and "
		                 "shell scripts *.sh",
		                 path);
	jf_ctx ctx = { 0 };
	ctx.linter = self;
	size_t first = self->report.diags.size, first_source = self->sources.size;
	int rc = 0;
	bool left_out = false; /* a job that reads no changed file (jf_linter_restrict) */
	if (lang == JF_LANG_YAML) {
		ctx.job = jf_job_load(&ctx, path, path);
		if (!ctx.job)
			rc = JF_EIO;
		else if (self->restricted && !may_read_changed(self, ctx.job))
			left_out = true;
		else
			jf_command_analyze(&ctx);
		left_out = left_out || (!rc && self->restricted && !read_changed(self, first_source));
	} else {
		if (!jf_ctx_load(&ctx, path, path, lang, JF_ROLE_FILE, NULL, 0) && !self->report.diags.size)
			rc = set_error(self, JF_EIO, "cannot read '%s'", path);
	}
	if (!rc && !left_out)
		rc = run_queries(&ctx);
	/* A check that serves several rules runs once. */
	JF_ARRAY(jf_check_fn) ran = { 0 };
	for (size_t i = 0; i < jf_rules_size() && !rc && !left_out; i++) {
		const jf_rule *r = jf_rules_at(i);
		bool done = false;
		for (size_t k = 0; k < ran.size; k++)
			done |= ran.items[k] == r->check;
		if (!r->check || done || (!ctx.job && r->job_only) ||
		    !jf_config__enabled(self->opts.config, r))
			continue;
		jf_array_push(&ran, r->check);
		r->check(&ctx, r);
	}
	jf_array_release(&ran);
	if (left_out)
		jf_report_filter(&self->report, first, keep_none, NULL);
	else
		jf_suppress_finish(&ctx, first);
	for (size_t i = 0; i < ctx.units.size; i++)
		unit_free(ctx.units.items[i]);
	jf_array_release(&ctx.units);
	jf_array_release(&ctx.pip_installs);
	for (size_t i = 0; i < ctx.invocations.size; i++) {
		jf_invocation *inv = &ctx.invocations.items[i];
		free(inv->script.value);
		free(inv->cwd);
		jf_words_release(&inv->launcher_args);
		jf_words_release(&inv->wrapper_args);
		jf_words_release(&inv->args);
		jf_words_release(&inv->env);
	}
	jf_array_release(&ctx.invocations);
	for (size_t i = 0; i < ctx.execs.size; i++) {
		free(ctx.execs.items[i].name.value);
		free(ctx.execs.items[i].arg);
	}
	jf_array_release(&ctx.execs);
	for (size_t i = 0; i < ctx.installed.size; i++)
		free(ctx.installed.items[i]);
	jf_array_release(&ctx.installed);
	for (size_t i = 0; i < ctx.produced.size; i++)
		free(ctx.produced.items[i]);
	jf_array_release(&ctx.produced);
	for (size_t i = 0; i < ctx.exported.size; i++)
		free(ctx.exported.items[i]);
	jf_array_release(&ctx.exported);
	for (size_t i = 0; i < ctx.var_uses.size; i++)
		free(ctx.var_uses.items[i].name);
	jf_array_release(&ctx.var_uses);
	jf_image_free(ctx.image);
	jf_job_free(ctx.job);
	if (left_out) {
		/* Nothing points into the files of a job left out: let them go. */
		for (size_t i = first_source; i < self->sources.size; i++)
			jf_source_free(self->sources.items[i]);
		self->sources.size = first_source;
		return 0;
	}
	for (size_t i = first_source; i < self->sources.size; i++) {
		jf_file_id id;
		if (file_id_of(self->sources.items[i]->fs_path, &id) && !ids_have(&self->read, id))
			jf_array_push(&self->read, id);
	}
	return rc;
}

int jf_linter_lint(jf_linter *self, const char *path)
{
	int rc = lint_path(self, path);
	if (rc < 0)
		jf_report_add_failure(&self->report, jf_linter_error(self));
	return rc;
}

size_t jf_linter_count(const jf_linter *self, jf_severity min)
{
	size_t n = 0;
	for (size_t i = 0; i < self->report.diags.size; i++)
		n += self->report.diags.items[i].severity >= min;
	return n;
}

int jf_linter_write(jf_linter *self, FILE *out, jf_format format, int color)
{
	jf_buf b = JF_BUF_INIT;
	jf_report_finish(&self->report);
	jf_report_render(&self->report, &b, format, color != 0);
	size_t n = fwrite(b.buf, 1, b.len, out);
	int rc = n == b.len ? 0 : JF_EIO;
	jf_buf_release(&b);
	return rc;
}

int jf_linter_write_statistics(jf_linter *self, FILE *out, jf_format format)
{
	jf_buf b = JF_BUF_INIT;
	jf_report_finish(&self->report);
	jf_report_render_statistics(&self->report, &b, format);
	size_t n = fwrite(b.buf, 1, b.len, out);
	int rc = n == b.len ? 0 : JF_EIO;
	jf_buf_release(&b);
	return rc;
}
