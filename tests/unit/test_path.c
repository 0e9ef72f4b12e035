/* test_path.c - unit tests of the lexical path helpers (normalize, join, dirname, under) */
#include "helpers.h"

#include "core/path.h"

#define assert_normalizes(in, expect)                                                    \
	do {                                                                             \
		char *n_ = jf_path_normalize(in);                                        \
		if (strcmp(n_, expect))                                                  \
			fail_msg("normalize(\"%s\") = \"%s\", expected \"%s\"", in, n_,  \
			         expect);                                                \
		free(n_);                                                                \
	} while (0)

#define assert_joins(dir, rel, expect)                                                   \
	do {                                                                             \
		char *j_ = jf_path_join(dir, rel);                                       \
		if (strcmp(j_, expect))                                                  \
			fail_msg("join(\"%s\", \"%s\") = \"%s\", expected \"%s\"", dir, rel, \
			         j_, expect);                                            \
		free(j_);                                                                \
	} while (0)

#define assert_dirname(in, expect)                                                       \
	do {                                                                             \
		char *d_ = jf_path_dirname(in);                                          \
		if (strcmp(d_, expect))                                                  \
			fail_msg("dirname(\"%s\") = \"%s\", expected \"%s\"", in, d_,    \
			         expect);                                                \
		free(d_);                                                                \
	} while (0)

static void test_path__normalize_dots(void **state)
{
	(void)state;
	assert_normalizes("a/./b/../c", "a/c");
	assert_normalizes("./a", "a");
	assert_normalizes("a/.", "a");
	assert_normalizes("a/b/../../c", "c");
	assert_normalizes("/w/src/../train.py", "/w/train.py");
	/* Names that merely start with dots are names. */
	assert_normalizes("a/.../b", "a/.../b");
	assert_normalizes("..a/.b/b..", "..a/.b/b..");
}

static void test_path__normalize_empty_and_dot(void **state)
{
	(void)state;
	assert_normalizes("", ".");
	assert_normalizes(".", ".");
	assert_normalizes("./", ".");
	assert_normalizes("./.", ".");
	assert_normalizes("a/..", ".");
	assert_normalizes("a/b/../..", ".");
}

static void test_path__normalize_slashes(void **state)
{
	(void)state;
	assert_normalizes("a/b/", "a/b");
	assert_normalizes("a//b///", "a/b");
	assert_normalizes("/", "/");
	assert_normalizes("///", "/");
	assert_normalizes("//a//b", "/a/b");
	assert_normalizes("/a/b/", "/a/b");
}

static void test_path__normalize_dotdot(void **state)
{
	(void)state;
	/* Above the root there is nothing: ".." at "/" stays at "/". */
	assert_normalizes("/../x", "/x");
	assert_normalizes("/..", "/");
	assert_normalizes("/a/../../..", "/");
	/* A relative path keeps its leading ".." parts. */
	assert_normalizes("../a", "../a");
	assert_normalizes("..", "..");
	assert_normalizes("../../a/..", "../..");
	assert_normalizes("a/../..", "..");
	assert_normalizes("a/../../b", "../b");
	assert_normalizes("./../a/./b", "../a/b");
}

static void test_path__join(void **state)
{
	(void)state;
	assert_joins("/workspace", "train.py", "/workspace/train.py");
	assert_joins("/workspace/", "src/./train.py", "/workspace/src/train.py");
	assert_joins("/workspace/src", "../train.py", "/workspace/train.py");
	assert_joins("code", "a/b", "code/a/b");
	/* An absolute `rel` wins over the folder. */
	assert_joins("/workspace", "/opt/run.sh", "/opt/run.sh");
	assert_joins("/workspace", "/opt/../x", "/x");
	/* An empty folder: `rel` alone, normalized. */
	assert_joins("", "a/./b", "a/b");
	assert_joins("", "train.py", "train.py");
	assert_joins("", "", ".");
	/* An empty or "." `rel`: the folder itself. */
	assert_joins("/w", "", "/w");
	assert_joins("/w", ".", "/w");
	assert_joins(".", "x", "x");
	assert_joins("..", "x", "../x");
}

static void test_path__dirname(void **state)
{
	(void)state;
	assert_dirname("a/b/c", "a/b");
	assert_dirname("a/b", "a");
	assert_dirname("/a/b", "/a");
	assert_dirname("/a", "/");
	assert_dirname("/", "/");
	assert_dirname("a", "");
	assert_dirname("", "");
	assert_dirname("./job.yaml", ".");
}

static void test_path__under(void **state)
{
	(void)state;
	const char *p = "/a/b";
	const char *r = jf_path_under(p, "/a");
	assert_non_null(r);
	assert_string_equal(r, "b");
	assert_ptr_equal(r, p + 3); /* borrowed from `path` */
	assert_string_equal(jf_path_under("/a/b/c.py", "/a"), "b/c.py");
	assert_string_equal(jf_path_under("/a/b/c.py", "/a/b"), "c.py");
	/* A trailing slash on the folder does not matter. */
	assert_string_equal(jf_path_under("/a/b", "/a/"), "b");
	assert_string_equal(jf_path_under("/a/b", "/a//"), "b");
	/* A shared prefix is not a parent. */
	assert_null(jf_path_under("/ab", "/a"));
	assert_null(jf_path_under("/ab/c", "/a"));
	assert_null(jf_path_under("/a", "/a/b"));
	assert_null(jf_path_under("/x/a/b", "/a"));
	/* Equal: the rest is empty. */
	const char *eq = "/a";
	r = jf_path_under(eq, "/a");
	assert_non_null(r);
	assert_string_equal(r, "");
	assert_ptr_equal(r, eq + 2);
	assert_string_equal(jf_path_under("/a", "/a/"), "");
	/* Everything absolute is under the root. */
	assert_string_equal(jf_path_under("/a/b", "/"), "a/b");
	assert_string_equal(jf_path_under("/", "/"), "");
	assert_null(jf_path_under("a/b", "/"));
	/* Relative paths work the same way. */
	assert_string_equal(jf_path_under("src/train.py", "src"), "train.py");
	assert_null(jf_path_under("srcx/train.py", "src"));
	/* Every relative path that does not climb is under ".". */
	assert_string_equal(jf_path_under("src/train.py", "."), "src/train.py");
	assert_string_equal(jf_path_under(".", "."), "");
	assert_null(jf_path_under("../x", "."));
	assert_null(jf_path_under("..", "."));
	assert_null(jf_path_under("/abs", "."));
}

static void test_path__is_file_is_dir(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	char *file = th_write(dir, "f.py", "x = 1\n");
	assert_true(jf_path_is_dir(dir));
	assert_false(jf_path_is_file(dir));
	assert_true(jf_path_is_file(file));
	assert_false(jf_path_is_dir(file));
	char *missing = jf_xasprintf("%s/missing", dir);
	assert_false(jf_path_is_file(missing));
	assert_false(jf_path_is_dir(missing));
	free(missing);
	free(file);
	th_rmtree(dir);
	assert_false(jf_path_is_dir(dir));
	free(dir);
}

#define assert_glob(pattern, path, want)                                                 \
	do {                                                                             \
		if (jf_path_glob(pattern, path) != (want))                               \
			fail_msg("glob(\"%s\", \"%s\") should be %s", pattern, path,      \
			         (want) ? "true" : "false");                             \
	} while (0)

static void test_path__glob_segment_wildcards(void **state)
{
	(void)state;
	assert_glob("*.py", "train.py", true);
	assert_glob("*.py", "train.pyc", false);
	assert_glob("*.py", "src/train.py", false); /* '*' does not cross '/' */
	assert_glob("src/*.py", "src/train.py", true);
	assert_glob("src/*", "src/a/b.py", false);
	assert_glob("t?ain.py", "train.py", true);
	assert_glob("t?ain.py", "tain.py", false);
	assert_glob("a*b*c", "axxbyyc", true);
	assert_glob("a*b*c", "axxbyy", false);
	assert_glob("*", "", true);
	assert_glob("", "", true);
	assert_glob("exact", "exact", true);
	assert_glob("exact", "exactly", false);
}

static void test_path__glob_classes_and_escapes(void **state)
{
	(void)state;
	assert_glob("[abc].py", "b.py", true);
	assert_glob("[abc].py", "d.py", false);
	assert_glob("[a-c]x", "bx", true);
	assert_glob("[!a-c]x", "bx", false);
	assert_glob("[^a-c]x", "dx", true);
	assert_glob("[]]", "]", true);
	assert_glob("\\*", "*", true);
	assert_glob("\\*", "a", false);
	assert_glob("[ab", "[ab", true); /* unclosed: literal */
	assert_glob("[/]", "/", false);  /* never matches '/' */
}

static void test_path__glob_globstar(void **state)
{
	(void)state;
	assert_glob("**/*.py", "train.py", true);
	assert_glob("**/*.py", "a/b/c/train.py", true);
	assert_glob("a/**/z.py", "a/z.py", true);
	assert_glob("a/**/z.py", "a/b/c/z.py", true);
	assert_glob("a/**/z.py", "b/z.py", false);
	assert_glob("a/**", "a/b/c", true);
	assert_glob("**", "any/thing", true);
	assert_glob("a/**/b/**/c", "a/x/b/y/z/c", true);
	assert_glob("a/**/b/**/c", "a/x/y/c", false);
	assert_glob("a**b", "axyb", true); /* not a whole segment: as '*' */
	assert_glob("a**b", "ax/yb", false);
	/* Many stars against a long path stay fast (greedy, no exponential backtracking). */
	char path[4096];
	memset(path, 'a', sizeof path - 1);
	path[sizeof path - 1] = '\0';
	assert_glob("*a*a*a*a*a*a*a*a*a*a*a*a*b", path, false);
}

static void test_path__glob_error(void **state)
{
	(void)state;
	assert_null(jf_path_glob_error("src/**/*.py"));
	assert_null(jf_path_glob_error("[a-z]*"));
	assert_null(jf_path_glob_error("\\["));
	assert_non_null(jf_path_glob_error(""));
	assert_non_null(jf_path_glob_error("a\\"));
	assert_non_null(jf_path_glob_error("[ab"));
	assert_non_null(jf_path_glob_error("[a/]")); /* a class cannot span a '/' */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path__normalize_dots),
		cmocka_unit_test(test_path__normalize_empty_and_dot),
		cmocka_unit_test(test_path__normalize_slashes),
		cmocka_unit_test(test_path__normalize_dotdot),
		cmocka_unit_test(test_path__join),
		cmocka_unit_test(test_path__dirname),
		cmocka_unit_test(test_path__under),
		cmocka_unit_test(test_path__is_file_is_dir),
		cmocka_unit_test(test_path__glob_segment_wildcards),
		cmocka_unit_test(test_path__glob_classes_and_escapes),
		cmocka_unit_test(test_path__glob_globstar),
		cmocka_unit_test(test_path__glob_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
