/* pymodules.h - what Python modules are: standard library (by version) or a distribution
 *
 * From data/stdlib.txt (top-level standard modules with the 3.x version that
 * added and removed each) and data/import-names.txt (import names whose PyPI
 * distribution has another name), and data/dependencies.txt (what each
 * distribution requires). All are parsed once per process.
 */
#ifndef JF_PYMODULES_H
#define JF_PYMODULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

typedef struct {
	int added_minor;   /* 3.x that added it; 0 when present in 3.0 */
	int removed_minor; /* 3.x without it; -1 never removed; 0 Python 2 only */
} jf_stdlib_module;

/** The standard-library module `name` (top level), or NULL when it is not one in any 3.x. */
const jf_stdlib_module *jf_stdlib_find(const char *name);

/**
 * The distributions that provide import `module` (dotted; the longest listed
 * prefix wins), the first the usual one: a NULL-terminated list, borrowed.
 * NULL when the data has no line for it: the top-level name is then the
 * distribution's own name.
 */
const char *const *jf_import_distributions(const char *module);

/**
 * What installing distribution `dist` brings (data/dependencies.txt): the
 * distributions it requires, normalized, NULL-terminated and borrowed; NULL
 * when the data has no line for it.
 */
const char *const *jf_dist_requires(const char *dist);

/**
 * Adds to `out` each of `dists` and, transitively, what it requires, as
 * normalized names (once each, with what `out` already holds). Returns the
 * first of `dists` the data has no line for (it may bring anything), or NULL.
 */
const char *jf_dist_closure(const jf_strings *dists, jf_strings *out);

/**
 * The distributions of data/dependencies.txt that require `dist` directly
 * (its reverse dependencies), as normalized names in the data's order:
 * NULL-terminated and borrowed, NULL when none does. A distribution no line
 * requires is brought only by what names it (a job, an image's build), never
 * through the requirements of another distribution the data knows.
 */
const char *const *jf_dist_required_by(const char *dist);

/** How many distributions data/dependencies.txt has a line for. */
size_t jf_dist_count(void);

#endif
