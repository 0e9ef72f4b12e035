/* cache.h - the fact cache: a lint's result kept between runs, given back while nothing it read changed
 *
 * An entry holds one lint of one path. Its name is a hash of what decides
 * the result besides the files: jobfix's build (the version and the
 * executable's identity, so a rebuild starts afresh), the current folder,
 * the path as given and the config (its file and the options). It holds the
 * folders the lint could read (core/confine.h), every question the lint
 * asked the file system (core/deps.h) with its answer's hash, and what the
 * lint left: its findings (places, related places, help, category, edits),
 * the files it read, its skipped checks, what its checks covered (core/cover.h)
 * and counts. A later lint of the same path asks the questions again; when
 * every answer is the same, the findings are given back with their files
 * read anew, and nothing is parsed.
 *
 * Entries live in the cache folder only (never in the linted tree), are
 * written to a temporary file and renamed into place (a concurrent run sees
 * a whole entry or none), carry a checksum (a damaged or foreign entry is
 * ignored, and the lint writes it anew), and the folder is kept under
 * JF_CACHE_MAX_BYTES and JF_CACHE_MAX_ENTRIES by removing the least recently
 * used entries.
 */
#ifndef JF_CACHE_H
#define JF_CACHE_H

#include "core/confine.h"
#include "core/deps.h"
#include "linter.h"
#include "rules/record.h"

#define JF_CACHE_MAX_BYTES (256u << 20)
#define JF_CACHE_MAX_ENTRIES 20000
#define JF_CACHE_MAX_ENTRY (64u << 20)

typedef struct {
	unsigned char hash[16];
	char name[33]; /* the entry's file name: the hash in hex */
} jf_cache_key;

/** The key of a lint of `path` by `self`; false when its result cannot be kept. */
bool jf_cache_key_of(const jf_linter *self, const char *path, jf_cache_key *key);
/**
 * Adds the result of the entry `key` to `self` when it exists, is whole,
 * was made under the roots `in` and every answer it holds is still the same;
 * false (and `self` untouched) otherwise.
 */
bool jf_cache_replay(jf_linter *self, const jf_cache_key *key, const jf_confine *in);
/**
 * Writes the entry `key`: the roots `in`, the questions `deps`, and what
 * `self` collected from the marks on (diagnostics from `first_diag`, sources
 * from `first_source`) with `skipped` and `covered`. Does nothing when a finding points
 * into a source that was not read from a file, or the cache cannot be
 * written (a cache is a help, never a failure).
 */
void jf_cache_store(jf_linter *self, const jf_cache_key *key, const jf_confine *in,
                    const jf_deps *deps, size_t first_diag, size_t first_source,
                    const jf_strings *skipped, const jf_strings *covered,
                    size_t python_files, size_t python_walks);
/*
 * The entries of files: what a job's lint takes of each Python file it
 * reads (its names, imports and command-line steps, python/pyfacts.h, and
 * the records of the checks, rules/record.h), kept under a key of the
 * build, the config, the current folder, what the recorders read of the
 * job and image (jf_records_key()), and the file's path and bytes. A later lint of a job that reads the same
 * file loads it unparsed (sources/workspace.h) and reads its products back:
 * only the files that changed are parsed and walked, and the others only
 * when a check asks for their tree. A file is kept only when the syntax
 * check found nothing in it and no rule query needs its tree.
 */
typedef struct jf_file_cache jf_file_cache;

/** The entries of files of a lint of `job` (NULL: a file alone, which has
 * none), its records in `records`; NULL when nothing is kept. */
jf_file_cache *jf_file_cache_new(const jf_linter *self, const jf_job *job, jf_records *records);
void jf_file_cache_free(jf_file_cache *fc);
/** What the lint's workspace asks of the entries (NULL for a NULL `fc`). */
const jf_kept_files *jf_file_cache_kept(jf_file_cache *fc);
/** The gather's recorder: the records' own, and the read back of kept files. */
jf_facts_recorder jf_file_cache_recorder(jf_file_cache *fc);
/** Writes the entries of the Python files of `facts` that were read anew
 * and may be kept, once the gather is over, on a thread of its own that
 * jf_file_cache_free() waits for. */
void jf_file_cache_store(jf_file_cache *fc, const jf_facts *facts);

/**
 * Removes the least recently used entries of `dir` (down to three quarters)
 * when they are more than `max_bytes` or `max_entries`, and temporary files
 * older than an hour (left by a run that was killed).
 */
void jf_cache_prune(const char *dir, uint64_t max_bytes, size_t max_entries);

#endif
