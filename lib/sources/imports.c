/* imports.c - where the modules a Python file imports are in the code folder
 *
 * Python puts the entry script's folder first on sys.path (the working folder
 * for `python -m`), then PYTHONPATH; the code may insert folders before it
 * and append others. A module found there under `code` is
 * loaded once into the workspace (its __init__.py files too), to a bounded
 * depth; everything else (the standard library, installed packages) is left
 * alone here.
 */
#include "sources/imports.h"

#include "core/path.h"

#define MAX_IMPORT_DEPTH 16
#define MAX_UNITS 2000

/* Loads `base/rel.py` or `base/rel/__init__.py`; true when one exists, or
 * when `base/rel` is a folder without __init__.py (a namespace package). */
static bool load_module(jf_importer *im, const char *base, const char *rel)
{
	const char *suffixes[] = { ".py", "/__init__.py" };
	for (int k = 0; k < 2; k++) {
		char *relfile = jf_xasprintf("%s%s", rel, suffixes[k]);
		char *local = jf_path_join(base, relfile);
		free(relfile);
		if (jf_workspace_path_kind(im->ws, local) != JF_PATH_FILE) {
			free(local);
			continue;
		}
		const char *under = jf_path_under(local, im->job->code_dir);
		if (im->prefetch) {
			char *display = under ? jf_path_join(im->job->code_display, under) : NULL;
			if (display)
				jf_workspace_prefetch(im->ws, local, display, JF_LANG_PYTHON);
			free(display);
			free(local);
			return true;
		}
		jf_file *known = jf_workspace_find(im->ws, local);
		bool lazy = im->lazy || im->from->lazy;
		if (known && !lazy)
			known->lazy = false; /* imported at the top of a file that runs */
		bool within = im->ws->files.size < MAX_UNITS && im->from->depth < MAX_IMPORT_DEPTH;
		if (under && !known && !within)
			jf_array_push(&im->ws->unread,
			              jf_xasprintf(im->from->depth >= MAX_IMPORT_DEPTH
			                                   ? "%s is not read: modules import one another "
			                                     "deeper than %d levels"
			                                   : "%s is not read: the job reads more than %d "
			                                     "files",
			                           under,
			                           im->from->depth >= MAX_IMPORT_DEPTH ? MAX_IMPORT_DEPTH
			                                                               : MAX_UNITS));
		if (under && within && !known) {
			char *display = jf_path_join(im->job->code_display, under);
			jf_file *u = jf_workspace_load(im->ws, local, display, JF_LANG_PYTHON,
			                               JF_ROLE_MODULE, NULL, im->from->depth + 1);
			if (u && !u->import_root)
				u->import_root = jf_arena_strdup(
					&u->arena, im->from->import_root ? im->from->import_root : base);
			if (u && u->role == JF_ROLE_MODULE)
				u->lazy = lazy;
			free(display);
		}
		free(local);
		return true;
	}
	char *dir = jf_path_join(base, rel);
	bool namespace = jf_workspace_path_kind(im->ws, dir) == JF_PATH_DIR &&
	                 jf_path_under(dir, im->job->code_dir);
	free(dir);
	return namespace;
}

/* Dotted name "a.b.c" as the relative path "a/b/c"; caller frees. */
static char *dotted_to_path(const char *dotted)
{
	char *p = jf_xstrdup(dotted);
	for (char *c = p; *c; c++)
		if (*c == '.')
			*c = '/';
	return p;
}

/* `import a.b.c`: loads a, a/b and a/b/c (each package's __init__ runs). */
void jf_import_module(jf_importer *im, const char *dotted, const char *sub)
{
	char *rel = dotted_to_path(dotted);
	for (size_t r = 0; r < im->roots.size; r++) {
		const char *root = im->roots.items[r];
		bool found = true;
		for (char *c = rel;; c++) {
			if (*c == '/' || !*c) {
				char saved = *c;
				*c = '\0';
				found = load_module(im, root, rel);
				*c = saved;
				if (!found || !saved)
					break;
			}
		}
		if (found) {
			if (sub) {
				char *subrel = jf_xasprintf("%s/%s", rel, sub);
				load_module(im, root, subrel);
				free(subrel);
			}
			break;
		}
	}
	free(rel);
}

/* `from .m import x` relative to the importing file's package. */
void jf_import_relative(jf_importer *im, const char *spec, const char *sub)
{
	size_t dots = strspn(spec, ".");
	char *base = jf_path_dirname(im->from->fs_path);
	for (size_t i = 1; i < dots; i++) {
		char *up = jf_path_dirname(base);
		free(base);
		base = up;
	}
	if (spec[dots]) {
		char *rel = dotted_to_path(spec + dots);
		load_module(im, base, rel);
		if (sub) {
			char *subrel = jf_xasprintf("%s/%s", rel, sub);
			load_module(im, base, subrel);
			free(subrel);
		}
		free(rel);
	} else if (sub) {
		load_module(im, base, sub);
	}
	free(base);
}

void jf_importer_init(jf_importer *self, const jf_job *job, jf_workspace *ws, jf_file *from,
                      const jf_strings *first, const jf_strings *sys_path)
{
	memset(self, 0, sizeof(*self));
	self->job = job;
	self->ws = ws;
	self->from = from;
	const char *wd = job->workdir.value;
	if (!from->import_root) {
		char *dir = jf_path_dirname(from->fs_path);
		if (!*dir) { /* a file of the folder jobfix runs in */
			free(dir);
			dir = jf_xstrdup(".");
		}
		if (from->container_dir && wd && jf_path_under(from->container_dir, wd)) {
			free(dir);
			dir = jf_path_join(job->code_dir, jf_path_under(from->container_dir, wd));
		}
		from->import_root = dir;
		jf_arena_adopt(&from->arena, dir);
	}
	/* The last inserted at 0 comes first. */
	for (size_t i = first ? first->size : 0; i-- > 0;)
		jf_array_push(&self->roots, jf_xstrdup(first->items[i]));
	jf_array_push(&self->roots, jf_xstrdup(from->import_root));
	for (size_t i = 0; i < sys_path->size; i++)
		jf_array_push(&self->roots, jf_xstrdup(sys_path->items[i]));
}

void jf_importer_release(jf_importer *self)
{
	jf_strings_release(&self->roots);
}
