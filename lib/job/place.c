/* place.c - where a job's code is, when the file does not say: tried on the scripts it names */
#define _XOPEN_SOURCE 700 /* realpath */
#include "job/place.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/deps.h"
#include "core/path.h"

/* How many folders above the job file its repository's top is, or -1 when none. */
static long levels_to_top(const jf_job *j)
{
	jf_deps_note(JF_DEP_REAL, *j->file_dir ? j->file_dir : ".");
	char *at = realpath(*j->file_dir ? j->file_dir : ".", NULL);
	long levels = 0;
	bool found = false;
	while (at) {
		char *git = jf_path_join(at, ".git");
		jf_deps_note(JF_DEP_KIND, git);
		found = access(git, F_OK) == 0;
		free(git);
		if (found || !strcmp(at, "/"))
			break;
		char *parent = jf_path_dirname(at);
		free(at);
		at = parent;
		levels++;
	}
	free(at);
	return found ? levels : -1;
}

/* `rel` from the folder `levels` above the job file's, on this machine and as
 * shown (in the job's arena). */
static jf_job_place above(jf_job *j, long levels, const char *rel)
{
	jf_buf up = JF_BUF_INIT;
	for (long k = 0; k < levels; k++)
		jf_buf_adds(&up, "../");
	char *at = jf_path_join(up.len ? up.buf : ".", rel);
	jf_job_place p = { jf_path_join(j->file_dir, at), jf_path_join(j->display_dir, at) };
	free(at);
	jf_buf_release(&up);
	jf_arena_adopt(&j->arena, p.dir);
	jf_arena_adopt(&j->arena, p.display);
	return p;
}

size_t jf_job__places(jf_job_read *r, const char *rel, jf_job_place *out, size_t max)
{
	long top = levels_to_top(r->job);
	size_t n = 0;
	for (long k = 0; k <= (top < 0 ? 0 : top) && n < max; k++) {
		jf_job_place p = above(r->job, k, rel);
		if (jf_path_is_dir(p.dir))
			out[n++] = p;
	}
	return n;
}

bool jf_job__repo_top(jf_job_read *r, jf_job_place *out)
{
	long top = levels_to_top(r->job);
	if (top >= 0)
		*out = above(r->job, top, ".");
	return top >= 0;
}

bool jf_job__nearest_file(jf_job_read *r, const char *name, jf_job_place *out)
{
	long top = levels_to_top(r->job);
	for (long k = 0; k <= (top < 0 ? 0 : top); k++) {
		jf_job_place p = above(r->job, k, name);
		if (jf_path_is_file(p.dir)) {
			*out = p;
			return true;
		}
	}
	return false;
}

typedef struct {
	const char *const *needles;
	jf_job_place *out;
	size_t max, n;
	size_t budget;
	jf_arena *arena;
} yaml_find;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the first bytes of regular file `path` hold every needle. */
static bool file_holds(const char *path, const char *const *needles)
{
	jf_deps_note(JF_DEP_LKIND, path);
	jf_deps_note(JF_DEP_FILE, path);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	struct stat st;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	char *buf = jf_xmalloc(JF_JOB_SNIFF_BYTES + 1);
	ssize_t got = read(fd, buf, JF_JOB_SNIFF_BYTES);
	close(fd);
	bool all = got > 0;
	if (all)
		buf[got] = '\0';
	for (size_t i = 0; all && needles[i]; i++)
		all = strstr(buf, needles[i]) != NULL;
	free(buf);
	return all;
}

/* Walks `dir` (shown as `shown`), but not its entry `skip` (walked already). */
static void find_in(yaml_find *f, const char *dir, const char *shown, int depth, const char *skip)
{
	jf_deps_note(JF_DEP_DIR, dir);
	DIR *d = opendir(dir);
	if (!d)
		return;
	jf_strings names = { 0 };
	for (struct dirent *e; f->budget && (e = readdir(d)); f->budget--)
		if (e->d_name[0] != '.' && strcmp(e->d_name, "node_modules") &&
		    (!skip || strcmp(e->d_name, skip)))
			jf_array_push(&names, jf_xstrdup(e->d_name));
	closedir(d);
	if (names.size)
		qsort(names.items, names.size, sizeof *names.items, name_cmp);
	for (size_t i = 0; i < names.size && f->n < f->max; i++) {
		char *path = jf_path_join(dir, names.items[i]);
		char *sh = jf_path_join(shown, names.items[i]);
		struct stat st;
		jf_deps_note(JF_DEP_LKIND, path);
		if (lstat(path, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < 12)
				find_in(f, path, sh, depth + 1, NULL);
		} else if (S_ISREG(st.st_mode) &&
		           (jf_str_ends(names.items[i], ".yaml") || jf_str_ends(names.items[i], ".yml")) &&
		           file_holds(path, f->needles)) {
			f->out[f->n++] = (jf_job_place){ path, sh };
			jf_arena_adopt(f->arena, path);
			jf_arena_adopt(f->arena, sh);
			path = sh = NULL;
		}
		free(path);
		free(sh);
	}
	jf_strings_release(&names);
}

size_t jf_job__find_yaml(jf_job_read *r, const char *const *needles, jf_job_place *out,
                         size_t max)
{
	/* The job file's folder, then each folder above it without what was
	 * walked: the nearest definitions first. */
	long top = levels_to_top(r->job);
	yaml_find f = { needles, out, max, 0, JF_JOB_FIND_BUDGET, &r->job->arena };
	char *skip = NULL;
	for (long k = 0; k <= (top < 0 ? 0 : top) && f.n < max && f.budget; k++) {
		jf_job_place p = above(r->job, k, ".");
		find_in(&f, p.dir, p.display, 0, skip);
		free(skip);
		jf_deps_note(JF_DEP_REAL, *p.dir ? p.dir : ".");
		char *real = realpath(*p.dir ? p.dir : ".", NULL);
		const char *slash = real ? strrchr(real, '/') : NULL;
		skip = slash && slash[1] ? jf_xstrdup(slash + 1) : NULL;
		free(real);
	}
	free(skip);
	if (!f.budget)
		jf_job__unknown(r, JF_JOB_COMMAND,
		                "the search for the repository's YAML files that define what %s names "
		                "stopped after %d folder entries: a definition further on is not read",
		                r->src->path, JF_JOB_FIND_BUDGET);
	return f.n;
}

void jf_job__set_code(jf_job_read *r, const jf_job_place *p)
{
	r->job->code_dir = p->dir;
	r->job->code_display = p->display;
}

typedef jf_strings words;

/* Whether `w` is a word a linter can take as a relative path: no expansion, glob or URL. */
static bool is_literal_relative(const char *w)
{
	return *w && w[0] != '/' && w[0] != '-' && !strpbrk(w, "$~*?[{}:%@\\");
}

static bool is_script(const char *w)
{
	return jf_str_ends(w, ".py") || jf_str_ends(w, ".sh") || jf_str_ends(w, ".bash");
}

/* The words of a shell text, split at blanks, quotes, operators and '='. */
static void split(const char *text, words *out)
{
	const char *seps = " \t\r\n;|&()<>\"'`=,";
	for (const char *p = text; *p;) {
		p += strspn(p, seps);
		if (*p == '#') { /* a comment, to the end of its line */
			p += strcspn(p, "\n");
			continue;
		}
		size_t n = strcspn(p, seps);
		if (n)
			jf_array_push(out, jf_xstrndup(p, n));
		p += n;
	}
}

/* Whether `ref` is a file under `dir`, or under one of the folders `cds` below it. */
static bool holds(const char *dir, const char *ref, const words *cds)
{
	bool here = false;
	for (size_t k = 0; !here && k <= cds->size; k++) {
		char *base = k < cds->size ? jf_path_join(dir, cds->items[k]) : jf_xstrdup(dir);
		char *p = jf_path_join(base, ref);
		here = jf_path_is_file(p);
		free(p);
		free(base);
	}
	return here;
}

jf_place_outcome jf_job__pick_place(const jf_job_place *cands, size_t n, const char *const *texts,
                                    size_t ntexts, jf_job_place *out)
{
	words all = { 0 }, refs = { 0 }, cds = { 0 };
	for (size_t t = 0; t < ntexts; t++)
		if (texts[t])
			split(texts[t], &all);
	for (size_t i = 0; i < all.size; i++) {
		const char *w = all.items[i];
		bool after_cd = i > 0 && (!strcmp(all.items[i - 1], "cd") ||
		                          !strcmp(all.items[i - 1], "pushd"));
		if (!is_literal_relative(w))
			continue;
		if (after_cd)
			jf_array_push(&cds, jf_xstrdup(w));
		else if (is_script(w))
			jf_array_push(&refs, jf_xstrdup(w));
	}
	jf_place_outcome how = JF_PLACE_NO_SCRIPT;
	*out = cands[0];
	if (refs.size) {
		/* The candidate that holds the most of them, and every one another holds. */
		bool *in = jf_xcalloc(n * refs.size, sizeof(bool));
		size_t best = 0, best_at = 0;
		for (size_t c = 0; c < n; c++) {
			size_t s = 0;
			for (size_t i = 0; i < refs.size; i++)
				s += in[c * refs.size + i] = holds(cands[c].dir, refs.items[i], &cds);
			if (s > best) {
				best = s;
				best_at = c;
			}
		}
		how = best ? JF_PLACE_FOUND : JF_PLACE_NONE;
		for (size_t c = 0; best && c < n; c++)
			for (size_t i = 0; c != best_at && i < refs.size; i++)
				if (in[c * refs.size + i] && !in[best_at * refs.size + i])
					how = JF_PLACE_BOTH;
		free(in);
		if (how == JF_PLACE_FOUND)
			*out = cands[best_at];
	}
	jf_strings_release(&all);
	jf_strings_release(&refs);
	jf_strings_release(&cds);
	return how;
}
