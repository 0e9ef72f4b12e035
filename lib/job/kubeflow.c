/* kubeflow.c - Kubeflow training jobs: PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob,
 * JAXJob (training operator v1, mpi-operator v2beta1) and TrainJob (Kubeflow Trainer v2)
 *
 * The v1 kinds keep a pod template per replica type; the job is the
 * primary replica's training container (Master, else Chief, else
 * Launcher, else Worker), the nodes are the training replicas and the
 * processes per node come from nprocPerNode (PyTorchJob) or slotsPerWorker
 * (MPIJob, whose GPUs are the Workers'). A TrainJob names a runtime and
 * overrides its trainer: image, command, args, env, numNodes,
 * numProcPerNode, resourcesPerNode. The operator adds variables to the
 * containers (data/platforms.yaml, kubernetes), so `$(X)` of a variable
 * the container does not list is a value known only at run time.
 */
#include "job/k8s.h"
#include "job/place.h"

typedef struct {
	const char *kind;
	const char *specs;     /* the key of the replica specs */
	const char *container; /* the container name the operator looks for, or NULL */
} kubeflow_kind;

static const kubeflow_kind kinds[] = {
	{ "PyTorchJob", "pytorchReplicaSpecs", "pytorch" },
	{ "TFJob", "tfReplicaSpecs", "tensorflow" },
	{ "MPIJob", "mpiReplicaSpecs", NULL },
	{ "XGBoostJob", "xgbReplicaSpecs", "xgboost" },
	{ "PaddleJob", "paddleReplicaSpecs", "paddle" },
	{ "JAXJob", "jaxReplicaSpecs", "jax" },
};

static const kubeflow_kind *v1_kind(const char *api, const char *kind)
{
	if (!strcmp(api, "kubeflow.org/v1") || (!strcmp(kind, "MPIJob") && jf_str_starts(api, "kubeflow.org/")))
		for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
			if (!strcmp(kinds[i].kind, kind))
				return &kinds[i];
	return NULL;
}

static bool is_trainjob(const char *api, const char *kind)
{
	return jf_str_starts(api, "trainer.kubeflow.org/") && !strcmp(kind, "TrainJob");
}

bool jf_kubeflow__is_job(const char *api, const char *kind)
{
	return v1_kind(api, kind) || is_trainjob(api, kind);
}

/* The replicas of a replica spec: 1 when not given; -1 when not a count (JF003). */
static long replicas(jf_job_read *r, yaml_node_t *spec, const char *where)
{
	yaml_node_t *n = jf_k8s__get(r, spec, "replicas");
	long v = 1;
	if (n && !jf_job__count(r, n, where, &v))
		return -1;
	return v;
}

static void read_v1(jf_job_read *r, yaml_node_t *root, const kubeflow_kind *kk)
{
	jf_job *j = r->job;
	yaml_node_t *spec = jf_k8s__get(r, root, "spec");
	if (!spec || spec->type != YAML_MAPPING_NODE) {
		if (!spec)
			jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, root), "the %s has no 'spec'",
			            kk->kind);
		else
			jf_job__wrong_type(r, spec, "spec", "a mapping");
		return;
	}
	const char *swhere = jf_k8s__path(r, "spec", kk->specs);
	yaml_node_t *rs = jf_k8s__get(r, spec, kk->specs);
	if (!rs || rs->type != YAML_MAPPING_NODE) {
		if (!rs)
			jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, spec), "'spec' has no '%s'",
			            kk->specs);
		else
			jf_job__wrong_type(r, rs, swhere, "a mapping of replica types to replica specs");
		return;
	}
	static const char *const order[] = { "Master", "Chief", "Launcher", "Worker", NULL };
	yaml_node_t *primary = NULL;
	const char *ptype = NULL;
	for (size_t i = 0; order[i] && !primary; i++)
		if ((primary = jf_k8s__get(r, rs, order[i])))
			ptype = order[i];
	if (!primary) {
		jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, rs),
		            "'%s' has no Master, Chief, Launcher or Worker replica", swhere);
		return;
	}
	const char *pwhere = jf_k8s__path(r, swhere, ptype);
	if (primary->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, primary, pwhere, "a mapping");
		return;
	}
	yaml_node_t *t = jf_k8s__get(r, primary, "template");
	if (!t || t->type != YAML_MAPPING_NODE) {
		if (!t)
			jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, primary),
			            "'%s' has no 'template'", pwhere);
		else
			jf_job__wrong_type(r, t, jf_k8s__path(r, pwhere, "template"), "a mapping");
		return;
	}
	jf_k8s__read_template(r, t, jf_k8s__path(r, pwhere, "template"), kk->container, true);

	/* Nodes: the replicas that train (MPIJob: the Workers the launcher starts on). */
	static const char *const training[] = { "Master", "Chief", "Worker", NULL };
	long nodes = 0;
	bool known = true;
	for (size_t i = 0; training[i]; i++) {
		yaml_node_t *s = jf_k8s__get(r, rs, training[i]);
		if (!s || (!strcmp(kk->kind, "MPIJob") && strcmp(training[i], "Worker")))
			continue;
		long n = replicas(r, s, jf_k8s__path(r, jf_k8s__path(r, swhere, training[i]), "replicas"));
		if (n < 0)
			known = false;
		else
			nodes += n;
	}
	if (known && nodes > 0)
		j->nodes = nodes;

	/* GPU node selectors written on the Workers only: theirs (the primary's otherwise). */
	yaml_node_t *worker = jf_k8s__get(r, rs, "Worker");
	if (!j->accels.size && worker && strcmp(ptype, "Worker") && strcmp(kk->kind, "MPIJob")) {
		yaml_node_t *wt = jf_k8s__get(r, worker, "template");
		jf_k8s__read_accels(r, jf_k8s__get(r, wt, "spec"),
		                    jf_k8s__template_gpus(r, wt, kk->container));
	}

	if (!strcmp(kk->kind, "MPIJob")) {
		/* The launcher runs mpirun; the processes run on the Workers' GPUs. */
		yaml_node_t *w = jf_k8s__get(r, rs, "Worker");
		if (w && strcmp(ptype, "Worker")) {
			long g = jf_k8s__template_gpus(r, jf_k8s__get(r, w, "template"), NULL);
			j->gpus = g;
			jf_k8s__read_accels(r, jf_k8s__get(r, jf_k8s__get(r, w, "template"), "spec"), g);
		}
		long slots = jf_k8s__whole(jf_k8s__get(r, spec, "slotsPerWorker"));
		if (slots >= 0)
			j->procs = slots;
	} else if (!strcmp(kk->kind, "PyTorchJob")) {
		long p = jf_k8s__whole(jf_k8s__get(r, spec, "nprocPerNode"));
		if (p < 0)
			p = jf_k8s__whole(jf_k8s__get(r, jf_k8s__get(r, spec, "elasticPolicy"), "nProcPerNode"));
		if (p >= 0)
			j->procs = p;
	}
}

/* The trainer step of a runtime's replicatedJobs: the one named `node`, else
 * the one labelled as the TrainJob's trainer step. */
static yaml_node_t *trainer_step(jf_job_read *r, yaml_node_t *jobs, size_t *at)
{
	if (!jobs || jobs->type != YAML_SEQUENCE_NODE)
		return NULL;
	yaml_node_t *labelled = NULL;
	size_t labelled_at = 0, i = 0;
	for (yaml_node_item_t *it = jobs->data.sequence.items.start; it < jobs->data.sequence.items.top;
	     it++, i++) {
		yaml_node_t *rj = jf_job__node(r, *it);
		const char *name = jf_yml_scalar(jf_k8s__get(r, rj, "name"));
		if (name && !strcmp(name, "node")) {
			*at = i;
			return rj;
		}
		yaml_node_t *labels = jf_k8s__get(
			r, jf_k8s__get(r, jf_k8s__get(r, rj, "template"), "metadata"), "labels");
		const char *step =
			jf_yml_scalar(jf_k8s__get(r, labels, "trainer.kubeflow.org/trainjob-ancestor-step"));
		if (!labelled && step && !strcmp(step, "trainer")) {
			labelled = rj;
			labelled_at = i;
		}
	}
	*at = labelled_at;
	return labelled;
}

/* Reads runtime `root` of file `rr`: its mlPolicy and its trainer step's pod. */
static void read_runtime_doc(jf_job_read *rr, yaml_node_t *root)
{
	jf_job *j = rr->job;
	yaml_node_t *spec = jf_k8s__get(rr, root, "spec");
	yaml_node_t *ml = jf_k8s__get(rr, spec, "mlPolicy");
	long n = jf_k8s__whole(jf_k8s__get(rr, ml, "numNodes"));
	if (n >= 0)
		j->nodes = n;
	n = jf_k8s__whole(jf_k8s__get(rr, jf_k8s__get(rr, ml, "torch"), "numProcPerNode"));
	if (n >= 0)
		j->procs = n;
	size_t at = 0;
	yaml_node_t *step = trainer_step(
		rr, jf_k8s__get(rr, jf_k8s__get(rr, jf_k8s__get(rr, spec, "template"), "spec"),
		                "replicatedJobs"),
		&at);
	yaml_node_t *pod = jf_k8s__get(rr, jf_k8s__get(rr, jf_k8s__get(rr, step, "template"), "spec"),
	                               "template");
	if (!pod) {
		jf_job__unknown(rr, JF_JOB_COMMAND, "the runtime in %s has no trainer step ('node') with a "
		                                    "pod template: its command is not known",
		                rr->src->path);
		return;
	}
	char where[96];
	snprintf(where, sizeof where, "spec.template.spec.replicatedJobs[%zu].template.spec.template",
	         at);
	jf_k8s__read_template(rr, pod, jf_job__copy(rr, where), "node", true);
}

/* The runtime the TrainJob names (`kind` ClusterTrainingRuntime or
 * TrainingRuntime, `name`), when a YAML file of the repository defines it:
 * read into the job, for spec.trainer to override. */
static bool read_runtime(jf_job_read *r, const char *kind, const char *name)
{
	const char *const needles[] = { kind, name, NULL };
	jf_job_place files[64];
	size_t n = jf_job__find_yaml(r, needles, files, 64);
	for (size_t f = 0; f < n; f++) {
		jf_source *src = jf_source_load(files[f].dir, files[f].display);
		jf_yml_docs docs = { 0 };
		jf_yml_error err;
		if (src->status != JF_SOURCE_OK || !jf_yml_load_all(src, &docs, &err)) {
			jf_source_free(src);
			continue;
		}
		for (size_t d = 0; d < docs.size; d++) {
			jf_job_read rr = { r->job, src, &docs, &docs.items[d], r->sink, r->builds };
			yaml_node_t *root = yaml_document_get_root_node(&docs.items[d]);
			const char *api = jf_yml_scalar(jf_k8s__get(&rr, root, "apiVersion"));
			const char *k = jf_yml_scalar(jf_k8s__get(&rr, root, "kind"));
			const char *nm = jf_yml_scalar(
				jf_k8s__get(&rr, jf_k8s__get(&rr, root, "metadata"), "name"));
			if (!api || !jf_str_starts(api, "trainer.kubeflow.org/") || !k || strcmp(k, kind) ||
			    !nm || strcmp(nm, name))
				continue;
			jf_array_push(&r->job->sources, src);
			jf_job__assume(r, JF_JOB_COMMAND, "the TrainJob's runtime '%s' taken from %s", name,
			               src->path);
			read_runtime_doc(&rr, root);
			jf_yml_docs_release(&docs);
			return true;
		}
		jf_yml_docs_release(&docs);
		jf_source_free(src);
	}
	return false;
}

/* Drops the command the runtime gave: the trainer's replaces it. */
static void drop_command(jf_job *j)
{
	for (size_t i = 0; i < j->command.size; i++)
		jf_job__unit_release(&j->command.items[i]);
	j->command.size = 0;
}

/* TrainJob: the runtime it names, with spec.trainer's overrides. */
static void read_trainjob(jf_job_read *r, yaml_node_t *root)
{
	jf_job *j = r->job;
	yaml_node_t *spec = jf_k8s__get(r, root, "spec");
	if (!spec || spec->type != YAML_MAPPING_NODE) {
		if (!spec)
			jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, root),
			            "the TrainJob has no 'spec'");
		else
			jf_job__wrong_type(r, spec, "spec", "a mapping");
		return;
	}
	yaml_node_t *ref = jf_k8s__get(r, spec, "runtimeRef");
	const char *name = jf_yml_scalar(jf_k8s__get(r, ref, "name"));
	const char *kind = jf_yml_scalar(jf_k8s__get(r, ref, "kind"));
	if (!kind)
		kind = "ClusterTrainingRuntime";
	bool runtime = name && (!strcmp(kind, "ClusterTrainingRuntime") ||
	                        !strcmp(kind, "TrainingRuntime")) &&
	               read_runtime(r, kind, name);
	if (!runtime)
		jf_job__unknown(r, JF_JOB_COMMAND,
		                "the TrainJob's runtime '%s' is not defined in the repository: what the "
		                "trainer does not override (image, command) is not known",
		                name ? name : "(not named)");
	yaml_node_t *tr = jf_k8s__get(r, spec, "trainer");
	if (!tr || jf_yml_is_null(tr)) {
		if (!runtime)
			jf_job__unknown(r, JF_JOB_COMMAND,
			                "the TrainJob has no 'spec.trainer': its runtime's own command runs, "
			                "which jobfix does not know");
		return;
	}
	if (tr->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, tr, "spec.trainer", "a mapping");
		return;
	}
	if (jf_k8s__get(r, tr, "command") || jf_k8s__get(r, tr, "args"))
		drop_command(j);
	/* The trainer's fields are a container's; resources are resourcesPerNode. */
	jf_k8s__read_container(r, tr, NULL, "spec.trainer", true);
	yaml_node_t *n;
	if ((n = jf_k8s__get(r, tr, "numNodes")))
		jf_job__count(r, n, "spec.trainer.numNodes", &j->nodes);
	if ((n = jf_k8s__get(r, tr, "numProcPerNode")) && jf_k8s__whole(n) >= 0)
		j->procs = jf_k8s__whole(n);
	if ((n = jf_k8s__get(r, tr, "resourcesPerNode"))) {
		j->resources = jf_job__loc(r, n);
		j->gpus = jf_k8s__gpus(r, n);
		/* the runtime's node selectors stand; the GPUs per node are the trainer's */
		for (size_t i = 0; i < j->accels.size; i++)
			j->accels.items[i].count = j->gpus;
	}
	if (!j->image.present)
		jf_job__unknown(r, JF_JOB_IMAGE,
		                "the TrainJob takes its image from its runtime: the image is not known");
}

void jf_kubeflow__read(jf_job_read *r, yaml_node_t *root, const char *api, const char *kind)
{
	const kubeflow_kind *kk = v1_kind(api, kind);
	if (kk)
		read_v1(r, root, kk);
	else
		read_trainjob(r, root);
}
