/* topology.c - JF210, JF211, JF212: processes, device ids and nodes of a launch against the job's
 *
 * Each invocation of an entry script starts some processes on every node: one
 * for python, --nproc_per_node for torchrun and torch.distributed.launch/run,
 * --num_gpus for deepspeed, --num_processes over --num_machines for accelerate,
 * -np over the hosts for mpirun and horovodrun (srun's tasks are not counted). Each process takes the GPU of
 * its local rank, so a node with more processes than GPUs (resources.gpus, or
 * the ids CUDA_VISIBLE_DEVICES leaves visible) fails with "invalid device
 * ordinal" (JF210), and one with fewer leaves GPUs idle (JF211). JF210 also
 * reports a CUDA_VISIBLE_DEVICES that starts with an id a node does not have
 * (no GPU is visible), and launches that wait for more nodes than the job has.
 *
 * Only counts known at lint time are compared. `gpu`/`auto`, values set at run
 * time (platform variables), options known only at run time (`torchrun
 * $DISTRIBUTED_ARGS`: any option may be in them), hostfiles, --include/--exclude, a launcher under
 * mpirun and CPU jobs (gpus: 0) stay silent. JF211 warns only at the job's
 * largest launch, and not when CUDA_VISIBLE_DEVICES picks the GPUs: a smaller
 * launch beside a larger one (an evaluation on one GPU after training on all)
 * is deliberate.
 *
 * JF212: srun starts a torchrun (or torch.distributed.run/launch) on each of
 * several nodes, and it has neither --nnodes nor a rendezvous (endpoint,
 * backend, master address, node rank): each takes the defaults, one node
 * and a store at 127.0.0.1, and trains alone. Silent when srun runs one task,
 * its options or torchrun's are known only at run time, or the job exports
 * torchrun's PET_* variables (its options from the environment).
 */
#include <limits.h>

#include "rules/checks.h"

/* Larger numbers are not taken as counts, so that products stay in range. */
#define MAX_COUNT (1L << 20)

static const char *const nproc_opts[] = { "--nproc_per_node", NULL };
static const char *const nnodes_opts[] = { "--nnodes", NULL };
static const char *const ds_gpus_opts[] = { "--num_gpus", NULL };
static const char *const ds_nodes_opts[] = { "--num_nodes", NULL };
static const char *const ds_hosts_opts[] = { "--include", "--exclude", "-H", "--hostfile", NULL };
static const char *const acc_procs_opts[] = { "--num_processes", NULL };
static const char *const acc_machines_opts[] = { "--num_machines", NULL };
static const char *const acc_cpu_opts[] = { "--cpu", "--use_cpu", NULL };
static const char *const mpi_np_opts[] = { "-np", "-n", "-c", "--np", "--num-proc", NULL };
static const char *const mpi_per_node_opts[] = { "-npernode", "--npernode", "-N", NULL };
static const char *const mpi_hosts_opts[] = { "-H", "-host", "--host", "--hosts", NULL };

/* Options */

/* A launcher's option as last given: `--name value` or `--name=value`. */
typedef struct {
	const jf_word *name; /* the word naming it; NULL when the option is absent */
	const jf_word *at;   /* the word holding the value */
	const char *value;   /* NULL when not known at lint time */
} option;

static bool is_dash(char c)
{
	return c == '-' || c == '_';
}

/* The end of option `name` in word `s` (its '\0' or '='), or NULL when `s` is
 * another word. `-` and `_` are the same: torchrun and accelerate take both. */
static const char *spelled(const char *s, const char *name)
{
	size_t i = 0;
	for (; name[i]; i++)
		if (s[i] != name[i] && !(is_dash(s[i]) && is_dash(name[i])))
			return NULL;
	return s[i] == '=' || !s[i] ? s + i : NULL;
}

static bool has_option(const jf_words *w, const char *const *names)
{
	for (size_t i = 0; i < w->size; i++)
		for (size_t k = 0; w->items[i].value && names[k]; k++)
			if (spelled(w->items[i].value, names[k]))
				return true;
	return false;
}

static option find_option(const jf_words *w, const char *const *names)
{
	option o = { 0 };
	for (size_t i = 0; i < w->size; i++) {
		const char *s = w->items[i].value;
		for (size_t k = 0; s && names[k]; k++) {
			const char *end = spelled(s, names[k]);
			if (!end)
				continue;
			if (*end == '=') {
				o = (option){ &w->items[i], &w->items[i], end + 1 };
			} else if (i + 1 < w->size) {
				o = (option){ &w->items[i], &w->items[i + 1], w->items[i + 1].value };
				i++;
			}
			break;
		}
	}
	return o;
}

/* The option as written, e.g. "--nproc_per_node 8"; caller frees. */
static char *shown(const option *o)
{
	if (o->name == o->at)
		return jf_xstrdup(o->at->value);
	return jf_xasprintf("%s %s", o->name->value, o->at->value);
}

/* A count such as "8" (with `range`, "2:4" counts its minimum); 0 when it is
 * not a plain number. */
static long count_of(const char *s, bool range)
{
	if (!s || *s < '0' || *s > '9')
		return 0;
	char *end;
	long n = strtol(s, &end, 10);
	if ((*end && !(range && *end == ':')) || n > MAX_COUNT)
		return 0;
	return n;
}

/* The number of different host names in "a:4,b:4" (or "a,a,b"); 0 when unknown. */
static long count_hosts(const char *list)
{
	if (!list)
		return 0;
	long n = 0;
	for (const char *h = list; h; h = strchr(h, ',') ? strchr(h, ',') + 1 : NULL) {
		size_t len = strcspn(h, ":,");
		bool seen = len == 0; /* an empty name is no host */
		for (const char *g = list; g < h && !seen; g = strchr(g, ',') + 1)
			seen = strcspn(g, ":,") == len && !strncmp(g, h, len);
		n += !seen;
	}
	return n;
}

/* Processes */

/* The processes an invocation starts, as its launcher's options give them. */
typedef struct {
	option opt;  /* the option that gives the count */
	long total;  /* processes over `nodes` nodes; 0 when not known */
	long nodes;
	bool multi;  /* a launcher of one process per GPU, not plain python */
	bool exact;  /* how they spread is known: fewer than the GPUs leave some idle */
} procs;

static procs procs_of(const jf_invocation *inv, const jf_job *job)
{
	procs p = { .nodes = 1, .multi = true, .exact = true };
	const char *l = inv->launcher;
	const jf_words *args = &inv->launcher_args;
	if (inv->wrapper && !strcmp(inv->wrapper, "srun"))
		return p; /* its tasks come from its options and the allocation's: not counted */
	if (inv->launcher_open || inv->wrapper_open)
		return p; /* options known only at run time may give any count */
	if (inv->wrapper) {
		if (strcmp(l, "python") && strcmp(l, "script"))
			return p; /* a launcher under mpirun: how many run on a node is not clear */
		p.opt = find_option(&inv->wrapper_args, mpi_per_node_opts);
		if (!p.opt.name) {
			p.opt = find_option(&inv->wrapper_args, mpi_np_opts);
			option hosts = find_option(&inv->wrapper_args, mpi_hosts_opts);
			if (hosts.name) {
				p.nodes = count_hosts(hosts.value);
			} else if (job->nodes > 1) {
				p.nodes = job->nodes; /* spread by a hostfile or the platform */
				p.exact = false;
			}
		}
	} else if (!strcmp(l, "torchrun") || jf_str_starts(l, "torch.distributed.")) {
		p.opt = find_option(args, nproc_opts);
	} else if (!strcmp(l, "deepspeed")) {
		if (has_option(args, ds_hosts_opts))
			return p; /* the hostfile or the list picks the GPUs */
		p.opt = find_option(args, ds_gpus_opts);
	} else if (!strcmp(l, "accelerate")) {
		option machines = find_option(args, acc_machines_opts);
		if (has_option(args, acc_cpu_opts) || (!machines.name && job->nodes > 1))
			return p; /* on CPUs, or the machines come from the config file */
		if (machines.name)
			p.nodes = count_of(machines.value, false);
		p.opt = find_option(args, acc_procs_opts);
	} else {
		p.multi = false; /* python or a script: one process */
		return p;
	}
	if (p.nodes > 0)
		p.total = count_of(p.opt.value, false);
	return p;
}

/* The most processes on one node. */
static long most_per_node(const procs *p)
{
	return (p->total + p->nodes - 1) / p->nodes;
}

/* The most processes per node of any launch of the job: LONG_MAX when a
 * launcher's count is not known (it may take every GPU). */
static long job_peak(const jf_rule_ctx *ctx)
{
	long peak = 0;
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		procs p = procs_of(&ctx->facts->shell.invocations.items[i], ctx->facts->job);
		long n = !p.multi ? 0 : p.total ? most_per_node(&p) : LONG_MAX;
		if (n > peak)
			peak = n;
	}
	return peak;
}

/* Nodes */

static void check_nodes(jf_rule_ctx *ctx, const jf_invocation *inv)
{
	const jf_job *job = ctx->facts->job;
	const char *l = inv->launcher;
	const char *const *names = NULL;
	if (!strcmp(l, "torchrun") || jf_str_starts(l, "torch.distributed."))
		names = nnodes_opts;
	else if (!strcmp(l, "accelerate"))
		names = acc_machines_opts;
	else if (!strcmp(l, "deepspeed"))
		names = ds_nodes_opts; /* the first N hosts of its hostfile */
	if (!names || job->nodes < 1 || inv->launcher_open)
		return;
	option o = find_option(&inv->launcher_args, names);
	long n = count_of(o.value, true);
	if (n <= job->nodes)
		return;
	char *opt = shown(&o);
	jf_diag *d = jf_sink_add(ctx->out, JF210, o.at->src, o.at->span,
	                              "'%s' waits for %ld nodes, but the job has %ld: the "
	                              "rendezvous times out on nodes that never join",
	                              opt, n, job->nodes);
	jf_diag_relate(d, job->resources.src, job->resources.span, "the job has %ld node%s", job->nodes,
	               job->nodes == 1 ? "" : "s");
	jf_diag_set_help(d, "match the launcher's node count to resources.nodes, or ask for more "
	                    "nodes in resources");
	free(opt);
}

/* Devices */

/* CUDA_VISIBLE_DEVICES as an invocation gets it. */
typedef struct {
	const jf_word *at; /* NULL when not set */
	long visible;      /* the GPUs it leaves visible; -1 when not known */
} devices;

static void relate_gpus(jf_diag *d, const jf_job *job)
{
	jf_diag_relate(d, job->resources.src, job->resources.span, "the job has %ld GPU%s per node",
	               job->gpus, job->gpus == 1 ? "" : "s");
}

/* Reports CUDA_VISIBLE_DEVICES at `at`, whose first id `id` (`len` bytes)
 * a node of the job does not have: CUDA sees no GPU. */
static void report_device(jf_rule_ctx *ctx, const jf_word *at, const char *id, int len)
{
	long gpus = ctx->facts->job->gpus;
	char *ids = gpus == 1 ? jf_xstrdup("id 0") : jf_xasprintf("ids 0 to %ld", gpus - 1);
	jf_diag *d = jf_sink_add(ctx->out, JF210, at->src, at->span,
	                         "'%s' names device %.*s, but the job has %ld GPU%s per "
	                         "node (%s): CUDA sees no GPU, and torch fails with \"No CUDA "
	                         "GPUs are available\"",
	                         at->value, len, id, gpus, gpus == 1 ? "" : "s", ids);
	relate_gpus(d, ctx->facts->job);
	free(ids);
}

/* Reads CUDA_VISIBLE_DEVICES: the GPUs it leaves visible, which CUDA stops
 * counting at the first id a node does not have (reported when it is the
 * first of the list). Ids by UUID, "-1" and an empty list (hiding every GPU)
 * leave `visible` unknown. */
static devices devices_of(jf_rule_ctx *ctx, const jf_invocation *inv)
{
	static const char cvd[] = "CUDA_VISIBLE_DEVICES";
	size_t n = strlen(cvd);
	devices dev = { NULL, -1 };
	const char *list = NULL;
	for (size_t i = 0; i < inv->env.size; i++) {
		const char *s = inv->env.items[i].value;
		if (s && !strncmp(s, cvd, n) && (s[n] == '=' || !s[n])) {
			dev.at = &inv->env.items[i];
			list = s[n] ? s + n + 1 : NULL;
		}
	}
	long visible = 0;
	for (const char *s = list; s && *s >= '0' && *s <= '9';) {
		char *end;
		long id = strtol(s, &end, 10);
		if (*end && *end != ',')
			break; /* not a plain id: what the list shows is not known */
		if (id >= ctx->facts->job->gpus) {
			/* The ids before it still show GPUs: the processes are compared with those. */
			if (!visible)
				report_device(ctx, dev.at, s, (int)(end - s));
			dev.visible = visible;
			break;
		}
		visible++;
		if (!*end)
			dev.visible = visible;
		s = *end ? end + 1 : NULL;
	}
	return dev;
}

/* Processes against GPUs */

/* What a launch starts, e.g. "16 processes on 2 nodes, 8 per node"; caller frees. */
static char *starts(const procs *p)
{
	long most = most_per_node(p);
	if (p->nodes == 1)
		return jf_xasprintf("%ld processes per node", p->total);
	if (p->total % p->nodes)
		return jf_xasprintf("%ld processes on %ld nodes, at least %ld on one", p->total,
		                    p->nodes, most);
	return jf_xasprintf("%ld processes on %ld nodes, %ld per node", p->total, p->nodes, most);
}

/* What the processes past the `gpus` GPUs of a node run into; caller frees. */
static char *failing(long gpus, long most)
{
	if (most - gpus == 1)
		return jf_xasprintf("local rank %ld fails with \"invalid device ordinal\"", gpus);
	if (most - gpus == 2)
		return jf_xasprintf("local ranks %ld and %ld fail with \"invalid device ordinal\"",
		                    gpus, gpus + 1);
	return jf_xasprintf("local ranks %ld to %ld fail with \"invalid device ordinal\"", gpus,
	                    most - 1);
}

static void check_procs(jf_rule_ctx *ctx, const procs *p, const devices *dev, long peak)
{
	const jf_job *job = ctx->facts->job;
	if (!p->total || dev->visible == 0)
		return; /* not known, or no GPU visible at all (reported with the device) */
	long most = most_per_node(p);
	long gpus = dev->visible > 0 ? dev->visible : job->gpus;
	char *opt = shown(&p->opt);
	if (most > gpus) {
		char *what = starts(p), *fails = failing(gpus, most);
		jf_diag *d;
		if (dev->visible > 0) {
			d = jf_sink_add(ctx->out, JF210, p->opt.at->src, p->opt.at->span,
			                     "'%s' starts %s, but '%s' shows them %ld GPU%s: %s", opt,
			                     what, dev->at->value, gpus, gpus == 1 ? "" : "s", fails);
			jf_diag_relate(d, dev->at->src, dev->at->span, "CUDA_VISIBLE_DEVICES is set here");
		} else {
			d = jf_sink_add(ctx->out, JF210, p->opt.at->src, p->opt.at->span,
			                     "'%s' starts %s, but the job has %ld GPU%s per node: %s", opt,
			                     what, gpus, gpus == 1 ? "" : "s", fails);
			relate_gpus(d, job);
		}
		free(what);
		free(fails);
	} else if (p->exact && !dev->at && p->total / p->nodes < gpus && most >= peak) {
		long all = gpus * p->nodes, idle = all - p->total;
		const char *stay = idle == 1 ? "stays" : "stay";
		jf_diag *d;
		if (p->nodes == 1)
			d = jf_sink_add(ctx->out, JF211, p->opt.at->src, p->opt.at->span,
			                     "'%s' uses %ld of the job's %ld GPUs per node: %ld %s idle",
			                     opt, p->total, all, idle, stay);
		else
			d = jf_sink_add(ctx->out, JF211, p->opt.at->src, p->opt.at->span,
			                     "'%s' uses %ld of the %ld GPUs on %ld nodes: %ld %s idle", opt,
			                     p->total, all, p->nodes, idle, stay);
		relate_gpus(d, job);
	}
	free(opt);
}

/* Nodes joined */

static const char *const rdzv_opts[] = { "--nnodes", "--rdzv_endpoint", "--rdzv_backend",
	                                 "--rdzv_id", "--rdzv_conf", "--master_addr", "--node_rank",
	                                 NULL };
static const char *const srun_nodes_opts[] = { "--nodes", "-N", NULL };
static const char *const srun_tasks_opts[] = { "--ntasks", "-n", NULL };
static const char *const srun_per_node_opts[] = { "--ntasks-per-node", NULL };

/* The value of srun's option `names`, also written `-N2`; NULL when absent
 * or not known, with *given telling it is there. */
static const char *srun_value(const jf_words *w, const char *const *names, bool *given)
{
	option o = find_option(w, names);
	*given = o.name != NULL;
	if (o.name)
		return o.value;
	for (size_t i = 0; i < w->size; i++) {
		const char *s = w->items[i].value;
		for (size_t k = 0; s && names[k]; k++)
			if (names[k][1] != '-' && !strncmp(s, names[k], 2) && s[2] && s[2] != '=') {
				*given = true;
				return s + 2;
			}
	}
	return NULL;
}

/* Whether the job hands torchrun options through the environment (PET_NNODES, ...). */
static bool pet_variables(const jf_rule_ctx *ctx, const jf_invocation *inv)
{
	for (size_t i = 0; i < inv->env.size; i++)
		if (inv->env.items[i].value && jf_str_starts(inv->env.items[i].value, "PET_"))
			return true;
	for (size_t i = 0; i < ctx->facts->shell.exported.size; i++)
		if (jf_str_starts(ctx->facts->shell.exported.items[i], "PET_"))
			return true;
	for (size_t i = 0; i < ctx->facts->job->env.size; i++)
		if (jf_str_starts(ctx->facts->job->env.items[i].name.value, "PET_"))
			return true;
	return false;
}

static void check_joined(jf_rule_ctx *ctx, const jf_invocation *inv)
{
	const jf_job *job = ctx->facts->job;
	const char *l = inv->launcher;
	if (!inv->wrapper || strcmp(inv->wrapper, "srun") || !inv->launcher_at.value ||
	    (strcmp(l, "torchrun") && !jf_str_starts(l, "torch.distributed.")) ||
	    inv->launcher_open || inv->wrapper_open || has_option(&inv->launcher_args, rdzv_opts) ||
	    pet_variables(ctx, inv))
		return;
	bool given, tasks_given, per_node_given;
	const char *n = srun_value(&inv->wrapper_args, srun_nodes_opts, &given);
	long nodes = given ? count_of(n, true) : job->nodes;
	if (nodes < 2)
		return;
	/* a torchrun on every node: srun's tasks per node, else its tasks over
	 * the nodes, else the job's tasks per node */
	const char *per = srun_value(&inv->wrapper_args, srun_per_node_opts, &per_node_given);
	const char *tasks = srun_value(&inv->wrapper_args, srun_tasks_opts, &tasks_given);
	long per_node = per_node_given ? count_of(per, false)
	                : tasks_given  ? (count_of(tasks, false) >= nodes)
	                               : job->procs;
	if (per_node < 1)
		return; /* a task on some nodes only, or a count not known */
	const jf_word *at = &inv->launcher_at;
	jf_diag *d = jf_sink_add(ctx->out, JF212, at->src, at->span,
	                         "srun starts '%s' on each of %ld nodes, and it has no --nnodes or "
	                         "rendezvous: each takes one node and a store at 127.0.0.1, so every "
	                         "node trains alone, a job of its own",
	                         at->value, nodes);
	if (given)
		jf_diag_relate(d, inv->wrapper_args.items[0].src, inv->wrapper_args.items[0].span,
		               "srun runs on %ld nodes", nodes);
	else if (job->nodes_at.src)
		jf_diag_relate(d, job->nodes_at.src, job->nodes_at.span, "the job has %ld nodes", nodes);
}

void jf_check_topology(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule; /* reports JF210, JF211 and JF212 */
	const jf_job *job = ctx->facts->job;
	if (!job || job->gpus > MAX_COUNT || job->nodes > MAX_COUNT)
		return;
	long peak = job_peak(ctx);
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		check_nodes(ctx, inv);
		check_joined(ctx, inv);
		if (job->gpus < 1)
			continue; /* GPUs not given, or a CPU job */
		devices dev = devices_of(ctx, inv);
		procs p = procs_of(inv, job);
		check_procs(ctx, &p, &dev, peak);
	}
}
