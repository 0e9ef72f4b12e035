/* test_gpus.c - data/gpus.yaml, the resolution of accelerators, and what each job reader keeps of them */
#include "helpers.h"

#include "env/gpus.h"
#include "job/job.h"
#include "job/reader.h"

#define GIB (1ull << 30)

static void test_gpus__data_is_well_formed(void **state)
{
	(void)state;
	jf_error err = JF_ERROR_INIT;
	if (jf_gpus_check(&err))
		fail_msg("%s", jf_error_message(&err));
	size_t n;
	const jf_gpu *g = jf_gpus(&n);
	for (size_t i = 0; i < n; i++) {
		if (!g[i].memory || !g[i].source || !*g[i].source)
			fail_msg("data/gpus.yaml:%u: '%s' has no memory or no source", g[i].line, g[i].name);
		if (g[i].memory % (1ull << 20))
			fail_msg("data/gpus.yaml:%u: memory is not whole MiB", g[i].line);
	}
	/* The types the job formats name most. */
	static const struct {
		const char *name;
		unsigned gib;
	} want[] = { { "V100-16GB", 16 }, { "V100-32GB", 32 }, { "A100-40GB", 40 },
		     { "A100-80GB", 80 }, { "H100-80GB", 80 }, { "H100-NVL", 94 },
		     { "H200", 141 },     { "A10G", 24 },      { "A10", 24 },
		     { "L4", 24 },        { "L40S", 48 },      { "T4", 16 },
		     { "P100-16GB", 16 }, { "K80", 12 },       { "RTX-A6000", 48 },
		     { "RTX-3090", 24 },  { "RTX-4090", 24 },  { "A40", 48 },
		     { "MI300X", 192 } };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const jf_gpu *x = jf_gpu_find(want[i].name);
		if (!x)
			fail_msg("no GPU '%s'", want[i].name);
		assert_int_equal(x->memory, want[i].gib * GIB);
	}
	assert_ptr_equal(jf_gpu_find("a100-80gb"), jf_gpu_find("A100-80GB"));
	assert_null(jf_gpu_find("A100"));
}

static jf_job_accel accel(jf_accel_names names, const char *kind)
{
	return (jf_job_accel){ .kind = { (char *)kind, { 0 } }, .names = names, .count = -1 };
}

/* Asserts that `kind` of `names` resolves to GPU `gpu` (or to model `model`, from `lo` to `hi` GiB). */
static void resolves(jf_accel_names names, const char *kind, const char *gpu, const char *model,
                     unsigned lo, unsigned hi, long count)
{
	jf_job_accel a = accel(names, kind);
	jf_gpu_match m;
	if (!jf_gpu_resolve(&a, &m))
		fail_msg("'%s' (names %d) does not resolve", kind, (int)names);
	if (gpu) {
		if (!m.gpu || strcmp(m.gpu->name, gpu))
			fail_msg("'%s' is %s, expected %s", kind, m.gpu ? m.gpu->name : "no GPU", gpu);
		assert_null(m.model);
	} else {
		assert_null(m.gpu);
		if (!m.model || strcmp(m.model, model))
			fail_msg("'%s' is model %s, expected %s", kind, m.model ? m.model : "none", model);
	}
	assert_int_equal(m.memory_min, lo * GIB);
	assert_int_equal(m.memory_max, hi * GIB);
	assert_int_equal(m.count, count);
	assert_non_null(m.via);
}

static void test_gpus__known_names_resolve(void **state)
{
	(void)state;
	/* SkyPilot: its A100 is the 40 GB one; its H100 is an 80 GB one or the NVL */
	resolves(JF_ACCEL_SKYPILOT, "A100-80GB", "A100-80GB", NULL, 80, 80, -1);
	resolves(JF_ACCEL_SKYPILOT, "a100", "A100-40GB", NULL, 40, 40, -1);
	resolves(JF_ACCEL_SKYPILOT, "V100-32GB", "V100-32GB", NULL, 32, 32, -1);
	resolves(JF_ACCEL_SKYPILOT, "H100", NULL, "H100", 80, 94, -1);
	resolves(JF_ACCEL_SKYPILOT, "A6000", "RTX-A6000", NULL, 48, 48, -1);
	/* GPU feature discovery: the NVML name with blanks as '-', -SHARED when time-sliced */
	resolves(JF_ACCEL_K8S_PRODUCT, "NVIDIA-A100-SXM4-80GB", "A100-80GB", NULL, 80, 80, -1);
	resolves(JF_ACCEL_K8S_PRODUCT, "NVIDIA-A100-80GB-PCIe", "A100-80GB", NULL, 80, 80, -1);
	resolves(JF_ACCEL_K8S_PRODUCT, "A100-SXM4-40GB", "A100-40GB", NULL, 40, 40, -1);
	resolves(JF_ACCEL_K8S_PRODUCT, "NVIDIA-H100-80GB-HBM3", "H100-80GB", NULL, 80, 80, -1);
	resolves(JF_ACCEL_K8S_PRODUCT, "Tesla-T4-SHARED", "T4", NULL, 16, 16, -1);
	resolves(JF_ACCEL_K8S_PRODUCT, "NVIDIA-GeForce-RTX-4090", "RTX-4090", NULL, 24, 24, -1);
	/* GKE and Karpenter */
	resolves(JF_ACCEL_GKE, "nvidia-tesla-a100", "A100-40GB", NULL, 40, 40, -1);
	resolves(JF_ACCEL_GKE, "nvidia-h200-141gb", "H200", NULL, 141, 141, -1);
	resolves(JF_ACCEL_KARPENTER, "a10g", "A10G", NULL, 24, 24, -1);
	resolves(JF_ACCEL_KARPENTER, "a100", NULL, "A100", 40, 80, -1);
	/* Slurm: AutoDetect's names, and a site's model names */
	resolves(JF_ACCEL_SLURM, "nvidia_a100-sxm4-80gb", "A100-80GB", NULL, 80, 80, -1);
	resolves(JF_ACCEL_SLURM, "tesla_t4", "T4", NULL, 16, 16, -1);
	resolves(JF_ACCEL_SLURM, "a100", NULL, "A100", 40, 80, -1);
	resolves(JF_ACCEL_SLURM, "rtx_3090", "RTX-3090", NULL, 24, 24, -1);
	resolves(JF_ACCEL_SLURM_FEATURE, "h200", "H200", NULL, 141, 141, -1);
	/* Instance types and VM sizes, with their GPUs */
	resolves(JF_ACCEL_INSTANCE, "p4d.24xlarge", "A100-40GB", NULL, 40, 40, 8);
	resolves(JF_ACCEL_INSTANCE, "standard_nc24ads_a100_v4", "A100-80GB", NULL, 80, 80, 1);
	resolves(JF_ACCEL_INSTANCE, "a3-megagpu-8g", "H100-80GB", NULL, 80, 80, 8);
	resolves(JF_ACCEL_INSTANCE, "Standard_NC40ads_H100_v5", "H100-NVL", NULL, 94, 94, 1);
	/* jobfix's own spec: its names, a model, or a name every platform agrees on */
	resolves(JF_ACCEL_GPU, "A100-80GB", "A100-80GB", NULL, 80, 80, -1);
	resolves(JF_ACCEL_GPU, "A100", NULL, "A100", 40, 80, -1);
	resolves(JF_ACCEL_GPU, "NVIDIA-L40S", "L40S", NULL, 48, 48, -1);
	resolves(JF_ACCEL_GPU, "t4", "T4", NULL, 16, 16, -1);
}

static void unknown(jf_accel_names names, const char *kind)
{
	jf_job_accel a = accel(names, kind);
	jf_gpu_match m;
	if (jf_gpu_resolve(&a, &m))
		fail_msg("'%s' (names %d) resolved to %s", kind ? kind : "(none)", (int)names,
		         m.gpu ? m.gpu->name : m.model);
}

static void test_gpus__unknown_names_do_not_guess(void **state)
{
	(void)state;
	unknown(JF_ACCEL_SKYPILOT, "A100-96GB");
	unknown(JF_ACCEL_SKYPILOT, "tpu-v4-8");
	unknown(JF_ACCEL_SKYPILOT, "nvidia-tesla-t4"); /* GKE's name, not SkyPilot's */
	unknown(JF_ACCEL_GKE, "A100");
	unknown(JF_ACCEL_KARPENTER, "A100-80GB");
	unknown(JF_ACCEL_K8S_PRODUCT, "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"); /* a MIG slice */
	unknown(JF_ACCEL_K8S_PRODUCT, "NVIDIA-A100");
	unknown(JF_ACCEL_SLURM, "gpu");
	unknown(JF_ACCEL_SLURM_FEATURE, "ampere");
	unknown(JF_ACCEL_SLURM_FEATURE, "ib");
	unknown(JF_ACCEL_INSTANCE, "p4d.xlarge");
	unknown(JF_ACCEL_INSTANCE, "m5.large");
	unknown(JF_ACCEL_INSTANCE, "A100");
	unknown(JF_ACCEL_GPU, "A100-SXM");
	unknown(JF_ACCEL_GPU, "");
	unknown(JF_ACCEL_GPU, NULL); /* the job says only the memory */
}

static void test_gpus__memory_text(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(jf_gpu_memory_text(80 * GIB, b, sizeof b), "80 GiB");
	assert_string_equal(jf_gpu_memory_text(22888ull << 20, b, sizeof b), "22888 MiB");
	assert_string_equal(jf_gpu_memory_text(80000000000ull, b, sizeof b), "80000000000 bytes");
}

static void test_gpus__sizes_as_written(void **state)
{
	(void)state;
	assert_int_equal(jf_job__bytes("80GiB"), 80 * GIB);
	assert_int_equal(jf_job__bytes("80Gi"), 80 * GIB);
	assert_int_equal(jf_job__bytes("80 GiB"), 80 * GIB);
	assert_int_equal(jf_job__bytes("81920MiB"), 80 * GIB);
	assert_int_equal(jf_job__bytes("1.5TiB"), 1536 * GIB);
	assert_int_equal(jf_job__bytes("80GB"), 80000000000ull);
	assert_int_equal(jf_job__bytes("80G"), 80000000000ull);
	assert_int_equal(jf_job__bytes("80"), 0);   /* no unit: not guessed */
	assert_int_equal(jf_job__bytes("80 gigs"), 0);
	assert_int_equal(jf_job__bytes("lots"), 0);
	assert_int_equal(jf_job__bytes(NULL), 0);
	assert_int_equal(jf_job__bytes("99999999999999999999GiB"), 0);
}

/* The job in `text`, written as `name` in the fixture's folder; free with jf_job_free(). */
static jf_job *load(th_fixture *f, const char *name, const char *text)
{
	char *path = th_write(f->dir, name, text);
	jf_report report = { 0 };
	jf_strings skipped = { 0 };
	jf_sink sink = { &report, jf_linter__rule_of, f->linter->opts.config, &skipped, path, NULL };
	jf_job *job = NULL;
	jf_error err = JF_ERROR_INIT;
	if (jf_job_load(path, name, NULL, &sink, &job, &err))
		fail_msg("%s", jf_error_message(&err));
	jf_report_release(&report);
	jf_strings_release(&skipped);
	free(path);
	return job;
}

/* Asserts accelerator `i` of `job`: its kind (and the text at its place), names, count. */
static void expect_accel(const jf_job *job, size_t i, const char *kind, jf_accel_names names,
                         long count)
{
	if (i >= job->accels.size)
		fail_msg("%zu accelerators, expected one more than %zu", job->accels.size, i);
	const jf_job_accel *a = &job->accels.items[i];
	if (!kind) {
		assert_null(a->kind.value);
	} else {
		assert_string_equal(a->kind.value, kind);
		const jf_source *s = a->kind.at.src;
		assert_non_null(s);
		assert_int_equal(a->kind.at.span.end - a->kind.at.span.start, strlen(kind));
		assert_memory_equal(s->data + a->kind.at.span.start, kind, strlen(kind));
	}
	assert_int_equal(a->names, names);
	assert_int_equal(a->count, count);
}

static void test_gpus__native_spec(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(f, "job.yaml",
	                 "image: python:3.11\ncommand: echo hi\n"
	                 "resources: {gpus: 8, gpu_type: A100-80GB, gpu_memory: 80GiB}\n");
	assert_int_equal(j->gpus, 8);
	assert_int_equal(j->accels.size, 1);
	expect_accel(j, 0, "A100-80GB", JF_ACCEL_GPU, 8);
	assert_int_equal(j->accels.items[0].memory, 80 * GIB);
	jf_job_free(j);
	/* the memory alone is an accelerator without a kind; gpus alone is none */
	j = load(f, "job.yaml",
	         "image: python:3.11\ncommand: echo hi\nresources: {gpus: 2, gpu_memory: 24GiB}\n");
	expect_accel(j, 0, NULL, JF_ACCEL_GPU, 2);
	assert_int_equal(j->accels.items[0].memory, 24 * GIB);
	jf_job_free(j);
	j = load(f, "job.yaml", "image: python:3.11\ncommand: echo hi\nresources: {gpus: 2}\n");
	assert_int_equal(j->accels.size, 0);
	jf_job_free(j);
}

static void test_gpus__skypilot(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(f, "task.yaml",
	                 "resources:\n  accelerators: A100-80GB:8\n  instance_type: a2-ultragpu-8g\n"
	                 "run: python train.py\n");
	assert_int_equal(j->gpus, 8);
	assert_int_equal(j->accels.size, 2);
	assert_false(j->accels_any);
	expect_accel(j, 0, "A100-80GB", JF_ACCEL_SKYPILOT, 8);
	expect_accel(j, 1, "a2-ultragpu-8g", JF_ACCEL_INSTANCE, -1);
	jf_job_free(j);
	/* choices: a set, a list, any_of; gpus per node as before (all agree, or unknown) */
	j = load(f, "task.yaml",
	         "resources:\n  accelerators: {A100: 8, \"V100\": 8}\nrun: python train.py\n");
	assert_true(j->accels_any);
	assert_int_equal(j->gpus, 8);
	expect_accel(j, 0, "A100", JF_ACCEL_SKYPILOT, 8);
	expect_accel(j, 1, "V100", JF_ACCEL_SKYPILOT, 8);
	jf_job_free(j);
	/* in a flow mapping, `A100:8` is a key without a value */
	j = load(f, "task.yaml",
	         "resources:\n  accelerators: {A100:8, H100:8}\nrun: python train.py\n");
	assert_true(j->accels_any);
	assert_int_equal(j->gpus, 8);
	expect_accel(j, 0, "A100", JF_ACCEL_SKYPILOT, 8);
	expect_accel(j, 1, "H100", JF_ACCEL_SKYPILOT, 8);
	jf_job_free(j);
	j = load(f, "task.yaml",
	         "resources:\n  accelerators: [L4:1, 'A10G:0.5']\nrun: python train.py\n");
	assert_true(j->accels_any);
	assert_int_equal(j->gpus, -1);
	expect_accel(j, 0, "L4", JF_ACCEL_SKYPILOT, 1);
	expect_accel(j, 1, "A10G", JF_ACCEL_SKYPILOT, -1);
	jf_job_free(j);
	j = load(f, "task.yaml",
	         "resources:\n  any_of:\n    - accelerators: H100:8\n    - accelerators: A100-80GB:8\n"
	         "run: python train.py\n");
	assert_true(j->accels_any);
	assert_int_equal(j->gpus, -1);
	expect_accel(j, 0, "H100", JF_ACCEL_SKYPILOT, 8);
	expect_accel(j, 1, "A100-80GB", JF_ACCEL_SKYPILOT, 8);
	jf_job_free(j);
}

static void test_gpus__slurm(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(f, "train.sbatch",
	                 "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:a100:4\n"
	                 "#SBATCH --constraint=\"a100_80gb|h100\"\nsrun python train.py\n");
	assert_int_equal(j->gpus, 4);
	assert_int_equal(j->accels.size, 3);
	expect_accel(j, 0, "a100", JF_ACCEL_SLURM, 4);
	expect_accel(j, 1, "a100_80gb", JF_ACCEL_SLURM_FEATURE, 4);
	expect_accel(j, 2, "h100", JF_ACCEL_SLURM_FEATURE, 4);
	assert_false(j->accels_any); /* the gres type stands beside the features */
	jf_job_free(j);
	j = load(f, "train.sbatch",
	         "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --gpus=h100:16\n#SBATCH -C \"v100|a100\"\n"
	         "srun python train.py\n");
	expect_accel(j, 0, "h100", JF_ACCEL_SLURM, 8);
	jf_job_free(j);
	j = load(f, "train.sbatch",
	         "#!/bin/bash\n#SBATCH --gres=gpu:4\n#SBATCH -C v100|a100\nsrun python train.py\n");
	assert_true(j->accels_any);
	expect_accel(j, 0, "v100", JF_ACCEL_SLURM_FEATURE, 4);
	expect_accel(j, 1, "a100", JF_ACCEL_SLURM_FEATURE, 4);
	jf_job_free(j);
}

static void test_gpus__kubernetes(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(f, "job.yaml",
	                 "apiVersion: batch/v1\nkind: Job\nmetadata: {name: t}\nspec:\n  template:\n"
	                 "    spec:\n      nodeSelector:\n        nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n"
	                 "        nvidia.com/gpu.memory: \"81920\"\n"
	                 "      containers:\n      - name: t\n        image: python:3.11\n"
	                 "        command: [python, train.py]\n"
	                 "        resources: {limits: {nvidia.com/gpu: 4}}\n");
	assert_int_equal(j->gpus, 4);
	assert_int_equal(j->accels.size, 1);
	expect_accel(j, 0, "NVIDIA-A100-SXM4-80GB", JF_ACCEL_K8S_PRODUCT, 4);
	assert_int_equal(j->accels.items[0].memory, 80 * GIB);
	jf_job_free(j);
	j = load(f, "job.yaml",
	         "apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n"
	         "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
	         "        nodeSelectorTerms:\n        - matchExpressions:\n"
	         "          - {key: cloud.google.com/gke-accelerator, operator: In,"
	         " values: [nvidia-l4, nvidia-tesla-t4]}\n"
	         "          - {key: kubernetes.io/arch, operator: In, values: [amd64]}\n"
	         "  containers:\n  - name: t\n    image: python:3.11\n    command: [python, train.py]\n"
	         "    resources: {limits: {nvidia.com/gpu: 1}}\n");
	assert_true(j->accels_any);
	assert_int_equal(j->accels.size, 2);
	expect_accel(j, 0, "nvidia-l4", JF_ACCEL_GKE, 1);
	expect_accel(j, 1, "nvidia-tesla-t4", JF_ACCEL_GKE, 1);
	jf_job_free(j);
}

static void test_gpus__kubeflow_mpijob_takes_the_workers(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(
		f, "mpijob.yaml",
		"apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: t}\nspec:\n"
		"  slotsPerWorker: 8\n  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n"
		"      template:\n        spec:\n          nodeSelector: {node.kubernetes.io/instance-type: m5.large}\n"
		"          containers:\n          - name: l\n            image: python:3.11\n"
		"            command: [mpirun, python, train.py]\n"
		"    Worker:\n      replicas: 2\n      template:\n        spec:\n"
		"          nodeSelector: {karpenter.k8s.aws/instance-gpu-name: a100}\n"
		"          containers:\n          - name: w\n            image: python:3.11\n"
		"            resources: {limits: {nvidia.com/gpu: 8}}\n");
	assert_int_equal(j->gpus, 8);
	assert_int_equal(j->accels.size, 1);
	expect_accel(j, 0, "a100", JF_ACCEL_KARPENTER, 8);
	jf_job_free(j);
}

static void test_gpus__kubeflow_selector_on_the_workers_only(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(
		f, "pytorchjob.yaml",
		"apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: t}\nspec:\n"
		"  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n      template:\n        spec:\n"
		"          containers:\n          - name: pytorch\n            image: python:3.11\n"
		"            command: [torchrun, train.py]\n"
		"            resources: {limits: {nvidia.com/gpu: 2}}\n"
		"    Worker:\n      replicas: 3\n      template:\n        spec:\n"
		"          nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}\n"
		"          containers:\n          - name: pytorch\n            image: python:3.11\n"
		"            command: [torchrun, train.py]\n"
		"            resources: {limits: {nvidia.com/gpu: 2}}\n");
	assert_int_equal(j->gpus, 2);
	assert_int_equal(j->accels.size, 1);
	expect_accel(j, 0, "nvidia-l4", JF_ACCEL_GKE, 2);
	jf_job_free(j);
}

static void test_gpus__azureml(void **state)
{
	th_fixture *f = *state;
	jf_job *j = load(f, "job.yml",
	                 "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\n"
	                 "command: python train.py\nenvironment:\n  image: python:3.11\n"
	                 "resources:\n  instance_count: 2\n  instance_type: Standard_NC96ads_A100_v4\n");
	assert_int_equal(j->nodes, 2);
	assert_int_equal(j->accels.size, 1);
	expect_accel(j, 0, "Standard_NC96ads_A100_v4", JF_ACCEL_INSTANCE, -1);
	jf_job_free(j);
}

#define T(name) cmocka_unit_test_setup_teardown(name, th_setup, th_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpus__data_is_well_formed),
		cmocka_unit_test(test_gpus__known_names_resolve),
		cmocka_unit_test(test_gpus__unknown_names_do_not_guess),
		cmocka_unit_test(test_gpus__memory_text),
		cmocka_unit_test(test_gpus__sizes_as_written),
		T(test_gpus__native_spec),
		T(test_gpus__skypilot),
		T(test_gpus__slurm),
		T(test_gpus__kubernetes),
		T(test_gpus__kubeflow_mpijob_takes_the_workers),
		T(test_gpus__kubeflow_selector_on_the_workers_only),
		T(test_gpus__azureml),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
