/* pyfacts.h - what one Python file holds that the rules ask about, read in one walk
 *
 * jf_pyfacts_read() walks a file's tree once, in source order, and keeps the
 * nodes the checks and the evaluator look at: calls, assignments, attribute
 * uses, os.environ subscripts, definitions, imports, the constructs that
 * bind names, and the syntax whose Python version matters, with the fields
 * the checks read most (a call's callee and arguments, an assignment's
 * sides), taken as the walk passes them.
 * Each node keeps the function or class around it, so that a check can tell
 * a use in a body from one in a nested definition without walking again.
 * A check then reads these lists and looks around a node at most (its
 * parents, its children): no check walks a whole tree.
 *
 * Nodes are borrowed from the file's tree: valid while it is kept.
 */
#ifndef JF_PYFACTS_H
#define JF_PYFACTS_H

#include "core/strmap.h"
#include "core/wire.h"
#include "sources/tree.h"
#include "sources/workspace.h"

typedef enum {
	JF_PY_CALL,                 /* a: function, b: arguments */
	JF_PY_ASSIGNMENT,           /* `a = b`, `a: T = b`, `a: T`; a: left, b: right */
	JF_PY_AUGMENTED_ASSIGNMENT, /* `a += b`; a: left, b: right */
	JF_PY_ATTRIBUTE,            /* `x.attr`; a: object, b: attribute */
	JF_PY_ENVIRON_SUBSCRIPT,    /* `os.environ[...]`, `environ[...]` */
	JF_PY_FUNCTION,             /* function_definition */
	JF_PY_CLASS,                /* class_definition */
	JF_PY_LAMBDA,
	JF_PY_DECORATED,            /* decorated_definition */
	JF_PY_FOR,                  /* for_statement; a: left */
	JF_PY_IMPORT,               /* import_statement, import_from_statement */
	JF_PY_SYNTAX,               /* syntax of some Python versions only (JF310) */
	JF_PY_KIND_COUNT
} jf_py_kind;

#define JF_PY_NONE UINT32_MAX

typedef struct {
	TSNode node;
	TSNode a, b;    /* two of its fields, by kind (above); null nodes when absent */
	uint32_t def;   /* the innermost function or class around it (an index in
	                   `nodes`), or JF_PY_NONE at module level */
	uint32_t scope; /* the same, lambdas counted */
	jf_py_kind kind;
} jf_py_node;

/* One name an import brings: `import a.b` (module), `from a.b import c`
 * (from and name), `from . import c`, `from .m import *` (no name). */
typedef struct {
	TSNode module; /* the dotted name of `import a.b`; else a null node */
	TSNode from;   /* the module (dotted or relative) of `from ... import`; else null */
	TSNode name;   /* the imported name (without `as`), when a dotted name; else null */
} jf_py_import;

/* A place where a name is bound: an assignment's target, a parameter, a loop
 * variable, an import, a def or class name, a global statement. */
typedef struct {
	TSNode name;  /* the identifier */
	bool parsed;  /* `name = <...>.parse_args(...)` */
} jf_py_binding;

/* A call as the job-wide questions (what the job calls, what a module runs
 * when imported) ask about it, in text: they need no tree. */
typedef struct {
	const char *name;  /* the callee's last dotted part: `get_args` of `helper.get_args()` */
	const char *outer; /* the name of the outermost function or class around it; NULL at module level */
	bool bare;         /* the callee has no dot */
	bool main;         /* in the body of an `if __name__ == "__main__":` */
} jf_py_call;

/* An import as the gather follows it: `import a.b` (module), `from a.b
 * import c` (from, and sub: the imported name, when it has no dot). */
typedef struct {
	const char *module, *from, *sub;
	/* It may not run, or its failure is caught: in a `try`, or in a
	 * function the file itself does not call from its top level. */
	bool may_not_run;
} jf_py_import_text;

typedef JF_ARRAY(jf_py_import_text) jf_py_imports;

/* What the job-wide questions ask of a file, in text: kept when its tree is
 * not, so that they need no tree of it again. */
typedef struct jf_py_names {
	jf_arena arena; /* everything below */
	JF_ARRAY(jf_py_call) calls;     /* of_kind[JF_PY_CALL]'s, in the same order, each kind once */
	JF_ARRAY(const char *) defined; /* the names of its functions and classes, at any depth */
	/* The environment variables it sets, anywhere in it: os.environ["X"] = ...,
	 * os.environ.setdefault("X", ...), os.putenv("X", ...); and whether it sets
	 * one whose name is not a literal (os.environ[name] = ...,
	 * os.environ.update(...)). */
	JF_ARRAY(const char *) env_written;
	bool env_writes_unknown;
	jf_py_imports imports; /* in source order */
	/* Its argparse, absl and click statements (python/cmdline.h); NULL: none. */
	const struct jf_cmdline_record *cmdline;
} jf_py_names;

typedef struct jf_pyfacts {
	const jf_file *file;
	jf_arena arena; /* everything below */
	JF_ARRAY(jf_py_node) nodes;                    /* in source order */
	JF_ARRAY(uint32_t) of_kind[JF_PY_KIND_COUNT];  /* indices into `nodes`, by kind */
	JF_ARRAY(jf_py_import) imports;                /* in source order */
	/* The module of each absolute import statement, once per statement. */
	jf_nodes absolute_imports;
	JF_ARRAY(jf_py_binding) bindings;              /* in source order */
	/* The bodies of its `if __name__ == "__main__":` statements, at any depth:
	 * from the end of the condition to the end of the statement. */
	JF_ARRAY(jf_span) main_blocks;
	/* Its calls' and definitions' names (jf_py_names_read()), set and owned
	 * by whoever keeps the facts: they outlive the facts. */
	const jf_py_names *names;
} jf_pyfacts;

/* The Python files of a lint, with their facts (NULL for a file not read). */
typedef struct {
	const jf_workspace *ws;
	/* The facts of a file (read again if its tree was released). */
	const jf_pyfacts *(*get)(const void *data, const jf_file *file);
	const void *data;
	/* A file's names (its facts' `names`, kept when the facts are not); NULL: not read. */
	const jf_py_names *(*names)(const void *data, const jf_file *file);
	/* jf_py_called_names() of the files without an `entry`, once every module
	 * is read; NULL before. */
	const jf_strmap *called;
	const jf_strmap *own; /* with `called`, by file index: each module's jf_py_own_calls() */
} jf_pyfiles;

static inline const jf_pyfacts *jf_pyfiles_get(const jf_pyfiles *self, const jf_file *file)
{
	return self->get(self->data, file);
}

/** The names of `file` (jf_py_names_read()); NULL for a file not read. */
static inline const jf_py_names *jf_pyfiles_names(const jf_pyfiles *self, const jf_file *file)
{
	return self->names(self->data, file);
}

/** jf_py_own_calls() of module `file` with `called`; NULL before every module is read. */
static inline const jf_strmap *jf_pyfiles_own(const jf_pyfiles *self, const jf_file *file)
{
	return self->own ? &self->own[file->index] : NULL;
}

/**
 * Walks `file` (Python, parsed) once and records its facts; counts the walk
 * on the file. The facts are read-only; free them with jf_pyfacts_free()
 * before the file's tree, whose nodes they hold.
 */
jf_pyfacts *jf_pyfacts_read(jf_file *file);
void jf_pyfacts_free(jf_pyfacts *self);
/** The names of the calls and definitions of `py`, the environment
 * variables it sets and its imports (its command-line steps are the
 * caller's to add: jf_cmdline_record_of()); free with jf_py_names_free(). */
jf_py_names *jf_py_names_read(const jf_pyfacts *py);
void jf_py_names_free(jf_py_names *self);
/** Writes `names` to `b`. */
void jf_py_names_write(jf_buf *b, const jf_py_names *names);
/** Names written by jf_py_names_write() for `file`; NULL when `w` is not
 * whole (then bad). */
jf_py_names *jf_py_names_load(jf_wire *w, const jf_file *file);

/** Whether Python file `file` names the environment ("environ", "putenv"):
 * one that does not reads or sets no variable. */
static inline bool jf_py_mentions_environ(const jf_file *file)
{
	return jf_python_mentions(file, "environ") || jf_python_mentions(file, "putenv");
}

/** The variable an `os.environ["X"]` (or `environ["X"]`) subscript `n` of
 * `unit` names, when X is a plain string literal; else NULL. Caller frees. */
char *jf_py_environ_subscript(const jf_file *unit, TSNode n);

/** The `i`th node of kind `kind`. */
static inline const jf_py_node *jf_pyfacts_at(const jf_pyfacts *self, jf_py_kind kind, size_t i)
{
	return &self->nodes.items[self->of_kind[kind].items[i]];
}

/** The index in `nodes` of `n`, a recorded node; JF_PY_NONE when it is not one. */
uint32_t jf_pyfacts_find(const jf_pyfacts *self, TSNode n);
/**
 * The scope index that the statements of `body` run in: JF_PY_NONE for the
 * module, else the recorded function, class or lambda whose body it is.
 */
uint32_t jf_pyfacts_scope_of(const jf_pyfacts *self, TSNode body);
/**
 * The position in of_kind[kind] of the first node of that kind that starts at
 * or after byte `byte`: the nodes of a kind within a range are the ones from
 * there on that start before the range ends.
 */
size_t jf_pyfacts_first_at(const jf_pyfacts *self, jf_py_kind kind, uint32_t byte);
/** Whether recorded node `n` lies within `outer` (by bytes). */
static inline bool jf_py_within(const jf_py_node *n, TSNode outer)
{
	return ts_node_start_byte(n->node) >= ts_node_start_byte(outer) &&
	       ts_node_end_byte(n->node) <= ts_node_end_byte(outer);
}

/**
 * The names of functions the job's Python files (its entry scripts, `entry`
 * among them when not NULL, and the modules) call that may be another file's: qualified (`helper.get_args()`),
 * or bare names the calling file does not define itself; a module's calls
 * in its own `if __name__ == "__main__":` block are left out.
 */
void jf_py_called_names(const jf_pyfiles *files, const jf_pyfacts *entry, jf_strmap *out);
/**
 * The names a module (its `names`) calls where its code runs on import: outside its
 * `__main__` block, at module level, or in a function or class whose name is
 * in `called` (jf_py_called_names) or is itself called so, in turn.
 */
void jf_py_own_calls(const jf_py_names *names, const jf_strmap *called, jf_strmap *out);
/* Where a recorded node stands, kept as text (in a record that outlives the
 * tree): whether it runs when its module is imported. */
typedef struct {
	bool main;         /* in the module's `__main__` block */
	const char *outer; /* the name of its outermost function or class; NULL: none */
} jf_py_place;

/** The place of recorded node `pn` of `py`, its text in `arena`. */
jf_py_place jf_py_place_of(jf_arena *arena, const jf_pyfacts *py, const jf_py_node *pn);
/**
 * Whether the node at `place` runs for the job when its module is imported:
 * outside the module's `__main__` block and, inside functions and classes,
 * in an outermost one whose name is in `called` (jf_py_called_names) or
 * `own` (jf_py_own_calls).
 */
bool jf_py_place_runs(const jf_py_place *place, const jf_strmap *called, const jf_strmap *own);

#endif
