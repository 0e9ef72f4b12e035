/* gpus.h - GPU types, their memory, and the names platforms give them (data/gpus.yaml)
 *
 * A job asks for its GPUs in its platform's words (job.h, jf_job_accel):
 * SkyPilot's `A100-80GB`, GPU feature discovery's `NVIDIA-A100-SXM4-80GB`, a
 * Slurm site's `a100`, an instance type. jf_gpu_resolve() looks a kind up in
 * the names of its platform only, since the same word may mean different
 * GPUs on two platforms, and answers with one GPU type, or with a model
 * whose types differ in memory (a range), or with nothing: a name the data
 * does not list is unknown, never guessed. Read once per process
 * (pthread_once), then only read.
 */
#ifndef JF_GPUS_H
#define JF_GPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "job/job.h"

/* A GPU type: one model with one memory size. */
typedef struct {
	const char *name;   /* "A100-80GB" */
	const char *model;  /* "A100" */
	const char *vendor; /* "nvidia", "amd" */
	uint64_t memory;    /* bytes per GPU, as the vendor or platform states it */
	uint64_t reported;  /* bytes a platform reports per GPU when fewer, else 0 */
	const char *source; /* where `memory` comes from */
	unsigned line;      /* of the entry in data/gpus.yaml */
} jf_gpu;

/* What an accelerator's kind names. */
typedef struct {
	const jf_gpu *gpu;     /* the GPU type, when the name says one */
	const char *model;     /* else the model it says, whose types differ in memory */
	uint64_t memory_min;   /* bytes per GPU: of `gpu`, or the least of `model`'s types */
	uint64_t memory_max;   /* the same, or the most of `model`'s types */
	long count;            /* GPUs an instance type has, or -1 */
	const char *via;       /* whose names matched ("SkyPilot accelerator"); static */
} jf_gpu_match;

/**
 * Resolves accelerator `a` in the names of its platform (a->names): true
 * with *out filled, false when its kind names no GPU of the data, and for
 * an accelerator without a kind (the job says only the memory). The kind
 * is compared without case; GPU feature discovery's `-SHARED` suffix (a
 * time-sliced GPU) is the GPU's; a Slurm type or feature that is a model's
 * name (without case, '-', '_' and blanks) is that model.
 */
bool jf_gpu_resolve(const jf_job_accel *a, jf_gpu_match *out);

/** The GPU type jobfix calls `name` ("A100-80GB", without case), or NULL. */
const jf_gpu *jf_gpu_find(const char *name);
/** All GPU types, in the order of data/gpus.yaml; their number in *count. */
const jf_gpu *jf_gpus(size_t *count);

/** Writes `bytes` as a person reads it into `buf` ("80 GiB", "22888 MiB"); returns `buf`. */
const char *jf_gpu_memory_text(uint64_t bytes, char *buf, size_t size);

/**
 * Checks the embedded data: its keys, every GPU with a model, a vendor,
 * memory and a source, every model and instance group with a source, and
 * every name of a platform given to one GPU, model or instance type only.
 * Returns 0, or JF_EPARSE with each problem (file and line) in `err`.
 */
int jf_gpus_check(jf_error *err);

#endif
