/* record.h - what the checks' pass over the files takes of each Python file while the gather holds its tree
 *
 * A check's part that looks at every file (jf_check_each_file()) reads the
 * file's tree in the pass after the gather: above the tree budget, a tree
 * released by then is parsed again for it. A part that reads instead what
 * its recorder took of the file when the gather first read it needs no tree
 * (jf_check_each_record()). A recorder sees the file alone, with the job and
 * its image, which are known before the gather: what the files read later
 * change (the packages the command installs, which functions run, whether a
 * module is imported only inside functions, sys.path) the part judges in the
 * pass. Records live as long as the lint, in one arena.
 */
#ifndef JF_RECORD_H
#define JF_RECORD_H

#include "core/strmap.h"
#include "facts/facts.h"
#include "rules/config.h"

typedef enum {
	JF_RECORD_PYVERSION, /* JF310: syntax and annotations by the Python version they need */
	JF_RECORD_PACKAGES,  /* JF110, JF111: the imports that run whenever the file does */
	JF_RECORD_ENVVARS,   /* JF108: the reads of os.environ["X"] that may raise */
	JF_RECORD_PATHS,     /* JF103, JF106, JF107, JF101 through names: the I/O calls */
	JF_RECORD_APIS,      /* JF120, JF121: the uses of names of the data, by group */
	JF_RECORD_COUNT
} jf_record_kind;

typedef struct jf_records jf_records;

/** The records of a lint of `job` (NULL: a file alone) with `image`, taken
 * for the checks that `cfg` enables. */
jf_records *jf_records_new(const jf_config *cfg, const jf_job *job, const jf_image *image);
void jf_records_free(jf_records *self);
/** What the gather hands the files it reads to (jf_facts_gather()). */
jf_facts_recorder jf_records_recorder(jf_records *self);
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

/* The recorders, by kind: what each takes of the Python file of `py`. */
void *jf_pyversion_record(const jf_record_ctx *ctx, const jf_pyfacts *py);
void *jf_packages_record(const jf_record_ctx *ctx, const jf_pyfacts *py);
void *jf_envvars_record(const jf_record_ctx *ctx, const jf_pyfacts *py);
void *jf_paths_record(const jf_record_ctx *ctx, const jf_pyfacts *py);
void *jf_apis_record(const jf_record_ctx *ctx, const jf_pyfacts *py);

/* Each record written (the fact cache's entries of files) and read back in
 * `arena` for `file` (the reader is bad when the bytes are not a whole record). */
void jf_pyversion_record_write(jf_buf *b, const void *record);
void *jf_pyversion_record_load(jf_wire *w, jf_arena *arena, const jf_file *file);
void jf_packages_record_write(jf_buf *b, const void *record);
void *jf_packages_record_load(jf_wire *w, jf_arena *arena, const jf_file *file);
void jf_envvars_record_write(jf_buf *b, const void *record);
void *jf_envvars_record_load(jf_wire *w, jf_arena *arena, const jf_file *file);
void jf_paths_record_write(jf_buf *b, const void *record);
void *jf_paths_record_load(jf_wire *w, jf_arena *arena, const jf_file *file);
void jf_apis_record_write(jf_buf *b, const void *record);
void *jf_apis_record_load(jf_wire *w, jf_arena *arena, const jf_file *file);

#endif
