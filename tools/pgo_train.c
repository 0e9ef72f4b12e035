/* pgo_train.c - the work tree-sitter's profile is trained on (cmake/TreeSitterPgo.cmake):
 * Python files parsed, and the rule queries compiled and run over their trees
 *
 *   pgo_train QUERY.scm... -- FILE.py...
 *
 * A lint parses its files and compiles and runs its rule queries: the profile
 * covers all three. The queries are compiled again every QUERY_EVERY files, as
 * each lint of a small job compiles them once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "read_file.h"

const TSLanguage *tree_sitter_python(void);

enum { QUERY_EVERY = 8 };

int main(int argc, char **argv)
{
	int sep = 1;
	while (sep < argc && strcmp(argv[sep], "--"))
		sep++;
	int nqueries = sep - 1;
	char **text = calloc((size_t)nqueries + 1, sizeof *text);
	size_t *text_len = calloc((size_t)nqueries + 1, sizeof *text_len);
	TSQuery **queries = calloc((size_t)nqueries + 1, sizeof *queries);
	for (int q = 0; q < nqueries; q++)
		if (!(text[q] = read_file(argv[1 + q], &text_len[q]))) {
			perror(argv[1 + q]);
			return 1;
		}
	TSParser *parser = ts_parser_new();
	ts_parser_set_language(parser, tree_sitter_python());
	TSQueryCursor *cursor = ts_query_cursor_new();
	int rc = 0;
	for (int i = sep + 1; i < argc; i++) {
		if ((i - sep - 1) % QUERY_EVERY == 0)
			for (int q = 0; q < nqueries; q++) {
				uint32_t offset;
				TSQueryError error;
				ts_query_delete(queries[q]);
				queries[q] = ts_query_new(tree_sitter_python(), text[q], (uint32_t)text_len[q],
				                          &offset, &error);
				if (!queries[q]) {
					fprintf(stderr, "%s: query error %d at byte %u\n", argv[1 + q], (int)error,
					        offset);
					return 1;
				}
			}
		size_t len;
		char *data = read_file(argv[i], &len);
		if (!data) {
			rc = 1;
			continue;
		}
		TSTree *tree = ts_parser_parse_string(parser, NULL, data, (uint32_t)len);
		for (int q = 0; tree && q < nqueries; q++) {
			TSQueryMatch m;
			ts_query_cursor_exec(cursor, queries[q], ts_tree_root_node(tree));
			while (ts_query_cursor_next_match(cursor, &m))
				;
		}
		ts_tree_delete(tree);
		free(data);
	}
	for (int q = 0; q < nqueries; q++) {
		ts_query_delete(queries[q]);
		free(text[q]);
	}
	free(queries);
	free(text);
	free(text_len);
	ts_query_cursor_delete(cursor);
	ts_parser_delete(parser);
	return rc;
}
