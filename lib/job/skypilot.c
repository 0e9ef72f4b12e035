/* skypilot.c - SkyPilot task YAML (docs.skypilot.co, reference/yaml-spec)
 *
 * A task is a mapping with a `run` script and the fields SkyPilot knows:
 * `setup` then `run`, each a bash script of its own started in `workdir`
 * (synced to ~/sky_workdir), `envs` and `secrets`, `file_mounts`,
 * `resources` (accelerators, image_id) and `num_nodes`. A pipeline is tasks
 * separated by `---`, after an optional header with the pipeline's name: the
 * first task is read.
 *
 * The task runs on a VM, or in the docker image `resources.image_id:
 * docker:<image>` names. Its home folder depends on the cloud (ubuntu,
 * gcpuser, sky, root in a container...), so no absolute path of the task can
 * be placed: the code gets no container path (JF_CODE_ROOT), relative paths
 * resolve in it. A relative `workdir` is relative to the folder `sky launch`
 * runs in, which the file does not say: the task's folder or one above it up
 * to its repository's top, whichever holds the scripts the commands name
 * (place.c).
 * SkyPilot's schema is large and grows: only the fields read here are
 * checked, and unknown keys are not reported.
 */
#include "core/path.h"
#include "job/place.h"

/* The keys of a task besides `run`: one of them makes a mapping with `run` a task. */
static const char *const task_keys[] = { "setup", "resources", "num_nodes", "workdir",
	                                 "file_mounts", "envs", "name", NULL };

static bool is_task(const yaml_document_t *doc)
{
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)doc);
	if (!root || root->type != YAML_MAPPING_NODE)
		return false;
	yaml_node_t *run = jf_yml_get(doc, root, "run");
	if (!run || run->type != YAML_SCALAR_NODE || jf_yml_is_null(run))
		return false;
	/* jobfix's own spec; a GitHub workflow, a Kubernetes object. */
	if ((jf_yml_get(doc, root, "image") && jf_yml_get(doc, root, "command")) || jf_yml_get(doc, root, "jobs") ||
	    jf_yml_get(doc, root, "apiVersion") || jf_yml_get(doc, root, "kind"))
		return false;
	for (size_t i = 0; task_keys[i]; i++)
		if (jf_yml_get(doc, root, task_keys[i]))
			return true;
	return false;
}

/* Whether a document is the header of a pipeline or a job group (`name`,
 * `execution: parallel`, ...): a mapping with a name and no command or resources. */
static bool is_header(const yaml_document_t *doc)
{
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)doc);
	return root && root->type == YAML_MAPPING_NODE && jf_yml_get(doc, root, "name") &&
	       !jf_yml_get(doc, root, "run") && !jf_yml_get(doc, root, "setup") &&
	       !jf_yml_get(doc, root, "resources") && !jf_yml_get(doc, root, "kind");
}

/* The index of the task to read: the first document, or the one after a header. */
static long task_index(const jf_yml_docs *docs)
{
	if (!docs->size)
		return -1;
	if (is_task(&docs->items[0]))
		return 0;
	if (docs->size > 1 && is_header(&docs->items[0]) && is_task(&docs->items[1]))
		return 1;
	return -1;
}

static bool sniff_skypilot(const char *text, size_t len)
{
	/* `run:` at the start of a line, with a key of a task beside it; not a script
	 * (#!) that writes a task in a heredoc. */
	if (len >= 2 && !memcmp(text, "#!", 2))
		return false;
	bool run = false, other = false;
	for (size_t i = 0; i < len; i++) {
		if (i && text[i - 1] != '\n')
			continue;
		size_t rest = len - i;
		run |= rest >= 4 && !memcmp(text + i, "run:", 4);
		for (size_t k = 0; task_keys[k]; k++) {
			size_t n = strlen(task_keys[k]);
			other |= rest > n && !memcmp(text + i, task_keys[k], n) && text[i + n] == ':';
		}
		if (rest >= 8 && (!memcmp(text + i, "command:", 8) || !memcmp(text + i, "apiVersi", 8)))
			return false;
	}
	return run && other;
}

static bool detect_skypilot(const jf_source *src, const jf_yml_docs *docs)
{
	(void)src;
	return docs && task_index(docs) >= 0;
}

/* Fields */

/* null, or the empty placeholder '': given with --env or --secret at launch,
 * to a value not known here; a secret's value is never taken. */
static const char *env_value(const yaml_node_t *v, void *secret)
{
	const char *s = jf_yml_scalar(v);
	return !*(bool *)secret && !jf_yml_is_null(v) && *s ? s : NULL;
}

static void read_vars(jf_job_read *r, yaml_node_t *n, const char *key, bool secret)
{
	if (!jf_yml_is_null(n))
		jf_job__env_map(r, n, key, env_value, &secret);
}

static void read_script(jf_job_read *r, yaml_node_t *n, const char *key)
{
	if (jf_yml_is_null(n))
		return;
	if (n->type != YAML_SCALAR_NODE) {
		jf_job__wrong_type(r, n, key, "a shell script");
		return;
	}
	jf_job__shell_unit(r, n);
	jf_array_last(&r->job->command)->own_shell = true;
}

/* `A100:8`, `A100`, `{A100: 8}`: the count, or -1 when not a whole number of GPUs. */
static long gpus_of(const char *name, const char *count)
{
	if (jf_str_starts(name, "tpu") || jf_str_starts(name, "Inferentia") ||
	    jf_str_starts(name, "Trainium"))
		return -1; /* not CUDA devices */
	const char *colon = count ? NULL : strrchr(name, ':');
	const char *c = count ? count : colon ? colon + 1 : "1";
	char *end = NULL;
	long v = strtol(c, &end, 10);
	return *c && !*end && v >= 0 ? v : -1; /* fractions share a GPU */
}

/* resources.accelerators: one kind, or a list or set of choices; -1 unless all agree. */
static long read_accelerators(jf_job_read *r, yaml_node_t *n)
{
	long gpus = -2; /* none seen yet */
	if (n->type == YAML_SCALAR_NODE) {
		gpus = jf_yml_is_null(n) ? -1 : gpus_of(jf_yml_scalar(n), NULL);
	} else if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
		     p++) {
			yaml_node_t *k = jf_job__node(r, p->key), *v = jf_job__node(r, p->value);
			const char *name = jf_yml_scalar(k);
			long g = -1;
			if (name && v->type == YAML_SCALAR_NODE)
				g = jf_yml_is_null(v) ? gpus_of(name, NULL) : gpus_of(name, jf_yml_scalar(v));
			gpus = gpus == -2 || gpus == g ? g : -1;
		}
	} else if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
		     i++) {
			const char *s = jf_yml_scalar(jf_job__node(r, *i));
			long g = s ? gpus_of(s, NULL) : -1;
			gpus = gpus == -2 || gpus == g ? g : -1;
		}
	}
	return gpus < 0 ? -1 : gpus;
}

/* Where the first `len` bytes of scalar `n`'s value stand in the file: its
 * own bytes when it is plain or quoted on one line, else the whole value. */
static jf_loc head_loc(jf_job_read *r, const yaml_node_t *n, size_t len)
{
	jf_loc at = jf_job__loc(r, n);
	yaml_scalar_style_t style = n->data.scalar.style;
	bool quoted = style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	              style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	uint32_t a = at.span.start + (quoted ? 1 : 0);
	if ((quoted || style == YAML_PLAIN_SCALAR_STYLE) && a + len <= at.span.end &&
	    !memcmp(r->src->data + a, n->data.scalar.value, len))
		at.span = (jf_span){ a, a + (uint32_t)len };
	return at;
}

/* An accelerator written `A100:8` or `A100` (scalar `n`), or as key `n` of `{A100: 8}`
 * with count node `count` (NULL when there is none). */
static void add_accel(jf_job_read *r, yaml_node_t *n, yaml_node_t *count)
{
	const char *text = jf_yml_scalar(n);
	if (!text || jf_yml_is_null(n))
		return;
	if (count && jf_yml_is_null(count))
		count = NULL; /* `{A100:8, H100:8}`: keys without values */
	const char *c = count ? jf_yml_scalar(count) : NULL;
	if (count && !c)
		return; /* a count that is a list or mapping: not an accelerator jobfix reads */
	const char *colon = count ? NULL : strrchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	char *name = jf_xstrndup(text, len);
	jf_loc at = count ? (jf_loc){ r->src, { jf_job__loc(r, n).span.start,
		                                jf_job__loc(r, count).span.end } }
	                  : jf_job__loc(r, n);
	jf_job__accel(r, name, head_loc(r, n, len), JF_ACCEL_SKYPILOT, gpus_of(text, c), at);
	free(name);
}

/* The accelerators of `accelerators` node `n` (one kind, or a list or set of
 * choices); whether they are choices. */
static bool add_accels(jf_job_read *r, yaml_node_t *n)
{
	size_t before = r->job->accels.size;
	if (n->type == YAML_SCALAR_NODE) {
		add_accel(r, n, NULL);
	} else if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
		     p++)
			add_accel(r, jf_job__node(r, p->key), jf_job__node(r, p->value));
	} else if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
		     i++) {
			yaml_node_t *item = jf_job__node(r, *i);
			if (item->type == YAML_SCALAR_NODE)
				add_accel(r, item, NULL);
		}
	}
	return r->job->accels.size - before > 1;
}

/* The accelerators a resources mapping `n` (the task's, or a choice of
 * any_of/ordered) asks for: `accelerators` and `instance_type`. */
static bool add_resource_accels(jf_job_read *r, yaml_node_t *n)
{
	bool any = false;
	yaml_node_t *acc = jf_yml_get(r->doc, n, "accelerators");
	if (acc)
		any = add_accels(r, acc);
	yaml_node_t *it = jf_yml_get(r->doc, n, "instance_type");
	const char *s = it ? jf_yml_scalar(it) : NULL;
	if (s && *s && !jf_yml_is_null(it) && !strchr(s, '$'))
		jf_job__accel(r, s, jf_job__loc(r, it), JF_ACCEL_INSTANCE, -1, jf_job__loc(r, it));
	return any;
}

static void read_resources(jf_job_read *r, yaml_node_t *n)
{
	jf_job *j = r->job;
	j->resources = jf_job__loc(r, n);
	if (jf_yml_is_null(n))
		return;
	if (n->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, n, "resources", "a mapping");
		return;
	}
	const yaml_document_t *doc = r->doc;
	/* Choices of resources (any_of, ordered) that name accelerators or an image:
	 * which one is launched is not known. */
	bool choices = false;
	const char *lists[] = { "any_of", "ordered" };
	for (int l = 0; l < 2; l++) {
		yaml_node_t *list = jf_yml_get(doc, n, lists[l]);
		if (!list)
			continue;
		if (list->type != YAML_SEQUENCE_NODE) {
			choices = true;
			continue;
		}
		for (yaml_node_item_t *i = list->data.sequence.items.start;
		     i < list->data.sequence.items.top; i++) {
			yaml_node_t *c = jf_job__node(r, *i);
			choices |= c->type != YAML_MAPPING_NODE || jf_yml_get(doc, c, "accelerators") ||
			           jf_yml_get(doc, c, "image_id");
		}
	}
	yaml_node_t *acc = jf_yml_get(doc, n, "accelerators");
	if (acc && !choices)
		j->gpus = read_accelerators(r, acc);
	j->accels_any = add_resource_accels(r, n);
	for (int l = 0; l < 2; l++) {
		yaml_node_t *list = jf_yml_get(doc, n, lists[l]);
		if (!list || list->type != YAML_SEQUENCE_NODE)
			continue;
		for (yaml_node_item_t *i = list->data.sequence.items.start;
		     i < list->data.sequence.items.top; i++) {
			yaml_node_t *c = jf_job__node(r, *i);
			size_t before = j->accels.size;
			if (c->type == YAML_MAPPING_NODE)
				add_resource_accels(r, c);
			j->accels_any |= j->accels.size > before;
		}
	}
	yaml_node_t *img = jf_yml_get(doc, n, "image_id");
	const char *s = img ? jf_yml_scalar(img) : NULL;
	if (s && jf_str_starts(s, "docker:") && s[7] && !strchr(s, '$') && !choices) {
		j->image.present = true;
		j->image.at = jf_job__loc(r, img);
		j->image.ref = (jf_field){ jf_job__copy(r, s + 7), j->image.at };
	}
}

/* A mount's storage `config.mount` or `config.mount_cached` with `read_only`. */
static int read_only_of(jf_job_read *r, yaml_node_t *m)
{
	yaml_node_t *config = jf_yml_get(r->doc, m, "config");
	const char *sections[] = { "mount", "mount_cached" };
	for (int i = 0; i < 2; i++) {
		const char *ro = jf_yml_scalar(jf_yml_get(r->doc, jf_yml_get(r->doc, config, sections[i]),
		                                      "read_only"));
		if (ro)
			return !strcmp(ro, "true") || !strcmp(ro, "True");
	}
	return -1;
}

/*
 * file_mounts: `<dst>: <local path or bucket URL>` or `<dst>: {source | name, mode, ...}`.
 * All of them are writable (a MOUNT'ed bucket takes most writes, a COPY or a
 * local folder is a local copy), except what the storage docs call read-only:
 * `config.mount(_cached).read_only: true`, and the MOUNT_CACHED presets
 * `type: MODEL_CHECKPOINT_RO` and `DATASET_RO` (sky/data/storage.py).
 * Destinations that are not absolute (~/..., relative to the home folder)
 * have no place jobfix can name: they are not kept.
 */
static void read_file_mounts(jf_job_read *r, yaml_node_t *n)
{
	if (jf_yml_is_null(n))
		return;
	if (n->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, n, "file_mounts", "a mapping of remote paths to sources");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = jf_job__node(r, p->key), *v = jf_job__node(r, p->value);
		const char *dst = jf_yml_scalar(k);
		if (!dst || dst[0] != '/' || strchr(dst, '$'))
			continue;
		jf_job_mount m = { .path = { jf_job__copy(r, dst), jf_job__loc(r, k) } };
		bool ro = false;
		if (v->type == YAML_MAPPING_NODE) {
			yaml_node_t *src = jf_yml_get(r->doc, v, "source");
			if (!src)
				src = jf_yml_get(r->doc, v, "name");
			if (!src) {
				jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, v),
				            "file_mounts '%s' has neither 'source' nor 'name'", dst);
				continue;
			}
			const char *s = src ? jf_yml_scalar(src) : NULL;
			m.name = (jf_field){ jf_job__copy(r, s ? s : dst), jf_job__loc(r, src ? src : k) };
			const char *type = jf_yml_scalar(jf_yml_get(r->doc, v, "type"));
			int explicit_ro = read_only_of(r, v);
			ro = explicit_ro >= 0 ? explicit_ro
			                      : type && (!strcmp(type, "MODEL_CHECKPOINT_RO") ||
			                                 !strcmp(type, "DATASET_RO"));
		} else if (jf_yml_scalar(v) && !jf_yml_is_null(v)) {
			m.name = (jf_field){ jf_job__copy(r, jf_yml_scalar(v)), jf_job__loc(r, v) };
		} else {
			jf_job__wrong_type(r, v, dst, "a source path, a bucket URL or a storage mapping");
			continue;
		}
		jf_array_push(ro ? &r->job->inputs : &r->job->outputs, m);
	}
}

/* The code: the local `workdir`, from the folder `sky launch` runs in. */
static void read_code(jf_job_read *r, yaml_node_t *wd, const char *const *texts, size_t ntexts)
{
	jf_job *j = r->job;
	if (!wd || jf_yml_is_null(wd)) {
		jf_job__unknown(r, JF_JOB_CODE, "the task has no workdir: its commands start in the "
		                                "home folder, where the job's code is not");
		return;
	}
	if (wd->type == YAML_MAPPING_NODE) {
		jf_job__unknown(r, JF_JOB_CODE, "the task's workdir is a git repository: its code "
		                                "is cloned at launch, not read here");
		return;
	}
	if (!jf_job__string(r, wd, "workdir", &j->code))
		return;
	const char *w = j->code.value;
	if (w[0] == '/' || w[0] == '~' || strchr(w, '$')) {
		jf_job__unknown(r, JF_JOB_CODE, "the task's workdir '%s' is a folder of the machine "
		                                "that launches it, not of this checkout", w);
		return;
	}
	jf_job_place cands[16];
	size_t n = jf_job__places(r, w, cands, 16);
	if (!n) {
		jf_job__unknown(r, JF_JOB_CODE, "the task's workdir '%s' is neither under the task's "
		                                "folder nor under a folder above it in its repository", w);
		return;
	}
	jf_job_place at;
	switch (jf_job__pick_place(cands, n, texts, ntexts, &at)) {
	case JF_PLACE_FOUND:
	case JF_PLACE_NO_SCRIPT:
		jf_job__set_code(r, &at);
		break;
	case JF_PLACE_NONE:
		jf_job__unknown(r, JF_JOB_CODE, "the scripts the task runs are neither under workdir '%s' "
		                                "from the task's folder nor from a folder above it: "
		                                "where `sky launch` runs is not known", w);
		break;
	case JF_PLACE_BOTH:
		jf_job__unknown(r, JF_JOB_CODE, "the scripts the task runs are as much under workdir "
		                                "'%s' from two folders of its repository: where `sky "
		                                "launch` runs is not known", w);
		break;
	}
}

static void read_skypilot(jf_job_read *r)
{
	jf_job *j = r->job;
	long at = task_index(r->docs);
	r->doc = &r->docs->items[at];
	if (r->docs->size > (size_t)at + 1)
		jf_job__unknown(r, JF_JOB_COMMAND, "the file is a pipeline of %zu tasks: only the first "
		                                   "is read, the scripts of the others are not followed",
		                r->docs->size - (size_t)at);
	j->platform.value = jf_job__copy(r, "skypilot");
	const yaml_document_t *doc = r->doc;
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)doc);
	yaml_node_t *n;
	if ((n = jf_yml_get(doc, root, "name")) && jf_yml_scalar(n) && !jf_yml_is_null(n))
		jf_job__string(r, n, "name", &j->name);
	if ((n = jf_yml_get(doc, root, "envs")))
		read_vars(r, n, "envs", false);
	if ((n = jf_yml_get(doc, root, "secrets")))
		read_vars(r, n, "secrets", true);
	const char *texts[2] = { NULL, NULL };
	if ((n = jf_yml_get(doc, root, "setup"))) {
		read_script(r, n, "setup");
		texts[0] = jf_yml_scalar(n);
	}
	n = jf_yml_get(doc, root, "run");
	j->has_command = true;
	read_script(r, n, "run");
	texts[1] = jf_yml_scalar(n);
	if ((n = jf_yml_get(doc, root, "num_nodes"))) {
		j->resources = jf_job__loc(r, n);
		jf_job__count(r, n, "num_nodes", &j->nodes);
	}
	if ((n = jf_yml_get(doc, root, "resources")))
		read_resources(r, n);
	if ((n = jf_yml_get(doc, root, "file_mounts")))
		read_file_mounts(r, n);
	read_code(r, jf_yml_get(doc, root, "workdir"), texts, 2);
}

const jf_job_reader jf_job_skypilot_reader = { "skypilot", true, sniff_skypilot, detect_skypilot,
	                                       read_skypilot };
