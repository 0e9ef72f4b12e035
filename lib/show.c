/* show.c - what jobfix understood of a job: `jobfix show`
 *
 * Runs the pipeline up to the facts (the job through its format's reader,
 * the image, the command followed into its launch and entry scripts) and
 * describes them, each value with the place it comes from. No rule runs;
 * problems of the job file are left to `jobfix lint`.
 */
#include "linter.h"

#include "rules/config.h"

#include "core/confine.h"
#include "core/path.h"
#include "env/gpus.h"
#include "env/image.h"
#include "facts/facts.h"
#include "job/job.h"
#include "job/reader.h"
#include "report/jsonw.h"

/* "file:line:col" of a value, or NULL (into `b`, which it returns) when nothing writes it. */
static const char *where(char *b, size_t n, jf_loc at)
{
	if (!at.src)
		return NULL;
	const jf_source *s = at.src;
	jf_span span = at.span;
	jf_source_shown(&s, &span);
	jf_pos p = jf_source_pos(s, span.start);
	snprintf(b, n, "%s:%u:%u", s->path, p.line, p.col);
	return b;
}

/* A word's value as shown: "?" when it is known only at run time. */
static const char *word_value(const jf_word *w)
{
	return w->value ? w->value : "?";
}

typedef struct {
	const jf_job *job;
	const jf_image *image;
	const jf_shell_facts *shell;
	const jf_workspace *ws;
	const jf_strings *sys_path; /* folders of this machine */
} shown;

/* A folder of this machine as shown: under the code folder as the job's code is shown. Caller frees. */
static char *shown_folder(const jf_job *j, const char *dir)
{
	const char *rel = j->code_dir ? jf_path_under(dir, j->code_dir) : NULL;
	char *p = rel ? jf_path_join(j->code_display, rel) : jf_xstrdup(dir);
	if (!*p) {
		free(p);
		p = jf_xstrdup(".");
	}
	return p;
}

/* Whether `file` is an entry script no invocation names: a module run with
 * `python -m`, or a console script's. */
static bool entry_module(const shown *s, const jf_file *file)
{
	if (file->role != JF_ROLE_ENTRY)
		return false;
	for (size_t i = 0; i < s->shell->invocations.size; i++)
		if (s->shell->invocations.items[i].entry == file)
			return false;
	return true;
}

/* "python 3.8 (job.yaml:7:11)": an image fact, with the field that declares it. */
static void image_fact(char *b, size_t n, const char *value, bool declared, jf_loc at)
{
	char w[512];
	if (declared && where(w, sizeof w, at))
		snprintf(b, n, "%s (%s)", value, w);
	else
		snprintf(b, n, "%s", value);
}

static void text_field(jf_buf *b, const char *label, const char *value, jf_loc at)
{
	char w[512];
	if (!value)
		return;
	jf_buf_addf(b, "  %s: %s", label, value);
	if (where(w, sizeof w, at))
		jf_buf_addf(b, " (%s)", w);
	jf_buf_add(b, "\n", 1);
}

static void text_count(jf_buf *b, const char *label, long n)
{
	if (n >= 0)
		jf_buf_addf(b, "  %s: %ld\n", label, n);
}

static void text_mounts(jf_buf *b, const jf_job_mounts *m, bool read_only)
{
	char w[512];
	for (size_t i = 0; i < m->size; i++) {
		const jf_job_mount *x = &m->items[i];
		jf_buf_addf(b, "  mount: %s (%s, %s)", x->path.value,
		              x->name.value ? x->name.value : "unnamed",
		              read_only ? "read-only" : "writable");
		if (where(w, sizeof w, x->path.at))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_add(b, "\n", 1);
	}
}

/* Whose names an accelerator's kind is, as show says it. */
static const char *accel_names_text(jf_accel_names names)
{
	switch (names) {
	case JF_ACCEL_GPU:
		return "GPU name";
	case JF_ACCEL_SKYPILOT:
		return "SkyPilot accelerator";
	case JF_ACCEL_K8S_PRODUCT:
		return "nvidia.com/gpu.product";
	case JF_ACCEL_GKE:
		return "GKE accelerator";
	case JF_ACCEL_KARPENTER:
		return "Karpenter GPU name";
	case JF_ACCEL_SLURM:
		return "Slurm GPU type";
	case JF_ACCEL_SLURM_FEATURE:
		return "Slurm feature";
	case JF_ACCEL_INSTANCE:
		return "instance type";
	}
	return "?";
}

/* The same for the JSON form. */
static const char *accel_names_key(jf_accel_names names)
{
	static const char *const keys[] = {
		[JF_ACCEL_GPU] = "gpu",
		[JF_ACCEL_SKYPILOT] = "skypilot",
		[JF_ACCEL_K8S_PRODUCT] = "kubernetes-gpu-product",
		[JF_ACCEL_GKE] = "gke-accelerator",
		[JF_ACCEL_KARPENTER] = "karpenter-gpu-name",
		[JF_ACCEL_SLURM] = "slurm-gres-type",
		[JF_ACCEL_SLURM_FEATURE] = "slurm-feature",
		[JF_ACCEL_INSTANCE] = "instance-type",
	};
	return keys[names];
}

/* Whether show lists accelerator `a`: a Slurm feature only when it is a GPU's name. */
static bool accel_shown(const jf_job_accel *a, jf_gpu_match *m, bool *resolved)
{
	*resolved = jf_gpu_resolve(a, m);
	return *resolved || a->names != JF_ACCEL_SLURM_FEATURE;
}

/* "A100-40GB or A100-80GB": the types of `model`, into `b`. */
static void model_types(jf_buf *b, const char *model)
{
	size_t n, k = 0, total = 0;
	const jf_gpu *g = jf_gpus(&n);
	for (size_t i = 0; i < n; i++)
		total += !strcmp(g[i].model, model);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(g[i].model, model))
			jf_buf_addf(b, "%s%s", k++ ? k == total ? " or " : ", " : "", g[i].name);
}

/* Where an accelerator is written: its kind, else the whole ask. */
static jf_loc accel_at(const jf_job_accel *a)
{
	return a->kind.value ? a->kind.at : a->at;
}

static void text_accels(jf_buf *b, const jf_job *j)
{
	char w[512], m1[32], m2[32];
	size_t shown_n = 0;
	jf_gpu_match m;
	bool resolved;
	for (size_t i = 0; i < j->accels.size; i++)
		shown_n += accel_shown(&j->accels.items[i], &m, &resolved);
	if (j->accels_any && shown_n > 1)
		jf_buf_addf(b, "  accelerators: one of the %zu below\n", shown_n);
	for (size_t i = 0; i < j->accels.size; i++) {
		const jf_job_accel *a = &j->accels.items[i];
		if (!accel_shown(a, &m, &resolved))
			continue;
		const char *at = where(w, sizeof w, accel_at(a));
		if (a->kind.value)
			jf_buf_addf(b, "  accelerator: %s (%s%s%s)\n", a->kind.value,
			            accel_names_text(a->names), at ? ", " : "", at ? at : "");
		else
			jf_buf_addf(b, "  accelerator: type not named%s%s%s\n", at ? " (" : "",
			            at ? at : "", at ? ")" : "");
		if (resolved && m.gpu) {
			jf_buf_addf(b, "    gpu: %s, %s per GPU\n", m.gpu->name,
			            jf_gpu_memory_text(m.memory_min, m1, sizeof m1));
		} else if (resolved) {
			jf_buf_addf(b, "    gpu: %s (", m.model);
			model_types(b, m.model);
			jf_buf_addf(b, "), %s to %s per GPU\n",
			            jf_gpu_memory_text(m.memory_min, m1, sizeof m1),
			            jf_gpu_memory_text(m.memory_max, m2, sizeof m2));
		} else if (a->kind.value) {
			jf_buf_adds(b, "    gpu: unknown (not a name of data/gpus.yaml)\n");
		}
		if (a->count >= 0)
			jf_buf_addf(b, "    per node: %ld\n", a->count);
		else if (resolved && m.count >= 0)
			jf_buf_addf(b, "    per node: %ld (the instance type's)\n", m.count);
		if (a->memory)
			jf_buf_addf(b, "    memory: %s per GPU, as the job writes it\n",
			            jf_gpu_memory_text(a->memory, m1, sizeof m1));
	}
}

static void text_words(jf_buf *b, const jf_words *words)
{
	for (size_t i = 0; i < words->size; i++)
		jf_buf_addf(b, " %s", word_value(&words->items[i]));
}

static void show_text(jf_buf *b, const shown *s)
{
	const jf_job *j = s->job;
	const jf_image *img = s->image;
	char w[512];
	jf_buf_addf(b, "%s: %s job", j->file->path, j->format ? j->format->name : "unknown");
	if (j->name.value)
		jf_buf_addf(b, " '%s'", j->name.value);
	jf_buf_add(b, "\n", 1);
	text_field(b, "platform", j->platform.value, j->platform.at);
	text_field(b, "image", j->image.ref.value, j->image.ref.at);
	if (img->base) {
		jf_buf_addf(b, "    built from: %s", img->base);
		if (where(w, sizeof w, img->ref_at))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_adds(b, "\n");
	}
	if (img->catalog)
		jf_buf_addf(b, "    catalog entry: %s\n", img->catalog);
	if (img->conda) {
		jf_buf_addf(b, "    conda environment: %s", img->conda);
		if (where(w, sizeof w, img->conda_at))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_adds(b, "\n");
	}
	for (size_t i = 0; (img->base || img->conda) && i < j->image.installs.size; i++) {
		const jf_job_install *x = &j->image.installs.items[i];
		jf_buf_addf(b, "    installs: %s%s%s", x->name.value, x->version ? "==" : "",
		            x->version ? x->version : "");
		if (where(w, sizeof w, x->name.at))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_adds(b, "\n");
	}
	if (img->extended)
		jf_buf_addf(b, "    packages open: %s\n", img->extended);
	char fact[600], py[32];
	if (img->py_major) {
		snprintf(py, sizeof py, "%d.%d", img->py_major, img->py_minor);
		image_fact(fact, sizeof fact, py, img->python_declared, img->python_at);
		jf_buf_addf(b, "    python: %s\n", fact);
	}
	if (img->user) {
		image_fact(fact, sizeof fact, img->user, img->user_declared, img->user_at);
		jf_buf_addf(b, "    user: %s\n", fact);
	}
	if (!jf_image_known(img))
		jf_buf_addf(b, "    unknown: %s\n", jf_image_unknown_reason(img));
	if (j->code_display)
		jf_buf_addf(b, "  code: %s\n", j->code_display);
	text_field(b, "workdir", j->workdir.value, j->workdir.at);
	for (size_t i = 0; i < j->env.size; i++) {
		const jf_job_var *v = &j->env.items[i];
		jf_buf_addf(b, "  env: %s=%s", v->name.value, v->value.value ? v->value.value : "?");
		if (where(w, sizeof w, v->name.at))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_add(b, "\n", 1);
	}
	text_mounts(b, &j->inputs, true);
	text_mounts(b, &j->outputs, false);
	text_count(b, "nodes", j->nodes);
	text_count(b, "gpus per node", j->gpus);
	text_count(b, "processes per node", j->procs);
	text_accels(b, j);
	for (size_t i = 0; i < j->command.size; i++) {
		const jf_cmd_unit *u = &j->command.items[i];
		jf_buf_addf(b, "  command: %s", u->kind == JF_CMD_SHELL ? "shell" : "argv");
		if (where(w, sizeof w, u->at))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_add(b, "\n", 1);
	}
	for (size_t i = 0; i < s->ws->files.size; i++)
		if (s->ws->files.items[i]->role == JF_ROLE_LAUNCH)
			jf_buf_addf(b, "  launch script: %s\n", s->ws->files.items[i]->src->path);
	for (size_t i = 0; i < s->shell->invocations.size; i++) {
		const jf_invocation *inv = &s->shell->invocations.items[i];
		jf_buf_addf(b, "  entry script: %s", inv->entry ? inv->entry->src->path : "?");
		if (where(w, sizeof w, (jf_loc){ inv->script.src, inv->script.span }))
			jf_buf_addf(b, " (%s)", w);
		jf_buf_addf(b, "\n    run by: %s", inv->launcher);
		if (inv->wrapper)
			jf_buf_addf(b, " under %s", inv->wrapper);
		jf_buf_addf(b, "\n    argv: %s", word_value(&inv->script));
		text_words(b, &inv->args);
		jf_buf_add(b, "\n", 1);
	}
	bool modules = false;
	for (size_t i = 0; i < s->ws->files.size; i++)
		if (entry_module(s, s->ws->files.items[i])) {
			jf_buf_addf(b, "  entry module: %s\n", s->ws->files.items[i]->src->path);
			modules = true;
		}
	if (!s->shell->invocations.size && !modules)
		jf_buf_adds(b, "  entry script: none followed\n");
	for (size_t i = 0; i < s->sys_path->size; i++) {
		char *dir = shown_folder(j, s->sys_path->items[i]);
		jf_buf_addf(b, "  sys.path: %s\n", dir);
		free(dir);
	}
}

/* A value and its place as JSON: {"value": ..., "at": "file:line:col"}. */
static void json_field(jf_jsonw *o, const char *key, const char *value, jf_loc at)
{
	char w[512];
	if (!value)
		return;
	jf_jsonw_open(o, key, '{');
	jf_jsonw_str(o, "value", value);
	if (where(w, sizeof w, at))
		jf_jsonw_str(o, "at", w);
	jf_jsonw_close(o, '}');
}

static void json_count(jf_jsonw *o, const char *key, long n)
{
	if (n >= 0)
		jf_jsonw_uint(o, key, (uint64_t)n);
}

static void json_mounts(jf_jsonw *o, const jf_job_mounts *m, bool read_only)
{
	char w[512];
	for (size_t i = 0; i < m->size; i++) {
		const jf_job_mount *x = &m->items[i];
		jf_jsonw_open(o, NULL, '{');
		if (x->name.value)
			jf_jsonw_str(o, "name", x->name.value);
		jf_jsonw_str(o, "path", x->path.value);
		jf_jsonw_member(o, "read_only");
		jf_buf_adds(o->b, read_only ? "true" : "false");
		if (where(w, sizeof w, x->path.at))
			jf_jsonw_str(o, "at", w);
		jf_jsonw_close(o, '}');
	}
}

static void json_accels(jf_jsonw *o, const jf_job *j)
{
	char w[512];
	jf_gpu_match m;
	bool resolved;
	size_t shown_n = 0;
	for (size_t i = 0; i < j->accels.size; i++)
		shown_n += accel_shown(&j->accels.items[i], &m, &resolved);
	if (!shown_n)
		return;
	jf_jsonw_open(o, "accelerators", '[');
	for (size_t i = 0; i < j->accels.size; i++) {
		const jf_job_accel *a = &j->accels.items[i];
		if (!accel_shown(a, &m, &resolved))
			continue;
		jf_jsonw_open(o, NULL, '{');
		if (a->kind.value)
			jf_jsonw_str(o, "kind", a->kind.value);
		jf_jsonw_str(o, "names", accel_names_key(a->names));
		if (where(w, sizeof w, accel_at(a)))
			jf_jsonw_str(o, "at", w);
		if (resolved && m.gpu) {
			jf_jsonw_str(o, "gpu", m.gpu->name);
			jf_jsonw_uint(o, "gpu_memory_bytes", m.memory_min);
		} else if (resolved) {
			jf_jsonw_str(o, "model", m.model);
			jf_jsonw_uint(o, "gpu_memory_min_bytes", m.memory_min);
			jf_jsonw_uint(o, "gpu_memory_max_bytes", m.memory_max);
		}
		json_count(o, "per_node", a->count);
		if (resolved)
			json_count(o, "instance_gpus", m.count);
		if (a->memory)
			jf_jsonw_uint(o, "memory_as_written_bytes", a->memory);
		jf_jsonw_close(o, '}');
	}
	jf_jsonw_close(o, ']');
	if (j->accels_any && shown_n > 1) {
		jf_jsonw_member(o, "accelerators_any_of");
		jf_buf_adds(o->b, "true");
	}
}

static void json_words(jf_jsonw *o, const char *key, const jf_word *first, const jf_words *rest)
{
	jf_jsonw_open(o, key, '[');
	if (first) {
		jf_jsonw_member(o, NULL);
		jf_jsonw_quote(o->b, word_value(first));
	}
	for (size_t i = 0; i < rest->size; i++) {
		jf_jsonw_member(o, NULL);
		jf_jsonw_quote(o->b, word_value(&rest->items[i]));
	}
	jf_jsonw_close(o, ']');
}

static void show_json(jf_jsonw *o, const shown *s)
{
	const jf_job *j = s->job;
	const jf_image *img = s->image;
	char w[512];
	jf_jsonw_open(o, NULL, '{');
	jf_jsonw_str(o, "file", j->file->path);
	jf_jsonw_str(o, "format", j->format ? j->format->name : "unknown");
	if (j->name.value)
		jf_jsonw_str(o, "name", j->name.value);
	json_field(o, "platform", j->platform.value, j->platform.at);
	jf_jsonw_open(o, "image", '{');
	json_field(o, "ref", j->image.ref.value, j->image.ref.at);
	if (img->base)
		json_field(o, "built_from", img->base, img->ref_at);
	if (img->catalog)
		jf_jsonw_str(o, "catalog", img->catalog);
	if (img->conda)
		json_field(o, "conda_environment", img->conda, img->conda_at);
	if ((img->base || img->conda) && j->image.installs.size) {
		jf_jsonw_open(o, "installs", '[');
		for (size_t i = 0; i < j->image.installs.size; i++) {
			const jf_job_install *x = &j->image.installs.items[i];
			jf_jsonw_open(o, NULL, '{');
			jf_jsonw_str(o, "name", x->name.value);
			if (x->version)
				jf_jsonw_str(o, "version", x->version);
			if (where(w, sizeof w, x->name.at))
				jf_jsonw_str(o, "at", w);
			jf_jsonw_close(o, '}');
		}
		jf_jsonw_close(o, ']');
	}
	if (img->extended)
		jf_jsonw_str(o, "packages_open", img->extended);
	if (img->py_major) {
		char py[32];
		snprintf(py, sizeof py, "%d.%d", img->py_major, img->py_minor);
		json_field(o, "python", py, img->python_declared ? img->python_at : (jf_loc){ 0 });
	}
	if (img->user)
		json_field(o, "user", img->user, img->user_declared ? img->user_at : (jf_loc){ 0 });
	if (!jf_image_known(img))
		jf_jsonw_str(o, "unknown", jf_image_unknown_reason(img));
	jf_jsonw_close(o, '}');
	if (j->code_display)
		jf_jsonw_str(o, "code", j->code_display);
	json_field(o, "workdir", j->workdir.value, j->workdir.at);
	jf_jsonw_open(o, "env", '[');
	for (size_t i = 0; i < j->env.size; i++) {
		const jf_job_var *v = &j->env.items[i];
		jf_jsonw_open(o, NULL, '{');
		jf_jsonw_str(o, "name", v->name.value);
		if (v->value.value)
			jf_jsonw_str(o, "value", v->value.value);
		if (where(w, sizeof w, v->name.at))
			jf_jsonw_str(o, "at", w);
		jf_jsonw_close(o, '}');
	}
	jf_jsonw_close(o, ']');
	jf_jsonw_open(o, "mounts", '[');
	json_mounts(o, &j->inputs, true);
	json_mounts(o, &j->outputs, false);
	jf_jsonw_close(o, ']');
	json_count(o, "nodes", j->nodes);
	json_count(o, "gpus_per_node", j->gpus);
	json_count(o, "processes_per_node", j->procs);
	json_accels(o, j);
	jf_jsonw_open(o, "commands", '[');
	for (size_t i = 0; i < j->command.size; i++) {
		const jf_cmd_unit *u = &j->command.items[i];
		jf_jsonw_open(o, NULL, '{');
		jf_jsonw_str(o, "kind", u->kind == JF_CMD_SHELL ? "shell" : "argv");
		if (where(w, sizeof w, u->at))
			jf_jsonw_str(o, "at", w);
		jf_jsonw_close(o, '}');
	}
	jf_jsonw_close(o, ']');
	jf_jsonw_open(o, "launch_scripts", '[');
	for (size_t i = 0; i < s->ws->files.size; i++)
		if (s->ws->files.items[i]->role == JF_ROLE_LAUNCH) {
			jf_jsonw_member(o, NULL);
			jf_jsonw_quote(o->b, s->ws->files.items[i]->src->path);
		}
	jf_jsonw_close(o, ']');
	jf_jsonw_open(o, "entry_scripts", '[');
	for (size_t i = 0; i < s->shell->invocations.size; i++) {
		const jf_invocation *inv = &s->shell->invocations.items[i];
		jf_jsonw_open(o, NULL, '{');
		jf_jsonw_str(o, "path", inv->entry ? inv->entry->src->path : "?");
		if (where(w, sizeof w, (jf_loc){ inv->script.src, inv->script.span }))
			jf_jsonw_str(o, "at", w);
		jf_jsonw_str(o, "launcher", inv->launcher);
		if (inv->wrapper)
			jf_jsonw_str(o, "wrapper", inv->wrapper);
		json_words(o, "argv", &inv->script, &inv->args);
		jf_jsonw_close(o, '}');
	}
	jf_jsonw_close(o, ']');
	jf_jsonw_open(o, "entry_modules", '[');
	for (size_t i = 0; i < s->ws->files.size; i++)
		if (entry_module(s, s->ws->files.items[i])) {
			jf_jsonw_member(o, NULL);
			jf_jsonw_quote(o->b, s->ws->files.items[i]->src->path);
		}
	jf_jsonw_close(o, ']');
	jf_jsonw_open(o, "sys_path", '[');
	for (size_t i = 0; i < s->sys_path->size; i++) {
		char *dir = shown_folder(j, s->sys_path->items[i]);
		jf_jsonw_member(o, NULL);
		jf_jsonw_quote(o->b, dir);
		free(dir);
	}
	jf_jsonw_close(o, ']');
	jf_jsonw_close(o, '}');
}

static int show_path(jf_linter *self, const char *path)
{
	jf_report quiet = { 0 };
	jf_strings skipped = { 0 };
	/* The findings of reading go nowhere: `jobfix lint` reports them. */
	jf_sink sink = { &quiet, jf_linter__rule_of, self->opts.config, &skipped, path, NULL };
	jf_job *job = NULL;
	if (!jf_str_ends(path, ".yaml") && !jf_str_ends(path, ".yml") && !jf_job_sniff_file(path)) {
		jf_report_release(&quiet);
		return jf_error_set(&self->error, JF_ENOTFOUND, "'%s' is not a job file jobfix reads",
		                    path);
	}
	int rc = jf_job_load(path, path, jf_config__images(self->opts.config), &sink, &job,
	                     &self->error);
	if (rc < 0) {
		jf_report_release(&quiet);
		return rc;
	}
	jf_workspace ws;
	jf_workspace_init(&ws, &self->parsers, &sink);
	jf_image *image = jf_image_resolve(job, NULL);
	jf_facts facts = { .job = job, .image = image, .ws = &ws };
	jf_facts_gather(&facts, job, image, &ws, &(jf_gather_options){ SIZE_MAX, false, NULL });
	/* sys.path besides the script's folder, in order: what the code inserts
	 * before it, PYTHONPATH and installed projects, what the code appends. */
	jf_strings sys_path = { 0 };
	const jf_strings *parts[] = { &facts.sys_path_first, &facts.sys_path,
		                      &facts.sys_path_last };
	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < parts[p]->size; i++) {
			const char *dir = parts[p]->items[p ? i : parts[p]->size - 1 - i];
			if (!jf_strings_have(&sys_path, dir))
				jf_array_push(&sys_path, jf_xstrdup(dir));
		}
	shown s = { job, image, &facts.shell, &ws, &sys_path };
	show_text(&self->shown_text, &s);
	jf_jsonw o = { &self->shown_json, 2, self->shown_jobs == 0 };
	show_json(&o, &s);
	self->shown_jobs++;
	jf_strings_release(&sys_path);
	jf_facts_release(&facts);
	jf_workspace_release(&ws);
	jf_image_free(image);
	jf_job_free(job);
	jf_report_release(&quiet);
	jf_strings_release(&skipped);
	return 0;
}

int jf_linter_write_shown(jf_linter *self, FILE *out, jf_format format)
{
	jf_buf b = JF_BUF_INIT;
	if (format == JF_FORMAT_JSON) {
		jf_jsonw o;
		jf_jsonw_start(&o, &b);
		jf_jsonw_uint(&o, "version", 1);
		jf_jsonw_member(&o, "jobs");
		jf_buf_adds(&b, "[");
		jf_buf_add(&b, self->shown_json.buf, self->shown_json.len);
		jf_buf_adds(&b, self->shown_jobs ? "\n  ]" : "]");
		jf_jsonw_finish(&o);
	} else {
		jf_buf_add(&b, self->shown_text.buf, self->shown_text.len);
	}
	size_t n = fwrite(b.buf, 1, b.len, out);
	bool ok = n == b.len && fflush(out) == 0;
	jf_buf_release(&b);
	return ok ? 0 : JF_EIO;
}

int jf_linter_show(jf_linter *self, const char *path)
{
	/* It reads what a lint reads, and no more (core/confine.h). */
	jf_confine in;
	jf_confine_init(&in, path, jf_config__allow_outside(self->opts.config));
	jf_confine_enter(&in);
	int rc = show_path(self, path);
	jf_confine_leave();
	jf_confine_release(&in);
	return rc;
}
