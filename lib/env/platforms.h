/* platforms.h - what a platform does to a job (the variables it sets, its user), and the variables a launcher sets (data/platforms.yaml) */
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
/** Whether `launcher` ("torchrun", "mpirun", ...) sets `var` for the processes it starts. */
bool jf_launcher_sets(const char *launcher, const char *var);

#endif
