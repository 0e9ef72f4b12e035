/* yml.c - YAML documents with positions: loading, node spans and scalars, comments */
#include "core/yml.h"

/* Where flow collections first nest deeper than JF_YML_MAX_FLOW_DEPTH, or
 * UINT32_MAX. Quotes and comments are skipped roughly: the count only has to
 * be right for absurd inputs. */
static uint32_t too_deep_at(const jf_source *s)
{
	uint32_t depth = 0;
	char quote = 0;
	for (uint32_t i = 0; i < s->len; i++) {
		char c = s->data[i];
		if (quote) {
			if (c == quote || c == '\n')
				quote = 0;
		} else if (c == '#' && (i == 0 || s->data[i - 1] == ' ' || s->data[i - 1] == '\n')) {
			while (i < s->len && s->data[i] != '\n')
				i++;
		} else if ((c == '"' || c == '\'') && depth > 0) {
			quote = c;
		} else if (c == '[' || c == '{') {
			if (++depth > JF_YML_MAX_FLOW_DEPTH)
				return i;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return UINT32_MAX;
}

static void syntax_error(const jf_source *s, const yaml_parser_t *p, jf_yml_error *err)
{
	err->status = JF_YML_SYNTAX;
	if (p->error == YAML_READER_ERROR) {
		/* The reader counts bytes, not lines. */
		uint32_t at = (uint32_t)p->problem_offset;
		err->at = (jf_span){ at, at };
		err->problem = p->problem ? p->problem : "cannot read the YAML stream";
		return;
	}
	uint32_t at = jf_source_byte_from_yaml(s, p->problem_mark.line, p->problem_mark.column);
	err->at = (jf_span){ at, at };
	err->problem = p->problem ? p->problem : "invalid YAML";
	if (p->context) {
		uint32_t c = jf_source_byte_from_yaml(s, p->context_mark.line, p->context_mark.column);
		err->context = p->context;
		err->context_at = (jf_span){ c, c };
	}
}

/* Whether `src` may be given to libyaml: no NUL byte, no absurd nesting. */
static bool loadable(const jf_source *src, jf_yml_error *err)
{
	*err = (jf_yml_error){ 0 };
	const char *nul = memchr(src->data, '\0', src->len);
	if (nul || src->status == JF_SOURCE_BINARY) {
		uint32_t at = nul ? (uint32_t)(nul - src->data) : 0;
		*err = (jf_yml_error){ JF_YML_BINARY, { at, at }, "a NUL byte", NULL, { 0, 0 } };
		return false;
	}
	uint32_t deep = too_deep_at(src);
	if (deep != UINT32_MAX) {
		*err = (jf_yml_error){ JF_YML_TOO_DEEP, { deep, deep + 1 }, "nested too deep", NULL,
			               { 0, 0 } };
		return false;
	}
	return true;
}

static void parser_init(yaml_parser_t *parser, const jf_source *src)
{
	yaml_parser_initialize(parser);
	yaml_parser_set_input_string(parser, (const unsigned char *)src->data, src->len);
	/* A UTF-8 byte-order mark is skipped only where libyaml tells the
	 * encoding itself; set, it would take the mark for content and end the
	 * document after its first line. */
	if (!jf_source_bom(src))
		yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING);
}

bool jf_yml_load(const jf_source *src, yaml_document_t *doc, jf_yml_error *err)
{
	if (!loadable(src, err))
		return false;
	yaml_parser_t parser;
	parser_init(&parser, src);
	bool ok = yaml_parser_load(&parser, doc);
	if (!ok)
		syntax_error(src, &parser, err);
	yaml_parser_delete(&parser);
	return ok;
}

bool jf_yml_load_all(const jf_source *src, jf_yml_docs *out, jf_yml_error *err)
{
	*out = (jf_yml_docs){ 0 };
	if (!loadable(src, err))
		return false;
	yaml_parser_t parser;
	parser_init(&parser, src);
	bool ok = true;
	while (out->size < JF_YML_MAX_DOCS) {
		yaml_document_t doc;
		if (!yaml_parser_load(&parser, &doc)) {
			syntax_error(src, &parser, err);
			ok = false;
			break;
		}
		/* The end of the stream is a document without a root; an empty stream is one such document. */
		if (out->size && !yaml_document_get_root_node(&doc)) {
			yaml_document_delete(&doc);
			break;
		}
		jf_array_push(out, doc);
	}
	yaml_parser_delete(&parser);
	if (!ok)
		jf_yml_docs_release(out);
	return ok;
}

void jf_yml_docs_release(jf_yml_docs *docs)
{
	for (size_t i = 0; i < docs->size; i++)
		yaml_document_delete(&docs->items[i]);
	jf_array_release(docs);
}

yaml_node_t *jf_yml_node(const yaml_document_t *doc, int index)
{
	return yaml_document_get_node((yaml_document_t *)doc, index);
}

static bool is_block_scalar(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE && (n->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
	                                       n->data.scalar.style == YAML_FOLDED_SCALAR_STYLE);
}

jf_span jf_yml_span(const jf_source *s, const yaml_node_t *n)
{
	uint32_t a = jf_source_byte_from_yaml(s, n->start_mark.line, n->start_mark.column);
	uint32_t b = jf_source_byte_from_yaml(s, n->end_mark.line, n->end_mark.column);
	/* A block scalar ends at the start of the next line; underline its first line. */
	if (n->type != YAML_SCALAR_NODE || is_block_scalar(n)) {
		jf_span line = jf_source_line_span(s, jf_source_line_of(s, a));
		if (b > line.end)
			b = line.end > a ? line.end : a;
	}
	return (jf_span){ a, b < a ? a : b };
}

yaml_node_t *jf_yml_get(const yaml_document_t *doc, const yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *k = jf_yml_scalar(jf_yml_node(doc, p->key));
		if (k && !strcmp(k, key))
			return jf_yml_node(doc, p->value);
	}
	return NULL;
}

yaml_node_t *jf_yml_unknown_key(const yaml_document_t *doc, const yaml_node_t *map,
                                const char *const *known)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = jf_yml_node(doc, p->key);
		if (!jf_yml_scalar(k) || !jf_str_in(jf_yml_scalar(k), known))
			return k;
	}
	return NULL;
}

const char *jf_yml_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

bool jf_yml_is_null(const yaml_node_t *n)
{
	const char *s = jf_yml_scalar(n);
	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	        !strcmp(s, "NULL"));
}

const char *jf_yml_type_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	default:
		return "a scalar";
	}
}

const char *jf_yml_suggest(const char *name, const char *const *known)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; name && known[i]; i++) {
		size_t max = strlen(known[i]) <= 4 ? 1 : 2;
		size_t d = jf_edit_distance(name, known[i], max);
		if (d <= max && d < best_d) {
			best = known[i];
			best_d = d;
		}
	}
	for (size_t i = 0; name && !best && known[i]; i++)
		if (strlen(known[i]) >= 3 && jf_str_starts(name, known[i]))
			best = known[i];
	return best;
}

static int cmp_span(const void *pa, const void *pb)
{
	const jf_span *a = pa, *b = pb;
	return a->start < b->start ? -1 : a->start > b->start;
}

void jf_yml_comments(const jf_source *src, const yaml_document_t *doc, jf_yml_comment_fn fn,
                     void *data)
{
	JF_ARRAY(jf_span) scalars = { 0 };
	for (const yaml_node_t *n = doc->nodes.start; n < doc->nodes.top; n++) {
		if (n->type != YAML_SCALAR_NODE)
			continue;
		uint32_t a = jf_source_byte_from_yaml(src, n->start_mark.line, n->start_mark.column);
		uint32_t b = jf_source_byte_from_yaml(src, n->end_mark.line, n->end_mark.column);
		if (is_block_scalar(n)) /* the header line `|-  # text` is outside */
			a = jf_source_line_span(src, jf_source_line_of(src, a)).end;
		if (b > a)
			jf_array_push(&scalars, ((jf_span){ a, b }));
	}
	if (scalars.size)
		qsort(scalars.items, scalars.size, sizeof(jf_span), cmp_span);
	uint32_t end = jf_source_byte_from_yaml(src, doc->end_mark.line, doc->end_mark.column);
	if (end > src->len || (!doc->end_mark.line && !doc->end_mark.column))
		end = src->len;
	size_t k = 0;
	for (uint32_t i = 0; i < end; i++) {
		while (k < scalars.size && scalars.items[k].end <= i)
			k++;
		if (k < scalars.size && scalars.items[k].start <= i) {
			i = scalars.items[k].end - 1;
			continue;
		}
		char c = src->data[i];
		if (c != '#')
			continue;
		char prev = i ? src->data[i - 1] : '\n';
		if (prev != ' ' && prev != '\t' && prev != '\n' && prev != '\r')
			continue;
		jf_span line = jf_source_line_span(src, jf_source_line_of(src, i));
		uint32_t e = line.end;
		if (e > i && src->data[e - 1] == '\r')
			e--;
		fn(data, (jf_span){ i, e });
		i = line.end;
	}
	jf_array_release(&scalars);
}

char *jf_yml_text(const yaml_document_t *doc, const yaml_node_t *map, const char *key)
{
	const char *s = jf_yml_scalar(jf_yml_get(doc, map, key));
	return s && *s ? jf_xstrdup(s) : NULL;
}

bool jf_yml_load_data(const char *data, size_t len, yaml_document_t *doc, unsigned *error_line)
{
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	bool ok = yaml_parser_load(&p, doc) && yaml_document_get_root_node(doc);
	if (!ok && !p.error) /* loaded, but empty */
		yaml_document_delete(doc);
	if (!ok && error_line)
		*error_line = (unsigned)p.problem_mark.line + 1;
	yaml_parser_delete(&p);
	return ok;
}
