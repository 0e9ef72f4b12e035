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

/* The Python files the last lint() read, and walked. */
static size_t last_files, last_walks;

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
	last_files = l->python_files;
	last_walks = l->python_walks;
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

/* Flips one byte at `at` (from the end when negative) of the file at `path`, or cuts it there. */
static void damage_file(const char *path, long at, bool cut)
{
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
}

/* The same, of the only entry. */
static void damage(const fixture *f, long at, bool cut)
{
	char *path = entry_path(f);
	damage_file(path, at, cut);
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

/* The entries of the cache folder whose first bytes are `magic`. */
static size_t entries_of(const fixture *f, const char *magic, bool remove)
{
	size_t n = 0;
	DIR *d = opendir(f->cache);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		if (strlen(e->d_name) != 32)
			continue;
		char *path = jf_path_join(f->cache, e->d_name);
		char head[8] = { 0 };
		FILE *in = fopen(path, "rb");
		assert_non_null(in);
		size_t got = fread(head, 1, sizeof head, in);
		fclose(in);
		if (got == sizeof head && !memcmp(head, magic, sizeof head)) {
			n++;
			if (remove)
				assert_int_equal(unlink(path), 0);
		}
		free(path);
	}
	closedir(d);
	return n;
}

/* run.yaml, which runs main.py with MODE set; with `data_dir`, DATA_DIR set
 * to it too, and an input mounted at /mnt/in. */
static void put_job(const fixture *f, const char *data_dir)
{
	char *yaml = jf_xasprintf(
		"image: {name: registry.example.com/t:1, python: \"3.10\", manifest: packages.txt}\n"
		"workdir: /workspace\n"
		"%s"
		"env: {MODE: fast%s%s}\n"
		"command: python main.py --lr 0.1\n",
		data_dir ? "inputs: {data: /mnt/in}\n" : "", data_dir ? ", DATA_DIR: " : "",
		data_dir ? data_dir : "");
	th_put(f->dir, "run.yaml", yaml);
	free(yaml);
}

/* A job of an entry script and three modules: none holds what a rule query
 * looks for, so each is kept in an entry of its own. */
static void put_modules(const fixture *f, const char *b_py)
{
	put_job(f, NULL);
	th_put(f->dir, "main.py",
	       "import argparse\n"
	       "import a\n"
	       "from b import load\n"
	       "from c import report\n"
	       "p = argparse.ArgumentParser()\n"
	       "p.add_argument('--lr', type=float)\n"
	       "args = p.parse_args()\n"
	       "report(load(args.lr), a.scale())\n");
	th_put(f->dir, "a.py",
	       "import os\n"
	       "def scale():\n"
	       "    return 2 if os.environ['MODE'] == 'fast' else 1\n");
	th_put(f->dir, "b.py", b_py);
	th_put(f->dir, "c.py",
	       "import numpy as np\n"
	       "def report(x, y):\n"
	       "    print(np.mean([x, y]))\n");
}

static void test_cache__one_changed_module(void **state)
{
	fixture *f = *state;
	put_modules(f, "def load(lr):\n    return lr * 2\n");
	char *fresh = lint(f, "run.yaml", false, NULL);
	assert_int_equal(last_files, 4);
	assert_int_equal(last_walks, 4);
	size_t hits;
	char *cached = lint(f, "run.yaml", true, &hits);
	assert_string_equal(cached, fresh);
	assert_int_equal(entries_of(f, "JFFILE01", false), 4);
	free(fresh);
	free(cached);
	/* b.py changes: its own entry is missed, the others are read back. Only
	 * b.py is walked, and the entry script, whose command line the checks
	 * read from its tree. */
	put_modules(f, "import os\n"
	               "TOKEN = os.environ['TOKEN']\n"
	               "def load(lr):\n    return lr * 2\n");
	fresh = lint(f, "run.yaml", false, NULL);
	assert_non_null(strstr(fresh, "JF108"));
	cached = lint(f, "run.yaml", true, &hits);
	assert_int_equal(hits, 0);
	assert_string_equal(cached, fresh);
	assert_int_equal(last_files, 4);
	assert_int_equal(last_walks, 2);
	free(cached);
	/* Nothing changed but the lint's own entry is gone: no file is walked
	 * but the entry script. */
	assert_int_equal(entries_of(f, "JFCACHE2", true), 1);
	cached = lint(f, "run.yaml", true, &hits);
	assert_string_equal(cached, fresh);
	assert_int_equal(last_walks, 1);
	free(cached);
	free(fresh);
}

static void test_cache__file_entries_follow_the_job(void **state)
{
	fixture *f = *state;
	const char *b_py = "import os\n"
	                   "def load(lr):\n"
	                   "    with open(os.environ.get('DATA_DIR', '/data') + '/train.csv') as f:\n"
	                   "        return f.read()\n";
	put_modules(f, b_py);
	put_job(f, "/scratch/me");
	char *fresh = lint(f, "run.yaml", false, NULL);
	assert_non_null(strstr(fresh, "JF107"));
	free(fresh);
	free(lint(f, "run.yaml", true, NULL));
	assert_int_equal(entries_of(f, "JFFILE01", false), 4);
	/* The job sets DATA_DIR to the mount now: the path b.py reads, taken
	 * under the old environment, is not read back. */
	put_job(f, "/mnt/in");
	fresh = lint(f, "run.yaml", false, NULL);
	assert_null(strstr(fresh, "JF107"));
	char *cached = lint(f, "run.yaml", true, NULL);
	assert_string_equal(cached, fresh);
	assert_int_equal(last_walks, 4);
	free(cached);
	free(fresh);
}

static void test_cache__files_not_kept(void **state)
{
	fixture *f = *state;
	/* b.py opens a path a rule query looks at (JF101), c.py does not parse:
	 * neither is kept, and each is parsed again when the lint runs again. */
	put_modules(f, "def load(lr):\n    return open('/home/me/data.csv').read()\n");
	th_put(f->dir, "c.py", "def report(x, y):\n    print(x y)\n");
	char *fresh = lint(f, "run.yaml", false, NULL);
	assert_non_null(strstr(fresh, "JF101"));
	assert_non_null(strstr(fresh, "JF301"));
	free(lint(f, "run.yaml", true, NULL));
	assert_int_equal(entries_of(f, "JFFILE01", false), 2);
	assert_int_equal(entries_of(f, "JFCACHE2", true), 1);
	char *cached = lint(f, "run.yaml", true, NULL);
	assert_string_equal(cached, fresh);
	assert_int_equal(last_walks, 3); /* b.py, c.py and the entry script */
	free(cached);
	free(fresh);
}

static void test_cache__damaged_file_entries(void **state)
{
	fixture *f = *state;
	put_modules(f, "def load(lr):\n    return lr * 2\n");
	char *fresh = lint(f, "run.yaml", false, NULL);
	free(lint(f, "run.yaml", true, NULL));
	/* Each file entry with a byte flipped past its key, or cut short: each
	 * file is parsed and walked again, and the findings are the same. */
	for (int cut = 0; cut < 2; cut++) {
		assert_int_equal(entries_of(f, "JFCACHE2", true), 1);
		DIR *d = opendir(f->cache);
		for (struct dirent *e; (e = readdir(d));) {
			if (strlen(e->d_name) != 32)
				continue;
			char *path = jf_path_join(f->cache, e->d_name);
			damage_file(path, cut ? -3 : 40, cut);
			free(path);
		}
		closedir(d);
		char *cached = lint(f, "run.yaml", true, NULL);
		assert_string_equal(cached, fresh);
		assert_int_equal(last_walks, 4);
		free(cached);
	}
	free(fresh);
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
		cmocka_unit_test_setup_teardown(test_cache__one_changed_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__file_entries_follow_the_job, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_cache__files_not_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache__damaged_file_entries, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
