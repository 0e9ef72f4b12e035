/* record.h - what the checks' pass over the files takes of each Python file while the gather holds its tree
 *
 * A check's part that looks at every file (jf_check_each_file()) and reads
 * the file's tree does so in the pass after the gather: above the tree
 * budget, a tree released by then is parsed again for it. A part that reads
 * instead what its recorder took of the file when the gather first read it
 * needs no tree (its jf_file_part has no reads_tree). A recorder sees the
 * file alone, with the job and its image, which are known before the
 * gather: what the files read later change (the packages the command
 * installs, which functions run, whether a module is imported only inside
 * functions, sys.path) the part judges in the pass. The kinds of records are
 * the JF_RECORD lines of checks.def; records live as long as the lint, in
 * one arena, and are kept in the fact cache with the file (cache.c), under a
 * key that holds what each recorder reads besides the file (JF_READS_*).
 */
#ifndef JF_RECORD_H
#define JF_RECORD_H

#include "core/strmap.h"
#include "facts/facts.h"
#include "rules/config.h"

/* What a recorder reads besides the file (JF_RECORD's `reads`). A recorder
 * that starts reading something else of the job or image adds it here and
 * to jf_records_key(), or a record kept in the cache would be stale. */
enum {
	JF_READS_CODE_DIR = 1 << 0, /* the job's code folder */
	JF_READS_ENV = 1 << 1,      /* the job's environment variables and their values */
	JF_READS_PYTHON = 1 << 2,   /* the image's Python major version */
};

typedef enum {
#define JF_RECORD(kind, check, prefix, reads) JF_RECORD_##kind,
#define JF_CHECK(id, name, sev, cat, summary, help, fn)
#define JF_EMITTED(id, name, sev, cat, summary, help)
#define JF_HOOK(name, fn)
#include "rules/checks.def"
#undef JF_RECORD
#undef JF_CHECK
#undef JF_EMITTED
#undef JF_HOOK
	JF_RECORD_COUNT
} jf_record_kind;

typedef struct jf_records jf_records;

/** The records of a lint of `job` (NULL: a file alone) with `image`, taken
 * for the checks that `cfg` enables. */
jf_records *jf_records_new(const jf_config *cfg, const jf_job *job, const jf_image *image);
void jf_records_free(jf_records *self);
/** What the gather hands the files it reads to (jf_facts_gather()). */
jf_facts_recorder jf_records_recorder(jf_records *self);
/** Writes to `b` what the recorders of the lint read of the job and image
 * besides each file: the fact cache keeps a file's records under it. */
void jf_records_key(const jf_records *self, jf_buf *b);
/** Writes what the recorders took of `file` to `b`. */
void jf_records_write(const jf_records *self, const jf_file *file, jf_buf *b);
/** Reads back what jf_records_write() wrote for `file` (its content the
 * same, recorded for the same job, image and checks): false, and nothing
 * kept, when `w` is not whole or was written for other checks. */
bool jf_records_load(jf_records *self, const jf_file *file, jf_wire *w);
/** What `kind`'s recorder took of `file`: NULL when the gather did not read
 * the file, or the check is off. */
const void *jf_records_of(const jf_records *self, jf_record_kind kind, const jf_file *file);

/* Which folders of this machine hold which modules, as a check asks: each
 * answer, and the compiled extensions of each folder, found once. */
typedef struct {
	jf_strmap answers;    /* "dir\0top": "yes" or "no" */
	jf_strmap extensions; /* "dir": listed; "dir\0top": a top.*.so in dir */
} jf_module_finder;

/* What a recorder sees besides the file. */
typedef struct {
	jf_arena *arena;         /* where the record goes */
	const jf_job *job;       /* NULL: a file alone */
	const jf_image *image;
	jf_module_finder *local; /* the lint's answers so far */
} jf_record_ctx;

/* Each kind's recorder: what it takes of the Python file of `py`; the
 * record written (the fact cache's entries of files) and read back in
 * `arena` for `file` (the reader is bad when the bytes are not a whole
 * record). */
#define JF_RECORD(kind, check, prefix, reads)                                                  \
	void *prefix##_record(const jf_record_ctx *ctx, const jf_pyfacts *py);                 \
	void prefix##_record_write(jf_buf *b, const void *record);                             \
	void *prefix##_record_load(jf_wire *w, jf_arena *arena, const jf_file *file);
#define JF_CHECK(id, name, sev, cat, summary, help, fn)
#define JF_EMITTED(id, name, sev, cat, summary, help)
#define JF_HOOK(name, fn)
#include "rules/checks.def"
#undef JF_RECORD
#undef JF_CHECK
#undef JF_EMITTED
#undef JF_HOOK

#endif
