/* project.c - the metadata of a local Python project, read as pip's build backends read it
 *
 * In the order setuptools applies them: pyproject.toml's [project] table
 * (PEP 621) or Poetry's [tool.poetry], else setup.cfg's [options], with
 * setup.py's literal setup() arguments over it. pyproject.toml is parsed
 * with the TOML grammar, setup.py with the Python one; setup.cfg is an INI
 * file (Python's configparser: `key = value`, indented continuation lines).
 */
#include "job/project.h"

#include "core/grammar.h"

#include "core/path.h"
#include "core/source.h"
#include "job/pip.h"

const TSLanguage *tree_sitter_toml(void);
const TSLanguage *tree_sitter_python(void);

static const TSNode null_node;

/* Metadata files larger than this are not read (no project has one). */
#define PROJECT_FILE_MAX (1u << 20)

void jf_project_release(jf_project *self)
{
	free(self->metadata);
	jf_strings_release(&self->requires);
	for (size_t i = 0; i < self->scripts.size; i++) {
		free(self->scripts.items[i].name);
		free(self->scripts.items[i].module);
		free(self->scripts.items[i].file);
	}
	jf_array_release(&self->scripts);
	jf_strings_release(&self->roots);
	memset(self, 0, sizeof *self);
}

char *jf_project_split(const char *arg, char **extras)
{
	*extras = NULL;
	const char *open = strchr(arg, '[');
	if (!open)
		return jf_xstrdup(arg);
	const char *close = strchr(open, ']');
	if (close && close > open + 1)
		*extras = jf_xstrndup(open + 1, (size_t)(close - open - 1));
	return jf_xstrndup(arg, (size_t)(open - arg));
}

static jf_source *load(const char *dir, const char *name)
{
	char *path = jf_path_join(dir, name);
	jf_source *src = jf_path_is_file(path) ? jf_source_load(path, name) : NULL;
	free(path);
	if (src && (src->status != JF_SOURCE_OK || src->len > PROJECT_FILE_MAX)) {
		jf_source_free(src);
		src = NULL;
	}
	return src;
}

static TSTree *parse(const TSLanguage *lang, const jf_source *src)
{
	TSParser *p = ts_parser_new();
	TSTree *t = ts_parser_set_language(p, lang)
	                    ? ts_parser_parse_string(p, NULL, src->data, (uint32_t)src->len)
	                    : NULL;
	ts_parser_delete(p);
	return t;
}

static char *text(const jf_source *src, TSNode n)
{
	return jf_xstrndup(src->data + ts_node_start_byte(n),
	                   ts_node_end_byte(n) - ts_node_start_byte(n));
}

/* One item of a requirements file the project's metadata names. */
static void file_requirement(const jf_pip_item *it, void *data)
{
	jf_project *p = data;
	if (it->kind == JF_PIP_NAMED)
		jf_array_push(&p->requires, it->version ? jf_xasprintf("%s==%s", it->name, it->version)
		                                        : jf_xstrdup(it->name));
	else
		p->unknown = "a requirements file its metadata names installs what jobfix cannot name";
}

/* Adds the requirements of file `name` of the project (pip's format, -r
 * followed: job/pip.h); false when it is not there. */
static bool add_requirements_file(jf_project *p, const char *dir, const char *name)
{
	char *path = jf_path_join(dir, name);
	bool there = jf_path_is_file(path);
	if (there)
		jf_pip_requirements_file(path, file_requirement, p);
	free(path);
	return there;
}

/* ---- console scripts and package folders ---- */

/* Adds console script `name` = `target` ("pkg.cli:main [extra]"). */
static void add_script(jf_project *p, const char *name, const char *target)
{
	size_t n = strspn(target, " \t");
	size_t len = strcspn(target + n, ": \t[");
	if (!*name || !len)
		return;
	jf_console_script s = { jf_xstrdup(name), jf_xstrndup(target + n, len), NULL };
	jf_array_push(&p->scripts, s);
}

static void add_root(jf_project *p, const char *dir, const char *rel)
{
	char *root = jf_path_join(dir, rel);
	if (jf_path_is_dir(root) && !jf_strings_have(&p->roots, root))
		jf_array_push(&p->roots, root);
	else
		free(root);
}

/* The file of each console script's module, in the project's package folders. */
static void find_script_files(jf_project *p)
{
	for (size_t i = 0; i < p->scripts.size; i++) {
		jf_console_script *s = &p->scripts.items[i];
		char *rel = jf_xstrdup(s->module);
		for (char *c = rel; *c; c++)
			if (*c == '.')
				*c = '/';
		for (size_t r = 0; r < p->roots.size && !s->file; r++) {
			const char *forms[] = { "%s/%s.py", "%s/%s/__init__.py" };
			for (size_t f = 0; f < 2 && !s->file; f++) {
				char *path = jf_xasprintf(forms[f], p->roots.items[r], rel);
				if (jf_path_is_file(path))
					s->file = path;
				else
					free(path);
			}
		}
		free(rel);
	}
}

/* ---- pyproject.toml ---- */

/* A TOML document flattened: every value with its full dotted key. */
typedef struct {
	const jf_source *src;
	JF_ARRAY(struct toml_entry { char *key; TSNode value; }) entries;
} toml;

/* The text of a TOML string value; NULL for another kind of value. */
static char *toml_string(const toml *t, TSNode n)
{
	if (ts_node_is_null(n) || !jf_node_type_is(n, JF_T_string))
		return NULL;
	char *raw = text(t->src, n);
	size_t len = strlen(raw), q = len >= 6 && (!strncmp(raw, "\"\"\"", 3) || !strncmp(raw, "'''", 3)) ? 3 : 1;
	bool literal = raw[0] == '\'';
	jf_buf out = JF_BUF_INIT;
	for (size_t i = q; i + q < len; i++) {
		if (!literal && raw[i] == '\\' && i + 1 + q < len) {
			char c = raw[++i];
			jf_buf_addc(&out, c == 'n' ? '\n' : c == 't' ? '\t' : c);
		} else {
			jf_buf_addc(&out, raw[i]);
		}
	}
	free(raw);
	return jf_buf_detach(&out, NULL);
}

/* The dotted text of key node `k` (bare, quoted or dotted), added to `b`. */
static void toml_key(const toml *t, TSNode k, jf_buf *b)
{
	jf_type type = jf_node_type(k);
	if (type == JF_T_dotted_key) {
		for (uint32_t i = 0; i < ts_node_named_child_count(k); i++) {
			if (i)
				jf_buf_addc(b, '.');
			toml_key(t, ts_node_named_child(k, i), b);
		}
	} else if (type == JF_T_quoted_key) {
		char *raw = text(t->src, k);
		size_t n = strlen(raw);
		jf_buf_add(b, raw + 1, n >= 2 ? n - 2 : 0);
		free(raw);
	} else {
		char *raw = text(t->src, k);
		jf_buf_adds(b, raw);
		free(raw);
	}
}

static bool is_key(TSNode n)
{
	jf_type type = jf_node_type(n);
	return type == JF_T_bare_key || type == JF_T_quoted_key || type == JF_T_dotted_key;
}

/* Adds the pairs among the children of `n`, under `prefix`; inline tables flattened. */
static void toml_pairs(toml *t, TSNode n, const char *prefix, int depth)
{
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode pair = ts_node_named_child(n, i);
		if (!jf_node_type_is(pair, JF_T_pair) || ts_node_named_child_count(pair) < 2)
			continue;
		jf_buf key = JF_BUF_INIT;
		if (*prefix) {
			jf_buf_adds(&key, prefix);
			jf_buf_addc(&key, '.');
		}
		toml_key(t, ts_node_named_child(pair, 0), &key);
		TSNode value = ts_node_named_child(pair, ts_node_named_child_count(pair) - 1);
		if (jf_node_type_is(value, JF_T_inline_table) && depth < 8)
			toml_pairs(t, value, key.buf, depth + 1);
		struct toml_entry e = { jf_buf_detach(&key, NULL), value };
		jf_array_push(&t->entries, e);
	}
}

static void toml_read(toml *t, TSNode document)
{
	toml_pairs(t, document, "", 0);
	for (uint32_t i = 0; i < ts_node_named_child_count(document); i++) {
		TSNode table = ts_node_named_child(document, i);
		if (!jf_node_type_is(table, JF_T_table) || !ts_node_named_child_count(table) ||
		    !is_key(ts_node_named_child(table, 0)))
			continue; /* [[arrays of tables]] hold nothing read here */
		jf_buf header = JF_BUF_INIT;
		toml_key(t, ts_node_named_child(table, 0), &header);
		toml_pairs(t, table, header.buf, 0);
		jf_buf_release(&header);
	}
}

static void toml_release(toml *t)
{
	for (size_t i = 0; i < t->entries.size; i++)
		free(t->entries.items[i].key);
	jf_array_release(&t->entries);
}

/* The value at dotted key `key`, or a null node. */
static TSNode toml_get(const toml *t, const char *key)
{
	for (size_t i = 0; i < t->entries.size; i++)
		if (!strcmp(t->entries.items[i].key, key))
			return t->entries.items[i].value;
	return null_node;
}

/* Whether the document has a table or key under `prefix` ("project"). */
static bool toml_has(const toml *t, const char *prefix)
{
	size_t n = strlen(prefix);
	for (size_t i = 0; i < t->entries.size; i++)
		if (!strncmp(t->entries.items[i].key, prefix, n) && t->entries.items[i].key[n] == '.')
			return true;
	return false;
}

/* The strings of array `n` added to `out`; false when `n` is not an array of strings. */
static bool toml_strings(const toml *t, TSNode n, jf_strings *out)
{
	if (ts_node_is_null(n) || !jf_node_type_is(n, JF_T_array))
		return false;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode item = ts_node_named_child(n, i);
		if (jf_node_type_is(item, JF_T_comment))
			continue;
		char *s = toml_string(t, item);
		if (!s)
			return false;
		jf_array_push(out, s);
	}
	return true;
}

/* Whether `dynamic` of [project] names `field`. */
static bool toml_dynamic(const toml *t, const char *field)
{
	jf_strings dyn = { 0 };
	toml_strings(t, toml_get(t, "project.dynamic"), &dyn);
	bool found = jf_strings_have(&dyn, field);
	jf_strings_release(&dyn);
	return found;
}

/* The console scripts of table `prefix`: `name = "module:function"`. */
static void toml_scripts(jf_project *p, const toml *t, const char *prefix)
{
	size_t n = strlen(prefix);
	for (size_t i = 0; i < t->entries.size; i++) {
		const char *key = t->entries.items[i].key;
		if (strncmp(key, prefix, n) || key[n] != '.' || strchr(key + n + 1, '.'))
			continue;
		char *target = toml_string(t, t->entries.items[i].value);
		if (target)
			add_script(p, key + n + 1, target);
		free(target);
	}
}

/* [project] (PEP 621): dependencies, a dynamic one from
 * [tool.setuptools.dynamic], optional-dependencies of the extras. */
static void pep621(jf_project *p, const toml *t, const char *dir, const jf_strings *extras)
{
	TSNode deps = toml_get(t, "project.dependencies");
	if (toml_dynamic(t, "dependencies")) {
		jf_strings files = { 0 };
		TSNode file = toml_get(t, "tool.setuptools.dynamic.dependencies.file");
		char *one = toml_string(t, file);
		if (one)
			jf_array_push(&files, one);
		else
			toml_strings(t, file, &files);
		if (!files.size)
			p->unknown = "its dependencies are dynamic (computed by the build backend)";
		for (size_t i = 0; i < files.size; i++)
			if (!add_requirements_file(p, dir, files.items[i]))
				p->unknown = "its dynamic dependencies come from a file that is not there";
		jf_strings_release(&files);
	} else if (!ts_node_is_null(deps) && !toml_strings(t, deps, &p->requires)) {
		p->unknown = "its [project] dependencies are not a list of strings";
	}
	for (size_t i = 0; i < extras->size; i++) {
		char *key = jf_xasprintf("project.optional-dependencies.%s", extras->items[i]);
		if (!toml_strings(t, toml_get(t, key), &p->requires))
			p->unknown = "an extra it is installed with is not a list in [project.optional-dependencies]";
		free(key);
	}
	toml_scripts(p, t, "project.scripts");
}

/* [tool.poetry]: each dependency but python is a distribution of that name. */
static void poetry(jf_project *p, const toml *t, const jf_strings *extras, jf_strings *rels)
{
	const char *prefix = "tool.poetry.dependencies.";
	size_t n = strlen(prefix);
	for (size_t i = 0; i < t->entries.size; i++) {
		const char *key = t->entries.items[i].key;
		if (!strncmp(key, prefix, n) && !strchr(key + n, '.') && strcmp(key + n, "python"))
			jf_array_push(&p->requires, jf_xstrdup(key + n));
	}
	if (extras->size)
		p->unknown = "it is installed with extras, which Poetry's optional dependencies make";
	toml_scripts(p, t, "tool.poetry.scripts");
	/* packages = [{ include = "pkg", from = "src" }] */
	TSNode pkgs = toml_get(t, "tool.poetry.packages");
	for (uint32_t i = 0; !ts_node_is_null(pkgs) && i < ts_node_named_child_count(pkgs); i++) {
		TSNode table = ts_node_named_child(pkgs, i);
		if (!jf_node_type_is(table, JF_T_inline_table))
			continue;
		toml inner = { t->src, { 0 } };
		toml_pairs(&inner, table, "", 0);
		char *from = toml_string(&inner, toml_get(&inner, "from"));
		if (from)
			jf_array_push(rels, from);
		toml_release(&inner);
	}
}

/* The package folders pyproject.toml names: setuptools' package-dir and
 * packages.find.where, hatch's wheel packages. Added to `rels` (relative). */
static void toml_roots(const toml *t, jf_strings *rels)
{
	char *pd = toml_string(t, toml_get(t, "tool.setuptools.package-dir."));
	if (pd)
		jf_array_push(rels, pd);
	toml_strings(t, toml_get(t, "tool.setuptools.packages.find.where"), rels);
	jf_strings hatch = { 0 };
	toml_strings(t, toml_get(t, "tool.hatch.build.targets.wheel.packages"), &hatch);
	for (size_t i = 0; i < hatch.size; i++)
		jf_array_push(rels, jf_path_dirname(hatch.items[i]));
	jf_strings_release(&hatch);
}

/* pyproject.toml; false when it has neither [project] nor [tool.poetry]. */
static bool read_pyproject(jf_project *p, const char *dir, const jf_strings *extras,
                           jf_strings *rels)
{
	jf_source *src = load(dir, "pyproject.toml");
	if (!src)
		return false;
	TSTree *tree = parse(tree_sitter_toml(), src);
	toml t = { src, { 0 } };
	if (tree)
		toml_read(&t, ts_tree_root_node(tree));
	bool found = true;
	if (toml_has(&t, "project")) {
		pep621(p, &t, dir, extras);
	} else if (toml_has(&t, "tool.poetry")) {
		poetry(p, &t, extras, rels);
	} else {
		found = false;
	}
	if (found) {
		p->metadata = jf_xstrdup("pyproject.toml");
		toml_roots(&t, rels);
	}
	toml_release(&t);
	if (tree)
		ts_tree_delete(tree);
	jf_source_free(src);
	return found;
}

/* ---- setup.cfg ---- */

/* The value of `key` in section `section` of INI text, continuation lines
 * joined with '\n'; NULL when absent. */
static char *ini_get(const char *data, const char *section, const char *key)
{
	bool in = false, found = false;
	jf_buf out = JF_BUF_INIT;
	for (const char *line = data; *line;) {
		size_t len = strcspn(line, "\n");
		char *s = jf_xstrndup(line, len);
		size_t n = strlen(s);
		while (n && strchr(" \t\r", s[n - 1]))
			s[--n] = '\0';
		bool indented = s[0] == ' ' || s[0] == '\t';
		char *t = s + strspn(s, " \t");
		if (!*t || *t == '#' || *t == ';') {
			/* comments and blank lines do not end a value */
		} else if (found && indented) {
			jf_buf_adds(&out, t);
			jf_buf_addc(&out, '\n');
		} else if (found) {
			free(s);
			break;
		} else if (*t == '[') {
			char *close = strchr(t, ']');
			in = close && (size_t)(close - t - 1) == strlen(section) &&
			     !strncmp(t + 1, section, strlen(section));
		} else if (in && !indented) {
			size_t k = strcspn(t, "=:");
			size_t klen = k;
			while (klen && (t[klen - 1] == ' ' || t[klen - 1] == '\t'))
				klen--;
			if (t[k] && klen == strlen(key) && !strncmp(t, key, klen)) {
				found = true;
				const char *v = t + k + 1;
				v += strspn(v, " \t");
				if (*v) {
					jf_buf_adds(&out, v);
					jf_buf_addc(&out, '\n');
				}
			}
		}
		free(s);
		line += len + (line[len] == '\n');
	}
	if (!found) {
		jf_buf_release(&out);
		return NULL;
	}
	return jf_buf_detach(&out, NULL);
}

/* Calls fn for each non-empty line of `value`. */
static void each_line(const char *value, void (*fn)(const char *line, void *data), void *data)
{
	for (const char *l = value; l && *l;) {
		size_t n = strcspn(l, "\n");
		char *line = jf_xstrndup(l, n);
		if (*line)
			fn(line, data);
		free(line);
		l += n + (l[n] == '\n');
	}
}

static void cfg_requirement(const char *line, void *data)
{
	jf_project *p = data;
	if (line[0] != '#')
		jf_array_push(&p->requires, jf_xstrdup(line));
}

static void cfg_script(const char *line, void *data)
{
	size_t k = strcspn(line, "=");
	if (!line[k])
		return;
	char *name = jf_xstrndup(line, k);
	size_t n = strlen(name);
	while (n && name[n - 1] == ' ')
		name[--n] = '\0';
	add_script(data, name, line + k + 1);
	free(name);
}

/* setup.cfg; false when it has no [metadata] or [options]. */
static bool read_setup_cfg(jf_project *p, const char *dir, const jf_strings *extras,
                           jf_strings *rels)
{
	jf_source *src = load(dir, "setup.cfg");
	if (!src)
		return false;
	bool found = strstr(src->data, "[options]") || strstr(src->data, "[metadata]");
	char *req = found ? ini_get(src->data, "options", "install_requires") : NULL;
	if (req && jf_str_starts(req, "file:")) {
		char *file = jf_xstrndup(req + 5 + strspn(req + 5, " "), strcspn(req + 5 + strspn(req + 5, " "), " \n,"));
		if (!add_requirements_file(p, dir, file))
			p->unknown = "its install_requires come from a file that is not there";
		free(file);
	} else {
		each_line(req, cfg_requirement, p);
	}
	for (size_t i = 0; found && i < extras->size; i++) {
		char *more = ini_get(src->data, "options.extras_require", extras->items[i]);
		if (!more)
			p->unknown = "an extra it is installed with is not in its setup.cfg";
		each_line(more, cfg_requirement, p);
		free(more);
	}
	char *scripts = found ? ini_get(src->data, "options.entry_points", "console_scripts") : NULL;
	each_line(scripts, cfg_script, p);
	/* package_dir =\n    =src */
	char *pd = found ? ini_get(src->data, "options", "package_dir") : NULL;
	for (const char *l = pd; l && *l;) {
		size_t n = strcspn(l, "\n");
		if (l[0] == '=')
			jf_array_push(rels, jf_xstrndup(l + 1 + strspn(l + 1, " "), n - 1 - strspn(l + 1, " ")));
		l += n + (l[n] == '\n');
	}
	char *where = found ? ini_get(src->data, "options.packages.find", "where") : NULL;
	if (where)
		jf_array_push(rels, jf_xstrndup(where, strcspn(where, "\n")));
	if (found && !p->metadata)
		p->metadata = jf_xstrdup("setup.cfg");
	free(req);
	free(scripts);
	free(pd);
	free(where);
	jf_source_free(src);
	return found;
}

/* ---- setup.py ---- */

typedef struct {
	const jf_source *src;
	TSNode module;
} py;

/* The characters of a plain string literal; NULL for an f-string or another expression. */
static char *py_string(const py *m, TSNode n)
{
	if (ts_node_is_null(n) || !jf_node_type_is(n, JF_T_string))
		return NULL;
	TSNode first = ts_node_named_child(n, 0);
	TSNode last = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
		if (jf_node_type_is(ts_node_named_child(n, i), JF_T_interpolation))
			return NULL;
	if (ts_node_is_null(first) || ts_node_is_null(last) ||
	    !jf_node_type_is(first, JF_T_string_start) || !jf_node_type_is(last, JF_T_string_end))
		return NULL;
	uint32_t a = ts_node_end_byte(first), b = ts_node_start_byte(last);
	return jf_xstrndup(m->src->data + a, b > a ? b - a : 0);
}

/* Counts the statements of `block` (a module or a compound statement's body,
 * not a function's or class's) that bind or change `name`: assignments
 * (the last one's value in *value), augmented assignments and calls of its
 * methods (name.append(...), name.extend(...)). */
static int py_bindings(const py *m, TSNode block, const char *name, TSNode *value, int depth)
{
	int count = 0;
	size_t len = strlen(name);
	for (uint32_t i = 0; !ts_node_is_null(block) && i < ts_node_named_child_count(block); i++) {
		TSNode st = ts_node_named_child(block, i);
		jf_type type = jf_node_type(st);
		if (type == JF_T_function_definition || type == JF_T_class_definition ||
		    type == JF_T_decorated_definition || type == JF_T_comment)
			continue;
		if (type != JF_T_expression_statement) {
			/* if/else, with, try, for, while: their blocks bind at module level too */
			if (depth < 8)
				for (uint32_t k = 0; k < ts_node_named_child_count(st); k++)
					count += py_bindings(m, ts_node_named_child(st, k), name, value, depth + 1);
			continue;
		}
		TSNode a = ts_node_named_child(st, 0);
		TSNode left = jf_node_field(a, JF_F_left);
		if (jf_node_type_is(a, JF_T_call))
			left = jf_node_field(jf_node_field(a, JF_F_function), JF_F_object);
		if (ts_node_is_null(left) || ts_node_end_byte(left) - ts_node_start_byte(left) != len ||
		    memcmp(m->src->data + ts_node_start_byte(left), name, len))
			continue;
		count++;
		if (jf_node_type_is(a, JF_T_assignment))
			*value = jf_node_field(a, JF_F_right);
		else
			*value = null_node; /* changed in place: computed */
	}
	return count;
}

/* A module-level `name = value`: the value, or a null node when none, or
 * when the module binds or changes `name` more than once (in an if, a with,
 * by name.append(...)): then it is computed. */
static TSNode py_assigned(const py *m, const char *name)
{
	TSNode value = null_node;
	return py_bindings(m, m->module, name, &value, 0) == 1 ? value : null_node;
}

/* The one requirements file (requirements*.txt) a string literal of
 * setup.py names that the project has, or NULL: where setup.py computes its
 * install_requires by reading it. Caller frees. */
static char *py_requirements_file(const py *m, const char *dir)
{
	char *found = NULL;
	int count = 0;
	for (const char *p = strstr(m->src->data, "requirements"); p; p = strstr(p + 1, "requirements")) {
		if (p == m->src->data || (p[-1] != '"' && p[-1] != '\'' && p[-1] != '/'))
			continue;
		size_t n = strcspn(p, "\"'\n");
		if (n < 4 || n > 64 || memcmp(p + n - 4, ".txt", 4))
			continue;
		char *name = jf_xstrndup(p, n);
		char *path = jf_path_join(dir, name);
		if (jf_path_is_file(path) && (!found || strcmp(found, name))) {
			count++;
			free(found);
			found = jf_xstrdup(name);
		}
		free(path);
		free(name);
	}
	if (count == 1)
		return found;
	free(found);
	return NULL;
}

/* The strings of a list or tuple literal (or a name bound to one at module
 * level) added to `out`; false when it is anything else. */
static bool py_strings(const py *m, TSNode n, jf_strings *out, int depth)
{
	if (ts_node_is_null(n) || depth > 2)
		return false;
	jf_type type = jf_node_type(n);
	if (type == JF_T_identifier) {
		char *name = text(m->src, n);
		TSNode v = py_assigned(m, name);
		free(name);
		return py_strings(m, v, out, depth + 1);
	}
	if (type != JF_T_list && type != JF_T_tuple)
		return false;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode item = ts_node_named_child(n, i);
		if (jf_node_type_is(item, JF_T_comment))
			continue;
		char *s = py_string(m, item);
		if (!s)
			return false;
		jf_array_push(out, s);
	}
	return true;
}

/* The value of `key` in dictionary literal `dict` (or a name bound to one), or a null node. */
static TSNode py_dict_get(const py *m, TSNode dict, const char *key)
{
	if (!ts_node_is_null(dict) && jf_node_type_is(dict, JF_T_identifier)) {
		char *name = text(m->src, dict);
		dict = py_assigned(m, name);
		free(name);
	}
	if (ts_node_is_null(dict) || !jf_node_type_is(dict, JF_T_dictionary))
		return null_node;
	for (uint32_t i = 0; i < ts_node_named_child_count(dict); i++) {
		TSNode pair = ts_node_named_child(dict, i);
		if (!jf_node_type_is(pair, JF_T_pair))
			continue;
		char *k = py_string(m, jf_node_field(pair, JF_F_key));
		bool match = k && !strcmp(k, key);
		free(k);
		if (match)
			return jf_node_field(pair, JF_F_value);
	}
	return null_node;
}

/* The setup() call of the module: `setup(...)` or `setuptools.setup(...)`,
 * first in document order; a null node when none. */
static TSNode py_setup_call(const py *m)
{
	TSTreeCursor cur = ts_tree_cursor_new(m->module);
	TSNode found = null_node;
	for (bool more = true; more && ts_node_is_null(found);) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		if (jf_node_type_is(n, JF_T_call)) {
			TSNode fn = jf_node_field(n, JF_F_function);
			char *name = text(m->src, fn);
			if (!strcmp(name, "setup") || jf_str_ends(name, ".setup"))
				found = n;
			free(name);
		}
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur)) {
				more = false;
				break;
			}
	}
	ts_tree_cursor_delete(&cur);
	return found;
}

/* setup.py's setup() call: its literal install_requires, extras_require,
 * entry_points and package_dir; false when it has no setup() call. */
static bool read_setup_py(jf_project *p, const char *dir, const jf_strings *extras,
                          jf_strings *rels)
{
	jf_source *src = load(dir, "setup.py");
	if (!src)
		return false;
	TSTree *tree = parse(tree_sitter_python(), src);
	py m = { src, tree ? ts_tree_root_node(tree) : null_node };
	TSNode call = tree ? py_setup_call(&m) : null_node;
	/* tree-sitter asks nothing of a null node: it reads through it. */
	TSNode args = ts_node_is_null(call) ? null_node
	                                    : jf_node_field(call, JF_F_arguments);
	bool found = !ts_node_is_null(call);
	TSNode requires = null_node, extras_require = null_node, entry_points = null_node,
	       package_dir = null_node;
	bool splat = false;
	for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_dictionary_splat)) {
			splat = true;
			continue;
		}
		if (!jf_node_type_is(a, JF_T_keyword_argument))
			continue;
		char *name = text(src, jf_node_field(a, JF_F_name));
		TSNode v = jf_node_field(a, JF_F_value);
		if (!strcmp(name, "install_requires"))
			requires = v;
		else if (!strcmp(name, "extras_require"))
			extras_require = v;
		else if (!strcmp(name, "entry_points"))
			entry_points = v;
		else if (!strcmp(name, "package_dir"))
			package_dir = v;
		free(name);
	}
	if (!ts_node_is_null(requires)) {
		/* setup.py's install_requires replaces setup.cfg's */
		jf_strings_release(&p->requires);
		if (!py_strings(&m, requires, &p->requires, 0)) {
			/* a computed list: the lines of the requirements file it reads */
			char *file = py_requirements_file(&m, dir);
			if (!file || !add_requirements_file(p, dir, file))
				p->unknown = "setup.py computes its install_requires";
			free(file);
		}
		p->unknown = p->unknown && strstr(p->unknown, "setup.cfg") ? NULL : p->unknown;
	} else if (splat) {
		p->unknown = "setup.py passes setup() arguments through **kwargs";
	}
	for (size_t i = 0; found && i < extras->size; i++)
		if (!py_strings(&m, py_dict_get(&m, extras_require, extras->items[i]), &p->requires, 0) &&
		    !ts_node_is_null(extras_require))
			p->unknown = "setup.py computes the extras it is installed with";
	jf_strings scripts = { 0 };
	py_strings(&m, py_dict_get(&m, entry_points, "console_scripts"), &scripts, 0);
	for (size_t i = 0; i < scripts.size; i++)
		cfg_script(scripts.items[i], p);
	jf_strings_release(&scripts);
	char *pd = py_string(&m, py_dict_get(&m, package_dir, ""));
	if (pd)
		jf_array_push(rels, pd);
	if (found && (!p->metadata || !ts_node_is_null(requires))) {
		free(p->metadata);
		p->metadata = jf_xstrdup("setup.py");
	}
	if (tree)
		ts_tree_delete(tree);
	jf_source_free(src);
	return found;
}

void jf_project_read(const char *dir, const char *extras, jf_project *out)
{
	memset(out, 0, sizeof *out);
	jf_strings rels = { 0 }, names = { 0 };
	for (const char *e = extras; e && *e;) {
		size_t n = strcspn(e, ",");
		if (n)
			jf_array_push(&names, jf_xstrndup(e, n));
		e += n + (e[n] == ',');
	}
	if (!read_pyproject(out, dir, &names, &rels)) {
		bool cfg = read_setup_cfg(out, dir, &names, &rels);
		bool setup = read_setup_py(out, dir, &names, &rels);
		if (!cfg && !setup)
			out->unknown = "it has no pyproject.toml, setup.cfg or setup.py whose metadata "
			               "jobfix can read";
	}
	add_root(out, dir, ".");
	for (size_t i = 0; i < rels.size; i++)
		add_root(out, dir, rels.items[i]);
	if (!rels.size)
		add_root(out, dir, "src"); /* setuptools finds a src layout by itself */
	jf_strings_release(&rels);
	jf_strings_release(&names);
	find_script_files(out);
}
