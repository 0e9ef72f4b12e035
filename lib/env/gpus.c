/* gpus.c - GPU types and the names platforms give them, read once from data/gpus.yaml */
#include "env/gpus.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <yaml.h>

#include "core/embed.h"
#include "core/strmap.h"
#include "core/util.h"
#include "core/yml.h"

#define DATA_PATH "gpus.yaml"

/* What a name stands for: one GPU type, a model (all its types), and for an
 * instance type the number of GPUs it has. */
typedef struct {
	const jf_gpu *gpu;
	const char *model; /* when `gpu` is NULL */
	long count;
	unsigned line;     /* where the name is given */
} target;

/* The tables of names, one for each platform's (lower case; models' without
 * '-', '_' and blanks too). */
enum {
	NS_NAME,      /* jobfix's names of GPU types and models */
	NS_SKYPILOT,  /* SkyPilot accelerators */
	NS_K8S,       /* nvidia.com/gpu.product */
	NS_GKE,       /* cloud.google.com/gke-accelerator */
	NS_KARPENTER, /* karpenter.k8s.aws/instance-gpu-name */
	NS_SLURM,     /* Slurm gres types under AutoDetect=nvml */
	NS_MODEL,     /* models, loosely: a Slurm site's type or feature */
	NS_INSTANCE,  /* instance types and VM sizes */
	NS_COUNT
};

static const char *const ns_via[NS_COUNT] = {
	"GPU name", "SkyPilot accelerator", "GPU feature discovery product", "GKE accelerator",
	"Karpenter GPU name", "Slurm GPU type", "model name", "instance type",
};

/* Read once per process (pthread_once), then only read. */
static JF_ARRAY(jf_gpu) gpus;
static JF_ARRAY(target *) targets;
static jf_strmap names[NS_COUNT];
static jf_strings problems; /* "data/gpus.yaml:12: ..." */

static void problem(unsigned line, const char *fmt, ...) JF_PRINTF(2, 3);

static void problem(unsigned line, const char *fmt, ...)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_addf(&b, "data/%s:%u: ", DATA_PATH, line);
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	jf_array_push(&problems, jf_buf_detach(&b, NULL));
}

static unsigned line_of(const yaml_node_t *n)
{
	return (unsigned)n->start_mark.line + 1;
}

/* `s` in lower case; `loose` also drops '-', '_' and blanks. Caller frees. */
static char *key_of(const char *s, bool loose)
{
	char *k = jf_xmalloc(strlen(s) + 1), *o = k;
	for (; *s; s++)
		if (!loose || !strchr("-_ \t", *s))
			*o++ = (char)tolower((unsigned char)*s);
	*o = '\0';
	return k;
}

/* The label GPU feature discovery writes for NVML name `nvml`: characters
 * other than letters, digits, '-', '_', '.' and blanks dropped, runs of
 * blanks as one '-' (k8s-device-plugin internal/lm/resource.go sanitise()).
 * Caller frees. */
static char *gfd_label(const char *nvml)
{
	char *k = jf_xmalloc(strlen(nvml) + 1), *o = k;
	bool blank = false;
	for (const char *s = nvml; *s; s++) {
		if (*s == ' ' || *s == '\t') {
			blank = o > k;
			continue;
		}
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			continue;
		if (blank)
			*o++ = '-';
		blank = false;
		*o++ = *s;
	}
	*o = '\0';
	return k;
}

/* Slurm's gres type for NVML name `nvml` under AutoDetect=nvml: lower case,
 * blanks as '_' (gpu_common_underscorify_tolower()). Caller frees. */
static char *slurm_type(const char *nvml)
{
	char *k = key_of(nvml, false);
	for (char *p = k; *p; p++)
		if (*p == ' ')
			*p = '_';
	return k;
}

/* The GPU type named `name` without case, or NULL; also while the data loads. */
static const jf_gpu *find_gpu(const char *name)
{
	for (size_t i = 0; name && i < gpus.size; i++)
		if (!strcasecmp(gpus.items[i].name, name))
			return &gpus.items[i];
	return NULL;
}

static bool same_target(const target *a, const target *b)
{
	return a->gpu == b->gpu && a->count == b->count &&
	       (a->gpu || (a->model && b->model && !strcmp(a->model, b->model)));
}

static target *new_target(const jf_gpu *gpu, const char *model, long count, unsigned line)
{
	target *t = jf_xcalloc(1, sizeof *t);
	*t = (target){ gpu, model, count, line };
	jf_array_push(&targets, t);
	return t;
}

/* The scalars of list `n` (NULL: none); a scalar alone is a list of one. */
typedef void (*each_fn)(const char *s, unsigned line, void *data);

static void each_scalar(yaml_document_t *doc, yaml_node_t *n, each_fn fn, void *data)
{
	if (!n)
		return;
	if (n->type == YAML_SCALAR_NODE) {
		if (!jf_yml_is_null(n) && *jf_yml_scalar(n))
			fn(jf_yml_scalar(n), line_of(n), data);
		return;
	}
	if (n->type != YAML_SEQUENCE_NODE) {
		problem(line_of(n), "names must be a list");
		return;
	}
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
		yaml_node_t *s = yaml_document_get_node(doc, *i);
		if (s->type == YAML_SCALAR_NODE && *jf_yml_scalar(s))
			fn(jf_yml_scalar(s), line_of(s), data);
		else
			problem(line_of(s), "a name must be a non-empty string");
	}
}

/* A size of the data: a whole number of GiB or MiB ("80GiB", "22888MiB"); 0 otherwise. */
static uint64_t size_of(const char *s)
{
	char *end = NULL;
	if (!s || *s < '1' || *s > '9')
		return 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (v >= (1ull << 30))
		return 0;
	return !strcmp(end, "GiB") ? (uint64_t)v << 30 : !strcmp(end, "MiB") ? (uint64_t)v << 20 : 0;
}

static void check_keys(yaml_document_t *doc, yaml_node_t *n, const char *what,
                       const char *const *known)
{
	const yaml_node_t *k = jf_yml_unknown_key(doc, n, known);
	if (k)
		problem(line_of(n), "unknown key '%s' in %s",
		        jf_yml_scalar(k) ? jf_yml_scalar(k) : "?", what);
}

/* The platforms' name lists of a GPU or model entry, and their tables. */
static const struct {
	const char *key;
	int ns;
} platform_keys[] = { { "skypilot", NS_SKYPILOT }, { "gke", NS_GKE }, { "karpenter", NS_KARPENTER } };

typedef struct {
	const target *t;
	int ns;
} naming;

/* Gives name `s` (written on `line`) of table n->ns to n->t; a name given to
 * another GPU, model or instance type is a problem. */
static void name_it(const char *s, unsigned line, void *data)
{
	naming *n = data;
	char *k = key_of(s, n->ns == NS_MODEL);
	const target *had = jf_strmap_get(&names[n->ns], k, strlen(k));
	if (had && !same_target(had, n->t))
		problem(line, "%s '%s' is also given on line %u", ns_via[n->ns], s, had->line);
	else if (!had)
		jf_strmap_put(&names[n->ns], k, strlen(k), (void *)n->t);
	free(k);
}

static void name_nvml(const char *s, unsigned line, void *data)
{
	const target *t = data;
	char *label = gfd_label(s), *type = slurm_type(s);
	naming k8s = { t, NS_K8S }, slurm = { t, NS_SLURM };
	name_it(label, line, &k8s);
	name_it(type, line, &slurm);
	free(label);
	free(type);
}

static void read_platform_names(yaml_document_t *doc, yaml_node_t *e, const target *t)
{
	for (size_t i = 0; i < sizeof platform_keys / sizeof *platform_keys; i++) {
		naming n = { t, platform_keys[i].ns };
		each_scalar(doc, jf_yml_get(doc, e, platform_keys[i].key), name_it, &n);
	}
}

static yaml_node_t *list_of(yaml_document_t *doc, const char *key)
{
	yaml_node_t *n = jf_yml_get(doc, yaml_document_get_root_node(doc), key);
	if (!n || n->type != YAML_SEQUENCE_NODE) {
		problem(1, "no `%s` list", key);
		return NULL;
	}
	return n;
}

#define EACH_ITEM(i, list)                                                                      \
	for (yaml_node_item_t *i = (list) ? (list)->data.sequence.items.start : NULL;             \
	     (list) && i < (list)->data.sequence.items.top; i++)

static void read_gpus(yaml_document_t *doc)
{
	static const char *const keys[] = { "name",  "model", "vendor", "memory",   "reported",
		                            "source", "nvml",  "skypilot", "gke", "karpenter", NULL };
	yaml_node_t *list = list_of(doc, "gpus");
	EACH_ITEM(i, list)
	{
		yaml_node_t *e = yaml_document_get_node(doc, *i);
		unsigned line = line_of(e);
		if (e->type != YAML_MAPPING_NODE) {
			problem(line, "a GPU must be a mapping");
			continue;
		}
		check_keys(doc, e, "a GPU", keys);
		jf_gpu g = { jf_yml_text(doc, e, "name"),   jf_yml_text(doc, e, "model"),
			     jf_yml_text(doc, e, "vendor"), size_of(jf_yml_scalar(jf_yml_get(doc, e, "memory"))),
			     0,                             jf_yml_text(doc, e, "source"),
			     line };
		yaml_node_t *rep = jf_yml_get(doc, e, "reported");
		if (rep && !(g.reported = size_of(jf_yml_scalar(rep))))
			problem(line, "'reported' must be a whole number of GiB or MiB");
		if (!g.name || !g.model || !g.vendor || !g.memory || !g.source) {
			problem(line, "a GPU needs a name, a model, a vendor, memory (\"80GiB\") and a source");
			free((char *)g.name);
			free((char *)g.model);
			free((char *)g.vendor);
			free((char *)g.source);
			continue;
		}
		if (g.reported >= g.memory)
			problem(line, "'reported' is what a platform reports when it is less than 'memory'");
		jf_array_push(&gpus, g);
	}
}

/* The names of each GPU, once `gpus` holds them all (their addresses stay). */
static void name_gpus(yaml_document_t *doc)
{
	yaml_node_t *list = jf_yml_get(doc, yaml_document_get_root_node(doc), "gpus");
	size_t at = 0;
	EACH_ITEM(i, list)
	{
		yaml_node_t *e = yaml_document_get_node(doc, *i);
		if (at >= gpus.size || gpus.items[at].line != line_of(e))
			continue; /* an entry left out for its problem */
		const jf_gpu *g = &gpus.items[at++];
		const target *t = new_target(g, NULL, -1, g->line);
		naming own = { t, NS_NAME };
		name_it(g->name, g->line, &own);
		each_scalar(doc, jf_yml_get(doc, e, "nvml"), name_nvml, (void *)t);
		read_platform_names(doc, e, t);
	}
	/* Each model by its name: jobfix's, and a Slurm site's loosely. */
	for (size_t k = 0; k < gpus.size; k++) {
		const char *model = gpus.items[k].model;
		bool first = true;
		for (size_t m = 0; m < k; m++)
			first &= strcmp(gpus.items[m].model, model) != 0;
		if (!first)
			continue;
		const target *t = new_target(NULL, model, -1, gpus.items[k].line);
		naming own = { t, NS_NAME }, loose = { t, NS_MODEL };
		if (!find_gpu(model))
			name_it(model, t->line, &own);
		name_it(model, t->line, &loose);
	}
}

static void read_models(yaml_document_t *doc)
{
	static const char *const keys[] = { "name", "source", "skypilot", "gke", "karpenter", NULL };
	yaml_node_t *list = list_of(doc, "models");
	EACH_ITEM(i, list)
	{
		yaml_node_t *e = yaml_document_get_node(doc, *i);
		unsigned line = line_of(e);
		if (e->type != YAML_MAPPING_NODE) {
			problem(line, "a model must be a mapping");
			continue;
		}
		check_keys(doc, e, "a model", keys);
		const char *name = jf_yml_scalar(jf_yml_get(doc, e, "name"));
		const char *source = jf_yml_scalar(jf_yml_get(doc, e, "source"));
		size_t types = 0;
		const char *model = NULL;
		for (size_t k = 0; name && k < gpus.size; k++)
			if (!strcmp(gpus.items[k].model, name)) {
				types++;
				model = gpus.items[k].model;
			}
		if (!name || !source || !*source || types < 2) {
			problem(line, "a model needs a name, a source and two GPUs or more of that model");
			continue;
		}
		read_platform_names(doc, e, new_target(NULL, model, -1, line));
	}
}

static void read_instances(yaml_document_t *doc)
{
	static const char *const keys[] = { "cloud", "source", "types", NULL };
	static const char *const type_keys[] = { "gpu", "count", NULL };
	yaml_node_t *list = list_of(doc, "instances");
	EACH_ITEM(i, list)
	{
		yaml_node_t *e = yaml_document_get_node(doc, *i);
		if (e->type != YAML_MAPPING_NODE) {
			problem(line_of(e), "an instance group must be a mapping");
			continue;
		}
		check_keys(doc, e, "an instance group", keys);
		const char *source = jf_yml_scalar(jf_yml_get(doc, e, "source"));
		yaml_node_t *types = jf_yml_get(doc, e, "types");
		if (!source || !*source || !jf_yml_scalar(jf_yml_get(doc, e, "cloud")) || !types ||
		    types->type != YAML_MAPPING_NODE) {
			problem(line_of(e), "an instance group needs a cloud, a source and `types`");
			continue;
		}
		for (yaml_node_pair_t *p = types->data.mapping.pairs.start;
		     p < types->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);
			yaml_node_t *v = yaml_document_get_node(doc, p->value);
			const char *name = jf_yml_scalar(k);
			const jf_gpu *g = find_gpu(jf_yml_scalar(jf_yml_get(doc, v, "gpu")));
			const char *count = jf_yml_scalar(jf_yml_get(doc, v, "count"));
			long n = count ? strtol(count, NULL, 10) : 0;
			if (v->type == YAML_MAPPING_NODE)
				check_keys(doc, v, "an instance type", type_keys);
			if (!name || !g || n <= 0) {
				problem(line_of(k), "instance type '%s' needs the name of a GPU above and a count",
				        name ? name : "?");
				continue;
			}
			naming t = { new_target(g, NULL, n, line_of(k)), NS_INSTANCE };
			name_it(name, line_of(k), &t);
		}
	}
}

static void read_data(void)
{
	const jf_embedded *f = jf_embedded_data_find(DATA_PATH);
	yaml_document_t doc;
	unsigned bad = 0;
	if (!f || !jf_yml_load_data(f->data, f->len, &doc, &bad)) {
		problem(bad, f ? "does not parse" : "is not embedded");
		return;
	}
	read_gpus(&doc);
	name_gpus(&doc);
	read_models(&doc);
	read_instances(&doc);
	yaml_document_delete(&doc);
}

static void load(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, read_data);
}

const jf_gpu *jf_gpus(size_t *count)
{
	load();
	*count = gpus.size;
	return gpus.items;
}

const jf_gpu *jf_gpu_find(const char *name)
{
	load();
	return find_gpu(name);
}

static const target *lookup(int ns, const char *kind)
{
	char *k = key_of(kind, ns == NS_MODEL);
	size_t n = strlen(k);
	/* A time-sliced GPU's label: the GPU's own with "-SHARED" after it. */
	if (ns == NS_K8S && n > 7 && !strcmp(k + n - 7, "-shared") &&
	    !jf_strmap_get(&names[ns], k, n))
		n -= 7;
	const target *t = jf_strmap_get(&names[ns], k, n);
	free(k);
	return t;
}

/* `t`'s GPU types into *out. */
static void fill(const target *t, int ns, jf_gpu_match *out)
{
	*out = (jf_gpu_match){ t->gpu, NULL, 0, 0, t->count, ns_via[ns] };
	if (t->gpu) {
		out->memory_min = out->memory_max = t->gpu->memory;
		return;
	}
	const jf_gpu *only = NULL;
	size_t types = 0;
	for (size_t i = 0; i < gpus.size; i++) {
		const jf_gpu *g = &gpus.items[i];
		if (strcmp(g->model, t->model))
			continue;
		only = g;
		types++;
		if (!out->memory_min || g->memory < out->memory_min)
			out->memory_min = g->memory;
		if (g->memory > out->memory_max)
			out->memory_max = g->memory;
	}
	if (types == 1)
		out->gpu = only; /* a model of one type: that type */
	else
		out->model = t->model;
}

bool jf_gpu_resolve(const jf_job_accel *a, jf_gpu_match *out)
{
	load();
	const char *kind = a->kind.value;
	if (!kind || !*kind)
		return false;
	static const int platform_ns[] = {
		[JF_ACCEL_SKYPILOT] = NS_SKYPILOT, [JF_ACCEL_K8S_PRODUCT] = NS_K8S,
		[JF_ACCEL_GKE] = NS_GKE,           [JF_ACCEL_KARPENTER] = NS_KARPENTER,
		[JF_ACCEL_INSTANCE] = NS_INSTANCE,
	};
	const target *t = NULL;
	int ns = NS_NAME;
	switch (a->names) {
	case JF_ACCEL_SLURM:
	case JF_ACCEL_SLURM_FEATURE:
		if ((t = lookup(ns = NS_SLURM, kind)))
			break;
		t = lookup(ns = NS_MODEL, kind);
		break;
	case JF_ACCEL_GPU: {
		/* A name of no platform: jobfix's own (a type or a model), else every
		 * platform's table that knows it must agree. */
		if ((t = lookup(ns, kind)))
			break;
		for (int n = 0; n < NS_COUNT; n++) {
			const target *u = n == NS_INSTANCE ? NULL : lookup(n, kind);
			if (!u)
				continue;
			if (!t) {
				t = u;
				ns = n;
				continue;
			}
			jf_gpu_match m1, m2;
			fill(t, ns, &m1);
			fill(u, n, &m2);
			if (m1.gpu != m2.gpu || (m1.model && (!m2.model || strcmp(m1.model, m2.model))))
				return false;
		}
		ns = NS_NAME;
		break;
	}
	default:
		t = lookup(ns = platform_ns[a->names], kind);
	}
	if (!t)
		return false;
	fill(t, ns, out);
	return true;
}

const char *jf_gpu_memory_text(uint64_t bytes, char *buf, size_t size)
{
	unsigned long long b = (unsigned long long)bytes;
	if (b && !(b % (1ull << 30)))
		snprintf(buf, size, "%llu GiB", b >> 30);
	else if (b && !(b % (1ull << 20)))
		snprintf(buf, size, "%llu MiB", b >> 20);
	else
		snprintf(buf, size, "%llu bytes", b);
	return buf;
}

int jf_gpus_check(jf_error *err)
{
	load();
	if (!problems.size && !gpus.size)
		return jf_error_set(err, JF_EPARSE, "data/%s has no GPU", DATA_PATH);
	if (!problems.size)
		return 0;
	jf_buf b = JF_BUF_INIT;
	for (size_t i = 0; i < problems.size; i++)
		jf_buf_addf(&b, "%s%s", i ? "\n" : "", problems.items[i]);
	int rc = jf_error_set(err, JF_EPARSE, "%s", b.buf);
	jf_buf_release(&b);
	return rc;
}
