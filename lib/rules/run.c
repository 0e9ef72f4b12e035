/* run.c - running the rules over the facts of a lint: the queries of each file, then the C checks */
#include "rules/run.h"

#include "rules/config.h"

/* Query rules */

/* Strips the prefix letters and quotes of a string literal in place. */
static void unquote(char *text, jf_type type)
{
	if (type != JF_T_string && type != JF_T_raw_string)
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

/* The message template with each {{capture}} replaced by its text (one line,
 * shortened), or by `value` for the capture named `capture`. */
static char *fill_template(const char *tmpl, const jf_match *m, const jf_file *file,
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
			char *text = given ? jf_xstrdup(value) : jf_node_text(file, node);
			if (!given)
				unquote(text, jf_node_type(node));
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

char *jf_rule_message(const jf_rule *rule, const jf_match *m, const jf_file *file)
{
	return fill_template(rule->message, m, file, NULL, NULL);
}

char *jf_rule_message_with(const jf_rule *rule, const jf_match *m, const jf_file *file,
                           const char *capture, const char *value)
{
	return fill_template(rule->message, m, file, capture, value);
}

char *jf_match_text(const jf_file *file, const jf_match *m, const char *capture)
{
	TSNode n = jf_match_get(m, capture);
	return ts_node_is_null(n) ? NULL : jf_node_text(file, n);
}

typedef struct {
	jf_rule_ctx *ctx;
	const jf_rule *const *rule_of;
	const jf_file *file;
} match_env;

/* What the queries of a lint need besides the facts. */
typedef struct {
	const jf_config *cfg;
	const jf_rule_list *rules;
	jf_matcher *matcher;
} query_run;

static void on_match(void *data, const jf_match *m)
{
	match_env *env = data;
	const jf_rule *rule = env->rule_of[m->pattern];
	if (rule->job_only && !env->ctx->facts->job)
		return;
	if (rule->hook) {
		rule->hook(env->ctx, rule, env->file, m);
		return;
	}
	TSNode at = jf_match_get(m, "finding");
	if (ts_node_is_null(at))
		return;
	char *msg = fill_template(rule->message, m, env->file, NULL, NULL);
	jf_sink_add(env->ctx->out, rule->info.id, env->file->src, jf_node_span(at), "%s", msg);
	free(msg);
}

/* Hands the matches in `fm` of the rules `wanted` (by place in the list) to the rules. */
static void dispatch(jf_rule_ctx *ctx, const query_run *run, const jf_file_matches *fm,
                     const bool *wanted)
{
	uint32_t npatterns = jf_query_pattern_count(fm->query);
	bool *kept = jf_xcalloc(npatterns + 1, sizeof(bool));
	for (uint32_t p = 0; p < npatterns; p++)
		for (size_t r = 0; r < run->rules->items.size; r++)
			if (run->rules->items.items[r] == fm->rule_of[p])
				kept[p] = wanted[r];
	/* The captures as nodes of the file's tree, read again if it was released. */
	TSTree *tree = fm->captures.size ? jf_facts_tree(ctx->facts, fm->file) : NULL;
	jf_capture *captures = jf_xcalloc(fm->captures.size + 1, sizeof *captures);
	for (size_t i = 0; i < fm->captures.size; i++)
		captures[i] = (jf_capture){ fm->captures.items[i].name,
			                    jf_node_find(tree, fm->captures.items[i].node) };
	match_env env = { ctx, fm->rule_of, fm->file };
	for (size_t i = 0; i < fm->matches.size && (tree || !fm->captures.size); i++) {
		const struct jf_matched *m = &fm->matches.items[i];
		jf_match jm = { captures + m->first, m->count, m->pattern };
		if (kept[m->pattern])
			on_match(&env, &jm);
	}
	free(captures);
	free(kept);
}

/* The checks' parts that wait for the pass over the files. */
struct file_part {
	const jf_file_part *part;
	void *state;
};
struct jf_file_pass {
	JF_ARRAY(struct file_part) parts;
};

static void run_parts(const jf_facts *facts, const struct file_part *parts, size_t n)
{
	const jf_workspace *ws = facts->ws;
	/* The files whose trees some part reads, in order: those released are
	 * named ahead to be parsed again. */
	JF_ARRAY(const jf_file *) read = { 0 };
	bool *reads = jf_xcalloc(ws->files.size + 1, sizeof *reads);
	for (size_t i = 0; i < ws->files.size; i++) {
		for (size_t k = 0; k < n && !reads[i]; k++)
			reads[i] = parts[k].part->reads_tree &&
			           parts[k].part->reads_tree(parts[k].state, i, ws->files.items[i]);
		if (reads[i])
			jf_array_push(&read, ws->files.items[i]);
	}
	for (size_t i = 0, next = 0; n && i < ws->files.size; i++) {
		/* What a part keeps across files is text or spans (a part that reads
		 * records may still read another file's tree now and then). */
		jf_facts_settle(facts);
		if (reads[i])
			jf_facts_read_ahead(facts, read.items, next++, read.size);
		for (size_t k = 0; k < n; k++)
			parts[k].part->each(parts[k].state, i, ws->files.items[i]);
	}
	jf_facts_read_ahead(facts, read.items, read.size, read.size);
	jf_array_release(&read);
	free(reads);
	for (size_t k = 0; k < n; k++)
		parts[k].part->end(parts[k].state);
}

void jf_check_each_file(jf_rule_ctx *ctx, const jf_file_part *part, void *state)
{
	struct file_part p = { part, state };
	jf_array_push(&ctx->pass->parts, p);
}

/* The matches of each file, handed to the rules in the pass over the files. */
typedef struct {
	jf_rule_ctx *ctx;
	query_run run;
	const jf_file_matches **fm; /* by the file's place in the workspace */
	bool *wanted;               /* by language, then the rule's place in the list */
} dispatcher;

static void dispatch_file(void *state, size_t index, const jf_file *file)
{
	(void)file;
	dispatcher *d = state;
	const jf_file_matches *fm = d->fm[index];
	size_t nrules = d->run.rules->items.size;
	if (!fm || !fm->any)
		return;
	dispatch(d->ctx, &d->run, fm, d->wanted + fm->file->lang * nrules);
	if (fm->limited)
		jf_diag_set_help(
			jf_sink_add(d->ctx->out, JF005, fm->file->src, (jf_span){ 0, 0 },
			            "rule %s is not fully checked in '%s': a regular expression of "
			            "its query gave up at its limit of steps",
			            fm->limited->info.id, fm->file->src->path),
			"simplify the rule's regular expression (nested quantifiers such as (a+)+ "
			"backtrack without end on long strings)");
}

/* The matches' captures are found again in the file's tree. */
static bool dispatch_reads(const void *state, size_t index, const jf_file *file)
{
	(void)file;
	const dispatcher *d = state;
	return d->fm[index] && d->fm[index]->any && d->fm[index]->captures.size;
}

static void dispatch_end(void *state)
{
	dispatcher *d = state;
	free(d->fm);
	free(d->wanted);
	free(d);
}

/*
 * Hands the matches of the rule queries to the rules, file by file: in each
 * file where some rule may match, the matches of the rules that may match in
 * some file of the job (their prefilter finds something there), as one query
 * of those rules over every such file finds them. A query that failed to
 * compile fails the lint before any match is handed.
 */
static int run_queries(jf_rule_ctx *ctx, const query_run *run, jf_error *err)
{
	const jf_workspace *ws = ctx->facts->ws;
	size_t nrules = run->rules->items.size, nfiles = ws->files.size;
	dispatcher *d = jf_xcalloc(1, sizeof *d);
	*d = (dispatcher){ ctx, *run, jf_xcalloc(nfiles + 1, sizeof *d->fm),
		           jf_xcalloc(JF_LANG_COUNT * nrules + 1, sizeof(bool)) };
	for (size_t u = 0; u < nfiles; u++) {
		const jf_file *file = ws->files.items[u];
		d->fm[u] = jf_matcher_wait(run->matcher, file);
		if (!d->fm[u] && jf_facts_tree(ctx->facts, file)) {
			jf_matcher_add(run->matcher, file);
			d->fm[u] = jf_matcher_wait(run->matcher, file);
		}
		for (size_t r = 0; d->fm[u] && r < nrules; r++)
			d->wanted[file->lang * nrules + r] |= d->fm[u]->may[r];
	}
	for (size_t u = 0; u < nfiles; u++)
		if (d->fm[u] && d->fm[u]->any && d->fm[u]->error) {
			int rc = jf_error_set(err, d->fm[u]->error, "%s", d->fm[u]->message);
			dispatch_end(d);
			return rc;
		}
	static const jf_file_part part = { dispatch_reads, dispatch_file, dispatch_end };
	jf_check_each_file(ctx, &part, d);
	return 0;
}

void jf_check_say_job(jf_rule_ctx *ctx, const char *rule_id, unsigned facts)
{
	const jf_job *j = ctx->facts->job;
	for (size_t i = 0; j && i < j->notes.size; i++)
		if (j->notes.items[i].fact & facts)
			jf_sink_skip(ctx->out, rule_id, "%s", j->notes.items[i].text);
}

/*
 * What the stages that report rules of their own could not read, said for
 * those rules before the checks: which document of the job file is the job
 * (JF004), the file as YAML (JF001), a script whose #! line names another
 * shell (JF301).
 */
static void say_emitted(jf_rule_ctx *ctx)
{
	jf_check_say_job(ctx, JF004, JF_JOB_DOCUMENT);
	jf_check_say_job(ctx, JF001, JF_JOB_YAML);
	const jf_workspace *ws = ctx->facts->ws;
	for (size_t i = 0; i < ws->files.size; i++)
		if (ws->files.items[i]->syntax_unchecked)
			jf_sink_skip(ctx->out, JF301, "%s", ws->files.items[i]->syntax_unchecked);
}

/* A check's run: its own context, whose skips are kept apart until the pass
 * is over, so that they are listed check by check. */
typedef struct {
	jf_rule_ctx ctx;
	jf_sink sink;
	jf_strings skipped;
} check_run;

int jf_rules_run(const jf_facts *facts, const jf_records *records, const jf_config *cfg,
                 jf_matcher *matcher, jf_sink *out, jf_error *err)
{
	struct jf_file_pass pass = { 0 };
	jf_rule_ctx ctx = { facts, records, out, &pass };
	query_run run = { cfg, jf_config__rules(cfg), matcher };
	say_emitted(&ctx);
	int rc = run_queries(&ctx, &run, err);
	/* A check that serves several rules runs once. */
	JF_ARRAY(jf_check_fn) ran = { 0 };
	check_run *runs = jf_xcalloc(run.rules->items.size + 1, sizeof *runs);
	for (size_t i = 0; i < run.rules->items.size && !rc; i++) {
		const jf_rule *r = run.rules->items.items[i];
		bool done = false;
		for (size_t k = 0; k < ran.size; k++)
			done |= ran.items[k] == r->check;
		if (!r->check || done || !jf_config__runs(cfg, r, facts->job != NULL))
			continue;
		check_run *cr = &runs[ran.size];
		jf_array_push(&ran, r->check);
		cr->sink = *out;
		cr->sink.skipped = &cr->skipped;
		cr->ctx = (jf_rule_ctx){ facts, records, &cr->sink, &pass };
		r->check(&cr->ctx, r);
		jf_facts_settle(facts); /* no check keeps another's nodes */
	}
	run_parts(facts, pass.parts.items, pass.parts.size);
	for (size_t k = 0; k < ran.size; k++) {
		jf_sink_skips_move(out, &runs[k].skipped);
		jf_strings_release(&runs[k].skipped);
	}
	free(runs);
	jf_array_release(&pass.parts);
	jf_array_release(&ran);
	return rc;
}

bool jf_py_is_main_guard(const jf_file *file, TSNode if_stmt)
{
	char *cond = jf_node_text(file, jf_node_field(if_stmt, JF_F_condition));
	bool main = strstr(cond, "__name__") && strstr(cond, "__main__");
	free(cond);
	return main;
}

bool jf_py_try_catches(const jf_file *file, TSNode try_stmt, const char *const *names)
{
	for (uint32_t i = 0; i < ts_node_named_child_count(try_stmt); i++) {
		TSNode c = ts_node_named_child(try_stmt, i);
		if (!jf_node_type_is(c, JF_T_except_clause))
			continue;
		TSNode what = ts_node_named_child(c, 0);
		if (ts_node_is_null(what) || jf_node_type_is(what, JF_T_block))
			return true; /* a bare except */
		jf_iter it;
		bool found = false;
		for (TSNode n = jf_iter_start(&it, what); !ts_node_is_null(n) && !found;
		     n = jf_iter_next(&it, true))
			if (jf_node_type_is(n, JF_T_identifier)) {
				char *name = jf_node_text(file, n);
				found = jf_str_in(name, names);
				free(name);
			}
		jf_iter_release(&it);
		if (found)
			return true;
	}
	return false;
}
