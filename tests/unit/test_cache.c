/* test_cache.c - the fact cache: a lint given back only while nothing it read changed */
#include <utime.h>

#include "cache.h"
#include "core/path.h"
#include "helpers.h"

typedef struct {
	char *dir;   /* the linted tree */
	char *cache; /* the cache folder, elsewhere */
} fixture;

static int setup(void **state)
{
	fixture *f = jf_xcalloc(1, sizeof(*f));
	f->dir = th_mkdtemp();
	f->cache = th_mkdtemp();
	th_put(f->dir, "job.yaml",
	       "image: {name: registry.example.com/t:1, user: \"1000\", python: \"3.10\", "
	       "manifest: packages.txt}\n"
	       "workdir: /workspace\n"
	       "inputs: {data: /mnt/data}\n"
	       "command: python train.py --lr 0.1 --epochs 3\n");
	th_put(f->dir, "packages.txt", "numpy==1.26.4\n");
	th_put(f->dir, "train.py",
	       "import argparse\n"
	       "import helpers\n"
	       "p = argparse.ArgumentParser()\n"
	       "p.add_argument('--lr', type=float)\n"
	       "args = p.parse_args()\n"
	       "open('/home/me/data.csv')\n");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	th_rmtree(f->dir);
	th_rmtree(f->cache);
	free(f->dir);
	free(f->cache);
	free(f);
	return 0;
}

/* The text output of a lint of `rel` in f->dir, with the cache or without;
 * *hits (may be NULL) says whether it was given back. Caller frees. */
static char *lint(const fixture *f, const char *rel, bool cache, size_t *hits)
{
	jf_options opts = JF_OPTIONS_INIT;
	opts.threads = 1;
	opts.cache_dir = cache ? f->cache : NULL;
	jf_linter *l = jf_linter_new(&opts);
	char *path = jf_path_join(f->dir, rel);
	int rc = jf_linter_lint(l, path);
	if (rc != 0)
		fail_msg("lint %s: %s", path, jf_linter_error(l));
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	assert_int_equal(jf_linter_write(l, m, JF_FORMAT_JSON, 0), 0);
	fclose(m);
	/* The skipped checks too: they are part of what a lint leaves. */
	jf_buf b = JF_BUF_INIT;
	jf_buf_adds(&b, out);
	for (size_t i = 0; jf_linter_skipped(l, i); i++)
		jf_buf_addf(&b, "skipped %s\n", jf_linter_skipped(l, i));
	char *train = jf_path_join(f->dir, "train.py");
	jf_buf_addf(&b, "read train.py: %d\n", jf_linter_has_read(l, train));
	free(train);
	free(out);
	if (hits)
		*hits = l->cache_hits;
	free(path);
	jf_linter_free(l);
	return jf_buf_detach(&b, NULL);
}

/* The lint from the cache is the lint without it; `hit` says whether it must be a hit. */
static void expect_same(const fixture *f, bool hit)
{
	char *fresh = lint(f, "job.yaml", false, NULL);
	size_t hits;
	char *cached = lint(f, "job.yaml", true, &hits);
	assert_string_equal(cached, fresh);
	assert_int_equal(hits, hit ? 1 : 0);
	free(fresh);
	free(cached);
}

/* The only entry of the cache folder; caller frees. */
static char *entry_path(const fixture *f)
{
	DIR *d = opendir(f->cache);
	assert_non_null(d);
	char *found = NULL;
	for (struct dirent *e; (e = readdir(d));)
		if (strlen(e->d_name) == 32) {
			assert_null(found);
			found = jf_path_join(f->cache, e->d_name);
		}
	closedir(d);
	assert_non_null(found);
	return found;
}

static void test_cache__second_lint_is_given_back(void **state)
{
	fixture *f = *state;
	expect_same(f, false); /* kept */
	expect_same(f, true);
	char *out = lint(f, "job.yaml", true, NULL);
	assert_non_null(strstr(out, "JF101")); /* the findings are there */
	assert_non_null(strstr(out, "JF110")); /* helpers is neither local nor installed */
	free(out);
	assert_non_null(strstr(out = lint(f, "job.yaml", true, NULL), "read train.py: 1"));
	free(out);
	/* Nothing was written into the linted tree. */
	DIR *d = opendir(f->dir);
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 3);
}

static void test_cache__changed_file(void **state)
{
	fixture *f = *state;
	expect_same(f, false);
	th_put(f->dir, "train.py",
	       "import argparse\n"
	       "p = argparse.ArgumentParser()\n"
	       "p.add_argument('--lr', type=float)\n"
	       "p.add_argument('--epochs', type=int)\n"
	       "args = p.parse_args()\n");
	expect_same(f, false);
	expect_same(f, true);
	/* The same size and time, other bytes: the content decides. */
	char *path = jf_path_join(f->dir, "train.py");
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	th_put(f->dir, "train.py",
	       "import argparse\n"
	       "p = argparse.ArgumentParser()\n"
	       "p.add_argument('--lr', type=float)\n"
	       "p.add_argument('--epoch', type=int)\n"
	       "args = p.parse_args() \n");
	struct utimbuf times = { st.st_atime, st.st_mtime };
	assert_int_equal(utime(path, &times), 0);
	expect_same(f, false);
	free(path);
}

static void test_cache__new_file(void **state)
{
	fixture *f = *state;
	expect_same(f, false);
	expect_same(f, true);
	/* The module that was missing appears: its import is local now. */
	th_put(f->dir, "helpers.py", "X = 1\n");
	expect_same(f, false);
	char *out = lint(f, "job.yaml", true, NULL);
	assert_null(strstr(out, "JF110"));
	free(out);
	expect_same(f, true);
}

static void test_cache__changed_manifest_and_removed_file(void **state)
{
	fixture *f = *state;
	expect_same(f, false);
	th_put(f->dir, "packages.txt", "numpy==1.26.4\nhelpers==1.0\n");
	expect_same(f, false);
	char *path = jf_path_join(f->dir, "train.py");
	assert_int_equal(unlink(path), 0);
	expect_same(f, false);
	expect_same(f, true);
	free(path);
}

/* Flips one byte at `at` (from the end when negative) of the entry, or cuts it there. */
static void damage(const fixture *f, long at, bool cut)
{
	char *path = entry_path(f);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	long pos = at < 0 ? st.st_size + at : at;
	if (cut) {
		assert_int_equal(truncate(path, pos), 0);
	} else {
		FILE *e = fopen(path, "r+b");
		assert_non_null(e);
		fseek(e, pos, SEEK_SET);
		int c = fgetc(e);
		fseek(e, pos, SEEK_SET);
		fputc(c ^ 0x20, e);
		fclose(e);
	}
	free(path);
}

static void test_cache__damaged_entry_is_ignored_and_rewritten(void **state)
{
	fixture *f = *state;
	const long places[] = { 0, 9, 20, 40, -1, -20 };
	for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
		expect_same(f, i > 0);
		damage(f, places[i], false);
		expect_same(f, false); /* ignored, and written anew */
		expect_same(f, true);
		damage(f, places[i] < 0 ? places[i] : places[i] + 1, true);
		expect_same(f, false);
	}
	/* Not a file at all. */
	char *path = entry_path(f);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	expect_same(f, false);
	assert_int_equal(rmdir(path), 0);
	free(path);
}

static void test_cache__unwritable_folder(void **state)
{
	fixture *f = *state;
	free(f->cache);
	f->cache = jf_path_join(f->dir, "job.yaml/cache"); /* a folder that cannot be made */
	char *fresh = lint(f, "job.yaml", false, NULL);
	size_t hits;
	char *cached = lint(f, "job.yaml", true, &hits);
	assert_string_equal(cached, fresh);
	assert_int_equal(hits, 0);
	free(fresh);
	free(cached);
	free(f->cache);
	f->cache = th_mkdtemp();
}

static void test_cache__file_alone(void **state)
{
	fixture *f = *state;
	char *fresh = lint(f, "train.py", false, NULL);
	size_t hits;
	free(lint(f, "train.py", true, &hits));
	assert_int_equal(hits, 0);
	char *cached = lint(f, "train.py", true, &hits);
	assert_int_equal(hits, 1);
	assert_string_equal(cached, fresh);
	free(fresh);
	free(cached);
}

/* How many entries (32-character names) the cache folder holds. */
static size_t count_entries(const fixture *f)
{
	size_t n = 0;
	DIR *d = opendir(f->cache);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += strlen(e->d_name) == 32;
	closedir(d);
	return n;
}

static void test_cache__prune(void **state)
{
	fixture *f = *state;
	/* 40 entries of 1 kB, used one after the other, and a stale temporary file. */
	for (int i = 0; i < 40; i++) {
		char name[40];
		snprintf(name, sizeof name, "%032x", i);
		char data[1000];
		memset(data, 'x', sizeof data);
		free(th_write_n(f->cache, name, data, sizeof data));
		char *path = jf_path_join(f->cache, name);
		struct utimbuf t = { 1000000 + i, 1000000 + i };
		assert_int_equal(utime(path, &t), 0);
		free(path);
	}
	free(th_write(f->cache, ".tmp-abcdef", "partial"));
	char *tmp = jf_path_join(f->cache, ".tmp-abcdef");
	struct utimbuf old = { 1000, 1000 };
	assert_int_equal(utime(tmp, &old), 0);
	th_put(f->cache, "README", "not an entry: left alone");
	jf_cache_prune(f->cache, 1 << 20, 100); /* within bounds: only the old temporary file goes */
	assert_int_equal(access(tmp, F_OK), -1);
	char *first = jf_path_join(f->cache, "00000000000000000000000000000000");
	assert_int_equal(access(first, F_OK), 0);
	jf_cache_prune(f->cache, 20000, 100); /* 40 kB > 20 kB: down to 15 entries */
	assert_int_equal(count_entries(f), 15);
	assert_int_equal(access(first, F_OK), -1); /* the least recently used went first */
	char *last = jf_path_join(f->cache, "00000000000000000000000000000027");
	assert_int_equal(access(last, F_OK), 0);
	char *readme = jf_path_join(f->cache, "README");
	assert_int_equal(access(readme, F_OK), 0);
	jf_cache_prune(f->cache, 1 << 20, 10); /* by count: 15 > 10, down to 6 (10 / 4 * 3) */
	assert_int_equal(count_entries(f), 6);
	free(readme);
	free(last);
	free(first);
	free(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cache__second_lint_is_given_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__changed_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__new_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__changed_manifest_and_removed_file, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_cache__damaged_entry_is_ignored_and_rewritten,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__unwritable_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__file_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__prune, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
