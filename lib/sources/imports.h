/* imports.h - finding the local modules a Python file imports, and loading them */
#ifndef JF_IMPORTS_H
#define JF_IMPORTS_H

#include "job/job.h"
#include "sources/workspace.h"

/* The imports of one file of the job: where Python looks for them. */
typedef struct {
	const jf_job *job;
	jf_workspace *ws;
	jf_file *from;     /* the importing file */
	jf_strings roots;  /* sys.path on this machine: the folders the code inserts first, the
	                      file's import root, then PYTHONPATH and the folders added after */
	bool lazy;         /* the import at hand runs only when a function runs (set per import) */
	bool prefetch;     /* only name the files to the workspace's prefetch pool, load none */
} jf_importer;

/**
 * Sets up the imports of `from` (a Python file read from disk), fixing its
 * import root; `first` (borrowed; NULL: none) are the folders on sys.path
 * before it (`sys.path.insert(0, ...)`), `sys_path` (borrowed) those after:
 * the folders PYTHONPATH and installed local projects add, and those the
 * code appends.
 */
void jf_importer_init(jf_importer *self, const jf_job *job, jf_workspace *ws, jf_file *from,
                      const jf_strings *first, const jf_strings *sys_path);
void jf_importer_release(jf_importer *self);
/** `import a.b` (and `from a.b import sub`): loads a, a/b and a/b/sub when local. */
void jf_import_module(jf_importer *self, const char *dotted, const char *sub);
/** `from .m import sub` (`spec` ".m"): the same, relative to the importing file's package. */
void jf_import_relative(jf_importer *self, const char *spec, const char *sub);

#endif
