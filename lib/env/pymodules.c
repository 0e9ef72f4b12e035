/* pymodules.c - the standard-library list, the import-name map and what distributions require, from data/
 *
 * The three are read from the embedded data once per process, on first use
 * (pthread_once), into hash maps that are only read afterwards.
 */
#include "env/pymodules.h"

#include <ctype.h>
#include <pthread.h>

#include "core/embed.h"
#include "core/strmap.h"
#include "core/util.h"

typedef struct {
	char *name;
	jf_stdlib_module m;
} stdlib_entry;

typedef struct {
	char *module;
	char **dists; /* NULL-terminated */
} import_entry;

/* A line of data/dependencies.txt, names normalized. */
typedef struct {
	char *dist;
	char **requires; /* NULL-terminated */
} requires_entry;

static JF_ARRAY(stdlib_entry) stdlib;
static JF_ARRAY(import_entry) imports;
static JF_ARRAY(requires_entry) requires;
/* A distribution and those of the data that require it: the reverse of `requires`. */
typedef struct {
	const char *dist;
	JF_ARRAY(const char *) by;
} required_entry;
static JF_ARRAY(required_entry *) required;
static jf_strmap stdlib_by_name, imports_by_module, requires_by_dist; /* to the entries above */
static jf_strmap required_of_dist;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* A distribution name as pip compares them: lower case, `_` and `.` as `-`. */
static void normalize(char *s)
{
	for (; *s; s++)
		*s = *s == '_' || *s == '.' ? '-' : (char)tolower((unsigned char)*s);
}

/* "3.12" -> 12, "-" -> `none`. */
static int minor_of(const char *v, int none)
{
	if (!strcmp(v, "-"))
		return none;
	const char *dot = strchr(v, '.');
	return dot ? atoi(dot + 1) : none;
}

/* The most fields a line of the data may have: a distribution and its
 * requirements, or an import name and its distributions (tests/unit/
 * test_pymodules.c checks that every line fits). */
#define FIELDS_MAX 1024

static void load(void)
{
	const jf_embedded *f = jf_embedded_data_find("stdlib.txt");
	static char *fields[FIELDS_MAX]; /* only under pthread_once */
	for (const char *p = f ? f->data : ""; *p;) {
		size_t n = jf_next_fields(&p, fields, 3);
		if (n == 3) {
			stdlib_entry e = { fields[0], { minor_of(fields[1], 0), minor_of(fields[2], -1) } };
			jf_array_push(&stdlib, e);
		} else {
			for (size_t i = 0; i < n; i++)
				free(fields[i]);
			continue;
		}
		free(fields[1]);
		free(fields[2]);
	}
	f = jf_embedded_data_find("import-names.txt");
	for (const char *p = f ? f->data : ""; *p;) {
		size_t n = jf_next_fields(&p, fields, FIELDS_MAX);
		if (n < 2) {
			for (size_t i = 0; i < n; i++)
				free(fields[i]);
			continue;
		}
		import_entry e = { fields[0], jf_xcalloc(n, sizeof(char *)) };
		memcpy(e.dists, fields + 1, (n - 1) * sizeof(char *));
		jf_array_push(&imports, e);
	}
	f = jf_embedded_data_find("dependencies.txt");
	for (const char *p = f ? f->data : ""; *p;) {
		size_t n = jf_next_fields(&p, fields, FIELDS_MAX);
		if (!n)
			continue;
		for (size_t i = 0; i < n; i++)
			normalize(fields[i]);
		requires_entry e = { fields[0], jf_xcalloc(n, sizeof(char *)) };
		memcpy(e.requires, fields + 1, (n - 1) * sizeof(char *));
		jf_array_push(&requires, e);
	}
	for (size_t i = requires.size; i-- > 0;)
		jf_strmap_put(&requires_by_dist, requires.items[i].dist, strlen(requires.items[i].dist),
		              &requires.items[i]);
	/* The reverse: each requirement's list of who requires it, once each,
	 * counting a distribution's first line only, as the lookups do. */
	for (size_t i = 0; i < requires.size; i++) {
		const requires_entry *e = &requires.items[i];
		if (jf_strmap_get(&requires_by_dist, e->dist, strlen(e->dist)) != e)
			continue;
		for (char **r = e->requires; *r; r++) {
			required_entry *x = jf_strmap_get(&required_of_dist, *r, strlen(*r));
			if (!x) {
				x = jf_xcalloc(1, sizeof *x);
				x->dist = *r;
				jf_array_push(&required, x);
				jf_strmap_put(&required_of_dist, *r, strlen(*r), x);
			}
			if (!x->by.size || strcmp(*jf_array_last(&x->by), e->dist))
				jf_array_push(&x->by, e->dist);
		}
	}
	for (size_t i = 0; i < required.size; i++) /* NULL-terminated */
		jf_array_push(&required.items[i]->by, NULL);
	/* The maps point into the arrays, which grow no more. The first line of
	 * a name wins, as a search from the top would find it. */
	for (size_t i = stdlib.size; i-- > 0;)
		jf_strmap_put(&stdlib_by_name, stdlib.items[i].name, strlen(stdlib.items[i].name),
		              &stdlib.items[i]);
	for (size_t i = imports.size; i-- > 0;)
		jf_strmap_put(&imports_by_module, imports.items[i].module,
		              strlen(imports.items[i].module), &imports.items[i]);
}

const jf_stdlib_module *jf_stdlib_find(const char *name)
{
	pthread_once(&loaded, load);
	const stdlib_entry *e = jf_strmap_get(&stdlib_by_name, name, strlen(name));
	return e ? &e->m : NULL;
}

const char *const *jf_import_distributions(const char *module)
{
	pthread_once(&loaded, load);
	/* The longest listed prefix that ends at a dot: "a.b.c", then "a.b", then "a". */
	for (size_t n = strlen(module); n > 0; n--) {
		if (module[n] && module[n] != '.')
			continue;
		const import_entry *e = jf_strmap_get(&imports_by_module, module, n);
		if (e)
			return (const char *const *)e->dists;
	}
	return NULL;
}

const char *const *jf_dist_requires(const char *dist)
{
	pthread_once(&loaded, load);
	char *key = jf_xstrdup(dist);
	normalize(key);
	const requires_entry *e = jf_strmap_get(&requires_by_dist, key, strlen(key));
	free(key);
	return e ? (const char *const *)e->requires : NULL;
}

const char *const *jf_dist_required_by(const char *dist)
{
	pthread_once(&loaded, load);
	char *key = jf_xstrdup(dist);
	normalize(key);
	const required_entry *e = jf_strmap_get(&required_of_dist, key, strlen(key));
	free(key);
	return e ? (const char *const *)e->by.items : NULL;
}

size_t jf_dist_count(void)
{
	pthread_once(&loaded, load);
	return requires_by_dist.size;
}

/* Adds `dist` (normalized) and what it requires to `out`, once each. */
static void close_over(const char *dist, jf_strmap *seen, jf_strings *out)
{
	if (jf_strmap_get(seen, dist, strlen(dist)))
		return;
	char *own = jf_xstrdup(dist);
	jf_array_push(out, own);
	jf_strmap_put(seen, own, strlen(own), own);
	const char *const *req = jf_dist_requires(own);
	for (size_t i = 0; req && req[i]; i++)
		close_over(req[i], seen, out);
}

const char *jf_dist_closure(const jf_strings *dists, jf_strings *out)
{
	const char *unknown = NULL;
	jf_strmap seen = { 0 };
	for (size_t i = 0; i < out->size; i++)
		jf_strmap_put(&seen, out->items[i], strlen(out->items[i]), out->items[i]);
	for (size_t i = 0; i < dists->size; i++) {
		char *key = jf_xstrdup(dists->items[i]);
		normalize(key);
		if (!unknown && !jf_dist_requires(key))
			unknown = dists->items[i];
		close_over(key, &seen, out);
		free(key);
	}
	jf_strmap_release(&seen);
	return unknown;
}
