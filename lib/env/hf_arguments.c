/* hf_arguments.c - data/hf-arguments.txt, read once: transformers' argument dataclasses by release */
#include "env/hf_arguments.h"

#include <pthread.h>
#include <string.h>

#include "core/embed.h"
#include "core/util.h"
#include "env/image.h"

typedef struct {
	char *cls;
	jf_hf_field f;
} entry;

static JF_ARRAY(entry) entries;
static const char *newest; /* the newest release read */
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

#define FIELDS_MAX 256

static void load(void)
{
	static const struct {
		const char *name;
		jf_hf_value value;
	} kinds[] = { { "str", JF_HF_STR },   { "int", JF_HF_INT },       { "float", JF_HF_FLOAT },
		      { "bool", JF_HF_BOOL }, { "bool-no", JF_HF_BOOL },  { "flag", JF_HF_FLAG },
		      { "no", JF_HF_NO },     { "choice", JF_HF_CHOICE }, { "other", JF_HF_OTHER } };
	static char *fields[FIELDS_MAX]; /* only under pthread_once */
	const jf_embedded *file = jf_embedded_data_find("hf-arguments.txt");
	for (const char *p = file ? file->data : ""; *p;) {
		size_t n = jf_next_fields(&p, fields, FIELDS_MAX);
		if (n == 3 && !strcmp(fields[0], "@releases")) {
			newest = fields[2];
			free(fields[0]);
			free(fields[1]);
			continue;
		}
		size_t k = 0;
		while (n >= 7 && k < sizeof kinds / sizeof *kinds && strcmp(kinds[k].name, fields[4]))
			k++;
		if (n < 7 || k == sizeof kinds / sizeof *kinds) {
			for (size_t i = 0; i < n; i++)
				free(fields[i]);
			continue; /* tests/unit/test_hf_arguments.c: no such line */
		}
		const char **choices = jf_xcalloc(n - 6, sizeof *choices);
		memcpy(choices, fields + 7, (n - 7) * sizeof *choices);
		entry e = { fields[0],
			    { fields[1], fields[2], strcmp(fields[3], "-") ? fields[3] : NULL,
			      kinds[k].value, fields[5][0], !strcmp(fields[6], "1"), choices,
			      !strcmp(fields[4], "bool-no") } };
		if (!e.f.until)
			free(fields[3]);
		free(fields[4]);
		free(fields[5]);
		free(fields[6]);
		jf_array_push(&entries, e);
	}
}

bool jf_hf_known_class(const char *cls)
{
	pthread_once(&loaded, load);
	if (!strcmp(cls, "Seq2SeqTrainingArguments"))
		cls = "TrainingArguments"; /* it has TrainingArguments' fields too */
	for (size_t i = 0; i < entries.size; i++)
		if (!strcmp(entries.items[i].cls, cls))
			return true;
	return false;
}

const char *jf_hf_newest(void)
{
	pthread_once(&loaded, load);
	return newest;
}

/* Whether release `v` lies in [since, until). */
static bool holds(const jf_hf_field *f, const char *v)
{
	return jf_version_cmp(f->since, v) <= 0 && (!f->until || jf_version_cmp(v, f->until) < 0);
}

bool jf_hf_fields(const char *cls, const char *version,
                  void (*each)(void *data, const jf_hf_field *f), void *data)
{
	pthread_once(&loaded, load);
	bool covered = !version;
	const char *own = cls;
	bool seq2seq = !strcmp(cls, "Seq2SeqTrainingArguments");
	for (size_t i = 0; i < entries.size; i++) {
		const entry *e = &entries.items[i];
		if (strcmp(e->cls, own) && !(seq2seq && !strcmp(e->cls, "TrainingArguments")))
			continue;
		if (version && jf_version_cmp(version, e->f.since) >= 0)
			covered = true; /* a release the data reads */
		if (!version || holds(&e->f, version))
			each(data, &e->f);
	}
	return covered && (!version || jf_version_cmp(version, newest) <= 0);
}
