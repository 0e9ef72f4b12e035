/* native.c - jobfix's own job spec, version 1 (docs/jobs.md)
 *
 * The format for platforms without one of their own: the image, the code
 * folder and where it appears (workdir), a shell command, env, mounts
 * (inputs read-only, outputs writable) and resources. Unknown keys (JF002),
 * wrong types (JF003) and missing fields (JF004) are reported at their place.
 */
#include "core/path.h"
#include "job/reader.h"

static const char *const image_keys[] = { "name", "user", "python", "manifest", NULL };

static bool image_pair(jf_job_read *r, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	(void)data;
	jf_job_image *img = &r->job->image;
	char path[32];
	snprintf(path, sizeof path, "image.%s", key);
	jf_field *f = !strcmp(key, "name")     ? &img->ref
	              : !strcmp(key, "user")   ? &img->user
	              : !strcmp(key, "python") ? &img->python
	                                       : &img->manifest;
	jf_job__string(r, v, path, f);
	return true;
}

static const char *const mount_keys[] = { "path", "description", NULL };

static bool mount_pair(jf_job_read *r, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	jf_job_mount *m = data;
	jf_field f = { 0 };
	if (jf_job__string(r, v, key, &f) && !strcmp(key, "path"))
		m->path = f;
	return true;
}

static void read_mounts(jf_job_read *r, yaml_node_t *n, const char *key, jf_job_mounts *a)
{
	if (n->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, n, key, "a mapping of names to paths");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = jf_job__node(r, p->key), *v = jf_job__node(r, p->value);
		jf_job_mount m = { 0 };
		if (!jf_yml_scalar(k))
			continue;
		m.name = (jf_field){ jf_job__copy(r, jf_yml_scalar(k)), jf_job__loc(r, k) };
		if (v->type == YAML_MAPPING_NODE) {
			char where[96];
			snprintf(where, sizeof where, "%s.%s", key, m.name.value);
			jf_job__each_pair(r, v, where, mount_keys, mount_pair, &m);
			if (!m.path.value)
				jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, v),
				            "'%s' has no 'path'", where);
		} else if (jf_yml_scalar(v) && !jf_yml_is_null(v)) {
			m.path = (jf_field){ jf_job__copy(r, jf_yml_scalar(v)), jf_job__loc(r, v) };
		} else {
			jf_job__wrong_type(r, v, m.name.value, "a path or a mapping with 'path'");
		}
		if (m.path.value)
			jf_array_push(a, m);
	}
}

static const char *const resource_keys[] = { "gpus", "nodes", "gpu_type", "gpu_memory", "cpus",
	                                      "memory", NULL };

/* What `resources` says of the GPU: its type and memory, as written. */
typedef struct {
	jf_field type, memory;
} gpu_ask;

static bool resource_pair(jf_job_read *r, const char *key, yaml_node_t *k, yaml_node_t *v,
                          void *data)
{
	(void)k;
	gpu_ask *gpu = data;
	jf_field f = { 0 };
	if (!strcmp(key, "gpus"))
		jf_job__count(r, v, "resources.gpus", &r->job->gpus);
	else if (!strcmp(key, "nodes") && jf_job__count(r, v, "resources.nodes", &r->job->nodes))
		r->job->nodes_at = jf_job__loc(r, v);
	else if (!strcmp(key, "gpu_type"))
		jf_job__string(r, v, key, &gpu->type);
	else if (!strcmp(key, "gpu_memory"))
		jf_job__string(r, v, key, &gpu->memory);
	else
		jf_job__string(r, v, key, &f);
	return true;
}

/* The accelerator of `resources`: gpu_type and gpu_memory, with gpus per node. */
static void read_resources(jf_job_read *r, yaml_node_t *v)
{
	jf_job *j = r->job;
	gpu_ask gpu = { 0 };
	jf_job__each_pair(r, v, "resources", resource_keys, resource_pair, &gpu);
	uint64_t memory = jf_job__bytes(gpu.memory.value);
	if (!gpu.type.value && !memory)
		return;
	jf_loc at = gpu.type.value ? gpu.type.at : gpu.memory.at;
	jf_job__accel(r, gpu.type.value, gpu.type.at, JF_ACCEL_GPU, j->gpus, at)->memory = memory;
}

static const char *const top_keys[] = { "version", "name",    "platform", "image",
	                                "code",    "workdir", "command",  "env",
	                                "inputs",  "outputs", "resources", NULL };

static const char *const platforms[] = { "generic", "kubernetes", "azureml", "sagemaker",
	                                 "slurm",   "philly",     NULL };

static bool top_pair(jf_job_read *r, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
	(void)k;
	(void)data;
	jf_job *j = r->job;
	if (!strcmp(key, "version")) {
		long ver = 0;
		if (jf_job__count(r, v, "version", &ver) && ver != 1)
			jf_diag_set_help(jf_sink_add(r->sink, JF003, r->src, jf_yml_span(r->src, v),
			                             "job spec version %ld is not supported", ver),
			                 "this jobfix reads version 1 of the job spec format");
	} else if (!strcmp(key, "name")) {
		jf_job__string(r, v, key, &j->name);
	} else if (!strcmp(key, "platform")) {
		if (jf_job__string(r, v, key, &j->platform) &&
		    !jf_str_in(j->platform.value, platforms)) {
			jf_diag *d = jf_sink_add(r->sink, JF003, r->src, j->platform.at.span,
			                         "unknown platform '%s'", j->platform.value);
			jf_diag_set_help(d, "use one of generic, kubernetes, azureml, sagemaker, slurm, philly");
		}
	} else if (!strcmp(key, "image")) {
		j->image.present = true;
		j->image.at = jf_job__loc(r, v);
		if (v->type == YAML_MAPPING_NODE) {
			jf_job__each_pair(r, v, "image", image_keys, image_pair, NULL);
			if (!j->image.ref.value)
				jf_sink_add(r->sink, JF004, r->src, j->image.at.span,
				            "'image' has no 'name'");
		} else if (v->type == YAML_SCALAR_NODE && !jf_yml_is_null(v)) {
			jf_job__string(r, v, "image", &j->image.ref);
		} else {
			jf_job__wrong_type(r, v, "image", "an image name or a mapping with 'name'");
		}
	} else if (!strcmp(key, "code")) {
		jf_job__string(r, v, key, &j->code);
	} else if (!strcmp(key, "workdir")) {
		if (jf_job__string(r, v, key, &j->workdir) && j->workdir.value[0] != '/') {
			jf_diag_set_help(jf_sink_add(r->sink, JF003, r->src, j->workdir.at.span,
			                             "'workdir' must be an absolute path in the container"),
			                 "write the full path, e.g. /workspace");
			j->workdir.value = NULL;
		}
	} else if (!strcmp(key, "command")) {
		j->has_command = true;
		if (v->type == YAML_SCALAR_NODE && !jf_yml_is_null(v))
			jf_job__shell_unit(r, v);
		else
			jf_job__wrong_type(r, v, "command", "a shell command line");
	} else if (!strcmp(key, "env")) {
		jf_job__env_map(r, v, "env", NULL, NULL);
	} else if (!strcmp(key, "inputs")) {
		read_mounts(r, v, "inputs", &j->inputs);
	} else if (!strcmp(key, "outputs")) {
		read_mounts(r, v, "outputs", &j->outputs);
	} else if (!strcmp(key, "resources")) {
		j->resources = jf_job__loc(r, v);
		if (v->type == YAML_MAPPING_NODE)
			read_resources(r, v);
		else
			jf_job__wrong_type(r, v, "resources", "a mapping");
	}
	return true;
}

static void read_native(jf_job_read *r)
{
	jf_job *j = r->job;
	jf_job__one_document(r, "a job spec is one document, and this one is not read");
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)r->doc);
	if (!root || jf_yml_is_null(root)) {
		jf_sink_add(r->sink, JF004, r->src, (jf_span){ 0, 0 },
		            "the job spec is empty: 'image' and 'command' are required");
		return;
	}
	if (root->type != YAML_MAPPING_NODE) {
		jf_sink_add(r->sink, JF003, r->src, jf_yml_span(r->src, root),
		            "a job spec must be a mapping of keys to values, not %s",
		            jf_yml_type_name(root));
		return;
	}
	jf_job__each_pair(r, root, "the job spec", top_keys, top_pair, NULL);
	jf_span end = { 0, 0 };
	if (!j->image.present)
		jf_sink_add(r->sink, JF004, r->src, end, "the job spec has no 'image'");
	if (!j->has_command)
		jf_sink_add(r->sink, JF004, r->src, end, "the job spec has no 'command'");

	const char *code = j->code.value ? j->code.value : ".";
	j->code_dir = jf_path_join(j->file_dir, code);
	j->code_display = jf_path_join(j->display_dir, code);
	jf_arena_adopt(&j->arena, j->code_dir);
	jf_arena_adopt(&j->arena, j->code_display);
	if (!jf_path_is_dir(j->code_dir)) {
		jf_span at = j->code.value ? j->code.at.span : end;
		jf_diag_set_help(jf_sink_add(r->sink, JF003, r->src, at,
		                             "'code' folder '%s' does not exist", j->code_display),
		                 "'code' is relative to the job spec's folder; fix it or create the folder");
	}
}

/* Any YAML document that no other format claims is read as jobfix's own spec. */
static bool detect_native(const jf_source *src, const jf_yml_docs *docs)
{
	(void)src;
	(void)docs;
	return true;
}

const jf_job_reader jf_job_native_reader = { "jobfix", true, NULL, detect_native, read_native };
