/* test_discover.c - unit tests of finding job specs, file kinds, and linting only the jobs that read changed files */
#include "helpers.h"

#include "rules/config.h"

typedef struct {
	char *dir;
	jf_config *config;
	jf_linter *linter;
} fixture;

static int setup(void **state)
{
	fixture *f = jf_xcalloc(1, sizeof(*f));
	f->dir = th_mkdtemp();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	jf_linter_free(f->linter);
	jf_config_free(f->config);
	th_rmtree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* Writes the config `text` (NULL: none) and loads it. */
static void use_config(fixture *f, const char *text)
{
	jf_config_free(f->config);
	f->config = jf_config_new();
	if (text) {
		char *path = th_write(f->dir, ".jobfix.yaml", text);
		assert_int_equal(jf_config_load(f->config, path), 0);
		free(path);
	}
	assert_int_equal(jf_config_resolve(f->config), 0);
}

#define JOB "version: 1\nimage: python:3.11\ncommand: python train.py\n"

/* The jobs found under the fixture's folder, relative to it, one a line. */
static char *found(fixture *f)
{
	char **paths;
	size_t n;
	assert_int_equal(jf_discover_jobs(f->config, f->dir, &paths, &n), 0);
	jf_buf b = JF_BUF_INIT;
	size_t k = 0;
	for (; paths[k]; k++) {
		assert_true(jf_str_starts(paths[k], f->dir));
		jf_buf_addf(&b, "%s\n", paths[k] + strlen(f->dir) + 1);
	}
	assert_int_equal(k, n);
	jf_paths_free(paths);
	return jf_buf_detach(&b, NULL);
}

static void assert_found(fixture *f, const char *expect)
{
	char *got = found(f);
	if (strcmp(got, expect))
		fail_msg("found:\n%s\nexpected:\n%s", got, expect);
	free(got);
}

static void test_discover__names_at_any_depth(void **state)
{
	fixture *f = *state;
	use_config(f, NULL);
	th_put(f->dir, "job.yaml", JOB);
	th_put(f->dir, "a/b/c/jobfix.yaml", JOB);
	th_put(f->dir, "jobs/resnet.job.yaml", JOB);
	th_put(f->dir, "jobs/.job.yaml", JOB);         /* hidden */
	th_put(f->dir, "jobs/job.yml", JOB);           /* not a name of a job spec */
	th_put(f->dir, "jobs/my-job.yaml", JOB);
	th_put(f->dir, "configs/model.yaml", "a: 1\n");
	th_put(f->dir, "jobs/job.yaml.bak", JOB);
	assert_found(f, "a/b/c/jobfix.yaml\njob.yaml\njobs/resnet.job.yaml\n");
}

static void test_discover__skips_hidden_node_modules_and_excluded(void **state)
{
	fixture *f = *state;
	use_config(f, "exclude: [third_party/, \"/legacy/*.job.yaml\"]\n"
	              "jobs: [\"experiments/*.yaml\", \".ci/*.yaml\"]\n");
	th_put(f->dir, "jobs/a/job.yaml", JOB);
	th_put(f->dir, ".git/job.yaml", JOB);
	th_put(f->dir, ".venv/lib/job.yaml", JOB);
	th_put(f->dir, ".ci/run.yaml", JOB); /* `jobs` does not reach into hidden folders */
	th_put(f->dir, "node_modules/x/job.yaml", JOB);
	th_put(f->dir, "src/node_modules/job.yaml", JOB);
	th_put(f->dir, "third_party/y/job.yaml", JOB);
	th_put(f->dir, "legacy/old.job.yaml", JOB);
	th_put(f->dir, "legacy/job.yaml", JOB);
	th_put(f->dir, "experiments/e1.yaml", JOB);
	th_put(f->dir, "experiments/deep/e2.yaml", JOB);
	assert_found(f, "experiments/e1.yaml\njobs/a/job.yaml\nlegacy/job.yaml\n");
	/* Without the config: its patterns are gone. */
	use_config(f, NULL);
	assert_found(f, "jobs/a/job.yaml\nlegacy/job.yaml\nlegacy/old.job.yaml\n"
	                "third_party/y/job.yaml\n");
}

static void test_discover__symbolic_links(void **state)
{
	fixture *f = *state;
	use_config(f, NULL);
	th_put(f->dir, "jobs/a/job.yaml", JOB);
	th_put(f->dir, "shared/b/job.yaml", JOB);
	char *p = jf_xasprintf("%s/jobs/loop", f->dir);
	assert_int_equal(symlink("..", p), 0); /* a loop: the start folder */
	free(p);
	p = jf_xasprintf("%s/a-link", f->dir);
	assert_int_equal(symlink("jobs", p), 0); /* a folder searched under its own path */
	free(p);
	p = jf_xasprintf("%s/jobs/self", f->dir);
	assert_int_equal(symlink(".", p), 0);
	free(p);
	p = jf_xasprintf("%s/jobs/dangling", f->dir);
	assert_int_equal(symlink("nowhere", p), 0);
	free(p);
	p = jf_xasprintf("%s/jobs/c.job.yaml", f->dir);
	assert_int_equal(symlink("a/job.yaml", p), 0); /* a link to a spec is a spec */
	free(p);
	assert_found(f, "jobs/a/job.yaml\njobs/c.job.yaml\nshared/b/job.yaml\n");
	/* A folder of the repository reached only through a link is searched through it. */
	th_put(f->dir, ".hidden/d/job.yaml", JOB);
	p = jf_xasprintf("%s/in", f->dir);
	assert_int_equal(symlink(".hidden/d", p), 0);
	free(p);
	assert_found(f, "in/job.yaml\njobs/a/job.yaml\njobs/c.job.yaml\nshared/b/job.yaml\n");
	/* A folder out of the repository is not (security.md). */
	char *outside = th_mkdtemp();
	th_put(outside, "job.yaml", JOB);
	p = jf_xasprintf("%s/ext", f->dir);
	assert_int_equal(symlink(outside, p), 0);
	free(p);
	assert_found(f, "in/job.yaml\njobs/a/job.yaml\njobs/c.job.yaml\nshared/b/job.yaml\n");
	th_rmtree(outside);
	free(outside);
}

static void test_discover__empty_and_errors(void **state)
{
	fixture *f = *state;
	use_config(f, NULL);
	assert_found(f, "");
	char **paths = (char **)1;
	size_t n = 7;
	char *missing = jf_xasprintf("%s/missing", f->dir);
	assert_int_equal(jf_discover_jobs(NULL, missing, &paths, &n), JF_EIO);
	assert_int_equal(errno, ENOENT);
	assert_null(paths);
	assert_int_equal(n, 0);
	char *file = th_write(f->dir, "file.txt", "x");
	assert_int_equal(jf_discover_jobs(NULL, file, &paths, &n), JF_EIO);
	free(file);
	free(missing);
	jf_paths_free(NULL);
}

static void test_discover__file_kinds(void **state)
{
	fixture *f = *state;
	use_config(f, "jobs: [\"experiments/*.yaml\"]\n");
	char *p;
#define KIND(rel, text, kind)                                   \
	p = th_write(f->dir, rel, text);                        \
	assert_int_equal(jf_file_kind_of(f->config, p), kind); \
	free(p)
	KIND("job.yaml", JOB, JF_FILE_JOB);
	KIND("a/jobfix.yaml", JOB, JF_FILE_JOB);
	KIND("a/x.job.yaml", JOB, JF_FILE_JOB);
	KIND("experiments/e.yaml", JOB, JF_FILE_JOB);
	KIND("other/e.yaml", JOB, JF_FILE_OTHER);
	KIND("train.py", "x = 1\n", JF_FILE_PYTHON);
	KIND("run.sh", "ls\n", JF_FILE_SHELL);
	KIND("run.bash", "ls\n", JF_FILE_SHELL);
	KIND("bin/train", "#!/usr/bin/env python3\nx = 1\n", JF_FILE_PYTHON);
	KIND("bin/run", "#!/bin/bash\nls\n", JF_FILE_SHELL);
	KIND("bin/tool", "#!/usr/bin/perl\n", JF_FILE_OTHER);
	KIND("README", "read me\n", JF_FILE_OTHER);
	KIND("notes.txt", "#!/bin/sh\n", JF_FILE_OTHER);
#undef KIND
	/* A file that is not there has no #! line to read. */
	assert_int_equal(jf_file_kind_of(NULL, "/nonexistent/bin/x"), JF_FILE_OTHER);
}

/* Lints every job of `jobs` (relative to the fixture's folder), restricted to `changed`. */
static void lint_restricted(fixture *f, const char *const *jobs, const char *const *changed)
{
	jf_linter_free(f->linter);
	f->linter = jf_linter_new(NULL);
	char *abs[8] = { NULL };
	size_t n = 0;
	for (; changed && changed[n]; n++)
		abs[n] = jf_xasprintf("%s/%s", f->dir, changed[n]);
	jf_linter_restrict(f->linter, changed ? (const char *const *)abs : NULL);
	for (size_t i = 0; jobs[i]; i++) {
		char *p = jf_xasprintf("%s/%s", f->dir, jobs[i]);
		assert_int_equal(jf_linter_lint(f->linter, p), 0);
		free(p);
	}
	for (size_t i = 0; i < n; i++)
		free(abs[i]);
}

static bool has_read(fixture *f, const char *rel)
{
	char *p = jf_xasprintf("%s/%s", f->dir, rel);
	bool r = jf_linter_has_read(f->linter, p);
	free(p);
	return r;
}

static void test_discover__restrict_to_changed_files(void **state)
{
	fixture *f = *state;
	th_put(f->dir, "a/job.yaml", "version: 1\nimage: python:3.11\ncommand: bash run.sh\n");
	th_put(f->dir, "a/run.sh", "python train.py\n");
	th_put(f->dir, "a/train.py", "import util\nopen('/home/alice/a')\n");
	th_put(f->dir, "a/util.py", "open('/home/alice/util')\n");
	th_put(f->dir, "b/job.yaml", "version: 1\nimage: python:3.11\ncommand: python main.py\n"
	                              "bogus: 1\n");
	th_put(f->dir, "b/main.py", "open('/home/alice/b')\n");
	th_put(f->dir, "lone.py", "x = 1\n");
	static const char *const both[] = { "a/job.yaml", "b/job.yaml", NULL };

	/* An imported module: job a only, whole (its JF101 in train.py too). */
	static const char *const util[] = { "a/util.py", NULL };
	lint_restricted(f, both, util);
	assert_int_equal(th_count(f->linter, "JF101"), 2);
	assert_int_equal(th_count(f->linter, "JF002"), 0);
	assert_true(has_read(f, "a/util.py") && has_read(f, "a/run.sh") && has_read(f, "a/job.yaml"));
	assert_false(has_read(f, "b/main.py") || has_read(f, "b/job.yaml"));

	/* A launch script, named through another path to it. */
	static const char *const run[] = { "b/../a/./run.sh", NULL };
	lint_restricted(f, both, run);
	assert_int_equal(th_count(f->linter, "JF101"), 2);
	assert_int_equal(th_count(f->linter, "JF002"), 0);

	/* The spec itself: job b only, its own findings (JF002) and its code's. */
	static const char *const spec[] = { "b/job.yaml", NULL };
	lint_restricted(f, both, spec);
	assert_int_equal(th_count(f->linter, "JF101"), 1);
	assert_int_equal(th_count(f->linter, "JF002"), 1);

	/* A file no job reads, or none at all: no job reports; nothing read. */
	static const char *const lone[] = { "lone.py", "gone.py", NULL };
	lint_restricted(f, both, lone);
	assert_int_equal(f->linter->report.diags.size, 0);
	assert_false(has_read(f, "lone.py") || has_read(f, "a/job.yaml"));
	assert_int_equal(f->linter->sources.size, 0); /* the files of jobs left out are let go */
	static const char *const none[] = { NULL };
	lint_restricted(f, both, none);
	assert_int_equal(f->linter->report.diags.size, 0);

	/* No restriction: every job; a file linted alone counts as read. */
	lint_restricted(f, both, NULL);
	assert_int_equal(th_count(f->linter, "JF101"), 3);
	assert_int_equal(th_count(f->linter, "JF002"), 1);
	char *p = jf_xasprintf("%s/lone.py", f->dir);
	assert_int_equal(jf_linter_lint(f->linter, p), 0);
	free(p);
	assert_true(has_read(f, "lone.py") && has_read(f, "b/main.py"));
	assert_false(has_read(f, "missing.py"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_discover__names_at_any_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover__skips_hidden_node_modules_and_excluded,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover__symbolic_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover__empty_and_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover__file_kinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover__restrict_to_changed_files, setup,
		                                teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
