/* command.c - following the job's command: launch scripts, Python entry scripts, pip installs
 *
 * The command (a bash program inside the job spec) and every launch script it
 * runs are walked in order, statement by statement. The walk tracks what a
 * linter can know for sure: the working folder (`cd`), variables with literal
 * values (assignments, `export`, `${X:-default}`, the job's `env`), files the
 * job produces itself (git clone, downloads, redirections), active virtual
 * environments. Whatever is not known stays unknown, and nothing is reported
 * on an unknown.
 */
#include <fnmatch.h>
#include <stdlib.h>

#include "shell/shell.h"

#include "core/path.h"
#include "env/image.h"
#include "sources/tree.h"

#define MAX_SCRIPT_DEPTH 8


typedef struct {
	char *name;
	char *value; /* NULL: set, but to something unknown */
	bool exported;
	const jf_source *src; /* where it was set; NULL when not known */
	jf_span span;
	bool is_array;   /* X=(a b c): the words are in `items` */
	jf_words items;
} var;

typedef JF_ARRAY(var) var_list;

typedef struct shell {
	const jf_job *job;
	jf_workspace *ws;
	jf_shell_facts *out;
	const jf_shell_host *host;
	jf_file *unit;
	char *cwd; /* container path; NULL when unknown */
	var_list vars;
	JF_ARRAY(char *) produced; /* container paths the job creates itself */
	bool produced_unknown;     /* something was produced where jobfix cannot tell */
	bool venv;                 /* a virtualenv or conda env is active */
	jf_words args;             /* $1, $2, ... as the caller passed them */
	bool args_known;           /* false: "$@" holds what jobfix cannot see */
	jf_words env;              /* the running command's prefix assignments (jf_invocation.env) */
	bool nounset;              /* `set -u` */
	bool vars_uncertain;       /* functions, eval, read: variables may be set unseen */
	int depth;
	jf_loc argv_at;            /* the argv unit being run: its words have no tree */
} shell;

static const char *workdir(const shell *sh)
{
	return jf_job_workdir(sh->job);
}

/* Variables */

static var *find_var(shell *sh, const char *name)
{
	for (size_t i = sh->vars.size; i-- > 0;)
		if (!strcmp(sh->vars.items[i].name, name))
			return &sh->vars.items[i];
	return NULL;
}

/* Sets $name; the caller records where, when it knows. */
static var *set_var(shell *sh, const char *name, const char *value, bool exported)
{
	var *v = find_var(sh, name);
	if (!v) {
		var nv = { .name = jf_xstrdup(name) };
		jf_array_push(&sh->vars, nv);
		v = jf_array_last(&sh->vars);
	}
	free(v->value);
	v->value = value ? jf_xstrdup(value) : NULL;
	v->exported |= exported;
	v->src = NULL;
	v->is_array = false;
	jf_words_release(&v->items);
	return v;
}

/* The value of $name: NULL when unknown. `*known_unset` tells an unset variable. */
static const char *lookup(shell *sh, const char *name, bool *unset)
{
	*unset = false;
	if (name[0] >= '1' && name[0] <= '9' && strspn(name, "0123456789") == strlen(name)) {
		size_t n = (size_t)strtoul(name, NULL, 10) - 1; /* ${10}: the tenth */
		if (!sh->args_known)
			return NULL;
		*unset = n >= sh->args.size;
		return *unset ? NULL : sh->args.items[n].value;
	}
	var *v = find_var(sh, name);
	if (v)
		return v->value;
	const jf_job_var *e = jf_job_env(sh->job, name);
	if (e)
		return e->value.value;
	/* Not set by the job; the image or the platform may still set it. */
	*unset = true;
	return NULL;
}

/* Words */

typedef jf_word word;
typedef jf_words words;

static word place(shell *sh, TSNode n);
static bool expand(shell *sh, TSNode n, jf_buf *out);
static char *word_value(shell *sh, TSNode n);
static char *container_path(shell *sh, const char *p);

static bool expand_children(shell *sh, TSNode n, jf_buf *out)
{
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++)
		if (!expand(sh, ts_node_named_child(n, i), out))
			return false;
	return true;
}

/* Variables bash itself sets. */
static const char *const bash_vars[] = { "PWD", "OLDPWD", "RANDOM", "LINENO", "SECONDS",
	"BASH_SOURCE", "BASH_LINENO", "BASHPID", "BASH", "BASH_VERSION", "BASH_VERSINFO", "UID",
	"EUID", "PPID", "SHLVL", "IFS", "OPTIND", "OPTARG", "OPTERR", "HOSTTYPE", "OSTYPE",
	"MACHTYPE", "PIPESTATUS", "FUNCNAME", "GROUPS", "REPLY", "SRANDOM", "EPOCHSECONDS",
	"EPOCHREALTIME", "BASH_COMMAND", "BASH_SUBSHELL", "BASH_REMATCH", "COLUMNS", "LINES", "PS1",
	"PS2", "PS4", "HISTFILE", "DIRSTACK", NULL };

/* Records $name, unset as far as the job says, where it would fail: under
 * `set -u`, or leading a path. The check asks the image and the platform. */
static void note_unset(shell *sh, TSNode name_node, const char *name)
{
	TSNode e = ts_node_parent(name_node);
	if (jf_node_type_is(e, "expansion") && ts_node_named_child_count(e) > 1)
		return; /* ${X%suffix}, ${X/a/b}: still a use, but rare; left alone */
	TSNode next = ts_node_next_sibling(e);
	bool path = jf_node_type_is(ts_node_parent(e), "concatenation") && !ts_node_is_null(next) &&
	            sh->unit->src->data[ts_node_start_byte(next)] == '/';
	if (sh->vars_uncertain || (!sh->nounset && !path) || jf_str_in(name, bash_vars) ||
	    (name[0] >= '0' && name[0] <= '9'))
		return;
	word at = place(sh, e);
	jf_var_use u = { at.src, at.span, jf_xstrdup(name), sh->nounset, path };
	jf_array_push(&sh->out->var_uses, u);
}

/* $0 and ${BASH_SOURCE[0]}: the running script's path in the container
 * (absolute: the same file as the path it was called by); false for the
 * command itself. */
static bool expand_script_path(shell *sh, jf_buf *out)
{
	const jf_file *u = sh->unit;
	if (!u->fs_path || !u->container_dir)
		return false;
	const char *base = strrchr(u->fs_path, '/');
	char *p = jf_path_join(u->container_dir, base ? base + 1 : u->fs_path);
	jf_buf_adds(out, p);
	free(p);
	return true;
}

static bool expand_name(shell *sh, TSNode name_node, jf_buf *out)
{
	if (jf_node_is(sh->unit, name_node, "0"))
		return expand_script_path(sh, out);
	char *name = jf_node_text(sh->unit, name_node);
	bool unset;
	const char *v = lookup(sh, name, &unset);
	if (unset)
		note_unset(sh, name_node, name);
	free(name);
	if (!v)
		return false;
	jf_buf_adds(out, v);
	return true;
}

/* ${X}, ${X:-default}, ${X-default}, ${X:=default}, ${X=default} */
static bool expand_braces(shell *sh, TSNode n, jf_buf *out)
{
	TSNode name = ts_node_named_child(n, 0);
	TSNode op = jf_node_field(n, "operator");
	if (jf_node_type_is(name, "subscript") && ts_node_named_child_count(n) == 1 &&
	    jf_node_is(sh->unit, jf_node_field(name, "name"), "BASH_SOURCE") &&
	    jf_node_is(sh->unit, jf_node_field(name, "index"), "0"))
		return expand_script_path(sh, out);
	if (ts_node_is_null(name) || strcmp(ts_node_type(name), "variable_name"))
		return false;
	if (ts_node_is_null(op))
		return ts_node_named_child_count(n) == 1 && expand_name(sh, name, out);
	char *o = jf_node_text(sh->unit, op);
	bool defaulting = !strcmp(o, ":-") || !strcmp(o, "-") || !strcmp(o, ":=") || !strcmp(o, "=");
	bool assigns = o[strlen(o) - 1] == '=';
	free(o);
	if (!defaulting)
		return false;
	char *vname = jf_node_text(sh->unit, name);
	bool unset;
	const char *v = lookup(sh, vname, &unset);
	bool ok = false;
	if (v && *v) {
		jf_buf_adds(out, v);
		ok = true;
	} else if (unset) {
		/* Unset in the job: only a default the image cannot override is certain,
		 * and the image may set it; take the default as the job author meant it. */
		jf_buf d = JF_BUF_INIT;
		ok = true;
		for (uint32_t i = 1; i < ts_node_named_child_count(n) && ok; i++) {
			TSNode c = ts_node_named_child(n, i);
			ok = expand(sh, c, &d);
		}
		if (ok) {
			jf_buf_add(out, d.buf, d.len);
			if (assigns)
				set_var(sh, vname, d.buf, false);
		}
		jf_buf_release(&d);
	}
	free(vname);
	return ok;
}

typedef JF_ARRAY(char *) strings;

/* The words of simple command `cmd` (its name first) as values; false when one is unknown. */
static bool command_words(shell *sh, TSNode cmd, strings *words_out)
{
	if (!jf_node_type_is(cmd, "command"))
		return false;
	for (uint32_t i = 0; i < ts_node_named_child_count(cmd); i++) {
		TSNode c = ts_node_named_child(cmd, i);
		if (jf_node_type_is(c, "command_name"))
			c = ts_node_named_child(c, 0);
		else if (!strcmp(ts_node_type(c), "variable_assignment") ||
		         strstr(ts_node_type(c), "redirect"))
			return false;
		char *v = word_value(sh, c);
		if (!v)
			return false;
		jf_array_push(words_out, v);
	}
	return words_out->size > 0;
}

/*
 * The three command substitutions launch scripts use to find their own
 * folder: $(dirname P), $(pwd), and $(cd P && pwd). Anything else runs a
 * program and is unknown.
 */
static bool expand_substitution(shell *sh, TSNode n, jf_buf *out)
{
	if (ts_node_named_child_count(n) != 1)
		return false;
	TSNode body = ts_node_named_child(n, 0);
	strings a = { 0 }, b = { 0 };
	bool ok = false;
	if (command_words(sh, body, &a)) {
		if (a.size == 2 && !strcmp(a.items[0], "dirname")) {
			char *d = jf_path_dirname(a.items[1]);
			jf_buf_adds(out, *d ? d : ".");
			free(d);
			ok = true;
		} else if (a.size == 1 && !strcmp(a.items[0], "pwd") && sh->cwd) {
			jf_buf_adds(out, sh->cwd);
			ok = true;
		}
	} else if (jf_node_type_is(body, "list") && ts_node_named_child_count(body) == 2 &&
	           command_words(sh, ts_node_named_child(body, 0), &a) &&
	           command_words(sh, ts_node_named_child(body, 1), &b) && a.size == 2 &&
	           !strcmp(a.items[0], "cd") && b.size == 1 && !strcmp(b.items[0], "pwd")) {
		char *p = container_path(sh, a.items[1]);
		if (p) {
			jf_buf_adds(out, p);
			free(p);
			ok = true;
		}
	}
	for (size_t i = 0; i < a.size; i++)
		free(a.items[i]);
	for (size_t i = 0; i < b.size; i++)
		free(b.items[i]);
	jf_array_release(&a);
	jf_array_release(&b);
	return ok;
}

/* Appends the value of word `n` to `out`; false when it is not known. */
static bool expand(shell *sh, TSNode n, jf_buf *out)
{
	const char *t = ts_node_type(n);
	const char *src = sh->unit->src->data;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	if (!strcmp(t, "word") || !strcmp(t, "number") || !strcmp(t, "string_content")) {
		for (uint32_t i = a; i < b; i++) {
			char c = src[i];
			if (c == '*' || c == '?' || c == '[' || (c == '~' && i == a))
				return false; /* globs and ~ expand at run time */
			if (c == '\\' && i + 1 < b)
				c = src[++i];
			jf_buf_addc(out, c);
		}
		return true;
	}
	if (!strcmp(t, "raw_string")) {
		if (b - a >= 2)
			jf_buf_add(out, src + a + 1, b - a - 2);
		return true;
	}
	if (!strcmp(t, "string")) {
		/* Text the grammar leaves between children ("--seed $seed ": the last
		 * space is no node) is literal too. */
		uint32_t at = a + (src[a] == '"' || src[a] == '$');
		if (src[at] == '"' && src[a] == '$')
			at++; /* $"..." */
		uint32_t end = b > at && src[b - 1] == '"' ? b - 1 : b;
		for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
			TSNode c = ts_node_named_child(n, i);
			uint32_t ca = ts_node_start_byte(c);
			if (ca > at)
				jf_buf_add(out, src + at, ca - at);
			if (!expand(sh, c, out))
				return false;
			at = ts_node_end_byte(c);
		}
		if (end > at)
			jf_buf_add(out, src + at, end - at);
		return true;
	}
	if (!strcmp(t, "concatenation"))
		return expand_children(sh, n, out);
	if (!strcmp(t, "simple_expansion")) {
		TSNode name = ts_node_named_child(n, 0);
		return !ts_node_is_null(name) && !strcmp(ts_node_type(name), "variable_name") &&
		       expand_name(sh, name, out);
	}
	if (!strcmp(t, "expansion"))
		return expand_braces(sh, n, out);
	if (!strcmp(t, "command_substitution"))
		return expand_substitution(sh, n, out);
	return false;
}

/* The value of a word as a new string, or NULL when unknown. */
static char *word_value(shell *sh, TSNode n)
{
	jf_buf b = JF_BUF_INIT;
	if (!expand(sh, n, &b)) {
		jf_buf_release(&b);
		return NULL;
	}
	return jf_buf_detach(&b, NULL);
}

static void words_release(words *w)
{
	jf_words_release(w);
}

/* Where findings about node `n` of the unit belong, as a word without a value. */
static word place(shell *sh, TSNode n)
{
	word w = { sh->unit->src, jf_node_span(n), NULL };
	if (sh->unit->src->origin) {
		w.src = sh->unit->src->origin;
		w.span = sh->unit->src->origin_span;
	}
	return w;
}

/* A word of the unit at node `n`, placed where findings about it belong. */
static word make_word(shell *sh, TSNode n)
{
	word w = place(sh, n);
	w.value = word_value(sh, n);
	return w;
}

static word copy_word(const word *w)
{
	word c = *w;
	c.value = w->value ? jf_xstrdup(w->value) : NULL;
	return c;
}

/* Copies w[from, to) onto the end of `out`. */
static void copy_words(words *out, const words *w, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < w->size; i++)
		jf_array_push(out, copy_word(&w->items[i]));
}

static bool word_is(const words *w, size_t i, const char *s)
{
	return i < w->size && w->items[i].value && !strcmp(w->items[i].value, s);
}

static bool word_starts(const words *w, size_t i, const char *s)
{
	return i < w->size && w->items[i].value && jf_str_starts(w->items[i].value, s);
}

/* The last path component of the word, or "" when unknown. */
static const char *word_base(const words *w, size_t i)
{
	if (i >= w->size || !w->items[i].value)
		return "";
	const char *s = strrchr(w->items[i].value, '/');
	return s ? s + 1 : w->items[i].value;
}

/* Paths */

static char *container_path(shell *sh, const char *p)
{
	if (p[0] == '/')
		return jf_path_normalize(p);
	if (!sh->cwd)
		return NULL;
	return jf_path_join(sh->cwd, p);
}

static void produce(shell *sh, const char *p)
{
	char *c = p ? container_path(sh, p) : NULL;
	if (c) {
		jf_array_push(&sh->produced, c);
		jf_array_push(&sh->out->produced, jf_xstrdup(c));
	} else {
		sh->produced_unknown = sh->out->produced_unknown = true;
	}
}

/* A write at word `at` (value `p`): JF106 looks at those in input mounts. */
static void write_at(shell *sh, const char *p, const word *at)
{
	char *c = p ? container_path(sh, p) : NULL;
	if (!c)
		return;
	jf_shell_write w = { { at->src, at->span, jf_xstrdup(p) }, c };
	jf_array_push(&sh->out->writes, w);
}

static bool is_produced(const shell *sh, const char *cpath)
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

/* Scripts */

/* How a Python script is launched: the launcher and its options w[from, i). */
typedef struct {
	const char *launcher;
	size_t from;
	const char *wrapper; /* mpirun, horovodrun */
	size_t wrapper_from, wrapper_to;
} launch;

static void walk(shell *sh, TSNode n);
static void run_words(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer);

typedef enum { SCRIPT_SHELL, SCRIPT_PYTHON } script_kind;

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
	if (a->is_array != b->is_array || !same_str(a->value, b->value) ||
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
	for (size_t i = 0; i < sh->produced.size; i++)
		free(sh->produced.items[i]);
	jf_array_release(&sh->produced);
	jf_words_release(&sh->args);
	free(sh->cwd);
}

/* Walks a launch script in a child shell that inherits the exported state;
 * w[first..] are its positional parameters. */
static void run_launch_script(shell *sh, jf_file *u, bool same_shell, const words *w, size_t first)
{
	if (same_shell) {
		jf_file *saved = sh->unit;
		sh->unit = u;
		sh->depth++;
		walk(sh, ts_tree_root_node(u->tree));
		sh->depth--;
		sh->unit = saved;
		return;
	}
	shell child;
	shell_init(&child, sh, u, sh->cwd, sh->depth + 1);
	for (size_t i = 0; i < sh->vars.size; i++) {
		const var *v = &sh->vars.items[i];
		if (v->exported) {
			var *cv = set_var(&child, v->name, v->value, true);
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
		var *cv = set_var(&child, name, eq ? eq + 1 : NULL, true);
		cv->src = e->src;
		cv->span = e->span;
		free(name);
	}
	child.venv = sh->venv;
	child.vars_uncertain = sh->vars_uncertain;
	child.args_known = true;
	copy_words(&child.args, w, first, w->size);
	child.produced_unknown = sh->produced_unknown;
	for (size_t i = 0; i < sh->produced.size; i++)
		jf_array_push(&child.produced, jf_xstrdup(sh->produced.items[i]));
	walk(&child, ts_tree_root_node(u->tree));
	shell_release(&child);
}

/* A launch of `launcher` with options from w[from], inside `outer`'s wrapper. */
static launch launch_of(const char *launcher, size_t from, const launch *outer)
{
	launch how = { launcher, from, NULL, 0, 0 };
	if (outer) {
		how.wrapper = outer->wrapper;
		how.wrapper_from = outer->wrapper_from;
		how.wrapper_to = outer->wrapper_to;
	}
	return how;
}

/* The environment of an invocation, as far as the checks need it: the command's
 * prefix assignments, and CUDA_VISIBLE_DEVICES as the shell exports it unless
 * a prefix assignment sets it. */
static void record_env(shell *sh, jf_invocation *inv)
{
	static const char cvd[] = "CUDA_VISIBLE_DEVICES";
	size_t n = strlen(cvd);
	copy_words(&inv->env, &sh->env, 0, sh->env.size);
	for (size_t i = 0; i < sh->env.size; i++) {
		const char *s = sh->env.items[i].value;
		if (!strncmp(s, cvd, n) && (s[n] == '=' || !s[n]))
			return;
	}
	const var *v = find_var(sh, cvd);
	if (!v || !v->exported)
		return;
	word e = inv->script; /* where the script is named, when the assignment's place is not known */
	if (v->src) {
		e.src = v->src;
		e.span = v->span;
	}
	e.value = v->value ? jf_xasprintf("%s=%s", cvd, v->value) : jf_xstrdup(cvd);
	jf_array_push(&inv->env, e);
}

/* The names the shell exports to a program it runs, into ctx->exported. */
static void record_exports(shell *sh)
{
	for (size_t i = 0; i < sh->vars.size; i++)
		if (sh->vars.items[i].exported)
			jf_array_push(&sh->out->exported, jf_xstrdup(sh->vars.items[i].name));
	for (size_t i = 0; i < sh->env.size; i++) {
		const char *e = sh->env.items[i].value;
		jf_array_push(&sh->out->exported, jf_xstrndup(e, strcspn(e, "=")));
	}
}

static void record_invocation(shell *sh, jf_file *u, const words *w, size_t i, const launch *how)
{
	record_exports(sh);
	jf_invocation inv = { 0 };
	inv.entry = u;
	inv.script = copy_word(&w->items[i]);
	inv.launcher = how ? how->launcher : "python";
	inv.unit = sh->unit;
	inv.cwd = sh->cwd ? jf_xstrdup(sh->cwd) : NULL;
	if (how) {
		copy_words(&inv.launcher_args, w, how->from, i);
		inv.wrapper = how->wrapper;
		if (how->wrapper)
			copy_words(&inv.wrapper_args, w, how->wrapper_from, how->wrapper_to);
	}
	copy_words(&inv.args, w, i + 1, w->size);
	record_env(sh, &inv);
	jf_array_push(&sh->out->invocations, inv);
}

/* A script named by word `i`: found and loaded, or reported as missing.
 * `how` says how a Python script is launched (NULL: a launch script). */
static void script(shell *sh, const words *w, size_t i, script_kind kind, bool same_shell,
                   const launch *how)
{
	const word *wd = &w->items[i];
	if (!wd->value || !*wd->value)
		return;
	char *cpath = container_path(sh, wd->value);
	if (!cpath)
		return;
	const char *rel = jf_path_under(cpath, workdir(sh));
	if (!rel || !*rel || sh->depth >= MAX_SCRIPT_DEPTH) {
		free(cpath); /* outside the code folder: the image's business */
		return;
	}
	char *local = jf_path_join(sh->job->code_dir, rel);
	char *display = jf_path_join(sh->job->code_display, rel);
	bool is_dir = jf_path_is_dir(local);
	if (is_dir || !jf_path_is_file(local)) {
		if (!is_produced(sh, cpath)) {
			jf_missing_script m = { copy_word(wd), kind == SCRIPT_PYTHON, is_dir, display,
				                cpath };
			jf_array_push(&sh->out->missing_scripts, m);
			display = cpath = NULL;
		}
	} else {
		char *cdir = jf_path_dirname(cpath);
		jf_file *u = jf_workspace_find(sh->ws, local);
		bool fresh = !u;
		if (!u)
			u = jf_workspace_load(sh->ws, local, display,
			                kind == SCRIPT_SHELL ? JF_LANG_BASH : JF_LANG_PYTHON,
			                kind == SCRIPT_SHELL ? JF_ROLE_LAUNCH : JF_ROLE_ENTRY, cdir,
			                sh->depth + 1);
		free(cdir);
		/* A launch script is walked once per job: each file is read once. */
		if (u && kind == SCRIPT_SHELL && (fresh || same_shell) && u->lang == JF_LANG_BASH)
			run_launch_script(sh, u, same_shell, w, i + 1);
		if (u && kind == SCRIPT_PYTHON) {
			record_invocation(sh, u, w, i, how);
			/* A local launcher runs the script it is given, with the rest. */
			jf_words rest = { w->items + i + 1, w->size - i - 1, 0 };
			long k = u->lang == JF_LANG_PYTHON
			                 ? sh->host->wrapped_script(sh->host->data, u, &rest)
			                 : -1;
			if (k >= 0) {
				launch wrapped = launch_of(u->src->path, i + 1, how);
				script(sh, w, i + 1 + (size_t)k, SCRIPT_PYTHON, false, &wrapped);
			}
		}
	}
	free(local);
	free(display);
	free(cpath);
}

/* A Python module run with -m: loaded when it is local, silent otherwise. */
static void module(shell *sh, const char *mod)
{
	if (!sh->cwd)
		return;
	const char *rel = jf_path_under(sh->cwd, workdir(sh));
	if (!rel)
		return;
	jf_buf p = JF_BUF_INIT;
	for (const char *c = mod; *c; c++)
		jf_buf_addc(&p, *c == '.' ? '/' : *c);
	const char *suffixes[] = { ".py", "/__main__.py" };
	for (int k = 0; k < 2; k++) {
		char *relmod = jf_xasprintf("%s%s%s%s", rel, *rel ? "/" : "", p.buf, suffixes[k]);
		char *local = jf_path_join(sh->job->code_dir, relmod);
		if (jf_path_is_file(local)) {
			char *display = jf_path_join(sh->job->code_display, relmod);
			jf_workspace_load(sh->ws, local, display, JF_LANG_PYTHON, JF_ROLE_ENTRY, sh->cwd,
			                  sh->depth + 1);
			free(display);
			k = 2;
		}
		free(local);
		free(relmod);
	}
	jf_buf_release(&p);
}

/* Launchers: which options are flags (take no value); the rest take one value. */
static const char *const torchrun_flags[] = { "--standalone", "--no-python", "--no_python",
	"--run-path", "--run_path", "--module", "-m", "--use-env", "--use_env", "--no-python",
	"--tee-all", NULL };
static const char *const deepspeed_flags[] = { "--no_local_rank", "--no_python", "--module",
	"--force_multi", "--no_ssh_check", "--save_pid", "--elastic_training", "--bind_cores_to_rank",
	"--no_ssh", "--enable_each_rank_log", NULL };
static const char *const accelerate_flags[] = { "--multi_gpu", "--cpu", "--tpu", "--use_deepspeed",
	"--use_fsdp", "--use_megatron_lm", "-m", "--module", "--no_python", "--debug", "-q",
	"--quiet", "--same_network", "--rdzv_conf", "--fp16", "--use_cpu", "--dynamo_use_fullgraph",
	"--dynamo_use_dynamic", "--tpu_use_cluster", "--downcast_bf16", NULL };
static const char *const mpirun_flags[] = { "--allow-run-as-root", "-allow-run-as-root",
	"--oversubscribe", "-oversubscribe", "--tag-output", "-tag-output", "--timestamp-output",
	"-v", "--verbose", "-q", "--quiet", "--report-bindings", "-report-bindings", "--display-map",
	"-display-map", "-bind-to-core", "-bind-to-socket", "--noprefix", "-noprefix", "-l", NULL };
static const char *const mpirun_pairs[] = { "-mca", "--mca", "-gmca", "--gmca", NULL };
static const char *const horovod_flags[] = { "--gloo", "--mpi", "--jsm", "--verbose",
	"--disable-cache", "--tcp", "--log-without-timestamp", "--elastic", "--check-build",
	"-cb", "--log-hide-timestamp", NULL };

/* Skips launcher options from word i; returns the index of the first
 * non-option word, or SIZE_MAX when an unknown word makes it unclear. */
static size_t skip_options(const words *w, size_t i, const char *const *flags,
                           const char *const *pairs)
{
	while (i < w->size) {
		const char *s = w->items[i].value;
		if (!s)
			return SIZE_MAX;
		if (s[0] != '-' || !s[1])
			return i;
		if (!strcmp(s, "--"))
			return i + 1;
		if (strchr(s, '=') || jf_str_in(s, flags))
			i++;
		else if (pairs && jf_str_in(s, pairs))
			i += 3;
		else
			i += 2;
	}
	return i;
}

static bool is_python(const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (!jf_str_starts(base, "python"))
		return false;
	base += 6;
	if (!*base)
		return true;
	if (*base++ != '3')
		return false;
	if (!*base)
		return true;
	if (*base++ != '.')
		return false;
	for (; *base; base++)
		if (*base < '0' || *base > '9')
			return false;
	return true;
}

static bool pip_exempt_env(shell *sh)
{
	const char *names[] = { "PIP_USER", "PIP_TARGET", "PIP_PREFIX", "VIRTUAL_ENV" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		bool unset;
		const char *v = lookup(sh, names[i], &unset);
		if (!unset && (i > 0 || !v || strcmp(v, "0")))
			return true;
	}
	return false;
}

/* `pip install ...` from word i (just after "install"). */
static void pip_install(shell *sh, const words *w, size_t i, TSNode cmd, bool explicit_path)
{
	static const char *const exempt[] = { "--user", "--target", "-t", "--prefix", "--root",
		                              "--dry-run", "--help", "-h", "--download", NULL };
	if (sh->venv || explicit_path || pip_exempt_env(sh))
		return;
	for (; i < w->size; i++) {
		const char *s = w->items[i].value;
		if (!s)
			continue;
		for (size_t k = 0; exempt[k]; k++)
			if (!strcmp(s, exempt[k]) || (jf_str_starts(s, exempt[k]) && s[strlen(exempt[k])] == '='))
				return;
		if (s[0] == '-' && s[1] != '-' && strchr(s + 1, 't'))
			return; /* -t DIR among short options */
	}
	jf_loc at = sh->argv_at;
	if (!ts_node_is_null(cmd)) {
		word where = place(sh, cmd);
		at = (jf_loc){ where.src, where.span };
	}
	jf_array_push(&sh->out->pip_installs, at);
}

static void record_exec(shell *sh, const words *w, size_t i)
{
	jf_exec_fact f = { copy_word(&w->items[i]), NULL };
	if (i + 1 < w->size && w->items[i + 1].value)
		f.arg = jf_xstrdup(w->items[i + 1].value);
	jf_array_push(&sh->out->execs, f);
}

/* Installed packages */

static void install(shell *sh, const char *spec, size_t n)
{
	/* A requirement: a name, then extras, a version, a marker or " @ url". */
	size_t len = strspn(spec, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.");
	if (len > n)
		len = n;
	if (!len || spec[0] == '.' || (len < n && (spec[len] == '/' || spec[len] == ':'))) {
		sh->out->installs_unknown = true; /* a path, a URL: a project whose name jobfix cannot see */
		return;
	}
	jf_array_push(&sh->out->installed, jf_xstrndup(spec, len));
}

/* The requirements in file `path` (a container path), -r and -c followed. */
static void install_requirements(shell *sh, const char *path, int depth)
{
	const char *rel = path ? jf_path_under(path, workdir(sh)) : NULL;
	char *local = rel ? jf_path_join(sh->job->code_dir, rel) : NULL;
	jf_source *src = local && depth < 4 ? jf_source_load(local, local) : NULL;
	if (!src || src->status != JF_SOURCE_OK) {
		sh->out->installs_unknown = true; /* made at run time, or not there: pip says so */
		jf_source_free(src);
		free(local);
		return;
	}
	char *dir = jf_path_dirname(path);
	for (const char *line = src->data; *line;) {
		size_t len = strcspn(line, "\n");
		const char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		size_t n = (size_t)(line + len - s);
		const char *hash = memchr(s, '#', n);
		if (hash && (hash == s || hash[-1] == ' ' || hash[-1] == '\t'))
			n = (size_t)(hash - s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
			n--;
		if (n && (!strncmp(s, "-r ", 3) || !strncmp(s, "--requirement", 13))) {
			const char *f = s + strcspn(s, " =");
			f += strspn(f, " =");
			char *name = jf_xstrndup(f, n - (size_t)(f - s));
			char *inner = jf_path_join(dir, name);
			install_requirements(sh, inner, depth + 1);
			free(inner);
			free(name);
		} else if (n && (s[0] == '-' && strncmp(s, "-e", 2) && strncmp(s, "--editable", 10))) {
			/* -c, -i, --index-url, --find-links ...: no package */
		} else if (n) {
			if (s[0] == '-') /* -e path: a local project */
				sh->out->installs_unknown = true;
			else
				install(sh, s, n);
		}
		line += len + (line[len] == '\n');
	}
	free(dir);
	jf_source_free(src);
	free(local);
}

/* `pip install ...` or `conda install ...` from word i (just after "install"). */
static void install_words(shell *sh, const words *w, size_t i, bool pip)
{
	static const char *const with_value[] = { "-i", "--index-url", "--extra-index-url", "-f",
		"--find-links", "-t", "--target", "--prefix", "--root", "--platform", "--python-version",
		"--implementation", "--abi", "--src", "--upgrade-strategy", "--progress-bar", "--log",
		"--cache-dir", "--trusted-host", "--proxy", "--timeout", "--retries", "--config-settings",
		"-C", "-c", "--channel", "-n", "--name", "-p", "--global-option", "--install-option",
		NULL };
	for (; i < w->size; i++) {
		const char *s = w->items[i].value;
		if (!s) {
			sh->out->installs_unknown = true;
			continue;
		}
		if (pip && (!strcmp(s, "-r") || !strcmp(s, "--requirement"))) {
			const char *f = i + 1 < w->size ? w->items[++i].value : NULL;
			char *cpath = f ? container_path(sh, f) : NULL;
			install_requirements(sh, cpath, 0);
			free(cpath);
		} else if (pip && (jf_str_starts(s, "-r") || jf_str_starts(s, "--requirement="))) {
			char *cpath = container_path(sh, s + (s[1] == 'r' ? 2 : 14));
			install_requirements(sh, cpath, 0);
			free(cpath);
		} else if (!strcmp(s, "-e") || !strcmp(s, "--editable")) {
			sh->out->installs_unknown = true;
			i++;
		} else if (s[0] == '-') {
			if (!strchr(s, '=') && jf_str_in(s, with_value))
				i++;
		} else if (pip) {
			install(sh, s, strlen(s));
		} else { /* conda: name=version, name==version, channel::name */
			const char *colons = strstr(s, "::");
			install(sh, colons ? colons + 2 : s, strlen(colons ? colons + 2 : s));
		}
	}
}

/* A python invocation from word i (the interpreter). */
static void python(shell *sh, const words *w, size_t i, TSNode cmd, const launch *outer)
{
	size_t interpreter = i;
	for (i++; i < w->size; i++) {
		const char *s = w->items[i].value;
		if (!s)
			return;
		if (!strcmp(s, "-m")) {
			if (!word_is(w, i + 1, "pip"))
				break;
			if (word_is(w, i + 2, "install")) {
				install_words(sh, w, i + 3, true);
				pip_install(sh, w, i + 3, cmd, false);
			}
			return;
		}
		if (!strcmp(s, "-c") || !strcmp(s, "-"))
			return;
		if (!strcmp(s, "-W") || !strcmp(s, "-X")) {
			i++;
			continue;
		}
		if (s[0] == '-')
			continue;
		launch how = launch_of("python", interpreter + 1, outer);
		script(sh, w, i, SCRIPT_PYTHON, false, &how);
		return;
	}
	if (i + 1 >= w->size || !w->items[i + 1].value)
		return;
	const char *mod = w->items[i + 1].value;
	if (!strcmp(mod, "torch.distributed.launch") || !strcmp(mod, "torch.distributed.run")) {
		size_t k = skip_options(w, i + 2, torchrun_flags, NULL);
		launch how = launch_of(!strcmp(mod, "torch.distributed.launch") ? "torch.distributed.launch"
		                                                                 : "torch.distributed.run",
		                       i + 2, outer);
		if (k < w->size && !jf_str_ends(w->items[k].value ? w->items[k].value : "", ".sh"))
			script(sh, w, k, SCRIPT_PYTHON, false, &how);
		return;
	}
	module(sh, mod);
}

static void launcher(shell *sh, const words *w, size_t i, const char *const *flags,
                     const char *name, const launch *outer)
{
	for (size_t k = i; k < w->size; k++)
		if (word_is(w, k, "-m") || word_is(w, k, "--module") || word_is(w, k, "--no_python") ||
		    word_is(w, k, "--no-python"))
			return; /* a module or a non-Python program: not a script path */
	size_t k = skip_options(w, i, flags, NULL);
	launch how = launch_of(name, i, outer);
	if (k < w->size)
		script(sh, w, k, SCRIPT_PYTHON, false, &how);
}

static void cd(shell *sh, const words *w, size_t i)
{
	char *dir = NULL;
	if (i < w->size && word_is(w, i, "-P"))
		i++;
	if (i < w->size && w->items[i].value && strcmp(w->items[i].value, "-"))
		dir = container_path(sh, w->items[i].value);
	free(sh->cwd);
	sh->cwd = dir;
}

/* `shift [n]`: drops the first n positional parameters. */
static void shift(shell *sh, const words *w, size_t i)
{
	char *end = NULL;
	long n = i < w->size && w->items[i].value ? strtol(w->items[i].value, &end, 10) : 1;
	if ((i < w->size && (!end || *end)) || n < 0) {
		sh->args_known = false; /* shifted by an amount known only at run time */
		return;
	}
	size_t k = (size_t)n < sh->args.size ? (size_t)n : sh->args.size;
	for (size_t j = 0; j < k; j++)
		free(sh->args.items[j].value);
	memmove(sh->args.items, sh->args.items + k, (sh->args.size - k) * sizeof(word));
	sh->args.size -= k;
}

/* Runs the command whose name is word i; `outer` is the mpirun or horovodrun
 * that runs it, or NULL. */
static void run_words(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	while (i < w->size) {
		const char *name = w->items[i].value;
		if (!name)
			return;
		/* Wrappers that run the rest of the line. */
		if (!strcmp(name, "exec") || !strcmp(name, "nohup") || !strcmp(name, "time") ||
		    !strcmp(name, "command")) {
			i++;
			continue;
		}
		if (!strcmp(name, "env")) {
			for (i++; i < w->size && w->items[i].value &&
			          (w->items[i].value[0] == '-' || strchr(w->items[i].value, '='));
			     i++)
				if (w->items[i].value[0] != '-')
					jf_array_push(&sh->env, copy_word(&w->items[i]));
			continue;
		}
		if (!strcmp(name, "stdbuf")) {
			for (i++; i < w->size && word_starts(w, i, "-");)
				i++;
			continue;
		}
		if (!strcmp(name, "timeout")) {
			for (i++; i < w->size && word_starts(w, i, "-");)
				i++;
			i++; /* the duration */
			continue;
		}
		if (!strcmp(name, "sudo")) {
			record_exec(sh, w, i);
			return; /* runs as root: nothing the rules here can say */
		}
		break;
	}
	if (i >= w->size || !w->items[i].value)
		return;
	record_exec(sh, w, i);
	const char *name = w->items[i].value;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;

	if (!strcmp(name, "set")) {
		for (size_t k = i + 1; k < w->size && w->items[k].value; k++) {
			const char *s = w->items[k].value;
			bool on = s[0] == '-';
			if ((s[0] == '-' || s[0] == '+') && s[1] != '-' && s[1] != 'o' && strchr(s, 'u'))
				sh->nounset = on;
			else if ((!strcmp(s, "-o") || !strcmp(s, "+o")) && word_is(w, k + 1, "nounset"))
				sh->nounset = on;
		}
	} else if (!strcmp(name, "read") || !strcmp(name, "eval") || !strcmp(name, "getopts") ||
	           !strcmp(name, "mapfile") || !strcmp(name, "readarray") || !strcmp(name, "printf") ||
	           !strcmp(name, "let")) {
		sh->vars_uncertain |= strcmp(name, "printf") || word_is(w, i + 1, "-v");
	} else if (!strcmp(name, "cd") || !strcmp(name, "pushd")) {
		cd(sh, w, i + 1);
	} else if (!strcmp(name, "shift")) {
		shift(sh, w, i + 1);
	} else if (!strcmp(name, "source") || !strcmp(name, ".")) {
		/* A file outside the code folder may set any variable. */
		char *cpath = i + 1 < w->size && w->items[i + 1].value
		                      ? container_path(sh, w->items[i + 1].value)
		                      : NULL;
		if (!cpath || !jf_path_under(cpath, workdir(sh)))
			sh->vars_uncertain = true;
		free(cpath);
		if (jf_str_ends(word_base(w, i + 1), "activate") || word_is(w, i + 1, "activate"))
			sh->venv = sh->vars_uncertain = true;
		else if (i + 1 < w->size)
			script(sh, w, i + 1, SCRIPT_SHELL, true, NULL);
	} else if ((!strcmp(base, "conda") || !strcmp(base, "mamba") || !strcmp(base, "micromamba")) &&
	           word_is(w, i + 1, "activate")) {
		sh->venv = sh->vars_uncertain = true;
	} else if ((!strcmp(base, "conda") || !strcmp(base, "mamba") || !strcmp(base, "micromamba")) &&
	           word_is(w, i + 1, "install")) {
		install_words(sh, w, i + 2, false);
	} else if (!strcmp(name, "bash") || !strcmp(name, "sh") || !strcmp(name, "zsh") ||
	           !strcmp(name, "dash") || !strcmp(name, "/bin/bash") || !strcmp(name, "/bin/sh")) {
		size_t k = i + 1;
		for (; k < w->size && word_starts(w, k, "-"); k++)
			if (word_is(w, k, "-c") || word_is(w, k, "-s"))
				return;
		if (k < w->size)
			script(sh, w, k, SCRIPT_SHELL, false, NULL);
	} else if (strchr(name, '/') && jf_str_ends(name, ".sh")) {
		script(sh, w, i, SCRIPT_SHELL, false, NULL);
	} else if (strchr(name, '/') && jf_str_ends(name, ".py")) {
		launch how = launch_of("script", i + 1, outer);
		script(sh, w, i, SCRIPT_PYTHON, false, &how);
	} else if (is_python(name)) {
		python(sh, w, i, cmd, outer);
	} else if (!strcmp(base, "pip") || !strcmp(base, "pip3") || jf_str_starts(base, "pip3.")) {
		if (word_is(w, i + 1, "install")) {
			install_words(sh, w, i + 2, true);
			pip_install(sh, w, i + 2, cmd, strchr(name, '/') != NULL);
		}
	} else if (!strcmp(name, "torchrun")) {
		launcher(sh, w, i + 1, torchrun_flags, "torchrun", outer);
	} else if (!strcmp(name, "deepspeed")) {
		launcher(sh, w, i + 1, deepspeed_flags, "deepspeed", outer);
	} else if (!strcmp(name, "accelerate") && word_is(w, i + 1, "launch")) {
		launcher(sh, w, i + 2, accelerate_flags, "accelerate", outer);
	} else if (!strcmp(name, "horovodrun")) {
		size_t k = skip_options(w, i + 1, horovod_flags, NULL);
		launch wrap = { NULL, 0, "horovodrun", i + 1, k };
		if (k < w->size)
			run_words(sh, w, k, cmd, &wrap);
	} else if (!strcmp(name, "mpirun") || !strcmp(name, "mpiexec")) {
		size_t k = skip_options(w, i + 1, mpirun_flags, mpirun_pairs);
		launch wrap = { NULL, 0, "mpirun", i + 1, k };
		if (k < w->size)
			run_words(sh, w, k, cmd, &wrap);
	} else if (!strcmp(name, "git") && word_is(w, i + 1, "clone")) {
		size_t k = i + 2, pos = 0;
		const char *dir = NULL, *url = NULL;
		for (; k < w->size; k++) {
			const char *s = w->items[k].value;
			if (!s) {
				sh->produced_unknown = sh->out->produced_unknown = true;
				return;
			}
			if (s[0] == '-') {
				if (!strchr(s, '=') && (!strcmp(s, "-b") || !strcmp(s, "--branch") ||
				                        !strcmp(s, "--depth") || !strcmp(s, "-o") ||
				                        !strcmp(s, "--origin") || !strcmp(s, "-c") ||
				                        !strcmp(s, "--config") || !strcmp(s, "--reference")))
					k++;
				continue;
			}
			if (pos++ == 0)
				url = s;
			else
				dir = s;
		}
		if (dir) {
			produce(sh, dir);
		} else if (url) {
			const char *slash = strrchr(url, '/');
			char *repo = jf_xstrdup(slash ? slash + 1 : url);
			if (jf_str_ends(repo, ".git"))
				repo[strlen(repo) - 4] = '\0';
			produce(sh, repo);
			free(repo);
		}
	} else if (!strcmp(base, "wget") || !strcmp(base, "curl") || !strcmp(base, "aws") ||
	           !strcmp(base, "gsutil") || !strcmp(base, "azcopy") || !strcmp(base, "rsync") ||
	           !strcmp(base, "scp") || !strcmp(base, "cp") || !strcmp(base, "mv") ||
	           !strcmp(base, "ln") || !strcmp(base, "tar") || !strcmp(base, "unzip") ||
	           !strcmp(base, "touch") || !strcmp(base, "hdfs") || !strcmp(base, "huggingface-cli") ||
	           !strcmp(base, "make") || !strcmp(base, "mkdir") || !strcmp(base, "install")) {
		/* What these write: every argument of mkdir and touch, the last of
		 * cp, mv, rsync, scp, ln and install. */
		bool all = !strcmp(base, "mkdir") || !strcmp(base, "touch");
		bool last = !strcmp(base, "cp") || !strcmp(base, "mv") || !strcmp(base, "rsync") ||
		            !strcmp(base, "scp") || !strcmp(base, "ln") || !strcmp(base, "install");
		for (size_t k = w->size; (all || last) && k-- > i + 1;) {
			const char *s = w->items[k].value;
			if (s && s[0] == '-')
				continue;
			if (s && !strstr(s, "://"))
				write_at(sh, s, &w->items[k]);
			if (last)
				break;
		}
		/* Anything these name may be created here; a download without an
		 * explicit name creates the last component of its URL. */
		for (size_t k = i + 1; k < w->size; k++) {
			const char *s = w->items[k].value;
			if (!s) {
				sh->produced_unknown = sh->out->produced_unknown = true;
				continue;
			}
			if (s[0] == '-')
				continue;
			const char *slash = strstr(s, "://") ? strrchr(s, '/') : NULL;
			produce(sh, slash ? slash + 1 : s);
		}
		if (!strcmp(base, "tar") || !strcmp(base, "unzip") || !strcmp(base, "make"))
			/* archives and builds create what they hold */
			sh->produced_unknown = sh->out->produced_unknown = true;
	}
}

/* Assignments: `X=v`, `export X=v`, `declare -x X=v`, `local X=v`. */
/* Whether the assignment is `X+=...`. */
static bool appends(TSNode n)
{
	for (uint32_t i = 0; i < ts_node_child_count(n); i++)
		if (!strcmp(ts_node_type(ts_node_child(n, i)), "+="))
			return true;
	return false;
}

/* `X=(a b c)` and `X+=(d e)`: each element keeps its own place. */
static void array_assignment(shell *sh, const char *vname, TSNode value, bool append)
{
	var *v = find_var(sh, vname);
	if (!v || !v->is_array || !append) {
		v = set_var(sh, vname, NULL, false);
		v->is_array = true;
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(value); i++) {
		TSNode c = ts_node_named_child(value, i);
		if (!jf_node_type_is(c, "comment"))
			jf_array_push(&v->items, make_word(sh, c));
	}
}

static void assignment(shell *sh, TSNode n, bool exported)
{
	TSNode name = jf_node_field(n, "name");
	TSNode value = jf_node_field(n, "value");
	if (ts_node_is_null(name) || strcmp(ts_node_type(name), "variable_name"))
		return;
	char *vname = jf_node_text(sh->unit, name);
	bool append = appends(n);
	if (jf_node_type_is(value, "array")) {
		array_assignment(sh, vname, value, append);
		free(vname);
		return;
	}
	char *v = ts_node_is_null(value) ? jf_xstrdup("") : word_value(sh, value);
	if (append && v) { /* X+=" --amp": the old value and the new */
		bool unset;
		const char *old = lookup(sh, vname, &unset);
		char *joined = old || unset ? jf_xasprintf("%s%s", old ? old : "", v) : NULL;
		free(v);
		v = joined;
	}
	var *sv = set_var(sh, vname, v, exported);
	word at = place(sh, ts_node_is_null(value) ? n : value);
	sv->src = at.src;
	sv->span = at.span;
	free(vname);
	free(v);
}

/* A prefix assignment `X=v cmd` as the word "X=v" at its value; just "X"
 * when the value is not known. False for an array element. */
static bool prefix_assignment(shell *sh, TSNode n, word *out)
{
	TSNode name = jf_node_field(n, "name");
	TSNode value = jf_node_field(n, "value");
	if (!jf_node_type_is(name, "variable_name"))
		return false;
	*out = place(sh, ts_node_is_null(value) ? n : value);
	char *vname = jf_node_text(sh->unit, name);
	char *v = ts_node_is_null(value) ? jf_xstrdup("") : word_value(sh, value);
	out->value = v ? jf_xasprintf("%s=%s", vname, v) : jf_xstrdup(vname);
	free(vname);
	free(v);
	return true;
}

static void declaration(shell *sh, TSNode n)
{
	char *kw = jf_node_text(sh->unit, ts_node_child(n, 0));
	bool exported = jf_str_starts(kw, "export");
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		const char *t = ts_node_type(c);
		if (!strcmp(t, "variable_assignment")) {
			assignment(sh, c, exported);
		} else if (!strcmp(t, "variable_name") && exported) {
			char *vname = jf_node_text(sh->unit, c);
			var *v = find_var(sh, vname);
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
	bool quoted = jf_node_type_is(c, "string") && ts_node_named_child_count(c) == 1;
	if (quoted)
		e = ts_node_named_child(c, 0);
	TSNode sub = ts_node_named_child(e, 0);
	if (jf_node_type_is(e, "expansion") && jf_node_type_is(sub, "subscript") &&
	    ts_node_named_child_count(e) == 1) {
		TSNode name = jf_node_field(sub, "name"), index = jf_node_field(sub, "index");
		if (!jf_node_is(sh->unit, index, "@") && !jf_node_is(sh->unit, index, "*"))
			return false;
		char *vname = jf_node_text(sh->unit, name);
		var *v = find_var(sh, vname);
		free(vname);
		if (v && v->is_array) {
			copy_words(out, &v->items, 0, v->items.size);
		} else {
			word unknown = place(sh, c);
			jf_array_push(out, unknown);
		}
		return true;
	}
	if (quoted || (!jf_node_type_is(c, "simple_expansion") && !jf_node_type_is(c, "expansion")))
		return false;
	char *value = word_value(sh, c);
	if (!value)
		return false; /* one unknown word (it may stand for several) */
	for (char *p = value; *p;) {
		size_t blank = strspn(p, " \t\n");
		p += blank;
		size_t n = strcspn(p, " \t\n");
		if (!n)
			break;
		word part = place(sh, c);
		part.value = jf_xstrndup(p, n);
		jf_array_push(out, part);
		p += n;
	}
	free(value);
	return true;
}

/* Whether `n` is "$@" or $@ (also $*): all positional parameters. */
static bool is_all_args(shell *sh, TSNode n)
{
	if (jf_node_type_is(n, "string") && ts_node_named_child_count(n) == 1)
		n = ts_node_named_child(n, 0);
	if (!jf_node_type_is(n, "simple_expansion"))
		return false;
	TSNode name = ts_node_named_child(n, 0);
	return jf_node_type_is(name, "special_variable_name") &&
	       (jf_node_is(sh->unit, name, "@") || jf_node_is(sh->unit, name, "*"));
}

static void command(shell *sh, TSNode n)
{
	words w = { 0 }, env = { 0 };
	uint32_t count = ts_node_named_child_count(n);
	bool only_assignments = true;
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		const char *t = ts_node_type(c);
		word e;
		if (!strcmp(t, "variable_assignment") && prefix_assignment(sh, c, &e))
			jf_array_push(&env, e);
		if (!strcmp(t, "variable_assignment") || !strcmp(t, "file_redirect") ||
		    !strcmp(t, "herestring_redirect"))
			continue;
		if (!strcmp(t, "command_name"))
			c = ts_node_named_child(c, 0);
		only_assignments = false;
		if (is_all_args(sh, c)) {
			/* "$@": the caller's words, each where the caller wrote it. */
			if (sh->args_known) {
				copy_words(&w, &sh->args, 0, sh->args.size);
			} else {
				word unknown = make_word(sh, c);
				free(unknown.value);
				unknown.value = NULL;
				jf_array_push(&w, unknown);
			}
			continue;
		}
		if (splice_expansion(sh, c, &w))
			continue;
		jf_array_push(&w, make_word(sh, c));
	}
	/* Prefix assignments (`X=1 cmd`) apply to the command only. */
	words outer = sh->env;
	sh->env = env;
	if (!only_assignments && w.size)
		run_words(sh, &w, 0, n, NULL);
	words_release(&sh->env);
	sh->env = outer;
	words_release(&w);
}

static void redirect(shell *sh, TSNode n)
{
	TSNode dest = jf_node_field(n, "destination");
	if (ts_node_is_null(dest))
		return;
	char *op = jf_node_text(sh->unit, ts_node_child(n, 0));
	bool writes = strchr(op, '>') != NULL;
	free(op);
	if (!writes)
		return;
	char *v = word_value(sh, dest);
	produce(sh, v);
	if (v) {
		word at = place(sh, dest);
		write_at(sh, v, &at);
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
		if (ts_node_eq(c, left) || jf_node_type_is(c, "test_operator"))
			continue;
		char *v = jf_node_type_is(c, "extglob_pattern") ? jf_node_text(sh->unit, c)
		                                                : word_value(sh, c);
		if (!v) {
			jf_buf_release(&b);
			return NULL;
		}
		bool quoted = jf_node_type_is(c, "string") || jf_node_type_is(c, "raw_string");
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
	if (jf_node_type_is(cond, "list") && ts_node_named_child_count(cond) == 2 &&
	    ts_node_child_count(cond) == 3) {
		int a = eval_condition(sh, ts_node_named_child(cond, 0));
		int b = eval_condition(sh, ts_node_named_child(cond, 1));
		bool or = !strcmp(ts_node_type(ts_node_child(cond, 1)), "||");
		if (or)
			return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
		return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
	}
	if (!jf_node_type_is(cond, "test_command") || ts_node_named_child_count(cond) != 1)
		return -1;
	TSNode e = ts_node_named_child(cond, 0);
	TSNode op_node = jf_node_field(e, "operator");
	if (ts_node_is_null(op_node))
		return -1;
	char *op = jf_node_text(sh->unit, op_node);
	int r = -1;
	if (jf_node_type_is(e, "unary_expression") && ts_node_named_child_count(e) == 2 &&
	    (!strcmp(op, "-z") || !strcmp(op, "-n"))) {
		char *v = word_value(sh, ts_node_named_child(e, 1));
		if (v)
			r = !*v == !strcmp(op, "-z");
		free(v);
	} else if (jf_node_type_is(e, "binary_expression")) {
		TSNode left = jf_node_field(e, "left"), right = jf_node_field(e, "right");
		uint32_t parts = ts_node_named_child_count(e) - ts_node_is_named(op_node);
		char *l = word_value(sh, left);
		char *rv = parts == 2 ? word_value(sh, right) : NULL;
		long a, b;
		bool pattern = rv && strpbrk(rv, "*?[") && !jf_node_type_is(right, "string");
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
		else if (jf_node_type_is(c, "elif_clause") || jf_node_type_is(c, "else_clause"))
			jf_array_push(&branches, c);
		has_else |= jf_node_type_is(c, "else_clause");
	}
	var_list base = vars_copy(&sh->vars);
	char *base_cwd = sh->cwd ? jf_xstrdup(sh->cwd) : NULL;
	JF_ARRAY(var_list) outcomes = { 0 };
	JF_ARRAY(char *) cwds = { 0 };
	bool taken = false; /* a branch whose condition is known true: none after it runs */
	for (size_t b = 0; b <= branches.size && !taken; b++) {
		TSNode owner = b ? branches.items[b - 1] : n;
		int known = jf_node_type_is(owner, "else_clause")
		                    ? 1
		                    : eval_condition(sh, jf_node_field(owner, "condition"));
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
			if (!b && (jf_node_type_is(c, "elif_clause") || jf_node_type_is(c, "else_clause")))
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
	/* The merge: the first outcome, less what the others disagree with. (The
	 * shell still holds its state before the if when no branch was walked.) */
	vars_release(&sh->vars);
	free(sh->cwd);
	sh->vars = outcomes.items[0];
	for (size_t o = 1; o < outcomes.size; o++)
		for (size_t i = 0; i < outcomes.items[o].size; i++) {
			const var *v = &outcomes.items[o].items[i];
			if (!same_var(vars_find(&sh->vars, v->name), v)) {
				var *m = set_var(sh, v->name, NULL, v->exported);
				m->src = NULL;
			}
		}
	for (size_t i = 0; i < sh->vars.size; i++)
		for (size_t o = 1; o < outcomes.size; o++)
			if (!vars_find(&outcomes.items[o], sh->vars.items[i].name)) {
				var *m = &sh->vars.items[i];
				free(m->value);
				m->value = NULL; /* set in some outcomes only */
				m->is_array = false;
				jf_words_release(&m->items);
			}
	sh->cwd = cwds.items[0];
	for (size_t o = 1; o < cwds.size; o++) {
		if (!same_str(sh->cwd, cwds.items[o])) {
			free(sh->cwd);
			sh->cwd = NULL;
		}
		free(cwds.items[o]);
	}
	for (size_t o = 1; o < outcomes.size; o++)
		vars_release(&outcomes.items[o]);
	jf_array_release(&outcomes);
	jf_array_release(&cwds);
	jf_array_release(&branches);
	vars_release(&base);
	free(base_cwd);
}

static void walk(shell *sh, TSNode n)
{
	const char *t = ts_node_type(n);
	if (!strcmp(t, "command")) {
		for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
			TSNode c = ts_node_named_child(n, i);
			if (!strcmp(ts_node_type(c), "file_redirect"))
				redirect(sh, c);
		}
		command(sh, n);
		return;
	}
	if (!strcmp(t, "variable_assignment")) {
		assignment(sh, n, false);
		return;
	}
	if (!strcmp(t, "declaration_command")) {
		declaration(sh, n);
		return;
	}
	if (!strcmp(t, "file_redirect")) {
		redirect(sh, n);
		return;
	}
	if (!strcmp(t, "function_definition")) {
		sh->vars_uncertain = true; /* a call may set any variable */
		return;
	}
	if (!strcmp(t, "if_statement")) {
		walk_if(sh, n);
		return;
	}
	if (!strcmp(t, "heredoc_body") || !strcmp(t, "command_substitution") ||
	    !strcmp(t, "process_substitution"))
		return;
	if (!strcmp(t, "for_statement") || !strcmp(t, "c_style_for_statement")) {
		TSNode v = jf_node_field(n, "variable");
		if (jf_node_type_is(v, "variable_name")) {
			char *vname = jf_node_text(sh->unit, v);
			set_var(sh, vname, NULL, false);
			free(vname);
		} else {
			sh->vars_uncertain = true;
		}
	}
	bool scoped = !strcmp(t, "subshell");
	char *saved = scoped && sh->cwd ? jf_xstrdup(sh->cwd) : NULL;
	bool had_cwd = sh->cwd != NULL;
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++)
		walk(sh, ts_node_named_child(n, i));
	if (scoped) {
		free(sh->cwd);
		sh->cwd = had_cwd ? saved : NULL;
	}
}

/* One step of the job's command: a shell program parsed from the job file,
 * or an argv list run as one command. */
static void run_unit(shell *sh, const jf_job *job, const jf_cmd_unit *u)
{
	if (u->kind == JF_CMD_ARGV) {
		words w = { 0 };
		for (size_t i = 0; i < u->argv.size; i++) {
			const jf_field *f = &u->argv.items[i];
			word arg = { f->at.src, f->at.span, jf_xstrdup(f->value) };
			jf_array_push(&w, arg);
		}
		sh->argv_at = u->at;
		run_words(sh, &w, 0, (TSNode){ 0 }, NULL);
		words_release(&w);
		return;
	}
	jf_file *f = u->copy ? jf_workspace_add_text(sh->ws, u->copy, NULL, 0, JF_LANG_BASH,
	                                             JF_ROLE_COMMAND)
	                     : jf_workspace_add_text(sh->ws, job->file, u->ranges.items,
	                                             u->ranges.size, JF_LANG_BASH, JF_ROLE_COMMAND);
	if (!f)
		return;
	sh->unit = f;
	walk(sh, ts_tree_root_node(f->tree));
}

void jf_shell_run(jf_shell_facts *out, const jf_job *job, jf_workspace *ws,
                  const jf_shell_host *host)
{
	if (!job->command.size || !job->code_dir || !jf_path_is_dir(job->code_dir))
		return;
	shell top = { .job = job, .ws = ws, .out = out, .host = host };
	shell sh;
	shell_init(&sh, &top, NULL, jf_job_workdir(job), 0);
	sh.args_known = true; /* the command itself gets no arguments */
	for (size_t i = 0; i < job->env.size; i++) {
		const jf_job_var *e = &job->env.items[i];
		var *v = set_var(&sh, e->name.value, e->value.value, true);
		v->src = e->value.at.src;
		v->span = e->value.at.span;
	}
	for (size_t i = 0; i < job->command.size; i++)
		run_unit(&sh, job, &job->command.items[i]);
	shell_release(&sh);
}

void jf_words_release(jf_words *w)
{
	for (size_t i = 0; i < w->size; i++)
		free(w->items[i].value);
	jf_array_release(w);
}

bool jf_word_passes(const char *s, const char *opt)
{
	const char *eq = strchr(s, '=');
	size_t n = eq ? (size_t)(eq - s) : strlen(s);
	if (n < 2 || s[0] != '-')
		return false;
	if (n == strlen(opt))
		return !strncmp(s, opt, n);
	return s[1] == '-' && n > 2 && n < strlen(opt) && !strncmp(s, opt, n);
}

bool jf_shell_installs(const jf_shell_facts *self, const char *dist)
{
	for (size_t i = 0; i < self->installed.size; i++) {
		const char *s = self->installed.items[i];
		if (jf_dist_name_eq(s, strlen(s), dist))
			return true;
	}
	return false;
}

void jf_shell_facts_release(jf_shell_facts *self)
{
	jf_array_release(&self->pip_installs);
	for (size_t i = 0; i < self->invocations.size; i++) {
		jf_invocation *inv = &self->invocations.items[i];
		free(inv->script.value);
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
	jf_strings_release(&self->produced);
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
	memset(self, 0, sizeof(*self));
}
