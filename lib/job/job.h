/* job.h - the job, whatever format it is written in: every value with where it is written
 *
 * A job is what the platform runs: an image, a command (shell text or an argv
 * list) run in a working folder of the container where the job's code
 * appears, environment variables, mounts, and resources. Each format has a
 * reader (native.c reads jobfix's own spec; docs/jobs.md); jf_job_load()
 * detects the format of a file by its content and hands it to its reader.
 *
 * Every value keeps its place (a jf_loc: a source the job owns and a span of
 * it), so findings about a value point into the user's own file. Strings are
 * owned by the job, sources by the job until jf_job_keep_sources() hands
 * them over. The reader reports problems of the file itself (JF001-JF004)
 * into the sink. What it cannot tell (where the code is, the image) it
 * leaves unset and says why in a note (jf_job_note), as it says what it
 * took for a fact it could not read: the checks that need the fact say the
 * note for --verbose, so that no reader names a rule in a skip.
 */
#ifndef JF_JOB_H
#define JF_JOB_H

#include "core/arena.h"
#include "core/error.h"
#include "core/sink.h"
#include "core/source.h"

/* Where a value is written. `src` is NULL for a value nothing writes (a default). */
typedef struct {
	const jf_source *src;
	jf_span span;
} jf_loc;

/* A string value and where it is written. */
typedef struct {
	char *value; /* NULL when absent */
	jf_loc at;
} jf_field;

/* An environment variable the job sets. */
typedef struct {
	jf_field name;
	jf_field value; /* value.value NULL: set, to a value known only at run time */
} jf_job_var;

/* A folder mounted into the container. */
typedef struct {
	jf_field name; /* the job's name for it ("imagenet") */
	jf_field path; /* where it appears in the container */
} jf_job_mount;

typedef JF_ARRAY(jf_job_var) jf_job_vars;
typedef JF_ARRAY(jf_job_mount) jf_job_mounts;

/* One step of the command, run in order. */
typedef enum {
	JF_CMD_SHELL, /* a shell program: `bash -c` text, a YAML block */
	JF_CMD_ARGV,  /* a program and its arguments, each word as written, run without a shell */
} jf_cmd_kind;

typedef struct {
	jf_cmd_kind kind;
	jf_loc at; /* the whole value */
	/* Run by a shell of its own, started in the workdir with the job's env:
	 * what the units before it set and `cd` to is gone, the files they made stay
	 * (SkyPilot's `setup`, then `run`). Otherwise it goes on in the shell before. */
	bool own_shell;
	/*
	 * JF_CMD_SHELL: the program is `ranges` of at.src, in order (a YAML block
	 * scalar less its indentation), so its positions are the file's own.
	 * When the value differs from the file's bytes (escapes, folding),
	 * `ranges` is empty and `copy` holds the value, a source whose findings
	 * are reported at `at` (jf_source_from_value()).
	 */
	JF_ARRAY(jf_span) ranges;
	/* The source `ranges` are of when it is not the job file: a source of
	 * the job's (another file, or a copy of one with the same lines and
	 * offsets), NULL for the job file. */
	const jf_source *src;
	jf_source *copy;
	/* JF_CMD_ARGV: the words. */
	JF_ARRAY(jf_field) argv;
	/* While a reader reads: the words are the args of the image's ENTRYPOINT
	 * (a container with no command), put after it once the Dockerfile tells;
	 * the reader drops the unit when nothing tells. */
	bool to_entrypoint;
} jf_cmd_unit;

/* A distribution the build of the job's image installs: a RUN of its
 * Dockerfile, or its conda environment file. */
typedef struct {
	jf_field name;  /* at the word of the RUN, or the entry of the file, that installs it */
	char *version;  /* pinned with ==, or NULL */
	char *spec;     /* its version specifier (">=1.20,<2"), or NULL */
} jf_job_install;

/* The job's image as the job file names and describes it; env/image.c adds
 * what jobfix's catalog knows. */
typedef struct {
	bool present;     /* the job names an image (JF004 otherwise) */
	jf_loc at;        /* the whole image value */
	jf_field ref;     /* "nvcr.io/nvidia/pytorch:24.01-py3" */
	jf_field user;    /* the user it runs as, when the job says */
	jf_field python;  /* its Python version, when the job says */
	jf_field manifest; /* a `pip freeze` list of its packages, relative to the job file */
	/* The image it is built FROM, when the repository's Dockerfile builds it
	 * (at the FROM line), and what the build's RUNs install into it.
	 * `extended_by` is the first instruction that may install what jobfix
	 * cannot name (its text, at the instruction: a RUN, a COPY --from, an
	 * ENV); `base_python_changed` when a RUN may install another Python. */
	jf_field base;
	/* Or the conda environment file the platform builds the job's Python
	 * from (Azure ML's conda_file): `installs` are then all the packages
	 * there are, whatever the image holds. */
	jf_field conda_file;
	JF_ARRAY(jf_job_install) installs;
	/* The local projects the build installs (`pip install .`): folders of
	 * this machine, whose modules and console scripts the image then has. */
	JF_ARRAY(char *) projects;
	jf_field extended_by;
	const char *extended_why; /* why, when a local project it installs says (static), or NULL */
	bool base_python_changed;
} jf_job_image;

/* Whose names an accelerator's kind is: the same word means different GPUs
 * on different platforms (SkyPilot's `A100` is the 40 GB one, a Slurm site's
 * `a100` may be either), so env/gpus.c looks it up in that platform's names. */
typedef enum {
	JF_ACCEL_GPU,           /* a GPU's name, of no platform (jobfix's own spec) */
	JF_ACCEL_SKYPILOT,      /* a SkyPilot accelerator name */
	JF_ACCEL_K8S_PRODUCT,   /* `nvidia.com/gpu.product`, as GPU feature discovery writes it */
	JF_ACCEL_GKE,           /* `cloud.google.com/gke-accelerator` */
	JF_ACCEL_KARPENTER,     /* `karpenter.k8s.aws/instance-gpu-name` */
	JF_ACCEL_SLURM,         /* a Slurm gres type (--gres=gpu:TYPE:N, --gpus=TYPE:N) */
	JF_ACCEL_SLURM_FEATURE, /* a Slurm --constraint feature: a GPU only where its name is one */
	JF_ACCEL_INSTANCE,      /* a cloud's instance type or VM size, which has its GPUs */
} jf_accel_names;

/* An accelerator the job asks for, as the job file writes it: the reader
 * keeps what is written; env/gpus.c tells what GPU it is. */
typedef struct {
	jf_field kind;        /* "A100-80GB", "a100", "NVIDIA-A100-SXM4-80GB", "p4d.24xlarge";
	                         value NULL when the job says only the memory */
	jf_accel_names names; /* whose names `kind` is */
	long count;           /* GPUs per node asked for with it; -1 when not given */
	uint64_t memory;      /* bytes per GPU when the job itself says (gpu_memory); 0 otherwise */
	jf_loc at;            /* the whole ask: `A100-80GB:8`, `--gres=gpu:a100:4`'s value */
} jf_job_accel;

typedef JF_ARRAY(jf_job_accel) jf_job_accels;

typedef struct jf_job_reader jf_job_reader; /* job/reader.h */

/*
 * The facts of a job that a reader may not know, each a bit: what a
 * jf_job_note is about. A check that needs some of them says their notes
 * (rules/checks.h, jf_check_say_job()).
 */
typedef enum {
	/* Where the job's code is (code_unknown_why): the scripts the command
	 * runs are not followed (JF102). */
	JF_JOB_CODE = 1u << 0,
	/* What the job runs, or some of it (command_unknown_why): an image's
	 * entrypoint, a runtime, the other tasks or steps of a pipeline (JF102). */
	JF_JOB_COMMAND = 1u << 1,
	/* The image itself (image_unknown_why): which programs are on its PATH
	 * (JF112). */
	JF_JOB_IMAGE = 1u << 2,
	/* The packages of the environment the job's Python runs in
	 * (packages_unknown_why): an Azure ML environment that is registered,
	 * built elsewhere or unreadable (JF110). */
	JF_JOB_PACKAGES = 1u << 3,
	/* Which variables the job gets (env_open_why, with `env_open`): no
	 * variable is known to be unset (JF108 says it; JF109 is silent too). */
	JF_JOB_ENV = 1u << 4,
	/* What the volumes mounted into the job hold (volumes_unknown_why): an
	 * init container may put files there (JF103). */
	JF_JOB_VOLUMES = 1u << 5,
	/* Which document of the file is the job (unread_why): none, or only the
	 * first of several is read (JF004). */
	JF_JOB_DOCUMENT = 1u << 6,
	/* The file as YAML (not_yaml_why): a template that renders the manifest
	 * (JF001). */
	JF_JOB_YAML = 1u << 7,
} jf_job_fact;

/* Why fact `fact` of the job is not known, or, when `assumed`, what the
 * reader took it to be (the Dockerfile that builds the image, the file
 * that defines a runtime): a sentence for --verbose. */
typedef struct {
	jf_job_fact fact;
	bool assumed;
	const char *text; /* in the job's arena */
} jf_job_note;

typedef JF_ARRAY(jf_job_note) jf_job_notes;

/* Whether the job gets the variables of the shell it is submitted from (a
 * Slurm batch script, by sbatch). */
typedef enum {
	/* No: it starts in a container of its own, or its file keeps them out
	 * (sbatch's --export=NONE, or a list without ALL). */
	JF_SUBMITTER_ENV_NONE,
	/* The file does not say: the platform's default decides
	 * (data/platforms.yaml, `submitter_environment`). */
	JF_SUBMITTER_ENV_DEFAULT,
	/* The file passes them all on (--export=ALL). */
	JF_SUBMITTER_ENV_ALL,
} jf_submitter_env;

typedef struct jf_job {
	const jf_job_reader *format; /* the reader of its format */
	const jf_source *file;  /* the job file */
	char *file_dir;         /* its folder on this machine */
	char *display_dir;      /* the same as shown in diagnostics ("" for the current one) */
	jf_field name;
	/* The platform it runs on, for the variables that platform sets
	 * (data/platforms.yaml): as the native spec writes it, or the format's
	 * own ("kubernetes", "azureml", "skypilot", "slurm") at no place. */
	jf_field platform;
	jf_job_image image;
	/* The code: a folder of this machine that appears at `workdir` in the
	 * container, where the command starts. Without a workdir, the code is
	 * the working folder at a place no absolute path of the job names. */
	jf_field code;          /* as the file writes it */
	char *code_dir;         /* on this machine; NULL when the job has none */
	char *code_display;     /* the same for diagnostics */
	jf_field workdir;       /* an absolute container path, or absent */
	bool has_command;       /* the file has a command (JF004 otherwise) */
	JF_ARRAY(jf_cmd_unit) command;
	jf_job_vars env;
	/* The platform sets variables whose names the file does not say
	 * (Kubernetes `envFrom`): no variable is known to be unset. The reader
	 * says why in a note (JF_JOB_ENV). */
	bool env_open;
	jf_submitter_env submitter_env; /* whether the submitting shell's variables pass on */
	/* Shell variables of the command's own text, not exported: where a
	 * format substitutes values into the text before the shell runs it
	 * (Azure ML's ${{inputs.data}}), its reader writes ${NAME} in their
	 * place and sets NAME here (value NULL: known only at run time). */
	jf_job_vars subst;
	jf_job_mounts inputs;   /* read-only */
	jf_job_mounts outputs;  /* writable */
	long gpus, nodes;       /* per node, and nodes; -1 when not given */
	long procs;             /* processes per node the platform starts; -1 when not given */
	jf_loc resources;       /* the resources value, for notes */
	jf_loc nodes_at;        /* where the node count is written, for notes; src NULL when not */
	/* The accelerators the job asks for, in the order written. With
	 * `accels_any`, they are choices: the platform starts the job on one of
	 * them (SkyPilot's lists and sets, any_of and ordered; a node affinity's
	 * values; a --constraint with `|`). Without, each describes the GPU of
	 * every node (a node selector's product label beside its instance type).
	 * Empty when the file names no GPU type or memory: `gpus` alone is not
	 * an accelerator. */
	jf_job_accels accels;
	bool accels_any;
	/* Comments of the job's files, where suppressions may stand. */
	JF_ARRAY(jf_loc) comments;
	/* Why facts of the job are unknown, and what was assumed, in the order
	 * the reader found them. */
	jf_job_notes notes;
	/* Sources the job owns: the file, copies of values. */
	jf_sources sources;
	/* The strings of the fields and paths above: released with the job. */
	jf_arena arena;
} jf_job;

/* The Dockerfile that builds an image, as the config's `images:` says. */
typedef struct {
	char *image; /* "registry.example.com/team/train", or with a tag */
	char *path;  /* the Dockerfile on this machine */
	char *shown; /* the same for messages */
	char *context, *context_shown; /* its build context */
} jf_image_build;

typedef JF_ARRAY(jf_image_build) jf_image_builds;

/** The container folder standing for the code when the job has no workdir. */
#define JF_CODE_ROOT "/\x01code"

/**
 * Reads the job file at `fs_path` (shown as `display_path`), in whatever
 * format it is written. Problems of the file are reported into `sink`.
 * `builds` (may be NULL) says which Dockerfile builds which image, before
 * the nearest Dockerfile is taken. Returns 0 with the job in *out (free
 * with jf_job_free()), or JF_EIO when the file cannot be read at all, with
 * the reason in `err`.
 */
int jf_job_load(const char *fs_path, const char *display_path, const jf_image_builds *builds,
                jf_sink *sink, jf_job **out, jf_error *err);
/**
 * The name of the job format whose files a text of `len` bytes looks like,
 * judged cheaply from the text alone, or NULL. jobfix's own spec is known by
 * its file name, not its text (discover.c).
 */
const char *jf_job_sniff(const char *text, size_t len);
/** The same for the first JF_JOB_SNIFF_BYTES of the regular file at `path`; NULL for others. */
const char *jf_job_sniff_file(const char *path);
#define JF_JOB_SNIFF_BYTES 65536
/** Frees the job and the sources it still owns; NULL is a no-op. */
void jf_job_free(jf_job *self);
/** Moves the sources the job owns to the end of `into`: findings point into them. */
void jf_job_keep_sources(jf_job *self, jf_sources *into);

/** The variable `name` the job sets, or NULL. */
const jf_job_var *jf_job_env(const jf_job *self, const char *name);
/** The container folder where the command starts: workdir, or JF_CODE_ROOT. */
const char *jf_job_workdir(const jf_job *self);
/** The mount of `mounts` that container path `cpath` lies under, or NULL. */
const jf_job_mount *jf_job_mount_of(const jf_job_mounts *mounts, const char *cpath);

#endif
