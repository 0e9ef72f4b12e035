/* executables.c - JF112, JF105: programs the command runs that the image lacks or forbids
 *
 * JF112: an executable the image does not have: one the catalog lists as
 * absent (`python` where only `python3` exists), or a launcher whose package
 * the image lacks (`torchrun` before torch 1.10, `deepspeed` without the
 * deepspeed package), unless the job installs it first; a command whose
 * first word is an option, which no program is (a broken line continuation).
 * JF105: `sudo`, and package managers that need root, in an image whose user
 * is not root.
 */
#include "rules/checks.h"
#include "env/pymodules.h"

/* Launchers that come with a Python distribution. */
static const struct {
	const char *exe, *dist, *since; /* since: the first version with it, or NULL */
} launchers[] = {
	{ "torchrun", "torch", "1.10" },
	{ "deepspeed", "deepspeed", NULL },
	{ "accelerate", "accelerate", NULL },
	{ "horovodrun", "horovod", NULL },
};

/* Whether the job installs `dist`, with what it installs or brings (a
 * distribution's requirements), or something jobfix cannot name that may be
 * it; --verbose says so when that is all jobfix knows. */
static bool installed_by_job(jf_rule_ctx *ctx, const char *dist, const char *exe)
{
	const jf_shell_facts *sh = &ctx->facts->shell;
	if (sh->installs_unknown || jf_shell_installs(sh, dist))
		return true;
	jf_strings brought = { 0 };
	const char *unknown = jf_dist_closure(&sh->installed, &brought);
	bool found = jf_strings_have(&brought, dist);
	jf_strings_release(&brought);
	if (!found && unknown)
		jf_sink_skip(ctx->out, JF112, "the job installs '%s', whose requirements are not in "
		                              "jobfix's data: whether it brings '%s' is not checked",
		             unknown, exe);
	return found || unknown;
}

/*
 * A command whose first word is an option (`--lr 1e-4`): no program has that
 * name. It is most often the next line of a command whose line continuation
 * broke: a `\` followed by a blank escapes the blank, not the line's end.
 */
static void dash_command(jf_rule_ctx *ctx, const jf_exec_fact *f)
{
	const jf_source *src = f->name.src;
	uint32_t line = jf_source_line_of(src, f->name.span.start);
	jf_span prev = line ? jf_source_line_span(src, line - 1) : (jf_span){ 0, 0 };
	uint32_t end = prev.end;
	while (end > prev.start && (src->data[end - 1] == ' ' || src->data[end - 1] == '\t' ||
	                            src->data[end - 1] == '\r'))
		end--;
	bool broken = line && end < prev.end && end > prev.start && src->data[end - 1] == '\\';
	jf_diag *d = jf_sink_add(ctx->out, JF112, src, f->name.span,
	                         "'%s' starts a command of its own: no program has that name "
	                         "(command not found)%s",
	                         f->name.value,
	                         broken ? ", and the command before ends without the words from here on"
	                                : "");
	if (broken) {
		jf_diag_relate(d, src, (jf_span){ end - 1, prev.end },
		               "the '\\' is followed by a blank, which it escapes instead of the "
		               "line's end: the command ends on this line");
		jf_diag_set_help(d, "delete the blanks after the '\\' at the end of the line before");
	} else {
		jf_diag_set_help(d, "join the line to the command it belongs to with a '\\' at the "
		                    "end of the line before");
	}
}

static void check_executable(jf_rule_ctx *ctx, const jf_image *img,
                             const jf_exec_fact *f)
{
	const char *name = f->name.value;
	if (name && name[0] == '-' && name[1] && f->name.src) {
		dash_command(ctx, f);
		return;
	}
	if (!name || strchr(name, '/'))
		return; /* a path: the image's business, not its PATH */
	jf_diag *d = NULL;
	for (size_t i = 0; i < sizeof launchers / sizeof *launchers && !d; i++) {
		if (strcmp(name, launchers[i].exe))
			continue;
		const char *version = NULL;
		jf_tri has = jf_image_has_package(img, launchers[i].dist, &version);
		bool too_old = has == JF_YES && launchers[i].since && strcmp(version, "*") &&
		               jf_version_cmp(version, launchers[i].since) < 0;
		if ((has == JF_NO || too_old) && installed_by_job(ctx, launchers[i].dist, name))
			return;
		if (has == JF_NO) {
			d = jf_sink_add(ctx->out, JF112, f->name.src, f->name.span,
			                     "'%s' is not in the image: it comes with %s, which the image "
			                     "does not have (command not found)",
			                     name, launchers[i].dist);
			jf_image_relate(d, img, JF_FACT_PACKAGES, "no %s",
			                launchers[i].dist);
		} else if (too_old) {
			d = jf_sink_add(ctx->out, JF112, f->name.src, f->name.span,
			                     "'%s' is not in the image: it came with %s %s, the image has "
			                     "%s %s (command not found)",
			                     name, launchers[i].dist, launchers[i].since, launchers[i].dist,
			                     version);
			jf_image_relate(d, img, JF_FACT_PACKAGES, "%s %s",
			                launchers[i].dist, version);
			jf_diag_set_help(d, "use `python -m torch.distributed.launch`, or an image with "
			                    "torch 1.10 or later");
		}
	}
	/* Other programs may come with whatever the job installs (conda's MPI
	 * packages bring mpirun): the catalog decides only for Python itself,
	 * or when the job installs nothing. */
	bool installs = ctx->facts->shell.installs_unknown || ctx->facts->shell.installed.size;
	/* MPI's mpiexec comes with its mpirun (Open MPI links one to the other) */
	const char *as = !strcmp(name, "mpiexec") ? "mpirun" : name;
	if (!d && (!installs || jf_str_starts(name, "python")) &&
	    jf_image_has_executable(img, as) == JF_NO) {
		d = jf_sink_add(ctx->out, JF112, f->name.src, f->name.span,
		                     "'%s' is not in the image (command not found)", name);
		jf_image_relate(d, img, JF_FACT_EXECUTABLES, "no '%s' on its PATH",
		                name);
		if (!strcmp(name, "python") && jf_image_has_executable(img, "python3") == JF_YES)
			jf_diag_set_help(d, "call 'python3' instead");
	}
}

/* Package managers that write system folders, by their subcommands that do. */
static bool needs_root(const jf_exec_fact *f)
{
	static const char *const apt[] = { "install", "update", "upgrade", "dist-upgrade", "remove",
		                           "purge", "autoremove", "full-upgrade", NULL };
	static const char *const others[] = { "yum", "dnf", "microdnf", "apk", "zypper", NULL };
	const char *n = f->name.value, *arg = f->arg ? f->arg : "";
	if (!strcmp(n, "sudo") || !strcmp(n, "su"))
		return true;
	if (!strcmp(n, "apt-get") || !strcmp(n, "apt"))
		return jf_str_in(arg, apt);
	if (!strcmp(n, "apk"))
		return !strcmp(arg, "add") || !strcmp(arg, "del") || !strcmp(arg, "update");
	return jf_str_in(n, others) && (!strcmp(arg, "install") || !strcmp(arg, "update") ||
	                                !strcmp(arg, "remove") || !strcmp(arg, "upgrade"));
}

/* Shell builtins and the tools every image has or a job uses around its
 * training program: running one of these says nothing about the job's code. */
static bool common_tool(const char *name)
{
	static const char *const tools[] = {
		"echo", "printf", "cd", "pwd", "export", "set", "unset", "source", ".", "exit",
		"true", "false", "test", "[", "[[", "read", "eval", "exec", "shift", "wait", "trap",
		"sleep", "date", "env", "time", "timeout", "nohup", "ls", "cat", "cp", "mv", "rm",
		"mkdir", "rmdir", "ln", "touch", "chmod", "chown", "head", "tail", "grep", "sed",
		"awk", "cut", "sort", "uniq", "wc", "tr", "tee", "find", "xargs", "basename",
		"dirname", "realpath", "readlink", "which", "hostname", "whoami", "id", "nproc",
		"df", "du", "free", "ps", "kill", "tar", "gzip", "gunzip", "unzip", "zip", "wget",
		"curl", "git", "git-lfs", "rsync", "scp", "ssh", "aws", "gsutil", "azcopy",
		"nvidia-smi", "nvcc", "apt", "apt-get", "yum", "conda", "mamba", "pip", "pip3", "uv",
		"make", "cmake", "bash", "sh", "sudo", "ulimit", "umask", "module", "srun", "scontrol",
		"squeue", "sbatch", "huggingface-cli", "wandb", "tensorboard", NULL,
	};
	return jf_str_in(name, tools) || jf_str_starts(name, "python");
}

void jf_check_programs(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule;
	const jf_image *img = ctx->facts->image;
	jf_check_say_job(ctx, JF112, JF_JOB_IMAGE);
	bool nonroot = jf_image_user_is_nonroot(img);
	for (size_t i = 0; ctx->facts->job && i < ctx->facts->shell.execs.size; i++) {
		const jf_exec_fact *f = &ctx->facts->shell.execs.items[i];
		if (f->name.value && !img->user && needs_root(f))
			jf_sink_skip(ctx->out, JF105, "the image's user is unknown: declare image.user");
		for (size_t k = 0; f->name.value && !jf_image_known(img) &&
		                   k < sizeof launchers / sizeof *launchers;
		     k++)
			if (!strcmp(f->name.value, launchers[k].exe))
				jf_sink_skip(ctx->out, JF112, "%s: declare image.manifest to check "
				                                   "the launchers the job runs",
				            jf_image_unknown_reason(img));
	}
	/* No Python entry script followed: name the programs that run instead. */
	for (size_t i = 0; ctx->facts->job && !ctx->facts->shell.invocations.size &&
	                   i < ctx->facts->shell.execs.size;
	     i++) {
		const jf_exec_fact *f = &ctx->facts->shell.execs.items[i];
		const char *name = f->name.value;
		if (name && !common_tool(name) && jf_image_has_executable(img, name) == JF_UNKNOWN &&
		    f->name.src)
			jf_sink_skip(ctx->out, JF112, "%s:%u: the command runs '%s', which jobfix does "
			                              "not know: whether the image has it, and what it "
			                              "runs, is not checked",
			             f->name.src->path,
			             jf_source_line_of(f->name.src, f->name.span.start) + 1, name);
	}
	for (size_t i = 0; i < ctx->facts->shell.execs.size; i++) {
		const jf_exec_fact *f = &ctx->facts->shell.execs.items[i];
		if (!f->name.value)
			continue;
		if (nonroot && needs_root(f)) {
			jf_diag *d = jf_sink_add(ctx->out, JF105, f->name.src, f->name.span,
				!strcmp(f->name.value, "sudo") || !strcmp(f->name.value, "su")
					? "'%s' in an image that runs as user '%s': the job cannot become root"
					: "'%s' needs root, and the image runs as user '%s' (Permission denied)",
				f->name.value, img->user);
			jf_image_relate(d, img, JF_FACT_USER, "user '%s'", img->user);
			continue;
		}
		check_executable(ctx, img, f);
	}
}
