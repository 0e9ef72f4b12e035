/* job.c - loading the job spec with libyaml, keeping every value's position */
#include "job/job.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "lint.h"
#include "core/path.h"
#include "core/yml.h"

typedef struct {
	jf_ctx *ctx;
	jf_job *job;
} loader;

static jf_span node_span(const jf_job *job, const yaml_node_t *n)
{
	return jf_yml_span(job->spec, n);
}

static yaml_node_t *node_at(const jf_job *job, int index)
{
	return jf_yml_node(&job->doc, index);
}

static void wrong_type(loader *L, const yaml_node_t *n, const char *key, const char *want)
{
	const char *s = jf_yml_scalar(n);
	if (s && !jf_yml_is_null(n))
		jf_ctx_report_at(L->ctx, "JF003", L->job->spec, node_span(L->job, n),
		                 "'%s' must be %s, not '%s'", key, want, s);
	else
		jf_ctx_report_at(L->ctx, "JF003", L->job->spec, node_span(L->job, n),
		                 "'%s' must be %s, not %s", key, want,
		                 jf_yml_is_null(n) ? "empty" : jf_yml_type_name(n));
}

/* A string field: any scalar (numbers too, as YAML gives `python: 3.10` as a float). */
static bool get_string(loader *L, const yaml_node_t *n, const char *key, jf_field *out)
{
	if (n->type != YAML_SCALAR_NODE || jf_yml_is_null(n)) {
		wrong_type(L, n, key, "a string");
		return false;
	}
	free(out->value);
	out->value = jf_xstrdup(jf_yml_scalar(n));
	out->span = node_span(L->job, n);
	out->style = n->data.scalar.style;
	return true;
}

static bool get_count(loader *L, const yaml_node_t *n, const char *key, long *out)
{
	const char *s = jf_yml_scalar(n);
	char *end = NULL;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : -1;
	if (!s || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || !*s || *end || v < 0 ||
	    errno == ERANGE) {
		wrong_type(L, n, key, "a whole number (0 or more, unquoted)");
		return false;
	}
	*out = v;
	return true;
}

/* Reports an unknown key, with the nearest known key as a suggestion. */
static void unknown_key(loader *L, const yaml_node_t *k, const char *where,
                        const char *const *known)
{
	const char *name = jf_yml_scalar(k);
	const char *best = jf_yml_suggest(name, known);
	jf_diag *d = jf_ctx_report_at(L->ctx, "JF002", L->job->spec, node_span(L->job, k),
	                              "unknown key '%s' in %s", name ? name : "?", where);
	if (best)
		jf_diag_set_help(d, "did you mean '%s'?", best);
}

/* Walks the pairs of mapping `n`, calling `fn` for each key it knows. */
typedef bool (*pair_fn)(loader *L, const char *key, yaml_node_t *k, yaml_node_t *v, void *data);

static void each_pair(loader *L, yaml_node_t *n, const char *where, const char *const *known,
                      pair_fn fn, void *data)
{
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node_at(L->job, p->key), *v = node_at(L->job, p->value);
		const char *key = jf_yml_scalar(k);
		bool found = false;
		for (size_t i = 0; key && known[i]; i++)
			found |= !strcmp(known[i], key);
		if (!found || !fn(L, key, k, v, data))
			if (!found)
				unknown_key(L, k, where, known);
	}
}

static const char *const image_keys[] = { "name", "user", "python", "manifest", NULL };

static bool image_pair(loader *L, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	(void)data;
	jf_job *j = L->job;
	char path[32];
	snprintf(path, sizeof path, "image.%s", key);
	jf_field *f = !strcmp(key, "name")     ? &j->image_name
	              : !strcmp(key, "user")   ? &j->image_user
	              : !strcmp(key, "python") ? &j->image_python
	                                       : &j->image_manifest;
	get_string(L, v, path, f);
	return true;
}

static const char *const mount_keys[] = { "path", "description", NULL };

static bool mount_pair(loader *L, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	jf_named_path *m = data;
	jf_field f = { 0 };
	if (get_string(L, v, key, &f) && !strcmp(key, "path")) {
		free(m->path);
		m->path = f.value;
		m->path_span = f.span;
	} else {
		free(f.value);
	}
	return true;
}

static void load_mounts(loader *L, yaml_node_t *n, const char *key, jf_named_paths *a)
{
	if (n->type != YAML_MAPPING_NODE) {
		wrong_type(L, n, key, "a mapping of names to paths");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node_at(L->job, p->key), *v = node_at(L->job, p->value);
		jf_named_path m = { 0 };
		if (!jf_yml_scalar(k))
			continue;
		m.name = jf_xstrdup(jf_yml_scalar(k));
		m.name_span = node_span(L->job, k);
		if (v->type == YAML_MAPPING_NODE) {
			char where[96];
			snprintf(where, sizeof where, "%s.%s", key, m.name);
			each_pair(L, v, where, mount_keys, mount_pair, &m);
			if (!m.path)
				jf_ctx_report_at(L->ctx, "JF004", L->job->spec, node_span(L->job, v),
				                 "'%s' has no 'path'", where);
		} else if (jf_yml_scalar(v) && !jf_yml_is_null(v)) {
			m.path = jf_xstrdup(jf_yml_scalar(v));
			m.path_span = node_span(L->job, v);
		} else {
			wrong_type(L, v, m.name, "a path or a mapping with 'path'");
		}
		if (m.path)
			jf_array_push(a, m);
		else
			free(m.name);
	}
}

static void load_env(loader *L, yaml_node_t *n)
{
	jf_job *j = L->job;
	if (n->type != YAML_MAPPING_NODE) {
		wrong_type(L, n, "env", "a mapping of variable names to values");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node_at(j, p->key), *v = node_at(j, p->value);
		if (!jf_yml_scalar(k))
			continue;
		if (v->type != YAML_SCALAR_NODE) {
			wrong_type(L, v, jf_yml_scalar(k), "a string");
			continue;
		}
		jf_named_path e = { jf_xstrdup(jf_yml_scalar(k)), jf_xstrdup(jf_yml_scalar(v)), node_span(j, k),
			            node_span(j, v) };
		jf_array_push(&j->env, e);
	}
}

static const char *const resource_keys[] = { "gpus", "nodes", "gpu_memory", "cpus", "memory",
	                                      NULL };

static bool resource_pair(loader *L, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	(void)data;
	jf_field f = { 0 };
	if (!strcmp(key, "gpus"))
		get_count(L, v, "resources.gpus", &L->job->gpus);
	else if (!strcmp(key, "nodes"))
		get_count(L, v, "resources.nodes", &L->job->nodes);
	else
		get_string(L, v, key, &f);
	free(f.value);
	return true;
}

static const char *const top_keys[] = { "version", "name",    "platform", "image",
	                                "code",    "workdir", "command",  "env",
	                                "inputs",  "outputs", "resources", NULL };

static const char *const platforms[] = { "generic", "kubernetes", "azureml", "sagemaker",
	                                 "slurm",   "philly",     NULL };

static bool top_pair(loader *L, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	(void)data;
	jf_job *j = L->job;
	if (!strcmp(key, "version")) {
		long ver = 0;
		if (get_count(L, v, "version", &ver) && ver != 1)
			jf_diag_set_help(jf_ctx_report_at(L->ctx, "JF003", j->spec, node_span(j, v),
			                                  "job spec version %ld is not supported", ver),
			                 "this jobfix reads version 1 of the job spec format");
	} else if (!strcmp(key, "name")) {
		get_string(L, v, key, &j->name);
	} else if (!strcmp(key, "platform")) {
		if (get_string(L, v, key, &j->platform)) {
			bool ok = false;
			for (size_t i = 0; platforms[i]; i++)
				ok |= !strcmp(platforms[i], j->platform.value);
			if (!ok) {
				jf_diag *d = jf_ctx_report_at(L->ctx, "JF003", j->spec, j->platform.span,
				                              "unknown platform '%s'", j->platform.value);
				jf_diag_set_help(d, "use one of generic, kubernetes, azureml, sagemaker, slurm, philly");
			}
		}
	} else if (!strcmp(key, "image")) {
		j->has_image = true;
		j->image_span = node_span(j, v);
		if (v->type == YAML_MAPPING_NODE) {
			each_pair(L, v, "image", image_keys, image_pair, NULL);
			if (!j->image_name.value)
				jf_ctx_report_at(L->ctx, "JF004", j->spec, j->image_span,
				                 "'image' has no 'name'");
		} else if (v->type == YAML_SCALAR_NODE && !jf_yml_is_null(v)) {
			get_string(L, v, "image", &j->image_name);
		} else {
			wrong_type(L, v, "image", "an image name or a mapping with 'name'");
		}
	} else if (!strcmp(key, "code")) {
		get_string(L, v, key, &j->code);
	} else if (!strcmp(key, "workdir")) {
		if (get_string(L, v, key, &j->workdir) && j->workdir.value[0] != '/') {
			jf_diag_set_help(jf_ctx_report_at(L->ctx, "JF003", j->spec, j->workdir.span,
			                                  "'workdir' must be an absolute path in the container"),
			                 "write the full path, e.g. /workspace");
			free(j->workdir.value);
			j->workdir.value = NULL;
		}
	} else if (!strcmp(key, "command")) {
		j->has_command = true;
		if (v->type == YAML_SCALAR_NODE && !jf_yml_is_null(v)) {
			j->command = v;
			j->command_span = node_span(j, v);
		} else {
			wrong_type(L, v, "command", "a shell command line");
		}
	} else if (!strcmp(key, "env")) {
		load_env(L, v);
	} else if (!strcmp(key, "inputs")) {
		load_mounts(L, v, "inputs", &j->inputs);
	} else if (!strcmp(key, "outputs")) {
		load_mounts(L, v, "outputs", &j->outputs);
	} else if (!strcmp(key, "resources")) {
		j->resources_span = node_span(j, v);
		if (v->type == YAML_MAPPING_NODE)
			each_pair(L, v, "resources", resource_keys, resource_pair, NULL);
		else
			wrong_type(L, v, "resources", "a mapping");
	}
	return true;
}

static void report_yaml_error(loader *L, const jf_yml_error *e)
{
	const jf_source *s = L->job->spec;
	switch (e->status) {
	case JF_YML_BINARY:
		jf_ctx_report_at(L->ctx, "JF001", s, e->at,
		                 "the job spec holds a NUL byte: it is not a YAML text file");
		break;
	case JF_YML_TOO_DEEP:
		jf_ctx_report_at(L->ctx, "JF001", s, e->at,
		                 "collections nested deeper than %d levels: the job spec is not read",
		                 JF_YML_MAX_FLOW_DEPTH);
		break;
	default: {
		jf_diag *d = jf_ctx_report_at(L->ctx, "JF001", s, e->at, "%s", e->problem);
		if (e->context)
			jf_diag_relate(d, s, e->context_at, "%s", e->context);
	}
	}
}

jf_job *jf_job_load(jf_ctx *ctx, const char *fs_path, const char *display_path)
{
	jf_source *src = jf_source_load(fs_path, display_path);
	if (src->status != JF_SOURCE_OK && src->status != JF_SOURCE_BINARY) {
		const char *why = src->status == JF_SOURCE_MISSING ? "No such file or directory"
		                  : src->status == JF_SOURCE_DIR  ? "Is a directory"
		                  : src->status == JF_SOURCE_TOO_LARGE
		                          ? "File too large for a job spec"
		                          : strerror(src->err);
		free(ctx->linter->error);
		ctx->linter->error = jf_xasprintf("cannot read '%s': %s", display_path, why);
		jf_source_free(src);
		return NULL;
	}
	jf_ctx_keep(ctx, src);
	jf_job *j = jf_xcalloc(1, sizeof(*j));
	loader L = { ctx, j };
	j->spec = src;
	j->gpus = j->nodes = -1;
	j->spec_dir = jf_path_dirname(fs_path);
	j->display_dir = jf_path_dirname(display_path);

	jf_yml_error err;
	if (jf_yml_load(src, &j->doc, &err))
		j->have_doc = true;
	else
		report_yaml_error(&L, &err);
	if (!j->have_doc)
		return j;

	yaml_node_t *root = yaml_document_get_root_node(&j->doc);
	if (!root || jf_yml_is_null(root)) {
		jf_ctx_report_at(ctx, "JF004", src, (jf_span){ 0, 0 },
		                 "the job spec is empty: 'image' and 'command' are required");
		return j;
	}
	if (root->type != YAML_MAPPING_NODE) {
		jf_ctx_report_at(ctx, "JF003", src, node_span(j, root),
		                 "a job spec must be a mapping of keys to values, not %s",
		                 jf_yml_type_name(root));
		return j;
	}
	each_pair(&L, root, "the job spec", top_keys, top_pair, NULL);
	jf_span end = { 0, 0 };
	if (!j->has_image)
		jf_ctx_report_at(ctx, "JF004", src, end, "the job spec has no 'image'");
	if (!j->has_command)
		jf_ctx_report_at(ctx, "JF004", src, end, "the job spec has no 'command'");

	const char *code = j->code.value ? j->code.value : ".";
	j->code_dir = jf_path_join(j->spec_dir, code);
	j->code_display = jf_path_join(j->display_dir, code);
	if (!jf_path_is_dir(j->code_dir)) {
		jf_span at = j->code.value ? j->code.span : end;
		jf_diag_set_help(jf_ctx_report_at(ctx, "JF003", src, at,
		                                  "'code' folder '%s' does not exist", j->code_display),
		                 "'code' is relative to the job spec's folder; fix it or create the folder");
	}
	return j;
}

void jf_job_free(jf_job *self)
{
	if (!self)
		return;
	jf_field *fields[] = { &self->name,       &self->platform,     &self->code,
		               &self->workdir,    &self->image_name,   &self->image_user,
		               &self->image_python, &self->image_manifest };
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		free(fields[i]->value);
	jf_named_paths *lists[] = { &self->env, &self->inputs, &self->outputs };
	for (int k = 0; k < 3; k++) {
		jf_named_paths *a = lists[k];
		for (size_t i = 0; i < a->size; i++) {
			free(a->items[i].name);
			free(a->items[i].path);
		}
		jf_array_release(a);
	}
	if (self->have_doc)
		yaml_document_delete(&self->doc);
	free(self->spec_dir);
	free(self->display_dir);
	free(self->code_dir);
	free(self->code_display);
	free(self);
}

const jf_named_path *jf_job_env(const jf_job *self, const char *name)
{
	for (size_t i = 0; i < self->env.size; i++)
		if (!strcmp(self->env.items[i].name, name))
			return &self->env.items[i];
	return NULL;
}
