/* test_hf_arguments.c - data/hf-arguments.txt: every line read, and what releases have which field */
#include "helpers.h"

#include "core/embed.h"
#include "core/util.h"
#include "env/hf_arguments.h"
#include "env/image.h"

/* Every line of the file but comments and the @releases line is one the reader takes. */
static void test_every_line_is_read(void **state)
{
	(void)state;
	const jf_embedded *f = jf_embedded_data_find("hf-arguments.txt");
	assert_non_null(f);
	static const char *const kinds[] = { "str", "int", "float", "bool", "bool-no", "flag", "no",
		                             "choice", "other", NULL };
	size_t lines = 0;
	char *fields[256];
	for (const char *p = f->data; *p;) {
		size_t n = jf_next_fields(&p, fields, 256);
		if (!n)
			break;
		if (strcmp(fields[0], "@releases")) {
			assert_true(n >= 7);
			assert_true(jf_str_in(fields[4], kinds));
			assert_true(!strcmp(fields[5], "1") || !strcmp(fields[5], "?") || !strcmp(fields[5], "+"));
			assert_true(!strcmp(fields[6], "0") || !strcmp(fields[6], "1"));
			/* a range is not empty, and choices come with `choice` only */
			assert_true(!strcmp(fields[3], "-") || jf_version_cmp(fields[2], fields[3]) < 0);
			assert_int_equal(n > 7, !strcmp(fields[4], "choice"));
			lines++;
		}
		for (size_t i = 0; i < n; i++)
			free(fields[i]);
	}
	assert_true(lines > 300);
}

typedef struct {
	const char *name;
	const jf_hf_field *found;
	int count;
} lookup;

static void find(void *data, const jf_hf_field *f)
{
	lookup *l = data;
	if (!strcmp(f->name, l->name)) {
		l->found = f;
		l->count++;
	}
}

static const jf_hf_field *field_of(const char *cls, const char *version, const char *name)
{
	lookup l = { name, NULL, 0 };
	jf_hf_fields(cls, version, find, &l);
	assert_true(l.count <= 1); /* one range holds a release */
	return l.found;
}

static void test_releases(void **state)
{
	(void)state;
	assert_true(jf_hf_known_class("TrainingArguments"));
	assert_true(jf_hf_known_class("Seq2SeqTrainingArguments"));
	assert_false(jf_hf_known_class("SFTConfig"));
	/* evaluation_strategy: until 4.51.0; eval_strategy from 4.41.0 */
	assert_non_null(field_of("TrainingArguments", "4.40.2", "evaluation_strategy"));
	assert_null(field_of("TrainingArguments", "4.51.3", "evaluation_strategy"));
	assert_null(field_of("TrainingArguments", "4.40.2", "eval_strategy"));
	const jf_hf_field *e = field_of("TrainingArguments", "4.51.3", "eval_strategy");
	assert_non_null(e);
	assert_int_equal(e->value, JF_HF_CHOICE);
	assert_string_equal(e->choices[0], "no");
	/* bool words from 4.3.0; Seq2Seq has TrainingArguments' fields and its own */
	assert_int_equal(field_of("TrainingArguments", "4.30.0", "bf16")->value, JF_HF_BOOL);
	assert_non_null(field_of("Seq2SeqTrainingArguments", "4.30.0", "predict_with_generate"));
	assert_non_null(field_of("Seq2SeqTrainingArguments", "4.30.0", "learning_rate"));
	assert_null(field_of("TrainingArguments", "4.30.0", "predict_with_generate"));
	/* remove_unused_columns defaults to True: --no_remove_unused_columns */
	assert_true(field_of("TrainingArguments", "4.30.0", "remove_unused_columns")->default_true);
	/* a release newer than the data is not covered */
	lookup l = { "x", NULL, 0 };
	assert_true(jf_hf_fields("TrainingArguments", "4.40.2", find, &l));
	assert_false(jf_hf_fields("TrainingArguments", "99.0.0", find, &l));
	assert_non_null(jf_hf_newest());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_line_is_read),
		cmocka_unit_test(test_releases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
