/* grammar.c - the listed node types and fields mapped to each grammar's ids, once */
#include "core/grammar.h"

#include <pthread.h>

#include "core/strmap.h"
#include "core/util.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);
const TSLanguage *tree_sitter_toml(void);

static const char *const type_names[JF_T_COUNT] = {
	[JF_T_NONE] = "",
#define JF_X_TYPE_(id) [JF_T_##id] = #id,
#define JF_X_TOKEN_(id, name) [JF_T_##id] = name,
	JF_NODE_TYPES(JF_X_TYPE_) JF_NODE_TOKENS(JF_X_TOKEN_)
#undef JF_X_TYPE_
#undef JF_X_TOKEN_
};

static const char *const field_names[JF_F_COUNT] = {
	[JF_F_NONE] = "",
#define JF_X_FIELD_(id) [JF_F_##id] = #id,
	JF_NODE_FIELDS(JF_X_FIELD_)
#undef JF_X_FIELD_
};

_Static_assert(JF_T_COUNT <= UINT8_MAX + 1, "node types are kept in bytes");
_Static_assert(JF_F_COUNT <= UINT8_MAX + 1, "fields are kept in bytes");

/* A grammar's symbols and fields mapped to the listed ones. */
typedef struct {
	const TSLanguage *ts;
	uint32_t nsymbols;
	uint8_t *type_of;               /* by symbol: a jf_type */
	TSFieldId field_id[JF_F_COUNT]; /* 0: the grammar has no such field */
	uint32_t nfields;
	uint8_t *field_of;              /* by the grammar's field id: a jf_field_id */
} grammar;

enum { GRAMMAR_COUNT = 3 };
/* Built once per process, then only read. */
static grammar grammars[GRAMMAR_COUNT];
static pthread_once_t grammars_once = PTHREAD_ONCE_INIT;

static void build_grammars(void)
{
	const TSLanguage *ts[GRAMMAR_COUNT] = { tree_sitter_python(), tree_sitter_bash(),
		                                tree_sitter_toml() };
	jf_strmap types = { 0 };
	for (int t = 1; t < JF_T_COUNT; t++)
		jf_strmap_put(&types, type_names[t], strlen(type_names[t]), (void *)(uintptr_t)t);
	for (int l = 0; l < GRAMMAR_COUNT; l++) {
		grammar *g = &grammars[l];
		g->ts = ts[l];
		g->nsymbols = ts_language_symbol_count(ts[l]);
		g->type_of = jf_xcalloc(g->nsymbols, 1);
		/* Every symbol of a name: a name can be a named node and a token ("lambda"). */
		for (uint32_t s = 0; s < g->nsymbols; s++) {
			const char *name = ts_language_symbol_name(ts[l], (TSSymbol)s);
			uintptr_t type = name ? (uintptr_t)jf_strmap_get(&types, name, strlen(name)) : 0;
			g->type_of[s] = (uint8_t)type;
		}
		g->nfields = ts_language_field_count(ts[l]);
		g->field_of = jf_xcalloc(g->nfields + 1, 1);
		for (int f = 1; f < JF_F_COUNT; f++) {
			TSFieldId id = ts_language_field_id_for_name(ts[l], field_names[f],
			                                             (uint32_t)strlen(field_names[f]));
			g->field_id[f] = id;
			if (id && id <= g->nfields)
				g->field_of[id] = (uint8_t)f;
		}
	}
	jf_strmap_release(&types);
}

static const grammar *grammar_of(TSNode n)
{
	pthread_once(&grammars_once, build_grammars);
	const TSLanguage *ts = ts_node_language(n);
	for (int l = 0; l < GRAMMAR_COUNT; l++)
		if (grammars[l].ts == ts)
			return &grammars[l];
	JF_BUG("a node of a grammar jobfix does not know");
}

const char *jf_type_name(jf_type type)
{
	return type_names[type];
}

const char *jf_field_name(jf_field_id field)
{
	return field_names[field];
}

jf_type jf_node_type(TSNode n)
{
	if (ts_node_is_null(n))
		return JF_T_NONE;
	const grammar *g = grammar_of(n);
	TSSymbol s = ts_node_symbol(n);
	return s < g->nsymbols ? (jf_type)g->type_of[s] : JF_T_NONE;
}

TSNode jf_node_field(TSNode n, jf_field_id field)
{
	if (ts_node_is_null(n))
		return n;
	TSFieldId id = grammar_of(n)->field_id[field];
	return id ? ts_node_child_by_field_id(n, id) : (TSNode){ 0 };
}

jf_field_id jf_field_of(TSNode in, TSFieldId id)
{
	const grammar *g = grammar_of(in);
	return id <= g->nfields ? (jf_field_id)g->field_of[id] : JF_F_NONE;
}

void jf_grammar_check(void)
{
	pthread_once(&grammars_once, build_grammars);
	for (int t = 1; t < JF_T_COUNT; t++) {
		bool found = false;
		for (int l = 0; l < GRAMMAR_COUNT && !found; l++)
			for (uint32_t s = 0; s < grammars[l].nsymbols && !found; s++)
				found = grammars[l].type_of[s] == t;
		if (!found)
			JF_BUG("no grammar has the node type '%s'", type_names[t]);
	}
	for (int f = 1; f < JF_F_COUNT; f++) {
		bool found = false;
		for (int l = 0; l < GRAMMAR_COUNT && !found; l++)
			found = grammars[l].field_id[f] != 0;
		if (!found)
			JF_BUG("no grammar has the field '%s'", field_names[f]);
	}
}

