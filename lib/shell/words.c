/* words.c - shell words to values: expansions, quoting, the places of words
 *
 * A word's value is known when every part is: literals, variables with known
 * values, ${X:-default}, $0 and ${BASH_SOURCE[0]}, and the three command
 * substitutions launch scripts use to find their own folder. Globs, `~` and
 * anything a program prints are unknown.
 */
#include <stdarg.h>

#include "core/path.h"
#include "shell/internal.h"

static bool expand(shell *sh, TSNode n, jf_buf *out);

/* Words */


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
	if (jf_node_type_is(e, JF_T_expansion) && ts_node_named_child_count(e) > 1)
		return; /* ${X%suffix}, ${X/a/b}: still a use, but rare; left alone */
	TSNode next = ts_node_next_sibling(e);
	bool path = jf_node_type_is(ts_node_parent(e), JF_T_concatenation) && !ts_node_is_null(next) &&
	            sh->unit->src->data[ts_node_start_byte(next)] == '/';
	if (sh->vars_uncertain || (!sh->nounset && !path) || jf_str_in(name, bash_vars) ||
	    (name[0] >= '0' && name[0] <= '9'))
		return;
	word at = jf_shell__place(sh, e);
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

/*
 * $SLURM_SUBMIT_DIR and $PBS_O_WORKDIR, which the job does not set: the
 * folder the batch script is submitted from, which sbatch and qsub set. It
 * is taken as the folder the script started in: for a batch script that is
 * the job, the folder its reader placed the code in (its own folder, or the
 * one above it that holds the scripts it runs); for a launch script, the
 * folder its caller ran it from. Said for --verbose.
 */
static const char *submit_dir(shell *sh, TSNode name_node, const char *name)
{
	if ((strcmp(name, "SLURM_SUBMIT_DIR") && strcmp(name, "PBS_O_WORKDIR")) || !sh->start_cwd)
		return NULL;
	word at = jf_shell__place(sh, ts_node_parent(name_node));
	char *shown = jf_shell__shown(sh, sh->start_cwd);
	bool batch = !sh->depth && !sh->job->workdir.value && sh->job->platform.value &&
	             !strcmp(sh->job->platform.value, "slurm");
	jf_shell__assume(sh, &at, "$%s taken as '%s', the folder the script is submitted from: %s",
	                 name, shown,
	                 sh->depth ? "the folder the command that runs the script is in"
	                 : batch   ? "of the script's own folder and those above it, the one that "
	                             "holds the scripts it runs"
	                           : "the folder the job's command starts in");
	free(shown);
	return sh->start_cwd;
}

static bool expand_name(shell *sh, TSNode name_node, jf_buf *out)
{
	if (jf_node_is(sh->unit, name_node, "0"))
		return expand_script_path(sh, out);
	char *name = jf_node_text(sh->unit, name_node);
	bool unset;
	const char *v = jf_shell__lookup(sh, name, &unset);
	if (unset && (v = submit_dir(sh, name_node, name)) != NULL)
		unset = false;
	if (unset)
		note_unset(sh, name_node, name);
	/* bash expands to nothing a positional parameter the caller did not
	 * pass (the caller's words are known when *unset is), and a variable
	 * that is surely unset */
	bool positional = name[0] >= '0' && name[0] <= '9';
	if (unset && (positional || (!jf_str_in(name, bash_vars) && jf_shell__surely_unset(sh, name))))
		v = "";
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
	TSNode op = jf_node_field(n, JF_F_operator);
	if (jf_node_type_is(name, JF_T_subscript) && ts_node_named_child_count(n) == 1 &&
	    jf_node_is(sh->unit, jf_node_field(name, JF_F_name), "BASH_SOURCE") &&
	    jf_node_is(sh->unit, jf_node_field(name, JF_F_index), "0"))
		return expand_script_path(sh, out);
	if (ts_node_is_null(name) || !jf_node_type_is(name, JF_T_variable_name))
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
	const char *v = jf_shell__lookup(sh, vname, &unset);
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
				jf_shell__set_var(sh, vname, d.buf, false);
		}
		jf_buf_release(&d);
	}
	free(vname);
	return ok;
}


/* The words of simple command `cmd` (its name first) as values; false when one is unknown. */
static bool command_words(shell *sh, TSNode cmd, jf_strings *words_out)
{
	if (!jf_node_type_is(cmd, JF_T_command))
		return false;
	for (uint32_t i = 0; i < ts_node_named_child_count(cmd); i++) {
		TSNode c = ts_node_named_child(cmd, i);
		if (jf_node_type_is(c, JF_T_command_name))
			c = ts_node_named_child(c, 0);
		else if (jf_node_type_is(c, JF_T_variable_assignment) ||
		         strstr(ts_node_type(c), "redirect"))
			return false;
		char *v = jf_shell__word_value(sh, c);
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
	jf_strings a = { 0 }, b = { 0 };
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
	} else if (jf_node_type_is(body, JF_T_list) && ts_node_named_child_count(body) == 2 &&
	           command_words(sh, ts_node_named_child(body, 0), &a) &&
	           command_words(sh, ts_node_named_child(body, 1), &b) && a.size == 2 &&
	           !strcmp(a.items[0], "cd") && b.size == 1 && !strcmp(b.items[0], "pwd")) {
		char *p = jf_shell__container_path(sh, a.items[1]);
		if (p) {
			jf_buf_adds(out, p);
			free(p);
			ok = true;
		}
	}
	jf_strings_release(&a);
	jf_strings_release(&b);
	return ok;
}

/* Whether `n` is "$@" or $@ (also $*): all positional parameters. */
bool jf_shell__all_args(shell *sh, TSNode n)
{
	if (jf_node_type_is(n, JF_T_string) && ts_node_named_child_count(n) == 1)
		n = ts_node_named_child(n, 0);
	if (!jf_node_type_is(n, JF_T_simple_expansion))
		return false;
	TSNode name = ts_node_named_child(n, 0);
	return jf_node_type_is(name, JF_T_special_variable_name) &&
	       (jf_node_is(sh->unit, name, "@") || jf_node_is(sh->unit, name, "*"));
}

/* Whether `n` is a slice of the positional parameters, "${@:N}" or
 * "${@:N:L}" (N >= 1), with its first index into them and its length
 * (SIZE_MAX: to the end). */
bool jf_shell__args_slice(shell *sh, TSNode n, size_t *from, size_t *len)
{
	if (jf_node_type_is(n, JF_T_string) && ts_node_named_child_count(n) == 1)
		n = ts_node_named_child(n, 0);
	uint32_t parts = ts_node_named_child_count(n);
	if (!jf_node_type_is(n, JF_T_expansion) || parts < 2 || parts > 3)
		return false;
	TSNode name = ts_node_named_child(n, 0);
	if (!jf_node_type_is(name, JF_T_special_variable_name) ||
	    !(jf_node_is(sh->unit, name, "@") || jf_node_is(sh->unit, name, "*")) ||
	    sh->unit->src->data[ts_node_end_byte(name)] != ':')
		return false;
	long v[2] = { 0, -1 };
	for (uint32_t i = 1; i < parts; i++) {
		TSNode num = ts_node_named_child(n, i);
		char *text = jf_node_text(sh->unit, num);
		char *end;
		v[i - 1] = jf_node_type_is(num, JF_T_number) ? strtol(text, &end, 10) : -1;
		bool ok = jf_node_type_is(num, JF_T_number) && !*end && v[i - 1] >= 0;
		free(text);
		if (!ok)
			return false;
	}
	if (v[0] < 1)
		return false; /* ${@:0} starts with $0 */
	*from = (size_t)v[0] - 1;
	*len = parts == 3 ? (size_t)v[1] : SIZE_MAX;
	return true;
}

/* The positional parameters from `from` (at most `len` of them), joined by
 * blanks as "$*" or an assignment X=$@ joins them; false when one is not known. */
static bool expand_args(shell *sh, size_t from, size_t len, jf_buf *out)
{
	if (!sh->args_known)
		return false;
	for (size_t i = from, k = 0; i < sh->args.size && k < len; i++, k++) {
		if (!sh->args.items[i].value)
			return false;
		if (k)
			jf_buf_addc(out, ' ');
		jf_buf_adds(out, sh->args.items[i].value);
	}
	return true;
}

/* Appends the value of word `n` to `out`; false when it is not known. */
static bool expand(shell *sh, TSNode n, jf_buf *out)
{
	jf_type t = jf_node_type(n);
	size_t from, len;
	if ((t == JF_T_simple_expansion || t == JF_T_expansion) && jf_shell__all_args(sh, n))
		return expand_args(sh, 0, SIZE_MAX, out);
	if (t == JF_T_expansion && jf_shell__args_slice(sh, n, &from, &len))
		return expand_args(sh, from, len, out);
	const char *src = sh->unit->src->data;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	if (t == JF_T_word || t == JF_T_number || t == JF_T_string_content) {
		/* In double quotes nothing globs, and a backslash escapes only $ ` " \ */
		bool quoted = t == JF_T_string_content;
		for (uint32_t i = a; i < b; i++) {
			char c = src[i];
			if (!quoted && (c == '*' || c == '?' || c == '[' || (c == '~' && i == a)))
				return false; /* globs and ~ expand at run time */
			if (c == '\\' && i + 1 < b && (!quoted || strchr("$`\"\\\n", src[i + 1])))
				c = src[++i];
			jf_buf_addc(out, c);
		}
		return true;
	}
	if (t == JF_T_raw_string) {
		if (b - a >= 2)
			jf_buf_add(out, src + a + 1, b - a - 2);
		return true;
	}
	if (t == JF_T_string) {
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
	if (t == JF_T_concatenation)
		return expand_children(sh, n, out);
	if (t == JF_T_simple_expansion) {
		TSNode name = ts_node_named_child(n, 0);
		return !ts_node_is_null(name) && jf_node_type_is(name, JF_T_variable_name) &&
		       expand_name(sh, name, out);
	}
	if (t == JF_T_expansion)
		return expand_braces(sh, n, out);
	if (t == JF_T_command_substitution)
		return expand_substitution(sh, n, out);
	return false;
}

/* The value of a word as a new string, or NULL when unknown. */
char *jf_shell__word_value(shell *sh, TSNode n)
{
	jf_buf b = JF_BUF_INIT;
	if (!expand(sh, n, &b)) {
		jf_buf_release(&b);
		return NULL;
	}
	return jf_buf_detach(&b, NULL);
}

/* Where findings about node `n` of the unit belong, as a word without a value. */
word jf_shell__place(shell *sh, TSNode n)
{
	word w = { sh->unit->src, jf_node_span(n), NULL };
	/* A copy of a value: at the value. A rewritten copy of a file keeps its
	 * own text for the shell's reading; diagnostics show the file's. */
	if (sh->unit->src->origin && !sh->unit->src->same_offsets) {
		w.src = sh->unit->src->origin;
		w.span = sh->unit->src->origin_span;
	}
	return w;
}

static void note_at(jf_strings *to, const word *at, const char *fmt, va_list ap)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_vaddf(&b, fmt, ap);
	char *line = jf_xasprintf("%s:%u: %s", at->src->path,
	                          jf_source_line_of(at->src, at->span.start) + 1, b.buf);
	if (jf_strings_have(to, line))
		free(line); /* a word walked again (a function called twice) */
	else
		jf_array_push(to, line);
	jf_buf_release(&b);
}

void jf_shell__not_followed(shell *sh, const word *at, const char *fmt, ...)
{
	if (!at->src)
		return;
	va_list ap;
	va_start(ap, fmt);
	note_at(&sh->out->not_followed, at, fmt, ap);
	va_end(ap);
}

void jf_shell__assume(shell *sh, const word *at, const char *fmt, ...)
{
	if (!at->src)
		return;
	va_list ap;
	va_start(ap, fmt);
	note_at(&sh->out->assumed, at, fmt, ap);
	va_end(ap);
}

char *jf_shell__shown(const shell *sh, const char *cpath)
{
	const char *rel = jf_path_under(cpath, jf_job_workdir(sh->job));
	if (!rel || !sh->job->code_display || sh->job->workdir.value)
		return jf_xstrdup(cpath);
	return jf_path_join(sh->job->code_display, rel);
}

/* A word of the unit at node `n`, placed where findings about it belong. */
word jf_shell__make_word(shell *sh, TSNode n)
{
	word w = jf_shell__place(sh, n);
	w.value = jf_shell__word_value(sh, n);
	return w;
}

word jf_shell__copy_word(const word *w)
{
	word c = *w;
	c.value = w->value ? jf_xstrdup(w->value) : NULL;
	return c;
}

/* Copies w[from, to) onto the end of `out`. */
void jf_shell__copy_words(words *out, const words *w, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < w->size; i++)
		jf_array_push(out, jf_shell__copy_word(&w->items[i]));
}

bool jf_shell__word_is(const words *w, size_t i, const char *s)
{
	return i < w->size && w->items[i].value && !strcmp(w->items[i].value, s);
}

bool jf_shell__word_starts(const words *w, size_t i, const char *s)
{
	return i < w->size && w->items[i].value && jf_str_starts(w->items[i].value, s);
}

/* The last path component of the word, or "" when unknown. */
const char *jf_shell__word_base(const words *w, size_t i)
{
	if (i >= w->size || !w->items[i].value)
		return "";
	const char *s = strrchr(w->items[i].value, '/');
	return s ? s + 1 : w->items[i].value;
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

