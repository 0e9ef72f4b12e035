/* facts.c - gathering the facts of a lint: the command's shell, the Python files, imports */
#include "facts/facts.h"

#include "core/path.h"
#include "facts/imports.h"
#include "rules/checks.h"

jf_pyfacts *jf_facts__python(jf_facts *self, const jf_file *file)
{
	if (file->lang != JF_LANG_PYTHON)
		return NULL;
	while (self->python.size <= file->index)
		jf_array_push(&self->python, NULL);
	jf_pyfacts **slot = &self->python.items[file->index];
	if (!*slot) {
		*slot = jf_xcalloc(1, sizeof(**slot));
		(*slot)->file = file;
	}
	return *slot;
}

const jf_pyfacts *jf_facts_python(const jf_facts *self, const jf_file *file)
{
	return file->index < self->python.size ? self->python.items[file->index] : NULL;
}

static long wrapped_script(void *data, const jf_file *entry, const jf_words *args)
{
	return jf_wrapped_script(data, entry, args);
}

void jf_facts_gather(jf_facts *out, const jf_job *job, const jf_image *image, jf_workspace *ws)
{
	memset(out, 0, sizeof(*out));
	out->job = job;
	out->image = image;
	out->ws = ws;
	if (!job)
		return;
	jf_shell_host host = { wrapped_script, out };
	jf_shell_run(&out->shell, job, ws, &host);
	if (job->command.size && job->code_dir && jf_path_is_dir(job->code_dir))
		jf_imports_follow(job, ws, out);
}

void jf_facts_release(jf_facts *self)
{
	jf_shell_facts_release(&self->shell);
	for (size_t i = 0; i < self->python.size; i++)
		jf_pyfacts_free(self->python.items[i]);
	jf_array_release(&self->python);
}
