/* reader.h - what the readers of job formats share (private to lib/job/)
 *
 * A reader turns one job file, already parsed as YAML when it is YAML, into
 * the fields of a jf_job, reporting problems of the file into the sink.
 * formats.def lists the readers; a new format is a new file with one
 * reader and a line there. The helpers read YAML values with their
 * places.
 */
#ifndef JF_JOB_READER_H
#define JF_JOB_READER_H

#include <yaml.h>

#include "core/sink.h"
#include "core/yml.h"
#include "job/job.h"

/* One job file being read. */
typedef struct {
	jf_job *job;
	const jf_source *src;
	const jf_yml_docs *docs;    /* its YAML documents; NULL for a format that is not YAML */
	const yaml_document_t *doc; /* the first of them, or NULL */
	jf_sink *sink;
	const jf_image_builds *builds; /* the config's `images:`, or NULL */
} jf_job_read;

struct jf_job_reader {
	const char *name; /* "jobfix", "kubernetes", ... */
	/* Whether its files are YAML: then detect() and read() see the parsed documents. */
	bool yaml;
	/*
	 * Whether a text may be a file of this format, from the text alone and
	 * cheaply: how a folder's job files are found (jf_job_sniff()). NULL for
	 * a format known by its file name only (jobfix's own).
	 */
	bool (*sniff)(const char *text, size_t len);
	/* Whether the file is in this format, decided by its content; `docs` is NULL unless `yaml`. */
	bool (*detect)(const jf_source *src, const jf_yml_docs *docs);
	/* Fills the job from the file. */
	void (*read)(jf_job_read *r);
};

#define JF_JOB_FORMAT(reader) extern const jf_job_reader reader;
#include "job/formats.def"
#undef JF_JOB_FORMAT

/* YAML values */

/** The node at libyaml's 1-based `index`. */
yaml_node_t *jf_job__node(const jf_job_read *r, int index);
/** Where node `n` is written. */
jf_loc jf_job__loc(const jf_job_read *r, const yaml_node_t *n);
/** JF003: `key` must be `want` ("a string"), not what `n` is. */
void jf_job__wrong_type(jf_job_read *r, const yaml_node_t *n, const char *key, const char *want);
/** JF001 at a second YAML document of a format whose files hold one; `what` says why. */
void jf_job__one_document(jf_job_read *r, const char *what);
/** JF002: key `k` of `where` is not one of `known` (with a did-you-mean). */
void jf_job__unknown_key(jf_job_read *r, const yaml_node_t *k, const char *where,
                         const char *const *known);
/**
 * Notes why `fact` of the job is not known (a sentence, said for --verbose
 * by the checks that need the fact): the reader leaves the fact unset.
 */
void jf_job__unknown(jf_job_read *r, jf_job_fact fact, const char *fmt, ...) JF_PRINTF(3, 4);
/** Notes what the reader took `fact` to be, where the file does not say it. */
void jf_job__assume(jf_job_read *r, jf_job_fact fact, const char *fmt, ...) JF_PRINTF(3, 4);
/** A copy of `s` that lives as long as the job. */
char *jf_job__copy(jf_job_read *r, const char *s);
/** A string (any non-null scalar: YAML gives `python: 3.10` as a float) into `out`; JF003 when not. */
bool jf_job__string(jf_job_read *r, const yaml_node_t *n, const char *key, jf_field *out);
/** A whole number, 0 or more and unquoted; JF003 when not. */
bool jf_job__count(jf_job_read *r, const yaml_node_t *n, const char *key, long *out);

/**
 * Appends an accelerator the job asks for: `kind` (copied; NULL when the job
 * says only the memory) written at `kind_at`, one of `names`, `count` per
 * node (-1 when not given), the whole ask at `at`. Returns it, valid until
 * the next accelerator is added.
 */
jf_job_accel *jf_job__accel(jf_job_read *r, const char *kind, jf_loc kind_at,
                            jf_accel_names names, long count, jf_loc at);
/**
 * The bytes of a size written with its unit: "80GiB", "80Gi", "80GB", "80G",
 * "81920MiB", "80 GiB" (Ki, Mi, Gi, Ti and KiB... are powers of 1024; K, M,
 * G, T and KB... of 1000, as Kubernetes quantities); 0 for anything else, a
 * number without a unit included.
 */
uint64_t jf_job__bytes(const char *s);

/* Calls `fn` on each pair of mapping `n` whose key is one of `known`; JF002
 * for the others, and for those `fn` returns false. */
typedef bool (*jf_job_pair_fn)(jf_job_read *r, const char *key, yaml_node_t *k, yaml_node_t *v,
                               void *data);
void jf_job__each_pair(jf_job_read *r, yaml_node_t *n, const char *where,
                       const char *const *known, jf_job_pair_fn fn, void *data);

/**
 * Adds the variables of `n`, a mapping of names to values that the format
 * calls `key` (JF003 for anything else), to the job's env. `value` (NULL:
 * the scalar as written) gives the value kept for a value node, or NULL
 * for one set to what is known only at run time.
 */
typedef const char *(*jf_job_value_fn)(const yaml_node_t *v, void *data);
void jf_job__env_map(jf_job_read *r, yaml_node_t *n, const char *key, jf_job_value_fn value,
                     void *data);

/**
 * The byte ranges of scalar `n` of `src` that hold its value as bash reads
 * it, into u->ranges: a literal block line by line with its newlines, a
 * folded or plain multi-line value line by line without them (each later
 * line keeps its indentation, so that the words stay apart), a quoted
 * value within its quotes. False, with no ranges, when the bytes do not
 * hold exactly the value (escapes, a more indented folded line).
 */
bool jf_job__value_ranges(const jf_source *src, const yaml_node_t *n, jf_cmd_unit *u);

/**
 * Appends a shell unit for the scalar `n`: its ranges in the file when they
 * hold the value, else a copy of the value reported at the value.
 */
void jf_job__shell_unit(jf_job_read *r, const yaml_node_t *n);

/**
 * Appends a shell unit for the bytes `span` of the job file itself (a batch
 * script that is the command): its positions are the file's own.
 */
void jf_job__text_unit(jf_job_read *r, jf_span span);

/**
 * Appends the command of a program and its arguments, each word a YAML
 * node (a container's `command` + `args`), whose whole value is at `at`:
 * a shell unit for the text of `sh -c TEXT` (bash, `/usr/bin/env bash`,
 * `-lc` and the like too), else an argv unit of the words at their places.
 * A word that is not a scalar is kept with a NULL value.
 */
void jf_job__argv_unit(jf_job_read *r, yaml_node_t *const *words, size_t n, jf_loc at);
/** Frees what command unit `u` holds (its words, ranges and copy). */
void jf_job__unit_release(jf_cmd_unit *u);

#endif
