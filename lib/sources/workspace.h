/* workspace.h - the files of one lint: each read once, parsed once, kept until the lint ends
 *
 * A jf_file is a Python or shell file the lint reads (the job's command
 * counts as one, parsed from the job file's own bytes), with its tree and its
 * role in the job. The workspace owns the files, their trees and the sources
 * it read; jf_workspace_keep_sources() hands the sources to whoever keeps
 * the findings, which point into them. Problems of reading and parsing are
 * findings too: JF005 (not linted) and JF301 (does not parse). Above the
 * lint's tree budget, the facts release a Python file's tree and parse its
 * source again when asked (facts/facts.h).
 */
#ifndef JF_WORKSPACE_H
#define JF_WORKSPACE_H

#include <sys/types.h>
#include <tree_sitter/api.h>

#include "core/arena.h"
#include "core/sink.h"
#include "core/strmap.h"
#include "core/source.h"

typedef enum {
	JF_ROLE_FILE,    /* linted alone */
	JF_ROLE_COMMAND, /* the job's command */
	JF_ROLE_LAUNCH,  /* a shell script the command runs */
	JF_ROLE_ENTRY,   /* a Python script the command or a launch script runs */
	JF_ROLE_MODULE,  /* a local module an entry script imports */
} jf_role;

typedef struct jf_file {
	const jf_source *src;
	jf_lang lang;
	TSTree *tree;
	jf_role role;
	size_t index;        /* in the workspace's files */
	char *fs_path;       /* on this machine; NULL for the command */
	char *container_dir; /* its folder in the container, or NULL when unknown */
	int depth;           /* of launch scripts / imports */
	char *import_root;   /* sys.path[0] on this machine, for Python files */
	bool lazy;           /* a module imported only inside functions (or by such a module):
	                        its top level runs only if they run */
	unsigned walks;      /* full walks of its tree so far (the tests count them) */
	bool syntax_reported; /* JF301 reported it when it was loaded */
	/* A shell file bash stops reading at a syntax error (JF301): the byte
	 * where it is; the commands from there on do not run. */
	bool syntax_error;
	uint32_t syntax_error_at;
	/* The job runs it by its path (`./run.sh`): the kernel reads its #! line
	 * (set by the shell's walk; JF401 reads it). */
	bool run_by_path;
	/* Why its syntax is not checked (a #! line that names another shell than
	 * bash), a sentence for --verbose; NULL when it is. In the file's arena. */
	const char *syntax_unchecked;
	bool kept;           /* loaded unparsed: what the lint takes of it was kept (jf_kept_files) */
	/* What is derived from the file during the lint (the strings above, its
	 * Python facts): released with the workspace. */
	jf_arena arena;
} jf_file;

/* Whether `file` is Python, read, and its text holds `s`: a file that does
 * not cannot have what a check looks for by that name, and whose tree may
 * have been released is not parsed again for nothing. */
static inline bool jf_python_mentions(const jf_file *file, const char *s)
{
	return file->lang == JF_LANG_PYTHON && file->src->status == JF_SOURCE_OK &&
	       strstr(file->src->data, s);
}

/* The Python files whose products an earlier lint kept (the fact cache's
 * entries of files, lib/cache.h): such a file is loaded without a tree, and
 * parsed only when a reader asks for it. */
typedef struct {
	/* Whether `src` has an entry; asked on the prefetch pool's threads too,
	 * which then read it without parsing it. */
	bool (*has)(const void *data, const jf_source *src);
	/* Whether the file of `src` is loaded unparsed: its entry is whole, and
	 * no rule query needs its tree. On the lint's thread. */
	bool (*take)(void *data, const jf_source *src);
	void *data;
} jf_kept_files;

/* One tree-sitter parser per language, made on first use. */
typedef struct {
	TSParser *parser[JF_LANG_COUNT];
} jf_parsers;

void jf_parsers_release(jf_parsers *self);

typedef struct jf_workspace {
	JF_ARRAY(jf_file *) files; /* in the order they were read */
	jf_sources sources;        /* the sources read (owned) */
	jf_parsers *parsers;       /* borrowed */
	jf_sink *sink;             /* borrowed */
	jf_strmap path_kinds;      /* jf_workspace_path_kind()'s answers so far */
	/* Modules of the code an import names that are not read, and why
	 * ("m/x.py is not read: the job reads more than 2000 files"), in order:
	 * their imports are not checked (JF110 says it for --verbose). */
	jf_strings unread;
	/* Called with each file once it is parsed (the linter starts its rule
	 * queries); NULL: none. */
	void (*on_parsed)(void *data, const jf_file *file);
	void *on_parsed_data;
	/* Reads and parses ahead the files jf_workspace_prefetch() names
	 * (sources/prefetch.h); NULL: each file is parsed when it is loaded. */
	struct jf_prefetch *prefetch;
	const jf_kept_files *kept; /* NULL: every file is parsed when loaded */
} jf_workspace;

/** Parses `n` ranges of `src` (n == 0: all of it) with `parsers`; NULL when the time budget ran out. */
TSTree *jf_parse(jf_parsers *parsers, jf_lang lang, const jf_source *src, const jf_span *ranges,
                 size_t n);

void jf_workspace_init(jf_workspace *self, jf_parsers *parsers, jf_sink *sink);
/** Frees the files and their trees, and the sources not handed over. */
void jf_workspace_release(jf_workspace *self);
/** Moves the sources read to the end of `into`. */
void jf_workspace_keep_sources(jf_workspace *self, jf_sources *into);

/**
 * Reads and parses the file at `fs_path` (shown as `display_path`), once per
 * lint: a second call returns the same file. A file the workspace's `kept`
 * takes is read and not parsed (jf_file.kept, no tree). Returns NULL after
 * reporting why it cannot (JF005, or JF301 for a binary file).
 */
jf_file *jf_workspace_load(jf_workspace *self, const char *fs_path, const char *display_path,
                           jf_lang lang, jf_role role, const char *container_dir, int depth);
/**
 * Says that jf_workspace_load() is about to load `fs_path` (as `display_path`
 * and `lang`), so that a thread of the prefetch pool may read and parse it
 * first; nothing without a pool or when the file is loaded already.
 */
void jf_workspace_prefetch(jf_workspace *self, const char *fs_path, const char *display_path,
                           jf_lang lang);
/**
 * Parses `n` byte ranges of `src` (owned by the caller, who keeps it until
 * the findings are rendered) as one file: the job's command. With n == 0,
 * the whole of `src`. NULL when parsing ran out of time.
 */
jf_file *jf_workspace_add_text(jf_workspace *self, const jf_source *src, const jf_span *ranges,
                               size_t n, jf_lang lang, jf_role role);
/** The file read from `fs_path`, or NULL. */
jf_file *jf_workspace_find(const jf_workspace *self, const char *fs_path);

typedef enum { JF_PATH_NONE, JF_PATH_FILE, JF_PATH_DIR, JF_PATH_OTHER } jf_path_kind;
/**
 * What `fs_path` is on this machine, asked of the file system once per lint
 * (a file that imports `os` a thousand times looks for os.py once).
 */
jf_path_kind jf_workspace_path_kind(jf_workspace *self, const char *fs_path);

#endif
