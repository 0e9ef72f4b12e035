/* packages.c - JF110, JF111: imports the image's Python cannot satisfy
 *
 * Each absolute import of the job's entry scripts and the local modules they
 * import is, in turn: local (a module under `code` on the script's sys.path),
 * standard library (for the image's Python version: JF111 when that version
 * lacks it), installed by the job itself (pip, conda, a requirements file),
 * or a distribution of the image: JF110 only when the image's package list
 * says for sure that none of the distributions providing it is there.
 *
 * Imports that run only sometimes are left alone: inside a function, under
 * an `if` (other than `if __name__ == "__main__"`), in a `try` that catches
 * ImportError, or in an `except` clause.
 */
#include <ctype.h>
#include <dirent.h>

#include "rules/checks.h"
#include "core/deps.h"
#include "core/path.h"
#include "core/strmap.h"
#include "env/pymodules.h"

/* What an import guarded by `try` may fail with. */
static const char *const import_errors[] = { "ImportError", "ModuleNotFoundError", "Exception",
	                                     "BaseException", NULL };

/* Whether the import at `n` runs whenever the module runs. */
static bool always_runs(const jf_file *unit, TSNode n)
{
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); n = p, p = ts_node_parent(p)) {
		jf_type t = jf_node_type(p);
		if (t == JF_T_function_definition || t == JF_T_lambda ||
		    t == JF_T_except_clause ||
		    t == JF_T_elif_clause || t == JF_T_else_clause ||
		    t == JF_T_with_statement || t == JF_T_while_statement)
			return false;
		if (t == JF_T_try_statement && jf_py_try_catches(unit, p, import_errors))
			return false;
		if (t == JF_T_if_statement && !jf_py_is_main_guard(unit, p))
			return false;
	}
	return true;
}

/* A module found in the code folder: its name and the folder that holds it
 * (relative to the code folder, "" for the code folder itself). */
typedef struct {
	char *name, *folder;
	size_t order; /* found in this order: a folder's own modules before its subfolders' */
} code_module;

typedef JF_ARRAY(code_module) code_modules;

/* The modules anywhere in the code folder (bounded), folder `rel` and below:
 * for jobs that edit sys.path in ways jobfix cannot follow, and to name the
 * folder of a module that is not on sys.path. */
static void modules_anywhere(const char *code, const char *rel, int depth, size_t *budget,
                             code_modules *out)
{
	char *dir = *rel ? jf_path_join(code, rel) : jf_xstrdup(code);
	jf_deps_note(JF_DEP_DIR, dir);
	DIR *d = opendir(dir);
	jf_strings subs = { 0 };
	for (struct dirent *e; d && *budget && (e = readdir(d)); (*budget)--) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
			continue;
		char *sub = jf_xasprintf("%s/%s", dir, e->d_name);
		char *name = NULL;
		if (jf_path_is_dir(sub)) {
			name = jf_xstrdup(e->d_name);
			if (depth < 6)
				jf_array_push(&subs, *rel ? jf_path_join(rel, e->d_name) : jf_xstrdup(e->d_name));
		} else if (jf_str_ends(e->d_name, ".py") || jf_str_ends(e->d_name, ".so")) {
			name = jf_xstrndup(e->d_name, strcspn(e->d_name, "."));
		}
		if (name) {
			code_module m = { name, jf_xstrdup(rel), out->size };
			jf_array_push(out, m);
		}
		free(sub);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < subs.size; i++)
		modules_anywhere(code, subs.items[i], depth + 1, budget, out);
	jf_strings_release(&subs);
	free(dir);
}

static int module_cmp(const void *a, const void *b)
{
	const code_module *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

typedef struct {
	jf_rule_ctx *ctx;
	const jf_file *unit;
	const jf_image *img;
	/* The modules not reported because a folder the code puts on sys.path
	 * may hold them (facts.sys_path_unknown_folders), said once each. */
	jf_strings unsure;
	/* What the job installs and what that brings (data/dependencies.txt);
	 * `brings_unknown` when something may bring what the data does not say. */
	jf_strings brought;
	bool brings_unknown;
	/* The unknowns that may bring a module the known installs do not
	 * (answer()): the distributions without a line in the data that the
	 * job or the image's build installs, by name, each once; and an install
	 * jobfix cannot name (why, or NULL). */
	jf_strings unknown;
	jf_buf unknown_list; /* "'a', 'b' and 'c'", for messages */
	const char *unnamed;
	/* The modules given up, grouped by why (--verbose says each group
	 * once), and the third-party modules asked about, by top-level name,
	 * each once: their count and how many were given up, for the coverage. */
	JF_ARRAY(struct give_up { int why; jf_buf modules; size_t count; }) give_ups;
	jf_strmap asked;
	size_t modules, open;
	bool checking; /* the imports are checked: their coverage is said at the end */
	code_modules anywhere; /* modules anywhere under code, by name; read on first use */
	bool anywhere_read;
	jf_module_finder found;
	/* One JF110 per missing module: later imports of it become notes. */
	JF_ARRAY(struct reported { char *top; size_t diag; size_t more; }) reported;
} checker;

/* "dir\0top": a key of a jf_module_finder's maps; caller releases. */
static jf_buf module_key(const char *dir, const char *top)
{
	jf_buf key = JF_BUF_INIT;
	jf_buf_adds(&key, dir);
	jf_buf_addc(&key, '\0');
	jf_buf_adds(&key, top);
	return key;
}

/* Notes the compiled extensions of folder `dir` (top.*.so), once per folder. */
static void list_extensions(jf_module_finder *self, const char *dir)
{
	if (jf_strmap_has(&self->extensions, dir))
		return;
	jf_strmap_add(&self->extensions, dir);
	jf_deps_note(JF_DEP_DIR, dir);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strcspn(e->d_name, ".");
		if (n && e->d_name[n] && jf_str_ends(e->d_name, ".so")) {
			char top[256];
			snprintf(top, sizeof top, "%.*s", (int)n, e->d_name);
			jf_buf key = module_key(dir, top);
			jf_strmap_put(&self->extensions, key.buf, key.len, "yes");
			jf_buf_release(&key);
		}
	}
	if (d)
		closedir(d);
}

/* Whether `top` names a module in folder `dir`: top.py, top/ (a package or a
 * namespace package), or a compiled extension top.*.so. */
static bool module_in(jf_module_finder *self, const char *dir, const char *top, const jf_buf *key)
{
	char *p = jf_xasprintf("%s/%s", dir, top);
	char *py = jf_xasprintf("%s.py", p);
	bool found = jf_path_is_dir(p) || jf_path_is_file(py);
	free(py);
	free(p);
	if (found)
		return true;
	list_extensions(self, dir);
	return jf_strmap_get(&self->extensions, key->buf, key->len) != NULL;
}

bool jf_module_in(jf_module_finder *self, const char *dir, const char *top)
{
	jf_buf key = module_key(dir, top);
	void *v = jf_strmap_get(&self->answers, key.buf, key.len);
	if (!v) {
		v = module_in(self, dir, top, &key) ? "yes" : "no";
		jf_strmap_put(&self->answers, key.buf, key.len, v);
	}
	jf_buf_release(&key);
	return !strcmp(v, "yes");
}

void jf_module_finder_release(jf_module_finder *self)
{
	jf_strmap_release(&self->answers);
	jf_strmap_release(&self->extensions);
}

/* The folder of the code that holds module `top` (the first found), or NULL. */
static const char *module_anywhere(checker *c, const char *top)
{
	if (!c->anywhere_read) {
		size_t budget = 20000;
		modules_anywhere(c->ctx->facts->job->code_dir, "", 0, &budget, &c->anywhere);
		if (c->anywhere.size)
			qsort(c->anywhere.items, c->anywhere.size, sizeof *c->anywhere.items, module_cmp);
		c->anywhere_read = true;
	}
	size_t lo = 0, hi = c->anywhere.size;
	while (lo < hi) { /* the first entry of that name */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(c->anywhere.items[mid].name, top) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->anywhere.size && !strcmp(c->anywhere.items[lo].name, top)
	               ? c->anywhere.items[lo].folder
	               : NULL;
}

static bool is_local(checker *c, const char *top)
{
	const jf_job *j = c->ctx->facts->job;
	if (c->unit->import_root && jf_module_in(&c->found, c->unit->import_root, top))
		return true;
	/* The working folder is not on sys.path for `python tools/x.py` (Python
	 * puts tools/ there); it may be when PYTHONPATH is set to what is not known. */
	if ((!c->unit->import_root || c->ctx->facts->sys_path_open) &&
	    jf_module_in(&c->found, j->code_dir, top))
		return true;
	/* PYTHONPATH, installed projects, and the folders the code puts on
	 * sys.path (facts.h); any folder of the code when a change is not known. */
	const jf_facts *f = c->ctx->facts;
	const jf_strings *lists[] = { &f->sys_path, &f->sys_path_first, &f->sys_path_last };
	for (size_t l = 0; l < 3; l++)
		for (size_t i = 0; i < lists[l]->size; i++)
			if (jf_module_in(&c->found, lists[l]->items[i], top))
				return true;
	return f->sys_path_edits_unknown && module_anywhere(c, top);
}

/* Whether the job installs distribution `dist`, or something that brings it. */
static bool job_brings(const checker *c, const char *dist)
{
	for (size_t i = 0; i < c->brought.size; i++)
		if (jf_dist_name_eq(c->brought.items[i], strlen(c->brought.items[i]), dist))
			return true;
	return false;
}

static void check_stdlib(checker *c, jf_span at, const char *top, const jf_stdlib_module *m)
{
	const jf_image *img = c->img;
	int minor = img->py_minor;
	if (img->py_major != 3)
		return;
	bool removed = m->removed_minor >= 0 && minor >= m->removed_minor;
	bool not_yet = m->added_minor > minor;
	if (!removed && !not_yet)
		return;
	/* A backport of the same name may provide it (graphlib, dataclasses, the
	 * PEP 594 modules), and setuptools brings distutils back: only a complete
	 * package list tells. Python 2's modules have no such thing. */
	const char *provider = !strcmp(top, "distutils") ? "setuptools" : top;
	bool python2 = removed && m->removed_minor == 0;
	if (!python2 && (jf_image_has_package(img, provider, NULL) != JF_NO ||
	                 c->brings_unknown || job_brings(c, provider)))
		return;
	jf_diag *d;
	if (python2)
		d = jf_sink_add(c->ctx->out, JF111, c->unit->src, at,
		                  "module '%s' exists only in Python 2; the image has Python %d.%d", top,
		                  img->py_major, minor);
	else if (removed)
		d = jf_sink_add(c->ctx->out, JF111, c->unit->src, at,
		                  "module '%s' was removed from the standard library in Python 3.%d; the "
		                  "image has Python %d.%d",
		                  top, m->removed_minor, img->py_major, minor);
	else
		d = jf_sink_add(c->ctx->out, JF111, c->unit->src, at,
		                  "module '%s' is in the standard library only from Python 3.%d; the "
		                  "image has Python %d.%d",
		                  top, m->added_minor, img->py_major, minor);
	jf_image_relate(d, img, JF_FACT_PYTHON, "Python %d.%d", img->py_major,
	                minor);
}

/* Why a module's import is not checked (a group of give_ups). */
enum { OPEN_IMAGE, OPEN_UNNAMED, OPEN_SHIPPED, OPEN_UNCLAIMED, OPEN_REQUIRED };

/* Notes that the import of `top` at `at` is not checked, for `why`. */
static void give_up(checker *c, int why, jf_span at, const char *top, const char *detail)
{
	struct give_up *g = NULL;
	for (size_t i = 0; i < c->give_ups.size && !g; i++)
		if (c->give_ups.items[i].why == why)
			g = &c->give_ups.items[i];
	if (!g) {
		struct give_up n = { why, JF_BUF_INIT, 0 };
		jf_array_push(&c->give_ups, n);
		g = jf_array_last(&c->give_ups);
	}
	jf_buf_addf(&g->modules, "%s'%s' (%s:%u%s%s)", g->count ? ", " : "", top,
	            c->unit->src->path, jf_source_line_of(c->unit->src, at.start) + 1,
	            detail ? ": " : "", detail ? detail : "");
	g->count++;
	c->open++;
}

/* Says each group of modules given up, once (--verbose). */
static void say_give_ups(checker *c)
{
	const jf_image *img = c->img;
	for (size_t i = 0; i < c->give_ups.size; i++) {
		struct give_up *g = &c->give_ups.items[i];
		const char *s = g->count == 1 ? "" : "s";
		if (g->why == OPEN_IMAGE)
			jf_sink_skip(c->ctx->out, JF110,
			             "%s, and does not list the distributions of %zu module%s as absent: "
			             "%s: whether the image has them is not checked; declare "
			             "image.manifest (the image's `pip freeze`) to check them",
			             img->catalog ? "the catalog's package list of the image is partial"
			                          : jf_image_unknown_reason(img),
			             g->count, s, g->modules.buf);
		else if (g->why == OPEN_UNNAMED)
			jf_sink_skip(c->ctx->out, JF110,
			             "%s, which may be or bring the distribution of %zu module%s: %s: "
			             "whether the job has them is not checked",
			             c->unnamed, g->count, s, g->modules.buf);
		else if (g->why == OPEN_SHIPPED)
			jf_sink_skip(c->ctx->out, JF110,
			             "the job installs distributions that have no line in jobfix's data "
			             "(data/dependencies.txt) and whose names name %zu module%s, which "
			             "they may hold themselves: %s: whether the job has them is not checked",
			             g->count, s, g->modules.buf);
		else if (g->why == OPEN_UNCLAIMED)
			jf_sink_skip(c->ctx->out, JF110,
			             "%s ha%s no line in jobfix's data (data/dependencies.txt) and may "
			             "hold %zu module%s that no distribution jobfix knows of holds: %s: "
			             "whether the job has them is not checked",
			             c->unknown_list.buf, c->unknown.size == 1 ? "s" : "ve", g->count, s,
			             g->modules.buf);
		else
			jf_sink_skip(c->ctx->out, JF110,
			             "%s ha%s no line in jobfix's data (data/dependencies.txt) and may "
			             "require the distribution of %zu module%s that other distributions "
			             "require: %s: whether the job has them is not checked",
			             c->unknown_list.buf, c->unknown.size == 1 ? "s" : "ve", g->count, s,
			             g->modules.buf);
	}
}

/* The distributions of data/dependencies.txt that require one of `dists`:
 * how many, with the first in *first. */
static size_t required_by(const char *const *dists, const char **first)
{
	size_t n = 0;
	*first = NULL;
	for (size_t i = 0; dists[i]; i++) {
		const char *const *by = jf_dist_required_by(dists[i]);
		for (size_t k = 0; by && by[k]; k++, n++)
			if (!*first)
				*first = by[k];
	}
	return n;
}

/* Where the job or its image's build installs `dist`: NULL when not known. */
static const jf_loc *install_place(const checker *c, const char *dist)
{
	const jf_shell_facts *sh = &c->ctx->facts->shell;
	for (size_t i = 0; i < sh->pins.size; i++)
		if (jf_dist_name_eq(sh->pins.items[i].name, strlen(sh->pins.items[i].name), dist))
			return &sh->pins.items[i].at;
	const jf_job_image *ji = &c->ctx->facts->job->image;
	for (size_t i = 0; i < ji->installs.size; i++)
		if (jf_dist_name_eq(ji->installs.items[i].name.value,
		                    strlen(ji->installs.items[i].name.value), dist))
			return &ji->installs.items[i].name.at;
	return NULL;
}

/* Where the job's command starts: for notes about what it installs where
 * no word names it (the requirements of a project it installs). */
static jf_loc command_place(const checker *c)
{
	const jf_job *j = c->ctx->facts->job;
	for (size_t i = 0; i < j->command.size; i++)
		if (j->command.items[i].at.src)
			return j->command.items[i].at;
	return (jf_loc){ j->file, { 0, 0 } };
}

/* A finding that rests on the dependency data's bound: the distributions
 * without data, by the place that installs them (the command where no word
 * names them), and why each is taken not to bring `dist`. */
static void relate_unknowns(checker *c, jf_diag *d, const char *dist)
{
	jf_diag_set_unproven(d);
	size_t n = c->unknown.size;
	jf_loc *places = jf_xcalloc(n, sizeof *places);
	for (size_t i = 0; i < n; i++) {
		const jf_loc *at = install_place(c, c->unknown.items[i]);
		places[i] = at && at->src ? *at : command_place(c);
	}
	bool *said = jf_xcalloc(n, sizeof *said);
	for (size_t i = 0; i < n; i++) {
		if (said[i])
			continue;
		jf_buf names = JF_BUF_INIT;
		size_t count = 0;
		for (size_t k = i; k < n; k++)
			if (!said[k] && places[k].src == places[i].src &&
			    places[k].span.start == places[i].span.start &&
			    places[k].span.end == places[i].span.end) {
				jf_buf_addf(&names, "%s'%s'", count++ ? ", " : "", c->unknown.items[k]);
				said[k] = true;
			}
		jf_diag_relate(d, places[i].src, places[i].span,
		               "the job installs %s here, which ha%s no line in jobfix's dependency "
		               "data: %s would bring %s only by requiring it, and none of the %zu "
		               "distributions of the data requires %s",
		               names.buf, count == 1 ? "s" : "ve", count == 1 ? "it" : "they", dist,
		               jf_dist_count(), dist);
		jf_buf_release(&names);
	}
	free(said);
	free(places);
}

/* `s` as pip compares distribution names: lower case, `_` and `.` as `-`. */
static char *normalized(const char *s)
{
	char *n = jf_xstrdup(s);
	for (char *p = n; *p; p++)
		*p = *p == '_' || *p == '.' ? '-' : (char)tolower((unsigned char)*p);
	return n;
}

/* Whether distribution `dist`, which has no line in the data, may hold
 * module `top` itself: its name is the module's, or a run of the parts of
 * its name is ("taming" of taming-transformers-rom1504). */
static bool may_hold(const char *dist, const char *top)
{
	char *d = normalized(dist), *m = normalized(top);
	size_t n = strlen(m);
	bool found = false;
	for (const char *p = strstr(d, m); p && !found; p = strstr(p + 1, m))
		found = (p == d || p[-1] == '-') && (!p[n] || p[n] == '-');
	free(d);
	free(m);
	return found;
}

/* The first distribution without data that may hold `top` itself, or NULL. */
static const char *unknown_holding(const checker *c, const char *top)
{
	for (size_t i = 0; i < c->unknown.size; i++)
		if (may_hold(c->unknown.items[i], top))
			return c->unknown.items[i];
	return NULL;
}

/* Whether the data knows a distribution of module `module` (top-level
 * `top`): a line of import-names.txt, or a distribution of its name that
 * dependencies.txt has or one of its lines requires. */
static bool module_known(const char *module, const char *top)
{
	return jf_import_distributions(module) || jf_dist_requires(top) || jf_dist_required_by(top);
}

static void check_import(checker *c, jf_span at, const char *module)
{
	char *top = jf_xstrndup(module, strcspn(module, "."));
	if (is_local(c, top))
		goto done;
	const jf_stdlib_module *m = jf_stdlib_find(top);
	if (m) {
		check_stdlib(c, at, top, m);
		goto done;
	}
	/* "-" in the data: a project that is not on PyPI (apex, detectron2). */
	const char *own[] = { top, NULL };
	const char *const *dists = jf_import_distributions(module);
	bool on_pypi = !dists || strcmp(dists[0], "-");
	if (!dists || !on_pypi)
		dists = own;
	for (size_t i = 0; i < c->reported.size; i++) {
		struct reported *r = &c->reported.items[i];
		if (strcmp(r->top, top))
			continue;
		/* Already reported: a few more places as notes, then only the count. */
		/* By index: the report's array moves as it grows. */
		if (r->more++ < 3)
			jf_diag_relate(&c->ctx->out->report->diags.items[r->diag], c->unit->src,
			               at, "'%s' is imported here too", top);
		goto done;
	}
	/* Each module is a question once: could anything the job has bring it? */
	if (!jf_strmap_add(&c->asked, top))
		goto done;
	c->modules++;
	bool image_may = false;
	for (size_t i = 0; dists[i]; i++) {
		jf_tri has = jf_image_base_has_package(c->img, dists[i]);
		if (has == JF_YES || job_brings(c, dists[i]))
			goto done;
		image_may |= has == JF_UNKNOWN;
	}
	/* A folder the code puts on sys.path whose modules are not known (the
	 * image's, a mount's, one made at run time) may hold it. */
	const jf_strings *unknown_folders = &c->ctx->facts->sys_path_unknown_folders;
	if (unknown_folders->size) {
		if (!jf_strings_have(&c->unsure, top)) {
			jf_array_push(&c->unsure, jf_xstrdup(top));
			jf_sink_skip(c->ctx->out, JF110, "%s:%u: '%s' is not reported missing: %s, "
			                                 "which may hold it",
			             c->unit->src->path, jf_source_line_of(c->unit->src, at.start) + 1,
			             top, unknown_folders->items[0]);
		}
		c->open++;
		goto done;
	}
	/* What jobfix does not know may still bring it (docs: rules/JF110.md):
	 * the image's package list where it is partial, an install it cannot
	 * name (which may be the distribution itself), a distribution without
	 * data whose name names the module, or that may hold it under another
	 * name when no distribution of the data is known to, or one that
	 * requires it or one of the distributions that the data says require
	 * it. Taken as bounds, and
	 * said with the finding, which is then a warning: a distribution that
	 * no line of the data requires is not required by those without data
	 * either; a module that the repository holds and no distribution of the
	 * data provides is not in a stock image whose package list is partial. */
	const jf_job *j = c->ctx->facts->job;
	const char *folder = NULL;
	bool own_code = false;
	const char *first;
	size_t dependents = required_by(dists, &first);
	if (c->unnamed) {
		give_up(c, OPEN_UNNAMED, at, top, NULL);
		goto done;
	}
	const char *holder = unknown_holding(c, top);
	if (holder) {
		char *detail = jf_xasprintf("'%s'", holder);
		give_up(c, OPEN_SHIPPED, at, top, detail);
		free(detail);
		goto done;
	}
	/* A module no distribution of the data is known to hold: the
	 * repository's own, or one that jobfix's data misses, which a
	 * distribution without data may hold under another name. */
	bool known = module_known(module, top);
	if (!known && !dependents && ((image_may && c->img->catalog) || c->unknown.size))
		folder = module_anywhere(c, top);
	own_code = folder != NULL;
	if (!known && c->unknown.size && !own_code) {
		give_up(c, OPEN_UNCLAIMED, at, top, NULL);
		goto done;
	}
	if (image_may && !(own_code && c->img->catalog)) {
		give_up(c, OPEN_IMAGE, at, top, NULL);
		goto done;
	}
	if (dependents && c->unknown.size) {
		char *detail = jf_xasprintf("%zu distribution%s of the data require%s %s, such as %s",
		                            dependents, dependents == 1 ? "" : "s",
		                            dependents == 1 ? "s" : "", dists[0], first);
		give_up(c, OPEN_REQUIRED, at, top, detail);
		free(detail);
		goto done;
	}
	/* A module of the repository in a folder nothing puts on sys.path. */
	if (!folder)
		folder = module_anywhere(c, top);
	bool elsewhere = folder != NULL;
	jf_diag *d;
	if (elsewhere) {
		char *shown = jf_path_join(j->code_display, folder);
		d = jf_sink_add(c->ctx->out, JF110, c->unit->src, at,
		                "module '%s' is in %s/, which is not on sys.path, and not installed "
		                "in the image (ModuleNotFoundError)",
		                top, shown);
		/* Python puts the script's folder on sys.path, not the one it runs in. */
		char *cfolder = j->workdir.value ? jf_path_join(j->workdir.value, *folder ? folder : ".")
		                : *folder        ? jf_xasprintf("the code's folder %s/", folder)
		                                 : jf_xstrdup("the code's top folder");
		jf_diag_set_help(d, "add %s to PYTHONPATH (in the job's env or before the command), "
		                    "install the project that holds it, or import it by its package "
		                    "path",
		                 cfolder);
		free(cfolder);
		free(shown);
	} else {
		d = jf_sink_add(c->ctx->out, JF110, c->unit->src, at,
		                "module '%s' is not installed in the image (ModuleNotFoundError)", top);
	}
	/* A relative folder the code puts on sys.path is the working folder's. */
	const jf_facts *f = c->ctx->facts;
	for (size_t i = 0; elsewhere && i < f->sys_path_relative.size; i++) {
		const jf_sys_path_relative *rel = &f->sys_path_relative.items[i];
		jf_diag_relate(d, rel->src, rel->at,
		               "this puts %s on sys.path: Python reads a relative folder against the "
		               "one the job runs in, %s",
		               rel->cpath, rel->cwd);
	}
	struct reported r = { jf_xstrdup(top), c->ctx->out->report->diags.size - 1, 0 };
	jf_array_push(&c->reported, r);
	if (own_code && image_may) {
		jf_diag_set_unproven(d);
		jf_diag_relate(d, c->img->ref_at.src, c->img->ref_at.span,
		               "jobfix's image catalog lists part of the packages of '%s', and no "
		               "distribution jobfix knows of holds '%s': a stock image does not have "
		               "the repository's own modules",
		               c->img->base ? c->img->base : c->img->ref, top);
	} else {
		jf_image_relate(d, c->img, JF_FACT_PACKAGES, "no %s", dists[0]);
	}
	if (c->unknown.size)
		relate_unknowns(c, d, dists[0]);
	if (!elsewhere && on_pypi && c->img->conda)
		jf_diag_set_help(d, "add '%s' to the pip list of the conda file", dists[0]);
	else if (!elsewhere && on_pypi)
		jf_diag_set_help(d, "install '%s' in the image, or run `pip install --user %s` in the "
		                    "launch script before Python starts",
		                 dists[0], dists[0]);
	else if (!elsewhere)
		jf_diag_set_help(d, "install '%s' in the image (it is not on PyPI)", top);
done:
	free(top);
}

/* An import that runs whenever its file does: the module as written, where. */
typedef struct {
	jf_span at;
	const char *module;
} import_use;

typedef JF_ARRAY(import_use) imports_record;

void *jf_packages_record(const jf_record_ctx *ctx, const jf_pyfacts *py)
{
	jf_arena *arena = ctx->arena;
	const jf_file *unit = py->file;
	imports_record *r = jf_arena_alloc(arena, sizeof *r);
	r->items = jf_arena_calloc(arena, py->absolute_imports.size, sizeof *r->items);
	for (size_t i = 0; i < py->absolute_imports.size; i++) {
		TSNode at = py->absolute_imports.items[i];
		TSNode stmt = ts_node_parent(at);
		if (jf_node_type_is(stmt, JF_T_aliased_import))
			stmt = ts_node_parent(stmt);
		if (!always_runs(unit, stmt))
			continue;
		r->items[r->size++] = (import_use){ jf_node_span(at), jf_node_text_in(arena, unit, at) };
	}
	return r;
}

void jf_packages_record_write(jf_buf *b, const void *record)
{
	const imports_record *r = record;
	jf_wire_put_u32(b, (uint32_t)r->size);
	for (size_t i = 0; i < r->size; i++) {
		jf_wire_put_span(b, r->items[i].at);
		jf_wire_put_str(b, r->items[i].module);
	}
}

void *jf_packages_record_load(jf_wire *w, jf_arena *arena, const jf_file *file)
{
	imports_record *r = jf_arena_alloc(arena, sizeof *r);
	r->items = jf_wire_get_items(w, arena, sizeof *r->items, 12, &r->size);
	r->cap = r->size;
	for (size_t i = 0; i < r->size; i++) {
		r->items[i].at = jf_wire_get_span_in(w, file->src->len);
		r->items[i].module = jf_wire_get_str_in(w, arena);
		if (!r->items[i].module)
			w->bad = true;
	}
	return r;
}

static void check_imports_in(void *state, size_t index, const jf_file *u)
{
	(void)index;
	checker *c = state;
	if (!jf_runs_python(u))
		return;
	if (u->lazy) {
		/* As for an import inside a function: it fails only when that runs. */
		jf_sink_skip(c->ctx->out, JF110, "%s is imported only inside functions: its "
		                                 "imports are not checked",
		             u->src->path);
		return;
	}
	c->unit = u;
	const imports_record *r = jf_records_of(c->ctx->records, JF_RECORD_PACKAGES, u);
	for (size_t i = 0; r && i < r->size; i++)
		check_import(c, r->items[i].at, r->items[i].module);
}

static void check_packages_end(void *state)
{
	checker *c = state;
	say_give_ups(c);
	if (c->checking)
		jf_sink_cover_imports(c->ctx->out, c->open ? JF_COVER_PARTIAL : JF_COVER_CHECKED,
		                      c->modules, c->open, NULL);
	for (size_t i = 0; i < c->anywhere.size; i++) {
		free(c->anywhere.items[i].name);
		free(c->anywhere.items[i].folder);
	}
	jf_array_release(&c->anywhere);
	jf_strings_release(&c->unsure);
	jf_module_finder_release(&c->found);
	for (size_t i = 0; i < c->reported.size; i++) {
		struct reported *r = &c->reported.items[i];
		jf_diag *d = &c->ctx->out->report->diags.items[r->diag];
		if (r->more > 3)
			jf_diag_relate(d, d->src, d->span, "and %zu more imports of '%s'", r->more - 3,
			               r->top);
		free(r->top);
	}
	jf_array_release(&c->reported);
	for (size_t i = 0; i < c->give_ups.size; i++)
		jf_buf_release(&c->give_ups.items[i].modules);
	jf_array_release(&c->give_ups);
	jf_strmap_release(&c->asked);
	jf_strings_release(&c->brought);
	jf_strings_release(&c->unknown);
	jf_buf_release(&c->unknown_list);
	free(c);
}

/* Adds `dist` to the distributions without data, once. */
static void add_unknown(checker *c, const char *dist)
{
	for (size_t i = 0; i < c->unknown.size; i++)
		if (jf_dist_name_eq(c->unknown.items[i], strlen(c->unknown.items[i]), dist))
			return;
	jf_array_push(&c->unknown, jf_xstrdup(dist));
}

/* What may bring a module that the known installs do not: the job's and the
 * image build's distributions without data, and an install jobfix cannot name. */
static void read_unknowns(checker *c)
{
	const jf_shell_facts *sh = &c->ctx->facts->shell;
	const jf_image *img = c->img;
	for (size_t i = 0; i < sh->installed.size; i++)
		if (!jf_dist_requires(sh->installed.items[i]))
			add_unknown(c, sh->installed.items[i]);
	for (size_t i = 0; i < img->unknown_installs.size; i++)
		add_unknown(c, img->unknown_installs.items[i]);
	c->unnamed = sh->installs_unknown
	                     ? sh->installs_why ? sh->installs_why
	                                        : "the job installs what jobfix cannot name"
	                     : img->unnamed_install;
	c->brings_unknown = c->unnamed || c->unknown.size;
	for (size_t i = 0; i < c->unknown.size; i++)
		jf_buf_addf(&c->unknown_list, "%s'%s'",
		            !i                          ? ""
		            : i + 1 == c->unknown.size ? " and "
		                                       : ", ",
		            c->unknown.items[i]);
}

void jf_check_packages(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule;
	const jf_image *img = ctx->facts->image;
	/* Why the environment's packages are unknown, or what they were taken
	 * from; the modules of the code that are not read. */
	jf_check_say_job(ctx, JF110, JF_JOB_PACKAGES);
	for (size_t i = 0; i < ctx->facts->ws->unread.size; i++)
		jf_sink_skip(ctx->out, JF110, "%s", ctx->facts->ws->unread.items[i]);
	for (size_t i = 0; i < ctx->facts->sys_path_why.size; i++)
		jf_sink_skip(ctx->out, JF110, "%s", ctx->facts->sys_path_why.items[i]);
	if (!ctx->facts->job || !ctx->facts->job->code_dir) {
		jf_sink_cover_imports(ctx->out, JF_COVER_NOT_CHECKED, 0, 0, "the job has no code");
		return;
	}
	bool python = false;
	for (size_t i = 0; i < ctx->facts->ws->files.size && !python; i++)
		python = ctx->facts->ws->files.items[i]->lang == JF_LANG_PYTHON;
	/* No Python file: what would run one is not followed, or a program
	 * jobfix does not know runs it (or none runs: not told apart). */
	const jf_strings *not_followed = &ctx->facts->shell.not_followed;
	if (!python) {
		char *why = jf_xasprintf("no Python file of the job is followed%s%s",
		                         not_followed->size ? ": " : "",
		                         not_followed->size ? not_followed->items[0] : "");
		jf_sink_cover_imports(ctx->out, JF_COVER_NOT_CHECKED, 0, 0, why);
		free(why);
	}
	checker *c = jf_xcalloc(1, sizeof *c);
	*c = (checker){ .ctx = ctx, .img = img, .unknown_list = JF_BUF_INIT };
	/* What the job installs brings its requirements: `pip install pandas`
	 * installs numpy too. */
	jf_dist_closure(&ctx->facts->shell.installed, &c->brought);
	read_unknowns(c);
	if (python && !jf_image_known(img))
		jf_sink_skip(ctx->out, JF110, "%s; declare image.manifest (the image's `pip freeze`) "
		                              "to check every import",
		             jf_image_unknown_reason(img));
	if (python && !img->py_major)
		jf_sink_skip(ctx->out, JF111, "the image's Python version is unknown: declare "
		                          "image.python (\"3.10\") to check standard-library imports");
	if (!jf_image_known(img)) {
		if (python)
			jf_sink_cover_imports(ctx->out, JF_COVER_NOT_CHECKED, 0, 0,
			                      jf_image_unknown_reason(img));
		check_packages_end(c);
		return;
	}
	c->checking = python;
	static const jf_file_part part = { NULL, check_imports_in, check_packages_end };
	jf_check_each_file(ctx, &part, c);
}
