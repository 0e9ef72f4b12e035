/* facts.h - what one Python file holds that the rules ask about
 *
 * Read once per file (python/facts.c). Nodes are borrowed from the file's
 * tree: valid while the workspace lives.
 */
#ifndef JF_PYFACTS_H
#define JF_PYFACTS_H

#include "sources/workspace.h"

typedef JF_ARRAY(TSNode) jf_nodes;

typedef struct jf_pyfacts {
	const jf_file *file;
	/* Its absolute imports: the module of each `import a.b` and `from a.b
	 * import ...` (one per statement). */
	jf_nodes imports;
} jf_pyfacts;

void jf_pyfacts_free(jf_pyfacts *self);

#endif
