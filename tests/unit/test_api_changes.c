/* test_api_changes.c - data/api-changes.yaml and the versions it is decided against */
#include <ctype.h>

#include "helpers.h"

#include "env/api_changes.h"

static void test_data_is_well_formed(void **state)
{
	(void)state;
	jf_error err = JF_ERROR_INIT;
	if (jf_api_changes_check(&err))
		fail_msg("%s", jf_error_message(&err));
	size_t n;
	const jf_api_change *t = jf_api_changes(&n);
	assert_true(n >= 700);
	for (size_t i = 1; i < n; i++) /* sorted, for the lookups */
		assert_true(strcmp(t[i - 1].name, t[i].name) <= 0);
	/* Every fix is a dotted name or a plain one, never code. */
	for (size_t i = 0; i < n; i++)
		for (const char *p = t[i].fix; p && *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
				fail_msg("data/api-changes.yaml:%u: fix '%s' is not a name", t[i].line,
				         t[i].fix);
}

static const jf_api_change *entry(const char *name, jf_api_kind kind)
{
	size_t first, total, count = jf_api_find(name, strlen(name), &first);
	const jf_api_change *t = jf_api_changes(&total);
	for (size_t i = first; i < first + count; i++)
		if (t[i].kind == kind)
			return &t[i];
	fail_msg("no entry '%s'", name);
	return NULL;
}

static void test_lookup(void **state)
{
	(void)state;
	const jf_api_change *e = jf_api_find_name("numpy.float", 11);
	assert_non_null(e);
	assert_string_equal(e->package, "numpy");
	assert_string_equal(e->removed, "1.24");
	assert_string_equal(e->fix, "float");
	/* a prefix of a longer entry is no entry */
	assert_null(jf_api_find_name("numpy.floa", 10));
	assert_null(jf_api_find_name("numpy.float_x", 13));
	assert_non_null(jf_api_find_name("numpy.float_.x", 12)); /* "numpy.float_" */
	/* a line of the renames group: its fix, and Python's error for the attribute */
	e = jf_api_find_name("tensorflow.train.polynomial_decay", 33);
	assert_non_null(e);
	assert_string_equal(e->removed, "2.0");
	assert_string_equal(e->fix, "tensorflow.compat.v1.train.polynomial_decay");
	assert_string_equal(e->error,
	                    "AttributeError: module 'tensorflow.train' has no attribute 'polynomial_decay'");
	/* a name TensorFlow 2 still has for another symbol is no entry */
	assert_null(jf_api_find_name("tensorflow.summary.scalar", 25));
	e = entry("yaml.load", JF_API_KEYWORD);
	assert_true(e->required);
	assert_int_equal(e->position, 2);
	assert_string_equal(e->keyword, "Loader");
}

static void test_exact_versions(void **state)
{
	(void)state;
	const jf_api_change *np_float = jf_api_find_name("numpy.float", 11);
	assert_int_equal(jf_api_fails(np_float, "1.26.4", NULL), JF_YES);
	assert_int_equal(jf_api_fails(np_float, "1.24.0", NULL), JF_YES);
	assert_int_equal(jf_api_fails(np_float, "1.24", NULL), JF_YES);
	assert_int_equal(jf_api_fails(np_float, "1.23.5", NULL), JF_NO);
	/* fails only for 1.24 <= v < 2.0 */
	const jf_api_change *np_bool = jf_api_find_name("numpy.bool", 10);
	assert_int_equal(jf_api_fails(np_bool, "1.26.4", NULL), JF_YES);
	assert_int_equal(jf_api_fails(np_bool, "2.0.1", NULL), JF_NO);
	assert_int_equal(jf_api_fails(np_bool, "1.21.0", NULL), JF_NO);
	const jf_api_change *compile = jf_api_find_name("torch.compile", 13);
	assert_int_equal(jf_api_fails(compile, "1.13.1+cu117", NULL), JF_YES);
	assert_int_equal(jf_api_fails(compile, "2.0.1", NULL), JF_NO);
	/* development builds decide only when the release is past every version named */
	assert_int_equal(jf_api_fails(compile, "2.1.0a0+29c30b1", NULL), JF_NO);
	assert_int_equal(jf_api_fails(compile, "2.0.0a0+1767026", NULL), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(compile, "1.14.0a0+410ce96", NULL), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(compile, "2.1.0.post1", NULL), JF_NO);
}

static void test_ranges(void **state)
{
	(void)state;
	const jf_api_change *np_float = jf_api_find_name("numpy.float", 11);
	assert_int_equal(jf_api_fails(np_float, NULL, ">=1.24"), JF_YES);
	assert_int_equal(jf_api_fails(np_float, NULL, ">=1.24,<2"), JF_YES);
	assert_int_equal(jf_api_fails(np_float, NULL, ">=1.20"), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(np_float, NULL, "<1.24"), JF_NO);
	assert_int_equal(jf_api_fails(np_float, NULL, "<=1.24"), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(np_float, NULL, "<=1.23.5"), JF_NO);
	assert_int_equal(jf_api_fails(np_float, NULL, ">1.23"), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(np_float, NULL, "~=1.21"), JF_UNKNOWN); /* 1.21 ... <2 */
	assert_int_equal(jf_api_fails(np_float, NULL, "~=1.21.0"), JF_NO);    /* 1.21.* */
	assert_int_equal(jf_api_fails(np_float, NULL, "==1.26.*"), JF_YES);
	assert_int_equal(jf_api_fails(np_float, NULL, "== 1.23.*"), JF_NO);
	assert_int_equal(jf_api_fails(np_float, NULL, "==1.26.4"), JF_YES);
	assert_int_equal(jf_api_fails(np_float, NULL, ">=1.20,!=1.22.0,<1.24"), JF_NO);
	assert_int_equal(jf_api_fails(np_float, NULL, ""), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(np_float, NULL, "*"), JF_UNKNOWN);
	assert_int_equal(jf_api_fails(np_float, NULL, "latest"), JF_UNKNOWN);
	const jf_api_change *compile = jf_api_find_name("torch.compile", 13);
	assert_int_equal(jf_api_fails(compile, NULL, "<2"), JF_YES);
	assert_int_equal(jf_api_fails(compile, NULL, ">=2.1"), JF_NO);
	assert_int_equal(jf_api_fails(compile, NULL, ">=1.13"), JF_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_is_well_formed),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_exact_versions),
		cmocka_unit_test(test_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
