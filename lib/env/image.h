/* image.h - what the job's image holds: Python, user, packages, executables, environment
 *
 * Facts come from the catalog of well-known images in data/images/
 * (docs/data.md), matched by repository and tag: of the image the job
 * names, else of the one the repository's Dockerfile builds it FROM, with
 * what its RUNs install; then from the conda environment file the platform
 * builds the job's Python from (Azure ML's conda_file), whose packages are
 * all there are; and over those, from the job spec's own `image` fields
 * (`user`, `python`, and `manifest`, a `pip freeze` list that is complete
 * by definition). What none says is unknown, and the checks that need it
 * stay silent.
 */
#ifndef JF_IMAGE_H
#define JF_IMAGE_H

#include "core/diag.h"
#include "core/error.h"
#include "core/sink.h"
#include "job/job.h"

typedef struct {
	char *name, *value;
} jf_image_pair;

typedef JF_ARRAY(jf_image_pair) jf_image_pairs;

typedef struct {
	char *ref;            /* the image reference as the spec names it, or NULL */
	char *base;           /* the catalog image it is built from (a Dockerfile's FROM), or NULL */
	char *catalog;        /* "data/images/pytorch.yaml:12" of the matching entry, or NULL */
	char *extended;       /* why the base's package list no longer holds (a Dockerfile's RUN), or NULL */
	char *conda;          /* the conda file the job's environment is made from, or NULL */
	int py_major, py_minor; /* 0.0 when unknown */
	char *user;           /* NULL when unknown */
	char *home;           /* NULL when unknown */
	jf_image_pairs packages;  /* distribution -> version ("*" when unknown) */
	jf_strings local_projects; /* folders the manifest says projects were installed from
	                              (`name @ file:///workspace/x`, `-e /workspace/x`) */
	bool packages_complete;   /* from a manifest, or a complete catalog entry */
	bool has_manifest;
	JF_ARRAY(char *) absent;  /* distributions the catalog says are not installed */
	/* What the build (a Dockerfile's RUNs, a conda file) installs without
	 * jobfix knowing all it brings, each a cause of `extended`: the
	 * distributions it names that have no line in data/dependencies.txt,
	 * and an install it cannot name (`unnamed_install`: a URL, a script, a
	 * local project whose requirements are computed). `extended` leaves the
	 * package list incomplete and nothing absent; `base_complete` and
	 * `base_absent` keep what the catalog or the conda file said before, so
	 * that a check can ask of each distribution whether one of those
	 * unknowns could bring it (jf_image_base_has_package()). A manifest
	 * answers for them: it lists what they brought. */
	jf_strings unknown_installs;
	const char *unnamed_install; /* why, or NULL; points into `extended` */
	bool base_complete;
	jf_strings base_absent;
	jf_image_pairs executables; /* name -> "yes" / "no" */
	jf_image_pairs env;         /* variables set in the image */
	/* Where the job states the image, its Python, user and manifest: for related notes. */
	jf_loc ref_at, python_at, user_at, manifest_at, conda_at;
	bool python_declared, user_declared; /* by the spec's own fields */
} jf_image;

/* Which fact a diagnostic rests on, for jf_image_relate(). */
typedef enum { JF_FACT_PACKAGES, JF_FACT_PYTHON, JF_FACT_USER, JF_FACT_EXECUTABLES } jf_image_fact;

/**
 * The image of `job`, from its fields, the catalog, the Dockerfile that
 * builds it and its conda file; never NULL. Free with jf_image_free(). A
 * manifest the job names and jobfix cannot read is a JF005 note in `sink`
 * (NULL: not reported).
 */
jf_image *jf_image_resolve(const jf_job *job, jf_sink *sink);
void jf_image_free(jf_image *self);

/**
 * Adds a related note to `d` at the place the fact comes from: the job's
 * own field (`image.python`, `image.user`, `image.manifest`) or the image
 * name, for facts from the catalog. `fmt` names the fact ("Python 3.8", "torch 2.1.0").
 */
void jf_image_relate(jf_diag *d, const jf_image *self, jf_image_fact fact, const char *fmt, ...)
	JF_PRINTF(4, 5);

/** Why the image's facts are unknown, for --verbose: "the image is not in jobfix's catalog". Static. */
const char *jf_image_unknown_reason(const jf_image *self);

/** Whether anything is known about the image: a catalog entry, a manifest, a conda file or its Python. */
bool jf_image_known(const jf_image *self);
/**
 * Whether distribution `dist` is installed: JF_YES (with its version in
 * *version when asked, borrowed), JF_NO when the package list is complete or
 * the catalog lists it as absent, else JF_UNKNOWN. Names compare as pip does.
 */
jf_tri jf_image_has_package(const jf_image *self, const char *dist, const char **version);
/**
 * Whether distribution `dist` is installed, leaving aside what the build's
 * unknowns (`unknown_installs`, `unnamed_install`) may bring: as
 * jf_image_has_package(), with the package list as complete and the
 * distributions as absent as the catalog or conda file said before them.
 */
jf_tri jf_image_base_has_package(const jf_image *self, const char *dist);
/** Whether the image's user is known and is not root. */
bool jf_image_user_is_nonroot(const jf_image *self);
/** Whether the image has executable `name` on its PATH. */
jf_tri jf_image_has_executable(const jf_image *self, const char *name);
/** The value of variable `name` in the image's environment, or NULL. */
const char *jf_image_env(const jf_image *self, const char *name);
/** Whether the image's Python is known and older than major.minor. */
bool jf_image_python_before(const jf_image *self, int major, int minor);

/** Whether pip takes `a` (`n` bytes) and `b` for the same distribution name. */
bool jf_dist_name_eq(const char *a, size_t n, const char *b);
/** Compares version strings numerically part by part ("1.10" > "1.9"); pre-releases sort first. */
int jf_version_cmp(const char *a, const char *b);

/**
 * Checks every entry of the embedded catalog for keys and value types; returns
 * 0 when all are well-formed, else JF_EPARSE with a message naming the file
 * and line in `err`.
 */
int jf_image_catalog_check(jf_error *err);

#endif
