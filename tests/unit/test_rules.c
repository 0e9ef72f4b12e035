/* test_rules.c - unit tests of the rule table: metadata, uniqueness, lookup and query compilation */
#include "helpers.h"

#include <regex.h>

#include "core/embed.h"
#include "rule_ids.h"
#include "rules/registry.h"

static bool matches(const char *re, const char *s)
{
	regex_t r;
	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	bool ok = regexec(&r, s, 0, NULL, 0) == 0;
	regfree(&r);
	return ok;
}

static int setup_rules(void **state)
{
	(void)state;
	const char *err = jf_rules_builtin_error();
	if (err)
		print_error("jobfix's rule table: %s\n", err);
	return err != NULL;
}

static void test_rules__init(void **state)
{
	(void)state;
	assert_null(jf_rules_builtin_error());
	/* Built once: every call hands out the same table. */
	const jf_rule_list *own = jf_rules_builtin();
	assert_ptr_equal(jf_rules_builtin(), own);
	size_t n = own->items.size;
	assert_true(n >= 9); /* the C checks of checks.def and at least one query rule */
	assert_int_equal(jf_rules_count(), n);
	assert_null(jf_rules_get(n));
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(jf_rules_get(i), &th_rule_at(i)->info);
}

static void test_rules__metadata(void **state)
{
	(void)state;
	for (size_t i = 0; i < th_rules_size(); i++) {
		const jf_rule *r = th_rule_at(i);
		const jf_rule_info *in = &r->info;
		assert_non_null(in->id);
		if (!matches("^JF[0-9]{3}$", in->id))
			fail_msg("rule id '%s' is not JF<3 digits>", in->id);
		assert_non_null(in->name);
		if (!matches("^[a-z][a-z0-9]*(-[a-z0-9]+)*$", in->name))
			fail_msg("%s: name '%s' is not kebab-case", in->id, in->name);
		if (!in->category || !*in->category)
			fail_msg("%s: empty category", in->id);
		if (!in->summary || !*in->summary)
			fail_msg("%s: empty summary", in->id);
		if (!in->help || !*in->help)
			fail_msg("%s: empty help", in->id);
		if (!in->language || !*in->language)
			fail_msg("%s: empty language", in->id);
		assert_true(in->severity == JF_SEV_NOTE || in->severity == JF_SEV_WARNING ||
		            in->severity == JF_SEV_ERROR);
	}
}

/* Every rule names a category of the study, which has a dimension. */
static void test_rules__categories(void **state)
{
	(void)state;
	for (size_t i = 0; i < th_rules_size(); i++) {
		const jf_rule *r = th_rule_at(i);
		if (!jf_category_dimension(r->info.category))
			fail_msg("%s: '%s' is not a category of the study", r->info.id, r->info.category);
	}
	assert_string_equal(jf_category_dimension("Path Not Found"), "Execution environment");
	assert_string_equal(jf_category_dimension("Type Mismatch"), "General code error");
	assert_string_equal(jf_category_dimension("GPU Out of Memory"), "Deep-learning specific");
	assert_string_equal(jf_category_dimension("Unexpected Encoding"), "Data");
	assert_null(jf_category_dimension("path not found"));
	size_t n = 0;
	while (jf_categories[n].name)
		n++;
	assert_int_equal(n, 20); /* the study's 20 categories */
}

static void test_rules__unique_and_sorted(void **state)
{
	(void)state;
	size_t n = th_rules_size();
	for (size_t i = 0; i < n; i++) {
		const jf_rule *a = th_rule_at(i);
		if (i + 1 < n && strcmp(a->info.id, th_rule_at(i + 1)->info.id) >= 0)
			fail_msg("rules out of id order or repeated: %s, %s", a->info.id,
			         th_rule_at(i + 1)->info.id);
		for (size_t k = i + 1; k < n; k++) {
			const jf_rule *b = th_rule_at(k);
			if (!strcmp(a->info.id, b->info.id))
				fail_msg("id %s used twice", a->info.id);
			if (!strcmp(a->info.name, b->info.name))
				fail_msg("name %s used by %s and %s", a->info.name, a->info.id, b->info.id);
		}
	}
}

/* A rule is either a C check (no queries, language "job") or a query rule. */
static void test_rules__kinds(void **state)
{
	(void)state;
	size_t queries = 0;
	for (size_t i = 0; i < th_rules_size(); i++) {
		const jf_rule *r = th_rule_at(i);
		bool has_query = false;
		for (int l = 0; l < JF_LANG_COUNT; l++)
			has_query |= r->queries[l].path != NULL;
		if (!has_query) {
			assert_string_equal(r->info.language, "job");
			assert_null(r->hook);
			continue;
		}
		queries++;
		assert_null(r->check);
		if (!r->message || !*r->message)
			fail_msg("%s: query rule without a message", r->info.id);
		/* The language list names exactly the languages with a query. */
		for (int l = JF_LANG_YAML; l < JF_LANG_COUNT; l++) {
			bool listed = strstr(r->info.language, jf_lang_name((jf_lang)l)) != NULL;
			if (listed != (r->queries[l].path != NULL))
				fail_msg("%s: language list '%s' and its %s query disagree", r->info.id,
				         r->info.language, jf_lang_name((jf_lang)l));
		}
	}
	assert_true(queries >= 1);
}

/* The query file of each language is "<lang>/<id>-<name>.scm", and it compiles. */
/* The rule queries of each language compile together, as the linter uses them. */
static void test_rules__language_queries_compile(void **state)
{
	(void)state;
	for (int l = JF_LANG_PYTHON; l <= JF_LANG_BASH; l++) {
		jf_query_cache cache = { 0 };
		jf_error err = JF_ERROR_INIT;
		const jf_query *q = NULL;
		const jf_rule *const *rule_of = NULL;
		if (jf_query_cache_get(&cache, jf_rules_builtin(), (jf_lang)l, NULL, &q, &rule_of, &err))
			fail_msg("%s rules do not compile together: %s", jf_lang_name((jf_lang)l),
			         jf_error_message(&err));
		assert_non_null(q);
		for (uint32_t p = 0; p < jf_query_pattern_count(q); p++)
			assert_non_null(rule_of[p]->queries[l].path);
		/* Compiled once per cache: the second call hands out the same query. */
		const jf_query *again = NULL;
		assert_int_equal(jf_query_cache_get(&cache, jf_rules_builtin(), (jf_lang)l, NULL, &again,
		                                    &rule_of, &err),
		                 0);
		assert_ptr_equal(again, q);
		jf_query_cache_release(&cache);
	}
}

static void test_rules__queries_compile(void **state)
{
	(void)state;
	size_t compiled = 0;
	for (size_t i = 0; i < th_rules_size(); i++) {
		const jf_rule *r = th_rule_at(i);
		for (int l = 0; l < JF_LANG_COUNT; l++) {
			const struct jf_rule_query *rq = &r->queries[l];
			if (!rq->path)
				continue;
			char *expect = jf_xasprintf("%s/%s-%s.scm", jf_lang_name((jf_lang)l), r->info.id,
			                            r->info.name);
			assert_string_equal(rq->path, expect);
			free(expect);
			assert_true(rq->body_offset <= rq->len);
			jf_query *q = NULL;
			jf_error err = JF_ERROR_INIT;
			if (jf_query_compile((jf_lang)l, rq->path, rq->text, rq->len, rq->body_offset, &q,
			                     &err))
				fail_msg("%s does not compile: %s", rq->path, jf_error_message(&err));
			jf_query_free(q);
			/* The table compiled the prefilter with the rule. */
			if (rq->prefilter)
				assert_non_null(rq->prefilter_re);
			compiled++;
		}
	}
	assert_true(compiled >= 1);
}

/* Capture names of a rule's query, through the tree-sitter API. */
static bool has_capture(const TSQuery *q, const char *name, size_t len)
{
	for (uint32_t i = 0; i < ts_query_capture_count(q); i++) {
		uint32_t n;
		const char *c = ts_query_capture_name_for_id(q, i, &n);
		if (n == len && !memcmp(c, name, len))
			return true;
	}
	return false;
}

/* Each {{capture}} of the message exists in every query; a rule without a hook reports @finding. */
static void test_rules__message_captures_exist(void **state)
{
	(void)state;
	for (size_t i = 0; i < th_rules_size(); i++) {
		const jf_rule *r = th_rule_at(i);
		for (int l = 0; l < JF_LANG_COUNT; l++) {
			const struct jf_rule_query *rq = &r->queries[l];
			if (!rq->path)
				continue;
			uint32_t off;
			TSQueryError e;
			TSQuery *q = ts_query_new(jf_lang_ts((jf_lang)l), rq->text, rq->len, &off, &e);
			assert_non_null(q);
			if (!r->hook && !has_capture(q, "finding", 7))
				fail_msg("%s has no @finding capture and no check hook", rq->path);
			for (const char *p = strstr(r->message, "{{"); p; p = strstr(p, "{{")) {
				const char *close = strstr(p, "}}");
				if (!close)
					fail_msg("%s: unclosed {{ in message", r->info.id);
				if (!has_capture(q, p + 2, (size_t)(close - p - 2)))
					fail_msg("%s: message names {{%.*s}}, which %s does not capture",
					         r->info.id, (int)(close - p - 2), p + 2, rq->path);
				p = close + 2;
			}
			ts_query_delete(q);
		}
	}
}

/* Every embedded .scm is a rule's query. */
static void test_rules__every_query_file_is_used(void **state)
{
	(void)state;
	for (size_t i = 0; i < jf_embedded_queries_count; i++) {
		const char *path = jf_embedded_queries[i].path;
		bool used = false;
		for (size_t k = 0; k < th_rules_size() && !used; k++)
			for (int l = 0; l < JF_LANG_COUNT && !used; l++)
				used = th_rule_at(k)->queries[l].path &&
				       !strcmp(th_rule_at(k)->queries[l].path, path);
		if (!used)
			fail_msg("query file %s belongs to no rule", path);
	}
}

/* The names of the generated rule_ids.h are the ids of the rule table, each
 * once and each named for its own id: a rule added to checks.def or a query
 * file has its name, and no name stands for a rule that is gone. */
static void test_rules__id_names(void **state)
{
	(void)state;
#define X(id) { #id, id },
	static const struct {
		const char *name, *id;
	} names[] = { JF_RULE_IDS(X) };
#undef X
	size_t n = sizeof names / sizeof *names;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i].name, names[i].id))
			fail_msg("rule_ids.h names \"%s\" %s", names[i].id, names[i].name);
		if (i >= th_rules_size() || strcmp(names[i].id, th_rule_at(i)->info.id))
			fail_msg("rule_ids.h has %s where the rule table has %s", names[i].id,
			         i < th_rules_size() ? th_rule_at(i)->info.id : "no more rules");
	}
	if (n != th_rules_size())
		fail_msg("the rule table has %s, which rule_ids.h does not name",
		         th_rule_at(n)->info.id);
}

static void test_rules__find(void **state)
{
	(void)state;
	for (size_t i = 0; i < th_rules_size(); i++) {
		const jf_rule *r = th_rule_at(i);
		assert_ptr_equal(th_rule(r->info.id), r);
		assert_ptr_equal(th_rule(r->info.name), r);
	}
	const jf_rule *r = th_rule("JF102");
	assert_non_null(r);
	assert_string_equal(r->info.name, "missing-script");
	assert_ptr_equal(th_rule("missing-script"), r);
	assert_non_null(th_rule("JF101"));
	assert_ptr_equal(th_rule("hard-coded-local-path"), th_rule("JF101"));
	assert_null(th_rule("JF999"));
	assert_null(th_rule("jf102")); /* ids are case-sensitive */
	assert_null(th_rule("JF10"));
	assert_null(th_rule(""));
	assert_null(th_rule("missing"));
}

static void test_rules__severity_name(void **state)
{
	(void)state;
	assert_string_equal(jf_severity_name(JF_SEV_ERROR), "error");
	assert_string_equal(jf_severity_name(JF_SEV_WARNING), "warning");
	assert_string_equal(jf_severity_name(JF_SEV_NOTE), "note");
	assert_string_equal(jf_lang_name(JF_LANG_PYTHON), "python");
	assert_string_equal(jf_lang_name(JF_LANG_BASH), "bash");
	assert_non_null(jf_lang_ts(JF_LANG_PYTHON));
	assert_non_null(jf_lang_ts(JF_LANG_BASH));
	assert_null(jf_lang_ts(JF_LANG_YAML));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules__init),
		cmocka_unit_test(test_rules__metadata),
		cmocka_unit_test(test_rules__categories),
		cmocka_unit_test(test_rules__unique_and_sorted),
		cmocka_unit_test(test_rules__kinds),
		cmocka_unit_test(test_rules__queries_compile),
		cmocka_unit_test(test_rules__language_queries_compile),
		cmocka_unit_test(test_rules__message_captures_exist),
		cmocka_unit_test(test_rules__every_query_file_is_used),
		cmocka_unit_test(test_rules__id_names),
				cmocka_unit_test(test_rules__find),
		cmocka_unit_test(test_rules__severity_name),
	};
	/* The group setup prints why the table is broken, if it is. */
	return cmocka_run_group_tests(tests, setup_rules, NULL);
}
