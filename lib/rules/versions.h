/* versions.h - the version of a distribution, or of Python, that the job's code runs with
 *
 * The version that decides is the one the job installs itself (a pin in
 * `pip install`, a requirements file it installs), else the image's (the
 * Dockerfile's pin, the manifest, the catalog). When what the job installs
 * may bring another version, or the image's is not known, the version is not
 * known, and `why` says so for --verbose.
 */
#ifndef JF_VERSIONS_H
#define JF_VERSIONS_H

#include "facts/facts.h"

/* One distribution's version for the job. */
typedef struct {
	bool known;
	char *version;             /* exact */
	char *spec;                /* or a pip specifier */
	char *shown;               /* "numpy 1.26.4", "numpy>=1.24" */
	const jf_shell_pin *pin;   /* the job installs it here */
	const jf_job_install *docker; /* the Dockerfile (or the conda file) installs it here */
	char *why;                 /* when not known: why (for --verbose) */
} jf_dist_version;

typedef struct jf_versions jf_versions;

/** The versions of the job of `f`, each found once when asked. */
jf_versions *jf_versions_new(const jf_facts *f);
void jf_versions_free(jf_versions *self);
/** The version of distribution `dist` ("python": the image's Python) for the
 * job; owned by `self`. */
const jf_dist_version *jf_versions_of(jf_versions *self, const char *dist);
/** Relates to `d` where the job gets version `v`: the install, the
 * Dockerfile or conda file, else the image (its Python when `python`). */
void jf_dist_version_relate(jf_diag *d, const jf_facts *f, const jf_dist_version *v, bool python);
/** Whether distribution `name` provides `dist`'s modules (tensorflow-gpu
 * tensorflow's). */
bool jf_dist_provides(const char *name, const char *dist);

#endif
