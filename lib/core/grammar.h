/* grammar.h - the node types and fields of the tree-sitter grammars, as integers
 *
 * The code names the node types and fields it compares in the lists below,
 * as the grammars (Python, bash, TOML) name them; each grammar's symbol and
 * field ids are mapped to these once per process, so a comparison is one of
 * integers and a misspelt name does not compile.
 */
#ifndef JF_GRAMMAR_H
#define JF_GRAMMAR_H

#include <stdbool.h>
#include <tree_sitter/api.h>

/* A name here that no grammar has is a bug: jf_grammar_check() finds it. */
#define JF_NODE_TYPES(X) \
	X(aliased_import) X(argument_list) X(array) X(as_pattern) X(as_pattern_target) X(assert_statement) \
	X(assignment) X(attribute) X(augmented_assignment) X(bare_key) X(binary_expression) \
	X(binary_operator) X(block) X(boolean_operator) X(break_statement) \
	X(c_style_for_statement) X(call) X(class_definition) X(command) X(command_name) \
	X(command_substitution) X(comment) X(comparison_operator) X(concatenated_string) \
	X(concatenation) X(conditional_expression) X(continue_statement) X(declaration_command) \
	X(decorated_definition) X(decorator) X(default_parameter) X(delete_statement) \
	X(dictionary) X(dictionary_comprehension) X(dictionary_splat) \
	X(dictionary_splat_pattern) X(dotted_key) X(dotted_name) X(elif_clause) X(else_clause) \
	X(escape_sequence) X(except_clause) X(exec_statement) \
	X(expansion) X(expression_statement) X(extglob_pattern) X(false) X(file_redirect) \
	X(float) X(for_in_clause) X(for_statement) X(function_definition) \
	X(generator_expression) X(generic_type) X(global_statement) X(heredoc_body) \
	X(herestring_redirect) X(identifier) X(if_statement) X(import_from_statement) \
	X(import_statement) X(inline_table) X(integer) X(interpolation) X(keyword_argument) X(keyword_separator) \
	X(lambda) X(lambda_parameters) X(list) X(list_comprehension) X(list_pattern) \
	X(list_splat) X(list_splat_pattern) X(match_statement) X(module) X(named_expression) \
	X(none) X(nonlocal_statement) X(number) X(pair) X(parameters) \
	X(parenthesized_expression) X(pattern_list) X(positional_separator) X(print_statement) \
	X(process_substitution) X(quoted_key) X(raise_statement) X(raw_string) \
	X(relative_import) X(return_statement) X(set_comprehension) X(simple_expansion) \
	X(special_variable_name) X(string) X(string_content) X(string_end) X(string_start) \
	X(subscript) X(subshell) X(table) X(test_command) X(test_operator) X(true) \
	X(try_statement) X(tuple) X(tuple_pattern) X(type) X(type_alias_statement) X(type_parameter) \
	X(typed_default_parameter) X(typed_parameter) X(unary_expression) X(unary_operator) \
	X(variable_assignment) X(variable_name) X(while_statement) X(wildcard_import) \
	X(with_clause) X(with_item) X(with_statement) X(word)
/* Types whose names are not C names: (id, name). */
#define JF_NODE_TOKENS(X) X(plus_equals, "+=") X(or_or, "||")

#define JF_NODE_FIELDS(X)                                                                        \
	X(alias) X(argument) X(arguments) X(attribute) X(body) X(condition) X(consequence)       \
	X(definition) X(destination) X(expression) X(format_specifier) X(function) X(index) X(key) \
	X(left) X(module_name) X(name) X(object) X(operator) X(parameters) X(return_type)        \
	X(right) X(subscript) X(superclasses) X(type) X(type_conversion) X(value) X(variable)

/* Pasted at once: `true` and `false` are macros too. */
#define JF_X_TYPE_(id) JF_T_##id,
#define JF_X_TOKEN_(id, name) JF_T_##id,
#define JF_X_FIELD_(id) JF_F_##id,
/** A node type: JF_T_NONE for the types not listed above (and null nodes). */
typedef enum { JF_T_NONE, JF_NODE_TYPES(JF_X_TYPE_) JF_NODE_TOKENS(JF_X_TOKEN_) JF_T_COUNT } jf_type;
typedef enum { JF_F_NONE, JF_NODE_FIELDS(JF_X_FIELD_) JF_F_COUNT } jf_field_id;
#undef JF_X_TYPE_
#undef JF_X_TOKEN_
#undef JF_X_FIELD_

/** The type of `n`: JF_T_NONE for a null node or a type not listed. */
jf_type jf_node_type(TSNode n);

/** The grammars' name of `type` ("call", "+="); "" for JF_T_NONE. */
const char *jf_type_name(jf_type type);
/** The grammars' name of `field`; "" for JF_F_NONE. */
const char *jf_field_name(jf_field_id field);

/** Whether `n` is not null and of type `type`. */
static inline bool jf_node_type_is(TSNode n, jf_type type)
{
	return jf_node_type(n) == type;
}

/** The child of `n` in field `field`; a null node when `n` is null or has none. */
TSNode jf_node_field(TSNode n, jf_field_id field);

/**
 * The listed field that is field `id` of the grammar of `in` (a cursor's
 * ts_tree_cursor_current_field_id()); JF_F_NONE for 0 or an unlisted one.
 */
jf_field_id jf_field_of(TSNode in, TSFieldId id);

/**
 * Checks that every listed type and field is named by some grammar; a
 * misspelt one is a bug. The tests call it.
 */
void jf_grammar_check(void);

#endif
