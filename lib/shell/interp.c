/* interp.c - walking the command and its launch scripts, statement by statement
 *
 * The walk tracks what a linter can know for sure: the working folder
 * (`cd`), variables with literal values (assignments, `export`,
 * `${X:-default}`, the job's env), positional parameters, if/else when the
 * condition is known, files the job produces itself, active virtual
 * environments. Whatever is not known stays unknown.
 */
#include <fnmatch.h>

#include "core/path.h"
#include "env/platforms.h"
#include "shell/internal.h"

static void walk(shell *sh, TSNode n);
static bool appends(TSNode n);

/* Variables */

var *jf_shell__find_var(shell *sh, const char *name)
{
	for (size_t i = sh->vars.size; i-- > 0;)
		if (!strcmp(sh->vars.items[i].name, name))
			return &sh->vars.items[i];
	return NULL;
}

/* Sets $name; the caller records where, when it knows. */
var *jf_shell__set_var(shell *sh, const char *name, const char *value, bool exported)
{
	var *v = jf_shell__find_var(sh, name);
	if (!v) {
		var nv = { .name = jf_xstrdup(name) };
		jf_array_push(&sh->vars, nv);
		v = jf_array_last(&sh->vars);
	}
	free(v->value);
	v->value = value ? jf_xstrdup(value) : NULL;
	v->exported |= exported;
	v->src = NULL;
	v->is_array = v->of_args = false;
	jf_words_release(&v->items);
	return v;
}

/* The value of $name: NULL when unknown. `*unset` tells an unset variable. */
const char *jf_shell__lookup(shell *sh, const char *name, bool *unset)
{
	*unset = false;
	if (name[0] >= '1' && name[0] <= '9' && strspn(name, "0123456789") == strlen(name)) {
		size_t n = (size_t)strtoul(name, NULL, 10) - 1; /* ${10}: the tenth */
		if (!sh->args_known)
			return NULL;
		*unset = n >= sh->args.size;
		return *unset ? NULL : sh->args.items[n].value;
	}
	var *v = jf_shell__find_var(sh, name);
	if (v)
		return v->value;
	const jf_job_var *e = jf_job_env(sh->job, name);
	if (e)
		return e->value.value;
	/* Not set by the job; the image or the platform may still set it. */
	*unset = true;
	return NULL;
}
static void add_name(jf_strings *to, char *name)
{
	if (jf_strings_have(to, name))
		free(name);
	else
		jf_array_push(to, name);
}

/* Whether the text of assignment `a`'s value reads $name (or ${name...}). */
static bool reads_itself(const shell *sh, TSNode a, const char *name)
{
	TSNode value = jf_node_field(a, JF_F_value);
	if (ts_node_is_null(value))
		return false;
	const char *t = sh->unit->src->data;
	size_t n = strlen(name);
	for (uint32_t i = ts_node_start_byte(value); i + n < ts_node_end_byte(value); i++) {
		if (t[i] != '$')
			continue;
		uint32_t k = i + 1 + (t[i + 1] == '{');
		if (!strncmp(t + k, name, n) && !jf_is_name_char(t[k + n]))
			return true;
	}
	return false;
}

/* The names the assignments of tree `n` set, into sh->own; those an
 * assignment of them also reads, into sh->inherits. */
static void gather_own(shell *sh, TSNode n)
{
	if (!sh->own)
		return;
	TSTreeCursor cur = ts_tree_cursor_new(n);
	for (bool more = true; more;) {
		TSNode c = ts_tree_cursor_current_node(&cur);
		bool assigns = jf_node_type_is(c, JF_T_variable_assignment);
		TSNode name = assigns ? jf_node_field(c, JF_F_name)
		              : jf_node_type_is(c, JF_T_for_statement) ? jf_node_field(c, JF_F_variable)
		                                                       : (TSNode){ 0 };
		if (jf_node_type_is(name, JF_T_variable_name)) {
			char *v = jf_node_text(sh->unit, name);
			if (assigns && (appends(c) || reads_itself(sh, c, v)))
				add_name(sh->inherits, jf_xstrdup(v));
			add_name(sh->own, v);
		}
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur)) {
				more = false;
				break;
			}
	}
	ts_tree_cursor_delete(&cur);
}

/*
 * Whether $name, which nothing the walk saw sets, is unset when the job
 * runs, so that bash expands it to "": a name the job's own shell texts
 * assign somewhere (a variable of the script's, which an image does not
 * set), that the job's file, its platform and its launchers do not set,
 * in a job that gets no variables its file does not name, where nothing
 * unseen (a sourced file, a function called from where the walk does not
 * follow, eval, read) may have set it.
 */
bool jf_shell__surely_unset(shell *sh, const char *name)
{
	static const char *const launchers[] = { "torchrun", "torch.distributed.launch", "deepspeed",
		                                 "accelerate", "horovodrun", "mpirun", NULL };
	/* Variables an environment commonly holds, whatever the job's texts do */
	static const char *const common[] = { "PATH", "PYTHONPATH", "PYTHONHOME", "LD_LIBRARY_PATH",
		                              "LIBRARY_PATH", "CPATH", "LD_PRELOAD", "HOME", "USER",
		                              "LOGNAME", "SHELL", "TMPDIR", "TERM", "LANG", "LANGUAGE",
		                              "TZ", "VIRTUAL_ENV", "MANPATH", "PKG_CONFIG_PATH", NULL };
	static const char *const prefixes[] = { "LC_", "CUDA", "NCCL_", "NVIDIA_", "CONDA", "HF_",
		                                "TRANSFORMERS_", "TORCH", "OMP_", "MKL_", "PIP_",
		                                "WANDB_", "XDG_", NULL };
	const jf_job *j = sh->job;
	for (size_t i = 0; prefixes[i]; i++)
		if (jf_str_starts(name, prefixes[i]))
			return false;
	if (sh->vars_uncertain || !sh->own || !jf_strings_have(sh->own, name) ||
	    jf_strings_have(sh->inherits, name) || jf_str_in(name, common) || j->env_open ||
	    j->submitter_env == JF_SUBMITTER_ENV_ALL || jf_job_env(j, name))
		return false;
	if (j->submitter_env == JF_SUBMITTER_ENV_DEFAULT &&
	    jf_platform_submitter_environment(j->platform.value))
		return false;
	for (size_t i = 0; i < j->subst.size; i++)
		if (!strcmp(j->subst.items[i].name.value, name))
			return false;
	if (jf_platform_sets(j->platform.value, name))
		return false;
	for (size_t i = 0; launchers[i]; i++)
		if (jf_launcher_sets(launchers[i], name))
			return false;
	return true;
}

/* Paths */

char *jf_shell__container_path(shell *sh, const char *p)
{
	if (p[0] == '/')
		return jf_path_normalize(p);
	if (!sh->cwd)
		return NULL;
	return jf_path_join(sh->cwd, p);
}

void jf_shell__produce(shell *sh, const char *p)
{
	char *c = p ? jf_shell__container_path(sh, p) : NULL;
	if (c) {
		jf_array_push(&sh->produced, c);
		jf_array_push(&sh->out->produced, jf_xstrdup(c));
	} else {
		sh->produced_unknown = sh->out->produced_unknown = true;
	}
}

/* A write at word `at` (value `p`): JF106 looks at those in input mounts. */
void jf_shell__write_at(shell *sh, const char *p, const word *at)
{
	char *c = p ? jf_shell__container_path(sh, p) : NULL;
	if (!c)
		return;
	jf_shell_write w = { { at->src, at->span, jf_xstrdup(p) }, c };
	jf_array_push(&sh->out->writes, w);
}

bool jf_shell__is_produced(const shell *sh, const char *cpath)
{
	if (sh->produced_unknown)
		return true;
	const char *base = strrchr(cpath, '/');
	base = base ? base + 1 : cpath;
	for (size_t i = 0; i < sh->produced.size; i++) {
		const char *p = sh->produced.items[i];
		const char *pb = strrchr(p, '/');
		if (jf_path_under(cpath, p) || !strcmp(pb ? pb + 1 : p, base))
			return true;
	}
	return false;
}
/* A shell running `unit`; a child shell gets its parent's job, workspace and facts. */
static void shell_init(shell *sh, const shell *parent, jf_file *unit, const char *cwd, int depth)
{
	memset(sh, 0, sizeof(*sh));
	sh->job = parent->job;
	sh->ws = parent->ws;
	sh->out = parent->out;
	sh->host = parent->host;
	sh->unit = unit;
	sh->cwd = cwd ? jf_xstrdup(cwd) : NULL;
	sh->start_cwd = cwd ? jf_xstrdup(cwd) : NULL;
	sh->own = parent->own;
	sh->inherits = parent->inherits;
	sh->depth = depth;
}

static void vars_release(var_list *vars)
{
	for (size_t i = 0; i < vars->size; i++) {
		free(vars->items[i].name);
		free(vars->items[i].value);
		jf_words_release(&vars->items[i].items);
	}
	jf_array_release(vars);
}

static var_list vars_copy(const var_list *vars)
{
	var_list c = { 0 };
	for (size_t i = 0; i < vars->size; i++) {
		var v = vars->items[i];
		v.name = jf_xstrdup(v.name);
		v.value = v.value ? jf_xstrdup(v.value) : NULL;
		v.items = (jf_words){ 0 };
		for (size_t k = 0; k < vars->items[i].items.size; k++) {
			jf_word w = vars->items[i].items.items[k];
			w.value = w.value ? jf_xstrdup(w.value) : NULL;
			jf_array_push(&v.items, w);
		}
		jf_array_push(&c, v);
	}
	return c;
}

static const var *vars_find(const var_list *vars, const char *name)
{
	for (size_t i = vars->size; i-- > 0;)
		if (!strcmp(vars->items[i].name, name))
			return &vars->items[i];
	return NULL;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether variable `a` and `b` (either NULL: unset) hold the same. */
static bool same_var(const var *a, const var *b)
{
	if (!a || !b)
		return a == b;
	if (a->is_array != b->is_array || a->of_args != b->of_args || !same_str(a->value, b->value) ||
	    a->items.size != b->items.size)
		return false;
	for (size_t i = 0; i < a->items.size; i++)
		if (!same_str(a->items.items[i].value, b->items.items[i].value))
			return false;
	return true;
}

static void shell_release(shell *sh)
{
	vars_release(&sh->vars);
	for (size_t i = 0; i < sh->fns.size; i++)
		free(sh->fns.items[i].name);
	jf_array_release(&sh->fns);
	for (size_t i = 0; i < sh->produced.size; i++)
		free(sh->produced.items[i]);
	jf_array_release(&sh->produced);
	jf_words_release(&sh->args);
	free(sh->cwd);
	free(sh->start_cwd);
}

/* The statements of file `u`, in this shell: bash reads and runs them one
 * by one, and stops at the one with a syntax error (JF301 reports it). */
static void walk_unit(shell *sh, jf_file *u)
{
	TSNode root = ts_tree_root_node(u->tree);
	if (!u->syntax_error) {
		walk(sh, root);
		return;
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
		TSNode c = ts_node_named_child(root, i);
		if (ts_node_end_byte(c) > u->syntax_error_at) {
			word at = jf_shell__place(sh, c);
			jf_shell__not_followed(sh, &at, "bash stops at the syntax error of line %u (JF301): "
			                                "the commands from here on do not run",
			                       jf_source_line_of(u->src, u->syntax_error_at) + 1);
			return;
		}
		walk(sh, c);
	}
}

/* Walks launch script `u` in this shell (`same_shell`: `source`, which
 * keeps the caller's parameters), else in a child shell that inherits the
 * exported state, with w[first..] as its positional parameters. */
void jf_shell__run_launch_script(shell *sh, jf_file *u, bool same_shell, const words *w, size_t first)
{
	if (same_shell) {
		jf_file *saved = sh->unit;
		sh->unit = u;
		gather_own(sh, ts_tree_root_node(u->tree));
		sh->depth++;
		walk_unit(sh, u);
		sh->depth--;
		sh->unit = saved;
		return;
	}
	shell child;
	shell_init(&child, sh, u, sh->cwd, sh->depth + 1);
	for (size_t i = 0; i < sh->vars.size; i++) {
		const var *v = &sh->vars.items[i];
		if (v->exported) {
			var *cv = jf_shell__set_var(&child, v->name, v->value, true);
			cv->src = v->src;
			cv->span = v->span;
		}
	}
	/* `X=1 bash run.sh`: the script sees X exported. */
	for (size_t i = 0; i < sh->env.size; i++) {
		const word *e = &sh->env.items[i];
		char *name = jf_xstrdup(e->value);
		char *eq = strchr(name, '=');
		if (eq)
			*eq = '\0';
		var *cv = jf_shell__set_var(&child, name, eq ? eq + 1 : NULL, true);
		cv->src = e->src;
		cv->span = e->span;
		free(name);
	}
	child.venv = sh->venv;
	child.vars_uncertain = sh->vars_uncertain;
	child.args_known = true;
	jf_shell__copy_words(&child.args, w, first, w->size);
	child.produced_unknown = sh->produced_unknown;
	for (size_t i = 0; i < sh->produced.size; i++)
		jf_array_push(&child.produced, jf_xstrdup(sh->produced.items[i]));
	gather_own(&child, ts_tree_root_node(u->tree));
	walk_unit(&child, u);
	/* What the child made stays on disk for the commands after it. */
	for (size_t i = sh->produced.size; i < child.produced.size; i++) {
		jf_array_push(&sh->produced, child.produced.items[i]);
		child.produced.items[i] = NULL;
	}
	sh->produced_unknown |= child.produced_unknown;
	shell_release(&child);
}
/* Assignments: `X=v`, `export X=v`, `declare -x X=v`, `local X=v`. */
/* Whether the assignment is `X+=...`. */
static bool appends(TSNode n)
{
	for (uint32_t i = 0; i < ts_node_child_count(n); i++)
		if (jf_node_type_is(ts_node_child(n, i), JF_T_plus_equals))
			return true;
	return false;
}

/* `X=(a b c)` and `X+=(d e)`: each element keeps its own place. */
static void array_assignment(shell *sh, const char *vname, TSNode value, bool append)
{
	var *v = jf_shell__find_var(sh, vname);
	if (!v || !v->is_array || !append) {
		v = jf_shell__set_var(sh, vname, NULL, false);
		v->is_array = true;
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(value); i++) {
		TSNode c = ts_node_named_child(value, i);
		if (!jf_node_type_is(c, JF_T_comment))
			jf_array_push(&v->items, jf_shell__make_word(sh, c));
	}
}

/*
 * PYTHONPATH=$PYTHONPATH:dir (or dir:$PYTHONPATH) where nothing the job says
 * sets PYTHONPATH: bash expands it empty, and what the image sets is added
 * by the facts (facts/facts.c). The value with it empty; NULL for another
 * variable, or when another part is not known.
 */
static char *pythonpath_value(shell *sh, const char *name, TSNode value)
{
	bool unset;
	if (strcmp(name, "PYTHONPATH") || sh->vars_uncertain || ts_node_is_null(value))
		return NULL;
	jf_shell__lookup(sh, name, &unset);
	if (!unset)
		return NULL;
	jf_shell__set_var(sh, name, "", false); /* the last of sh->vars, for the expansion */
	size_t at = sh->vars.size - 1;
	char *v = jf_shell__word_value(sh, value);
	var *tmp = &sh->vars.items[at];
	free(tmp->name);
	free(tmp->value);
	jf_words_release(&tmp->items);
	memmove(tmp, tmp + 1, (sh->vars.size - at - 1) * sizeof *tmp);
	sh->vars.size--;
	return v;
}

static void assignment(shell *sh, TSNode n, bool exported)
{
	TSNode name = jf_node_field(n, JF_F_name);
	TSNode value = jf_node_field(n, JF_F_value);
	if (ts_node_is_null(name) || !jf_node_type_is(name, JF_T_variable_name))
		return;
	char *vname = jf_node_text(sh->unit, name);
	bool append = appends(n);
	if (jf_node_type_is(value, JF_T_array)) {
		array_assignment(sh, vname, value, append);
		free(vname);
		return;
	}
	char *v = ts_node_is_null(value) ? jf_xstrdup("") : jf_shell__word_value(sh, value);
	if (!v && !append)
		v = pythonpath_value(sh, vname, value);
	if (append && v) { /* X+=" --amp": the old value and the new */
		bool unset;
		const char *old = jf_shell__lookup(sh, vname, &unset);
		char *joined = old || unset ? jf_xasprintf("%s%s", old ? old : "", v) : NULL;
		free(v);
		v = joined;
	}
	var *sv = jf_shell__set_var(sh, vname, v, exported);
	word at = jf_shell__place(sh, ts_node_is_null(value) ? n : value);
	sv->src = at.src;
	sv->span = at.span;
	size_t from = 0, len = SIZE_MAX;
	if (v && !append && !ts_node_is_null(value) &&
	    (jf_shell__all_args(sh, value) || jf_shell__args_slice(sh, value, &from, &len))) {
		sv->of_args = true;
		for (size_t i = from, k = 0; i < sh->args.size && k < len; i++, k++)
			jf_array_push(&sv->items, jf_shell__copy_word(&sh->args.items[i]));
	}
	free(vname);
	free(v);
}

/* A prefix assignment `X=v cmd` as the word "X=v" at its value; just "X"
 * when the value is not known. False for an array element. */
static bool prefix_assignment(shell *sh, TSNode n, word *out)
{
	TSNode name = jf_node_field(n, JF_F_name);
	TSNode value = jf_node_field(n, JF_F_value);
	if (!jf_node_type_is(name, JF_T_variable_name))
		return false;
	*out = jf_shell__place(sh, ts_node_is_null(value) ? n : value);
	char *vname = jf_node_text(sh->unit, name);
	char *v = ts_node_is_null(value) ? jf_xstrdup("") : jf_shell__word_value(sh, value);
	if (!v)
		v = pythonpath_value(sh, vname, value);
	out->value = v ? jf_xasprintf("%s=%s", vname, v) : jf_xstrdup(vname);
	free(vname);
	free(v);
	return true;
}

/* `local X` (also `declare` and `typeset`) in a function being walked: X's
 * value before, given back when the function returns. */
static void hide_for_call(shell *sh, TSNode name_or_assignment)
{
	TSNode name = jf_node_type_is(name_or_assignment, JF_T_variable_assignment)
	                      ? jf_node_field(name_or_assignment, JF_F_name)
	                      : name_or_assignment;
	if (!sh->frame || !jf_node_type_is(name, JF_T_variable_name))
		return;
	char *vname = jf_node_text(sh->unit, name);
	fn_frame *f = sh->frame;
	bool hidden = jf_strings_have(&f->unset, vname) || vars_find(&f->saved, vname);
	const var *v = hidden ? NULL : jf_shell__find_var(sh, vname);
	if (!hidden && v) {
		var_list one = { 0 };
		jf_array_push(&one, *v);
		var_list c = vars_copy(&one);
		jf_array_push(&f->saved, c.items[0]);
		jf_array_release(&c);
		jf_array_release(&one);
	} else if (!hidden) {
		jf_array_push(&f->unset, jf_xstrdup(vname));
	}
	free(vname);
}

static void declaration(shell *sh, TSNode n)
{
	char *kw = jf_node_text(sh->unit, ts_node_child(n, 0));
	bool exported = jf_str_starts(kw, "export");
	bool local = !strcmp(kw, "local") || !strcmp(kw, "declare") || !strcmp(kw, "typeset");
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		jf_type t = jf_node_type(c);
		if (local && (t == JF_T_variable_assignment || t == JF_T_variable_name))
			hide_for_call(sh, c);
		if (t == JF_T_variable_assignment) {
			assignment(sh, c, exported);
		} else if (t == JF_T_variable_name && local && sh->frame) {
			char *vname = jf_node_text(sh->unit, c);
			jf_shell__set_var(sh, vname, "", exported); /* `local X`: empty in the call */
			free(vname);
		} else if (t == JF_T_variable_name && exported) {
			char *vname = jf_node_text(sh->unit, c);
			var *v = jf_shell__find_var(sh, vname);
			if (v)
				v->exported = true;
			free(vname);
		} else if (jf_node_is(sh->unit, c, "-x")) {
			exported = true;
		}
	}
	free(kw);
}

/*
 * Words that one argument node becomes: "${A[@]}" (and ${A[@]}, ${A[*]}) the
 * elements of array A; an unquoted $X or ${X} split at blanks as bash does
 * (none at all when X is empty). Returns false for any other node.
 */
static bool splice_expansion(shell *sh, TSNode c, words *out)
{
	TSNode e = c;
	bool quoted = jf_node_type_is(c, JF_T_string) && ts_node_named_child_count(c) == 1;
	if (quoted)
		e = ts_node_named_child(c, 0);
	TSNode sub = ts_node_named_child(e, 0);
	if (jf_node_type_is(e, JF_T_expansion) && jf_node_type_is(sub, JF_T_subscript) &&
	    ts_node_named_child_count(e) == 1) {
		TSNode name = jf_node_field(sub, JF_F_name), index = jf_node_field(sub, JF_F_index);
		if (!jf_node_is(sh->unit, index, "@") && !jf_node_is(sh->unit, index, "*"))
			return false;
		char *vname = jf_node_text(sh->unit, name);
		var *v = jf_shell__find_var(sh, vname);
		free(vname);
		if (v && v->is_array) {
			jf_shell__copy_words(out, &v->items, 0, v->items.size);
		} else {
			word unknown = jf_shell__place(sh, c);
			jf_array_push(out, unknown);
		}
		return true;
	}
	if (quoted || (!jf_node_type_is(c, JF_T_simple_expansion) && !jf_node_type_is(c, JF_T_expansion)))
		return false;
	/* $X of X=${@:5}: the caller's words, each split at blanks where it stands */
	TSNode vn = ts_node_named_child(c, 0);
	if (jf_node_type_is(vn, JF_T_variable_name) && ts_node_named_child_count(c) == 1) {
		char *vname = jf_node_text(sh->unit, vn);
		const var *v = jf_shell__find_var(sh, vname);
		free(vname);
		if (v && v->of_args && v->value) {
			for (size_t i = 0; i < v->items.size; i++) {
				const char *p = v->items.items[i].value;
				while (*p) {
					p += strspn(p, " \t\n");
					size_t n = strcspn(p, " \t\n");
					if (!n)
						break;
					word part = v->items.items[i];
					part.value = jf_xstrndup(p, n);
					jf_array_push(out, part);
					p += n;
				}
			}
			return true;
		}
	}
	char *value = jf_shell__word_value(sh, c);
	if (!value)
		return false; /* one unknown word (it may stand for several) */
	for (char *p = value; *p;) {
		size_t blank = strspn(p, " \t\n");
		p += blank;
		size_t n = strcspn(p, " \t\n");
		if (!n)
			break;
		word part = jf_shell__place(sh, c);
		part.value = jf_xstrndup(p, n);
		jf_array_push(out, part);
		p += n;
	}
	free(value);
	return true;
}


/* The function `name` the script defined last, or NULL. */
static const shell_fn *find_fn(const shell *sh, const char *name)
{
	for (size_t i = sh->fns.size; name && i-- > 0;)
		if (!strcmp(sh->fns.items[i].name, name))
			return &sh->fns.items[i];
	return NULL;
}

static void remove_var(shell *sh, const char *name)
{
	for (size_t i = sh->vars.size; i-- > 0;)
		if (!strcmp(sh->vars.items[i].name, name)) {
			var *v = &sh->vars.items[i];
			free(v->name);
			free(v->value);
			jf_words_release(&v->items);
			memmove(v, v + 1, (sh->vars.size - i - 1) * sizeof *v);
			sh->vars.size--;
		}
}

/* A call of function `fn` with w[1..] as its positional parameters: its body
 * runs in this shell, and its `local` variables are given back after it. */
static void call_fn(shell *sh, const shell_fn *fn, const words *w)
{
	if (sh->depth >= MAX_SCRIPT_DEPTH) {
		jf_shell__not_followed(sh, &w->items[0], "function '%s' is not followed: functions and "
		                                         "launch scripts call one another deeper than "
		                                         "%d levels",
		                       fn->name, MAX_SCRIPT_DEPTH);
		return;
	}
	jf_words args = sh->args;
	bool args_known = sh->args_known;
	jf_file *unit = sh->unit;
	fn_frame frame = { { 0 }, { 0 } }, *outer = sh->frame;
	sh->args = (jf_words){ 0 };
	jf_shell__copy_words(&sh->args, w, 1, w->size);
	sh->args_known = true;
	sh->frame = &frame;
	sh->unit = fn->unit;
	sh->depth++;
	walk(sh, fn->body);
	sh->depth--;
	sh->unit = unit;
	sh->frame = outer;
	jf_words_release(&sh->args);
	sh->args = args;
	sh->args_known = args_known;
	for (size_t i = 0; i < frame.unset.size; i++)
		remove_var(sh, frame.unset.items[i]);
	for (size_t i = 0; i < frame.saved.size; i++) {
		const var *o = &frame.saved.items[i];
		var *v = jf_shell__set_var(sh, o->name, o->value, o->exported);
		v->exported = o->exported;
		v->src = o->src;
		v->span = o->span;
		v->is_array = o->is_array;
		v->of_args = o->of_args;
		jf_shell__copy_words(&v->items, &o->items, 0, o->items.size);
	}
	jf_strings_release(&frame.unset);
	vars_release(&frame.saved);
}

/* `name() { ...; }`, `function name { ...; }`: kept for its calls. */
static void define_fn(shell *sh, TSNode n)
{
	TSNode name = jf_node_field(n, JF_F_name), body = jf_node_field(n, JF_F_body);
	if (ts_node_is_null(name) || ts_node_is_null(body))
		return;
	shell_fn f = { jf_node_text(sh->unit, name), sh->unit, body };
	jf_array_push(&sh->fns, f);
}

static void command(shell *sh, TSNode n)
{
	words w = { 0 }, env = { 0 };
	uint32_t count = ts_node_named_child_count(n);
	bool only_assignments = true;
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		jf_type t = jf_node_type(c);
		word e;
		if (t == JF_T_variable_assignment && prefix_assignment(sh, c, &e))
			jf_array_push(&env, e);
		if (t == JF_T_variable_assignment || t == JF_T_file_redirect ||
		    t == JF_T_herestring_redirect)
			continue;
		if (t == JF_T_command_name)
			c = ts_node_named_child(c, 0);
		only_assignments = false;
		if (jf_shell__all_args(sh, c)) {
			/* "$@": the caller's words, each where the caller wrote it. */
			if (sh->args_known) {
				jf_shell__copy_words(&w, &sh->args, 0, sh->args.size);
			} else {
				word unknown = jf_shell__make_word(sh, c);
				free(unknown.value);
				unknown.value = NULL;
				jf_array_push(&w, unknown);
			}
			continue;
		}
		size_t from, len;
		if (sh->args_known && jf_shell__args_slice(sh, c, &from, &len)) {
			/* "${@:3}": the caller's words from the third on */
			size_t end = from < sh->args.size ? sh->args.size : from;
			if (len < end - from)
				end = from + len;
			if (from < end)
				jf_shell__copy_words(&w, &sh->args, from, end);
			continue;
		}
		if (splice_expansion(sh, c, &w))
			continue;
		jf_array_push(&w, jf_shell__make_word(sh, c));
	}
	/* Prefix assignments (`X=1 cmd`) apply to the command only. */
	words outer = sh->env;
	sh->env = env;
	const shell_fn *fn = w.size ? find_fn(sh, w.items[0].value) : NULL;
	if (fn)
		call_fn(sh, fn, &w);
	else if (!only_assignments && w.size)
		jf_shell__run_words(sh, &w, 0, n, NULL);
	jf_words_release(&sh->env);
	sh->env = outer;
	jf_words_release(&w);
}

static void redirect(shell *sh, TSNode n)
{
	TSNode dest = jf_node_field(n, JF_F_destination);
	if (ts_node_is_null(dest))
		return;
	char *op = jf_node_text(sh->unit, ts_node_child(n, 0));
	bool writes = strchr(op, '>') != NULL;
	free(op);
	if (!writes)
		return;
	char *v = jf_shell__word_value(sh, dest);
	jf_shell__produce(sh, v);
	if (v) {
		word at = jf_shell__place(sh, dest);
		jf_shell__write_at(sh, v, &at);
	}
	free(v);
}
/* A whole number, or false. */
static bool number_of(const char *s, long *n)
{
	char *end;
	*n = strtol(s, &end, 10);
	return *s && !*end;
}

/* The right side of `[[ A == pattern ]]` as an fnmatch() pattern: globs as
 * written, quoted parts escaped; NULL when a part is not known. */
static char *condition_pattern(shell *sh, TSNode e, TSNode left)
{
	jf_buf b = JF_BUF_INIT;
	for (uint32_t i = 0; i < ts_node_named_child_count(e); i++) {
		TSNode c = ts_node_named_child(e, i);
		if (ts_node_eq(c, left) || jf_node_type_is(c, JF_T_test_operator))
			continue;
		char *v = jf_node_type_is(c, JF_T_extglob_pattern) ? jf_node_text(sh->unit, c)
		                                                : jf_shell__word_value(sh, c);
		if (!v) {
			jf_buf_release(&b);
			return NULL;
		}
		bool quoted = jf_node_type_is(c, JF_T_string) || jf_node_type_is(c, JF_T_raw_string);
		for (const char *p = v; *p; p++) {
			if (quoted && strchr("*?[]\\", *p))
				jf_buf_addc(&b, '\\');
			jf_buf_addc(&b, *p);
		}
		free(v);
	}
	return jf_buf_detach(&b, NULL);
}

/*
 * The value of an `if` condition when its words are known: `[ A = B ]`,
 * `[[ A == B ]]` (no pattern), `!=`, `-eq`, `-ne`, `-lt`, `-le`, `-gt`,
 * `-ge`, `-z`, `-n`. 1 true, 0 false, -1 not known before run time.
 */
static int eval_condition(shell *sh, TSNode cond)
{
	/* `A || B`, `A && B`: three-valued, as far as each side is known */
	if (jf_node_type_is(cond, JF_T_list) && ts_node_named_child_count(cond) == 2 &&
	    ts_node_child_count(cond) == 3) {
		int a = eval_condition(sh, ts_node_named_child(cond, 0));
		int b = eval_condition(sh, ts_node_named_child(cond, 1));
		bool or = jf_node_type_is(ts_node_child(cond, 1), JF_T_or_or);
		if (or)
			return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
		return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
	}
	if (!jf_node_type_is(cond, JF_T_test_command) || ts_node_named_child_count(cond) != 1)
		return -1;
	TSNode e = ts_node_named_child(cond, 0);
	TSNode op_node = jf_node_field(e, JF_F_operator);
	if (ts_node_is_null(op_node))
		return -1;
	char *op = jf_node_text(sh->unit, op_node);
	int r = -1;
	if (jf_node_type_is(e, JF_T_unary_expression) && ts_node_named_child_count(e) == 2 &&
	    (!strcmp(op, "-z") || !strcmp(op, "-n"))) {
		char *v = jf_shell__word_value(sh, ts_node_named_child(e, 1));
		if (v)
			r = !*v == !strcmp(op, "-z");
		free(v);
	} else if (jf_node_type_is(e, JF_T_binary_expression)) {
		TSNode left = jf_node_field(e, JF_F_left), right = jf_node_field(e, JF_F_right);
		uint32_t parts = ts_node_named_child_count(e) - ts_node_is_named(op_node);
		char *l = jf_shell__word_value(sh, left);
		char *rv = parts == 2 ? jf_shell__word_value(sh, right) : NULL;
		long a, b;
		bool pattern = rv && strpbrk(rv, "*?[") && !jf_node_type_is(right, JF_T_string);
		if (l && parts > 2 && (!strcmp(op, "==") || !strcmp(op, "!="))) {
			/* [[ $mode == *"train"* ]]: a glob, its quoted parts literal */
			char *glob = condition_pattern(sh, e, left);
			if (glob)
				r = !fnmatch(glob, l, 0) == !strcmp(op, "==");
			free(glob);
		} else if (l && rv && !pattern) {
			if (!strcmp(op, "=") || !strcmp(op, "=="))
				r = !strcmp(l, rv);
			else if (!strcmp(op, "!="))
				r = strcmp(l, rv) != 0;
			else if (number_of(l, &a) && number_of(rv, &b))
				r = !strcmp(op, "-eq")   ? a == b
				    : !strcmp(op, "-ne") ? a != b
				    : !strcmp(op, "-lt") ? a < b
				    : !strcmp(op, "-le") ? a <= b
				    : !strcmp(op, "-gt") ? a > b
				    : !strcmp(op, "-ge") ? a >= b
				                         : -1;
		}
		free(l);
		free(rv);
	}
	free(op);
	return r;
}

typedef JF_ARRAY(var_list) outcome_list;

/* After branches of which one ran, each leaving `outcomes[i]` and working
 * folder `cwds[i]`: the shell's state is the first outcome, less what the
 * others disagree with (unknown). Takes both lists. */
static void merge_outcomes(shell *sh, outcome_list *o_list, jf_strings *c_list)
{
	vars_release(&sh->vars);
	free(sh->cwd);
	sh->vars = o_list->items[0];
	for (size_t o = 1; o < o_list->size; o++)
		for (size_t i = 0; i < o_list->items[o].size; i++) {
			const var *v = &o_list->items[o].items[i];
			if (!same_var(vars_find(&sh->vars, v->name), v)) {
				var *m = jf_shell__set_var(sh, v->name, NULL, v->exported);
				m->src = NULL;
			}
		}
	for (size_t i = 0; i < sh->vars.size; i++)
		for (size_t o = 1; o < o_list->size; o++)
			if (!vars_find(&o_list->items[o], sh->vars.items[i].name)) {
				var *m = &sh->vars.items[i];
				free(m->value);
				m->value = NULL; /* set in some outcomes only */
				m->is_array = m->of_args = false;
				jf_words_release(&m->items);
			}
	sh->cwd = c_list->items[0];
	for (size_t o = 1; o < c_list->size; o++) {
		if (!same_str(sh->cwd, c_list->items[o])) {
			free(sh->cwd);
			sh->cwd = NULL;
		}
		free(c_list->items[o]);
	}
	for (size_t o = 1; o < o_list->size; o++)
		vars_release(&o_list->items[o]);
	jf_array_release(o_list);
	jf_array_release(c_list);
}

/*
 * if / elif / else: only one branch runs. Each is walked from the state
 * before it; afterwards a variable (or the folder) that the outcomes do not
 * agree on is unknown, so nothing is built on one branch's value.
 */
static void walk_if(shell *sh, TSNode n)
{
	JF_ARRAY(TSNode) branches = { 0 }; /* a node per branch; the `then` part is n itself */
	bool has_else = false;
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		const char *field = ts_node_field_name_for_named_child(n, i);
		if (field && !strcmp(field, "condition"))
			walk(sh, c); /* conditions run before any branch */
		else if (jf_node_type_is(c, JF_T_elif_clause) || jf_node_type_is(c, JF_T_else_clause))
			jf_array_push(&branches, c);
		has_else |= jf_node_type_is(c, JF_T_else_clause);
	}
	var_list base = vars_copy(&sh->vars);
	char *base_cwd = sh->cwd ? jf_xstrdup(sh->cwd) : NULL;
	outcome_list outcomes = { 0 };
	jf_strings cwds = { 0 };
	bool taken = false; /* a branch whose condition is known true: none after it runs */
	for (size_t b = 0; b <= branches.size && !taken; b++) {
		TSNode owner = b ? branches.items[b - 1] : n;
		int known = jf_node_type_is(owner, JF_T_else_clause)
		                    ? 1
		                    : eval_condition(sh, jf_node_field(owner, JF_F_condition));
		if (!known)
			continue; /* known false: it does not run */
		taken = known == 1;
		vars_release(&sh->vars);
		sh->vars = vars_copy(&base);
		free(sh->cwd);
		sh->cwd = base_cwd ? jf_xstrdup(base_cwd) : NULL;
		/* b == 0: the `then` part, the statements of n that are no condition or clause */
		TSNode part = b ? branches.items[b - 1] : n;
		for (uint32_t i = 0; i < ts_node_named_child_count(part); i++) {
			TSNode c = ts_node_named_child(part, i);
			const char *field = ts_node_field_name_for_named_child(part, i);
			if (field && !strcmp(field, "condition")) {
				if (b) /* an elif's own condition */
					walk(sh, c);
				continue;
			}
			if (!b && (jf_node_type_is(c, JF_T_elif_clause) || jf_node_type_is(c, JF_T_else_clause)))
				continue;
			walk(sh, c);
		}
		jf_array_push(&outcomes, sh->vars);
		sh->vars = (var_list){ 0 };
		jf_array_push(&cwds, sh->cwd);
		sh->cwd = NULL;
	}
	if (!has_else && !taken) { /* no branch may run at all */
		jf_array_push(&outcomes, vars_copy(&base));
		jf_array_push(&cwds, base_cwd ? jf_xstrdup(base_cwd) : NULL);
	}
	merge_outcomes(sh, &outcomes, &cwds);
	jf_array_release(&branches);
	vars_release(&base);
	free(base_cwd);
}

/*
 * `[ -n "$X" ] && ARGS+=(--x "$X")`, `[[ ... ]] || cmd`: the right side runs
 * as the test decides, like an `if` with no else. Returns false when `n` is
 * no such list (any other `&&`/`||` runs both sides, as the walk does).
 */
static bool walk_guard(shell *sh, TSNode n)
{
	if (ts_node_named_child_count(n) != 2 || ts_node_child_count(n) != 3)
		return false;
	TSNode test = ts_node_named_child(n, 0), then = ts_node_named_child(n, 1);
	int known = eval_condition(sh, test);
	if (!jf_node_type_is(test, JF_T_test_command) && known < 0)
		return false;
	bool or = jf_node_type_is(ts_node_child(n, 1), JF_T_or_or);
	walk(sh, test);
	if (known >= 0) {
		if (known == !or)
			walk(sh, then);
		return true;
	}
	outcome_list outcomes = { 0 };
	jf_strings cwds = { 0 };
	jf_array_push(&outcomes, vars_copy(&sh->vars));
	jf_array_push(&cwds, sh->cwd ? jf_xstrdup(sh->cwd) : NULL);
	walk(sh, then);
	jf_array_push(&outcomes, sh->vars);
	sh->vars = (var_list){ 0 };
	jf_array_push(&cwds, sh->cwd);
	sh->cwd = NULL;
	merge_outcomes(sh, &outcomes, &cwds);
	return true;
}

/* Whether the job's budget of steps is spent; the first time, a JF005 note at `n`. */
static bool out_of_steps(shell *sh, TSNode n)
{
	if (sh->out->steps++ < JF_SHELL_MAX_STEPS)
		return false;
	if (sh->out->steps == JF_SHELL_MAX_STEPS + 1 && sh->unit) {
		uint32_t at = ts_node_start_byte(n);
		jf_diag_set_help(
			jf_sink_add(sh->ws->sink, JF005, sh->unit->src, (jf_span){ at, at },
			            "the command is followed no further than here: its launch scripts "
			            "take more than %u steps (a script sourced again and again?)",
			            JF_SHELL_MAX_STEPS),
			"source a script once, from the top; the checks after this point did not run");
	}
	return true;
}

static void walk(shell *sh, TSNode n)
{
	if (out_of_steps(sh, n))
		return;
	jf_type t = jf_node_type(n);
	if (t == JF_T_command) {
		for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
			TSNode c = ts_node_named_child(n, i);
			if (jf_node_type_is(c, JF_T_file_redirect))
				redirect(sh, c);
		}
		command(sh, n);
		return;
	}
	if (t == JF_T_variable_assignment) {
		assignment(sh, n, false);
		return;
	}
	if (t == JF_T_declaration_command) {
		declaration(sh, n);
		return;
	}
	if (t == JF_T_file_redirect) {
		redirect(sh, n);
		return;
	}
	if (t == JF_T_function_definition) {
		/* Its calls that the walk meets run its body; another (a trap, a
		 * name known at run time) may set any variable. */
		sh->vars_uncertain = true;
		define_fn(sh, n);
		return;
	}
	if (t == JF_T_if_statement) {
		walk_if(sh, n);
		return;
	}
	if (t == JF_T_list && walk_guard(sh, n))
		return;
	if (t == JF_T_heredoc_body || t == JF_T_command_substitution ||
	    t == JF_T_process_substitution)
		return;
	if (t == JF_T_for_statement || t == JF_T_c_style_for_statement) {
		TSNode v = jf_node_field(n, JF_F_variable);
		if (jf_node_type_is(v, JF_T_variable_name)) {
			char *vname = jf_node_text(sh->unit, v);
			jf_shell__set_var(sh, vname, NULL, false);
			free(vname);
		} else {
			sh->vars_uncertain = true;
		}
	}
	/* `( ... )`: its folder and variables are its own (the files it makes stay) */
	bool scoped = t == JF_T_subshell;
	char *saved = scoped && sh->cwd ? jf_xstrdup(sh->cwd) : NULL;
	bool had_cwd = sh->cwd != NULL;
	var_list saved_vars = scoped ? vars_copy(&sh->vars) : (var_list){ 0 };
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++)
		walk(sh, ts_node_named_child(n, i));
	if (scoped) {
		free(sh->cwd);
		sh->cwd = had_cwd ? saved : NULL;
		vars_release(&sh->vars);
		sh->vars = saved_vars;
	}
}

/* The text of a shell unit, parsed into the workspace. */
static jf_file *add_unit_text(jf_workspace *ws, const jf_job *job, const jf_cmd_unit *u)
{
	if (u->copy)
		return jf_workspace_add_text(ws, u->copy, NULL, 0, JF_LANG_BASH, JF_ROLE_COMMAND);
	return jf_workspace_add_text(ws, u->src ? u->src : job->file, u->ranges.items,
	                             u->ranges.size, JF_LANG_BASH, JF_ROLE_COMMAND);
}

/* One step of the job's command: a shell program parsed from the job file,
 * or an argv list run as one command. */
static void run_unit(shell *sh, const jf_job *job, const jf_cmd_unit *u)
{
	if (u->kind == JF_CMD_ARGV) {
		words w = { 0 };
		for (size_t i = 0; i < u->argv.size; i++) {
			const jf_field *f = &u->argv.items[i];
			word arg = { f->at.src, f->at.span, f->value ? jf_xstrdup(f->value) : NULL };
			jf_array_push(&w, arg);
		}
		sh->argv_at = u->at;
		jf_shell__run_words(sh, &w, 0, (TSNode){ 0 }, NULL);
		jf_words_release(&w);
		return;
	}
	jf_file *f = add_unit_text(sh->ws, job, u);
	if (!f)
		return;
	sh->unit = f;
	gather_own(sh, ts_tree_root_node(f->tree));
	walk_unit(sh, f);
}

/* The shell that runs the job's command: in the workdir, with the job's env. */
static void start_shell(shell *sh, const shell *top)
{
	const jf_job *job = top->job;
	shell_init(sh, top, NULL, jf_job_workdir(job), 0);
	sh->args_known = true; /* the command itself gets no arguments */
	for (size_t i = 0; i < job->env.size; i++) {
		const jf_job_var *e = &job->env.items[i];
		var *v = jf_shell__set_var(sh, e->name.value, e->value.value, true);
		v->src = e->value.at.src;
		v->span = e->value.at.span;
	}
	for (size_t i = 0; i < job->subst.size; i++) {
		const jf_job_var *e = &job->subst.items[i];
		var *v = jf_shell__set_var(sh, e->name.value, e->value.value, false);
		v->src = e->value.at.src;
		v->span = e->value.at.span;
	}
}

void jf_shell_run(jf_shell_facts *out, const jf_job *job, jf_workspace *ws,
                  const jf_shell_host *host)
{
	if (!job->command.size)
		return;
	if (!job->code_dir || !jf_path_is_dir(job->code_dir)) {
		/* Nothing to follow the command into; its own text is still read
		 * (a batch script's syntax is checked wherever it runs). */
		for (size_t i = 0; i < job->command.size; i++) {
			const jf_cmd_unit *u = &job->command.items[i];
			if (u->kind == JF_CMD_SHELL)
				add_unit_text(ws, job, u);
		}
		return;
	}
	jf_strings own = { 0 }, inherits = { 0 };
	shell top = { .job = job, .ws = ws, .out = out, .host = host, .own = &own,
		      .inherits = &inherits };
	shell sh;
	start_shell(&sh, &top);
	jf_shell__image_projects(&sh);
	for (size_t i = 0; i < job->command.size; i++) {
		const jf_cmd_unit *u = &job->command.items[i];
		if (u->own_shell && i > 0) {
			/* A shell of its own: the files the units before made stay. */
			jf_strings produced = sh.produced;
			bool produced_unknown = sh.produced_unknown;
			sh.produced = (jf_strings){ 0 };
			shell_release(&sh);
			start_shell(&sh, &top);
			sh.produced = produced;
			sh.produced_unknown = produced_unknown;
		}
		run_unit(&sh, job, u);
	}
	shell_release(&sh);
	jf_strings_release(&own);
	jf_strings_release(&inherits);
}

void jf_shell_facts_release(jf_shell_facts *self)
{
	jf_array_release(&self->pip_installs);
	for (size_t i = 0; i < self->invocations.size; i++) {
		jf_invocation *inv = &self->invocations.items[i];
		free(inv->script.value);
		free(inv->launcher_at.value);
		free(inv->cwd);
		jf_words_release(&inv->launcher_args);
		jf_words_release(&inv->wrapper_args);
		jf_words_release(&inv->args);
		jf_words_release(&inv->env);
	}
	jf_array_release(&self->invocations);
	for (size_t i = 0; i < self->execs.size; i++) {
		free(self->execs.items[i].name.value);
		free(self->execs.items[i].arg);
	}
	jf_array_release(&self->execs);
	jf_strings_release(&self->installed);
	for (size_t i = 0; i < self->pins.size; i++) {
		free(self->pins.items[i].name);
		free(self->pins.items[i].version);
		free(self->pins.items[i].spec);
		free(self->pins.items[i].file);
	}
	jf_array_release(&self->pins);
	jf_strings_release(&self->produced);
	jf_strings_release(&self->not_followed);
	jf_strings_release(&self->assumed);
	jf_strings_release(&self->exported);
	for (size_t i = 0; i < self->var_uses.size; i++)
		free(self->var_uses.items[i].name);
	jf_array_release(&self->var_uses);
	for (size_t i = 0; i < self->missing_scripts.size; i++) {
		jf_missing_script *m = &self->missing_scripts.items[i];
		free(m->word.value);
		free(m->display);
		free(m->cpath);
	}
	jf_array_release(&self->missing_scripts);
	for (size_t i = 0; i < self->writes.size; i++) {
		free(self->writes.items[i].at.value);
		free(self->writes.items[i].cpath);
	}
	jf_array_release(&self->writes);
	free(self->installs_why);
	jf_strings_release(&self->import_roots);
	for (size_t i = 0; i < self->console_scripts.size; i++) {
		jf_console_script *c = &self->console_scripts.items[i];
		free(c->name);
		free(c->module);
		free(c->file);
	}
	jf_array_release(&self->console_scripts);
	memset(self, 0, sizeof(*self));
}

