/* facts.h - the facts of one lint: what the rules read
 *
 * jf_facts_gather() runs the stages that learn about the job: it follows the
 * command through the shell (shell/), reads each Python file the job runs or
 * imports once, following local imports (python/, sources/), and keeps what
 * they found beside the job, its image and its files. The rules read these
 * and nothing else; jf_facts_release() frees everything gathered.
 */
#ifndef JF_FACTS_H
#define JF_FACTS_H

#include "env/image.h"
#include "job/job.h"
#include "python/pyfacts.h"
#include "shell/shell.h"
#include "sources/workspace.h"

/* A relative folder the job's Python puts on sys.path: the call, and the
 * container folder it is in the working folder `cwd`. */
typedef struct {
	const jf_source *src;
	jf_span at;
	char *cpath, *cwd;
} jf_sys_path_relative;

typedef struct jf_facts {
	const jf_job *job;      /* NULL when a file is linted alone */
	const jf_image *image;  /* what is known of the job's image; never NULL */
	const jf_workspace *ws; /* the files read */
	jf_shell_facts shell;   /* what the command does */
	/* The folders on this machine that are on sys.path besides the entry
	 * script's: what PYTHONPATH adds (the job's env, and what the command
	 * sets for the scripts it runs: `PYTHONPATH=src python train.py`,
	 * `export PYTHONPATH=...`), and the folders of the local projects the
	 * image or the command installs (`pip install -e .`). */
	jf_strings sys_path;
	bool sys_path_open; /* PYTHONPATH is set to a value not known: any folder may be on it */
	/* What the job's Python puts on sys.path itself (python/syspath.h),
	 * read as the gather reaches each file, so that the modules it finds
	 * there are followed: the folders of this machine it inserts before
	 * the script's folder (`sys.path.insert(0, ...)`), and those it adds
	 * after PYTHONPATH's (`append`, `site.addsitedir`). A relative folder
	 * is the working folder's, as Python reads it. */
	jf_strings sys_path_first, sys_path_last;
	/* It changes sys.path in a way not known (a value jobfix cannot
	 * evaluate, `sys.path = ...`, a relative folder where the working
	 * folder is not known): any folder of the code may be on it. */
	bool sys_path_edits_unknown;
	/* The relative folders it adds, each where and as what container
	 * folder, for the findings that a module is not on sys.path. */
	JF_ARRAY(jf_sys_path_relative) sys_path_relative;
	/* The folders it adds whose modules are not known, each as where and
	 * what: "train.py:4 puts /opt/apex, outside the code, on sys.path". */
	jf_strings sys_path_unknown_folders;
	/* Why sys.path is not known whole, once per place, with file:line: a
	 * value not known of PYTHONPATH or of a change the code makes
	 * (JF110 says them for --verbose). */
	jf_strings sys_path_why;
	/* The Python facts by file index, with the files' trees: above a budget,
	 * the trees of files read are released (with the facts, which hold
	 * their nodes) and parsed and walked again when asked for (facts.c). */
	struct jf_resident *resident;
	/* The names the job's Python files call that may be another file's
	 * (jf_py_called_names), and by file index the names each module calls
	 * where its code runs for the job (jf_py_own_calls), once every module
	 * is read. */
	jf_strmap called;
	JF_ARRAY(jf_strmap) own_calls;
	bool called_known;
} jf_facts;

/* Called once with each Python file the gather reads, while it holds the
 * file's tree and facts: what the rules' pass over the files takes of a
 * file then needs no tree later (rules/record.h). */
typedef struct {
	void (*take)(void *data, const jf_pyfacts *py);
	/* For a file loaded unparsed (jf_file.kept): its names, read back with
	 * what the recorder took of it, instead of a walk and take(); NULL (or
	 * NULL returned): the file is parsed and walked. */
	jf_py_names *(*restore)(void *data, const jf_file *file);
	void *data;
} jf_facts_recorder;

/* How jf_facts_gather() keeps trees, and whom it hands the files it reads. */
typedef struct {
	/* The facts keep the trees (and Python facts) of at most `tree_budget`
	 * bytes of Python source at once (a tree takes about 15 bytes per byte
	 * of source; SIZE_MAX: all) and, when `budget_fits_largest`, of at
	 * least twice the largest file read: a file too big for the budget
	 * would be parsed again by each reader. */
	size_t tree_budget;
	bool budget_fits_largest;
	const jf_facts_recorder *recorder; /* handed each Python file when first read; or NULL */
} jf_gather_options;

/**
 * Gathers the facts of `job` (NULL for a file linted alone, already in `ws`)
 * into `out`, as `opts` says. The job, the image, the workspace and the
 * recorder must outlive the facts.
 */
void jf_facts_gather(jf_facts *out, const jf_job *job, const jf_image *image, jf_workspace *ws,
                     const jf_gather_options *opts);
/**
 * The facts of Python file `file`; NULL for a file of another language, or
 * one the facts did not read. A file whose tree was released is parsed and
 * walked again: facts and nodes taken earlier from it are no longer valid
 * after jf_facts_settle().
 */
const jf_pyfacts *jf_facts_python(const jf_facts *self, const jf_file *file);
/** The tree of `file`, parsed again if it was released; NULL when that fails. */
TSTree *jf_facts_tree(const jf_facts *self, const jf_file *file);
/**
 * Releases trees above the budget, the last read first: no node or Python
 * facts taken from the facts before may be used after. The rules call it between checks, before
 * each file of the checks' pass (rules/checks.h), and between the files of a
 * check's own loop, whose state across files is text.
 */
void jf_facts_settle(const jf_facts *self);
/* How many files a loop over them names ahead (jf_facts_read_ahead), and
 * the most source those parsed again may hold together, the first but always
 * named: their trees take about 15 bytes per byte. With fewer, the pool's
 * thread waits while the loop's looks at a file. */
#define JF_READ_AHEAD 16
#define JF_READ_AHEAD_BYTES (1u << 20)

/**
 * In a loop over `size` files (`files`) about to be read in that order, at
 * the `from`th: names it and the next ones (JF_READ_AHEAD in all, fewer
 * where those released hold more than JF_READ_AHEAD_BYTES of source) to the
 * workspace's prefetch pool, when it has one. The trees of those that were
 * released are parsed again on its threads, and jf_facts_python() takes them.
 * Those named before and not among them are forgotten (from == size: all,
 * after the loop). The trees made ahead are outside the budget: at most
 * JF_READ_AHEAD_BYTES of source more, or the one file named first.
 */
void jf_facts_read_ahead(const jf_facts *self, const jf_file *const *files, size_t from,
                         size_t size);
/** The most Python files whose trees (and facts) the facts kept at once. */
size_t jf_facts_trees_peak(const jf_facts *self);
/** The most source bytes of files named to be parsed again ahead at once. */
size_t jf_facts_ahead_peak(const jf_facts *self);
/** The Python files of the lint with their facts. */
jf_pyfiles jf_facts_pyfiles(const jf_facts *self);
void jf_facts_release(jf_facts *self);

#endif
