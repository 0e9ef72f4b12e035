/* discover.c - the job specs of a folder tree, and what a file is to jobfix */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "core/confine.h"
#include "core/path.h"
#include "job/job.h"
#include "rules/config.h"

/* Folders deeper than this below the start are not searched. */
#define MAX_DEPTH 64

static bool is_job_name(const char *base)
{
	return !strcmp(base, "jobfix.yaml") || !strcmp(base, "job.yaml") ||
	       (jf_str_ends(base, ".job.yaml") && strlen(base) > strlen(".job.yaml"));
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

jf_file_kind jf_file_kind_of(const jf_config *config, const char *path)
{
	const char *base = base_name(path);
	if (is_job_name(base) || jf_config__is_job(config, path))
		return JF_FILE_JOB;
	if (jf_str_ends(base, ".py"))
		return JF_FILE_PYTHON;
	/* The files a job of another format may be: told by their content. */
	if ((jf_str_ends(base, ".yaml") || jf_str_ends(base, ".yml") || jf_str_ends(base, ".sh") ||
	     jf_str_ends(base, ".bash") || jf_str_ends(base, ".sbatch") ||
	     jf_str_ends(base, ".slurm") || !strchr(base, '.')) &&
	    jf_job_sniff_file(path))
		return JF_FILE_JOB;
	if (jf_str_ends(base, ".sh") || jf_str_ends(base, ".bash") || jf_str_ends(base, ".sbatch") ||
	    jf_str_ends(base, ".slurm"))
		return JF_FILE_SHELL;
	/* A script without a suffix: its #! line tells, as `jobfix lint` reads it. */
	if (strchr(base, '.'))
		return JF_FILE_OTHER;
	FILE *f = fopen(path, "rb");
	char line[128] = "";
	if (!f)
		return JF_FILE_OTHER;
	if (!fgets(line, sizeof line, f))
		line[0] = '\0';
	fclose(f);
	if (!jf_str_starts(line, "#!"))
		return JF_FILE_OTHER;
	if (strstr(line, "python"))
		return JF_FILE_PYTHON;
	return strstr(line, "sh") ? JF_FILE_SHELL : JF_FILE_OTHER;
}

typedef struct {
	dev_t dev;
	ino_t ino;
	bool used;
} dir_id;

typedef struct {
	const jf_config *config;
	/* Every folder searched, a hash set by device and inode: a folder reached
	 * again (a symbolic link loop, two links to one folder) is not searched twice. */
	dir_id *seen;
	size_t nseen, cap;
	char *start_real; /* a link to it or to a folder above it is a loop too */
	jf_confine repo;  /* a link out of the start folder's repository is not followed */
	/* Links to folders, searched after every real folder: a folder is found
	 * under its own path rather than through a link to it. */
	JF_ARRAY(struct deferred { char *path; int depth; }) links;
	JF_ARRAY(char *) found;
	JF_ARRAY(char *) skipped; /* YAML files that are no job file; NULL items: not kept */
	bool keep_skipped;
} walk;

static size_t hash_id(dev_t dev, ino_t ino)
{
	uint64_t h = ((uint64_t)dev * 0x9e3779b97f4a7c15u) ^ (uint64_t)ino;
	return (size_t)(h ^ (h >> 29));
}

static void insert_id(dir_id *set, size_t cap, dev_t dev, ino_t ino)
{
	size_t i = hash_id(dev, ino) & (cap - 1);
	while (set[i].used)
		i = (i + 1) & (cap - 1);
	set[i] = (dir_id){ dev, ino, true };
}

/* Whether the folder of `st` was searched already; records it when not. */
static bool seen_before(walk *w, const struct stat *st)
{
	for (size_t i = hash_id(st->st_dev, st->st_ino) & (w->cap - 1); w->cap && w->seen[i].used;
	     i = (i + 1) & (w->cap - 1))
		if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
			return true;
	if (2 * (w->nseen + 1) > w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		dir_id *set = jf_xcalloc(cap, sizeof(*set));
		for (size_t i = 0; i < w->cap; i++)
			if (w->seen[i].used)
				insert_id(set, cap, w->seen[i].dev, w->seen[i].ino);
		free(w->seen);
		w->seen = set;
		w->cap = cap;
	}
	insert_id(w->seen, w->cap, st->st_dev, st->st_ino);
	w->nseen++;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `dir` joined with `name`, "." left out. */
static char *child(const char *dir, const char *name)
{
	return strcmp(dir, ".") ? jf_xasprintf("%s/%s", dir, name) : jf_xstrdup(name);
}

/* Whether `path` is a symbolic link to the start folder or a folder above it. */
static bool links_above(const walk *w, const char *path)
{
	char *real = realpath(path, NULL);
	bool above = !w->start_real || !real || jf_path_under(w->start_real, real) != NULL;
	free(real);
	return above;
}

static bool is_link(const char *path)
{
	struct stat ls;
	return lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode);
}

/* Searches folder `dir` (whose stat is `st`); false when it cannot be read. */
static bool search(walk *w, const char *dir, const struct stat *st, int depth)
{
	if (seen_before(w, st))
		return true;
	DIR *d = opendir(dir);
	if (!d)
		return false;
	JF_ARRAY(char *) names = { 0 };
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') /* ".", "..", hidden files and folders, .git */
			jf_array_push(&names, jf_xstrdup(e->d_name));
	closedir(d);
	if (names.size)
		qsort(names.items, names.size, sizeof(char *), cmp_str);
	for (size_t i = 0; i < names.size; i++) {
		char *path = child(dir, names.items[i]);
		struct stat cs;
		if (stat(path, &cs) != 0) {
			/* A dangling link, or gone since readdir: not a job spec. */
		} else if (S_ISDIR(cs.st_mode)) {
			if (depth >= MAX_DEPTH || !strcmp(names.items[i], "node_modules") ||
			    jf_config__excluded_dir(w->config, path)) {
				/* not searched */
			} else if (!is_link(path)) {
				if (!search(w, path, &cs, depth + 1) && w->keep_skipped) {
					/* unreadable: said with --verbose, as a folder */
					jf_array_push(&w->skipped, jf_xasprintf("%s/", path));
				}
			} else if (!links_above(w, path)) {
				if (jf_confine_has(&w->repo, path)) {
					struct deferred later = { path, depth + 1 };
					jf_array_push(&w->links, later);
					path = NULL;
				} else if (w->keep_skipped) {
					/* said with --verbose, as a folder */
					jf_array_push(&w->skipped, jf_xasprintf("%s/", path));
				}
			}
		} else if (!S_ISREG(cs.st_mode) || jf_config__excluded(w->config, path)) {
			/* not a job file */
		} else if (jf_file_kind_of(w->config, path) == JF_FILE_JOB) {
			jf_array_push(&w->found, path);
			path = NULL;
		} else if (w->keep_skipped &&
		           (jf_str_ends(path, ".yaml") || jf_str_ends(path, ".yml"))) {
			jf_array_push(&w->skipped, path);
			path = NULL;
		}
		free(path);
		free(names.items[i]);
	}
	jf_array_release(&names);
	return true;
}

/* The `n` paths `items`, sorted in place, as a new NULL-terminated list of
 * them (their number in *count). */
static char **path_list(char **items, size_t n, size_t *count)
{
	if (n)
		qsort(items, n, sizeof(char *), cmp_str);
	*count = n;
	char **list = jf_xmalloc((n + 1) * sizeof(char *));
	if (n)
		memcpy(list, items, n * sizeof(char *));
	list[n] = NULL;
	return list;
}

int jf_discover(const jf_config *config, const char *dir, char ***out, size_t *count,
                char ***skipped, size_t *nskipped)
{
	walk w = { .config = config, .keep_skipped = skipped != NULL };
	struct stat st;
	if (!dir || !*dir)
		dir = ".";
	*out = NULL;
	*count = 0;
	if (skipped) {
		*skipped = NULL;
		*nskipped = 0;
	}
	errno = 0;
	w.start_real = realpath(dir, NULL);
	char *inside = jf_path_join(dir, "x"); /* the folder's repository is a file's in it */
	jf_confine_init(&w.repo, inside, jf_config__allow_outside(config));
	free(inside);
	bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && search(&w, dir, &st, 0);
	/* The links, in the order found; searching one may find more. */
	for (size_t i = 0; i < w.links.size; i++) {
		struct deferred l = w.links.items[i]; /* searching may move the array */
		struct stat ls;
		if (ok && stat(l.path, &ls) == 0)
			search(&w, l.path, &ls, l.depth);
		free(l.path);
	}
	jf_array_release(&w.links);
	free(w.seen);
	free(w.start_real);
	jf_confine_release(&w.repo);
	if (ok) {
		*out = path_list(w.found.items, w.found.size, count);
		if (skipped)
			*skipped = path_list(w.skipped.items, w.skipped.size, nskipped);
	} else {
		for (size_t i = 0; i < w.found.size; i++)
			free(w.found.items[i]);
		for (size_t i = 0; i < w.skipped.size; i++)
			free(w.skipped.items[i]);
	}
	jf_array_release(&w.found);
	jf_array_release(&w.skipped);
	return ok ? 0 : JF_EIO;
}

int jf_discover_jobs(const jf_config *config, const char *dir, char ***out, size_t *count)
{
	return jf_discover(config, dir, out, count, NULL, NULL);
}

void jf_paths_free(char **paths)
{
	for (size_t i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
}
