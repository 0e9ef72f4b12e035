/* pip.h - the grammar of what pip and conda are told to install
 *
 * One reading of `pip install` / `conda install` arguments, of
 * requirements files and of conda environment files, for every place a job
 * installs packages: the Dockerfile that builds its image
 * (job/dockerfile.c), Azure ML's conda environment (job/azureml.c), a local
 * project's requirements (job/project.c), and its command and launch
 * scripts (shell/installs.c). Each argument becomes a named
 * distribution (with its version when pinned with ==), a requirements file
 * to read, or something jobfix cannot name (a path, a URL, -e).
 */
#ifndef JF_JOB_PIP_H
#define JF_JOB_PIP_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "core/source.h"

typedef enum {
	JF_PIP_NAMED,        /* a distribution: name (and version) */
	JF_PIP_REQUIREMENTS, /* -r FILE: path is the file as written */
	JF_PIP_PROJECT,      /* a local project (`.`, `-e path`): path as written */
	JF_PIP_UNKNOWN,      /* a URL, a variable, a wheel file: what it brings is not known */
} jf_pip_kind;

typedef struct {
	jf_pip_kind kind;
	char *name;    /* JF_PIP_NAMED */
	char *version; /* its exact pin (`==2.1.0`, conda's `=2.1.0`), or NULL */
	char *spec;    /* its version specifier as pip reads it (">=1.20,<2"; conda's
	                  `=1.24` is "==1.24.*"), or NULL when it has none */
	/* A conda package: its recipe may bring packages its PyPI requirements
	 * do not name (conda's pytorch brings pyyaml), so what it brings is not
	 * known. False for python, pip, setuptools and wheel. */
	bool conda;
	char *path;    /* JF_PIP_REQUIREMENTS, JF_PIP_PROJECT */
	size_t word;   /* the index of the argument it comes from */
} jf_pip_item;

/**
 * Reads the arguments after `pip install` (or `conda install` when !pip):
 * words[0..n), NULL for a word whose value is not known. Calls `fn` for each
 * item; options and their values are skipped.
 */
typedef void (*jf_pip_fn)(const jf_pip_item *item, void *data);
void jf_pip_install_args(const char *const *words, size_t n, bool pip, jf_pip_fn fn, void *data);

/**
 * Reads requirements-file text: each line is a requirement as pip reads it
 * (comments, blank lines and options dropped; `-r`/`-c` give a requirements
 * file relative to this one, `-e` a project). `item.word` is the byte offset
 * of the line in `text`.
 */
void jf_pip_requirements(const char *text, jf_pip_fn fn, void *data);

/**
 * Reads the requirements file at `path` (a file of this machine) and the
 * files its -r lines name, relative to it, at most 4 deep. `fn` gets the
 * named distributions, projects and what cannot be named, never
 * JF_PIP_REQUIREMENTS; a file that cannot be read, or an absolute -r path
 * (another machine's), is JF_PIP_UNKNOWN. `item.word` is 0.
 */
void jf_pip_requirements_file(const char *path, jf_pip_fn fn, void *data);

/**
 * Reads the conda environment file at `path` (`conda env create -f`,
 * Azure ML's `conda_file`): its `dependencies` are conda specs, and the
 * `pip:` list among them requirements as pip reads them (-r relative to the
 * file). `item.word` is the byte offset of the entry in the file. Returns
 * false, calling nothing, when the file cannot be read or has no
 * `dependencies` list.
 */
bool jf_conda_environment(const char *path, jf_pip_fn fn, void *data);

/** The same for the environment mapping `root` of `doc`, parsed from `src`; -r paths start from `dir`. */
bool jf_conda_environment_node(const jf_source *src, yaml_document_t *doc, yaml_node_t *root,
                               const char *dir, jf_pip_fn fn, void *data);

void jf_pip_item_release(jf_pip_item *item);

#endif
