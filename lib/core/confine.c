/* confine.c - the folders a lint may read */
#define _XOPEN_SOURCE 700 /* realpath */
#include "core/confine.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/deps.h"
#include "core/path.h"

static _Thread_local const jf_confine *current;

/* `path` made absolute from the current folder and normalized, without
 * resolving symlinks (as `cd -L` would). */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return jf_path_normalize(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return jf_path_normalize(path);
	return jf_path_join(cwd, path);
}

/* The nearest folder at or above `dir` (absolute, normalized) that holds a
 * `.git` (a folder, or a file for a worktree), or NULL. */
static char *git_top(const char *dir)
{
	char *at = jf_xstrdup(dir);
	for (;;) {
		char *git = jf_path_join(at, ".git");
		bool found = access(git, F_OK) == 0;
		free(git);
		if (found)
			return at;
		if (!strcmp(at, "/")) {
			free(at);
			return NULL;
		}
		char *up = jf_path_dirname(at);
		free(at);
		at = up;
	}
}

static void add_root(jf_confine *self, const char *dir)
{
	char *real = realpath(dir, NULL);
	if (real && !jf_strings_have(&self->roots, real))
		jf_array_push(&self->roots, real);
	else
		free(real);
}

void jf_confine_init(jf_confine *self, const char *path, const jf_strings *allowed)
{
	memset(self, 0, sizeof *self);
	char *abs = absolute(path);
	char *dir = jf_path_dirname(abs);
	char *top = git_top(dir);
	if (!top) {
		char *cwd = absolute(".");
		top = jf_path_under(abs, cwd) ? cwd : jf_xstrdup(dir);
		if (top != cwd)
			free(cwd);
	}
	add_root(self, top);
	if (!self->roots.size) /* the folder is gone: nothing below it can be read */
		jf_array_push(&self->roots, jf_xstrdup(top));
	free(top);
	free(dir);
	free(abs);
	for (size_t i = 0; allowed && i < allowed->size; i++)
		add_root(self, allowed->items[i]);
}

void jf_confine_release(jf_confine *self)
{
	jf_strings_release(&self->roots);
}

void jf_confine_enter(const jf_confine *self)
{
	current = self;
}

void jf_confine_leave(void)
{
	current = NULL;
}

const jf_confine *jf_confine_current(void)
{
	return current;
}

bool jf_confine_has(const jf_confine *self, const char *path)
{
	char *real = realpath(path, NULL);
	bool inside = false;
	for (size_t i = 0; real && i < self->roots.size && !inside; i++)
		inside = jf_path_under(real, self->roots.items[i]) != NULL;
	free(real);
	return inside;
}

bool jf_confine_allows(const char *path)
{
	jf_deps_note(JF_DEP_ALLOW, path);
	return !current || jf_confine_has(current, path);
}
