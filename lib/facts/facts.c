/* facts.c - gathering the facts of a lint: the command's shell, the Python files, imports
 *
 * The shell walks the command first and loads the scripts it runs. Then each
 * Python file of the workspace, in the order it was read, has the local
 * modules it imports loaded after it (in a job); the list grows while it is
 * read, so modules are followed in turn. Each file is walked once
 * (python/pyfacts.c) as soon as it is loaded, and its imports kept as text, so
 * that its tree may go before the gather reaches it. The shell asks about a
 * Python file it runs (is it a launcher of another script?) through
 * jf_shell_host; its facts are read then, once.
 */
#include "facts/facts.h"

#include "core/path.h"
#include "python/cmdline.h"
#include "python/syspath.h"
#include "sources/imports.h"
#include "sources/prefetch.h"
#include "sources/tree.h"

typedef struct {
	size_t index; /* the file's */
	jf_prefetch_task *task;
} ahead_parse;

typedef struct jf_resident {
	jf_workspace *ws;
	/* By file index: the facts, NULL when not read or released; their names,
	 * set when read and kept after (NULL: never read). */
	JF_ARRAY(jf_pyfacts *) python;
	JF_ARRAY(jf_py_names *) names;
	/* The released files named last to jf_facts_read_ahead(), each with
	 * its parse on the workspace's pool; NULL once taken. */
	JF_ARRAY(ahead_parse) ahead;
	size_t budget; /* jf_facts_gather()'s tree_budget */
	bool budget_fits_largest;          /* and whether it grows to twice the largest file */
	const jf_facts_recorder *recorder; /* and its recorder, or NULL */
	size_t largest; /* the source bytes of the largest file read */
	size_t bytes; /* the source bytes of the files read whose trees are in memory */
	size_t trees, trees_peak; /* how many such files, now and at most */
	size_t ahead_peak; /* the most source bytes named to be parsed again at once */
	jf_strmap edits_read; /* the files whose changes to sys.path were read, by path */
} jf_resident;

/* Whether the `i`th file was read, then released. */
static bool released(const jf_resident *r, size_t i)
{
	return !r->python.items[i] && r->names.items[i];
}

/* The tree of released file `file`, parsed again: by the pool when it was
 * named to it ahead, else here. */
static TSTree *parse_again(jf_resident *r, jf_file *file)
{
	for (size_t k = 0; k < r->ahead.size; k++) {
		ahead_parse *a = &r->ahead.items[k];
		if (a->index == file->index && a->task) {
			jf_prefetch_task *t = a->task;
			a->task = NULL;
			return jf_prefetch_parsed(r->ws->prefetch, r->ws->parsers, t);
		}
	}
	return jf_parse(r->ws->parsers, JF_LANG_PYTHON, file->src, NULL, 0);
}

/* Makes room for Python file `file`, and reads back its names when it was
 * loaded kept (a file read back this way is a released one). */
static void track(jf_resident *r, jf_file *file)
{
	while (r->python.size <= file->index) {
		jf_array_push(&r->python, NULL);
		jf_array_push(&r->names, NULL);
	}
	if (file->kept && !r->names.items[file->index] && r->recorder && r->recorder->restore)
		r->names.items[file->index] = r->recorder->restore(r->recorder->data, file);
}

/* The facts of Python file `file`, read on first use, and read again after
 * its tree was released. */
static const jf_pyfacts *python_of(jf_resident *r, jf_file *file)
{
	if (file->lang != JF_LANG_PYTHON)
		return NULL;
	track(r, file);
	jf_pyfacts **slot = &r->python.items[file->index];
	if (*slot)
		return *slot;
	if (!file->tree) {
		/* Released (settle()), or kept: parsed within the time budget
		 * before, the same text parses again. */
		file->tree = parse_again(r, file);
		if (!file->tree)
			return NULL;
	}
	*slot = jf_pyfacts_read(file);
	r->bytes += file->src->len;
	if (file->src->len > r->largest)
		r->largest = file->src->len;
	if (++r->trees > r->trees_peak)
		r->trees_peak = r->trees;
	bool first = !r->names.items[file->index];
	if (first) {
		jf_py_names *names = jf_py_names_read(*slot);
		names->cmdline = jf_cmdline_record_of(&names->arena, *slot);
		r->names.items[file->index] = names;
	}
	(*slot)->names = r->names.items[file->index];
	if (first && r->recorder)
		r->recorder->take(r->recorder->data, *slot);
	return *slot;
}

/* The names of Python file `file`: those kept of a kept file, else read
 * with its facts on first use (NULL: it has none). */
static const jf_py_names *names_of(jf_resident *r, jf_file *file)
{
	if (file->lang != JF_LANG_PYTHON)
		return NULL;
	track(r, file);
	if (!r->names.items[file->index])
		python_of(r, file);
	return r->names.items[file->index];
}

/* A file the facts have read, looked up again if it was released. */
static const jf_pyfacts *python_read(const jf_resident *r, const jf_file *file)
{
	if (!r || (!file->kept && file->index >= r->python.size))
		return NULL;
	if (file->kept || released(r, file->index))
		return python_of((jf_resident *)r, r->ws->files.items[file->index]);
	return r->python.items[file->index];
}

const jf_pyfacts *jf_facts_python(const jf_facts *self, const jf_file *file)
{
	return python_read(self->resident, file);
}

TSTree *jf_facts_tree(const jf_facts *self, const jf_file *file)
{
	python_read(self->resident, file);
	return file->tree;
}

/* Releases trees above the budget. The gather and
 * the checks' pass read the files in the workspace's order: the last go
 * first, so that the first files stay and only those beyond the budget are
 * parsed again. */
static void settle(jf_resident *r)
{
	size_t budget = r->budget;
	if (r->budget_fits_largest && budget < 2 * r->largest)
		budget = 2 * r->largest;
	for (size_t i = r->python.size; i-- > 0 && r->bytes > budget;) {
		jf_file *file = r->ws->files.items[i];
		if (!r->python.items[i] || !file->fs_path)
			continue;
		jf_pyfacts_free(r->python.items[i]);
		r->python.items[i] = NULL;
		ts_tree_delete(file->tree);
		file->tree = NULL;
		r->bytes -= file->src->len;
		r->trees--;
	}
}

/* Names files `from` on of the `size` of `files` to the pool, about to be
 * read in that order (JF_READ_AHEAD at most, and those parsed again within
 * JF_READ_AHEAD_BYTES of source but the first), and forgets those named
 * before that are not among them. */
static void read_ahead(jf_resident *r, const jf_file *const *files, size_t from, size_t size)
{
	if (!r || !r->ws->prefetch)
		return;
	size_t n = size - from < JF_READ_AHEAD ? size - from : JF_READ_AHEAD, bytes = 0;
	ahead_parse was[JF_READ_AHEAD]; /* the files named before: at most as many */
	size_t had = r->ahead.size;
	for (size_t k = 0; k < had; k++)
		was[k] = r->ahead.items[k];
	r->ahead.size = 0;
	for (size_t m = 0; m < n; m++) {
		const jf_file *file = files[from + m];
		bool again = file->index < r->python.size && released(r, file->index);
		if (again && m > 0 && bytes + file->src->len > JF_READ_AHEAD_BYTES)
			break;
		bytes += again ? file->src->len : 0;
		ahead_parse a = { file->index, NULL };
		for (size_t k = 0; k < had && !a.task; k++)
			if (was[k].index == a.index) {
				a.task = was[k].task;
				was[k].task = NULL;
			}
		if (!a.task && again)
			a.task = jf_prefetch_parse_ahead(r->ws->prefetch, file->src, JF_LANG_PYTHON);
		if (a.task)
			jf_array_push(&r->ahead, a);
	}
	for (size_t k = 0; k < had; k++)
		if (was[k].task)
			jf_prefetch_cancel(r->ws->prefetch, was[k].task);
	if (bytes > r->ahead_peak)
		r->ahead_peak = bytes;
}

void jf_facts_read_ahead(const jf_facts *self, const jf_file *const *files, size_t from,
                         size_t size)
{
	read_ahead(self->resident, files, from, size);
}

void jf_facts_settle(const jf_facts *self)
{
	if (self->resident)
		settle(self->resident);
}

static const jf_pyfacts *pyfiles_get(const void *data, const jf_file *file)
{
	return python_read(data, file);
}

static const jf_py_names *pyfiles_names(const void *data, const jf_file *file)
{
	const jf_resident *r = data;
	return r && file->index < r->names.size ? r->names.items[file->index] : NULL;
}

size_t jf_facts_trees_peak(const jf_facts *self)
{
	return self->resident ? self->resident->trees_peak : 0;
}

size_t jf_facts_ahead_peak(const jf_facts *self)
{
	return self->resident ? self->resident->ahead_peak : 0;
}

jf_pyfiles jf_facts_pyfiles(const jf_facts *self)
{
	return (jf_pyfiles){ self->ws, pyfiles_get, self->resident, pyfiles_names,
		             self->called_known ? &self->called : NULL,
		             self->called_known ? self->own_calls.items : NULL };
}

/* The imports of Python file `file`, read on first use (NULL: it has no
 * facts). Its tree is not read again for them. */
static const jf_py_imports *imports_of(jf_resident *r, jf_file *file)
{
	const jf_py_names *names = names_of(r, file);
	return names ? &names->imports : NULL;
}

/* ---- sys.path as the job's Python changes it ---- */

/* The container folders a Python process that runs `file` starts in, into
 * `cwds`: its invocations' for an entry script, every invocation's for a
 * module (any of them may import it). False when one is not known. */
static bool working_folders(const jf_facts *out, const jf_file *file, jf_strings *cwds)
{
	const jf_shell_facts *sh = &out->shell;
	for (int pass = file->role == JF_ROLE_ENTRY ? 0 : 1; pass < 2 && !cwds->size; pass++)
		for (size_t i = 0; i < sh->invocations.size; i++) {
			const jf_invocation *inv = &sh->invocations.items[i];
			if (pass == 0 && inv->entry != file)
				continue;
			if (!inv->cwd)
				return false;
			if (!jf_strings_have(cwds, inv->cwd))
				jf_array_push(cwds, jf_xstrdup(inv->cwd));
		}
	return cwds->size > 0;
}

/* Whether the job's command makes container folder `cpath` (or one above it)
 * at run time: a clone, an archive unpacked. */
static bool made_at_run_time(const jf_shell_facts *sh, const char *cpath)
{
	for (size_t i = 0; i < sh->produced.size; i++)
		if (jf_path_under(cpath, sh->produced.items[i]))
			return true;
	return false;
}

static void add_folder(jf_strings *list, const char *dir)
{
	if (!jf_strings_have(list, dir))
		jf_array_push(list, jf_xstrdup(dir));
}

static unsigned line_of(const jf_file *file, const jf_syspath_edit *e)
{
	return jf_source_line_of(file->src, e->at.start) + 1;
}

/* Places container folder `cpath`, added to sys.path by `e` of `file`:
 * a folder of the code is put on the facts' sys.path, anything else is a
 * folder whose modules are not known. */
static void place_folder(jf_facts *out, jf_workspace *ws, const jf_file *file,
                         const jf_syspath_edit *e, const char *cpath)
{
	const jf_job *job = out->job;
	const char *rel = jf_path_under(cpath, jf_job_workdir(job));
	char *local = rel ? jf_path_join(job->code_dir, rel) : NULL;
	if (local && jf_workspace_path_kind(ws, local) != JF_PATH_DIR &&
	    made_at_run_time(&out->shell, cpath)) {
		jf_array_push(&out->sys_path_unknown_folders,
		              jf_xasprintf("%s:%u puts %s, which the job makes at run time, on "
		                           "sys.path",
		                           file->src->path, line_of(file, e), cpath));
	} else if (local) {
		/* A folder that is not there holds nothing: Python skips it. */
		add_folder(e->first ? &out->sys_path_first : &out->sys_path_last, local);
	} else {
		jf_array_push(&out->sys_path_unknown_folders,
		              jf_xasprintf("%s:%u puts %s, outside the code, on sys.path",
		                           file->src->path, line_of(file, e), cpath));
	}
	free(local);
}

/* Reads the changes Python file `file` makes to sys.path into the facts,
 * once per file, before the gather follows the imports after them. */
static void read_sys_path_edits(jf_facts *out, jf_resident *r, jf_file *file)
{
	if (file->lang != JF_LANG_PYTHON || !file->fs_path ||
	    jf_strmap_has(&r->edits_read, file->fs_path) ||
	    (!jf_python_mentions(file, "sys.path") && !jf_python_mentions(file, "addsitedir")))
		return;
	jf_strmap_add(&r->edits_read, file->fs_path);
	const jf_pyfacts *py = python_of(r, file);
	jf_syspath_edits edits = { 0 };
	if (py)
		jf_py_syspath_edits(out->job, py, &edits);
	jf_strings cwds = { 0 };
	bool cwds_known = false, cwds_read = false;
	for (size_t i = 0; i < edits.size; i++) {
		const jf_syspath_edit *e = &edits.items[i];
		const char *path = file->src->path;
		bool adds = jf_str_starts(e->text, "sys.path.") || jf_str_starts(e->text, "site.");
		if (!e->value) {
			out->sys_path_edits_unknown = true;
			jf_array_push(&out->sys_path_why,
			              jf_xasprintf(adds ? "%s:%u: `%s` adds a folder known only at run "
			                                  "time: any folder of the code may be on sys.path"
			                                : "%s:%u: `%s` changes sys.path in a way jobfix "
			                                  "does not evaluate: any folder of the code may "
			                                  "be on sys.path",
			                           path, line_of(file, e), e->text));
			continue;
		}
		if (e->value[0] == '/') {
			char *cpath = jf_path_normalize(e->value);
			place_folder(out, r->ws, file, e, cpath);
			free(cpath);
			continue;
		}
		/* Relative: to the folder the process runs in, as Python reads it. */
		if (!cwds_read) {
			cwds_known = working_folders(out, file, &cwds);
			cwds_read = true;
		}
		if (!cwds_known) {
			out->sys_path_edits_unknown = true;
			jf_array_push(&out->sys_path_why,
			              jf_xasprintf("%s:%u: `%s` adds '%s', relative to the folder the job "
			                           "runs in, which is known only at run time: any folder "
			                           "of the code may be on sys.path",
			                           path, line_of(file, e), e->text, e->value));
			continue;
		}
		for (size_t k = 0; k < cwds.size; k++) {
			char *cpath = jf_path_join(cwds.items[k], e->value);
			place_folder(out, r->ws, file, e, cpath);
			jf_sys_path_relative rel = { file->src, e->at, cpath, jf_xstrdup(cwds.items[k]) };
			jf_array_push(&out->sys_path_relative, rel);
		}
	}
	jf_strings_release(&cwds);
	jf_syspath_edits_release(&edits);
}

/* Loads the local modules that file `file` imports (`imports`); with
 * `prefetch`, only names them to the workspace's prefetch pool. Each file
 * an import loads is read at once, while the tree its load parsed is there,
 * and released above the budget; the changes it makes to sys.path count for
 * the imports after it. */
static void follow_imports(jf_facts *out, jf_resident *r, jf_file *file,
                           const jf_py_imports *imports, bool prefetch)
{
	jf_workspace *ws = r->ws;
	jf_importer im;
	jf_strings after = { 0 };
	size_t first = out->sys_path_first.size, last = out->sys_path_last.size;
	for (size_t i = 0; i < out->sys_path.size; i++)
		jf_array_push(&after, jf_xstrdup(out->sys_path.items[i]));
	for (size_t i = 0; i < last; i++)
		add_folder(&after, out->sys_path_last.items[i]);
	jf_importer_init(&im, out->job, ws, file, &out->sys_path_first, &after);
	im.prefetch = prefetch;
	for (size_t i = 0; i < imports->size; i++) {
		const jf_py_import_text *imp = &imports->items[i];
		size_t before = ws->files.size;
		im.lazy = !prefetch && imp->may_not_run;
		if (imp->module)
			jf_import_module(&im, imp->module, NULL);
		else if (imp->from && imp->from[0] == '.')
			jf_import_relative(&im, imp->from, imp->sub);
		else if (imp->from)
			jf_import_module(&im, imp->from, imp->sub);
		for (size_t k = before; k < ws->files.size; k++) {
			imports_of(r, ws->files.items[k]);
			if (!prefetch)
				read_sys_path_edits(out, r, ws->files.items[k]);
			settle(r);
		}
		/* A module it loaded changed sys.path: the next imports see it. */
		if (out->sys_path_first.size != first || out->sys_path_last.size != last) {
			jf_importer_release(&im);
			jf_strings_release(&after);
			first = out->sys_path_first.size;
			last = out->sys_path_last.size;
			for (size_t k = 0; k < out->sys_path.size; k++)
				jf_array_push(&after, jf_xstrdup(out->sys_path.items[k]));
			for (size_t k = 0; k < last; k++)
				add_folder(&after, out->sys_path_last.items[k]);
			jf_importer_init(&im, out->job, ws, file, &out->sys_path_first, &after);
			im.prefetch = prefetch;
		}
	}
	jf_importer_release(&im);
	jf_strings_release(&after);
}

/*
 * Adds the folders of PYTHONPATH value `value`, set for programs run in
 * container folder `cwd` (NULL: the workdir), that lie in the code folder.
 * Entries elsewhere are the image's or a mount's: not on this machine.
 */
static void add_pythonpath(jf_strings *out, const jf_job *job, const char *value, const char *cwd)
{
	const char *wd = jf_job_workdir(job);
	for (const char *p = value; p && *p;) {
		size_t n = strcspn(p, ":");
		char *entry = jf_xstrndup(p, n);
		char *cpath = jf_path_join(cwd ? cwd : wd, *entry ? entry : ".");
		const char *rel = jf_path_under(cpath, wd);
		if (rel) {
			char *dir = jf_path_join(job->code_dir, rel);
			bool seen = false;
			for (size_t i = 0; i < out->size && !seen; i++)
				seen = !strcmp(out->items[i], dir);
			if (seen)
				free(dir);
			else
				jf_array_push(out, dir);
		}
		free(cpath);
		free(entry);
		p += n + (p[n] == ':');
	}
}

/* Says once, at `src` and byte `at` (a NULL `src`: the job), that PYTHONPATH
 * is set to what is known only at run time, and `why`. */
static void pythonpath_open(jf_facts *out, const jf_source *src, uint32_t at, const char *why)
{
	char *s = src ? jf_xasprintf("%s:%u: %s: any folder of the code may be on sys.path",
	                             src->path, jf_source_line_of(src, at) + 1, why)
	              : jf_xasprintf("%s: any folder of the code may be on sys.path", why);
	out->sys_path_open = true;
	if (jf_strings_have(&out->sys_path_why, s))
		free(s);
	else
		jf_array_push(&out->sys_path_why, s);
}

static void gather_sys_path(jf_facts *out, const jf_job *job)
{
	if (!job->code_dir)
		return;
	for (size_t i = 0; i < out->shell.import_roots.size; i++)
		if (!jf_strings_have(&out->sys_path, out->shell.import_roots.items[i]))
			jf_array_push(&out->sys_path, jf_xstrdup(out->shell.import_roots.items[i]));
	const jf_job_var *pp = jf_job_env(job, "PYTHONPATH");
	if (pp && pp->value.value)
		add_pythonpath(&out->sys_path, job, pp->value.value, NULL);
	if (pp && !pp->value.value)
		pythonpath_open(out, pp->name.at.src, pp->name.at.span.start,
		                "the job sets PYTHONPATH to a value known only at run time");
	/* The image has a project installed from a folder of the code (its
	 * manifest's `fschat @ file:///workspace/FastChat`): what it put on
	 * sys.path, and what it required, are not read; any folder may be there. */
	for (size_t i = 0; i < out->image->local_projects.size; i++)
		if (jf_path_under(out->image->local_projects.items[i], jf_job_workdir(job))) {
			char *why = jf_xasprintf("the image has the project in %s installed, whose "
			                         "folders on sys.path are not read",
			                         out->image->local_projects.items[i]);
			pythonpath_open(out, NULL, 0, why);
			free(why);
		}
	const char *image_pp = jf_image_env(out->image, "PYTHONPATH");
	if (image_pp && !strchr(image_pp, '$'))
		add_pythonpath(&out->sys_path, job, image_pp, NULL);
	if (image_pp && strchr(image_pp, '$')) {
		char *why = jf_xasprintf("the image sets PYTHONPATH to '%s', known only at run time",
		                         image_pp);
		pythonpath_open(out, NULL, 0, why);
		free(why);
	}
	for (size_t i = 0; i < out->shell.invocations.size; i++) {
		const jf_invocation *inv = &out->shell.invocations.items[i];
		for (size_t k = 0; k < inv->env.size; k++) {
			const jf_word *w = &inv->env.items[k];
			const char *e = w->value;
			if (e && !strncmp(e, "PYTHONPATH=", 11))
				add_pythonpath(&out->sys_path, job, e + 11, inv->cwd);
			/* Its value is not known; at the script's word: no assignment
			 * is seen, but a file the shell sourced may have set it. */
			bool sourced = w->src == inv->script.src && w->span.start == inv->script.span.start;
			if (e && !strcmp(e, "PYTHONPATH"))
				pythonpath_open(out, w->src, w->span.start,
				                sourced ? "a file sourced or an environment activated before "
				                          "may set PYTHONPATH for the script run here"
				                        : "PYTHONPATH is set to a value known only at run "
				                          "time");
		}
	}
}

typedef struct {
	jf_facts *facts;
	jf_workspace *ws;
} host_data;

static long wrapped_script(void *data, const jf_file *entry, const jf_words *args)
{
	host_data *h = data;
	jf_file *file = h->ws->files.items[entry->index];
	const jf_pyfacts *py = python_of(h->facts->resident, file);
	jf_pyfiles files = jf_facts_pyfiles(h->facts);
	return jf_cmdline_wrapped_script(&files, py, args);
}

void jf_facts_gather(jf_facts *out, const jf_job *job, const jf_image *image, jf_workspace *ws,
                     const jf_gather_options *opts)
{
	memset(out, 0, sizeof(*out));
	out->job = job;
	out->image = image;
	out->ws = ws;
	jf_resident *r = out->resident = jf_xcalloc(1, sizeof *r);
	r->ws = ws;
	r->edits_read = (jf_strmap)JF_STRMAP_INIT;
	r->budget = opts->tree_budget;
	r->budget_fits_largest = opts->budget_fits_largest;
	r->recorder = opts->recorder;
	/* A file linted alone has no facts: the checks that read them need a job. */
	if (!job)
		return;
	host_data h = { out, ws };
	jf_shell_host host = { wrapped_script, &h };
	jf_shell_run(&out->shell, job, ws, &host);
	gather_sys_path(out, job);
	bool follow = job->command.size && job->code_dir && jf_path_is_dir(job->code_dir);
	/* The list grows while it is read: modules found are followed in turn.
	 * With a prefetch pool, the modules of a file and of the 8 files after it
	 * are named to the pool before the file's are loaded, so that they are
	 * parsed on other threads while this one walks and loads. */
	size_t named = 0; /* the files whose modules the pool knows */
	for (size_t i = 0; i < ws->files.size; i++) {
		for (; ws->prefetch && named < ws->files.size && named <= i + 8; named++) {
			jf_file *next = ws->files.items[named];
			const jf_py_imports *imports = imports_of(r, next);
			if (imports && follow && next->fs_path)
				follow_imports(out, r, next, imports, true);
		}
		jf_file *file = ws->files.items[i];
		const jf_py_imports *imports = imports_of(r, file);
		if (imports && follow && file->fs_path) {
			read_sys_path_edits(out, r, file);
			follow_imports(out, r, file, imports, false);
		}
		settle(r);
	}
	jf_pyfiles files = jf_facts_pyfiles(out);
	jf_py_called_names(&files, NULL, &out->called);
	for (size_t i = 0; i < ws->files.size; i++) {
		jf_strmap own = JF_STRMAP_INIT;
		const jf_py_names *names = pyfiles_names(r, ws->files.items[i]);
		if (names && ws->files.items[i]->role == JF_ROLE_MODULE)
			jf_py_own_calls(names, &out->called, &own);
		jf_array_push(&out->own_calls, own);
	}
	out->called_known = true;
	settle(r);
}

void jf_facts_release(jf_facts *self)
{
	jf_shell_facts_release(&self->shell);
	jf_strings_release(&self->sys_path);
	jf_strings_release(&self->sys_path_first);
	jf_strings_release(&self->sys_path_last);
	jf_strings_release(&self->sys_path_unknown_folders);
	for (size_t i = 0; i < self->sys_path_relative.size; i++) {
		free(self->sys_path_relative.items[i].cpath);
		free(self->sys_path_relative.items[i].cwd);
	}
	jf_array_release(&self->sys_path_relative);
	jf_strings_release(&self->sys_path_why);
	jf_strmap_release(&self->called);
	for (size_t i = 0; i < self->own_calls.size; i++)
		jf_strmap_release(&self->own_calls.items[i]);
	jf_array_release(&self->own_calls);
	jf_resident *r = self->resident;
	if (r) {
		for (size_t i = 0; i < r->python.size; i++) {
			jf_pyfacts_free(r->python.items[i]);
			jf_py_names_free(r->names.items[i]);
		}
		jf_array_release(&r->ahead); /* the pool dropped what was not taken */
		jf_array_release(&r->python);
		jf_array_release(&r->names);
		jf_strmap_release(&r->edits_read);
		free(r);
	}
	self->resident = NULL;
}
