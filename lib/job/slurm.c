/* slurm.c - Slurm batch scripts (sbatch(1))
 *
 * A batch script is a shell script whose leading comments hold `#SBATCH`
 * options: sbatch reads them up to the first line that is neither blank nor
 * a comment. The whole script is the job's command, at the file's own
 * positions. The options give the job's name, GPUs per node (--gres=gpu:N,
 * --gpus-per-node, --gpus over --nodes), nodes and tasks per node, the
 * folder it runs in (--chdir), and its environment: the one it is submitted
 * from (--export=ALL; without --export, the platform's default,
 * data/platforms.yaml) or only what --export lists. The script runs on the cluster's own
 * environment: no image, unless srun starts a container (pyxis'
 * --container-image, with --container-mounts) or it runs `singularity exec
 * docker://...` / `apptainer exec docker://...`.
 *
 * sbatch runs the script in the folder it is submitted from, which the script
 * does not say: the code is the folder --chdir names when that is a folder
 * of this checkout, else the script's folder or one above it up to its
 * repository's top, whichever holds the scripts the batch script names
 * (place.c). When neither
 * can be told, the script is not followed. No absolute path of the cluster is
 * placed (no workdir): relative paths resolve in the code.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdlib.h>

#include "core/deps.h"
#include "core/path.h"
#include "job/place.h"

/* One #SBATCH option: its name ("--nodes", "-N") and value, with where the value is. */
typedef struct {
	char name[32];
	char value[256];
	jf_span at; /* the value in the file */
	jf_span line;
} directive;

/* The end of the leading comment block of `text`: where sbatch stops reading #SBATCH lines. */
static size_t header_end(const char *text, size_t len)
{
	size_t i = 0;
	while (i < len) {
		size_t eol = i;
		while (eol < len && text[eol] != '\n')
			eol++;
		size_t k = i;
		while (k < eol && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
			k++;
		if (k < eol && text[k] != '#')
			return i;
		i = eol + 1;
	}
	return len;
}

static bool is_directive(const char *line, size_t n)
{
	return n >= 8 && !memcmp(line, "#SBATCH", 7) && (line[7] == ' ' || line[7] == '\t');
}

/* Whether the text is a batch script: #SBATCH in its header, and no Python #! line. */
static bool sniff_slurm(const char *text, size_t len)
{
	if (len > 2 && !memcmp(text, "#!", 2)) {
		size_t eol = 0;
		while (eol < len && text[eol] != '\n')
			eol++;
		for (size_t k = 2; k + 6 <= eol; k++)
			if (!memcmp(text + k, "python", 6))
				return false;
	}
	size_t end = header_end(text, len);
	for (size_t i = 0; i < end;) {
		size_t eol = i;
		while (eol < end && text[eol] != '\n')
			eol++;
		if (is_directive(text + i, eol - i))
			return true;
		i = eol + 1;
	}
	return false;
}

static bool detect_slurm(const jf_source *src, const jf_yml_docs *docs)
{
	(void)docs;
	return src->status == JF_SOURCE_OK && sniff_slurm(src->data, src->len);
}

/* The options of the #SBATCH lines, in order. */
typedef JF_ARRAY(directive) directives;

static void add_option(directives *out, const char *text, size_t a, size_t b, size_t va,
                       size_t vb, jf_span line)
{
	directive d = { .line = line };
	size_t n = b - a < sizeof d.name - 1 ? b - a : sizeof d.name - 1;
	memcpy(d.name, text + a, n);
	if (va < vb) {
		size_t m = vb - va < sizeof d.value - 1 ? vb - va : sizeof d.value - 1;
		memcpy(d.value, text + va, m);
		/* quotes around the value: "gpu:4" */
		if (m >= 2 && (d.value[0] == '"' || d.value[0] == '\'') && d.value[m - 1] == d.value[0]) {
			memmove(d.value, d.value + 1, m - 2);
			d.value[m - 2] = '\0';
			va++;
			vb--;
		}
	}
	d.at = (jf_span){ (uint32_t)va, (uint32_t)vb };
	jf_array_push(out, d);
}

static void read_directives(const char *text, size_t len, directives *out)
{
	size_t end = header_end(text, len);
	for (size_t i = 0; i < end;) {
		size_t eol = i;
		while (eol < end && text[eol] != '\n')
			eol++;
		if (!is_directive(text + i, eol - i)) {
			i = eol + 1;
			continue;
		}
		jf_span line = { (uint32_t)i, (uint32_t)eol };
		/* The words after #SBATCH, up to a comment. */
		size_t words[16][2], nw = 0;
		for (size_t k = i + 7; k < eol && nw < 16;) {
			while (k < eol && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
				k++;
			if (k >= eol || text[k] == '#')
				break;
			size_t a = k;
			while (k < eol && text[k] != ' ' && text[k] != '\t' && text[k] != '\r')
				k++;
			words[nw][0] = a;
			words[nw][1] = k;
			nw++;
		}
		for (size_t w = 0; w < nw; w++) {
			size_t a = words[w][0], b = words[w][1];
			if (text[a] != '-')
				continue;
			const char *eq = memchr(text + a, '=', b - a);
			if (text[a + 1] == '-') { /* --name=value, --name value */
				if (eq)
					add_option(out, text, a, (size_t)(eq - text), (size_t)(eq - text) + 1, b,
					           line);
				else if (w + 1 < nw && text[words[w + 1][0]] != '-')
					add_option(out, text, a, b, words[w + 1][0], words[w + 1][1], line);
				else
					add_option(out, text, a, b, b, b, line);
			} else if (b - a > 2) { /* -N2 */
				add_option(out, text, a, a + 2, a + 2, b, line);
			} else if (w + 1 < nw) { /* -N 2 */
				add_option(out, text, a, b, words[w + 1][0], words[w + 1][1], line);
			}
		}
		i = eol + 1;
	}
}

/* The last directive spelled `lng` or `shrt`, or NULL. */
static const directive *find(const directives *ds, const char *lng, const char *shrt)
{
	const directive *found = NULL;
	for (size_t i = 0; i < ds->size; i++)
		if (!strcmp(ds->items[i].name, lng) || (shrt && !strcmp(ds->items[i].name, shrt)))
			found = &ds->items[i];
	return found;
}

/* A whole number written alone, or -1. */
static long number(const char *s)
{
	char *end = NULL;
	long v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
	return v >= 0 && end && !*end ? v : -1;
}

/* `[type:]N` of --gpus and --gpus-per-node: N, or -1. */
static long typed_count(const char *s)
{
	const char *colon = strrchr(s, ':');
	return number(colon ? colon + 1 : s);
}

/* The GPUs of `--gres=gpu[:type][:N][,other...]`: N (1 when not given), or -1. */
static long gres_gpus(const char *s)
{
	for (const char *p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t n = strcspn(p, ",");
		if (n < 3 || memcmp(p, "gpu", 3) || (n > 3 && p[3] != ':'))
			continue;
		char item[64];
		if (n >= sizeof item)
			return -1;
		memcpy(item, p, n);
		item[n] = '\0';
		const char *last = strrchr(item, ':');
		if (!last)
			return 1;
		long v = number(last + 1);
		/* gpu:a100 is one GPU of that type; gpu:a100:4 four */
		return v >= 0 ? v : strchr(item + 4, ':') ? -1 : 1;
	}
	return -1;
}

/* Whether a directive's value is a placeholder a tool fills in before the
 * script is submitted: a variable, `<nodes>`, `{{ nodes }}`, JUBE's `#NODES#`,
 * `@NODES@`, `%NODES%`. */
static bool is_placeholder(const char *value)
{
	return strpbrk(value, "$<{#@%") != NULL;
}

/* JF004 for the options read here written without a value, JF003 for a count that is
 * not one (a node count may be a range: only a value without a leading digit is wrong). */
static void check_directives(jf_job_read *r, const directives *ds)
{
	static const char *const valued[] = { "--nodes", "-N", "--gres", "--gpus-per-node", "--gpus",
		                              "-G", "--ntasks-per-node", "--ntasks", "-n",
		                              "--chdir", "-D", "--job-name", "-J", "--export", NULL };
	static const char *const counts[] = { "--nodes", "-N", "--ntasks-per-node", "--ntasks", "-n",
		                              NULL };
	for (size_t i = 0; i < ds->size; i++) {
		const directive *d = &ds->items[i];
		if (!jf_str_in(d->name, valued))
			continue;
		if (!*d->value)
			jf_sink_add(r->sink, JF004, r->src, d->line, "#SBATCH option '%s' has no value",
			            d->name);
		else if (jf_str_in(d->name, counts) && !(d->value[0] >= '0' && d->value[0] <= '9') &&
		         !is_placeholder(d->value))
			jf_sink_add(r->sink, JF003, r->src, d->at, "'%s' must be a number, not '%s'",
			            d->name, d->value);
	}
}

static void read_resources(jf_job_read *r, const directives *ds)
{
	jf_job *j = r->job;
	const directive *nodes = find(ds, "--nodes", "-N");
	const directive *gres = find(ds, "--gres", NULL);
	const directive *per_node = find(ds, "--gpus-per-node", NULL);
	const directive *total = find(ds, "--gpus", "-G");
	const directive *tasks_per_node = find(ds, "--ntasks-per-node", NULL);
	const directive *tasks = find(ds, "--ntasks", "-n");
	if (nodes) {
		j->nodes = number(nodes->value);
		j->resources = j->nodes_at = (jf_loc){ r->src, nodes->line };
	}
	const directive *gpus_at = NULL;
	if (per_node && (j->gpus = typed_count(per_node->value)) >= 0)
		gpus_at = per_node;
	else if (gres && (j->gpus = gres_gpus(gres->value)) >= 0)
		gpus_at = gres;
	else if (total && j->nodes > 0 && typed_count(total->value) >= 0 &&
	         typed_count(total->value) % j->nodes == 0) {
		j->gpus = typed_count(total->value) / j->nodes;
		gpus_at = total;
	}
	if (gpus_at)
		j->resources = (jf_loc){ r->src, gpus_at->line };
	else
		j->gpus = -1;
	if (tasks_per_node)
		j->procs = number(tasks_per_node->value);
	else if (tasks && j->nodes > 0 && number(tasks->value) >= 0 &&
	         number(tasks->value) % j->nodes == 0)
		j->procs = number(tasks->value) / j->nodes;
	else if (!tasks && !find(ds, "--cpus-per-task", "-c") && !find(ds, "--ntasks-per-gpu", NULL) &&
	         !find(ds, "--gpus-per-task", NULL) && !find(ds, "--ntasks-per-socket", NULL) &&
	         !find(ds, "--ntasks-per-core", NULL))
		j->procs = 1; /* sbatch's default: one task per node */
}

/* The GPU type of a --gres value's gpu item (`gpu:a100:4`) or of a `type:N`
 * value of --gpus and --gpus-per-node: its offset in `s` and length in *len,
 * or -1 when the value names none. */
static long gpu_type(const char *s, bool gres, size_t *len)
{
	const char *t = NULL;
	if (gres) {
		for (const char *p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			if (!strncmp(p, "gpu:", 4)) {
				t = p + 4;
				break;
			}
	} else if (strchr(s, ':')) {
		t = s;
	}
	if (!t)
		return -1;
	*len = strcspn(t, ":,(");
	size_t digits = strspn(t, "0123456789");
	if (!*len || digits == *len || is_placeholder(t) || (!gres && t[*len] != ':'))
		return -1;
	return (long)(t - s);
}

/* The accelerator of a GPU directive with a type (--gpus-per-node, --gres,
 * --gpus, the first of them that names one) and the features of
 * --constraint: GPUs where a feature is a GPU's name (env/gpus.c). */
static void read_accels(jf_job_read *r, const directives *ds)
{
	jf_job *j = r->job;
	const directive *typed[] = { find(ds, "--gpus-per-node", NULL), find(ds, "--gres", NULL),
		                     find(ds, "--gpus", "-G") };
	for (int i = 0; i < 3; i++) {
		const directive *d = typed[i];
		size_t len = 0;
		long off = d ? gpu_type(d->value, i == 1, &len) : -1;
		if (off < 0)
			continue;
		long count = i == 0 ? typed_count(d->value) : i == 1 ? gres_gpus(d->value) : -1;
		if (i == 2 && j->nodes > 0 && typed_count(d->value) >= 0 &&
		    typed_count(d->value) % j->nodes == 0)
			count = typed_count(d->value) / j->nodes;
		char *kind = jf_xstrndup(d->value + off, len);
		uint32_t a = d->at.start + (uint32_t)off;
		jf_job__accel(r, kind, (jf_loc){ r->src, { a, a + (uint32_t)len } }, JF_ACCEL_SLURM,
		              count, (jf_loc){ r->src, d->at });
		free(kind);
		break;
	}
	const directive *c = find(ds, "--constraint", "-C");
	if (!c || is_placeholder(c->value))
		return;
	size_t before = j->accels.size;
	for (size_t i = 0; c->value[i];) {
		size_t n = 0;
		const char *w = c->value + i;
		if ((*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z'))
			n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-");
		if (!n) {
			i++;
			continue;
		}
		char *kind = jf_xstrndup(w, n);
		uint32_t a = c->at.start + (uint32_t)i;
		jf_job__accel(r, kind, (jf_loc){ r->src, { a, a + (uint32_t)n } },
		              JF_ACCEL_SLURM_FEATURE, j->gpus, (jf_loc){ r->src, c->at });
		free(kind);
		i += n;
	}
	/* `a100|v100`: any one of them; `a100&ib`: all of them */
	if (j->accels.size - before > 1 && strchr(c->value, '|') && !before)
		j->accels_any = true;
}

/* The value of shell word at `at` in `text` (to a blank, quote or backslash), into `out`. */
static jf_span word_at(const char *text, size_t len, size_t at, char *out, size_t cap)
{
	size_t b = at;
	while (b < len && !strchr(" \t\r\n\"'\\;|&)", text[b]))
		b++;
	size_t n = b - at < cap - 1 ? b - at : cap - 1;
	memcpy(out, text + at, n);
	out[n] = '\0';
	return (jf_span){ (uint32_t)at, (uint32_t)b };
}

/* The value after option `opt` at `p` (`opt=V` or `opt V`), or where it is not literal. */
static size_t value_after(const char *text, size_t len, size_t p, size_t optlen)
{
	size_t v = p + optlen;
	if (v < len && text[v] == '=')
		return v + 1;
	while (v < len && (text[v] == ' ' || text[v] == '\t'))
		v++;
	if (v < len && (text[v] == '"' || text[v] == '\''))
		v++;
	return v;
}

/* An image reference jobfix can look up: no variable, not a file. */
static bool is_image_ref(const char *s)
{
	return *s && !strpbrk(s, "$`") && s[0] != '/' && s[0] != '.' && !jf_str_ends(s, ".sqsh") &&
	       !jf_str_ends(s, ".sif") && !jf_str_ends(s, ".simg");
}

static const char *next_occurrence(const char *text, size_t len, size_t from, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = from; i + n <= len; i++)
		if (!memcmp(text + i, what, n) && (i == 0 || strchr(" \t\n\"'", text[i - 1])))
			return text + i;
	return NULL;
}

/* srun's pyxis --container-image and --container-mounts; `singularity exec docker://...`. */
static void read_container(jf_job_read *r)
{
	jf_job *j = r->job;
	const char *text = r->src->data;
	size_t len = r->src->len;
	char ref[512] = "", v[512];
	jf_span ref_at = { 0, 0 };
	bool unknown = false;
	for (const char *p = text; (p = next_occurrence(text, len, (size_t)(p - text), "--container-image"));
	     p++) {
		size_t at = value_after(text, len, (size_t)(p - text), strlen("--container-image"));
		jf_span s = word_at(text, len, at, v, sizeof v);
		for (char *h = v; (h = strchr(h, '#'));) /* pyxis: registry#image */
			*h = '/';
		if (!is_image_ref(v) || (*ref && strcmp(ref, v)))
			unknown = true;
		else if (!*ref) {
			memcpy(ref, v, sizeof ref);
			ref_at = s;
		}
	}
	const char *runners[] = { "singularity exec", "apptainer exec", "singularity run",
		                  "apptainer run" };
	for (size_t k = 0; k < 4; k++)
		for (const char *p = text; (p = next_occurrence(text, len, (size_t)(p - text), runners[k]));
		     p++) {
			/* the image is the first word that is not an option: taken only when it
			 * is a docker:// reference right after the options without values */
			size_t at = (size_t)(p - text) + strlen(runners[k]);
			while (at < len) {
				while (at < len && (text[at] == ' ' || text[at] == '\t'))
					at++;
				if (at < len && text[at] == '-' && (at + 4 >= len || memcmp(text + at, "--nv", 4) ||
				                                    (text[at + 4] != ' ' && text[at + 4] != '\t'))) {
					unknown |= true; /* an option that may take a value: the image is not sure */
					break;
				}
				if (at < len && text[at] == '-') {
					at += 4;
					continue;
				}
				break;
			}
			jf_span s = word_at(text, len, at, v, sizeof v);
			if (!jf_str_starts(v, "docker://") || !is_image_ref(v + 9) || (*ref && strcmp(ref, v + 9)))
				unknown = true;
			else if (!*ref) {
				memcpy(ref, v + 9, sizeof ref - 9);
				ref_at = (jf_span){ s.start + 9, s.end };
			}
		}
	if (*ref && !unknown) {
		j->image.present = true;
		j->image.at = (jf_loc){ r->src, ref_at };
		j->image.ref = (jf_field){ jf_job__copy(r, ref), j->image.at };
	}
	/* --container-mounts=SRC:DST[:FLAGS],... */
	for (const char *p = text; (p = next_occurrence(text, len, (size_t)(p - text), "--container-mounts"));
	     p++) {
		size_t at = value_after(text, len, (size_t)(p - text), strlen("--container-mounts"));
		jf_span s = word_at(text, len, at, v, sizeof v);
		size_t off = 0;
		for (char *item = v; item && *item; off += strcspn(item, ",") + 1,
		          item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
			char one[512];
			size_t n = strcspn(item, ",");
			memcpy(one, item, n);
			one[n] = '\0';
			char *dst = strchr(one, ':');
			if (!dst)
				dst = one; /* SRC alone: mounted at the same path */
			else
				*dst++ = '\0';
			char *flags = strchr(dst, ':');
			if (flags)
				*flags++ = '\0';
			if (dst[0] != '/' || strchr(dst, '$'))
				continue;
			jf_loc where = { r->src, { s.start + (uint32_t)off, s.start + (uint32_t)(off + n) } };
			jf_job_mount m = { { jf_job__copy(r, one), where }, { jf_job__copy(r, dst), where } };
			/* Kept writable even when `:ro`: the mount is only in srun's container,
			 * and jobfix does not tell the commands srun runs there from those the
			 * batch script runs on the node, where the path is another. */
			(void)flags;
			jf_array_push(&j->outputs, m);
		}
	}
}

/* The folder of this checkout an absolute --chdir names, or NULL. */
static char *chdir_here(jf_job_read *r, const jf_job_place *top, const char *dir)
{
	jf_deps_note(JF_DEP_REAL, top->dir);
	char *real_top = realpath(top->dir, NULL);
	const char *rel = real_top ? jf_path_under(dir, real_top) : NULL;
	char *local = rel ? jf_path_join(top->dir, rel) : NULL;
	free(real_top);
	if (local)
		jf_arena_adopt(&r->job->arena, local);
	return local;
}

static void read_code(jf_job_read *r, const directives *ds)
{
	jf_job *j = r->job;
	const directive *cd = find(ds, "--chdir", "-D");
	const char *d = cd && *cd->value && !strpbrk(cd->value, "$%~") ? cd->value : NULL;
	if (cd && !d) {
		jf_job__unknown(r, JF_JOB_CODE, "the script runs in '%s' (--chdir), which is not known "
		                                "before it runs",
		                cd->value);
		return;
	}
	if (d && d[0] == '/') {
		jf_job_place top = { 0 };
		char *local = jf_job__repo_top(r, &top) ? chdir_here(r, &top, d) : NULL;
		if (local && jf_path_is_dir(local)) {
			jf_deps_note(JF_DEP_REAL, top.dir);
			char *real_top = realpath(top.dir, NULL);
			char *display = jf_path_join(top.display, jf_path_under(d, real_top));
			free(real_top);
			jf_arena_adopt(&j->arena, display);
			jf_job__set_code(r, &(jf_job_place){ local, display });
			return;
		}
		jf_job__unknown(r, JF_JOB_CODE, "the script runs in '%s' (--chdir), a folder of the "
		                                "cluster: its code is not read here",
		                d);
		return;
	}
	/* The folder it is submitted from, and --chdir relative to it. */
	const char *rel = d ? d : ".";
	jf_job_place cands[16];
	size_t n = jf_job__places(r, rel, cands, 16);
	if (!n) {
		jf_job__unknown(r, JF_JOB_CODE, "the script runs in '%s' (--chdir), which is neither "
		                                "under the script's folder nor under one above it",
		                rel);
		return;
	}
	const char *text = r->src->data;
	jf_job_place at;
	switch (jf_job__pick_place(cands, n, &text, 1, &at)) {
	case JF_PLACE_FOUND:
	case JF_PLACE_NO_SCRIPT:
		jf_job__set_code(r, &at);
		break;
	case JF_PLACE_NONE:
		jf_job__unknown(r, JF_JOB_CODE, "the scripts the batch script runs are neither in its own "
		                                "folder nor in one above it: the folder sbatch runs it in "
		                                "is not known");
		break;
	case JF_PLACE_BOTH:
		jf_job__unknown(r, JF_JOB_CODE, "as many of the scripts the batch script runs are in two "
		                                "folders of its repository: the folder sbatch runs it in "
		                                "is not known");
		break;
	}
}

/* --export: whether the submitter's environment passes on (ALL), stays out
 * (NONE, or a list without ALL) or the default holds (no --export: what
 * sbatch does then is the platform's, data/platforms.yaml); the NAME=value
 * items of the list are set. */
static void read_export(jf_job_read *r, const directives *ds)
{
	jf_job *j = r->job;
	const directive *e = find(ds, "--export", NULL);
	j->submitter_env = JF_SUBMITTER_ENV_DEFAULT;
	if (!e)
		return;
	j->submitter_env = JF_SUBMITTER_ENV_NONE;
	char list[sizeof e->value];
	memcpy(list, e->value, sizeof list);
	char *save = NULL;
	for (char *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (!strcmp(item, "ALL")) {
			j->submitter_env = JF_SUBMITTER_ENV_ALL;
			continue;
		}
		if (!strcmp(item, "NONE") || !strcmp(item, "NIL"))
			continue;
		char *eq = strchr(item, '=');
		if (eq)
			*eq++ = '\0';
		jf_loc at = { r->src, e->at };
		jf_job_var v = { { jf_job__copy(r, item), at },
			         { eq && !strpbrk(eq, "$`") ? jf_job__copy(r, eq) : NULL, at } };
		jf_array_push(&j->env, v);
	}
}

/* JF004 for a batch script whose first line is not `#!` and an interpreter:
 * sbatch refuses it (src/sbatch/sbatch.c checks the first two bytes). */
static void check_interpreter(jf_job_read *r)
{
	const jf_source *src = r->src;
	if (src->len >= 2 && !memcmp(src->data, "#!", 2))
		return;
	jf_span first = jf_source_line_span(src, 0);
	bool shebang_below = strstr(src->data, "\n#!") != NULL;
	jf_diag *d = jf_sink_add(r->sink, JF004, src, first,
	                         "the batch script's first line is not '#!' and an interpreter: "
	                         "sbatch refuses it (\"This does not look like a batch script. The "
	                         "first line must start with #! followed by the path to an "
	                         "interpreter.\")");
	jf_diag_set_help(d, shebang_below ? "move the #! line to the very first line: nothing, not "
	                                    "even a blank line or a comment, may come before it"
	                                  : "start the script with a line such as #!/bin/bash");
}

static void read_slurm(jf_job_read *r)
{
	jf_job *j = r->job;
	const jf_source *src = r->src;
	directives ds = { 0 };
	check_interpreter(r);
	read_directives(src->data, src->len, &ds);
	j->platform.value = jf_job__copy(r, "slurm");
	const directive *name = find(&ds, "--job-name", "-J");
	if (name && *name->value)
		j->name = (jf_field){ jf_job__copy(r, name->value), { src, name->at } };
	check_directives(r, &ds);
	read_resources(r, &ds);
	read_accels(r, &ds);
	read_export(r, &ds);
	read_container(r);
	j->has_command = true;
	jf_job__text_unit(r, (jf_span){ 0, src->len });
	read_code(r, &ds);
	jf_array_release(&ds);
}

const jf_job_reader jf_job_slurm_reader = { "slurm", false, sniff_slurm, detect_slurm, read_slurm };
