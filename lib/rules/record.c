/* record.c - the records of a lint: each Python file handed to the recorders of the checks that run */
#include "rules/record.h"

#include "rules/checks.h"

static const struct {
	jf_check_fn check; /* the check whose part reads the records */
	void *(*take)(const jf_record_ctx *ctx, const jf_pyfacts *py);
	void (*write)(jf_buf *b, const void *record);
	void *(*load)(jf_wire *w, jf_arena *arena, const jf_file *file);
	unsigned reads; /* JF_READS_* */
} recorders[JF_RECORD_COUNT] = {
#define JF_RECORD(kind, check, prefix, reads)                                                  \
	[JF_RECORD_##kind] = { check, prefix##_record, prefix##_record_write, prefix##_record_load, \
		               reads },
#define JF_CHECK(id, name, sev, cat, summary, help, fn)
#define JF_EMITTED(id, name, sev, cat, summary, help)
#define JF_HOOK(name, fn)
#include "rules/checks.def"
#undef JF_RECORD
#undef JF_CHECK
#undef JF_EMITTED
#undef JF_HOOK
};

struct jf_records {
	const jf_job *job;
	const jf_image *image;
	jf_module_finder local;
	bool wanted[JF_RECORD_COUNT]; /* the check runs in this lint */
	jf_arena arena;
	JF_ARRAY(void *) of[JF_RECORD_COUNT]; /* by file index; NULL: not read */
};

jf_records *jf_records_new(const jf_config *cfg, const jf_job *job, const jf_image *image)
{
	jf_records *self = jf_xcalloc(1, sizeof *self);
	self->job = job;
	self->image = image;
	self->local = (jf_module_finder){ JF_STRMAP_INIT, JF_STRMAP_INIT };
	const jf_rule_list *rules = jf_config__rules(cfg);
	for (size_t i = 0; i < rules->items.size; i++) {
		const jf_rule *r = rules->items.items[i];
		for (int k = 0; k < JF_RECORD_COUNT; k++)
			if (r->check == recorders[k].check && jf_config__runs(cfg, r, job != NULL))
				self->wanted[k] = true;
	}
	return self;
}

void jf_records_free(jf_records *self)
{
	if (!self)
		return;
	for (int k = 0; k < JF_RECORD_COUNT; k++)
		jf_array_release(&self->of[k]);
	jf_arena_release(&self->arena);
	jf_module_finder_release(&self->local);
	free(self);
}

/* The slot of `kind`'s record of file `index`. */
static void **slot(jf_records *self, jf_record_kind kind, size_t index)
{
	while (self->of[kind].size <= index)
		jf_array_push(&self->of[kind], NULL);
	return &self->of[kind].items[index];
}

static void take(void *data, const jf_pyfacts *py)
{
	jf_records *self = data;
	size_t index = py->file->index;
	jf_record_ctx ctx = { &self->arena, self->job, self->image, &self->local };
	for (int k = 0; k < JF_RECORD_COUNT; k++)
		if (self->wanted[k])
			*slot(self, (jf_record_kind)k, index) = recorders[k].take(&ctx, py);
}

jf_facts_recorder jf_records_recorder(jf_records *self)
{
	return (jf_facts_recorder){ take, NULL, self };
}

void jf_records_key(const jf_records *self, jf_buf *b)
{
	unsigned reads = 0;
	for (int k = 0; k < JF_RECORD_COUNT; k++)
		if (self->wanted[k])
			reads |= recorders[k].reads;
	jf_wire_put_u8(b, (uint8_t)reads);
	if (reads & JF_READS_CODE_DIR)
		jf_wire_put_str(b, self->job->code_dir);
	if (reads & JF_READS_ENV) {
		jf_wire_put_u32(b, (uint32_t)self->job->env.size);
		for (size_t i = 0; i < self->job->env.size; i++) {
			jf_wire_put_str(b, self->job->env.items[i].name.value);
			jf_wire_put_str(b, self->job->env.items[i].value.value);
		}
	}
	if (reads & JF_READS_PYTHON)
		jf_wire_put_u32(b, (uint32_t)self->image->py_major);
}

void jf_records_write(const jf_records *self, const jf_file *file, jf_buf *b)
{
	for (int k = 0; k < JF_RECORD_COUNT; k++) {
		const void *rec = jf_records_of(self, (jf_record_kind)k, file);
		jf_wire_put_u8(b, (uint8_t)(self->wanted[k] | (rec != NULL) << 1));
		if (rec)
			recorders[k].write(b, rec);
	}
}

bool jf_records_load(jf_records *self, const jf_file *file, jf_wire *w)
{
	void *loaded[JF_RECORD_COUNT] = { 0 };
	for (int k = 0; k < JF_RECORD_COUNT && !w->bad; k++) {
		uint8_t flags = jf_wire_get_u8(w);
		if ((flags & 1) != self->wanted[k] || flags > 3)
			w->bad = true; /* taken for other checks */
		else if (flags & 2)
			loaded[k] = recorders[k].load(w, &self->arena, file);
	}
	if (w->bad)
		return false;
	for (int k = 0; k < JF_RECORD_COUNT; k++)
		if (self->wanted[k])
			*slot(self, (jf_record_kind)k, file->index) = loaded[k];
	return true;
}

const void *jf_records_of(const jf_records *self, jf_record_kind kind, const jf_file *file)
{
	if (!self || file->index >= self->of[kind].size)
		return NULL;
	return self->of[kind].items[file->index];
}
