/* platforms.h - what a platform does to a job, and the variables a launcher sets (data/platforms.yaml) */
#ifndef JF_PLATFORMS_H
#define JF_PLATFORMS_H

#include <stdbool.h>

/**
 * Whether platform `platform` ("slurm", ...) sets variable `var` in every
 * job's container. With `platform` NULL (the spec names none), the generic
 * container's variables, and any variable with a platform's own prefix
 * (SLURM_, AZUREML_, SM_, ...): those say where the job is meant to run.
 */
bool jf_platform_sets(const char *platform, const char *var);
/**
 * Whether jobs of `platform` run as a user of the machine they run on
 * (`user: host`: a SkyPilot task, a Slurm job), whose home folders are that
 * machine's, not the developer's. False for NULL.
 */
bool jf_platform_runs_as_host_user(const char *platform);
/**
 * Why a job of `platform` gets the variables of the shell it is submitted
 * from when its file does not say (`submitter_environment`: sbatch's
 * --export=ALL, its default), or NULL when it does not. Valid for the
 * process.
 */
const char *jf_platform_submitter_environment(const char *platform);
/** Whether `launcher` ("torchrun", "mpirun", ...) sets `var` for the processes it starts. */
bool jf_launcher_sets(const char *launcher, const char *var);

#endif
