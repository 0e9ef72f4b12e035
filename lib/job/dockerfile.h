/* dockerfile.h - the little of a Dockerfile a job reader needs (private to lib/job/)
 *
 * A container job names an image; the repository's Dockerfile says how that
 * image is built, and so where the job's code lands in it. Only the last
 * stage is kept: its base image (FROM, ARG defaults substituted; a FROM of
 * an earlier stage continues that stage), WORKDIR, USER, ENV, the
 * COPY/ADD of local folders (COPY --from=stage and ADD of a URL are not
 * local code), the packages its RUNs install and the RUNs that may create
 * files, ENTRYPOINT and CMD. A value that depends on what jobfix cannot
 * know (an ARG without default, the base image's WORKDIR) is NULL. Every
 * string is owned by the jf_dockerfile and freed by jf_dockerfile_release().
 */
#ifndef JF_JOB_DOCKERFILE_H
#define JF_JOB_DOCKERFILE_H

#include "core/source.h"
#include "job/reader.h"

/* A word of an instruction: its value and where the Dockerfile writes it. */
typedef struct {
	char *value; /* NULL when it holds a variable jobfix cannot expand */
	jf_span at;
} jf_docker_word;

typedef JF_ARRAY(jf_docker_word) jf_docker_words;

/* A COPY or ADD of the stage. */
typedef struct {
	/* The sources as paths of this machine (in the build context); a glob
	 * stays a glob; NULL for one jobfix cannot place (a variable, a URL,
	 * another stage's files). `written`: the same as the instruction names
	 * them, relative to the context (NULL alike). */
	jf_strings sources;
	jf_strings written;
	/* When it copies one folder, or one file that keeps its name: the local
	 * folder (as written, "." for the context) that appears at folder_dest
	 * (for a file, the folder it is in: its other files may not be there). */
	char *folder;
	char *folder_dest;
	char *dest;    /* the absolute container path, or NULL when not known */
	bool dest_dir; /* the sources land in dest (a folder), not at dest */
	jf_span at;    /* the instruction */
} jf_docker_copy;

/* A RUN that may create files (downloads, clones, copies, redirections). */
typedef struct {
	char *cwd;  /* the WORKDIR it runs in, or NULL when not known */
	char *text; /* its command line */
} jf_docker_run;

typedef JF_ARRAY(jf_docker_run) jf_docker_runs;

/* A distribution a RUN installs (pip, conda, a requirements file it names). */
typedef struct {
	char *name;
	char *version; /* pinned with ==, or NULL */
	jf_span at;    /* the word of the RUN that installs it */
	char *spec;    /* its version specifier (">=1.20"), or NULL */
} jf_docker_install;

typedef JF_ARRAY(jf_docker_install) jf_docker_installs;
typedef JF_ARRAY(jf_docker_copy) jf_docker_copies;

typedef struct {
	jf_source *src;     /* the Dockerfile; the caller may take it (then set NULL) */
	char *from;         /* the last stage's base image, or NULL */
	jf_span from_at;
	/* What the RUNs install: the distributions jobfix can name, and the
	 * first instruction that may install what it cannot (a RUN of a script,
	 * a local project, a URL, a program it does not know; a COPY --from; an
	 * ENV that moves Python to another environment): `opaque` is then its
	 * text, from the keyword. */
	jf_docker_installs installs;
	jf_strings projects; /* the local projects they install (pip install .): folders of this machine */
	char *opaque;
	jf_span opaque_at;
	const char *opaque_why; /* why, when a local project it installs says (static), or NULL */
	bool runs_python;   /* a RUN may install another Python */
	/* Files the RUNs read from what the COPYs put in the image (requirements
	 * files, local projects' metadata) that the build context lacks: a build
	 * in that context would fail. */
	unsigned unfound;
	char *workdir;      /* absolute, or NULL when the stage sets none or it is unknown */
	jf_span workdir_at;
	jf_docker_word user;
	jf_docker_words env; /* NAME=value (NAME alone: value unknown), in order */
	jf_docker_copies copies;
	jf_docker_runs runs;
	/* ENTRYPOINT and CMD in JSON form; `shell` when a shell form was used. */
	jf_docker_words entrypoint, cmd;
	bool entrypoint_set, cmd_set, entrypoint_shell, cmd_shell;
} jf_dockerfile;

/**
 * Reads the Dockerfile at `fs_path` (shown as `display_path`). The sources
 * of COPY are looked for in `context` (the build context; "" for the current
 * folder). Returns false when it cannot be read or has no FROM; `out` is to
 * be released either way.
 */
bool jf_dockerfile_read(const char *fs_path, const char *display_path, const char *context,
                        jf_dockerfile *out);
/** Why jf_dockerfile_read() returned false (static text). */
const char *jf_dockerfile_why(const jf_dockerfile *self);
void jf_dockerfile_release(jf_dockerfile *self);

/** Hands the Dockerfile's source to the job (values point into it) and returns it. */
const jf_source *jf_dockerfile_keep(jf_job_read *r, jf_dockerfile *df);
/** A field of the job for value `v` (NULL: absent) at `at` of the Dockerfile's source `src`, which the job keeps. */
jf_field jf_dockerfile_field(jf_job_read *r, const jf_source *src, const char *v, jf_span at);
/**
 * Sets the job's image as built by `df` (whose source `src` the job keeps):
 * its base image, what its RUNs install, and what may install more. Nothing
 * when it has no FROM.
 */
void jf_dockerfile_build_image(jf_job_read *r, const jf_dockerfile *df, const jf_source *src);

#endif
