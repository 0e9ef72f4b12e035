/* project.h - a local Python project that pip installs: what it requires, its commands, its modules
 *
 * `pip install .`, `pip install -e path`, a `-e .` line of a requirements
 * file: pip reads the project's metadata and installs what it requires, its
 * console scripts (commands on PATH) and its packages (importable from
 * anywhere). The metadata is read as pip's build backends read it, without
 * running anything: pyproject.toml ([project], PEP 621, and
 * [tool.poetry]), setup.cfg ([options]) and setup.py (the literal
 * arguments of its setup() call). What is computed at build time
 * (a `dynamic` field with no file behind it, install_requires built by
 * code) is not known, and `unknown` says why.
 */
#ifndef JF_JOB_PROJECT_H
#define JF_JOB_PROJECT_H

#include <stdbool.h>

#include "core/util.h"

/* A console script: the command `name` calls a function of `module`. */
typedef struct {
	char *name;   /* "train" */
	char *module; /* "mypkg.cli" */
	char *file;   /* that module's file on this machine, or NULL when not found */
} jf_console_script;

typedef struct {
	char *metadata;      /* the file the requirements come from ("pyproject.toml"), or NULL */
	jf_strings requires; /* its requirements as written ("torch>=2.0; python_version>'3.8'") */
	const char *unknown; /* why what it requires is not known (static), or NULL */
	JF_ARRAY(jf_console_script) scripts;
	/* The folders of this machine it makes importable: the project's folder,
	 * and its package folder (`src/`, package-dir) when it has one. */
	jf_strings roots;
} jf_project;

/**
 * Reads the project in folder `dir` of this machine, with extras `extras`
 * (the `[a,b]` of `.[a,b]`, without brackets, or NULL). Always fills `out`;
 * a folder with no metadata file has `unknown` set.
 */
void jf_project_read(const char *dir, const char *extras, jf_project *out);
void jf_project_release(jf_project *self);

/**
 * Splits a project argument of pip (`.`, `./lib[dev]`, `path/`) into its
 * folder (returned, caller frees) and its extras (*extras, caller frees, or
 * NULL when none).
 */
char *jf_project_split(const char *arg, char **extras);

#endif
