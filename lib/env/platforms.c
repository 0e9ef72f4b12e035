/* platforms.c - platform profiles and launcher variables, read once from data/platforms.yaml */
#include "env/platforms.h"

#include <pthread.h>
#include <yaml.h>

#include "core/embed.h"
#include "core/util.h"
#include "core/yml.h"

typedef JF_ARRAY(char *) strings;

typedef struct {
	char *name;
	strings includes, variables, prefixes;
	char *user;                  /* `user`: "host", or NULL */
	char *submitter_environment; /* `submitter_environment`, or NULL */
} profile;

/* Read once per process (pthread_once), then only read. */
static JF_ARRAY(profile) platforms, launchers;

/* A copy of scalar `n`, or NULL. */
static char *scalar_copy(yaml_document_t *doc, yaml_node_t *n)
{
	(void)doc;
	return n && n->type == YAML_SCALAR_NODE ? jf_xstrdup((const char *)n->data.scalar.value)
	                                        : NULL;
}

static void read_data(void);

static void load(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, read_data);
}

static const char *scalar_of(yaml_document_t *doc, int id)
{
	yaml_node_t *n = yaml_document_get_node(doc, id);
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static void read_list(yaml_document_t *doc, yaml_node_t *n, strings *into)
{
	if (!n || n->type != YAML_SEQUENCE_NODE)
		return;
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
		const char *s = scalar_of(doc, *i);
		if (s)
			jf_array_push(into, jf_xstrdup(s));
	}
}

static void read_data(void)
{
	const jf_embedded *f = jf_embedded_data_find("platforms.yaml");
	yaml_document_t doc;
	if (!f || !jf_yml_load_data(f->data, f->len, &doc, NULL))
		return;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	yaml_node_t *sections[] = { jf_yml_get(&doc, root, "platforms"), jf_yml_get(&doc, root, "launchers") };
	for (int s = 0; s < 2; s++) {
		yaml_node_t *m = sections[s];
		if (!m || m->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *q = m->data.mapping.pairs.start; q < m->data.mapping.pairs.top;
		     q++) {
			const char *name = scalar_of(&doc, q->key);
			yaml_node_t *v = yaml_document_get_node(&doc, q->value);
			if (!name)
				continue;
			profile pr = { jf_xstrdup(name), { 0 }, { 0 }, { 0 }, NULL, NULL };
			if (s == 1) {
				read_list(&doc, v, &pr.variables);
			} else {
				read_list(&doc, jf_yml_get(&doc, v, "include"), &pr.includes);
				read_list(&doc, jf_yml_get(&doc, v, "variables"), &pr.variables);
				read_list(&doc, jf_yml_get(&doc, v, "prefixes"), &pr.prefixes);
				pr.user = scalar_copy(&doc, jf_yml_get(&doc, v, "user"));
				pr.submitter_environment =
					scalar_copy(&doc, jf_yml_get(&doc, v, "submitter_environment"));
			}
			jf_array_push(s ? &launchers : &platforms, pr);
		}
	}
	yaml_document_delete(&doc);
}

static const profile *find(const void *list, const char *name)
{
	const JF_ARRAY(profile) *a = list;
	for (size_t i = 0; i < a->size; i++)
		if (!strcmp(a->items[i].name, name))
			return &a->items[i];
	return NULL;
}

static bool in(const strings *s, const char *var, bool prefix)
{
	for (size_t i = 0; i < s->size; i++)
		if (prefix ? jf_str_starts(var, s->items[i]) : !strcmp(var, s->items[i]))
			return true;
	return false;
}

static bool profile_sets(const profile *p, const char *var, int depth)
{
	if (!p || depth > 8)
		return false;
	if (in(&p->variables, var, false) || in(&p->prefixes, var, true))
		return true;
	for (size_t i = 0; i < p->includes.size; i++)
		if (profile_sets(find(&platforms, p->includes.items[i]), var, depth + 1))
			return true;
	return false;
}

bool jf_platform_sets(const char *platform, const char *var)
{
	load();
	if (platform)
		return profile_sets(find(&platforms, platform), var, 0);
	if (profile_sets(find(&platforms, "generic"), var, 0))
		return true;
	for (size_t i = 0; i < platforms.size; i++)
		if (in(&platforms.items[i].prefixes, var, true))
			return true;
	return false;
}

bool jf_launcher_sets(const char *launcher, const char *var)
{
	load();
	const profile *p = find(&launchers, launcher);
	return p && in(&p->variables, var, false);
}

static const char *user_of(const profile *p)
{
	return p->user;
}

static const char *submitter_environment_of(const profile *p)
{
	return p->submitter_environment;
}

/* What `get` gives of profile `p`, or of the first profile it includes that gives it. */
static const char *inherited(const profile *p, const char *(*get)(const profile *), int depth)
{
	if (!p || depth > 8)
		return NULL;
	const char *v = get(p);
	for (size_t i = 0; !v && i < p->includes.size; i++)
		v = inherited(find(&platforms, p->includes.items[i]), get, depth + 1);
	return v;
}

bool jf_platform_runs_as_host_user(const char *platform)
{
	load();
	const char *user = platform ? inherited(find(&platforms, platform), user_of, 0) : NULL;
	return user && !strcmp(user, "host");
}

const char *jf_platform_submitter_environment(const char *platform)
{
	load();
	return platform ? inherited(find(&platforms, platform), submitter_environment_of, 0) : NULL;
}
