/* hf_arguments.h - the options HfArgumentParser makes of transformers' own argument dataclasses, by release
 *
 * From data/hf-arguments.txt (docs/data.md): for TrainingArguments and
 * Seq2SeqTrainingArguments (which has TrainingArguments' fields too), each
 * init field and the releases in which the parser builds the same option
 * for it.
 */
#ifndef JF_HF_ARGUMENTS_H
#define JF_HF_ARGUMENTS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	JF_HF_STR,
	JF_HF_INT,
	JF_HF_FLOAT,
	JF_HF_BOOL,   /* a word for true or false */
	JF_HF_FLAG,   /* no value (store_true, before 4.3.0) */
	JF_HF_NO,     /* only --no_<field> */
	JF_HF_CHOICE,
	JF_HF_OTHER,  /* a type whose words are not checked */
} jf_hf_value;

/* One field of a dataclass in a range of releases. */
typedef struct {
	const char *name;
	const char *since, *until; /* until NULL: still in the newest release read */
	jf_hf_value value;
	char nargs;                /* '1', '?' or '+' */
	bool required;
	const char *const *choices; /* NULL-terminated; JF_HF_CHOICE */
	bool default_true;         /* a bool whose --no_<field> turns it off */
} jf_hf_field;

/** Whether the data knows dataclass `cls` ("TrainingArguments", "Seq2SeqTrainingArguments"). */
bool jf_hf_known_class(const char *cls);
/**
 * Calls `each` for every field of `cls` in release `version` (the ranges
 * holding it), or, with `version` NULL, for every range of every field.
 * Returns whether the data covers `version`: a release from the first read
 * to the newest (NULL: always).
 */
bool jf_hf_fields(const char *cls, const char *version,
                  void (*each)(void *data, const jf_hf_field *f), void *data);
/** The newest release the data reads. */
const char *jf_hf_newest(void);

#endif
