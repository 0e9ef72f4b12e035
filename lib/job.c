/* job.c - loading the job spec with libyaml, keeping every value's position */
#include "job.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "lint.h"
#include "path.h"

typedef struct {
	jf_ctx *ctx;
	jf_job *job;
} loader;

static jf_span node_span(const jf_job *job, const yaml_node_t *n)
{
	const jf_source *s = job->spec;
	uint32_t a = jf_source_byte_from_yaml(s, n->start_mark.line, n->start_mark.column);
	uint32_t b = jf_source_byte_from_yaml(s, n->end_mark.line, n->end_mark.column);
	/* A block scalar ends at the start of the next line; underline its first line. */
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
	    n->data.scalar.style == YAML_FOLDED_SCALAR_STYLE) {
		jf_span line = jf_source_line_span(s, jf_source_line_of(s, a));
		if (b > line.end)
			b = line.end > a ? line.end : a;
	}
	return (jf_span){ a, b < a ? a : b };
}

static yaml_node_t *node_at(const jf_job *job, int index)
{
	return yaml_document_get_node((yaml_document_t *)&job->doc, index);
}

static const char *type_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	default:
		return "a scalar";
	}
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool is_null(const yaml_node_t *n)
{
	const char *s = scalar(n);
	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	        !strcmp(s, "NULL"));
}

static void wrong_type(loader *L, const yaml_node_t *n, const char *key, const char *want)
{
	const char *s = scalar(n);
	if (s && !is_null(n))
		jf_ctx_report_at(L->ctx, "JF003", L->job->spec, node_span(L->job, n),
		                 "'%s' must be %s, not '%s'", key, want, s);
	else
		jf_ctx_report_at(L->ctx, "JF003", L->job->spec, node_span(L->job, n),
		                 "'%s' must be %s, not %s", key, want, is_null(n) ? "empty" : type_name(n));
}

/* A string field: any scalar (numbers too, as YAML gives `python: 3.10` as a float). */
static bool get_string(loader *L, const yaml_node_t *n, const char *key, jf_field *out)
{
	if (n->type != YAML_SCALAR_NODE || is_null(n)) {
		wrong_type(L, n, key, "a string");
		return false;
	}
	free(out->value);
	out->value = jf_xstrdup(scalar(n));
	out->span = node_span(L->job, n);
	out->style = n->data.scalar.style;
	return true;
}

static bool get_count(loader *L, const yaml_node_t *n, const char *key, long *out)
{
	const char *s = scalar(n);
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
	const char *name = scalar(k);
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; name && known[i]; i++) {
		size_t max = strlen(known[i]) <= 4 ? 1 : 2;
		size_t d = jf_edit_distance(name, known[i], max);
		if (d <= max && d < best_d) {
			best = known[i];
			best_d = d;
		}
	}
	for (size_t i = 0; name && !best && known[i]; i++)
		if (strlen(known[i]) >= 3 && jf_str_starts(name, known[i]))
			best = known[i];
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
		const char *key = scalar(k);
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
		if (!scalar(k))
			continue;
		m.name = jf_xstrdup(scalar(k));
		m.name_span = node_span(L->job, k);
		if (v->type == YAML_MAPPING_NODE) {
			char where[96];
			snprintf(where, sizeof where, "%s.%s", key, m.name);
			each_pair(L, v, where, mount_keys, mount_pair, &m);
			if (!m.path)
				jf_ctx_report_at(L->ctx, "JF004", L->job->spec, node_span(L->job, v),
				                 "'%s' has no 'path'", where);
		} else if (scalar(v) && !is_null(v)) {
			m.path = jf_xstrdup(scalar(v));
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
		if (!scalar(k))
			continue;
		if (v->type != YAML_SCALAR_NODE) {
			wrong_type(L, v, scalar(k), "a string");
			continue;
		}
		jf_named_path e = { jf_xstrdup(scalar(k)), jf_xstrdup(scalar(v)), node_span(j, k),
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
		} else if (v->type == YAML_SCALAR_NODE && !is_null(v)) {
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
		if (v->type == YAML_SCALAR_NODE && !is_null(v)) {
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

/* libyaml's scanner takes time quadratic in the nesting of flow collections
 * ([ and {). No job spec comes near this depth; a file that does is refused
 * before libyaml sees it. Quotes and comments are skipped roughly: the count
 * only has to be right for absurd inputs. */
#define MAX_FLOW_DEPTH 256

static uint32_t too_deep_at(const jf_source *s)
{
	uint32_t depth = 0;
	char quote = 0;
	for (uint32_t i = 0; i < s->len; i++) {
		char c = s->data[i];
		if (quote) {
			if (c == quote || c == '\n')
				quote = 0;
		} else if (c == '#' && (i == 0 || s->data[i - 1] == ' ' || s->data[i - 1] == '\n')) {
			while (i < s->len && s->data[i] != '\n')
				i++;
		} else if ((c == '"' || c == '\'') && depth > 0) {
			quote = c;
		} else if (c == '[' || c == '{') {
			if (++depth > MAX_FLOW_DEPTH)
				return i;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return UINT32_MAX;
}

static void report_yaml_error(loader *L, yaml_parser_t *p)
{
	const jf_source *s = L->job->spec;
	yaml_mark_t m = p->problem_mark;
	if (p->error == YAML_READER_ERROR) {
		/* The reader counts bytes, not lines. */
		uint32_t at = (uint32_t)p->problem_offset;
		jf_ctx_report_at(L->ctx, "JF001", s, (jf_span){ at, at }, "%s",
		                 p->problem ? p->problem : "cannot read the YAML stream");
		return;
	}
	uint32_t at = jf_source_byte_from_yaml(s, m.line, m.column);
	jf_diag *d = jf_ctx_report_at(L->ctx, "JF001", s, (jf_span){ at, at }, "%s",
	                              p->problem ? p->problem : "invalid YAML");
	if (p->context) {
		uint32_t c = jf_source_byte_from_yaml(s, p->context_mark.line, p->context_mark.column);
		jf_diag_relate(d, s, (jf_span){ c, c }, "%s", p->context);
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

	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)src->data, src->len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	if (src->status == JF_SOURCE_BINARY) {
		uint32_t at = (uint32_t)((const char *)memchr(src->data, '\0', src->len) - src->data);
		jf_ctx_report_at(ctx, "JF001", src, (jf_span){ at, at },
		                 "the job spec holds a NUL byte: it is not a YAML text file");
	} else if (too_deep_at(src) != UINT32_MAX) {
		uint32_t at = too_deep_at(src);
		jf_ctx_report_at(ctx, "JF001", src, (jf_span){ at, at + 1 },
		                 "collections nested deeper than %d levels: the job spec is not read",
		                 MAX_FLOW_DEPTH);
	} else if (!yaml_parser_load(&parser, &j->doc)) {
		report_yaml_error(&L, &parser);
	} else {
		j->have_doc = true;
	}
	yaml_parser_delete(&parser);
	if (!j->have_doc)
		return j;

	yaml_node_t *root = yaml_document_get_root_node(&j->doc);
	if (!root || is_null(root)) {
		jf_ctx_report_at(ctx, "JF004", src, (jf_span){ 0, 0 },
		                 "the job spec is empty: 'image' and 'command' are required");
		return j;
	}
	if (root->type != YAML_MAPPING_NODE) {
		jf_ctx_report_at(ctx, "JF003", src, node_span(j, root),
		                 "a job spec must be a mapping of keys to values, not %s", type_name(root));
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
