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

static void install_requirements(shell *sh, const char *path, int depth);

typedef struct {
	shell *sh;
	const char *dir; /* the container folder relative paths start from; NULL: the shell's */
	int depth;
} install_ctx;

static void install_item(const jf_pip_item *it, void *data)
{
	install_ctx *c = data;
	shell *sh = c->sh;
	if (it->kind == JF_PIP_NAMED) {
		jf_array_push(&sh->out->installed, jf_xstrdup(it->name));
	} else if (it->kind == JF_PIP_REQUIREMENTS) {
		char *cpath = !c->dir ? jf_shell__container_path(sh, it->path)
		              : it->path[0] == '/' ? jf_xstrdup(it->path)
		                                   : jf_path_join(c->dir, it->path);
		install_requirements(sh, cpath, c->depth + 1);
		free(cpath);
	} else {
		/* a local project, a URL, a variable: a project whose dependencies jobfix cannot see */
		sh->out->installs_unknown = true;
	}
}

/* The requirements in file `path` (a container path), -r and -c followed. */
static void install_requirements(shell *sh, const char *path, int depth)
{
	const char *rel = path ? jf_path_under(path, jf_job_workdir(sh->job)) : NULL;
	char *local = rel ? jf_path_join(sh->job->code_dir, rel) : NULL;
	jf_source *src = local && depth < 4 ? jf_source_load(local, local) : NULL;
	if (!src || src->status != JF_SOURCE_OK) {
		sh->out->installs_unknown = true; /* made at run time, or not there: pip says so */
		jf_source_free(src);
		free(local);
		return;
	}
	char *dir = jf_path_dirname(path);
	install_ctx c = { sh, dir, depth };
	jf_pip_requirements(src->data, install_item, &c);
	free(dir);
	jf_source_free(src);
	free(local);
}

/* `pip install ...` or `conda install ...` from word i (just after "install"). */
void jf_shell__install_words(shell *sh, const words *w, size_t i, bool pip)
{
	if (i >= w->size)
		return;
	const char **values = jf_xcalloc(w->size - i, sizeof *values);
	for (size_t k = i; k < w->size; k++)
		values[k - i] = w->items[k].value;
	install_ctx c = { sh, NULL, 0 };
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

