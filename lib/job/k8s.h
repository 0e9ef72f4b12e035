/* k8s.h - what the Kubernetes and Kubeflow readers share (private to lib/job/)
 *
 * Kubernetes kinds (Job, CronJob, Pod) and the Kubeflow training kinds all
 * end in pod templates: the training container of one is the job's
 * command, image, env, mounts and GPUs. kubernetes.c reads them and finds
 * where the code is (the repository's Dockerfile); kubeflow.c knows where
 * each Kubeflow kind keeps its replicas.
 */
#ifndef JF_JOB_K8S_H
#define JF_JOB_K8S_H

#include "job/reader.h"

/** The value of `key` in mapping `map`, or NULL (also when `map` is not a mapping). */
yaml_node_t *jf_k8s__get(const jf_job_read *r, const yaml_node_t *map, const char *key);

/** `where` + "." + `key`, in a buffer of the job's arena. */
const char *jf_k8s__path(jf_job_read *r, const char *where, const char *key);

/**
 * Reads pod template `tmpl` (a PodTemplateSpec written at `where`) into the
 * job: its container named `prefer` (or the first), with the pod's volumes
 * and security context. `operator_env`: an operator adds variables to the
 * container, so a `$(X)` of a variable the container does not list is
 * unknown rather than left as written. JF003/JF004 for what is missing or
 * mistyped on the way.
 */
void jf_k8s__read_template(jf_job_read *r, yaml_node_t *tmpl, const char *where,
                           const char *prefer, bool operator_env);

/** The container fields of mapping `c` (image, command, args, env, ...) at `where`. */
void jf_k8s__read_container(jf_job_read *r, yaml_node_t *c, yaml_node_t *pod, const char *where,
                            bool operator_env);

/** The GPUs of mapping `resources` (limits, else requests, of nvidia.com/gpu), or -1. */
long jf_k8s__gpus(jf_job_read *r, yaml_node_t *resources);
/** A whole number written as a number or a string ("2"), or -1 (absent, "auto", "gpu"). */
long jf_k8s__whole(const yaml_node_t *n);

/** The GPUs the container `prefer` (or the first) of pod template `tmpl` asks for, or -1. */
long jf_k8s__template_gpus(jf_job_read *r, yaml_node_t *tmpl, const char *prefer);

/**
 * The accelerators pod spec `pod` asks for, `count` per node: the GPU labels
 * of its nodeSelector (nvidia.com/gpu.product, cloud.google.com/gke-accelerator,
 * karpenter.k8s.aws/instance-gpu-name, node.kubernetes.io/instance-type, and
 * the GPU memory labels) and the `In` values of its required node affinity.
 * They replace the job's accelerators (the pod of the replica that runs on
 * the GPUs is read last).
 */
void jf_k8s__read_accels(jf_job_read *r, yaml_node_t *pod, long count);

/** Whether apiVersion `api` and `kind` name a Kubeflow training job jobfix reads. */
bool jf_kubeflow__is_job(const char *api, const char *kind);
/** Reads the Kubeflow job `root` (apiVersion `api`, kind `kind`). */
void jf_kubeflow__read(jf_job_read *r, yaml_node_t *root, const char *api, const char *kind);

#endif
