/* place.h - where a job's code is, when the file does not say (private to lib/job/)
 *
 * SkyPilot resolves a relative `workdir` against the folder `sky launch` runs
 * in, and sbatch runs a batch script in the folder it is submitted from:
 * neither is written in the file. The usual places are the file's own folder,
 * the top of its repository, and the folders between. place.c tries each on
 * the scripts the command names, and keeps the one where most of them are;
 * it also finds the nearest Dockerfile of a container job, and the YAML
 * files of the repository that define what a job names (a Kubeflow
 * TrainingRuntime, an Azure ML environment).
 */
#ifndef JF_JOB_PLACE_H
#define JF_JOB_PLACE_H

#include "job/reader.h"

/* A folder the code may be in, on this machine and as shown. */
typedef struct {
	char *dir;
	char *display;
} jf_job_place;

/**
 * The top of the repository holding the job file (the nearest folder above
 * it with a .git), into *out (strings in the job's arena); false when none.
 */
bool jf_job__repo_top(jf_job_read *r, jf_job_place *out);

/**
 * The nearest file called `name` in the job file's folder or a folder above
 * it up to its repository's top (the file's folder alone outside a
 * repository), into *out; false when there is none.
 */
bool jf_job__nearest_file(jf_job_read *r, const char *name, jf_job_place *out);

/**
 * The folders `rel` names from the job file's folder and from each folder
 * above it up to its repository's top (the file's folder alone outside a
 * repository), nearest first, that exist: at most `max` into `out`.
 */
size_t jf_job__places(jf_job_read *r, const char *rel, jf_job_place *out, size_t max);

/**
 * The YAML files (`.yaml`, `.yml`) of the job file's repository (the job
 * file's folder alone outside a repository) whose first JF_JOB_SNIFF_BYTES
 * hold each of the NULL-terminated `needles`, nearest first: those under the
 * job file's folder, then under each folder above it, each folder walked in
 * name order; at most `max` into `out`. The walk skips hidden folders and
 * stops after JF_JOB_FIND_BUDGET entries: for the definitions a job names by
 * name (a Kubeflow TrainingRuntime, an Azure ML environment).
 */
#define JF_JOB_FIND_BUDGET 20000
size_t jf_job__find_yaml(jf_job_read *r, const char *const *needles, jf_job_place *out,
                         size_t max);
/* The outcome of jf_job__pick_place(). */
typedef enum {
	JF_PLACE_FOUND,     /* *out is where the scripts are */
	JF_PLACE_NO_SCRIPT, /* the texts name no relative script: *out is the first candidate */
	JF_PLACE_NONE,      /* the scripts they name are in none of the candidates */
	JF_PLACE_BOTH,      /* no candidate holds all that the others hold: which is meant cannot be told */
} jf_place_outcome;

/**
 * Of the `n` candidate folders, the one where the relative scripts (`.py`,
 * `.sh`, `.bash` words, after literal `cd`s) named by the shell texts
 * `texts[0..ntexts)` are found: the candidate where most of them are, when
 * it also holds every one that another candidate holds.
 */
jf_place_outcome jf_job__pick_place(const jf_job_place *cands, size_t n, const char *const *texts,
                                    size_t ntexts, jf_job_place *out);

/** Sets the job's code folder (code_dir, code_display) to `p`. */
void jf_job__set_code(jf_job_read *r, const jf_job_place *p);

#endif
