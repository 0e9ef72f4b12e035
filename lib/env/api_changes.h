/* api_changes.h - names that exist only in some versions of a library or of Python
 *
 * From data/api-changes.yaml (docs/data.md): each entry is a dotted name
 * (an attribute, a module, or a keyword argument of a call), the
 * distribution whose version decides, the versions where a use fails and
 * the error it raises. Read once per process, then only read.
 *
 * A job's version of a distribution is an exact version ("1.26.4") or a
 * pip specifier ("numpy>=1.20,<2"); jf_api_fails() says whether every
 * version it allows gives the same answer.
 */
#ifndef JF_API_CHANGES_H
#define JF_API_CHANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "env/image.h"

/* What a use of the name is: an attribute (`np.float`), a module (`import
 * torch._six`), a keyword argument of a call, a method of an object a
 * receiver call makes (`pd.read_csv(...).append`), or the number of values a
 * method's result is unpacked into (`obs, r, done, info = env.step(a)`). */
typedef enum { JF_API_ATTRIBUTE, JF_API_MODULE, JF_API_KEYWORD, JF_API_METHOD, JF_API_ARITY } jf_api_kind;

typedef struct {
	const char *name;     /* "numpy.float" */
	const char *package;  /* "numpy", or "python" for the standard library */
	jf_api_kind kind;
	const char *keyword;  /* JF_API_KEYWORD: the keyword argument */
	bool required;        /* JF_API_KEYWORD: a call fails without it (else: with it) */
	int position;         /* where a required argument may come positionally (1-based), or 0 */
	const char *removed;  /* first version that fails, or NULL */
	const char *restored; /* first version that works again, or NULL */
	const char *added;    /* first version that has it, or NULL */
	const char *error;    /* the first line the job prints */
	const char *replacement; /* what to use instead (text), or NULL */
	const char *fix;      /* the exactly equivalent name or keyword, or NULL */
	/* JF_API_METHOD, JF_API_ARITY: the calls that make the object, NULL-terminated */
	const char *const *receivers;
	int arity;            /* JF_API_ARITY: how many values the method returns where it fails */
	unsigned line;        /* of the entry in data/api-changes.yaml */
} jf_api_change;

/** All entries, sorted by name (then by order in the file). */
const jf_api_change *jf_api_changes(size_t *count);
/**
 * The entries named exactly `name` (`len` bytes): the first in *first and
 * how many follow with that name; 0 when none.
 */
size_t jf_api_find(const char *name, size_t len, size_t *first);
/** The first attribute or module entry named exactly `name` (`len` bytes), or NULL. */
const jf_api_change *jf_api_find_name(const char *name, size_t len);

/**
 * Whether `c`'s use fails in version `version` (exact, "2.1.0+cu121") or in
 * every version that pip specifier `spec` allows (">=1.24,<2", "~=1.21",
 * "==1.23.*"): JF_YES / JF_NO, or JF_UNKNOWN when the versions allowed give
 * both answers, or a pre-release of the very release that decides.
 * Exactly one of `version` and `spec` is non-NULL.
 */
jf_tri jf_api_fails(const jf_api_change *c, const char *version, const char *spec);

/**
 * Checks the embedded data: every entry has a name, a known package kind, a
 * source, an error and at least one version, and its versions are in order
 * (removed < restored). Returns 0, or JF_EPARSE with the file and line in `err`.
 */
int jf_api_changes_check(jf_error *err);

#endif
