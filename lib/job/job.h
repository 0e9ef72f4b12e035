/* job.h - the job spec (native format, version 1), loaded with every value's position
 *
 * The loader reports JF001 (YAML syntax), JF002 (unknown key), JF003 (wrong
 * type) and JF004 (missing field) itself. Strings are owned by the job;
 * spans point into `spec`, which the linter keeps alive.
 */
#ifndef JF_JOB_H
#define JF_JOB_H

#include <yaml.h>

#include "core/source.h"

typedef struct jf_ctx jf_ctx;

typedef struct {
	char *value; /* NULL when absent */
	jf_span span;
	int style;   /* yaml_scalar_style_t of the value */
} jf_field;

typedef struct {
	char *name, *path;
	jf_span name_span, path_span;
} jf_named_path;

typedef JF_ARRAY(jf_named_path) jf_named_paths;

typedef struct {
	const jf_source *spec;
	char *spec_dir;     /* the spec's folder on this machine */
	char *display_dir;  /* the same as shown in diagnostics ("" for the cwd) */
	jf_field name, platform, code, workdir;
	jf_field image_name, image_user, image_python, image_manifest;
	jf_span image_span; /* the whole `image` value */
	bool has_image, has_command;
	yaml_node_t *command; /* the scalar, NULL when absent or wrong */
	jf_span command_span;
	char *code_dir;     /* `code` resolved on this machine */
	char *code_display; /* the same for diagnostics */
	jf_named_paths env, inputs, outputs;
	long gpus, nodes;   /* -1 when not given */
	jf_span resources_span;
	yaml_document_t doc;
	bool have_doc;
} jf_job;

/**
 * Loads the job spec at `fs_path` (shown as `display_path`), reporting
 * problems into the context's report. Returns the job, or NULL when the spec
 * could not be read at all (the error is set on the linter).
 */
jf_job *jf_job_load(jf_ctx *ctx, const char *fs_path, const char *display_path);
void jf_job_free(jf_job *self);

/** The env entry `name`, or NULL. */
const jf_named_path *jf_job_env(const jf_job *self, const char *name);

#endif
