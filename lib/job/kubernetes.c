/* kubernetes.c - Kubernetes manifests: Job, CronJob and Pod, and the Kubeflow kinds (kubeflow.c)
 *
 * Any YAML stream whose documents carry `apiVersion` and `kind` is a
 * Kubernetes manifest. The first document of a job kind is the job; other
 * kinds (ConfigMap, Service, Deployment...) are passed over, and a manifest
 * without a job gives nothing. The training container (named like the
 * framework, else the first) gives the command (`command` + `args`, with
 * `$(VAR)` expanded from its env as the kubelet does), the image, env,
 * mounts and GPUs. The code is inside the image: the repository's
 * Dockerfile (dockerfile.c) says where its COPY put the job's folder;
 * without one the scripts are not followed. Only the fields read are
 * checked (JF003/JF004); the rest of the Kubernetes schema is left alone.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdlib.h>

#include "core/deps.h"
#include "core/path.h"
#include "job/dockerfile.h"
#include "job/k8s.h"
#include "job/place.h"

yaml_node_t *jf_k8s__get(const jf_job_read *r, const yaml_node_t *map, const char *key)
{
	return jf_yml_get(r->doc, map, key);
}

const char *jf_k8s__path(jf_job_read *r, const char *where, const char *key)
{
	char *s = jf_xasprintf("%s%s%s", where, *where ? "." : "", key);
	char *c = jf_job__copy(r, s);
	free(s);
	return c;
}

/* A mapping at `key` of `map`: NULL and JF004 when absent, JF003 when not a mapping. */
static yaml_node_t *need_map(jf_job_read *r, yaml_node_t *map, const char *where, const char *key)
{
	yaml_node_t *v = jf_k8s__get(r, map, key);
	if (!v || jf_yml_is_null(v)) {
		jf_span at = v ? jf_yml_span(r->src, v) : jf_yml_span(r->src, map);
		if (*where)
			jf_sink_add(r->sink, JF004, r->src, at, "'%s' has no '%s'", where, key);
		else
			jf_sink_add(r->sink, JF004, r->src, at, "the manifest has no '%s'", key);
		return NULL;
	}
	if (v->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, v, jf_k8s__path(r, where, key), "a mapping");
		return NULL;
	}
	return v;
}

long jf_k8s__whole(const yaml_node_t *n)
{
	const char *s = n ? jf_yml_scalar(n) : NULL;
	if (!s || !*s)
		return -1;
	char *end = NULL;
	long v = strtol(s, &end, 10);
	return *end || v < 0 ? -1 : v;
}

long jf_k8s__gpus(jf_job_read *r, yaml_node_t *resources)
{
	static const char *const keys[] = { "nvidia.com/gpu", "amd.com/gpu", NULL };
	const char *const sets[] = { "limits", "requests" };
	for (size_t s = 0; s < 2; s++) {
		yaml_node_t *m = jf_k8s__get(r, resources, sets[s]);
		for (size_t k = 0; m && keys[k]; k++) {
			long g = jf_k8s__whole(jf_k8s__get(r, m, keys[k]));
			if (g >= 0)
				return g;
		}
	}
	return -1;
}

/* The node labels that name the GPU a pod runs on. */
static const struct {
	const char *key;
	jf_accel_names names;
} gpu_labels[] = {
	{ "nvidia.com/gpu.product", JF_ACCEL_K8S_PRODUCT },
	{ "cloud.google.com/gke-accelerator", JF_ACCEL_GKE },
	{ "karpenter.k8s.aws/instance-gpu-name", JF_ACCEL_KARPENTER },
	{ "node.kubernetes.io/instance-type", JF_ACCEL_INSTANCE },
	{ "beta.kubernetes.io/instance-type", JF_ACCEL_INSTANCE },
};

/* The node labels that give a GPU's memory in MiB: GPU feature discovery's
 * (docs/gfd_labels.md: "Memory of the GPU in Mb") and Karpenter's. */
static const char *const memory_labels[] = { "nvidia.com/gpu.memory",
	                                     "karpenter.k8s.aws/instance-gpu-memory", NULL };

/* A label value jobfix can take: not empty, not a template's placeholder. */
static const char *label_value(const yaml_node_t *v)
{
	const char *s = v && v->type == YAML_SCALAR_NODE ? jf_yml_scalar(v) : NULL;
	return s && *s && !jf_yml_is_null(v) && !strpbrk(s, "${}") ? s : NULL;
}

/* What a GPU label `key` = value `v` says: an accelerator, or the memory (into *memory). */
static void add_label(jf_job_read *r, const char *key, yaml_node_t *v, long count,
                      uint64_t *memory, jf_loc *memory_at)
{
	const char *s = label_value(v);
	if (!key || !s)
		return;
	for (size_t i = 0; i < sizeof gpu_labels / sizeof *gpu_labels; i++)
		if (!strcmp(key, gpu_labels[i].key)) {
			jf_job__accel(r, s, jf_job__loc(r, v), gpu_labels[i].names, count,
			              jf_job__loc(r, v));
			return;
		}
	if (jf_str_in(key, memory_labels)) {
		char *end = NULL;
		unsigned long long mib = strtoull(s, &end, 10);
		if (*s >= '0' && *s <= '9' && !*end && mib && mib < (1ull << 40)) {
			*memory = (uint64_t)mib << 20;
			*memory_at = jf_job__loc(r, v);
		}
	}
}

void jf_k8s__read_accels(jf_job_read *r, yaml_node_t *pod, long count)
{
	jf_job *j = r->job;
	j->accels.size = 0;
	j->accels_any = false;
	uint64_t memory = 0;
	jf_loc memory_at = { 0 };
	yaml_node_t *sel = jf_k8s__get(r, pod, "nodeSelector");
	if (sel && sel->type == YAML_MAPPING_NODE)
		for (yaml_node_pair_t *p = sel->data.mapping.pairs.start; p < sel->data.mapping.pairs.top;
		     p++)
			add_label(r, jf_yml_scalar(jf_job__node(r, p->key)), jf_job__node(r, p->value), count,
			          &memory, &memory_at);
	/* Node affinity: terms are alternatives, and so are the values of `In`. */
	yaml_node_t *terms = jf_k8s__get(
		r,
		jf_k8s__get(r, jf_k8s__get(r, jf_k8s__get(r, pod, "affinity"), "nodeAffinity"),
		            "requiredDuringSchedulingIgnoredDuringExecution"),
		"nodeSelectorTerms");
	size_t terms_with = 0;
	for (yaml_node_item_t *t = terms && terms->type == YAML_SEQUENCE_NODE
	                                ? terms->data.sequence.items.start
	                                : NULL;
	     t && t < terms->data.sequence.items.top; t++) {
		yaml_node_t *exprs = jf_k8s__get(r, jf_job__node(r, *t), "matchExpressions");
		size_t before = j->accels.size;
		for (yaml_node_item_t *e = exprs && exprs->type == YAML_SEQUENCE_NODE
		                                ? exprs->data.sequence.items.start
		                                : NULL;
		     e && e < exprs->data.sequence.items.top; e++) {
			yaml_node_t *expr = jf_job__node(r, *e);
			const char *op = jf_yml_scalar(jf_k8s__get(r, expr, "operator"));
			yaml_node_t *values = jf_k8s__get(r, expr, "values");
			if (!op || strcmp(op, "In") || !values || values->type != YAML_SEQUENCE_NODE)
				continue;
			const char *key = jf_yml_scalar(jf_k8s__get(r, expr, "key"));
			size_t n = (size_t)(values->data.sequence.items.top - values->data.sequence.items.start);
			size_t had = j->accels.size;
			for (yaml_node_item_t *v = values->data.sequence.items.start;
			     v < values->data.sequence.items.top; v++)
				if (n == 1 || !jf_str_in(key ? key : "", memory_labels))
					add_label(r, key, jf_job__node(r, *v), count, &memory, &memory_at);
			j->accels_any |= j->accels.size - had > 1;
		}
		terms_with += j->accels.size > before;
	}
	j->accels_any |= terms_with > 1;
	if (!memory)
		return;
	for (size_t i = 0; i < j->accels.size; i++)
		j->accels.items[i].memory = memory;
	if (!j->accels.size)
		jf_job__accel(r, NULL, (jf_loc){ 0 }, JF_ACCEL_GPU, count, memory_at)->memory = memory;
}

/* The containers list of pod spec `pod`, or NULL (JF003/JF004). */
static yaml_node_t *containers_of(jf_job_read *r, yaml_node_t *pod, const char *where)
{
	yaml_node_t *cs = jf_k8s__get(r, pod, "containers");
	if (!cs || jf_yml_is_null(cs)) {
		jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, pod), "'%s' has no 'containers'",
		            where);
		return NULL;
	}
	if (cs->type != YAML_SEQUENCE_NODE || cs->data.sequence.items.start == cs->data.sequence.items.top) {
		jf_job__wrong_type(r, cs, jf_k8s__path(r, where, "containers"), "a list of containers");
		return NULL;
	}
	return cs;
}

/* The container of list `cs` named `prefer`, else the first; its index in *at. */
static yaml_node_t *pick(jf_job_read *r, yaml_node_t *cs, const char *prefer, size_t *at)
{
	yaml_node_item_t *items = cs->data.sequence.items.start;
	size_t n = (size_t)(cs->data.sequence.items.top - items);
	for (size_t i = 0; prefer && i < n; i++) {
		const char *name = jf_yml_scalar(jf_k8s__get(r, jf_job__node(r, items[i]), "name"));
		if (name && !strcmp(name, prefer)) {
			*at = i;
			return jf_job__node(r, items[i]);
		}
	}
	*at = 0;
	return jf_job__node(r, items[0]);
}

long jf_k8s__template_gpus(jf_job_read *r, yaml_node_t *tmpl, const char *prefer)
{
	yaml_node_t *pod = jf_k8s__get(r, tmpl, "spec");
	yaml_node_t *cs = jf_k8s__get(r, pod, "containers");
	if (!cs || cs->type != YAML_SEQUENCE_NODE ||
	    cs->data.sequence.items.start == cs->data.sequence.items.top)
		return -1;
	size_t at;
	return jf_k8s__gpus(r, jf_k8s__get(r, pick(r, cs, prefer, &at), "resources"));
}

/* $(VAR) as Kubernetes expands it in command, args and env values */

typedef enum { VAR_ABSENT, VAR_KNOWN, VAR_UNKNOWN } var_state;

typedef struct {
	jf_job_read *r;
	size_t env_from, env_to; /* the container's variables: r->job->env[from, to) */
	bool operator_env;
} expander;

static var_state lookup(const expander *x, const char *name, size_t len, const char **value)
{
	const jf_job_vars *env = &x->r->job->env;
	for (size_t i = x->env_to; i-- > x->env_from;) {
		const jf_job_var *v = &env->items[i];
		if (strlen(v->name.value) == len && !strncmp(v->name.value, name, len)) {
			*value = v->value.value;
			return v->value.value ? VAR_KNOWN : VAR_UNKNOWN;
		}
	}
	return x->operator_env || x->r->job->env_open ? VAR_UNKNOWN : VAR_ABSENT;
}

/*
 * `s` expanded: `$(NAME)` of a variable with a known value is that value,
 * of one not set stays as written, `$$` is `$`. *unknown when a variable is
 * set to a value known only at run time (then the text keeps `$(NAME)`).
 * NULL when nothing changes. Caller frees.
 */
static char *k8s_expand(const expander *x, const char *s, bool *unknown)
{
	if (!strchr(s, '$'))
		return NULL;
	jf_buf out = JF_BUF_INIT;
	bool changed = false;
	for (size_t i = 0; s[i];) {
		if (s[i] != '$' || !s[i + 1]) {
			jf_buf_addc(&out, s[i++]);
			continue;
		}
		if (s[i + 1] == '$') {
			jf_buf_addc(&out, '$');
			changed = true;
			i += 2;
			continue;
		}
		if (s[i + 1] != '(') {
			jf_buf_add(&out, s + i, 2);
			i += 2;
			continue;
		}
		const char *close = strchr(s + i + 2, ')');
		if (!close) {
			jf_buf_adds(&out, s + i);
			break;
		}
		const char *name = s + i + 2, *value = NULL;
		size_t len = (size_t)(close - name);
		var_state st = lookup(x, name, len, &value);
		if (st == VAR_KNOWN) {
			jf_buf_adds(&out, value);
			changed = true;
		} else {
			*unknown |= st == VAR_UNKNOWN;
			jf_buf_add(&out, s + i, (size_t)(close + 1 - (s + i)));
		}
		i = (size_t)(close + 1 - s);
	}
	if (!changed) {
		jf_buf_release(&out);
		return NULL;
	}
	return jf_buf_detach(&out, NULL);
}

/* The containers' env: name and value, or valueFrom (a value known at run time). */
static void read_env(jf_job_read *r, yaml_node_t *env, const char *where, expander *x)
{
	if (env->type != YAML_SEQUENCE_NODE) {
		jf_job__wrong_type(r, env, where, "a list of variables (name, value)");
		return;
	}
	for (yaml_node_item_t *it = env->data.sequence.items.start; it < env->data.sequence.items.top;
	     it++) {
		yaml_node_t *e = jf_job__node(r, *it);
		yaml_node_t *name = jf_k8s__get(r, e, "name");
		if (e->type != YAML_MAPPING_NODE) {
			jf_job__wrong_type(r, e, where, "a list of mappings with 'name'");
			continue;
		}
		if (!name || !jf_yml_scalar(name)) {
			if (!name)
				jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, e),
				            "a variable of '%s' has no 'name'", where);
			else
				jf_job__wrong_type(r, name, "name", "a string");
			continue;
		}
		yaml_node_t *value = jf_k8s__get(r, e, "value");
		jf_job_var v = { { jf_job__copy(r, jf_yml_scalar(name)), jf_job__loc(r, name) },
			         { NULL, jf_job__loc(r, value ? value : e) } };
		if (value && jf_yml_scalar(value)) {
			/* $(X) of a variable listed before it */
			bool unknown = false;
			x->env_to = r->job->env.size;
			char *ex = k8s_expand(x, jf_yml_scalar(value), &unknown);
			v.value.value = unknown ? NULL : jf_job__copy(r, ex ? ex : jf_yml_scalar(value));
			free(ex);
		} else if (value && !jf_yml_is_null(value)) {
			jf_job__wrong_type(r, value, "value", "a string");
		} else if (!value) {
			/* valueFrom, or no value: an empty string */
			if (!jf_k8s__get(r, e, "valueFrom"))
				v.value.value = jf_job__copy(r, "");
		} else {
			v.value.value = jf_job__copy(r, "");
		}
		jf_array_push(&r->job->env, v);
	}
}

typedef JF_ARRAY(yaml_node_t *) node_list;

/* The words of list `n` (command or args), or false (JF003). */
static bool words_of(jf_job_read *r, yaml_node_t *n, const char *where, node_list *out)
{
	if (jf_yml_is_null(n))
		return true;
	if (n->type != YAML_SEQUENCE_NODE) {
		jf_job__wrong_type(r, n, where, "a list of strings");
		return false;
	}
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		yaml_node_t *w = jf_job__node(r, *it);
		if (w->type != YAML_SCALAR_NODE) {
			jf_job__wrong_type(r, w, where, "a list of strings");
			return false;
		}
		jf_array_push(out, w);
	}
	return true;
}

/* Programs that args alone may start when the image's entrypoint passes them on. */
static bool is_program(const char *w)
{
	static const char *const progs[] = { "python", "python3", "python2", "bash", "sh",
		                             "torchrun", "deepspeed", "accelerate", "mpirun",
		                             "horovodrun", "/bin/bash", "/bin/sh", "/usr/bin/env",
		                             NULL };
	const char *base = strrchr(w, '/');
	return jf_str_in(w, progs) || (base && jf_str_in(base + 1, progs));
}

/* Applies $(VAR) expansion to the unit just added for `words`. */
static void expand_unit(jf_job_read *r, const expander *x, yaml_node_t *const *words, size_t n)
{
	jf_cmd_unit *u = jf_array_last(&r->job->command);
	if (u->kind == JF_CMD_ARGV) {
		for (size_t i = 0; i < u->argv.size; i++) {
			jf_field *f = &u->argv.items[i];
			bool unknown = false;
			char *ex = f->value ? k8s_expand(x, f->value, &unknown) : NULL;
			if (unknown)
				f->value = NULL;
			else if (ex)
				f->value = jf_job__copy(r, ex);
			free(ex);
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		jf_span s = jf_yml_span(r->src, words[i]);
		if (s.start != u->at.span.start || s.end != u->at.span.end)
			continue;
		bool unknown = false;
		char *ex = k8s_expand(x, jf_yml_scalar(words[i]), &unknown);
		if (ex) {
			/* the shell text with the values put in: findings at the text */
			jf_array_release(&u->ranges);
			jf_source_free(u->copy);
			u->copy = jf_source_from_value(r->src, u->at.span, ex, strlen(ex));
			free(ex);
		}
		return;
	}
}

static void read_command(jf_job_read *r, yaml_node_t *c, const char *where, const expander *x)
{
	yaml_node_t *cmd = jf_k8s__get(r, c, "command"), *args = jf_k8s__get(r, c, "args");
	node_list words = { 0 };
	size_t ncmd = 0;
	bool ok = true;
	if (cmd) {
		ok = words_of(r, cmd, jf_k8s__path(r, where, "command"), &words);
		ncmd = words.size;
	}
	if (ok && args)
		ok = words_of(r, args, jf_k8s__path(r, where, "args"), &words);
	if (ok && words.size) {
		const char *first = jf_yml_scalar(words.items[0]);
		r->job->has_command = true;
		jf_job__argv_unit(r, words.items, words.size, jf_job__loc(r, ncmd ? cmd : args));
		/* args that start with no program go to the image's ENTRYPOINT: find_code() puts it first */
		jf_array_last(&r->job->command)->to_entrypoint = !ncmd && !(first && is_program(first));
		expand_unit(r, x, words.items, words.size);
	} else if (ok && !cmd && !args) {
		/* the image's ENTRYPOINT and CMD run: find_code() reads them */
		jf_cmd_unit u = { .kind = JF_CMD_ARGV, .at = jf_job__loc(r, c), .to_entrypoint = true };
		jf_array_push(&r->job->command, u);
	}
	jf_array_release(&words);
}

/* Drops the command units waiting for the image's ENTRYPOINT: `why` says
 * what is not known of it. */
static void drop_entrypoint_units(jf_job_read *r, const char *why)
{
	jf_job *j = r->job;
	size_t k = 0;
	for (size_t i = 0; i < j->command.size; i++) {
		jf_cmd_unit *u = &j->command.items[i];
		if (!u->to_entrypoint) {
			j->command.items[k++] = *u;
			continue;
		}
		jf_job__unknown(r, JF_JOB_COMMAND,
		                u->argv.size ? "the container has args and no command: the image's "
		                               "entrypoint runs them, and %s"
		                             : "the container has no command: the image's own "
		                               "entrypoint runs, and %s",
		                why);
		jf_job__unit_release(u);
	}
	j->command.size = k;
}

/* The pod's volume `name`: whether it is read-only whatever the mount says. */
static bool volume_read_only(jf_job_read *r, yaml_node_t *pod, const char *name)
{
	static const char *const ro_kinds[] = { "configMap", "secret", "downwardAPI", "projected",
		                                NULL };
	yaml_node_t *vols = jf_k8s__get(r, pod, "volumes");
	if (!vols || vols->type != YAML_SEQUENCE_NODE)
		return false;
	for (yaml_node_item_t *it = vols->data.sequence.items.start; it < vols->data.sequence.items.top;
	     it++) {
		yaml_node_t *v = jf_job__node(r, *it);
		const char *n = jf_yml_scalar(jf_k8s__get(r, v, "name"));
		if (!n || strcmp(n, name))
			continue;
		for (size_t k = 0; ro_kinds[k]; k++)
			if (jf_k8s__get(r, v, ro_kinds[k]))
				return true;
		/* persistentVolumeClaim, nfs, csi, ...: readOnly: true */
		for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top;
		     p++) {
			const char *ro = jf_yml_scalar(jf_k8s__get(r, jf_job__node(r, p->value), "readOnly"));
			if (ro && !strcmp(ro, "true"))
				return true;
		}
		return false;
	}
	return false;
}

static void read_mounts(jf_job_read *r, yaml_node_t *mounts, yaml_node_t *pod, const char *where)
{
	if (mounts->type != YAML_SEQUENCE_NODE) {
		jf_job__wrong_type(r, mounts, where, "a list of mounts (name, mountPath)");
		return;
	}
	for (yaml_node_item_t *it = mounts->data.sequence.items.start;
	     it < mounts->data.sequence.items.top; it++) {
		yaml_node_t *m = jf_job__node(r, *it);
		yaml_node_t *name = jf_k8s__get(r, m, "name"), *path = jf_k8s__get(r, m, "mountPath");
		if (m->type != YAML_MAPPING_NODE) {
			jf_job__wrong_type(r, m, where, "a list of mappings with 'name' and 'mountPath'");
			continue;
		}
		if (!path) {
			jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, m),
			            "a mount of '%s' has no 'mountPath'", where);
			continue;
		}
		jf_job_mount jm = { 0 };
		if (!jf_job__string(r, path, "mountPath", &jm.path))
			continue;
		if (name && jf_yml_scalar(name))
			jm.name = (jf_field){ jf_job__copy(r, jf_yml_scalar(name)), jf_job__loc(r, name) };
		else
			jm.name = jm.path;
		const char *ro = jf_yml_scalar(jf_k8s__get(r, m, "readOnly"));
		bool read_only = (ro && !strcmp(ro, "true")) || volume_read_only(r, pod, jm.name.value);
		jf_array_push(read_only ? &r->job->inputs : &r->job->outputs, jm);
	}
}

static void read_user(jf_job_read *r, yaml_node_t *sc)
{
	yaml_node_t *u = jf_k8s__get(r, sc, "runAsUser");
	if (u && jf_yml_scalar(u) && jf_k8s__whole(u) >= 0) {
		r->job->image.user = (jf_field){ jf_job__copy(r, jf_yml_scalar(u)), jf_job__loc(r, u) };
	}
}

void jf_k8s__read_container(jf_job_read *r, yaml_node_t *c, yaml_node_t *pod, const char *where,
                            bool operator_env)
{
	jf_job *j = r->job;
	yaml_node_t *n;
	expander x = { r, j->env.size, j->env.size, operator_env };
	if ((n = jf_k8s__get(r, c, "envFrom")) && !jf_yml_is_null(n)) {
		j->env_open = true;
		jf_job__unknown(r, JF_JOB_ENV,
		                "'%s' sets variables from a ConfigMap or Secret (envFrom): no variable is "
		                "reported unset",
		                where);
	}
	if ((n = jf_k8s__get(r, c, "env")) && !jf_yml_is_null(n))
		read_env(r, n, jf_k8s__path(r, where, "env"), &x);
	x.env_to = j->env.size;
	if ((n = jf_k8s__get(r, c, "image"))) {
		j->image.at = jf_job__loc(r, n);
		j->image.present = jf_job__string(r, n, jf_k8s__path(r, where, "image"), &j->image.ref);
	}
	read_command(r, c, where, &x);
	if ((n = jf_k8s__get(r, c, "workingDir")) &&
	    jf_job__string(r, n, jf_k8s__path(r, where, "workingDir"), &j->workdir) &&
	    j->workdir.value[0] != '/')
		j->workdir.value = NULL; /* the kubelet refuses it; not the linter's business */
	if ((n = jf_k8s__get(r, c, "volumeMounts")) && !jf_yml_is_null(n))
		read_mounts(r, n, pod, jf_k8s__path(r, where, "volumeMounts"));
	if ((n = jf_k8s__get(r, c, "resources"))) {
		j->resources = jf_job__loc(r, n);
		j->gpus = jf_k8s__gpus(r, n);
	}
	read_user(r, jf_k8s__get(r, pod, "securityContext"));
	read_user(r, jf_k8s__get(r, c, "securityContext"));
}

void jf_k8s__read_template(jf_job_read *r, yaml_node_t *tmpl, const char *where,
                           const char *prefer, bool operator_env)
{
	const char *pwhere = jf_k8s__path(r, where, "spec");
	yaml_node_t *pod = need_map(r, tmpl, where, "spec");
	yaml_node_t *cs = pod ? containers_of(r, pod, pwhere) : NULL;
	if (!cs)
		return;
	size_t at;
	yaml_node_t *c = pick(r, cs, prefer, &at);
	char buf[32];
	snprintf(buf, sizeof buf, "containers[%zu]", at);
	const char *cwhere = jf_k8s__path(r, pwhere, buf);
	if (c->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, c, cwhere, "a mapping");
		return;
	}
	yaml_node_t *init = jf_k8s__get(r, pod, "initContainers");
	if (init && init->type == YAML_SEQUENCE_NODE &&
	    init->data.sequence.items.start < init->data.sequence.items.top)
		jf_job__unknown(r, JF_JOB_VOLUMES,
		                "'%s' has initContainers: what they put in the pod's volumes is not known",
		                pwhere);
	jf_k8s__read_container(r, c, pod, cwhere, operator_env);
	jf_k8s__read_accels(r, pod, r->job->gpus);
	if (!jf_k8s__get(r, c, "image"))
		jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, c), "'%s' has no 'image'",
		            cwhere);
}

/* The kinds of Kubernetes itself */

typedef enum { KIND_NONE, KIND_JOB, KIND_CRONJOB, KIND_POD, KIND_KUBEFLOW } kind;

static kind kind_of(const char *api, const char *k)
{
	if (!api || !k)
		return KIND_NONE;
	if (jf_str_starts(api, "batch/") && !strcmp(k, "Job"))
		return KIND_JOB;
	if (jf_str_starts(api, "batch/") && !strcmp(k, "CronJob"))
		return KIND_CRONJOB;
	if (!strcmp(api, "v1") && !strcmp(k, "Pod"))
		return KIND_POD;
	if (jf_kubeflow__is_job(api, k))
		return KIND_KUBEFLOW;
	return KIND_NONE;
}

/* The root of document `d` when it is a mapping with apiVersion and kind, else NULL. */
static yaml_node_t *manifest(const yaml_document_t *d, const char **api, const char **k)
{
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)d);
	if (!root || root->type != YAML_MAPPING_NODE)
		return NULL;
	*api = *k = NULL;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		const char *key = jf_yml_scalar(jf_yml_node(d, p->key));
		const char *v = jf_yml_scalar(jf_yml_node(d, p->value));
		if (key && !strcmp(key, "apiVersion"))
			*api = v;
		else if (key && !strcmp(key, "kind"))
			*k = v;
	}
	return *api && *k ? root : NULL;
}

static bool detect_kubernetes(const jf_source *src, const jf_yml_docs *docs)
{
	(void)src;
	bool any = false;
	for (size_t i = 0; i < docs->size; i++) {
		const char *api, *k;
		yaml_node_t *root = yaml_document_get_root_node(&docs->items[i]);
		if (!root || jf_yml_is_null(root))
			continue; /* an empty document: `---` at the end, or two in a row */
		if (!manifest(&docs->items[i], &api, &k))
			return false;
		any = true;
	}
	return any;
}

/* The code: where the repository's Dockerfile copies the job's folder */

/* Whether local paths `a` and `b` are the same existing file or folder. */
static bool same_place(const char *a, const char *b)
{
	jf_deps_note(JF_DEP_REAL, a);
	jf_deps_note(JF_DEP_REAL, b);
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	bool same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

/*
 * Whether the files that COPY `o` puts at or above container folder `dest`
 * are those of local folder `local` that appears there: what it copies
 * stands at the same place under `local` (`COPY requirements.txt .` beside
 * `COPY . .`). A COPY of other files, or of files jobfix cannot place, there
 * makes the folder's content unknown.
 */
static bool copy_agrees(const jf_docker_copy *o, const char *dest, const char *local)
{
	if (!o->dest)
		return false;
	if (!jf_path_under(o->dest, dest) && !jf_path_under(dest, o->dest))
		return true; /* elsewhere */
	for (size_t i = 0; i < o->sources.size; i++) {
		const char *src = o->sources.items[i];
		if (!src)
			return false;
		bool glob = strchr(src, '*') || strchr(src, '?') || strchr(src, '[');
		bool folder = !glob && jf_path_is_dir(src);
		/* the container path the source (a folder: its contents) stands for */
		char *base = glob ? jf_path_dirname(src) : jf_xstrdup(src);
		const char *slash = strrchr(src, '/');
		char *cpath = folder || glob || !o->dest_dir
		                      ? jf_xstrdup(o->dest)
		                      : jf_path_join(o->dest, slash ? slash + 1 : src);
		const char *rel = jf_path_under(cpath, dest);
		char *expect = rel ? jf_path_join(local, rel) : NULL;
		bool ok = expect && same_place(base, expect);
		free(base);
		free(cpath);
		free(expect);
		if (!ok)
			return false;
	}
	return true;
}

static char *adopt(jf_job *j, char *s)
{
	jf_arena_adopt(&j->arena, s);
	return s;
}


/* Whether image reference `ref` is the image `name` of the config: the same
 * reference, or `name` without a tag or digest and `ref` of that repository. */
static bool image_named(const char *name, const char *ref)
{
	size_t n = strlen(name);
	if (strncmp(ref, name, n))
		return false;
	const char *slash = strrchr(name, '/');
	bool tagged = strchr(slash ? slash : name, ':') || strchr(name, '@');
	return !ref[n] || (!tagged && (ref[n] == ':' || ref[n] == '@'));
}

/* The Dockerfile the config's `images:` names for the job's image. */
static const jf_image_build *configured_build(const jf_job_read *r)
{
	const char *ref = r->job->image.ref.value;
	for (size_t i = 0; ref && r->builds && i < r->builds->size; i++)
		if (image_named(r->builds->items[i].image, ref))
			return &r->builds->items[i];
	return NULL;
}

/* The command of units waiting for the image's ENTRYPOINT, from the
 * Dockerfile `df` (of source `dsrc`): its ENTRYPOINT (exec form) and the
 * container's args, else its CMD. Without an ENTRYPOINT, the base image's
 * (unknown) runs; base images' entrypoints pass their arguments on, so a CMD
 * or args that start with a program are taken as the command. */
static void put_entrypoint(jf_job_read *r, const jf_dockerfile *df, const jf_source *dsrc)
{
	jf_job *j = r->job;
	const char *why = NULL;
	for (size_t i = 0; i < j->command.size; i++) {
		jf_cmd_unit *u = &j->command.items[i];
		if (!u->to_entrypoint)
			continue;
		if (df->entrypoint_set && df->entrypoint_shell) {
			why = "the Dockerfile's ENTRYPOINT is in shell form, which jobfix does not follow";
			continue;
		}
		const jf_docker_words *cmd = u->argv.size ? NULL : &df->cmd;
		if (cmd && (!df->cmd_set || df->cmd_shell)) {
			if (!df->entrypoint_set || !df->entrypoint.size) {
				why = df->cmd_set ? "the Dockerfile's CMD is in shell form, which jobfix does "
				                    "not follow"
				                  : "the Dockerfile sets no ENTRYPOINT and no CMD";
				continue;
			}
			cmd = NULL; /* the ENTRYPOINT alone */
		}
		const char *first = df->entrypoint_set && df->entrypoint.size ? df->entrypoint.items[0].value
		                    : cmd && cmd->size                          ? cmd->items[0].value
		                    : u->argv.size                              ? u->argv.items[0].value
		                                                                : NULL;
		if (!df->entrypoint_set && (!first || !is_program(first))) {
			why = "the Dockerfile sets no ENTRYPOINT: its base image's runs, which is not known";
			continue;
		}
		JF_ARRAY(jf_field) argv = { 0 };
		for (size_t k = 0; df->entrypoint_set && k < df->entrypoint.size; k++)
			jf_array_push(&argv, jf_dockerfile_field(r, dsrc, df->entrypoint.items[k].value,
			                                  df->entrypoint.items[k].at));
		for (size_t k = 0; cmd && k < cmd->size; k++)
			jf_array_push(&argv, jf_dockerfile_field(r, dsrc, cmd->items[k].value, cmd->items[k].at));
		for (size_t k = 0; k < u->argv.size; k++)
			jf_array_push(&argv, u->argv.items[k]);
		jf_array_release(&u->argv);
		u->argv.items = argv.items;
		u->argv.size = argv.size;
		u->argv.cap = argv.cap;
		u->to_entrypoint = !u->argv.size;
		if (!u->argv.size)
			why = "the Dockerfile's ENTRYPOINT and CMD are empty";
	}
	if (why)
		drop_entrypoint_units(r, why);
}

/* The texts of the job's command, for jf_job__pick_place(): a shell unit's
 * program, an argv unit's words joined by blanks. Caller frees each. */
static void command_texts(const jf_job *j, jf_strings *out)
{
	for (size_t i = 0; i < j->command.size; i++) {
		const jf_cmd_unit *u = &j->command.items[i];
		jf_buf b = JF_BUF_INIT;
		if (u->kind == JF_CMD_ARGV) {
			for (size_t k = 0; k < u->argv.size; k++)
				if (u->argv.items[k].value)
					jf_buf_addf(&b, "%s%s", b.len ? " " : "", u->argv.items[k].value);
		} else if (u->copy) {
			jf_buf_add(&b, u->copy->data, u->copy->len);
		} else {
			const jf_source *s = u->src ? u->src : j->file;
			for (size_t k = 0; k < u->ranges.size; k++) {
				jf_span sp = u->ranges.items[k];
				if (sp.end <= s->len && sp.start <= sp.end)
					jf_buf_add(&b, s->data + sp.start, sp.end - sp.start);
				jf_buf_addc(&b, '\n');
			}
		}
		jf_array_push(out, jf_buf_detach(&b, NULL));
	}
}

/*
 * `texts` as jf_job__pick_place() reads them, for a job that runs in
 * container folder `cwd`: the words, with a script's absolute path under
 * `cwd` made relative to it (`python /app/train.py` in /app names train.py),
 * and the ENTRYPOINT and CMD of `df` (exec form) as one more text.
 */
static void relative_texts(const jf_strings *texts, const jf_dockerfile *df, const char *cwd,
                           jf_strings *out)
{
	jf_buf ep = JF_BUF_INIT;
	for (size_t i = 0; i < df->entrypoint.size; i++)
		if (df->entrypoint.items[i].value)
			jf_buf_addf(&ep, "%s ", df->entrypoint.items[i].value);
	for (size_t i = 0; i < df->cmd.size; i++)
		if (df->cmd.items[i].value)
			jf_buf_addf(&ep, "%s ", df->cmd.items[i].value);
	for (size_t t = 0; t <= texts->size; t++) {
		const char *s = t < texts->size ? texts->items[t] : ep.buf;
		jf_buf b = JF_BUF_INIT;
		for (const char *p = s; *p;) {
			size_t sep = strspn(p, " \t\r\n;|&()<>\"'`=,");
			jf_buf_add(&b, p, sep);
			p += sep;
			size_t n = strcspn(p, " \t\r\n;|&()<>\"'`=,");
			char *w = jf_xstrndup(p, n);
			const char *rel = w[0] == '/' && cwd ? jf_path_under(w, cwd) : NULL;
			jf_buf_adds(&b, rel && *rel ? rel : w);
			free(w);
			p += n;
		}
		jf_array_push(out, jf_buf_detach(&b, NULL));
	}
	jf_buf_release(&ep);
}

/* The COPY of a local folder that fills container folder `cwd` (at or
 * above it, not `/`), the last one, or NULL. */
static const jf_docker_copy *code_copy(const jf_dockerfile *df, const char *cwd)
{
	for (size_t i = df->copies.size; cwd && i-- > 0;)
		if (df->copies.items[i].folder && strcmp(df->copies.items[i].folder_dest, "/") &&
		    jf_path_under(cwd, df->copies.items[i].folder_dest))
			return &df->copies.items[i];
	return NULL;
}

/* Whether every source the COPYs of `df` name as written (not globs, other
 * stages' files or URLs) is in folder `dir`. */
static bool sources_in(const jf_dockerfile *df, const char *dir)
{
	for (size_t i = 0; i < df->copies.size; i++)
		for (size_t k = 0; k < df->copies.items[i].written.size; k++) {
			const char *w = df->copies.items[i].written.items[k];
			if (!w || strpbrk(w, "*?["))
				continue;
			char *p = jf_path_join(dir, w);
			bool there = jf_path_is_dir(p) || jf_path_is_file(p);
			free(p);
			if (!there)
				return false;
		}
	return true;
}

static bool same_dir(const char *a, const char *b)
{
	char *x = jf_path_normalize(*a ? a : "."), *y = jf_path_normalize(*b ? b : ".");
	bool same = !strcmp(*x ? x : ".", *y ? y : ".");
	free(x);
	free(y);
	return same;
}

/*
 * The build context of the Dockerfile `file` when the config does not name
 * one: `docker build` takes the folder it runs in, which the repository does
 * not write down. The candidates are its top (the default: `docker build -f
 * docker/Dockerfile .`) and each folder below it down to the Dockerfile's
 * own; one qualifies when it holds every source the COPYs name (the build
 * fails otherwise); of those, the one whose code folder (the COPY that fills
 * the working folder) holds the scripts the command names, else the first.
 * Into *out and *why (static); false when two hold different scripts.
 */
static bool pick_context(jf_job_read *r, const jf_job_place *file, const jf_job_place *repo,
                         jf_job_place *out, const char **why)
{
	jf_job *j = r->job;
	char *dfdir = jf_path_dirname(file->dir), *dfshown = jf_path_dirname(file->display);
	jf_arena_adopt(&j->arena, dfdir);
	jf_arena_adopt(&j->arena, dfshown);
	jf_job_place cands[16], ups[16];
	size_t n = 0, m = repo ? jf_job__places(r, ".", ups, 16) : 0, at = m;
	for (size_t i = 0; i < m && at == m; i++)
		if (same_dir(ups[i].dir, dfdir))
			at = i;
	for (size_t i = m; at < m && i-- > at;)
		cands[n++] = ups[i]; /* the top first, the Dockerfile's folder last */
	if (!n)
		cands[n++] = (jf_job_place){ dfdir, dfshown };
	*out = cands[0];
	*why = repo && n > 1 ? "the repository's top, where `docker build -f` runs by default"
	       : repo        ? "the repository's top, the Dockerfile's folder"
	                     : "the Dockerfile's folder";
	if (n == 1)
		return true;
	/* The code folder each candidate gives, among those that hold the sources. */
	jf_job_place codes[16];
	size_t of[16], k = 0;
	bool strict = true; /* the candidates hold what the build reads */
	jf_strings texts = { 0 }, command = { 0 };
	command_texts(j, &command);
	for (int pass = 0; pass < 2 && !k; pass++)
		for (size_t c = 0; c < n; c++) {
			jf_dockerfile df;
			if (jf_dockerfile_read(file->dir, file->display, cands[c].dir, &df) &&
			    (pass || (!df.unfound && sources_in(&df, cands[c].dir)))) {
				const char *cwd = j->workdir.value ? j->workdir.value : df.workdir;
				const jf_docker_copy *copy = code_copy(&df, cwd);
				if (!texts.size)
					relative_texts(&command, &df, cwd, &texts);
				if (copy) {
					char *rel = jf_path_join(copy->folder, jf_path_under(cwd, copy->folder_dest));
					codes[k] = (jf_job_place){ jf_path_join(cands[c].dir, rel),
						                   jf_path_join(cands[c].display, rel) };
					jf_arena_adopt(&j->arena, codes[k].dir);
					jf_arena_adopt(&j->arena, codes[k].display);
					of[k++] = c;
					strict = !pass;
					free(rel);
				}
			}
			jf_dockerfile_release(&df);
		}
	jf_strings_release(&command);
	if (!k) {
		jf_strings_release(&texts);
		return true;
	}
	jf_job_place code;
	jf_place_outcome how = jf_job__pick_place(codes, k, (const char *const *)texts.items,
	                                          texts.size, &code);
	jf_strings_release(&texts);
	size_t best = 0;
	for (size_t i = 0; i < k; i++)
		if (codes[i].dir == code.dir)
			best = i;
	size_t chosen = of[how == JF_PLACE_FOUND ? best : 0];
	*out = cands[chosen];
	if (!chosen)
		*why = strict ? "the repository's top, where `docker build -f` runs by default"
		           : "the repository's top, where `docker build -f` runs by default (no folder "
		             "holds every file its COPYs and RUNs read)";
	else if (how == JF_PLACE_FOUND)
		*why = "the folder that holds the scripts the job runs";
	else
		*why = "the folder nearest the repository's top that holds every file its COPYs and "
		       "RUNs read";
	return how != JF_PLACE_BOTH;
}

static void find_code_in_image(jf_job_read *r)
{
	jf_job *j = r->job;
	if (!j->command.size)
		return;
	if (!j->image.ref.value) {
		jf_job__unknown(r, JF_JOB_CODE, "the job's image is not known: where its code is in it "
		                                "is not known, and its scripts are not checked");
		return;
	}
	const char *image = j->image.ref.value;
	jf_job_place file, repo;
	const jf_image_build *configured = configured_build(r);
	const char *why = "the nearest Dockerfile above the job file";
	if (configured) {
		file.dir = configured->path;
		file.display = configured->shown;
		why = "the config's `images:`";
	} else if (!jf_job__nearest_file(r, "Dockerfile", &file)) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "the job's code is inside image %s, and no Dockerfile in the job file's folder "
		                "or above it says where: its scripts are not checked",
		                image);
		return;
	}
	/* The build context: the config's, else the repository's top or a folder
	 * below it down to the Dockerfile's. */
	bool in_repo = jf_job__repo_top(r, &repo);
	const char *fs = file.dir, *shown = file.display;
	jf_dockerfile df = { 0 };
	jf_job_place ctx;
	const char *ctx_why = "the config's";
	if (configured) {
		ctx = (jf_job_place){ configured->context, configured->context_shown };
	} else if (!pick_context(r, &file, in_repo ? &repo : NULL, &ctx, &ctx_why)) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "the job's scripts are in the folders %s copies from two build contexts "
		                "of the repository: which one `docker build` runs in is not known, and "
		                "the scripts are not checked",
		                shown);
		return;
	}
	char *context = jf_xstrdup(ctx.dir), *context_shown = jf_xstrdup(ctx.display);
	if (!jf_dockerfile_read(fs, shown, context, &df)) {
		jf_job__unknown(r, JF_JOB_CODE, "%s is not read (%s): the job's scripts are not checked",
		                shown, jf_dockerfile_why(&df));
		goto done;
	}
	if (df.from && j->image.ref.value && !strcmp(df.from, j->image.ref.value)) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "the job runs %s, the base image of %s, not the image it builds: the job's "
		                "scripts are not checked",
		                image, shown);
		goto done;
	}
	/* The Dockerfile's source stays with the job: values point into it. */
	const jf_source *dsrc = jf_dockerfile_keep(r, &df);
	put_entrypoint(r, &df, dsrc);
	for (size_t i = 0; i < df.env.size; i++) {
		const char *e = df.env.items[i].value;
		const char *eq = strchr(e, '=');
		char *name = eq ? jf_xstrndup(e, (size_t)(eq - e)) : jf_xstrdup(e);
		if (!jf_job_env(j, name)) {
			jf_job_var v = { jf_dockerfile_field(r, dsrc, name, df.env.items[i].at),
				         jf_dockerfile_field(r, dsrc, eq ? eq + 1 : NULL, df.env.items[i].at) };
			jf_array_push(&j->env, v);
		}
		free(name);
	}
	if (!j->image.user.value && df.user.value)
		j->image.user = jf_dockerfile_field(r, dsrc, df.user.value, df.user.at);
	if (!j->workdir.value && df.workdir)
		j->workdir = jf_dockerfile_field(r, dsrc, df.workdir, df.workdir_at);
	const char *cwd = j->workdir.value;
	const jf_docker_copy *copy = code_copy(&df, cwd);
	/* Other COPYs and RUNs that put files where the code is. */
	const jf_docker_copy *other = NULL;
	const jf_docker_run *run = NULL;
	char *local = NULL;
	if (copy) {
		local = jf_path_join(*context ? context : ".", copy->folder);
		for (size_t i = 0; i < df.copies.size && !other; i++)
			if (&df.copies.items[i] != copy &&
			    !copy_agrees(&df.copies.items[i], copy->folder_dest, local))
				other = &df.copies.items[i];
		for (size_t i = 0; i < df.runs.size && !run; i++) {
			const jf_docker_run *x = &df.runs.items[i];
			if ((x->cwd && (jf_path_under(x->cwd, copy->folder_dest) ||
			                jf_path_under(copy->folder_dest, x->cwd))) ||
			    strstr(x->text, copy->folder_dest))
				run = x;
		}
	}
	const jf_job_mount *hides = NULL;
	for (size_t i = 0; cwd && i < j->inputs.size + j->outputs.size && !hides; i++) {
		const jf_job_mount *m = i < j->inputs.size ? &j->inputs.items[i]
		                                           : &j->outputs.items[i - j->inputs.size];
		if (jf_path_under(cwd, m->path.value))
			hides = m;
	}
	if (!cwd) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "the job's working folder is not known (no workingDir, and %s sets no "
		                "WORKDIR): its scripts are not checked",
		                shown);
	} else if (!copy) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "%s copies no folder of the code to %s, where the job runs: its scripts are not "
		                "checked",
		                shown, cwd);
	} else if (other) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "%s also copies other files to %s, where the job's code is: its scripts are "
		                "not checked",
		                shown, copy->folder_dest);
	} else if (run) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "a RUN of %s may create files in %s, where the job's code is: its scripts are "
		                "not checked",
		                shown, copy->folder_dest);
	} else if (hides) {
		jf_job__unknown(r, JF_JOB_CODE,
		                "volume '%s' is mounted over %s: the job's scripts are not checked",
		                hides->name.value, cwd);
	} else {
		char *rel = jf_path_join(copy->folder, jf_path_under(cwd, copy->folder_dest));
		j->code_dir = adopt(j, jf_path_join(*context ? context : ".", rel));
		j->code_display = adopt(j, jf_path_join(context_shown, rel));
		if (!*j->code_display)
			j->code_display = jf_job__copy(r, ".");
		j->code = jf_dockerfile_field(r, dsrc, copy->folder, copy->at);
		/* The Dockerfile that puts the code in the image builds the image. */
		jf_dockerfile_build_image(r, &df, dsrc);
		jf_job__assume(r, JF_JOB_CODE,
		               "image %s taken as built by %s (%s) with build context '%s' (%s): its COPY "
		               "puts '%s' at %s, where the job runs",
		               image, shown, why, *context_shown ? context_shown : ".", ctx_why,
		               j->code_display, cwd);
		free(rel);
	}
	free(local);
done:
	free(context);
	free(context_shown);
	jf_dockerfile_release(&df);
}

/* Where the job's code is in its image, and the command of a container
 * that leaves it to the image. */
static void find_code(jf_job_read *r)
{
	find_code_in_image(r);
	drop_entrypoint_units(r, "no Dockerfile of the repository says what it is");
}

static void read_kubernetes(jf_job_read *r)
{
	jf_job *j = r->job;
	size_t jobs = 0, first = 0;
	yaml_node_t *root = NULL;
	const char *api = NULL, *k = NULL;
	for (size_t i = 0; i < r->docs->size; i++) {
		const char *a, *kk;
		yaml_node_t *m = manifest(&r->docs->items[i], &a, &kk);
		if (!m || kind_of(a, kk) == KIND_NONE)
			continue;
		if (!jobs++) {
			first = i;
			root = m;
			api = a;
			k = kk;
		}
	}
	if (!root) {
		jf_job__unknown(r, JF_JOB_DOCUMENT,
		                "%s holds no Job, CronJob, Pod or Kubeflow training job: nothing to check",
		                r->src->path);
		return;
	}
	if (jobs > 1)
		jf_job__unknown(r, JF_JOB_DOCUMENT, "%s holds %zu jobs: only the first, a %s, is checked",
		                r->src->path, jobs, k);
	r->doc = &r->docs->items[first];
	j->platform = (jf_field){ jf_job__copy(r, "kubernetes"), { NULL, { 0, 0 } } };
	yaml_node_t *name = jf_k8s__get(r, jf_k8s__get(r, root, "metadata"), "name");
	if (name && jf_yml_scalar(name))
		j->name = (jf_field){ jf_job__copy(r, jf_yml_scalar(name)), jf_job__loc(r, name) };

	yaml_node_t *spec, *t;
	switch (kind_of(api, k)) {
	case KIND_JOB:
		if ((spec = need_map(r, root, "", "spec")) &&
		    (t = need_map(r, spec, "spec", "template")))
			jf_k8s__read_template(r, t, "spec.template", NULL, false);
		break;
	case KIND_CRONJOB:
		if ((spec = need_map(r, root, "", "spec")) &&
		    (t = need_map(r, spec, "spec", "jobTemplate")) &&
		    (t = need_map(r, t, "spec.jobTemplate", "spec")) &&
		    (t = need_map(r, t, "spec.jobTemplate.spec", "template")))
			jf_k8s__read_template(r, t, "spec.jobTemplate.spec.template", NULL, false);
		break;
	case KIND_POD:
		/* a Pod is its own template: metadata and spec */
		jf_k8s__read_template(r, root, "", NULL, false);
		break;
	case KIND_KUBEFLOW:
		jf_kubeflow__read(r, root, api, k);
		break;
	case KIND_NONE:
		break;
	}
	find_code(r);
}

/* Whether the line at `p` (of `n` bytes left) is `kind: K` for a job kind. */
static bool job_kind_line(const char *p, size_t n)
{
	static const char *const job_kinds[] = { "Job", "CronJob", "Pod", "PyTorchJob", "TFJob",
		                                 "MPIJob", "XGBoostJob", "PaddleJob", "JAXJob",
		                                 "TrainJob", NULL };
	if (n < 5 || memcmp(p, "kind:", 5))
		return false;
	size_t i = 5;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '"' || p[i] == '\''))
		i++;
	size_t a = i;
	while (i < n && ((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z')))
		i++;
	if (i < n && !strchr(" \t\r\n\"'#", p[i]))
		return false;
	return jf_strn_in(p + a, i - a, job_kinds);
}

/* A line `apiVersion: ...` and a line `kind: K` of a job kind, at the start of lines. */
static bool sniff_kubernetes(const char *text, size_t len)
{
	bool api = false, k = false;
	for (size_t i = 0; i < len; i++) {
		if (i && text[i - 1] != '\n')
			continue;
		if (len - i > 11 && !memcmp(text + i, "apiVersion:", 11))
			api = true;
		else
			k |= job_kind_line(text + i, len - i);
	}
	return api && k;
}

const jf_job_reader jf_job_kubernetes_reader = { "kubernetes", true, sniff_kubernetes,
	                                          detect_kubernetes, read_kubernetes };

/* Templates of manifests (Helm, Go templates, Jinja): `{{ ... }}` that
 * make the text no YAML at all. What runs is the rendered manifest
 * (`helm template`), so the template is left alone, not reported as YAML
 * errors. A template that is still YAML is read as a manifest. */

static bool detect_template(const jf_source *src, const jf_yml_docs *docs)
{
	(void)docs;
	if (!strstr(src->data, "{{") || !sniff_kubernetes(src->data, src->len))
		return false;
	jf_yml_docs all;
	jf_yml_error err;
	if (jf_yml_load_all(src, &all, &err)) {
		jf_yml_docs_release(&all);
		return false;
	}
	return true;
}

static void read_template(jf_job_read *r)
{
	jf_job__unknown(r, JF_JOB_YAML,
	                "%s is a template of a manifest ({{ }}), not YAML: lint the manifest it renders "
	                "(helm template)",
	                r->src->path);
}

const jf_job_reader jf_job_kubernetes_template_reader = { "kubernetes", false, NULL,
	                                                   detect_template, read_template };
