/* platforms.h - the variables a platform and a launcher set (data/platforms.yaml) */
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
/** Whether `launcher` ("torchrun", "mpirun", ...) sets `var` for the processes it starts. */
bool jf_launcher_sets(const char *launcher, const char *var);

#endif
