/* cache.c - the fact cache: entries written, checked and given back (cache.h) */
#define _XOPEN_SOURCE 700 /* mkstemp, utimensat */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/wire.h"
#include "rules/config.h"
#include "rules/record.h"

static const char MAGIC[8] = { 'J', 'F', 'C', 'A', 'C', 'H', 'E', '2' };
#define NONE UINT32_MAX /* no source */

char *jf_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		return jf_path_join(xdg, "jobfix");
	if (home && home[0] == '/')
		return jf_xasprintf("%s/.cache/jobfix", home);
	return NULL;
}

/* The key */

/* Adds what decides every entry of `self`'s lints besides the path: jobfix's
 * build, the current folder and the config; false when entries cannot be kept. */
static bool put_build(const jf_linter *self, jf_buf *b)
{
	uint64_t config;
	struct stat exe;
	if (!self->opts.cache_dir || self->restricted ||
	    !jf_config__fingerprint(self->opts.config, &config) || stat("/proc/self/exe", &exe) != 0)
		return false;
	char *cwd = getcwd(NULL, 0);
	if (!cwd)
		return false;
	jf_wire_put_str(b, JF_VERSION);
	jf_wire_put_u64(b, (uint64_t)exe.st_dev);
	jf_wire_put_u64(b, (uint64_t)exe.st_ino);
	jf_wire_put_u64(b, (uint64_t)exe.st_size);
	jf_wire_put_u64(b, (uint64_t)exe.st_mtim.tv_sec);
	jf_wire_put_u64(b, (uint64_t)exe.st_mtim.tv_nsec);
	jf_wire_put_str(b, cwd);
	jf_wire_put_u64(b, config);
	free(cwd);
	return true;
}

/* The key whose hash is that of `b`'s bytes. */
static void key_from(const jf_buf *b, jf_cache_key *key)
{
	uint64_t h[2] = { jf_hash(b->buf, b->len, 0x6a6f62666978ull), jf_hash(b->buf, b->len, 17) };
	memcpy(key->hash, h, sizeof key->hash);
	for (size_t i = 0; i < sizeof key->hash; i++)
		snprintf(key->name + 2 * i, 3, "%02x", key->hash[i]);
}

bool jf_cache_key_of(const jf_linter *self, const char *path, jf_cache_key *key)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_add(&b, MAGIC, sizeof MAGIC);
	bool ok = put_build(self, &b);
	if (ok) {
		jf_wire_put_str(&b, path);
		key_from(&b, key);
	}
	jf_buf_release(&b);
	return ok;
}

/* An entry is a magic string, a checksum of the rest, then its body, which
 * starts with its key's hash. */

static void seal(jf_buf *entry, const char magic[8], const jf_buf *body)
{
	jf_buf_add(entry, magic, 8);
	jf_wire_put_u64(entry, jf_hash(body->buf, body->len, 1));
	jf_buf_add(entry, body->buf, body->len);
}

/* Where the body of entry `data` (`len` bytes) goes on after its key, when
 * it is a whole entry of `magic` for `key`; else NULL. */
static const char *unseal(const char *data, size_t len, const char magic[8],
                          const jf_cache_key *key)
{
	size_t head = 8 + sizeof(uint64_t);
	if (!data || len < head + sizeof key->hash || memcmp(data, magic, 8))
		return NULL;
	uint64_t sum;
	memcpy(&sum, data + 8, sizeof sum);
	if (sum != jf_hash(data + head, len - head, 1) ||
	    memcmp(data + head, key->hash, sizeof key->hash))
		return NULL;
	return data + head + sizeof key->hash;
}

/* Giving an entry back */

/* An entry read back: the lint's result, and the paths of the files it read. */
typedef struct {
	jf_lint_result result;
	jf_strings read;
} replayed;

static char *read_entry(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *data = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= JF_CACHE_MAX_ENTRY) {
		data = jf_xmalloc((size_t)st.st_size);
		size_t got = 0;
		ssize_t n;
		while (got < (size_t)st.st_size &&
		       (n = read(fd, data + got, (size_t)st.st_size - got)) > 0)
			got += (size_t)n;
		if (got != (size_t)st.st_size) {
			free(data);
			data = NULL;
		}
		*len = got;
	}
	close(fd);
	return data;
}

/* The source of index `i` of the entry, or NULL (NONE, or out of range: bad). */
static const jf_source *source_at(jf_wire *r, const replayed *out, uint32_t i)
{
	if (i == NONE)
		return NULL;
	if (i >= out->result.sources.size) {
		r->bad = true;
		return NULL;
	}
	return out->result.sources.items[i];
}

/* The findings and the rest of the entry after its questions. */
static bool read_result(jf_wire *r, const jf_linter *self, replayed *out)
{
	out->result.python_files = jf_wire_get_u64(r);
	out->result.python_walks = jf_wire_get_u64(r);
	for (uint32_t n = jf_wire_get_count(r, 9), i = 0; i < n && !r->bad; i++) {
		char *shown = jf_wire_get_str(r), *fs = jf_wire_get_str(r);
		jf_source *src = NULL;
		if (jf_wire_get_u8(r)) {
			uint32_t len;
			char *data = jf_wire_get_bytes(r, &len);
			src = data ? jf_source_from_string(shown, data, len) : NULL;
			if (src)
				src->fs_path = fs ? jf_xstrdup(fs) : NULL;
			free(data);
		} else if (!r->bad) {
			src = jf_source_load(fs, shown);
		}
		if (src)
			jf_array_push(&out->result.sources, src);
		free(shown);
		free(fs);
	}
	for (uint32_t n = jf_wire_get_count(r, 4), i = 0; i < n && !r->bad; i++) {
		char *fs = jf_wire_get_str(r);
		if (fs)
			jf_array_push(&out->read, fs);
	}
	for (uint32_t n = jf_wire_get_count(r, 4), i = 0; i < n && !r->bad; i++) {
		char *s = jf_wire_get_str(r);
		if (s)
			jf_array_push(&out->result.skipped, s);
	}
	for (uint32_t n = jf_wire_get_count(r, 4), i = 0; i < n && !r->bad; i++) {
		char *s = jf_wire_get_str(r);
		if (s)
			jf_array_push(&out->result.covered, s);
	}
	for (uint32_t n = jf_wire_get_count(r, 30), i = 0; i < n && !r->bad; i++) {
		jf_diag d = { 0 };
		char *id = jf_wire_get_str(r);
		d.rule = id && *id ? jf_config__find_rule(self->opts.config, id) : NULL;
		if (id && *id && !d.rule)
			r->bad = true; /* a rule this config no longer has */
		free(id);
		d.severity = (jf_severity)jf_wire_get_u8(r);
		d.src = source_at(r, out, jf_wire_get_u32(r));
		d.span = jf_wire_get_span(r);
		d.message = jf_wire_get_str(r);
		if (jf_wire_get_u8(r))
			d.help = jf_wire_get_str(r);
		if (jf_wire_get_u8(r)) {
			char *c = jf_wire_get_str(r);
			if (c) {
				jf_array_push(&out->result.cache_strings, c);
				d.category = c;
			}
		}
		for (uint32_t k = 0, nr = jf_wire_get_count(r, 16); k < nr && !r->bad; k++) {
			jf_related rel = { source_at(r, out, jf_wire_get_u32(r)), jf_wire_get_span(r),
				           jf_wire_get_str(r) };
			jf_array_push(&d.related, rel);
		}
		for (uint32_t k = 0, ne = jf_wire_get_count(r, 16); k < ne && !r->bad; k++) {
			jf_edit e = { source_at(r, out, jf_wire_get_u32(r)), jf_wire_get_span(r),
				      jf_wire_get_str(r) };
			jf_array_push(&d.edits, e);
		}
		jf_array_push(&out->result.report.diags, d);
	}
	return !r->bad && r->p == r->end;
}

bool jf_cache_replay(jf_linter *self, const jf_cache_key *key, const jf_confine *in)
{
	char *path = jf_path_join(self->opts.cache_dir, key->name);
	size_t len = 0;
	char *data = read_entry(path, &len);
	const char *body = unseal(data, len, MAGIC, key);
	bool ok = body != NULL;
	jf_wire r = { body, ok ? data + len : NULL, false };
	/* The same roots, then the same answers. */
	uint32_t nroots = ok ? jf_wire_get_count(&r, 4) : 0;
	ok = ok && nroots == in->roots.size;
	for (uint32_t i = 0; ok && i < nroots; i++) {
		char *root = jf_wire_get_str(&r);
		ok = root && !strcmp(root, in->roots.items[i]);
		free(root);
	}
	uint32_t ndeps = ok ? jf_wire_get_count(&r, 13) : 0;
	for (uint32_t i = 0; ok && i < ndeps; i++) {
		jf_dep d = { (jf_dep_kind)jf_wire_get_u8(&r), jf_wire_get_str(&r), jf_wire_get_u64(&r) };
		ok = !r.bad && d.kind < JF_DEP_COUNT && jf_dep_value(d.kind, d.path) == d.value;
		free(d.path);
	}
	replayed out = { 0 };
	ok = ok && read_result(&r, self, &out);
	if (ok) { /* whole: hand it over */
		out.result.cache_hits = 1;
		jf_linter__take(self, &out.result);
		for (size_t i = 0; i < out.read.size; i++)
			jf_linter__note_read(self, out.read.items[i]);
		(void)utimensat(AT_FDCWD, path, NULL, 0); /* recently used */
	}
	jf_lint_result_release(&out.result);
	jf_strings_release(&out.read);
	free(data);
	free(path);
	return ok;
}

/* Writing an entry */

/* The sources the findings point into, each once, in order of first use. */
typedef JF_ARRAY(const jf_source *) source_list;

/* The index of `src` in `shown`, added when new; NONE for no source. *ok
 * turns false for a source that is no file read whole (a copy of a value). */
static uint32_t index_of(source_list *shown, const jf_source *src, bool *ok)
{
	if (!src)
		return NONE;
	if (!src->fs_path)
		*ok = false;
	for (size_t i = 0; i < shown->size; i++)
		if (shown->items[i] == src)
			return (uint32_t)i;
	jf_array_push(shown, src);
	return (uint32_t)(shown->size - 1);
}

/* Makes folder `dir`, private, and its parent when that is missing (~/.cache
 * on a fresh account), but no folder above: a $HOME that does not exist is
 * not made. */
static bool make_dir(const char *dir)
{
	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return true;
	if (errno != ENOENT)
		return false;
	char *parent = jf_path_dirname(dir);
	bool made = mkdir(parent, 0700) == 0 || errno == EEXIST;
	free(parent);
	return made && (mkdir(dir, 0700) == 0 || errno == EEXIST);
}

/* Writes `b` to `dir`/`name` through a temporary file. */
static void write_entry(const char *dir, const char *name, const jf_buf *b)
{
	if (!make_dir(dir))
		return;
	char *tmp = jf_xasprintf("%s/.tmp-XXXXXX", dir);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return;
	}
	size_t done = 0;
	ssize_t n;
	while (done < b->len && (n = write(fd, b->buf + done, b->len - done)) > 0)
		done += (size_t)n;
	char *path = jf_path_join(dir, name);
	if (close(fd) != 0 || done != b->len || rename(tmp, path) != 0)
		unlink(tmp);
	free(path);
	free(tmp);
}

/* A place: its source (by index in *shown) and span; source_at() and jf_wire_get_span() read it. */
static void put_place(jf_buf *b, source_list *shown, const jf_source *src, jf_span span, bool *ok)
{
	jf_wire_put_u32(b, index_of(shown, src, ok));
	jf_wire_put_u32(b, span.start);
	jf_wire_put_u32(b, span.end);
}

/* The findings from `first` on, their sources in *shown. */
static void put_diags(jf_buf *b, const jf_report *report, size_t first, source_list *shown,
                      bool *ok)
{
	jf_wire_put_u32(b, (uint32_t)(report->diags.size - first));
	for (size_t i = first; i < report->diags.size; i++) {
		const jf_diag *d = &report->diags.items[i];
		jf_wire_put_str(b, d->rule ? d->rule->info.id : "");
		jf_wire_put_u8(b, (uint8_t)d->severity);
		put_place(b, shown, d->src, d->span, ok);
		jf_wire_put_str(b, d->message);
		jf_wire_put_u8(b, d->help != NULL);
		if (d->help)
			jf_wire_put_str(b, d->help);
		jf_wire_put_u8(b, d->category != NULL);
		if (d->category)
			jf_wire_put_str(b, d->category);
		jf_wire_put_u32(b, (uint32_t)d->related.size);
		for (size_t k = 0; k < d->related.size; k++) {
			const jf_related *rel = &d->related.items[k];
			put_place(b, shown, rel->src, rel->span, ok);
			jf_wire_put_str(b, rel->message);
		}
		jf_wire_put_u32(b, (uint32_t)d->edits.size);
		for (size_t k = 0; k < d->edits.size; k++) {
			const jf_edit *e = &d->edits.items[k];
			put_place(b, shown, e->src, e->span, ok);
			jf_wire_put_str(b, e->text);
		}
	}
}

void jf_cache_store(jf_linter *self, const jf_cache_key *key, const jf_confine *in,
                    const jf_deps *deps, size_t first_diag, size_t first_source,
                    const jf_strings *skipped, const jf_strings *covered,
                    size_t python_files, size_t python_walks)
{
	if (deps->overflow)
		return;
	/* The findings first, for the sources they point into; the entry puts those before them. */
	jf_buf diags = JF_BUF_INIT;
	source_list shown = { 0 };
	bool ok = true;
	put_diags(&diags, &self->report, first_diag, &shown, &ok);
	jf_buf b = JF_BUF_INIT;
	jf_buf_add(&b, (const char *)key->hash, sizeof key->hash);
	jf_wire_put_u32(&b, (uint32_t)in->roots.size);
	for (size_t i = 0; i < in->roots.size; i++)
		jf_wire_put_str(&b, in->roots.items[i]);
	jf_wire_put_u32(&b, (uint32_t)deps->items.size);
	for (size_t i = 0; i < deps->items.size; i++) {
		jf_wire_put_u8(&b, (uint8_t)deps->items.items[i].kind);
		jf_wire_put_str(&b, deps->items.items[i].path);
		jf_wire_put_u64(&b, deps->items.items[i].value);
	}
	jf_wire_put_u64(&b, python_files);
	jf_wire_put_u64(&b, python_walks);
	jf_wire_put_u32(&b, (uint32_t)shown.size);
	for (size_t i = 0; ok && i < shown.size; i++) {
		const jf_source *s = shown.items[i];
		jf_wire_put_str(&b, s->path);
		jf_wire_put_str(&b, s->fs_path);
		/* A file is read again; a source jobfix made itself (a copy of a
		 * value that an edit points into) is kept as it is. */
		jf_wire_put_u8(&b, !s->from_file);
		if (!s->from_file) {
			jf_wire_put_u32(&b, s->len);
			jf_buf_add(&b, s->data, s->len);
		}
	}
	size_t nread = 0;
	for (size_t i = first_source; i < self->sources.size; i++)
		nread += self->sources.items[i]->fs_path != NULL;
	jf_wire_put_u32(&b, (uint32_t)nread);
	for (size_t i = first_source; i < self->sources.size; i++)
		if (self->sources.items[i]->fs_path)
			jf_wire_put_str(&b, self->sources.items[i]->fs_path);
	jf_wire_put_u32(&b, (uint32_t)skipped->size);
	for (size_t i = 0; i < skipped->size; i++)
		jf_wire_put_str(&b, skipped->items[i]);
	jf_wire_put_u32(&b, (uint32_t)covered->size);
	for (size_t i = 0; i < covered->size; i++)
		jf_wire_put_str(&b, covered->items[i]);
	jf_buf_add(&b, diags.buf, diags.len);
	if (ok && b.len <= JF_CACHE_MAX_ENTRY) {
		jf_buf entry = JF_BUF_INIT;
		seal(&entry, MAGIC, &b);
		write_entry(self->opts.cache_dir, key->name, &entry);
		jf_buf_release(&entry);
		self->cache_stores++;
	}
	jf_array_release(&shown);
	jf_buf_release(&diags);
	jf_buf_release(&b);
}

/* Keeping the folder small */

typedef struct {
	char *path;
	off_t size;
	struct timespec used;
} entry_info;

static int older_first(const void *a, const void *b)
{
	const entry_info *x = a, *y = b;
	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	return x->used.tv_nsec < y->used.tv_nsec ? -1 : x->used.tv_nsec > y->used.tv_nsec;
}

void jf_cache_prune(const char *dir, uint64_t max_bytes, size_t max_entries)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	JF_ARRAY(entry_info) entries = { 0 };
	uint64_t total = 0;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	for (struct dirent *e; (e = readdir(d));) {
		bool temporary = !strncmp(e->d_name, ".tmp-", 5);
		if (strlen(e->d_name) != 32 && !temporary)
			continue; /* not ours */
		char *path = jf_path_join(dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (temporary) {
			/* Left by a run that was killed: gone after an hour. */
			if (now.tv_sec - st.st_mtim.tv_sec > 3600)
				unlink(path);
			free(path);
			continue;
		}
		entry_info info = { path, st.st_size, st.st_mtim };
		jf_array_push(&entries, info);
		total += (uint64_t)st.st_size;
	}
	closedir(d);
	if (total > max_bytes || entries.size > max_entries) {
		/* Down to three quarters, so that the next runs do not prune again at once. */
		qsort(entries.items, entries.size, sizeof *entries.items, older_first);
		size_t left = entries.size;
		for (size_t i = 0;
		     i < entries.size && (total > max_bytes / 4 * 3 || left > max_entries / 4 * 3); i++) {
			if (unlink(entries.items[i].path) == 0) {
				total -= (uint64_t)entries.items[i].size;
				left--;
			}
		}
	}
	for (size_t i = 0; i < entries.size; i++)
		free(entries.items[i].path);
	jf_array_release(&entries);
}

/* Entries of files */

static const char FILE_MAGIC[8] = { 'J', 'F', 'F', 'I', 'L', 'E', '0', '1' };

/* An entry read and checked, its body (after the key) until it is read back. */
typedef struct {
	char *data; /* NULL once read back */
	const char *body, *end;
} file_entry;

/* An entry to write, named. */
typedef struct {
	char name[33];
	jf_buf bytes;
} pending_entry;

struct jf_file_cache {
	char *dir;
	/* The entries jf_file_cache_store() made, written by a thread of their
	 * own while the lint goes on (`writing`: it was started). */
	JF_ARRAY(pending_entry) pending;
	pthread_t writer;
	bool writing;
	jf_buf salt; /* the build, the config, and what the recorders read of the job and image */
	jf_records *records;
	jf_facts_recorder recorder; /* the records' own */
	const jf_matcher *matcher;
	JF_ARRAY(file_entry *) taken; /* of the files loaded kept */
	jf_strmap taken_by_path;      /* fs_path -> its file_entry */
	jf_kept_files kept;
};

/* The key of the entry of `src`: the lint's salt, the file's path and bytes. */
static void file_key(const jf_file_cache *fc, const jf_source *src, jf_cache_key *key)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_add(&b, fc->salt.buf, fc->salt.len);
	jf_wire_put_str(&b, src->fs_path);
	jf_wire_put_u64(&b, jf_hash(src->data, src->len, 0x66696c65ull));
	jf_wire_put_u64(&b, jf_hash(src->data, src->len, 31));
	key_from(&b, key);
	jf_buf_release(&b);
}

static bool file_has(const void *data, const jf_source *src)
{
	const jf_file_cache *fc = data;
	jf_cache_key key;
	file_key(fc, src, &key);
	char *path = jf_path_join(fc->dir, key.name);
	bool has = access(path, F_OK) == 0;
	free(path);
	return has;
}

static bool file_take(void *data, const jf_source *src)
{
	jf_file_cache *fc = data;
	if (!src->fs_path || jf_strmap_has(&fc->taken_by_path, src->fs_path))
		return false;
	jf_cache_key key;
	file_key(fc, src, &key);
	char *path = jf_path_join(fc->dir, key.name);
	size_t len = 0;
	char *entry = read_entry(path, &len);
	const char *body = unseal(entry, len, FILE_MAGIC, &key);
	/* Its queries' prefilters last: most files have no entry on a first lint. */
	bool ok = body && !jf_matcher_needs_tree(fc->matcher, src, JF_LANG_PYTHON);
	if (ok) {
		file_entry *e = jf_xmalloc(sizeof *e);
		*e = (file_entry){ entry, body, entry + len };
		jf_array_push(&fc->taken, e);
		jf_strmap_put(&fc->taken_by_path, src->fs_path, strlen(src->fs_path), e);
		(void)utimensat(AT_FDCWD, path, NULL, 0); /* recently used */
	} else {
		free(entry);
	}
	free(path);
	return ok;
}

static void file_take_facts(void *data, const jf_pyfacts *py)
{
	jf_file_cache *fc = data;
	fc->recorder.take(fc->recorder.data, py);
}

static jf_py_names *file_restore(void *data, const jf_file *file)
{
	jf_file_cache *fc = data;
	file_entry *e = file->fs_path ? jf_strmap_get(&fc->taken_by_path, file->fs_path,
	                                              strlen(file->fs_path))
	                              : NULL;
	if (!e || !e->data)
		return NULL;
	jf_wire w = { e->body, e->end, false };
	jf_py_names *names = jf_py_names_load(&w, file);
	bool ok = names && jf_records_load(fc->records, file, &w) && w.p == w.end;
	free(e->data); /* read back once */
	e->data = NULL;
	if (!ok) {
		jf_py_names_free(names);
		return NULL;
	}
	return names;
}

jf_file_cache *jf_file_cache_new(const jf_linter *self, const jf_job *job, jf_records *records)
{
	if (!job)
		return NULL; /* a file alone: the lint's own entry is enough */
	jf_file_cache *fc = jf_xcalloc(1, sizeof *fc);
	jf_buf_add(&fc->salt, FILE_MAGIC, sizeof FILE_MAGIC);
	if (!put_build(self, &fc->salt)) {
		jf_buf_release(&fc->salt);
		free(fc);
		return NULL;
	}
	jf_records_key(records, &fc->salt); /* what the recorders read of the job and image */
	fc->dir = jf_xstrdup(self->opts.cache_dir);
	fc->records = records;
	fc->recorder = jf_records_recorder(records);
	fc->matcher = self->matcher;
	fc->taken_by_path = (jf_strmap)JF_STRMAP_INIT;
	fc->kept = (jf_kept_files){ file_has, file_take, fc };
	return fc;
}

const jf_kept_files *jf_file_cache_kept(jf_file_cache *fc)
{
	return fc ? &fc->kept : NULL;
}

jf_facts_recorder jf_file_cache_recorder(jf_file_cache *fc)
{
	return (jf_facts_recorder){ file_take_facts, file_restore, fc };
}

static void *write_pending(void *data)
{
	jf_file_cache *fc = data;
	for (size_t i = 0; i < fc->pending.size; i++)
		write_entry(fc->dir, fc->pending.items[i].name, &fc->pending.items[i].bytes);
	return NULL;
}

void jf_file_cache_store(jf_file_cache *fc, const jf_facts *facts)
{
	jf_pyfiles files = jf_facts_pyfiles(facts);
	for (size_t i = 0; i < facts->ws->files.size; i++) {
		const jf_file *f = facts->ws->files.items[i];
		const jf_py_names *names = jf_pyfiles_names(&files, f);
		if (f->lang != JF_LANG_PYTHON || f->kept || !f->fs_path || !names ||
		    f->syntax_reported || jf_matcher_needs_tree(fc->matcher, f->src, f->lang))
			continue;
		jf_buf body = JF_BUF_INIT;
		jf_cache_key key;
		file_key(fc, f->src, &key);
		jf_buf_add(&body, (const char *)key.hash, sizeof key.hash);
		jf_py_names_write(&body, names);
		jf_records_write(fc->records, f, &body);
		if (body.len <= JF_CACHE_MAX_ENTRY) {
			pending_entry e = { .bytes = JF_BUF_INIT };
			memcpy(e.name, key.name, sizeof e.name);
			seal(&e.bytes, FILE_MAGIC, &body);
			jf_array_push(&fc->pending, e);
		}
		jf_buf_release(&body);
	}
	if (fc->pending.size)
		fc->writing = pthread_create(&fc->writer, NULL, write_pending, fc) == 0;
	if (fc->pending.size && !fc->writing)
		write_pending(fc);
}

void jf_file_cache_free(jf_file_cache *fc)
{
	if (!fc)
		return;
	if (fc->writing)
		pthread_join(fc->writer, NULL);
	for (size_t i = 0; i < fc->pending.size; i++)
		jf_buf_release(&fc->pending.items[i].bytes);
	jf_array_release(&fc->pending);
	for (size_t i = 0; i < fc->taken.size; i++) {
		free(fc->taken.items[i]->data);
		free(fc->taken.items[i]);
	}
	jf_array_release(&fc->taken);
	jf_strmap_release(&fc->taken_by_path);
	free(fc->dir);
	jf_buf_release(&fc->salt);
	free(fc);
}
