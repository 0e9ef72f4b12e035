/* workspace.c - reading and parsing the files of a lint, each once */
#include "sources/workspace.h"

#include <sys/stat.h>
#include <time.h>

#include "core/deps.h"
#include "sources/prefetch.h"
#include "sources/syntax.h"
#include "sources/tree.h"

/* Parsing stops after this long on one file (pathological input). */
#ifndef JF_PARSE_BUDGET_SECONDS
#define JF_PARSE_BUDGET_SECONDS 5.0
#endif

void jf_parsers_release(jf_parsers *self)
{
	for (int i = 0; i < JF_LANG_COUNT; i++)
		if (self->parser[i])
			ts_parser_delete(self->parser[i]);
	memset(self, 0, sizeof(*self));
}

static TSParser *parser_for(jf_parsers *ps, jf_lang lang)
{
	if (!ps->parser[lang]) {
		ps->parser[lang] = ts_parser_new();
		if (!ts_parser_set_language(ps->parser[lang], jf_lang_ts(lang)))
			JF_BUG("tree-sitter cannot load the %s grammar", jf_lang_name(lang));
	}
	return ps->parser[lang];
}

typedef struct {
	const jf_source *src;
	struct timespec start;
	unsigned calls;
} parse_input;

static const char *read_source(void *payload, uint32_t byte, TSPoint pos, uint32_t *n)
{
	const parse_input *in = payload;
	(void)pos;
	if (byte >= in->src->len) {
		*n = 0;
		return "";
	}
	*n = in->src->len - byte;
	return in->src->data + byte;
}

static bool parse_progress(TSParseState *state)
{
	parse_input *in = state->payload;
	if (++in->calls % 64)
		return false;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double s = (double)(now.tv_sec - in->start.tv_sec) +
	           (double)(now.tv_nsec - in->start.tv_nsec) / 1e9;
	return s > JF_PARSE_BUDGET_SECONDS; /* true cancels the parse */
}

/* The tree-sitter range of bytes `s` of `src`, with its points. */
static TSRange range_of(const jf_source *src, jf_span s)
{
	jf_pos a = jf_source_pos(src, s.start), b = jf_source_pos(src, s.end);
	return (TSRange){ { a.line - 1, s.start - src->lines[a.line - 1] },
		          { b.line - 1, s.end - src->lines[b.line - 1] }, s.start, s.end };
}

TSTree *jf_parse(jf_parsers *ps, jf_lang lang, const jf_source *src, const jf_span *ranges,
                 size_t n)
{
	TSParser *p = parser_for(ps, lang);
	parse_input in = { src, { 0, 0 }, 0 };
	clock_gettime(CLOCK_MONOTONIC, &in.start);
	JF_ARRAY(TSRange) tr = { 0 };
	for (size_t i = 0; i < n; i++)
		jf_array_push(&tr, range_of(src, ranges[i]));
	ts_parser_set_included_ranges(p, tr.items, (uint32_t)tr.size);
	TSInput input = { &in, read_source, TSInputEncodingUTF8, NULL };
	TSParseOptions opts = { &in, parse_progress };
	TSTree *t = ts_parser_parse_with_options(p, NULL, input, opts);
	ts_parser_reset(p);
	ts_parser_set_included_ranges(p, NULL, 0);
	jf_array_release(&tr);
	return t;
}

void jf_workspace_init(jf_workspace *self, jf_parsers *parsers, jf_sink *sink)
{
	memset(self, 0, sizeof(*self));
	self->parsers = parsers;
	self->sink = sink;
}

void jf_workspace_release(jf_workspace *self)
{
	for (size_t i = 0; i < self->files.size; i++) {
		jf_file *f = self->files.items[i];
		ts_tree_delete(f->tree);
		jf_arena_release(&f->arena);
		free(f);
	}
	jf_array_release(&self->files);
	jf_sources_release(&self->sources);
	jf_strmap_release(&self->path_kinds);
	jf_strings_release(&self->unread);
}

jf_path_kind jf_workspace_path_kind(jf_workspace *self, const char *fs_path)
{
	size_t len = strlen(fs_path);
	void *known = jf_strmap_get(&self->path_kinds, fs_path, len);
	if (known)
		return (jf_path_kind)((intptr_t)known - 1);
	jf_deps_note(JF_DEP_KIND, fs_path);
	struct stat st;
	jf_path_kind kind = stat(fs_path, &st) != 0 ? JF_PATH_NONE
	                    : S_ISREG(st.st_mode)   ? JF_PATH_FILE
	                    : S_ISDIR(st.st_mode)   ? JF_PATH_DIR
	                                            : JF_PATH_OTHER;
	jf_strmap_put(&self->path_kinds, fs_path, len, (void *)((intptr_t)kind + 1));
	return kind;
}

void jf_workspace_keep_sources(jf_workspace *self, jf_sources *into)
{
	for (size_t i = 0; i < self->sources.size; i++)
		jf_array_push(into, self->sources.items[i]);
	jf_array_release(&self->sources);
}

/* Checks the syntax of `f`, parsed from `n` ranges of its source (0: all):
 * an error its tree has is checked again on the text with the grammar's
 * gaps blanked (sources/syntax.h). */
static void check_syntax(jf_workspace *ws, jf_file *f, const jf_span *ranges, size_t n)
{
	size_t before = ws->sink->report->diags.size;
	char *copy = ts_node_has_error(ts_tree_root_node(f->tree)) ? jf_syntax_gaps_blanked(f->src, f->lang)
	             : f->lang == JF_LANG_BASH ? jf_syntax_continued_keywords_blanked(f->src)
	                                       : NULL;
	jf_source *blanked = copy ? jf_source_from_string(f->src->path, copy, f->src->len) : NULL;
	TSTree *tree = blanked ? jf_parse(ws->parsers, f->lang, blanked, ranges, n) : NULL;
	jf_syntax_check(ws->sink, f, tree);
	f->syntax_reported = ws->sink->report->diags.size > before;
	if (tree)
		ts_tree_delete(tree);
	jf_source_free(blanked);
	free(copy);
}

static jf_file *add_file(jf_workspace *ws, const jf_source *src, jf_lang lang, jf_role role,
                         TSTree *tree)
{
	jf_file *f = jf_xcalloc(1, sizeof(*f));
	f->src = src;
	f->lang = lang;
	f->role = role;
	f->tree = tree;
	f->index = ws->files.size;
	jf_array_push(&ws->files, f);
	return f;
}

jf_file *jf_workspace_find(const jf_workspace *self, const char *fs_path)
{
	for (size_t i = 0; i < self->files.size; i++)
		if (self->files.items[i]->fs_path && !strcmp(self->files.items[i]->fs_path, fs_path))
			return self->files.items[i];
	return NULL;
}

jf_file *jf_workspace_load(jf_workspace *self, const char *fs_path, const char *display_path,
                           jf_lang lang, jf_role role, const char *container_dir, int depth)
{
	jf_file *f = jf_workspace_find(self, fs_path);
	if (f)
		return f;
	jf_source *src = NULL;
	TSTree *tree = NULL;
	bool unparsed = true; /* read here, or by the pool for a kept file */
	if (!self->prefetch || !jf_prefetch_take(self->prefetch, self->parsers, fs_path,
	                                         display_path, lang, &src, &tree, &unparsed))
		src = jf_source_load(fs_path, display_path);
	bool kept = lang == JF_LANG_PYTHON && src->status == JF_SOURCE_OK && self->kept &&
	            self->kept->take(self->kept->data, src);
	if (kept && tree) {
		ts_tree_delete(tree);
		tree = NULL;
	}
	if (!kept && unparsed && src->status == JF_SOURCE_OK)
		tree = jf_parse(self->parsers, lang, src, NULL, 0);
	jf_array_push(&self->sources, src);
	switch (src->status) {
	case JF_SOURCE_OK:
		break;
	case JF_SOURCE_BINARY:
		jf_diag_set_help(
			jf_sink_add(self->sink, JF301, src, (jf_span){ 0, 0 },
			            lang == JF_LANG_PYTHON
			                    ? "'%s' holds NUL bytes: Python refuses it as source code"
			                    : "'%s' holds NUL bytes: it is a binary file, not a shell script",
			            display_path),
			"the job runs this file as a script: point the command at the source file");
		return NULL;
	case JF_SOURCE_TOO_LARGE:
	case JF_SOURCE_UNREADABLE:
	case JF_SOURCE_OUTSIDE:
		jf_sink_not_linted(self->sink, src);
		return NULL;
	default:
		return NULL;
	}
	if (!tree && !kept) {
		jf_sink_add(self->sink, JF005, src, (jf_span){ 0, 0 },
		            "'%s' is not linted: parsing took longer than %.0f seconds", display_path,
		            JF_PARSE_BUDGET_SECONDS);
		return NULL;
	}
	f = add_file(self, src, lang, role, tree);
	f->fs_path = jf_arena_strdup(&f->arena, fs_path);
	f->container_dir = container_dir ? jf_arena_strdup(&f->arena, container_dir) : NULL;
	f->depth = depth;
	f->kept = kept;
	if (!kept) /* a kept file's syntax was checked when it was kept: it has no error */
		check_syntax(self, f, NULL, 0);
	if (self->on_parsed)
		self->on_parsed(self->on_parsed_data, f);
	return f;
}

void jf_workspace_prefetch(jf_workspace *self, const char *fs_path, const char *display_path,
                           jf_lang lang)
{
	if (self->prefetch && !jf_workspace_find(self, fs_path))
		jf_prefetch_submit(self->prefetch, fs_path, display_path, lang, self->kept);
}

jf_file *jf_workspace_add_text(jf_workspace *self, const jf_source *src, const jf_span *ranges,
                               size_t n, jf_lang lang, jf_role role)
{
	TSTree *tree = jf_parse(self->parsers, lang, src, ranges, n);
	if (!tree)
		return NULL;
	jf_file *f = add_file(self, src, lang, role, tree);
	check_syntax(self, f, ranges, n);
	if (self->on_parsed)
		self->on_parsed(self->on_parsed_data, f);
	return f;
}
