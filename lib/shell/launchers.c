/* launchers.c - the Python entry scripts a command runs, and how it launches them
 *
 * python, python -m, torchrun, torch.distributed.launch/run, deepspeed,
 * accelerate launch, and the wrappers mpirun/mpiexec, horovodrun and Slurm's
 * srun in front of any of them; a local launcher script (a parser with a script positional
 * and REMAINDER) in front of another script. Each entry script found is
 * loaded and recorded as an invocation with its words.
 */
#include <ctype.h>

#include "core/path.h"
#include "shell/internal.h"

/* A launch of `launcher` with options from w[from], inside `outer`'s wrapper. */
launch jf_shell__launch_of(const char *launcher, size_t from, const launch *outer)
{
	launch how = { launcher, from, NULL, 0, 0, false, false };
	if (outer) {
		how.wrapper = outer->wrapper;
		how.wrapper_from = outer->wrapper_from;
		how.wrapper_to = outer->wrapper_to;
		how.wrapper_open = outer->wrapper_open;
	}
	return how;
}

/* The environment of an invocation, as far as the checks need it: the command's
 * prefix assignments, and the exported variables below unless a prefix
 * assignment sets them. */
static void record_env(shell *sh, jf_invocation *inv)
{
	static const char *const exported[] = { "CUDA_VISIBLE_DEVICES", "PYTHONPATH" };
	jf_shell__copy_words(&inv->env, &sh->env, 0, sh->env.size);
	for (size_t k = 0; k < sizeof exported / sizeof *exported; k++) {
		const char *name = exported[k];
		size_t n = strlen(name);
		bool prefixed = false;
		for (size_t i = 0; i < sh->env.size && !prefixed; i++) {
			const char *s = sh->env.items[i].value;
			prefixed = !strncmp(s, name, n) && (s[n] == '=' || !s[n]);
		}
		const var *v = prefixed ? NULL : jf_shell__find_var(sh, name);
		if (!prefixed && !v && sh->vars_uncertain && !strcmp(name, "PYTHONPATH")) {
			/* a sourced file or an activated environment may have set it */
			word e = inv->script;
			e.value = jf_xstrdup(name);
			jf_array_push(&inv->env, e);
			continue;
		}
		if (!v || !v->exported)
			continue;
		word e = inv->script; /* where the script is named, when the assignment's place is not known */
		if (v->src) {
			e.src = v->src;
			e.span = v->span;
		}
		e.value = v->value ? jf_xasprintf("%s=%s", name, v->value) : jf_xstrdup(name);
		jf_array_push(&inv->env, e);
	}
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
	inv.script = jf_shell__copy_word(&w->items[i]);
	inv.launcher = how ? how->launcher : "python";
	inv.unit = sh->unit;
	inv.cwd = sh->cwd ? jf_xstrdup(sh->cwd) : NULL;
	if (how) {
		if (how->from > 0 && how->from <= i)
			inv.launcher_at = jf_shell__copy_word(&w->items[how->from - 1]);
		jf_shell__copy_words(&inv.launcher_args, w, how->from, i);
		inv.launcher_open = how->open;
		inv.wrapper_open = how->wrapper_open;
		inv.wrapper = how->wrapper;
		if (how->wrapper)
			jf_shell__copy_words(&inv.wrapper_args, w, how->wrapper_from, how->wrapper_to);
	}
	jf_shell__copy_words(&inv.args, w, i + 1, w->size);
	record_env(sh, &inv);
	jf_array_push(&sh->out->invocations, inv);
}

/* A script named by word `i`: found and loaded, or reported as missing.
 * `how` says how a Python script is launched (NULL: a launch script). */
void jf_shell__script(shell *sh, const words *w, size_t i, script_kind kind, bool same_shell,
                   const launch *how)
{
	const word *wd = &w->items[i];
	/* run by its path: the kernel reads its #! line (a Python script run as `./x.py` too) */
	bool by_path = kind == SCRIPT_EXEC || (how && !strcmp(how->launcher, "script"));
	if (kind == SCRIPT_EXEC)
		kind = SCRIPT_SHELL;
	if (!wd->value || !*wd->value) {
		if (!wd->value)
			jf_shell__not_followed(sh, wd, "the script is not followed: its name is known "
			                               "only at run time");
		return;
	}
	char *cpath = jf_shell__container_path(sh, wd->value);
	if (!cpath) {
		jf_shell__not_followed(sh, wd, "'%s' is not followed: the folder it runs in is known "
		                               "only at run time",
		                       wd->value);
		return;
	}
	const char *rel = jf_path_under(cpath, jf_job_workdir(sh->job));
	if (!rel || !*rel) {
		free(cpath); /* outside the code folder: the image's business */
		return;
	}
	if (sh->depth >= MAX_SCRIPT_DEPTH) {
		jf_shell__not_followed(sh, wd, "'%s' is not followed: launch scripts run one another "
		                               "deeper than %d levels",
		                       wd->value, MAX_SCRIPT_DEPTH);
		free(cpath);
		return;
	}
	char *local = jf_path_join(sh->job->code_dir, rel);
	char *display = jf_path_join(sh->job->code_display, rel);
	jf_path_kind found = jf_workspace_path_kind(sh->ws, local);
	bool is_dir = found == JF_PATH_DIR;
	/* A FIFO or a device is there: loading it says it is not read (JF005). */
	if (found == JF_PATH_NONE || is_dir) {
		if (!jf_shell__is_produced(sh, cpath)) {
			jf_missing_script m = { .word = jf_shell__copy_word(wd), .python = kind == SCRIPT_PYTHON,
				                .is_dir = is_dir, .display = display, .cpath = cpath };
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
		if (u && by_path)
			u->run_by_path = true;
		/* A launch script is walked once per job: each file is read once. */
		if (u && kind == SCRIPT_SHELL && (fresh || same_shell) && u->lang == JF_LANG_BASH)
			jf_shell__run_launch_script(sh, u, same_shell, w, i + 1);
		if (u && kind == SCRIPT_PYTHON) {
			record_invocation(sh, u, w, i, how);
			/* A local launcher runs the script it is given, with the rest. */
			jf_words rest = { w->items + i + 1, w->size - i - 1, 0 };
			long k = u->lang == JF_LANG_PYTHON
			                 ? sh->host->wrapped_script(sh->host->data, u, &rest)
			                 : -1;
			if (k >= 0) {
				launch wrapped = jf_shell__launch_of(u->src->path, i + 1, how);
				jf_shell__script(sh, w, i + 1 + (size_t)k, SCRIPT_PYTHON, false, &wrapped);
			}
		}
	}
	free(local);
	free(display);
	free(cpath);
}

/* Loads local file `local` as an entry script when it is a file under the
 * code folder; a module run by name (`python -m`, a console script) has
 * `root`, the folder it was found in, as sys.path[0]. */
static bool load_entry(shell *sh, const char *local, const char *root)
{
	const char *rel = jf_path_under(local, sh->job->code_dir);
	if (!rel || !jf_path_is_file(local))
		return false;
	char *display = jf_path_join(sh->job->code_display, rel);
	jf_file *f = jf_workspace_load(sh->ws, local, display, JF_LANG_PYTHON, JF_ROLE_ENTRY,
	                               sh->cwd, sh->depth + 1);
	if (f && root && !f->import_root)
		f->import_root = jf_arena_strdup(&f->arena, root);
	free(display);
	return true;
}

/* `python -m mod`: the module's file in the working folder, else in the
 * folders the local projects the job installed put on sys.path. From a
 * folder above the working folder (`cd /workspace` with the code at
 * /workspace/encoder), a module whose path goes down into the code
 * (`encoder.run_classifier`) is the code's own. */
static void module(shell *sh, const word *at, const char *mod)
{
	jf_buf p = JF_BUF_INIT;
	for (const char *c = mod; *c; c++)
		jf_buf_addc(&p, *c == '.' ? '/' : *c);
	/* each folder, with how much of the module's path it takes off */
	jf_strings dirs = { 0 };
	JF_ARRAY(size_t) skip = { 0 };
	const char *workdir = jf_job_workdir(sh->job);
	const char *rel = sh->cwd ? jf_path_under(sh->cwd, workdir) : NULL;
	const char *down = sh->cwd && !rel ? jf_path_under(workdir, sh->cwd) : NULL;
	if (rel) {
		jf_array_push(&dirs, jf_path_join(sh->job->code_dir, rel));
		jf_array_push(&skip, 0);
	} else if (down && *down && jf_str_starts(p.buf, down) && p.buf[strlen(down)] == '/') {
		jf_array_push(&dirs, jf_xstrdup(sh->job->code_dir));
		jf_array_push(&skip, strlen(down) + 1);
	}
	for (size_t i = 0; i < sh->out->import_roots.size; i++) {
		jf_array_push(&dirs, jf_xstrdup(sh->out->import_roots.items[i]));
		jf_array_push(&skip, 0);
	}
	bool found = false;
	for (size_t d = 0; d < dirs.size && !found; d++)
		for (int k = 0; k < 2 && !found; k++) {
			char *local = jf_xasprintf("%s/%s%s", dirs.items[d], p.buf + skip.items[d],
			                           k ? "/__main__.py" : ".py");
			found = load_entry(sh, local, skip.items[d] ? NULL : dirs.items[d]);
			free(local);
		}
	/* `python -m train.py`: Python looks for a module `py` in a package
	 * `train`; the file train.py is no package: ModuleNotFoundError. */
	size_t n = strlen(mod);
	if (!found && n > 3 && jf_str_ends(mod, ".py")) {
		p.len -= 3;
		p.buf[p.len] = '\0';
	}
	for (size_t d = 0; d < dirs.size && !found && n > 3 && jf_str_ends(mod, ".py"); d++) {
		char *file = jf_xasprintf("%s/%s.py", dirs.items[d], p.buf + skip.items[d]);
		char *package = jf_xasprintf("%s/%s", dirs.items[d], p.buf + skip.items[d]);
		if (jf_workspace_path_kind(sh->ws, file) == JF_PATH_FILE &&
		    jf_workspace_path_kind(sh->ws, package) != JF_PATH_DIR) {
			jf_missing_script m = { .word = jf_shell__copy_word(at), .python = true,
				                .module_file = true, .display = jf_xstrdup(mod),
				                .cpath = jf_xstrdup(mod) };
			jf_array_push(&sh->out->missing_scripts, m);
			found = true;
		}
		free(file);
		free(package);
	}
	/* An installed module (pip, the image's own) is the image's business. */
	if (!found)
		jf_shell__not_followed(sh, at, "module '%s' is not followed: it is no file of the code "
		                               "folder (an installed module is not checked)",
		                       mod);
	jf_buf_release(&p);
	jf_strings_release(&dirs);
	jf_array_release(&skip);
}

/* A console script of a local project the job installed: its module runs,
 * as with `python -m`. Returns whether `name` is one. */
bool jf_shell__run_console_script(shell *sh, const char *name)
{
	const jf_console_script *c = jf_shell__console_script(sh, name);
	if (c && !(c->file && load_entry(sh, c->file, NULL)))
		jf_array_push(&sh->out->not_followed,
		              jf_xasprintf("the command runs '%s', a console script of an installed "
		                           "project, whose module '%s' is not a file of the code "
		                           "folder: it is not followed",
		                           name, c->module));
	return c != NULL;
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
/* srun: its options without a value, pyxis' included (slurm.schedmd.com/srun.html,
 * NVIDIA/pyxis). Options whose value is optional (--exclusive, -K) are flags when bare. */
static const char *const srun_flags[] = { "--pty", "-l", "--label", "-u", "--unbuffered",
	"--exclusive", "--overlap", "-k", "--no-kill", "-K", "--kill-on-bad-exit", "-Q", "--quiet",
	"-v", "--verbose", "-X", "--disable-status", "-O", "--overcommit", "-s", "--oversubscribe",
	"-Z", "--no-allocate", "-E", "--preserve-env", "--contiguous", "--exact", "--whole",
	"--spread-job", "--use-min-nodes", "--test-only", "-H", "--hold", "-I", "--immediate",
	"--reboot", "-q", "--quit-on-interrupt", "--container-remap-root",
	"--no-container-remap-root", "--container-mount-home", "--no-container-mount-home",
	"--container-writable", "--container-readonly", "--no-container-entrypoint",
	"--container-entrypoint-log", "--container-save-env", NULL };
static const char *const horovod_flags[] = { "--gloo", "--mpi", "--jsm", "--verbose",
	"--disable-cache", "--tcp", "--log-without-timestamp", "--elastic", "--check-build",
	"-cb", "--log-hide-timestamp", NULL };

/* Whether a word whose value is unknown is written `--name=...` with its
 * name known (the value comes from a variable the platform sets). */
static bool attached_option(const word *w)
{
	if (!w->src)
		return false;
	const char *p = w->src->data + w->span.start, *end = w->src->data + w->span.end;
	if (p < end && (*p == '"' || *p == '\''))
		p++;
	if (end - p < 3 || p[0] != '-' || p[1] != '-')
		return false;
	for (p += 2; p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == '_'); p++)
		;
	return p < end && *p == '=';
}

/*
 * Skips launcher options from word i; returns the index of the first
 * non-option word, or SIZE_MAX when an unknown word makes it unclear. A word
 * known only at run time where an option stands (`$DISTRIBUTED_ARGS`) may be
 * any options, and the value of the last: the first known word after it that
 * is no option names what runs only when `names_it` says it can (a `.py`
 * script, a program), not a value; *open tells such a word was skipped.
 */
static size_t skip_options(const words *w, size_t i, const char *const *flags,
                           const char *const *pairs, bool short_attached,
                           bool (*names_it)(const char *), bool *open)
{
	bool after_unknown = false;
	while (i < w->size) {
		const char *s = w->items[i].value;
		if (!s && attached_option(&w->items[i])) {
			i++; /* --nnodes=$NNODES: an option, whatever its value */
			continue;
		}
		if (!s) {
			after_unknown = *open = true;
			i++;
			continue;
		}
		if (s[0] != '-' || !s[1]) {
			if (!after_unknown || names_it(s))
				return i;
			return SIZE_MAX; /* a value of an option in the unknown word, or the script */
		}
		if (!strcmp(s, "--"))
			return i + 1;
		/* `-N2`, `-lu`: a short option with its value, or short flags together */
		bool attached = short_attached && s[1] != '-' && s[2];
		if (attached || strchr(s, '=') || jf_str_in(s, flags))
			i++;
		else if (pairs && jf_str_in(s, pairs))
			i += 3;
		else
			i += 2;
	}
	return i;
}

/* What a script launcher runs: a Python script by its path. */
static bool names_script(const char *s)
{
	return jf_str_ends(s, ".py");
}

/* What a wrapper (srun, mpirun) runs: a program jobfix follows. */
static bool names_program(const char *s)
{
	static const char *const programs[] = { "torchrun", "deepspeed", "accelerate", "bash", "sh",
		                                "singularity", "apptainer", "env", "horovodrun",
		                                NULL };
	const char *base = strrchr(s, '/');
	base = base ? base + 1 : s;
	return jf_shell__is_python(s) || jf_str_in(base, programs) || jf_str_ends(s, ".py") ||
	       jf_str_ends(s, ".sh");
}

bool jf_shell__is_python(const char *name)
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
/* A python invocation from word i (the interpreter). */
void jf_shell__python(shell *sh, const words *w, size_t i, TSNode cmd, const launch *outer)
{
	size_t interpreter = i;
	for (i++; i < w->size; i++) {
		const char *s = w->items[i].value;
		if (!s) {
			jf_shell__not_followed(sh, &w->items[i], "what Python runs is not followed: the "
			                       "word that names it is known only at run time");
			return;
		}
		if (!strcmp(s, "-m")) {
			if (!jf_shell__word_is(w, i + 1, "pip"))
				break;
			if (jf_shell__word_is(w, i + 2, "install")) {
				jf_shell__install_words(sh, w, i + 3, true);
				jf_shell__pip_install(sh, w, i + 3, cmd, false);
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
		const char *base = strrchr(s, '/');
		if (!strcmp(base ? base + 1 : s, "setup.py")) {
			jf_shell__setup_py(sh, w, i);
			return; /* setup.py builds and installs: no training entry */
		}
		launch how = jf_shell__launch_of("python", interpreter + 1, outer);
		jf_shell__script(sh, w, i, SCRIPT_PYTHON, false, &how);
		return;
	}
	if (i + 1 >= w->size || !w->items[i + 1].value)
		return;
	const char *mod = w->items[i + 1].value;
	if (!strcmp(mod, "torch.distributed.launch") || !strcmp(mod, "torch.distributed.run")) {
		bool open = false;
		size_t k = skip_options(w, i + 2, torchrun_flags, NULL, false, names_script, &open);
		launch how = jf_shell__launch_of(!strcmp(mod, "torch.distributed.launch") ? "torch.distributed.launch"
		                                                                 : "torch.distributed.run",
		                       i + 2, outer);
		how.open = open;
		if (k == SIZE_MAX)
			jf_shell__not_followed(sh, &w->items[i + 1], "the script is not followed: the "
			                       "launcher's options are known only at run time, so which "
			                       "word names it is not known");
		if (k < w->size && !jf_str_ends(w->items[k].value ? w->items[k].value : "", ".sh"))
			jf_shell__script(sh, w, k, SCRIPT_PYTHON, false, &how);
		return;
	}
	module(sh, &w->items[i + 1], mod);
}

/* A launcher that starts the script it is given (torchrun, deepspeed, accelerate launch). */
static void run_script_launcher(shell *sh, const words *w, size_t i, const char *const *flags,
                                const char *name, const launch *outer)
{
	for (size_t k = i; k < w->size; k++)
		if (jf_shell__word_is(w, k, "-m") || jf_shell__word_is(w, k, "--module") ||
		    jf_shell__word_is(w, k, "--no_python") || jf_shell__word_is(w, k, "--no-python"))
			return; /* a module or a non-Python program: not a script path */
	bool open = false;
	size_t k = skip_options(w, i, flags, NULL, false, names_script, &open);
	launch how = jf_shell__launch_of(name, i, outer);
	how.open = open;
	if (k == SIZE_MAX)
		jf_shell__not_followed(sh, &w->items[i - 1], "the script is not followed: the "
		                       "launcher's options are known only at run time, so which "
		                       "word names it is not known");
	else if (k < w->size)
		jf_shell__script(sh, w, k, SCRIPT_PYTHON, false, &how);
}

/* The launchers, by the program that names them. */
static const struct launcher {
	const char *program;
	const char *subcommand;      /* a word that must follow: `accelerate launch` */
	const char *name;            /* jf_invocation.launcher or .wrapper */
	const char *const *flags;    /* its options that take no value; the rest take one */
	const char *const *pairs;    /* its options that take two values */
	bool wraps;                  /* runs a command line (mpirun), not a script */
	bool short_attached;         /* single-letter options cluster and hold values: -N2 */
} launchers[] = {
	{ "torchrun", NULL, "torchrun", torchrun_flags, NULL, false, false },
	{ "deepspeed", NULL, "deepspeed", deepspeed_flags, NULL, false, false },
	{ "accelerate", "launch", "accelerate", accelerate_flags, NULL, false, false },
	{ "horovodrun", NULL, "horovodrun", horovod_flags, NULL, true, false },
	{ "mpirun", NULL, "mpirun", mpirun_flags, mpirun_pairs, true, false },
	{ "mpiexec", NULL, "mpirun", mpirun_flags, mpirun_pairs, true, false },
	{ "srun", NULL, "srun", srun_flags, NULL, true, true },
};

/* The folder srun runs its command in, when an option sets it: --chdir, -D, pyxis'
 * --container-workdir. Returns whether one does; *dir is the value, NULL when unknown. */
static bool srun_cwd(const words *w, size_t from, size_t to, const char **dir)
{
	static const char *const opts[] = { "--chdir", "-D", "--container-workdir", NULL };
	bool found = false;
	for (size_t k = from; k < to; k++) {
		const char *s = w->items[k].value;
		if (!s)
			continue;
		for (size_t o = 0; opts[o]; o++) {
			size_t n = strlen(opts[o]);
			if (!strncmp(s, opts[o], n) && (s[n] == '=' || !s[n] || (n == 2 && s[n]))) {
				found = true;
				*dir = s[n] == '=' ? s + n + 1 : s[n] ? s + n : k + 1 < to ? w->items[k + 1].value : NULL;
			}
		}
	}
	return found;
}

bool jf_shell__launcher(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer)
{
	const char *name = w->items[i].value;
	for (size_t k = 0; k < sizeof launchers / sizeof *launchers; k++) {
		const struct launcher *l = &launchers[k];
		if (strcmp(name, l->program))
			continue;
		if (l->subcommand && !jf_shell__word_is(w, i + 1, l->subcommand))
			return true; /* `accelerate config`: no script */
		size_t first = i + 1 + (l->subcommand != NULL);
		if (!l->wraps) {
			run_script_launcher(sh, w, first, l->flags, l->name, outer);
			return true;
		}
		/* The wrapper's options, then the command it runs on every process. */
		bool open = false;
		size_t at = skip_options(w, first, l->flags, l->pairs, l->short_attached, names_program,
		                         &open);
		launch wrap = { NULL, 0, l->name, first, at, false, open };
		if (at == SIZE_MAX)
			jf_shell__not_followed(sh, &w->items[i], "the command %s runs is not followed: its "
			                                         "options are known only at run time, so "
			                                         "which word names it is not known",
			                       l->program);
		if (at >= w->size)
			return true;
		const char *dir = NULL;
		bool moved = !strcmp(l->program, "srun") && srun_cwd(w, first, at, &dir);
		if (open && !moved && strcmp(l->program, "horovodrun")) {
			/* an option of the unknown word may move the command (srun's
			 * --chdir, mpirun's -wdir) or make it a configuration file */
			jf_shell__not_followed(sh, &w->items[i], "%s's options are known only at run time "
			                                         "(one may set the folder its command runs "
			                                         "in): the scripts it runs are not followed",
			                       l->program);
			return true;
		}
		if (!strcmp(l->program, "srun")) {
			for (size_t o = first; o < at; o++)
				if (jf_shell__word_is(w, o, "--multi-prog"))
					return true; /* the program is a configuration file */
			if (moved) {
				/* run in another folder: there for the command, back after it */
				char *saved = sh->cwd;
				sh->cwd = dir ? jf_shell__container_path(sh, dir) : NULL;
				jf_shell__run_words(sh, w, at, cmd, &wrap);
				free(sh->cwd);
				sh->cwd = saved;
				return true;
			}
		}
		jf_shell__run_words(sh, w, at, cmd, &wrap);
		return true;
	}
	return false;
}
