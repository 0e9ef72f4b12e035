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
			jf_sink_add(r->sink, "JF004", r->src, jf_yml_span(r->src, root), "the %s has no 'spec'",
			            kk->kind);
		else
			jf_job__wrong_type(r, spec, "spec", "a mapping");
		return;
	}
	const char *swhere = jf_k8s__path(r, "spec", kk->specs);
	yaml_node_t *rs = jf_k8s__get(r, spec, kk->specs);
	if (!rs || rs->type != YAML_MAPPING_NODE) {
		if (!rs)
			jf_sink_add(r->sink, "JF004", r->src, jf_yml_span(r->src, spec), "'spec' has no '%s'",
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
		jf_sink_add(r->sink, "JF004", r->src, jf_yml_span(r->src, rs),
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
			jf_sink_add(r->sink, "JF004", r->src, jf_yml_span(r->src, primary),
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

	if (!strcmp(kk->kind, "MPIJob")) {
		/* The launcher runs mpirun; the processes run on the Workers' GPUs. */
		yaml_node_t *w = jf_k8s__get(r, rs, "Worker");
		if (w && strcmp(ptype, "Worker")) {
			long g = jf_k8s__template_gpus(r, jf_k8s__get(r, w, "template"), NULL);
			j->gpus = g;
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

/* TrainJob: the runtime runs spec.trainer's overrides. */
static void read_trainjob(jf_job_read *r, yaml_node_t *root)
{
	jf_job *j = r->job;
	yaml_node_t *spec = jf_k8s__get(r, root, "spec");
	if (!spec || spec->type != YAML_MAPPING_NODE) {
		if (!spec)
			jf_sink_add(r->sink, "JF004", r->src, jf_yml_span(r->src, root),
			            "the TrainJob has no 'spec'");
		else
			jf_job__wrong_type(r, spec, "spec", "a mapping");
		return;
	}
	yaml_node_t *tr = jf_k8s__get(r, spec, "trainer");
	if (!tr || jf_yml_is_null(tr)) {
		jf_sink_skip(r->sink, "JF102",
		             "the TrainJob has no 'spec.trainer': its runtime's own command runs, which "
		             "jobfix does not know");
		return;
	}
	if (tr->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, tr, "spec.trainer", "a mapping");
		return;
	}
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
	}
	if (!j->image.present)
		jf_sink_skip(r->sink, "JF112",
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
