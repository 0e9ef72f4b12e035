/* paths.c - JF103, JF106, JF107 and JF101 through names: the paths the job's Python reads and writes
 *
 * Each file or folder argument of a known I/O call is evaluated (python/eval.c)
 * and, when its value is certain, placed in the container: under `workdir`
 * (so under `code`), an input mount (read-only), an output mount, scratch,
 * the image's own folders, or nowhere the job declares.
 *
 * JF103: a read under the working folder of a file the code folder does not
 * have and the job does not create. JF106: a write into an input mount.
 * JF107: an absolute path under nothing the job declares (a warning).
 * JF101: a developer-machine path that reaches the call through a variable,
 * a default or the environment, reported at its literal.
 */
#include "rules/checks.h"
#include "core/path.h"
#include "python/eval.h"

typedef enum { IO_READ, IO_WRITE } io_kind;

/* Calls by the end of their name: which argument is the path, read or written. */
#define IO(name, arg, kind) { name, sizeof(name) - 1, arg, kind }
static const struct {
	const char *name; /* the callee's text ends with ".name", or is "name" */
	size_t len;
	int arg;          /* the path's position */
	io_kind kind;
} io_calls[] = {
	IO("np.load", 0, IO_READ),          IO("numpy.load", 0, IO_READ),
	IO("np.loadtxt", 0, IO_READ),       IO("np.genfromtxt", 0, IO_READ),
	IO("np.fromfile", 0, IO_READ),      IO("torch.load", 0, IO_READ),
	IO("read_csv", 0, IO_READ),         IO("read_json", 0, IO_READ),
	IO("read_parquet", 0, IO_READ),     IO("read_pickle", 0, IO_READ),
	IO("read_excel", 0, IO_READ),       IO("read_table", 0, IO_READ),
	IO("read_feather", 0, IO_READ),     IO("read_hdf", 0, IO_READ),
	IO("Image.open", 0, IO_READ),       IO("cv2.imread", 0, IO_READ),
	IO("imageio.imread", 0, IO_READ),   IO("loadmat", 0, IO_READ),
	IO("joblib.load", 0, IO_READ),      IO("os.listdir", 0, IO_READ),
	IO("tofile", 0, IO_WRITE),
	IO("ImageFolder", 0, IO_READ),      IO("load_from_disk", 0, IO_READ),
	/* config files read by name: mmcv/mmengine, yacs and detectron2, OmegaConf */
	IO("Config.fromfile", 0, IO_READ),  IO("merge_from_file", 0, IO_READ),
	IO("OmegaConf.load", 0, IO_READ),
	IO("torch.save", 1, IO_WRITE),      IO("np.save", 0, IO_WRITE),
	IO("np.savez", 0, IO_WRITE),        IO("np.savetxt", 0, IO_WRITE),
	IO("np.savez_compressed", 0, IO_WRITE),
	IO("to_csv", 0, IO_WRITE),          IO("to_json", 0, IO_WRITE),
	IO("to_parquet", 0, IO_WRITE),      IO("to_pickle", 0, IO_WRITE),
	IO("to_excel", 0, IO_WRITE),        IO("savefig", 0, IO_WRITE),
	IO("cv2.imwrite", 0, IO_WRITE),     IO("imageio.imwrite", 0, IO_WRITE),
	IO("save_pretrained", 0, IO_WRITE), IO("save_weights", 0, IO_WRITE),
	IO("shutil.copy", 1, IO_WRITE),     IO("shutil.copy2", 1, IO_WRITE),
	IO("shutil.copyfile", 1, IO_WRITE), IO("shutil.copytree", 1, IO_WRITE),
	IO("shutil.move", 1, IO_WRITE),     IO("joblib.dump", 1, IO_WRITE),
	IO("SummaryWriter", 0, IO_WRITE),   IO("FileWriter", 0, IO_WRITE),
};
#undef IO

/* A call's I/O, as text and spans: the check reads every file before it
 * judges one, and the facts may release a file's tree once it is read. */
typedef struct {
	const jf_file *unit;
	jf_span arg;        /* the path argument */
	io_kind kind;
	bool creates;       /* it makes the folder (os.makedirs, Path.mkdir) */
	bool runs;          /* may_run(); read only for a container path */
	bool guarded;       /* guarded(); read only for a read that runs */
	char *value;        /* the path */
	const jf_file *origin_unit; /* the literal it starts with, when it came through names */
	jf_span origin;
	char *origin_value; /* the literal's own value; read only for a developer path */
	char *cpath;        /* in the container, or NULL */
} io_use;

typedef struct {
	jf_rule_ctx *ctx;
	jf_pyeval *eval;
	JF_ARRAY(io_use) uses;
	/* mentions() of the names asked so far */
	JF_ARRAY(struct mention { char *name; size_t count; }) mentions;
} io_model;

/* Whether callee text[0, len) is `name` (`n` bytes) or ends with ".name". */
static bool ends_with_name(const char *text, size_t len, const char *name, size_t n)
{
	return len >= n && text[len - 1] == name[n - 1] && !memcmp(text + len - n, name, n) &&
	       (len == n || text[len - n - 1] == '.');
}

/* open(path, mode): read unless the mode writes. */
static io_kind open_mode(const jf_file *unit, TSNode args)
{
	TSNode mode = ts_node_named_child(args, 1);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(unit, jf_node_field(a, JF_F_name), "mode"))
			mode = jf_node_field(a, JF_F_value);
	}
	if (ts_node_is_null(mode) || jf_node_type_is(mode, JF_T_keyword_argument))
		return IO_READ;
	char *m = jf_node_text(unit, mode);
	bool writes = strpbrk(m, "wax+") != NULL;
	free(m);
	return writes ? IO_WRITE : IO_READ;
}

/* Whether the text of `n` starts with `s`. */
static bool text_starts(const jf_file *unit, TSNode n, const char *s)
{
	size_t len = strlen(s);
	return ts_node_end_byte(n) - ts_node_start_byte(n) >= len &&
	       !memcmp(unit->src->data + ts_node_start_byte(n), s, len);
}

/* The I/O that a call (its callee `fn` and `args`) does, with its path argument; false when none. */
static bool classify(const jf_file *unit, TSNode fn, TSNode args, TSNode *arg, io_kind *kind)
{
	if (ts_node_is_null(fn) || !jf_node_type_is(args, JF_T_argument_list))
		return false;
	if (jf_node_is(unit, fn, "open") || jf_node_is(unit, fn, "io.open") ||
	    jf_node_is(unit, fn, "codecs.open") || jf_node_is(unit, fn, "h5py.File")) {
		*arg = ts_node_named_child(args, 0);
		*kind = open_mode(unit, args);
		return !ts_node_is_null(*arg) && !jf_node_type_is(*arg, JF_T_keyword_argument);
	}
	/* Path(p).write_text(), .touch(): the object is the path (mkdir: jf_py_makes_folder). */
	if ((text_starts(unit, fn, "Path") || text_starts(unit, fn, "pathlib.Path")) &&
	    jf_node_type_is(fn, JF_T_attribute)) {
		TSNode obj = jf_node_field(fn, JF_F_object);
		TSNode m = jf_node_field(fn, JF_F_attribute);
		if (jf_node_type_is(obj, JF_T_call) &&
		    (jf_node_is(unit, jf_node_field(obj, JF_F_function), "Path") ||
		     jf_node_is(unit, jf_node_field(obj, JF_F_function), "pathlib.Path"))) {
			bool w = jf_node_is(unit, m, "write_text") ||
			         jf_node_is(unit, m, "write_bytes") || jf_node_is(unit, m, "touch");
			bool r = jf_node_is(unit, m, "read_text") || jf_node_is(unit, m, "read_bytes") ||
			         jf_node_is(unit, m, "iterdir");
			if (w || r) {
				*arg = obj;
				*kind = w ? IO_WRITE : IO_READ;
				return true;
			}
		}
	}
	const char *text = unit->src->data + ts_node_start_byte(fn);
	size_t len = ts_node_end_byte(fn) - ts_node_start_byte(fn);
	for (size_t i = 0; i < sizeof io_calls / sizeof *io_calls; i++) {
		if (!ends_with_name(text, len, io_calls[i].name, io_calls[i].len))
			continue;
		*arg = ts_node_named_child(args, (uint32_t)io_calls[i].arg);
		*kind = io_calls[i].kind;
		return !ts_node_is_null(*arg) && !jf_node_type_is(*arg, JF_T_keyword_argument);
	}
	return false;
}

/* The container folder a unit's relative paths start from: the working folder
 * of every run that reaches it, when they agree; NULL otherwise. */
static const char *cwd_of(const jf_rule_ctx *ctx, const jf_file *unit)
{
	const char *cwd = NULL;
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		if (unit->role == JF_ROLE_ENTRY && inv->entry != unit)
			continue;
		if (!inv->cwd || (cwd && strcmp(cwd, inv->cwd)))
			return NULL;
		cwd = inv->cwd;
	}
	return cwd;
}

/* Whether a read at `n` (its ancestors `up`, innermost first) runs only when
 * the file is there: under a condition that tests for it, or in a try that
 * catches its absence. */
static bool guarded(const jf_file *unit, TSNode n, const jf_nodes *up)
{
	static const char *const tests[] = { "exists", "isfile", "isdir", "is_file", "is_dir",
		                             "glob", NULL };
	static const char *const catches[] = { "FileNotFoundError", "OSError", "IOError",
		                               "Exception", "BaseException", NULL };
	for (size_t k = 0; k < up->size; k++) {
		TSNode c = k ? up->items[k - 1] : n, p = up->items[k];
		jf_type t = jf_node_type(p);
		TSNode cond = { 0 };
		if (t == JF_T_if_statement || t == JF_T_elif_clause ||
		    t == JF_T_while_statement)
			cond = jf_node_field(p, JF_F_condition);
		else if (t == JF_T_conditional_expression)
			cond = ts_node_named_child(p, 1);
		else if (t == JF_T_boolean_operator)
			cond = jf_node_field(p, JF_F_left);
		if (!ts_node_is_null(cond) && !ts_node_eq(cond, c)) {
			char *text = jf_node_text(unit, cond);
			bool tested = false;
			for (size_t i = 0; tests[i] && !tested; i++)
				tested = strstr(text, tests[i]) != NULL;
			free(text);
			if (tested)
				return true;
		}
		if (t == JF_T_try_statement && jf_py_try_catches(unit, p, catches))
			return true;
	}
	return false;
}

/* Whether a '#' comes before `p` on its line (a comment, as near as text tells). */
static bool in_comment(const char *text, const char *p)
{
	while (p > text && p[-1] != '\n')
		if (*--p == '#')
			return true;
	return false;
}

size_t jf_name_mentions(const jf_facts *facts, const char *name, size_t most)
{
	size_t n = strlen(name), count = 0;
	for (size_t i = 0; n && i < facts->ws->files.size && count < most; i++) {
		const jf_file *u = facts->ws->files.items[i];
		if (u->lang != JF_LANG_PYTHON)
			continue;
		const char *text = u->src->data;
		for (const char *p = strstr(text, name); p && count < most; p = strstr(p + n, name))
			count += jf_is_word_at(text, p, n) && !in_comment(text, p);
	}
	return count;
}

/* How many times `name` stands as a whole word in the job's Python files,
 * comments left out; each name is counted once per check. */
static size_t mentions(io_model *m, const char *name)
{
	for (size_t i = 0; i < m->mentions.size; i++)
		if (!strcmp(m->mentions.items[i].name, name))
			return m->mentions.items[i].count;
	size_t count = jf_name_mentions(m->ctx->facts, name, SIZE_MAX);
	struct mention known = { jf_xstrdup(name), count };
	jf_array_push(&m->mentions, known);
	return count;
}

/* A call that does I/O or makes a folder, as the gather's recorder found it.
 * Its path is evaluated then, when the file and the job's environment decide
 * it; a path that reads an argparse value (args.X: every file and the job's
 * runs decide it) is evaluated in the pass, from the file's tree. */
typedef struct {
	uint32_t call;       /* its place among the file's calls (the facts of a file read again are the same) */
	io_kind kind;
	bool creates;
	bool in_pass;        /* evaluated in the pass */
	bool guarded;        /* guarded(), for a read */
	jf_span arg;
	const char *value;   /* NULL: unknown (or left to the pass) */
	/* The literal the path starts with, when it came through names: where, and its own value. */
	const jf_file *origin_unit;
	jf_span origin;
	const char *origin_value;
	/* The functions and classes around it that may_run() asks about, the
	 * innermost first: those that are not decorated and not dunder methods. */
	const char **defs;
	size_t ndefs;
} io_call_record;

typedef JF_ARRAY(io_call_record) io_record;

/* Whether call `pn` does I/O (its kind in c->kind) or makes a folder
 * (c->creates); its path argument in *arg and c->arg. */
static bool io_call(const jf_file *unit, const jf_py_node *pn, io_call_record *c, TSNode *arg)
{
	c->kind = IO_WRITE;
	c->creates = jf_py_makes_folder(unit, pn->a, pn->b, arg);
	if (!c->creates && !classify(unit, pn->a, pn->b, arg, &c->kind))
		return false;
	c->arg = jf_node_span(*arg);
	return true;
}

/* What may_run() and guarded() ask of the tree around call `n`. */
static void record_tree(jf_arena *arena, const jf_file *unit, TSNode n, io_call_record *c)
{
	jf_nodes up = { 0 };
	jf_node_ancestors(n, &up);
	c->guarded = c->kind == IO_READ && guarded(unit, n, &up);
	/* the definitions around it whose names may_run() counts */
	JF_ARRAY(const char *) defs = { 0 };
	for (size_t i = 0; i < up.size; i++) {
		TSNode p = up.items[i];
		bool fn = jf_node_type_is(p, JF_T_function_definition);
		if (!fn && !jf_node_type_is(p, JF_T_class_definition))
			continue;
		if (i + 1 < up.size && jf_node_type_is(up.items[i + 1], JF_T_decorated_definition))
			continue;
		char *name = jf_node_text_in(arena, unit, jf_node_field(p, JF_F_name));
		if (!(fn && jf_str_starts(name, "__") && jf_str_ends(name, "__")))
			jf_array_push(&defs, name);
	}
	c->defs = defs.items;
	c->ndefs = defs.size;
	jf_arena_adopt(arena, defs.items);
	jf_array_release(&up);
}

/* Evaluates the path `arg` of call `n` of `unit` into `c` (its text in
 * `arena`), with what may_run() and guarded() ask of the tree around the
 * call; in a jf_pyeval_new_file() session, a path that reads an argparse
 * value is left to the pass (c->in_pass). */
static void evaluate(jf_pyeval *eval, jf_arena *arena, const jf_file *unit, TSNode n, TSNode arg,
                     io_call_record *c)
{
	jf_pyvalue value = jf_pyeval_expr(eval, unit, arg);
	c->in_pass = jf_pyeval_needs_runs(eval);
	if (!c->in_pass && value.value && *value.value) {
		c->value = jf_arena_strdup(arena, value.value);
		if (value.through_names && value.origin_unit && !ts_node_is_null(value.origin)) {
			c->origin_unit = value.origin_unit;
			c->origin = jf_node_span(value.origin);
			jf_pyvalue lit = jf_pyeval_expr(eval, value.origin_unit, value.origin);
			c->origin_value = lit.value ? jf_arena_strdup(arena, lit.value) : NULL;
			jf_pyvalue_release(&lit);
		}
		record_tree(arena, unit, n, c);
	}
	jf_pyvalue_release(&value);
}

void *jf_paths_record(const jf_record_ctx *ctx, const jf_pyfacts *py)
{
	jf_arena *arena = ctx->arena;
	io_record *r = jf_arena_alloc(arena, sizeof *r);
	if (!ctx->job || !ctx->job->code_dir)
		return r; /* the check has nothing to place paths in */
	jf_pyeval *eval = NULL;
	for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
		io_call_record c = { .call = (uint32_t)k };
		TSNode arg;
		if (!io_call(py->file, pn, &c, &arg))
			continue;
		if (!eval)
			eval = jf_pyeval_new_file(ctx->job, py);
		evaluate(eval, arena, py->file, pn->node, arg, &c);
		jf_array_push(r, c);
	}
	jf_pyeval_free(eval);
	jf_arena_adopt_array(arena, r);
	return r;
}

void jf_paths_record_write(jf_buf *b, const void *record)
{
	const io_record *r = record;
	jf_wire_put_u32(b, (uint32_t)r->size);
	for (size_t i = 0; i < r->size; i++) {
		const io_call_record *c = &r->items[i];
		jf_wire_put_u32(b, c->call);
		jf_wire_put_u8(b, (uint8_t)c->kind);
		jf_wire_put_u8(b, (uint8_t)(c->creates | c->in_pass << 1 | c->guarded << 2));
		jf_wire_put_span(b, c->arg);
		jf_wire_put_str(b, c->value);
		jf_wire_put_u8(b, c->origin_unit != NULL);
		jf_wire_put_span(b, c->origin);
		jf_wire_put_str(b, c->origin_value);
		jf_wire_put_strings(b, c->defs, c->ndefs);
	}
}

void *jf_paths_record_load(jf_wire *w, jf_arena *arena, const jf_file *file)
{
	io_record *r = jf_arena_alloc(arena, sizeof *r);
	r->items = jf_wire_get_items(w, arena, sizeof *r->items, 31, &r->size);
	r->cap = r->size;
	for (size_t i = 0; i < r->size; i++) {
		io_call_record *c = &r->items[i];
		c->call = jf_wire_get_u32(w);
		c->kind = (io_kind)jf_wire_get_u8(w);
		uint8_t flags = jf_wire_get_u8(w);
		c->creates = flags & 1;
		c->in_pass = flags & 2;
		c->guarded = flags & 4;
		c->arg = jf_wire_get_span_in(w, file->src->len);
		c->value = jf_wire_get_str_in(w, arena);
		c->origin_unit = jf_wire_get_bool(w) ? file : NULL;
		c->origin = jf_wire_get_span_in(w, file->src->len);
		c->origin_value = jf_wire_get_str_in(w, arena);
		c->defs = jf_wire_get_strings_in(w, arena, &c->ndefs);
		for (size_t k = 0; k < c->ndefs; k++)
			w->bad |= !c->defs[k];
		if (c->kind > IO_WRITE || flags > 7)
			w->bad = true;
	}
	return r;
}

/* Whether the code around a recorded call may run: no function or class
 * around it is dead, defined and never named again (a processor class
 * nothing lists, a helper nothing calls). Decorated definitions and dunder
 * methods may be called by a framework or the interpreter, and count as live. */
static bool may_run(io_model *m, const io_call_record *c)
{
	for (size_t i = 0; i < c->ndefs; i++)
		if (mentions(m, c->defs[i]) <= 1)
			return false;
	return true;
}

/* Adds the use of evaluated call `c` of `unit`, when its path is known. */
static void add_use(io_model *m, const jf_file *unit, const io_call_record *c)
{
	if (!c->value)
		return;
	io_use u = { .unit = unit, .arg = c->arg, .kind = c->kind, .creates = c->creates,
		     .value = jf_xstrdup(c->value), .origin_unit = c->origin_unit, .origin = c->origin };
	const char *v = u.value;
	const char *cwd = cwd_of(m->ctx, unit);
	if (v[0] == '/')
		u.cpath = jf_path_normalize(v);
	else if (cwd && v[0] != '~' && !strstr(v, "://"))
		u.cpath = jf_path_join(cwd, v);
	if (jf_developer_path(m->ctx->facts, v)) {
		if (c->origin_value)
			u.origin_value = jf_xstrdup(c->origin_value);
	} else {
		u.runs = u.cpath && may_run(m, c);
		u.guarded = u.runs && c->kind == IO_READ && c->guarded;
	}
	jf_array_push(&m->uses, u);
}

/* Adds the use of recorded call `c`, evaluated in the pass from the tree of `py`. */
static void add_use_from_tree(io_model *m, const jf_pyfacts *py, const io_call_record *c)
{
	const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, c->call);
	io_call_record here = { .call = c->call };
	TSNode arg;
	io_call(py->file, pn, &here, &arg);
	jf_arena scratch = JF_ARENA_INIT;
	evaluate(m->eval, &scratch, py->file, pn->node, arg, &here);
	add_use(m, py->file, &here);
	jf_arena_release(&scratch);
}

/* Whether the job creates `cpath` itself: its command or launch scripts, or
 * a write of its Python to that path or a folder above it. */
static bool created_by_job(const io_model *m, const char *cpath)
{
	const jf_rule_ctx *ctx = m->ctx;
	if (ctx->facts->shell.produced_unknown)
		return true;
	for (size_t i = 0; i < ctx->facts->shell.produced.size; i++)
		if (jf_path_under(cpath, ctx->facts->shell.produced.items[i]))
			return true;
	for (size_t i = 0; i < m->uses.size; i++) {
		const io_use *u = &m->uses.items[i];
		if (u->kind == IO_WRITE && u->cpath && jf_path_under(cpath, u->cpath))
			return true;
	}
	return false;
}

/* Whether the Python makes `path`, or a folder above it, itself (os.makedirs,
 * Path.mkdir): nothing needs to be there before the job runs. */
static bool made_by_code(const io_model *m, const char *path)
{
	for (size_t i = 0; i < m->uses.size; i++) {
		const io_use *u = &m->uses.items[i];
		if (u->creates && jf_path_under(path, u->value))
			return true;
	}
	return false;
}

/* JF106: a write at `at` to `cpath`, under input mount `in`. */
static void report_input_write(jf_rule_ctx *ctx, jf_loc at, const char *cpath,
                               const jf_job_mount *in)
{
	jf_diag *d = jf_sink_add(ctx->out, JF106, at.src, at.span,
	                         "'%s' is written under the input mount '%s', which is read-only "
	                         "(Read-only file system)",
	                         cpath, in->path.value);
	jf_diag_relate(d, in->path.at.src, in->path.at.span,
	               "the job mounts its input '%s' here, read-only", in->name.value);
}

/* Places every image and platform has, and scratch space. */
static bool image_folder(const jf_image *img, const char *cpath)
{
	static const char *const system[] = { "/tmp", "/dev", "/proc", "/sys", "/usr", "/opt",
		                              "/etc", "/var", "/run", "/bin", "/sbin", "/lib",
		                              "/lib64", "/root", "/srv", NULL };
	for (size_t i = 0; system[i]; i++)
		if (jf_path_under(cpath, system[i]))
			return true;
	return (img->home && jf_path_under(cpath, img->home)) ||
	       (img->user && jf_str_starts(cpath, "/home/") &&
	        jf_path_under(cpath + 6, img->user));
}

static void check_use(io_model *m, const io_use *u)
{
	jf_rule_ctx *ctx = m->ctx;
	const jf_job *j = ctx->facts->job;
	const char *v = u->value;
	/* JF101 through names: the literal, once, with the use as a note. */
	if (jf_developer_path(ctx->facts, v)) {
		if (made_by_code(m, v))
			return;
		const jf_file *ou = u->origin_unit;
		if (!ou)
			return; /* a literal in the call: the query rule reports it */
		jf_diag *d = jf_sink_find(ctx->out, JF101, ou->src, u->origin);
		if (!d)
			d = jf_sink_add(ctx->out, JF101, ou->src, u->origin,
			                  "developer-machine path '%s' does not exist in the job's "
			                  "container",
			                  u->origin_value ? u->origin_value : v);
		if (u->unit != ou || u->arg.start != u->origin.start)
			jf_diag_relate(d, u->unit->src, u->arg, "'%s' is %s here", v,
			               u->kind == IO_WRITE ? "written" : "read");
		return;
	}
	if (!u->cpath || !u->runs)
		return;
	const char *wd = j->workdir.value;
	const char *rel = wd ? jf_path_under(u->cpath, wd) : NULL;
	if (!wd && u->cpath[0] == '/' && v[0] != '/')
		rel = jf_path_under(u->cpath, JF_CODE_ROOT); /* relative to the code folder */
	const jf_job_mount *in = jf_job_mount_of(&j->inputs, u->cpath);
	if (u->kind == IO_WRITE && in) {
		report_input_write(ctx, (jf_loc){ u->unit->src, u->arg }, u->cpath, in);
		return;
	}
	if (rel && *rel && u->kind == IO_READ && !in && !jf_job_mount_of(&j->outputs, u->cpath)) {
		char *local = jf_path_join(j->code_dir, rel);
		bool there = jf_path_is_file(local) || jf_path_is_dir(local);
		free(local);
		if (!there && !created_by_job(m, u->cpath) && !u->guarded) {
			char *shown = jf_path_join(j->code_display, rel);
			jf_diag *d =
				wd ? jf_sink_add(ctx->out, JF103, u->unit->src, u->arg,
			                           "'%s' does not exist in the job's code folder: %s reads "
			                           "it as '%s'",
			                           shown, u->unit->src->path, u->cpath)
				   : jf_sink_add(ctx->out, JF103, u->unit->src, u->arg,
			                           "'%s' does not exist in the job's code folder, where %s "
			                           "runs",
			                           shown, u->unit->src->path);
			if (u->origin_unit)
				jf_diag_relate(d, u->origin_unit->src, u->origin, "the path comes from here");
			free(shown);
		}
		return;
	}
	/* JF107: absolute, and under nothing the job declares. */
	if (v[0] != '/' || rel || in || jf_job_mount_of(&j->outputs, u->cpath) || !wd ||
	    (!j->inputs.size && !j->outputs.size) || image_folder(ctx->facts->image, u->cpath) ||
	    (u->kind == IO_READ && created_by_job(m, u->cpath)))
		return;
	jf_diag *d = jf_sink_add(ctx->out, JF107, u->unit->src, u->arg,
	                           "'%s' is under no mount, workdir or image folder of the job: the "
	                           "container will not have it",
	                           u->cpath);
	const jf_job_mount *first = j->inputs.size ? &j->inputs.items[0] : &j->outputs.items[0];
	jf_diag_relate(d, first->path.at.src, first->path.at.span, "the job mounts '%s' at '%s'",
	               first->name.value, first->path.value);
}

/* The I/O calls of `u`, when it is Python the job runs and has some. */
static const io_record *io_calls_of(const io_model *m, const jf_file *u)
{
	const io_record *r = jf_runs_python(u) ? jf_records_of(m->ctx->records, JF_RECORD_PATHS, u)
	                                       : NULL;
	return r && r->size ? r : NULL;
}

/* Whether a call of `u` has its path evaluated in the pass, from the tree. */
static bool collect_reads(const void *state, size_t index, const jf_file *u)
{
	(void)index;
	const io_record *r = io_calls_of(state, u);
	for (size_t i = 0; r && i < r->size; i++)
		if (r->items[i].in_pass)
			return true;
	return false;
}

/* The uses of `u`'s I/O calls, in the order of its calls. */
static void collect_in(void *state, size_t index, const jf_file *u)
{
	io_model *m = state;
	const io_record *r = io_calls_of(m, u);
	const jf_pyfacts *py = collect_reads(m, index, u) ? jf_facts_python(m->ctx->facts, u) : NULL;
	for (size_t i = 0; r && i < r->size; i++) {
		const io_call_record *c = &r->items[i];
		if (!c->in_pass)
			add_use(m, u, c);
		else if (py)
			add_use_from_tree(m, py, c);
	}
}

static void check_paths_end(void *state)
{
	io_model *m = state;
	jf_rule_ctx *ctx = m->ctx;
	const jf_job *j = ctx->facts->job;
	for (size_t i = 0; i < m->uses.size; i++)
		check_use(m, &m->uses.items[i]);
	for (size_t i = 0; i < m->uses.size; i++) {
		free(m->uses.items[i].value);
		free(m->uses.items[i].origin_value);
		free(m->uses.items[i].cpath);
	}
	jf_array_release(&m->uses);
	for (size_t i = 0; i < m->mentions.size; i++)
		free(m->mentions.items[i].name);
	jf_array_release(&m->mentions);
	jf_pyeval_free(m->eval);
	free(m);
	/* The shell's writes: redirections, mkdir, cp targets. */
	const jf_shell_facts *sh = &ctx->facts->shell;
	for (size_t i = 0; i < sh->writes.size; i++) {
		const jf_shell_write *w = &sh->writes.items[i];
		const jf_job_mount *in = jf_job_mount_of(&j->inputs, w->cpath);
		if (in)
			report_input_write(ctx, (jf_loc){ w->at.src, w->at.span }, w->cpath, in);
	}
}

void jf_check_paths(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule;
	jf_check_say_job(ctx, JF103, JF_JOB_VOLUMES);
	if (!ctx->facts->job || !ctx->facts->job->code_dir)
		return;
	const jf_job *j = ctx->facts->job;
	if (ctx->facts->ws->files.size > 1 && (!j->workdir.value || (!j->inputs.size && !j->outputs.size)))
		jf_sink_skip(ctx->out, JF107, "the spec declares no %s: declare workdir and the job's "
		                          "inputs and outputs to check absolute paths",
		            !j->workdir.value ? "workdir" : "mounts");
	io_model *m = jf_xcalloc(1, sizeof *m);
	jf_pyfiles files = jf_facts_pyfiles(ctx->facts);
	*m = (io_model){ ctx, jf_pyeval_new(j, &files, &ctx->facts->shell), { 0 }, { 0 } };
	static const jf_file_part part = { collect_reads, collect_in, check_paths_end };
	jf_check_each_file(ctx, &part, m);
}
