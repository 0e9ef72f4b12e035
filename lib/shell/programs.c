/* programs.c - what the programs a command runs do, as far as the job's facts go
 *
 * One table: the shell's own commands (set, cd, shift, source), shells,
 * package managers, and the programs that create files (git clone,
 * downloads, copies, archives). Wrappers that run the rest of the line (env,
 * exec, nohup, timeout, ...) are read first; interpreters and launchers are
 * launchers.c's. A program in neither changes nothing jobfix follows.
 */
#include "core/path.h"
#include "shell/internal.h"

/* What the program at word i of `w` does; `outer` is the mpirun or horovodrun
 * that runs it, or NULL. */
typedef void program_fn(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer);

static void record_exec(shell *sh, const words *w, size_t i)
{
	jf_exec_fact f = { jf_shell__copy_word(&w->items[i]), NULL };
	if (i + 1 < w->size && w->items[i + 1].value)
		f.arg = jf_xstrdup(w->items[i + 1].value);
	jf_array_push(&sh->out->execs, f);
}

/* `set -u`, `set -o nounset`, and their `+` forms. */
static void run_set(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	for (size_t k = i + 1; k < w->size && w->items[k].value; k++) {
		const char *s = w->items[k].value;
		bool on = s[0] == '-';
		if ((s[0] == '-' || s[0] == '+') && s[1] != '-' && s[1] != 'o' && strchr(s, 'u'))
			sh->nounset = on;
		else if ((!strcmp(s, "-o") || !strcmp(s, "+o")) && jf_shell__word_is(w, k + 1, "nounset"))
			sh->nounset = on;
	}
}

/* read, getopts, mapfile, let, `printf -v`: they set variables jobfix cannot see. */
static void run_setter(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	const char *name = w->items[i].value;
	sh->vars_uncertain |= strcmp(name, "printf") || jf_shell__word_is(w, i + 1, "-v");
}

/* The folders `pushd` left for `popd`, oldest first, one a line, as a
 * variable no script can name: merged across branches as variables are. */
#define DIRSTACK "\001dirstack"

/* The working folder becomes `dir` (NULL: unknown); $OLDPWD the one before. */
static void change_dir(shell *sh, char *dir)
{
	var *old = jf_shell__set_var(sh, "OLDPWD", sh->cwd, false);
	old->src = NULL;
	free(sh->cwd);
	sh->cwd = dir;
}

/* `cd [-L|-P] DIR`, `cd -` (back to $OLDPWD), `pushd DIR`. */
static void run_cd(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	bool push = jf_shell__word_is(w, i, "pushd");
	char *dir = NULL;
	while (++i < w->size && (jf_shell__word_is(w, i, "-P") || jf_shell__word_is(w, i, "-L")))
		;
	if (i < w->size && jf_shell__word_is(w, i, "-") && !push) {
		bool unset;
		const char *back = jf_shell__lookup(sh, "OLDPWD", &unset);
		if (unset)
			return; /* bash: "cd: OLDPWD not set", and stays */
		dir = back ? jf_xstrdup(back) : NULL;
	} else if (i < w->size && w->items[i].value && w->items[i].value[0] != '-' &&
	           w->items[i].value[0] != '+') {
		dir = jf_shell__container_path(sh, w->items[i].value);
	}
	if (push) {
		bool unset;
		const char *stack = jf_shell__lookup(sh, DIRSTACK, &unset);
		char *pushed = !sh->cwd || (!unset && !stack) ? NULL
		               : unset                        ? jf_xstrdup(sh->cwd)
		                                              : jf_xasprintf("%s\n%s", stack, sh->cwd);
		jf_shell__set_var(sh, DIRSTACK, pushed, false);
		free(pushed);
	}
	change_dir(sh, dir);
}

/* `popd`: back to the folder the last `pushd` left. */
static void run_popd(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	bool unset;
	const char *stack = jf_shell__lookup(sh, DIRSTACK, &unset);
	if (unset || (stack && !*stack))
		return; /* bash: "popd: directory stack empty" */
	if (!stack || i + 1 < w->size) {
		/* an unknown stack, or `popd +N`: the folder is not known */
		jf_shell__set_var(sh, DIRSTACK, NULL, false);
		change_dir(sh, NULL);
		return;
	}
	const char *nl = strrchr(stack, '\n');
	char *dir = jf_xstrdup(nl ? nl + 1 : stack);
	char *rest = jf_xstrndup(stack, nl ? (size_t)(nl - stack) : 0);
	jf_shell__set_var(sh, DIRSTACK, rest, false);
	free(rest);
	change_dir(sh, dir);
}

/* `shift [n]`: drops the first n positional parameters. */
static void run_shift(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	i++;
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

/* `source FILE` and `. FILE`: a launch script run in this shell, or a virtualenv. */
static void run_source(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	/* A file outside the code folder may set any variable. */
	char *cpath = i + 1 < w->size && w->items[i + 1].value
	                      ? jf_shell__container_path(sh, w->items[i + 1].value)
	                      : NULL;
	if (!cpath || !jf_path_under(cpath, jf_job_workdir(sh->job)))
		sh->vars_uncertain = true;
	free(cpath);
	if (jf_str_ends(jf_shell__word_base(w, i + 1), "activate") ||
	    jf_shell__word_is(w, i + 1, "activate"))
		sh->venv = sh->vars_uncertain = true;
	else if (i + 1 < w->size)
		jf_shell__script(sh, w, i + 1, SCRIPT_SHELL, true, NULL);
}

/* `conda activate` (and mamba's): an environment of its own; `conda install`. */
static void run_conda(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	if (jf_shell__word_is(w, i + 1, "activate"))
		sh->venv = sh->vars_uncertain = true;
	else if (jf_shell__word_is(w, i + 1, "install"))
		jf_shell__install_words(sh, w, i + 2, false);
}

/* Whether `value`, written at `span` of `src`, stands there as it is (bare,
 * or between one pair of quotes); *inner is where. */
static bool written_as_is(const jf_source *src, jf_span span, const char *value, jf_span *inner)
{
	if (!src || span.end > src->len || span.end < span.start)
		return false;
	const char *raw = src->data + span.start;
	size_t n = span.end - span.start, len = strlen(value);
	*inner = span;
	if (n == len + 2 && (raw[0] == '\'' || raw[0] == '"') && raw[n - 1] == raw[0])
		*inner = (jf_span){ span.start + 1, span.end - 1 };
	return inner->end - inner->start == len && !memcmp(src->data + inner->start, value, len);
}

/* `bash -c TEXT [NAME ARGS...]`, TEXT at word k: a program of its own, run
 * in a child shell with ARGS as $1..., when the word's text in its file is
 * exactly what bash runs (between one pair of quotes, or bare): its
 * findings are then at their place in that file. Anything the outer shell
 * expands or unquotes is not followed. */
static void run_shell_text(shell *sh, words *w, size_t k)
{
	const word *t = &w->items[k];
	if (!t->src || t->span.end > t->src->len)
		return;
	if (sh->depth >= MAX_SCRIPT_DEPTH) {
		jf_shell__not_followed(sh, t, "the text of `bash -c` is not followed: launch scripts "
		                              "run one another deeper than %d levels",
		                       MAX_SCRIPT_DEPTH);
		return;
	}
	if (!t->value) {
		jf_shell__not_followed(sh, t, "`bash -c` runs a text known only at run time: the "
		                              "commands in it are not followed");
		return;
	}
	jf_span inner;
	if (!written_as_is(t->src, t->span, t->value, &inner)) {
		jf_shell__not_followed(sh, t, "`bash -c` runs a text the shell around it expands or "
		                              "unquotes first: the commands in it are not followed");
		return;
	}
	jf_file *u = jf_workspace_add_text(sh->ws, t->src, &inner, 1, JF_LANG_BASH, JF_ROLE_COMMAND);
	if (u)
		jf_shell__run_launch_script(sh, u, false, w, k + 2 < w->size ? k + 2 : w->size);
}

/*
 * `eval WORDS`: the words, joined by blanks, run in this shell when every one
 * is known. `eval "$cmd"` of a variable whose value its assignment writes as
 * it is is read in place; any other text is a copy whose findings are
 * reported at the value it came from (the assignment), or at the eval.
 */
static void run_eval(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	if (i + 1 >= w->size)
		return;
	const word *first = &w->items[i + 1], *last = &w->items[w->size - 1];
	jf_buf text = JF_BUF_INIT;
	bool known = true;
	for (size_t k = i + 1; k < w->size && known; k++) {
		known = w->items[k].value != NULL;
		if (known)
			jf_buf_addf(&text, "%s%s", k > i + 1 ? " " : "", w->items[k].value);
	}
	if (!known || !first->src || sh->depth >= MAX_SCRIPT_DEPTH) {
		sh->vars_uncertain = true;
		if (known)
			jf_shell__not_followed(sh, first, "the text of `eval` is not followed: launch "
			                                  "scripts run one another deeper than %d levels",
			                       MAX_SCRIPT_DEPTH);
		else
			jf_shell__not_followed(sh, first, "`eval` runs a text known only at run time: "
			                                  "the commands in it are not followed");
		jf_buf_release(&text);
		return;
	}
	/* The variable that one word expands (split into several when unquoted),
	 * and where it was set. */
	const var *v = NULL;
	if (first->src == last->src && first->span.start == last->span.start &&
	    first->span.end == last->span.end) {
		char *raw = jf_xstrndup(first->src->data + first->span.start,
		                        first->span.end - first->span.start);
		char *name = raw + strspn(raw, "\"$");
		name += *name == '{';
		name[strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")] = '\0';
		v = *name && raw[strspn(raw, "\"")] == '$' ? jf_shell__find_var(sh, name) : NULL;
		free(raw);
	}
	jf_span inner;
	jf_file *u;
	if (v && v->src && v->value && written_as_is(v->src, v->span, text.buf, &inner)) {
		u = jf_workspace_add_text(sh->ws, v->src, &inner, 1, JF_LANG_BASH, JF_ROLE_COMMAND);
	} else {
		jf_span at = v && v->src ? v->span : (jf_span){ first->span.start, last->span.end };
		if (!(v && v->src) && last->src != first->src)
			at = first->span;
		jf_source *copy = jf_source_from_value(v && v->src ? v->src : first->src, at, text.buf,
		                                       text.len);
		jf_array_push(&sh->ws->sources, copy);
		u = jf_workspace_add_text(sh->ws, copy, NULL, 0, JF_LANG_BASH, JF_ROLE_COMMAND);
	}
	jf_buf_release(&text);
	if (u)
		jf_shell__run_launch_script(sh, u, true, w, w->size);
	else
		sh->vars_uncertain = true;
}

/* `bash script.sh ARGS`: a launch script in a child shell; `bash -c TEXT`. */
static void run_shell(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	size_t k = i + 1;
	for (; k < w->size && jf_shell__word_starts(w, k, "-"); k++) {
		const char *o = w->items[k].value;
		/* -c, alone or among short options (`bash -lc TEXT`) */
		bool dash_c = o && o[1] != '-' && strchr(o, 'c') &&
		              strspn(o + 1, "abcefhiklmnprsuvxBCEHPT") == strlen(o + 1);
		if (dash_c && k + 1 < w->size)
			run_shell_text(sh, w, k + 1);
		if (dash_c || jf_shell__word_is(w, k, "-s"))
			return;
	}
	if (k < w->size)
		jf_shell__script(sh, w, k, SCRIPT_SHELL, false, NULL);
}

/* `pip install ...` (and pip3, pip3.10, a path to pip). */
static void run_pip(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)outer;
	if (jf_shell__word_is(w, i + 1, "install")) {
		jf_shell__install_words(sh, w, i + 2, true);
		jf_shell__pip_install(sh, w, i + 2, cmd, strchr(w->items[i].value, '/') != NULL);
	}
}

/* `uv pip install ...`: uv's pip interface installs as pip does (into the
 * active environment, or the system's with --system). */
static void run_uv(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	if (jf_shell__word_is(w, i + 1, "pip") && jf_shell__word_is(w, i + 2, "install"))
		jf_shell__install_words(sh, w, i + 3, true);
}

/* `mim install ...`: OpenMMLab's installer passes its words to pip (it
 * only picks the index of a prebuilt mmcv). */
static void run_mim(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	if (jf_shell__word_is(w, i + 1, "install"))
		jf_shell__install_words(sh, w, i + 2, true);
}

/* `git clone URL [DIR]`: the folder it makes. */
static void run_git(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	if (!jf_shell__word_is(w, i + 1, "clone"))
		return;
	size_t pos = 0;
	const char *dir = NULL, *url = NULL;
	for (size_t k = i + 2; k < w->size; k++) {
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
		jf_shell__produce(sh, dir);
	} else if (url) {
		const char *slash = strrchr(url, '/');
		char *repo = jf_xstrdup(slash ? slash + 1 : url);
		if (jf_str_ends(repo, ".git"))
			repo[strlen(repo) - 4] = '\0';
		jf_shell__produce(sh, repo);
		free(repo);
	}
}

/* Programs that create files: downloads, copies, archives, builds. */
static void run_producer(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	(void)cmd;
	(void)outer;
	const char *base = jf_shell__word_base(w, i);
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
			jf_shell__write_at(sh, s, &w->items[k]);
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
		jf_shell__produce(sh, slash ? slash + 1 : s);
	}
	if (!strcmp(base, "tar") || !strcmp(base, "unzip") || !strcmp(base, "make"))
		/* archives and builds create what they hold */
		sh->produced_unknown = sh->out->produced_unknown = true;
}

/* The programs, by the command's word as written (`exact`) or its last
 * path component. Names are unique in the table. */
static const struct program {
	const char *name;
	bool exact;
	program_fn *run;
} programs[] = {
	{ "set", true, run_set },
	{ "read", true, run_setter },
	{ "eval", true, run_eval },
	{ "getopts", true, run_setter },
	{ "mapfile", true, run_setter },
	{ "readarray", true, run_setter },
	{ "printf", true, run_setter },
	{ "let", true, run_setter },
	{ "cd", true, run_cd },
	{ "pushd", true, run_cd },
	{ "popd", true, run_popd },
	{ "shift", true, run_shift },
	{ "source", true, run_source },
	{ ".", true, run_source },
	{ "conda", false, run_conda },
	{ "mamba", false, run_conda },
	{ "micromamba", false, run_conda },
	{ "bash", true, run_shell },
	{ "sh", true, run_shell },
	{ "zsh", true, run_shell },
	{ "dash", true, run_shell },
	{ "/bin/bash", true, run_shell },
	{ "/bin/sh", true, run_shell },
	{ "pip", false, run_pip },
	{ "pip3", false, run_pip },
	{ "uv", false, run_uv },
	{ "mim", false, run_mim },
	{ "git", true, run_git },
	{ "wget", false, run_producer },
	{ "curl", false, run_producer },
	{ "aws", false, run_producer },
	{ "gsutil", false, run_producer },
	{ "azcopy", false, run_producer },
	{ "rsync", false, run_producer },
	{ "scp", false, run_producer },
	{ "cp", false, run_producer },
	{ "mv", false, run_producer },
	{ "ln", false, run_producer },
	{ "tar", false, run_producer },
	{ "unzip", false, run_producer },
	{ "touch", false, run_producer },
	{ "hdfs", false, run_producer },
	{ "huggingface-cli", false, run_producer },
	{ "make", false, run_producer },
	{ "mkdir", false, run_producer },
	{ "install", false, run_producer },
};

/* What the program named by word i is, by its name; NULL when jobfix knows nothing of it. */
static program_fn *program_of(const words *w, size_t i)
{
	const char *name = w->items[i].value, *base = jf_shell__word_base(w, i);
	for (size_t k = 0; k < sizeof programs / sizeof *programs; k++)
		if (!strcmp(programs[k].exact ? name : base, programs[k].name))
			return programs[k].run;
	if (jf_str_starts(base, "pip3."))
		return run_pip;
	return NULL;
}

/* Skips the wrappers that run the rest of the line (exec, env X=1, timeout 10,
 * ...); returns the index of the program they run, or w->size when the rest
 * is not followed (an unknown word, sudo). */
static size_t unwrap(shell *sh, words *w, size_t i)
{
	while (i < w->size) {
		const char *name = w->items[i].value;
		if (!name)
			return w->size;
		if (!strcmp(name, "exec") || !strcmp(name, "nohup") || !strcmp(name, "time") ||
		    !strcmp(name, "command")) {
			i++;
		} else if (!strcmp(name, "env")) {
			for (i++; i < w->size && w->items[i].value &&
			          (w->items[i].value[0] == '-' || strchr(w->items[i].value, '='));
			     i++)
				if (w->items[i].value[0] != '-')
					jf_array_push(&sh->env, jf_shell__copy_word(&w->items[i]));
		} else if (!strcmp(name, "stdbuf")) {
			for (i++; i < w->size && jf_shell__word_starts(w, i, "-");)
				i++;
		} else if (!strcmp(name, "timeout")) {
			for (i++; i < w->size && jf_shell__word_starts(w, i, "-");)
				i++;
			i++; /* the duration */
		} else if ((!strcmp(name, "singularity") || !strcmp(name, "apptainer")) &&
		           jf_shell__word_is(w, i + 1, "exec")) {
			/* `singularity exec [options] IMAGE program...`: the program runs in the
			 * same folder with the same variables, unless an option says otherwise */
			static const char *const flags[] = { "--nv", "--nvccli", "--rocm", "-w",
				                             "--writable", "--writable-tmpfs", "-f",
				                             "--fakeroot", "--no-home", "-u", "--userns",
				                             "--no-init", "--no-privs", "--keep-privs",
				                             "--disable-cache", "--no-https", "-i", "--ipc",
				                             "-p", "--pid", "--no-eval", "--no-umask",
				                             "--uts", "-s", "--silent", "-q", "--quiet",
				                             "-d", "--debug", "-v", "--verbose", NULL };
			static const char *const others[] = { "--pwd", "-e", "--cleanenv", "-c",
				                              "--contain", "-C", "--containall", "--env",
				                              "--env-file", "--compat", "--app", NULL };
			size_t at = i;
			for (i += 2; i < w->size && jf_shell__word_starts(w, i, "-");) {
				const char *o = w->items[i].value;
				char *opt = jf_xstrndup(o, strcspn(o, "="));
				bool other = jf_str_in(opt, others), flag = jf_str_in(opt, flags);
				free(opt);
				if (other) {
					record_exec(sh, w, at);
					return w->size; /* another folder or other variables */
				}
				i += flag || strchr(o, '=') ? 1 : 2;
			}
			i++; /* the image */
		} else if (!strcmp(name, "sudo")) {
			record_exec(sh, w, i);
			return w->size; /* runs as root: nothing the rules here can say */
		} else {
			break;
		}
	}
	return i;
}

/* bash's builtins that are no program of the image (echo, test, kill and
 * the like are run by bash itself too). */
static bool is_builtin(const char *name)
{
	static const char *const builtins[] = {
		":", "true", "false", "break", "continue", "return", "exit", "logout", "local",
		"declare", "typeset", "readonly", "export", "unset", "shopt", "set", "shift",
		"trap", "wait", "ulimit", "umask", "alias", "unalias", "hash", "type", "builtin",
		"caller", "enable", "help", "history", "jobs", "fg", "bg", "disown", "suspend",
		"times", "complete", "compgen", "compopt", "fc", "bind", "dirs", "popd", "pushd",
		"cd", "pwd", "echo", "printf", "test", "[", "[[", "kill", "read", "readarray",
		"mapfile", "getopts", "let", "eval", "source", ".", NULL,
	};
	return jf_str_in(name, builtins);
}

void jf_shell__run_words(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	i = unwrap(sh, w, i);
	if (i >= w->size || !w->items[i].value)
		return;
	const char *name = w->items[i].value;
	bool local_script = strchr(name, '/') && (jf_str_ends(name, ".sh") || jf_str_ends(name, ".py"));
	/* A program of the image: not bash itself, nor a script of the code
	 * (followed, or JF102's when it is missing). */
	if (!is_builtin(name) && !local_script)
		record_exec(sh, w, i);
	program_fn *run = program_of(w, i);
	if (run) {
		run(sh, w, i, cmd, outer);
	} else if (strchr(name, '/') && jf_str_ends(name, ".sh")) {
		jf_shell__script(sh, w, i, SCRIPT_EXEC, false, NULL);
	} else if (strchr(name, '/') && jf_str_ends(name, ".py")) {
		launch how = jf_shell__launch_of("script", i + 1, outer);
		jf_shell__script(sh, w, i, SCRIPT_PYTHON, false, &how);
	} else if (jf_shell__is_python(name)) {
		jf_shell__python(sh, w, i, cmd, outer);
	} else if (!jf_shell__launcher(sh, w, i, cmd, outer)) {
		/* `poetry install`, `pipenv install`, `pdm install`: an installer
		 * jobfix does not know may install any package */
		if (jf_shell__word_is(w, i + 1, "install"))
			jf_shell__installs_unknown(sh, jf_xasprintf("the job runs '%s install', an installer "
			                                            "jobfix does not know",
			                                            name));
		jf_shell__run_console_script(sh, name);
	}
}
