/* yml.h - YAML documents with positions: loading, node spans and scalars, comments
 *
 * Shared by the job readers (lib/job/), the config loader and the
 * suppressions (rules/config.c, rules/suppress.c), and the readers of
 * jobfix's own data files (env/, triage/patterns.c: jf_yml_load_data()).
 * Nodes are libyaml's, borrowed from the document; spans are byte offsets in
 * the source the document was parsed from.
 */
#ifndef JF_YML_H
#define JF_YML_H

#include <yaml.h>

#include "core/source.h"

typedef enum {
	JF_YML_OK,
	JF_YML_BINARY,   /* a NUL byte at `at` */
	JF_YML_TOO_DEEP, /* flow collections nested deeper than JF_YML_MAX_FLOW_DEPTH at `at` */
	JF_YML_SYNTAX,   /* libyaml's `problem` at `at`, with an optional `context` */
} jf_yml_status;

/* libyaml's scanner takes time quadratic in the nesting of flow collections
 * ([ and {); a file nested deeper is refused before libyaml sees it. */
#define JF_YML_MAX_FLOW_DEPTH 256

typedef struct {
	jf_yml_status status;
	jf_span at;
	const char *problem; /* static text */
	const char *context; /* static text, or NULL */
	jf_span context_at;
} jf_yml_error;

/**
 * Parses the first document of `src` into `doc`. Returns true (the caller
 * deletes `doc` with yaml_document_delete()), or false with `*err` set.
 */
bool jf_yml_load(const jf_source *src, yaml_document_t *doc, jf_yml_error *err);

/* The documents of a YAML stream (`---` between them). */
typedef JF_ARRAY(yaml_document_t) jf_yml_docs;

/* A stream of more documents is read up to this many. */
#define JF_YML_MAX_DOCS 1000

/**
 * Parses the documents of `src` into `docs`: at least one (an empty text is
 * one document without a root node). Returns true (release with
 * jf_yml_docs_release()), or false with `*err` set and nothing to release.
 */
bool jf_yml_load_all(const jf_source *src, jf_yml_docs *docs, jf_yml_error *err);
void jf_yml_docs_release(jf_yml_docs *docs);

/** The node at `index` of `doc` (libyaml's 1-based index). */
yaml_node_t *jf_yml_node(const yaml_document_t *doc, int index);
/** The span of node `n` in `src`; a block scalar's span ends with its first line. */
jf_span jf_yml_span(const jf_source *src, const yaml_node_t *n);
/** The value of `key` in mapping `map` of `doc`, or NULL (also when `map` is not a mapping). */
yaml_node_t *jf_yml_get(const yaml_document_t *doc, const yaml_node_t *map, const char *key);
/**
 * The first key of mapping `map` that is not one of NULL-terminated `known` (a key that is not
 * a scalar too), or NULL. Strict readers of data files reject it: a comma in an unquoted value
 * of a flow mapping (`{why: a, b}`) makes a key of what follows it.
 */
yaml_node_t *jf_yml_unknown_key(const yaml_document_t *doc, const yaml_node_t *map,
                                const char *const *known);
/** The value of a scalar node, or NULL for NULL and other nodes. */
const char *jf_yml_scalar(const yaml_node_t *n);
/** A copy of the scalar value of `key` in mapping `map`, or NULL when absent or empty. */
char *jf_yml_text(const yaml_document_t *doc, const yaml_node_t *map, const char *key);
/**
 * Loads jobfix's own YAML data[0, len) (a file of data/, trusted) into *doc: false, with
 * *error_line (1-based) set, when it is not valid YAML or has no document.
 */
bool jf_yml_load_data(const char *data, size_t len, yaml_document_t *doc, unsigned *error_line);
/** Whether `n` is a plain null scalar: empty, `~`, `null`. */
bool jf_yml_is_null(const yaml_node_t *n);
/** "a mapping", "a list" or "a scalar". */
const char *jf_yml_type_name(const yaml_node_t *n);
/** The entry of NULL-terminated `known` nearest to `name` (a typo or a prefix), or NULL. */
const char *jf_yml_suggest(const char *name, const char *const *known);

/**
 * Calls `fn` for each comment of `src` (from its '#' to the end of its line)
 * in the document `doc` parsed from it. A '#' counts when it starts the line
 * or follows a space or tab and lies outside every scalar of the document,
 * quoted and block scalars included (the header line of a block scalar, `|
 * # text`, may carry a comment).
 */
typedef void (*jf_yml_comment_fn)(void *data, jf_span comment);
void jf_yml_comments(const jf_source *src, const yaml_document_t *doc, jf_yml_comment_fn fn,
                     void *data);

#endif
