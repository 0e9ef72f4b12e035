/* job.c - reading a job file: its format told by its content, then its reader */
#include "job/job.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/confine.h"
#include "core/deps.h"
#include "core/path.h"
#include "job/reader.h"

/* The readers, most specific first: the first whose detect() takes the file reads it. */
static const jf_job_reader *const readers[] = {
#define JF_JOB_FORMAT(reader) &reader,
#include "job/formats.def"
#undef JF_JOB_FORMAT
};

static void report_yaml_error(jf_sink *sink, const jf_source *s, const jf_yml_error *e)
{
	switch (e->status) {
	case JF_YML_BINARY:
		jf_sink_add(sink, JF001, s, e->at,
		            "the job spec holds a NUL byte: it is not a YAML text file");
		break;
	case JF_YML_TOO_DEEP:
		jf_sink_add(sink, JF001, s, e->at,
		            "collections nested deeper than %d levels: the job spec is not read",
		            JF_YML_MAX_FLOW_DEPTH);
		break;
	default: {
		jf_diag *d = jf_sink_add(sink, JF001, s, e->at, "%s", e->problem);
		if (e->context)
			jf_diag_relate(d, s, e->context_at, "%s", e->context);
	}
	}
}

/* Comments of one document of the file: from where the document before it ended. */
typedef struct {
	jf_job *job;
	uint32_t from;
} comments_of;

static void add_comment(void *data, jf_span comment)
{
	comments_of *c = data;
	if (comment.start >= c->from)
		jf_array_push(&c->job->comments, ((jf_loc){ c->job->file, comment }));
}

static void add_comments(jf_job *j, const jf_yml_docs *docs)
{
	comments_of c = { j, 0 };
	for (size_t i = 0; i < docs->size; i++) {
		const yaml_document_t *d = &docs->items[i];
		jf_yml_comments(j->file, d, add_comment, &c);
		c.from = jf_source_byte_from_yaml(j->file, d->end_mark.line, d->end_mark.column);
	}
}

/* Reads the file with the first reader of the kind (YAML or not) that takes it. */
static bool read_as(jf_job_read *r, bool yaml)
{
	for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
		if (readers[i]->yaml == yaml && readers[i]->detect(r->src, r->docs)) {
			r->job->format = readers[i];
			readers[i]->read(r);
			return true;
		}
	return false;
}

/* A code folder that leads out of the repository is not read (core/confine.h). */
static void refuse_outside_code(jf_job *j, jf_sink *sink)
{
	if (!j->code_dir || !jf_path_is_dir(j->code_dir) || jf_confine_allows(j->code_dir))
		return;
	jf_loc at = j->code.value ? j->code.at : (jf_loc){ j->file, { 0, 0 } };
	jf_diag_set_help(jf_sink_add(sink, JF005, at.src, at.span,
	                             "the code folder '%s' is not read: it lies outside the "
	                             "repository (--allow-outside DIR reads there)",
	                             j->code_display ? j->code_display : j->code_dir),
	                 "keep the job's code in its repository; when reading there is meant, "
	                 "name the folder with --allow-outside DIR or the config's "
	                 "allow-outside");
	j->code_dir = NULL;
	j->code_display = NULL;
}

int jf_job_load(const char *fs_path, const char *display_path, const jf_image_builds *builds,
                jf_sink *sink, jf_job **out, jf_error *err)
{
	*out = NULL;
	jf_source *src = jf_source_load(fs_path, display_path);
	/* Found by discovery as often as named: a note, and the other jobs go on. */
	bool noted = src->status == JF_SOURCE_TOO_LARGE || src->status == JF_SOURCE_OUTSIDE;
	if (src->status != JF_SOURCE_OK && src->status != JF_SOURCE_BINARY && !noted) {
		int rc = jf_error_set(err, JF_EIO, "cannot read '%s': %s", display_path,
		                      jf_source_why(src));
		jf_source_free(src);
		return rc;
	}
	jf_job *j = jf_xcalloc(1, sizeof(*j));
	jf_array_push(&j->sources, src);
	j->file = src;
	j->gpus = j->nodes = j->procs = -1;
	j->resources = (jf_loc){ src, { 0, 0 } };
	j->file_dir = jf_path_dirname(fs_path);
	j->display_dir = jf_path_dirname(display_path);
	jf_arena_adopt(&j->arena, j->file_dir);
	jf_arena_adopt(&j->arena, j->display_dir);
	*out = j;
	if (noted) {
		jf_sink_not_linted(sink, src);
		return 0;
	}

	jf_job_read r = { j, src, NULL, NULL, sink, builds };
	if (src->status == JF_SOURCE_OK && read_as(&r, false)) {
		refuse_outside_code(j, sink);
		return 0;
	}
	jf_yml_docs docs;
	jf_yml_error yerr;
	if (!jf_yml_load_all(src, &docs, &yerr)) {
		report_yaml_error(sink, src, &yerr);
		return 0;
	}
	r.docs = &docs;
	r.doc = &docs.items[0];
	read_as(&r, true);
	refuse_outside_code(j, sink);
	/* Suppressions stand in comments: only a file that names jobfix has any. */
	if (src->status == JF_SOURCE_OK && strstr(src->data, "jobfix:"))
		add_comments(j, &docs);
	jf_yml_docs_release(&docs);
	return 0;
}

const char *jf_job_sniff(const char *text, size_t len)
{
	for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
		if (readers[i]->sniff && readers[i]->sniff(text, len))
			return readers[i]->name;
	return NULL;
}

const char *jf_job_sniff_file(const char *path)
{
	jf_deps_note(JF_DEP_FILE, path);
	/* Non-blocking: a FIFO is not waited on, and is no job file. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *head = NULL;
	ssize_t n = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		head = jf_xmalloc(JF_JOB_SNIFF_BYTES + 1);
		n = read(fd, head, JF_JOB_SNIFF_BYTES);
	}
	close(fd);
	const char *format = n > 0 && !memchr(head, '\0', (size_t)n) ? jf_job_sniff(head, (size_t)n)
	                                                               : NULL;
	free(head);
	return format;
}

void jf_job__unit_release(jf_cmd_unit *u)
{
	jf_array_release(&u->ranges);
	jf_source_free(u->copy);
	jf_array_release(&u->argv);
}

void jf_job_free(jf_job *self)
{
	if (!self)
		return;
	for (size_t i = 0; i < self->command.size; i++)
		jf_job__unit_release(&self->command.items[i]);
	jf_array_release(&self->command);
	jf_array_release(&self->env);
	jf_array_release(&self->subst);
	jf_array_release(&self->image.installs);
	jf_array_release(&self->image.projects);
	jf_array_release(&self->inputs);
	jf_array_release(&self->outputs);
	jf_array_release(&self->accels);
	jf_array_release(&self->comments);
	jf_array_release(&self->notes);
	jf_sources_release(&self->sources);
	jf_arena_release(&self->arena);
	free(self);
}

void jf_job_keep_sources(jf_job *self, jf_sources *into)
{
	for (size_t i = 0; i < self->sources.size; i++)
		jf_array_push(into, self->sources.items[i]);
	jf_array_release(&self->sources);
}

const jf_job_var *jf_job_env(const jf_job *self, const char *name)
{
	for (size_t i = 0; i < self->env.size; i++)
		if (!strcmp(self->env.items[i].name.value, name))
			return &self->env.items[i];
	return NULL;
}

const char *jf_job_workdir(const jf_job *self)
{
	return self->workdir.value ? self->workdir.value : JF_CODE_ROOT;
}

const jf_job_mount *jf_job_mount_of(const jf_job_mounts *mounts, const char *cpath)
{
	for (size_t i = 0; i < mounts->size; i++)
		if (jf_path_under(cpath, mounts->items[i].path.value))
			return &mounts->items[i];
	return NULL;
}
