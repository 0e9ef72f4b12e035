/* envvars.c - JF108, JF109: environment variables that nothing sets for the job
 *
 * A variable is set for the job when the spec's `env` sets it, the command or
 * a launch script exports it (or assigns it before a command), a launcher of
 * the job's invocations sets it (torchrun's LOCAL_RANK), the image sets it,
 * the platform sets it (data/platforms.yaml; with no `platform` in the spec,
 * only the generic container's variables and the platforms' own prefixes),
 * or the job's Python code sets it. A job that gets the environment it is
 * submitted from (a Slurm batch script without --export=NONE: the platform's
 * `submitter_environment`) may have any, as may one whose reader says its
 * platform sets variables the file does not name (env_open).
 *
 * JF108: `os.environ["X"]` (a KeyError) in the job's Python, outside a `try`
 * that catches KeyError and an `if` that tests the variable. JF109: `$X` in
 * the command or a launch script under `set -u` or leading a path (the facts
 * come from the shell, lib/shell/).
 */
#include "rules/checks.h"
#include "env/platforms.h"

typedef struct {
	jf_rule_ctx *ctx;
	const jf_image *img;
	/* What the job's Python files set (jf_py_names): os.environ["X"] = ...,
	 * setdefault("X"), putenv("X"); and whether one sets a name not known
	 * (os.environ.update(...), os.environ[name] = ...). */
	JF_ARRAY(const char *) written;
	bool writes_unknown;
	jf_pyfiles files;
} env_model;

static const char *const launcher_names[] = { "torchrun", "torch.distributed.launch", "deepspeed",
	                                      "accelerate", "horovodrun", "mpirun", NULL };

static bool set_by_job(const env_model *m, const char *var, bool python)
{
	const jf_rule_ctx *ctx = m->ctx;
	const jf_job *j = ctx->facts->job;
	if (jf_job_env(j, var) || jf_image_env(m->img, var))
		return true;
	if (jf_platform_sets(j->platform.value, var))
		return true;
	if (!python)
		return false;
	if (m->writes_unknown)
		return true;
	for (size_t i = 0; i < m->written.size; i++)
		if (!strcmp(m->written.items[i], var))
			return true;
	for (size_t i = 0; i < ctx->facts->shell.exported.size; i++)
		if (!strcmp(ctx->facts->shell.exported.items[i], var))
			return true;
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		const char *l = !strcmp(inv->launcher, "torch.distributed.run") ? "torchrun"
		                                                                : inv->launcher;
		if (jf_launcher_sets(l, var) || (inv->wrapper && jf_launcher_sets(inv->wrapper, var)))
			return true;
	}
	return false;
}

/* What a read guarded by `try` may fail with. */
static const char *const key_errors[] = { "KeyError", "LookupError", "Exception", "BaseException",
	                                  NULL };

/* Whether `stmt` is an `if` whose body may leave the block early:
 * `if "X" not in os.environ: return` (also raise, continue, break, exit()). */
static bool early_exit(const jf_file *unit, TSNode stmt)
{
	if (!jf_node_type_is(stmt, JF_T_if_statement))
		return false;
	TSNode body = jf_node_field(stmt, JF_F_consequence);
	for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
		TSNode s = ts_node_named_child(body, i);
		jf_type t = jf_node_type(s);
		if (t == JF_T_return_statement || t == JF_T_raise_statement ||
		    t == JF_T_continue_statement || t == JF_T_break_statement)
			return true;
		TSNode call = ts_node_named_child(s, 0);
		if (t == JF_T_expression_statement && jf_node_type_is(call, JF_T_call)) {
			TSNode fn = jf_node_field(call, JF_F_function);
			if (jf_node_is(unit, fn, "sys.exit") || jf_node_is(unit, fn, "exit") ||
			    jf_node_is(unit, fn, "os._exit") || jf_node_is(unit, fn, "quit"))
				return true;
		}
	}
	return false;
}

/* Whether the read at `n` runs only sometimes: in a try that catches
 * KeyError, under any condition (`if "X" in os.environ:`, and as well
 * `if args.dist_url == "env://":`, which the command line may make false),
 * but for `if __name__ == "__main__":`, or after an `if` of its block that
 * may leave it early. */
static bool guarded(const jf_file *unit, TSNode n)
{
	for (TSNode c = n, p = ts_node_parent(n); !ts_node_is_null(p); c = p, p = ts_node_parent(p)) {
		jf_type t = jf_node_type(p);
		if (t == JF_T_block || t == JF_T_module)
			for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
				TSNode s = ts_node_named_child(p, i);
				if (ts_node_start_byte(s) >= ts_node_start_byte(c))
					break;
				if (early_exit(unit, s))
					return true;
			}
		if (t == JF_T_try_statement && jf_py_try_catches(unit, p, key_errors))
			return true;
		if (t == JF_T_elif_clause || t == JF_T_else_clause ||
		    t == JF_T_while_statement || t == JF_T_conditional_expression ||
		    (t == JF_T_boolean_operator && !ts_node_eq(jf_node_field(p, JF_F_left), c)))
			return true;
		if (t == JF_T_if_statement && !ts_node_eq(jf_node_field(p, JF_F_condition), c) && !jf_py_is_main_guard(unit, p))
			return true;
	}
	return false;
}

/* Whether function `name` (around a read) is called, and only under a guard
 * (`if all(k in os.environ for k in ...): helper()`): every call of its name
 * in the job's Python files is guarded. Rare (a read nothing sets), so the
 * files that mention the name are read again; settled by the pass. */
static bool callers_guarded(const env_model *m, const char *name)
{
	if (!name)
		return false;
	size_t calls = 0, guarded_calls = 0;
	const jf_facts *facts = m->ctx->facts;
	for (size_t i = 0; i < facts->ws->files.size; i++) {
		const jf_file *u = facts->ws->files.items[i];
		if (!jf_python_mentions(u, name))
			continue;
		const jf_pyfacts *py = jf_facts_python(facts, u);
		if (!py)
			continue;
		for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size; k++) {
			const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
			TSNode fn = jf_node_type_is(pn->a, JF_T_attribute) ? jf_node_field(pn->a, JF_F_attribute)
			                                                : pn->a;
			if (!jf_node_is(u, fn, name))
				continue;
			calls++;
			guarded_calls += guarded(u, pn->node);
		}
	}
	return calls && calls == guarded_calls;
}

/* A read of os.environ["X"] that may raise, as the gather's recorder took it:
 * not an assignment or a deletion, not guarded in its own function. */
typedef struct {
	jf_span span;
	const char *var;
	jf_py_place place;    /* whether it runs when its module is imported */
	const char *function; /* the name of the function around it, or NULL */
	bool method;          /* that function is a method of a class */
} env_read;

typedef JF_ARRAY(env_read) env_record;

void *jf_envvars_record(const jf_record_ctx *ctx, const jf_pyfacts *py)
{
	jf_arena *arena = ctx->arena;
	const jf_file *unit = py->file;
	if (!jf_py_mentions_environ(unit))
		return NULL;
	size_t total = py->of_kind[JF_PY_ENVIRON_SUBSCRIPT].size;
	env_record *r = jf_arena_alloc(arena, sizeof *r);
	r->items = jf_arena_calloc(arena, total, sizeof *r->items);
	for (size_t k = 0; k < total; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ENVIRON_SUBSCRIPT, k);
		TSNode n = pn->node;
		char *var = jf_py_environ_subscript(unit, n);
		if (!var)
			continue;
		TSNode p = ts_node_parent(n);
		bool written = (jf_node_type_is(p, JF_T_assignment) ||
		                jf_node_type_is(p, JF_T_augmented_assignment)) &&
		               ts_node_eq(jf_node_field(p, JF_F_left), n);
		bool deleted = jf_node_type_is(p, JF_T_delete_statement);
		if (!written && !deleted && !guarded(unit, n)) {
			TSNode def = n;
			while (!ts_node_is_null(def) && !jf_node_type_is(def, JF_T_function_definition))
				def = ts_node_parent(def);
			/* a method: def < (decorated_definition <) block < class_definition */
			TSNode around = def;
			for (int up = 0; up < 3 && !ts_node_is_null(around) &&
			                 !jf_node_type_is(around, JF_T_class_definition);
			     up++)
				around = ts_node_parent(around);
			r->items[r->size++] = (env_read){
				jf_node_span(n), jf_arena_strdup(arena, var), jf_py_place_of(arena, py, pn),
				ts_node_is_null(def) ? NULL
				                     : jf_node_text_in(arena, unit, jf_node_field(def, JF_F_name)),
				!ts_node_is_null(def) && jf_node_type_is(around, JF_T_class_definition)
			};
		}
		free(var);
	}
	return r;
}

void jf_envvars_record_write(jf_buf *b, const void *record)
{
	const env_record *r = record;
	jf_wire_put_u32(b, (uint32_t)r->size);
	for (size_t i = 0; i < r->size; i++) {
		const env_read *e = &r->items[i];
		jf_wire_put_span(b, e->span);
		jf_wire_put_str(b, e->var);
		jf_wire_put_u8(b, e->place.main);
		jf_wire_put_str(b, e->place.outer);
		jf_wire_put_str(b, e->function);
		jf_wire_put_u8(b, e->method);
	}
}

void *jf_envvars_record_load(jf_wire *w, jf_arena *arena, const jf_file *file)
{
	env_record *r = jf_arena_alloc(arena, sizeof *r);
	r->items = jf_wire_get_items(w, arena, sizeof *r->items, 21, &r->size);
	r->cap = r->size;
	for (size_t i = 0; i < r->size; i++) {
		env_read *e = &r->items[i];
		e->span = jf_wire_get_span_in(w, file->src->len);
		e->var = jf_wire_get_str_in(w, arena);
		e->place.main = jf_wire_get_bool(w);
		e->place.outer = jf_wire_get_str_in(w, arena);
		e->function = jf_wire_get_str_in(w, arena);
		e->method = jf_wire_get_bool(w);
		if (!e->var)
			w->bad = true;
	}
	return r;
}

/* Whether the job's Python defines function or method `name` more than once:
 * a method of several classes, one of which the code picks at run time
 * (a backend of each kind): which one runs is not known. */
static bool defined_twice(const env_model *m, const char *name)
{
	int count = 0;
	for (size_t i = 0; i < m->files.ws->files.size && count < 2; i++) {
		const jf_py_names *names = jf_pyfiles_names(&m->files, m->files.ws->files.items[i]);
		for (size_t k = 0; names && k < names->defined.size && count < 2; k++)
			count += !strcmp(names->defined.items[k], name);
	}
	return count > 1;
}

/* JF108 in `unit` (its record `r`); `called` (jf_py_called_names) and `own`
 * (jf_py_own_calls) for an imported module, whose functions nothing calls do
 * not run, nor does its `__main__` block. */
static void check_reads(env_model *m, const jf_file *unit, const env_record *r,
                        const jf_strmap *called, const jf_strmap *own)
{
	for (size_t k = 0; k < r->size; k++) {
		const env_read *read = &r->items[k];
		const char *var = read->var;
		if ((called && !jf_py_place_runs(&read->place, called, own)) ||
		    set_by_job(m, var, true) || callers_guarded(m, read->function) ||
		    (read->method && defined_twice(m, read->function)))
			continue;
		jf_diag *d = jf_sink_add(m->ctx->out, JF108, unit->src, read->span,
		                           "os.environ['%s'] raises KeyError: nothing sets %s "
		                           "for this job",
		                           var, var);
		const jf_job *j = m->ctx->facts->job;
		if (j->env.size)
			jf_diag_relate(d, j->env.items[0].name.at.src, j->env.items[0].name.at.span,
			               "the job's env does not set %s", var);
		for (size_t l = 0; launcher_names[l]; l++)
			if (jf_launcher_sets(launcher_names[l], var)) {
				jf_diag_set_help(d, "start the script with %s (it sets %s), set it in "
				                    "the job's env, or read it with "
				                    "os.environ.get('%s', default)",
				                 launcher_names[l], var, var);
				break;
			}
	}
}

static void check_reads_in(void *state, size_t index, const jf_file *u)
{
	(void)index;
	env_model *m = state;
	bool module = u->role == JF_ROLE_MODULE;
	const env_record *r = jf_runs_python(u) ? jf_records_of(m->ctx->records, JF_RECORD_ENVVARS, u)
	                                        : NULL;
	if (r)
		check_reads(m, u, r, module ? m->files.called : NULL,
		            module ? jf_pyfiles_own(&m->files, u) : NULL);
}

/* JF109: the shell's uses, once each (a word may be expanded more than once). */
static void check_shell_end(void *state)
{
	env_model *m = state;
	jf_rule_ctx *ctx = m->ctx;
	for (size_t i = 0; i < ctx->facts->shell.var_uses.size; i++) {
		const jf_var_use *u = &ctx->facts->shell.var_uses.items[i];
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = ctx->facts->shell.var_uses.items[k].src == u->src &&
			       ctx->facts->shell.var_uses.items[k].span.start == u->span.start;
		if (seen || set_by_job(m, u->name, false))
			continue;
		jf_diag *d = jf_sink_add(ctx->out, JF109, u->src, u->span,
		                              u->nounset ? "$%s is not set for this job: under `set -u` "
		                                           "bash stops with '%s: unbound variable'"
		                                         : "$%s is not set for this job: the path it "
		                                           "starts begins at '/' instead",
		                              u->name, u->name);
		const jf_job *j = ctx->facts->job;
		if (j->env.size)
			jf_diag_relate(d, j->env.items[0].name.at.src, j->env.items[0].name.at.span,
			               "the job's env does not set %s", u->name);
	}
	jf_array_release(&m->written);
	free(m);
}

void jf_check_env_vars(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule;
	const jf_job *j = ctx->facts->job;
	if (!j)
		return;
	/* Variables the job gets that its file does not name: none is known to be unset. */
	const char *passed = jf_platform_submitter_environment(j->platform.value);
	bool submitted = j->submitter_env == JF_SUBMITTER_ENV_ALL ||
	                 (j->submitter_env == JF_SUBMITTER_ENV_DEFAULT && passed);
	jf_check_say_job(ctx, JF108, JF_JOB_ENV);
	if (submitted)
		jf_sink_skip(ctx->out, JF108, "%s: no variable is reported unset",
		             passed ? passed : "the job gets the environment it is submitted from");
	if (j->env_open || submitted)
		return;
	env_model *m = jf_xcalloc(1, sizeof *m);
	*m = (env_model){ ctx, ctx->facts->image, { 0 }, false, jf_facts_pyfiles(ctx->facts) };
	/* Every write, read as text with the file's names, before any read is judged. */
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_py_names *names = jf_pyfiles_names(&m->files, ctx->facts->ws->files.items[i]);
		for (size_t k = 0; names && k < names->env_written.size; k++)
			jf_array_push(&m->written, names->env_written.items[k]);
		m->writes_unknown |= names && names->env_writes_unknown;
	}
	static const jf_file_part part = { NULL, check_reads_in, check_shell_end };
	jf_check_each_file(ctx, &part, m);
}
