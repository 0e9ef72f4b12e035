/* local_path.c - JF101: paths of the developer's machine where the job reads or writes
 *
 * The queries (python/ and bash/JF101-hard-coded-local-path.scm) find the
 * string literals and words used as paths; this hook drops the ones the job's
 * container provides (a mount or the workdir at that path, the image user's
 * own home) and points at the job's inputs as the likely replacement.
 */
#include "rules/checks.h"
#include "core/path.h"
#include "env/platforms.h"

/* The literal's value without prefix letters and quotes; caller frees. */
static char *literal_value(const jf_file *unit, TSNode n)
{
	char *text = jf_node_text(unit, n);
	char *p = text;
	while (*p && strchr("rRbBuUfF", *p))
		p++;
	size_t len = strlen(p);
	size_t q = 0;
	if (len >= 6 && (!strncmp(p, "\"\"\"", 3) || !strncmp(p, "'''", 3)))
		q = 3;
	else if (len >= 2 && (p[0] == '"' || p[0] == '\''))
		q = 1;
	char *v = q ? jf_xstrndup(p + q, len - 2 * q) : jf_xstrdup(p);
	free(text);
	return v;
}

/* Whether the job's container has `path`: a mount or the workdir there, the
 * home of the user it runs as. */
static bool provided_by_container(const jf_facts *facts, const char *path)
{
	const jf_job *j = facts->job;
	if (!j)
		return false;
	if (jf_job_mount_of(&j->inputs, path) || jf_job_mount_of(&j->outputs, path))
		return true;
	if (j->workdir.value && jf_path_under(path, j->workdir.value))
		return true;
	/* A platform that runs the job as a user of the machine it runs on (a
	 * SkyPilot task, a Slurm job: data/platforms.yaml, `user: host`): ~ and
	 * /home/<user> are that machine's, not the developer's (which user is not
	 * known: both stay silent). */
	const char *p = path[0] == '"' || path[0] == '\'' ? path + 1 : path; /* a shell word's quote */
	if (jf_platform_runs_as_host_user(j->platform.value) &&
	    (jf_str_starts(p, "~/") || jf_str_starts(p, "/home/")))
		return true;
	/* The image's own user has a home of that name, or the image says where its home is. */
	const char *user = j->image.user.value ? j->image.user.value : facts->image->user;
	if (user && jf_str_starts(path, "/home/") && !strncmp(path + 6, user, strlen(user)) &&
	    (path[6 + strlen(user)] == '/' || !path[6 + strlen(user)]))
		return true;
	return facts->image->home && jf_path_under(path, facts->image->home);
}

/* Whether the folder name at `p` (up to '/') may be a user's login name:
 * lowercase, as useradd's default NAME_REGEX wants (/home/TestData is a
 * shared folder, not somebody's home). */
static bool login_name(const char *p)
{
	if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
		return false;
	for (; *p && *p != '/'; p++)
		if (*p >= 'A' && *p <= 'Z')
			return false;
	return true;
}

/* Whether a file linted alone is a script that runs inside an image: an
 * entrypoint, or a file of a docker/ folder. A /home/<user> there is the
 * image's user's home (docker/serve/entrypoint.sh of a torchserve image). */
static bool container_script(const jf_file *unit)
{
	const char *path = unit->src->path;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strstr(base, "entrypoint") || jf_str_starts(path, "docker/") ||
	       strstr(path, "/docker/") || jf_str_starts(path, ".devcontainer/") ||
	       strstr(path, "/.devcontainer/");
}

bool jf_developer_path(const jf_facts *facts, const char *p)
{
	/* The same places as the queries' regex: /home/<user>/, /Users/<user>,
	 * /Volumes/, /media/<user>/, ~/ (not ~/.hidden), C:\ or C:/, /mnt/<drive>/. */
	bool dev = (jf_str_starts(p, "/home/") && strchr(p + 6, '/') && login_name(p + 6)) ||
	           (jf_str_starts(p, "/Users/") && p[7]) || jf_str_starts(p, "/Volumes/") ||
	           (jf_str_starts(p, "/media/") && strchr(p + 7, '/')) ||
	           (jf_str_starts(p, "~/") && p[2] && p[2] != '.') ||
	           (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':' &&
	            (p[2] == '\\' || p[2] == '/')) ||
	           (jf_str_starts(p, "/mnt/") && p[5] >= 'a' && p[5] <= 'z' && p[6] == '/');
	return dev && !provided_by_container(facts, p);
}

/* Calls whose arguments are file or folder paths, by the last part of the
 * callee's name (`np.load`, `torch.save`, `os.path.join`, `Path`, ...). */
static const char *const io_calls[] = {
	"open", "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
	"fromfile", "tofile", "memmap", "read_csv", "read_json", "read_parquet", "read_pickle",
	"read_excel", "read_table", "read_hdf", "read_feather", "to_csv", "to_json", "to_parquet",
	"to_pickle", "to_excel", "to_hdf", "to_feather", "imread", "imwrite", "imsave", "savefig",
	"VideoCapture", "VideoWriter", "File", "GFile", "Open", "TFRecordDataset", "TFRecordWriter",
	"read_file", "write_file", "load_model", "save_model", "load_weights", "save_weights",
	"from_pretrained", "save_pretrained", "ImageFolder", "DatasetFolder", "FileHandler",
	"SummaryWriter", "FileWriter", "ZipFile", "copy", "copy2", "copyfile", "copytree", "move",
	"rmtree", "listdir", "makedirs", "mkdir", "chdir", "remove", "unlink", "rename", "replace",
	"walk", "scandir", "join", "abspath", "expanduser", "realpath", "normpath", "glob", "iglob",
	"Path", "PurePath", "PosixPath", "getenv", "get", "append", "insert", "add_argument",
	"DEFINE_string", NULL,
};

/* Keyword arguments that name paths, in any call. */
static const char *const path_keywords[] = {
	"default", "path", "root", "root_dir", "data_dir", "data_root", "dataset_dir", "fname",
	"filename", "file", "filepath", "file_path", "save_dir", "save_path", "log_dir", "logdir",
	"output_dir", "out_dir", "model_dir", "cache_dir", "checkpoint", "checkpoint_dir", "ckpt",
	"ckpt_path", "pretrained_model_name_or_path", "directory", "dir", "src", "dst",
	"path_or_buf", NULL,
};

/* Calls that print or log their arguments, by the first part of the callee's name. */
static const char *const message_calls[] = { "print", "logging", "logger", "log", "warnings",
	                                     "re", "str", "click", "tqdm", NULL };

/* Shell commands whose arguments are messages, not paths. */
static const char *const message_commands[] = { "echo", "printf", "logger", "log", "info",
	                                        "warn", "die", "usage", NULL };

/* Whether the last dotted part of `call`'s callee (`load` of `np.load`) is in `names`. */
static bool callee_last_in(const jf_file *unit, TSNode call, const char *const *names)
{
	TSNode fn = jf_node_field(call, JF_F_function);
	if (!jf_node_type_is(fn, JF_T_identifier) && !jf_node_type_is(fn, JF_T_attribute))
		return false;
	const char *text = unit->src->data + ts_node_start_byte(fn);
	size_t len = ts_node_end_byte(fn) - ts_node_start_byte(fn), last = len;
	while (last > 0 && text[last - 1] != '.')
		last--;
	return jf_strn_in(text + last, len - last, names);
}

/* Whether `call` reads or writes its arguments as paths. */
static bool io_call(const jf_file *unit, TSNode call, bool keyword)
{
	TSNode fn = jf_node_field(call, JF_F_function);
	if (!jf_node_type_is(fn, JF_T_identifier) && !jf_node_type_is(fn, JF_T_attribute))
		return false;
	const char *text = unit->src->data + ts_node_start_byte(fn);
	size_t len = ts_node_end_byte(fn) - ts_node_start_byte(fn);
	size_t first = strcspn(text, ".(");
	if (first > len)
		first = len;
	if (jf_strn_in(text, first, message_calls))
		return false;
	return keyword || callee_last_in(unit, call, io_calls);
}

/* Python: whether the string literal is used as a path (see the query's comment). */
static bool python_path_use(const jf_file *unit, TSNode n)
{
	TSNode p = ts_node_parent(n);
	if (jf_node_type_is(p, JF_T_binary_operator) && ts_node_eq(jf_node_field(p, JF_F_left), n)) {
		n = p; /* "/home/me/" + name */
		p = ts_node_parent(n);
	} else if (jf_node_type_is(p, JF_T_attribute) && jf_node_type_is(ts_node_parent(p), JF_T_call) &&
	           jf_node_is(unit, jf_node_field(p, JF_F_attribute), "format")) {
		n = ts_node_parent(p); /* "/home/me/{}".format(name) */
		p = ts_node_parent(n);
	}
	bool keyword = false;
	if (jf_node_type_is(p, JF_T_keyword_argument)) {
		TSNode name = jf_node_field(p, JF_F_name);
		const char *text = unit->src->data + ts_node_start_byte(name);
		if (!jf_strn_in(text, ts_node_end_byte(name) - ts_node_start_byte(name), path_keywords))
			return false;
		keyword = true;
		p = ts_node_parent(p);
	}
	return jf_node_type_is(p, JF_T_argument_list) && jf_node_type_is(ts_node_parent(p), JF_T_call) &&
	       io_call(unit, ts_node_parent(p), keyword);
}

bool jf_py_makes_folder(const jf_file *unit, TSNode fn, TSNode args, TSNode *path)
{
	if (!jf_node_type_is(args, JF_T_argument_list))
		return false;
	if (jf_node_type_is(fn, JF_T_attribute) && jf_node_is(unit, jf_node_field(fn, JF_F_attribute), "mkdir") &&
	    !jf_node_is(unit, jf_node_field(fn, JF_F_object), "os")) {
		*path = jf_node_field(fn, JF_F_object);
		return true;
	}
	static const char *const makers[] = { "os.makedirs", "os.mkdir", "makedirs", "mkdir",
		                               "tf.io.gfile.makedirs", "gfile.makedirs",
		                               "tf.gfile.MakeDirs", "gfile.MakeDirs", NULL };
	const char *text = unit->src->data + ts_node_start_byte(fn);
	if (!jf_strn_in(text, ts_node_end_byte(fn) - ts_node_start_byte(fn), makers))
		return false;
	*path = ts_node_named_child(args, 0);
	return !ts_node_is_null(*path) && !jf_node_type_is(*path, JF_T_keyword_argument);
}

/* Whether `n` is within the path a call creates, in the statement around it. */
static bool in_created_path(const jf_file *unit, TSNode n)
{
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
		const char *t = ts_node_type(p);
		if (jf_str_ends(t, "_statement") || !strcmp(t, "block") || !strcmp(t, "module"))
			return false;
		TSNode path;
		if (!strcmp(t, "call") &&
		    jf_py_makes_folder(unit, jf_node_field(p, JF_F_function),
		                       jf_node_field(p, JF_F_arguments), &path) &&
		    ts_node_start_byte(n) >= ts_node_start_byte(path) &&
		    ts_node_end_byte(n) <= ts_node_end_byte(path))
			return true;
	}
	return false;
}

/* Whether `name` (`x`, `self.out`, or `.dest` for any object's attribute)
 * stands within a path a call creates, somewhere in `scope`. */
static bool name_created_in(const jf_file *unit, TSNode scope, const char *name)
{
	const char *text = unit->src->data;
	uint32_t end = ts_node_end_byte(scope);
	size_t n = strlen(name);
	TSNode root = ts_tree_root_node(unit->tree);
	for (const char *p = strstr(text + ts_node_start_byte(scope), name);
	     p && (size_t)(p - text) + n <= end; p = strstr(p + 1, name)) {
		uint32_t at = (uint32_t)(p - text);
		if ((name[0] != '.' && at && (jf_is_name_char(p[-1]) || p[-1] == '.')) || jf_is_name_char(p[n]))
			continue;
		TSNode word = ts_node_named_descendant_for_byte_range(root, at + (name[0] == '.'),
		                                                      at + (uint32_t)n);
		if (in_created_path(unit, word))
			return true;
	}
	return false;
}

#define CREATED_MAX_BYTES (512u << 10)

/*
 * Whether the code creates the folder the Python literal names, so nothing
 * needs to be there beforehand: the literal is (part of) the path of
 * os.makedirs/mkdir/Path.mkdir, or of a name bound to it that such a call
 * creates (`out = os.path.expanduser("~/runs")` ... `os.makedirs(out,
 * exist_ok=True)`), or of an argparse option whose value is created
 * (`default="~/runs"` ... `os.makedirs(args.out_dir)`).
 */
static bool created_by_code(const jf_file *unit, TSNode literal)
{
	if (in_created_path(unit, literal))
		return true;
	/* The name is looked for in the text around: no hand-written script is
	 * this large, and a generated one would cost a search per literal. */
	if (unit->src->len > CREATED_MAX_BYTES)
		return false;
	TSNode e = literal;
	for (TSNode p = ts_node_parent(e); !ts_node_is_null(p); e = p, p = ts_node_parent(p))
		if (!jf_node_type_is(p, JF_T_argument_list) && !jf_node_type_is(p, JF_T_call) &&
		    !jf_node_type_is(p, JF_T_binary_operator) && !jf_node_type_is(p, JF_T_parenthesized_expression))
			break;
	TSNode p = ts_node_parent(e);
	TSNode root = ts_tree_root_node(unit->tree);
	char *name = NULL;
	TSNode scope = root;
	if (jf_node_type_is(p, JF_T_assignment) && ts_node_eq(jf_node_field(p, JF_F_right), e)) {
		TSNode left = jf_node_field(p, JF_F_left);
		if (jf_node_type_is(left, JF_T_identifier)) {
			for (TSNode f = p; !ts_node_is_null(f); f = ts_node_parent(f))
				if (jf_node_type_is(f, JF_T_function_definition)) {
					scope = f;
					break;
				}
			name = jf_node_text(unit, left);
		} else if (jf_node_type_is(left, JF_T_attribute)) {
			name = jf_node_text(unit, left);
		}
	} else if (jf_node_type_is(p, JF_T_keyword_argument) &&
	           jf_node_is(unit, jf_node_field(p, JF_F_name), "default")) {
		/* argparse: the option's dest: dest=, else its first long option or its name */
		TSNode args = ts_node_parent(p);
		for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
			TSNode a = ts_node_named_child(args, i);
			bool dest = jf_node_type_is(a, JF_T_keyword_argument) &&
			            jf_node_is(unit, jf_node_field(a, JF_F_name), "dest") &&
			            jf_node_type_is(jf_node_field(a, JF_F_value), JF_T_string);
			if (!dest && (name || !jf_node_type_is(a, JF_T_string)))
				continue;
			char *v = literal_value(unit, dest ? jf_node_field(a, JF_F_value) : a);
			const char *d = jf_str_starts(v, "--") ? v + 2 : v[0] == '-' ? "" : v;
			if (*d) {
				free(name);
				name = jf_xmalloc(strlen(d) + 2);
				name[0] = '.';
				for (size_t k = 0; k <= strlen(d); k++)
					name[k + 1] = d[k] == '-' ? '_' : d[k];
			}
			free(v);
		}
	}
	bool created = name && *name && name_created_in(unit, scope, name);
	free(name);
	return created;
}

/* Whether `word` of sed command `cmd` is its script: the value of -e or
 * --expression, or the first operand when neither is given. */
static bool sed_script(const jf_file *unit, TSNode cmd, TSNode word)
{
	bool expression = false, after_e = false, first = true;
	TSNode script = { 0 };
	uint32_t count = ts_node_named_child_count(cmd);
	for (uint32_t i = 1; i < count; i++) {
		TSNode a = ts_node_named_child(cmd, i);
		if (after_e && !ts_node_is_null(a) && ts_node_eq(a, word))
			return true;
		after_e = jf_node_is(unit, a, "-e") || jf_node_is(unit, a, "--expression");
		expression |= after_e;
		bool option = unit->src->data[ts_node_start_byte(a)] == '-';
		if (first && !option && !jf_node_type_is(a, JF_T_file_redirect)) {
			script = a;
			first = false;
		}
	}
	return !expression && !ts_node_is_null(script) && ts_node_eq(script, word);
}

/* Shell: whether the word is an argument, an assignment's value or a redirection target. */
static bool shell_path_use(const jf_file *unit, TSNode n)
{
	TSNode p = ts_node_parent(n);
	if (jf_node_type_is(p, JF_T_variable_assignment) || jf_node_type_is(p, JF_T_file_redirect))
		return true;
	if (!jf_node_type_is(p, JF_T_command))
		return false;
	TSNode name = jf_node_field(p, JF_F_name);
	if (ts_node_is_null(name) || ts_node_start_byte(n) < ts_node_end_byte(name))
		return false;
	const char *text = unit->src->data + ts_node_start_byte(name);
	size_t len = ts_node_end_byte(name) - ts_node_start_byte(name);
	if (len == 3 && !memcmp(text, "sed", 3) && sed_script(unit, p, n))
		return false;
	return !jf_strn_in(text, len, message_commands);
}

typedef enum {
	DEFAULT_NOT_AN_OPTION, /* not an argparse default */
	DEFAULT_NO_RUN,        /* no invocation of the script is known */
	DEFAULT_OVERRIDDEN,    /* every invocation passes the option */
	DEFAULT_USED,          /* *by is an invocation that leaves the option out */
} default_use;

/*
 * An argparse default (`add_argument('--data', default='/home/...')`) only
 * matters when the option is not passed: whether the job's invocations of the
 * file's entry script (any entry, for a module) pass one of its strings.
 */
static default_use argparse_default_use(const jf_rule_ctx *ctx, const jf_file *unit, TSNode literal,
                                        const jf_invocation **by)
{
	TSNode kw = ts_node_parent(literal);
	*by = NULL;
	if (!jf_node_type_is(kw, JF_T_keyword_argument) ||
	    !jf_node_is(unit, jf_node_field(kw, JF_F_name), "default"))
		return DEFAULT_NOT_AN_OPTION;
	TSNode args = ts_node_parent(kw);
	JF_ARRAY(char *) options = { 0 };
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		char *text = jf_node_type_is(a, JF_T_string) ? literal_value(unit, a) : NULL;
		if (text && text[0] == '-')
			jf_array_push(&options, text);
		else
			free(text);
	}
	size_t runs = 0, overridden = 0;
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		if (unit->role == JF_ROLE_ENTRY && inv->entry != unit)
			continue; /* a module's parser may serve any entry script */
		runs++;
		bool passed = false;
		for (size_t k = 0; k < inv->args.size && !passed; k++)
			for (size_t o = 0; o < options.size && !passed; o++)
				passed = inv->args.items[k].value &&
				         jf_word_passes(inv->args.items[k].value, options.items[o]);
		overridden += passed;
		if (!passed && !*by)
			*by = inv;
	}
	for (size_t o = 0; o < options.size; o++)
		free(options.items[o]);
	jf_array_release(&options);
	if (!runs)
		return DEFAULT_NO_RUN;
	return overridden == runs ? DEFAULT_OVERRIDDEN : DEFAULT_USED;
}

/* Calls that read the path they are given, by the last part of the callee's name. */
static const char *const reading_calls[] = {
	"open", "load", "loadtxt", "genfromtxt", "fromfile", "memmap", "read_csv", "read_json",
	"read_parquet", "read_pickle", "read_excel", "read_table", "read_hdf", "read_feather",
	"imread", "VideoCapture", "File", "GFile", "Open", "TFRecordDataset", "read_file",
	"load_model", "load_weights", "from_pretrained", "ImageFolder", "DatasetFolder", "ZipFile",
	"listdir", "walk", "scandir", "glob", "iglob", "chdir", NULL,
};

/* Whether `call` reads (reading_calls) and its first argument is `name`
 * (NULL: any), outside a `try`. */
static bool reads_first(const jf_file *unit, TSNode call, const char *name)
{
	bool reads = callee_last_in(unit, call, reading_calls);
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode first = ts_node_is_null(args) ? (TSNode){ 0 } : ts_node_named_child(args, 0);
	if (!reads || (name && (!jf_node_type_is(first, JF_T_identifier) || !jf_node_is(unit, first, name))))
		return false;
	for (TSNode p = ts_node_parent(call); !ts_node_is_null(p); p = ts_node_parent(p))
		if (jf_node_type_is(p, JF_T_try_statement))
			return false; /* a missing file may be what the code expects */
	return true;
}

/*
 * Whether Python literal `at` ("~/..."), a path under the home folder, is
 * read: as the argument of a reading call, or through the name it is bound
 * to (`cache = os.path.expanduser("~/x")` ... `torch.load(cache)`) in the
 * same body, outside a `try`. The container has a home folder too: a path
 * under `~` that is only built, written, or handed on may be one the code
 * makes there.
 */
static bool home_path_read(const jf_file *unit, TSNode at)
{
	TSNode kw = ts_node_parent(at);
	if (jf_node_type_is(kw, JF_T_keyword_argument) &&
	    jf_node_is(unit, jf_node_field(kw, JF_F_name), "default"))
		return true; /* an option's default: judged with the runs that leave it (below) */
	TSNode e = at;
	for (TSNode p = ts_node_parent(e); !ts_node_is_null(p); e = p, p = ts_node_parent(p)) {
		if (jf_node_type_is(p, JF_T_call) && reads_first(unit, p, NULL))
			return true;
		if (!jf_node_type_is(p, JF_T_argument_list) && !jf_node_type_is(p, JF_T_call) &&
		    !jf_node_type_is(p, JF_T_binary_operator) && !jf_node_type_is(p, JF_T_parenthesized_expression))
			break;
	}
	TSNode as = ts_node_parent(e);
	if (!jf_node_type_is(as, JF_T_assignment) || !ts_node_eq(jf_node_field(as, JF_F_right), e) ||
	    !jf_node_type_is(jf_node_field(as, JF_F_left), JF_T_identifier))
		return false;
	char *name = jf_node_text(unit, jf_node_field(as, JF_F_left));
	/* the body the name lives in: its function's, or the module */
	TSNode scope = as;
	while (!ts_node_is_null(ts_node_parent(scope)) && !jf_node_type_is(scope, JF_T_function_definition))
		scope = ts_node_parent(scope);
	TSNode body = jf_node_type_is(scope, JF_T_function_definition) ? jf_node_field(scope, JF_F_body)
	                                                                : scope;
	bool read = false;
	for (uint32_t i = 0; !read && i < ts_node_named_child_count(body); i++) {
		jf_iter it;
		for (TSNode n = jf_iter_start(&it, ts_node_named_child(body, i)); !ts_node_is_null(n) && !read;
		     n = jf_iter_next(&it, true))
			read = jf_node_type_is(n, JF_T_call) && ts_node_start_byte(n) > ts_node_end_byte(as) &&
			       reads_first(unit, n, name);
		jf_iter_release(&it);
	}
	free(name);
	return read;
}

void jf_hook_local_path(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *unit, const jf_match *m)
{
	TSNode at = jf_match_get(m, "finding");
	if (ts_node_is_null(at))
		return;
	if (unit->lang == JF_LANG_PYTHON ? !python_path_use(unit, at) || created_by_code(unit, at)
	                                 : !shell_path_use(unit, at))
		return;
	if (unit->lang == JF_LANG_PYTHON) {
		char *v = literal_value(unit, at);
		bool home = v && jf_str_starts(v, "~/");
		free(v);
		if (home && !home_path_read(unit, at))
			return;
	}
	const jf_invocation *by = NULL;
	default_use use = unit->lang == JF_LANG_PYTHON ? argparse_default_use(ctx, unit, at, &by)
	                                               : DEFAULT_NOT_AN_OPTION;
	if (use == DEFAULT_OVERRIDDEN)
		return;
	if (use == DEFAULT_NO_RUN) {
		/* Whether any run leaves the option out is the job's to say. */
		jf_pos pos = jf_source_pos(unit->src, ts_node_start_byte(at));
		jf_sink_skip(ctx->out, rule->info.id,
		             "%s:%u:%u: an option's default is a developer-machine path, and no run "
		             "of the script is known: lint the job that runs it",
		             unit->src->path, pos.line, pos.col);
		return;
	}
	char *value = literal_value(unit, at);
	jf_span span = jf_node_span(at);
	/* A shell word `--flag=/home/...`: the path is what follows the '='. */
	char *path = value;
	char *eq = strchr(value, '=');
	if (unit->lang == JF_LANG_BASH && eq && value[0] != '/' && value[0] != '"') {
		path = eq + 1;
		span.start += (uint32_t)(path - value);
	}
	/* C:\<... is no Windows path: no name there has < > : " | ? * in it. */
	bool not_windows = path[0] && path[1] == ':' && path[2] && path[3] && strchr("<>:\"|?*", path[3]);
	if (not_windows || provided_by_container(ctx->facts, path) ||
	    (!ctx->facts->job && container_script(unit) && jf_str_starts(path, "/home/"))) {
		free(value);
		return;
	}
	char *msg = jf_rule_message_with(rule, m, unit, "finding", path);
	jf_diag *d = jf_sink_add(ctx->out, rule->info.id, unit->src, span, "%s", msg);
	free(msg);
	free(value);
	if (by)
		jf_diag_relate(d, by->script.src, by->script.span,
		               "this run of %s does not pass the option, so the default is used",
		               by->entry->src->path);
	if (ctx->facts->job && ctx->facts->job->inputs.size) {
		const jf_job_mount *in = &ctx->facts->job->inputs.items[0];
		jf_diag_relate(d, in->path.at.src, in->path.at.span,
		               "the job mounts its input '%s' at '%s'", in->name.value, in->path.value);
	}
}
