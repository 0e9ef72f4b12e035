/* cover.c - the lines that say what a job's checks covered, made and read back
 *
 * A line is its kind and its fields, separated by the unit separator 0x1f,
 * which no path, script name or message of jobfix holds.
 */
#include "core/cover.h"

#define SEP '\x1f'

static const char *const kinds[] = { "entry", "imports", "files" };
static const char *const states[] = { "checked", "partial", "not_checked", "nothing" };

const char *jf_cover_name(jf_cover state)
{
	return state <= JF_COVER_NOTHING ? states[state] : "?";
}

char *jf_cover_entry_line(const char *script, jf_cover state, const char *why)
{
	return jf_xasprintf("%s%c%s%c%s%c%s", kinds[JF_COVER_LINE_ENTRY], SEP, states[state], SEP,
	                    script, SEP, why ? why : "");
}

char *jf_cover_imports_line(jf_cover state, size_t modules, size_t open, const char *why)
{
	return jf_xasprintf("%s%c%s%c%zu%c%zu%c%s", kinds[JF_COVER_LINE_IMPORTS], SEP,
	                    states[state], SEP, modules, SEP, open, SEP, why ? why : "");
}

char *jf_cover_files_line(size_t python, size_t shell)
{
	return jf_xasprintf("%s%c%zu%c%zu", kinds[JF_COVER_LINE_FILES], SEP, python, SEP, shell);
}

/* The index of `s` in `list` (NULL-free, `n` long), or -1. */
static int index_of(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return (int)i;
	return -1;
}

bool jf_cover_line_read(const char *line, jf_cover_line *out)
{
	memset(out, 0, sizeof *out);
	for (const char *p = line;;) {
		size_t n = strcspn(p, "\x1f");
		jf_array_push(&out->fields, jf_xstrndup(p, n));
		if (!p[n])
			break;
		p += n + 1;
	}
	const jf_strings *f = &out->fields;
	int kind = index_of(kinds, sizeof kinds / sizeof *kinds, f->items[0]);
	size_t want = kind == JF_COVER_LINE_ENTRY ? 4 : kind == JF_COVER_LINE_IMPORTS ? 5 : 3;
	int state = kind != JF_COVER_LINE_FILES && f->size > 1
	                    ? index_of(states, sizeof states / sizeof *states, f->items[1])
	                    : 0;
	if (kind < 0 || f->size != want || state < 0) {
		jf_cover_line_release(out);
		return false;
	}
	out->kind = (jf_cover_kind)kind;
	out->state = (jf_cover)state;
	if (kind == JF_COVER_LINE_ENTRY) {
		out->script = f->items[2];
		out->why = *f->items[3] ? f->items[3] : NULL;
	} else if (kind == JF_COVER_LINE_IMPORTS) {
		out->a = strtoul(f->items[2], NULL, 10);
		out->b = strtoul(f->items[3], NULL, 10);
		out->why = *f->items[4] ? f->items[4] : NULL;
	} else {
		out->a = strtoul(f->items[1], NULL, 10);
		out->b = strtoul(f->items[2], NULL, 10);
	}
	return true;
}

void jf_cover_line_release(jf_cover_line *self)
{
	jf_strings_release(&self->fields);
	memset(self, 0, sizeof *self);
}

void jf_cover_job_release(jf_cover_job *self)
{
	free(self->job);
	jf_strings_release(&self->covered);
	jf_strings_release(&self->skipped);
	memset(self, 0, sizeof *self);
}

void jf_cover_jobs_release(jf_cover_jobs *jobs)
{
	for (size_t i = 0; i < jobs->size; i++)
		jf_cover_job_release(&jobs->items[i]);
	jf_array_release(jobs);
}
