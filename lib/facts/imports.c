/* imports.c - following the imports of the job's Python files to local modules
 *
 * Python puts the entry script's folder first on sys.path (the working folder
 * for `python -m`), then PYTHONPATH. A module found there under `code` is
 * loaded once and followed in turn, to a bounded depth; everything else
 * (the standard library, installed packages) is left alone here.
 */
#include "facts/imports.h"

#include "core/path.h"
#include "rules/checks.h"

#define MAX_IMPORT_DEPTH 16
#define MAX_UNITS 2000

typedef struct {
	const jf_job *job;
	jf_workspace *ws;
	jf_file *unit;
	jf_pyfacts *facts;
	JF_ARRAY(char *) roots; /* sys.path entries on this machine */
} importer;

/* Loads `base/rel.py` or `base/rel/__init__.py`; true when one exists, or
 * when `base/rel` is a folder without __init__.py (a namespace package). */
static bool load_module(importer *im, const char *base, const char *rel)
{
	const char *suffixes[] = { ".py", "/__init__.py" };
	for (int k = 0; k < 2; k++) {
		char *relfile = jf_xasprintf("%s%s", rel, suffixes[k]);
		char *local = jf_path_join(base, relfile);
		free(relfile);
		if (!jf_path_is_file(local)) {
			free(local);
			continue;
		}
		const char *under = jf_path_under(local, im->job->code_dir);
		if (under && im->ws->files.size < MAX_UNITS && im->unit->depth < MAX_IMPORT_DEPTH &&
		    !jf_workspace_find(im->ws, local)) {
			char *display = jf_path_join(im->job->code_display, under);
			jf_file *u = jf_workspace_load(im->ws, local, display, JF_LANG_PYTHON,
			                               JF_ROLE_MODULE, NULL, im->unit->depth + 1);
			if (u && !u->import_root)
				u->import_root = jf_xstrdup(im->unit->import_root ? im->unit->import_root : base);
			free(display);
		}
		free(local);
		return true;
	}
	char *dir = jf_path_join(base, rel);
	bool namespace = jf_path_is_dir(dir) && jf_path_under(dir, im->job->code_dir);
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
static void import_module(importer *im, const char *dotted, const char *sub)
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
static void import_relative(importer *im, const char *spec, const char *sub)
{
	size_t dots = strspn(spec, ".");
	char *base = jf_path_dirname(im->unit->fs_path);
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

/* Keeps the module node of an absolute import on the unit, once per statement. */
static void record_import(jf_pyfacts *u, const jf_match *m)
{
	TSNode at = jf_match_get(m, "import.module");
	if (ts_node_is_null(at))
		at = jf_match_get(m, "import.from");
	if (ts_node_is_null(at) || jf_node_type_is(at, "relative_import"))
		return;
	if (u->imports.size && ts_node_eq(*jf_array_last(&u->imports), at))
		return; /* `from x import a, b` matches once per name */
	jf_array_push(&u->imports, at);
}

static void on_import(void *data, const jf_match *m)
{
	importer *im = data;
	jf_file *u = im->unit;
	record_import(im->facts, m);
	char *mod = jf_match_text(u, m, "import.module");
	char *from = jf_match_text(u, m, "import.from");
	TSNode name = jf_match_get(m, "import.name");
	if (!ts_node_is_null(name) && !strcmp(ts_node_type(name), "aliased_import"))
		name = jf_node_field(name, "name");
	char *sub = ts_node_is_null(name) ? NULL : jf_node_text(u, name);
	if (sub && strchr(sub, '.')) {
		free(sub);
		sub = NULL;
	}
	if (mod)
		import_module(im, mod, NULL);
	else if (from && from[0] == '.')
		import_relative(im, from, sub);
	else if (from)
		import_module(im, from, sub);
	free(mod);
	free(from);
	free(sub);
}

void jf_imports_follow(const jf_job *job, jf_workspace *ws, jf_facts *facts)
{
	const char *err;
	const jf_query *q = jf_facts_query(JF_LANG_PYTHON, &err);
	if (!q)
		return;
	const jf_job_var *pp = jf_job_env(job, "PYTHONPATH");
	const char *wd = job->workdir.value;
	/* The list grows while it is walked: modules found are followed in turn. */
	for (size_t i = 0; i < ws->files.size; i++) {
		jf_file *u = ws->files.items[i];
		if (u->lang != JF_LANG_PYTHON || !u->fs_path)
			continue;
		if (!u->import_root) {
			char *dir = jf_path_dirname(u->fs_path);
			if (u->container_dir && wd && jf_path_under(u->container_dir, wd)) {
				free(dir);
				dir = jf_path_join(job->code_dir, jf_path_under(u->container_dir, wd));
			}
			u->import_root = dir;
		}
		importer im = { job, ws, u, jf_facts__python(facts, u), { 0 } };
		jf_array_push(&im.roots, jf_xstrdup(u->import_root));
		for (const char *p = pp ? pp->value.value : NULL; p && *p;) {
			size_t n = strcspn(p, ":");
			char *entry = jf_xstrndup(p, n);
			const char *rel = wd ? jf_path_under(entry, wd) : NULL;
			if (entry[0] != '/' || rel)
				jf_array_push(&im.roots, jf_path_join(job->code_dir, rel ? rel : entry));
			free(entry);
			p += n + (p[n] == ':');
		}
		jf_query_run(q, ts_tree_root_node(u->tree), u->src->data, on_import, &im);
		for (size_t r = 0; r < im.roots.size; r++)
			free(im.roots.items[r]);
		jf_array_release(&im.roots);
	}
}
