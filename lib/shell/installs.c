/* installs.c - what `pip install` and `conda install` put into the image at run time
 *
 * The distributions a job installs (named, or from requirements files,
 * followed through -r), and whether it installs something jobfix cannot name
 * (a path, a URL, -e, a file made at run time). JF104's fact: a pip install
 * into the system site-packages (no --user, --target, --prefix, --root, no
 * active virtualenv, no PIP_USER).
 */
#include "core/path.h"
#include "env/image.h"
#include "job/pip.h"
#include "job/project.h"
#include "shell/internal.h"

static bool pip_exempt_env(shell *sh)
{
	const char *names[] = { "PIP_USER", "PIP_TARGET", "PIP_PREFIX", "VIRTUAL_ENV" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		bool unset;
		const char *v = jf_shell__lookup(sh, names[i], &unset);
		if (!unset && (i > 0 || !v || strcmp(v, "0")))
			return true;
	}
	return false;
}

/* `pip install ...` from word i (just after "install"). */
void jf_shell__pip_install(shell *sh, const words *w, size_t i, TSNode cmd, bool explicit_path)
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
		word where = jf_shell__place(sh, cmd);
		at = (jf_loc){ where.src, where.span };
	}
	jf_array_push(&sh->out->pip_installs, at);
}
/* Installed packages */

/* The job installs something that may bring any package: `why` says what, for --verbose. */
void jf_shell__installs_unknown(shell *sh, char *why)
{
	sh->out->installs_unknown = true;
	if (!sh->out->installs_why)
		sh->out->installs_why = why;
	else
		free(why);
}

static void install_requirements(shell *sh, const char *path, int depth, jf_loc at,
                                 const char *file);

typedef struct {
	shell *sh;
	const char *dir; /* the container folder relative paths start from; NULL: the shell's */
	int depth;
	bool no_deps;    /* --no-deps: a project's requirements are not installed */
	const words *w;  /* the command's words from `install` on, or NULL (a file's lines) */
	jf_loc at;       /* for a file's lines: the word that names the file */
	const char *file; /* that file, as the command names it */
} install_ctx;

static void install_item(const jf_pip_item *it, void *data);

/* Adds the import folders and console scripts of the local project in
 * `local` (a folder of this machine); with `c`, also what it requires. */
static void add_project(shell *sh, const char *local, const char *extras, install_ctx *c)
{
	jf_project p;
	jf_project_read(local, extras, &p);
	if (c && !c->no_deps && p.unknown) {
		const char *rel = jf_path_under(local, sh->job->code_dir);
		char *shown = jf_path_join(sh->job->code_display, rel ? rel : ".");
		jf_shell__installs_unknown(sh, jf_xasprintf("the job installs the project in '%s', and %s",
		                                  *shown ? shown : ".", p.unknown));
		free(shown);
	}
	if (c && !c->no_deps) {
		/* the project's requirements: placed at the command that installs it */
		install_ctx pc = *c;
		pc.w = NULL;
		for (size_t i = 0; i < p.requires.size; i++)
			jf_pip_requirements(p.requires.items[i], install_item, &pc);
	}
	for (size_t i = 0; i < p.roots.size; i++)
		if (!jf_strings_have(&sh->out->import_roots, p.roots.items[i]))
			jf_array_push(&sh->out->import_roots, jf_xstrdup(p.roots.items[i]));
	for (size_t i = 0; i < p.scripts.size; i++)
		jf_array_push(&sh->out->console_scripts, p.scripts.items[i]);
	p.scripts.size = 0;
	jf_project_release(&p);
}

/* The container path of `path`, as an install names it: from the folder of
 * the requirements file it is in, else from the shell's. NULL when unknown. */
static char *install_path(const install_ctx *c, const char *path)
{
	return !c->dir            ? jf_shell__container_path(c->sh, path)
	       : path[0] == '/' ? jf_xstrdup(path)
	                          : jf_path_join(c->dir, path);
}

/* The file or folder of this machine at container path `cpath` (NULL: not
 * known), when it is in the code folder; else NULL. */
static char *local_path(const shell *sh, const char *cpath)
{
	const char *rel = cpath ? jf_path_under(cpath, jf_job_workdir(sh->job)) : NULL;
	return rel ? jf_path_join(sh->job->code_dir, rel) : NULL;
}

/* A local project the command installs: `arg` as pip is given it, possibly with [extras]. */
static void install_project(install_ctx *c, const char *arg)
{
	shell *sh = c->sh;
	char *extras;
	char *path = jf_project_split(arg, &extras);
	char *cpath = install_path(c, path);
	char *local = local_path(sh, cpath);
	if (local && jf_path_is_dir(local))
		add_project(sh, local, extras, c);
	else
		jf_shell__installs_unknown(sh, jf_xasprintf("the job installs '%s', a folder jobfix cannot "
		                                  "place in the code folder", arg));
	free(local);
	free(cpath);
	free(path);
	free(extras);
}

static void install_item(const jf_pip_item *it, void *data)
{
	install_ctx *c = data;
	shell *sh = c->sh;
	jf_loc at = c->at;
	if (c->w && it->word < c->w->size)
		at = (jf_loc){ c->w->items[it->word].src, c->w->items[it->word].span };
	if (it->kind == JF_PIP_NAMED) {
		jf_array_push(&sh->out->installed, jf_xstrdup(it->name));
		/* conda's `numpy=1.24` pins 1.24.*: a range, not a version */
		bool exact = it->version && !(it->spec && strchr(it->spec, '*'));
		jf_shell_pin pin = { jf_xstrdup(it->name), exact ? jf_xstrdup(it->version) : NULL,
			             it->spec ? jf_xstrdup(it->spec) : NULL, at,
			             c->file ? jf_xstrdup(c->file) : NULL };
		jf_array_push(&sh->out->pins, pin);
	} else if (it->kind == JF_PIP_REQUIREMENTS) {
		char *cpath = install_path(c, it->path);
		install_requirements(sh, cpath, c->depth + 1, at, c->file ? c->file : it->path);
		free(cpath);
	} else if (it->kind == JF_PIP_PROJECT) {
		install_project(c, it->path);
	} else {
		jf_shell__installs_unknown(sh, jf_xstrdup("the job installs a package jobfix cannot name (a URL, "
		                                "a wheel, a value known only at run time)"));
	}
}

/* The requirements in file `path` (a container path), -r and -c followed. */
static void install_requirements(shell *sh, const char *path, int depth, jf_loc at,
                                 const char *file)
{
	char *local = local_path(sh, path);
	jf_source *src = local && depth < 4 ? jf_source_load(local, local) : NULL;
	if (!src || src->status != JF_SOURCE_OK) {
		/* made at run time, or not there: pip says so */
		jf_shell__installs_unknown(sh, jf_xasprintf("the job installs the requirements in '%s', a file "
		                                  "jobfix cannot read", path ? path : "?"));
		jf_source_free(src);
		free(local);
		return;
	}
	char *dir = jf_path_dirname(path);
	install_ctx c = { sh, dir, depth, false, NULL, at, file };
	jf_pip_requirements(src->data, install_item, &c);
	free(dir);
	jf_source_free(src);
	free(local);
}

void jf_shell__image_projects(shell *sh)
{
	for (size_t i = 0; i < sh->job->image.projects.size; i++)
		add_project(sh, sh->job->image.projects.items[i], NULL, NULL);
}

const jf_console_script *jf_shell__console_script(shell *sh, const char *name)
{
	for (size_t i = 0; i < sh->out->console_scripts.size; i++)
		if (!strcmp(sh->out->console_scripts.items[i].name, name))
			return &sh->out->console_scripts.items[i];
	return NULL;
}

void jf_shell__setup_py(shell *sh, const words *w, size_t script)
{
	bool installs = false;
	for (size_t k = script + 1; k < w->size; k++)
		installs |= jf_shell__word_is(w, k, "develop") || jf_shell__word_is(w, k, "install");
	const char *path = w->items[script].value;
	if (!installs || !path)
		return;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? jf_xstrndup(path, (size_t)(slash - path)) : jf_xstrdup(".");
	install_ctx c = { sh, NULL, 0, false, NULL, sh->argv_at, NULL };
	install_project(&c, *dir ? dir : "/");
	free(dir);
}

/* `pip install ...` or `conda install ...` from word i (just after "install"). */
void jf_shell__install_words(shell *sh, const words *w, size_t i, bool pip)
{
	if (i >= w->size)
		return;
	const char **values = jf_xcalloc(w->size - i, sizeof *values);
	for (size_t k = i; k < w->size; k++)
		values[k - i] = w->items[k].value;
	words from = { w->items + i, w->size - i, 0 };
	install_ctx c = { sh, NULL, 0, false, &from, sh->argv_at, NULL };
	for (size_t k = 0; k < w->size - i; k++)
		c.no_deps |= values[k] && !strcmp(values[k], "--no-deps");
	jf_pip_install_args(values, w->size - i, pip, install_item, &c);
	free(values);
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

