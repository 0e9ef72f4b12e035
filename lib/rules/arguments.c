/* arguments.c - JF302-JF309 and JF305's hook: what the launch passes against what the entry script accepts
 *
 * For each Python entry script the command runs, its command line (the
 * model of python/cmdline.h, read by the reader of its library) is checked
 * against every invocation (its words as the shell gives them, "$@" from the
 * job spec included), read token by token as its library reads them
 * (jf_cmdline_next_token()), and against the script's own uses of the
 * parsed values (`args.X`, `FLAGS.x`).
 *
 * Precision first: an open command line (python/cmdline.h) gives no finding
 * about flags; parse_known_args() tolerates unknown flags. A word whose value
 * is known only at run time makes the rest of the invocation partial:
 * required arguments and positionals are then not checked.
 */
#include <ctype.h>
#include <stdlib.h>

#include "env/hf_arguments.h"
#include "python/cmdline.h"
#include "rules/checks.h"
#include "rules/versions.h"

static const char *nearest_option(const jf_cmdline *c, const char *name)
{
	const char *best = NULL;
	size_t best_d = strlen(name) / 3 + 2;
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++) {
			const char *opt = c->args.items[i].options.items[k];
			size_t d = jf_edit_distance(name, opt, best_d);
			/* --lr-rate for --lr_rate: separators count as the same */
			char *a = jf_xstrdup(name), *b = jf_xstrdup(opt);
			for (char *p = a; *p; p++)
				*p = *p == '-' && p > a + 1 ? '_' : *p;
			for (char *p = b; *p; p++)
				*p = *p == '-' && p > b + 1 ? '_' : *p;
			if (!strcmp(a, b))
				d = 0;
			free(a);
			free(b);
			if (d < best_d) {
				best = opt;
				best_d = d;
			}
		}
	return best;
}

static bool valid_int(const char *s)
{
	const char *p = s + (*s == '-' || *s == '+');
	if (!isdigit((unsigned char)*p))
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p) && !(*p == '_' && isdigit((unsigned char)p[1])))
			return false;
	return true;
}

static bool valid_float(const char *s)
{
	static const char *const words[] = { "inf", "-inf", "+inf", "nan", "infinity", "-infinity",
		                             NULL };
	char low[32];
	size_t n = strlen(s);
	if (n < sizeof low) {
		for (size_t i = 0; i <= n; i++)
			low[i] = (char)tolower((unsigned char)s[i]);
		if (jf_str_in(low, words))
			return true;
	}
	char *end;
	if (!*s || isspace((unsigned char)*s) || strchr(s, 'x') || strchr(s, 'X'))
		return false;
	strtod(s, &end);
	return *end == '\0';
}

/* Whether `s` is a word transformers' string_to_bool takes (any case). */
static bool bool_word(const char *s)
{
	static const char *const words[] = { "yes", "true", "t", "y", "1", "no", "false", "f", "n",
		                             "0", NULL };
	char low[8];
	size_t n = strlen(s);
	if (n >= sizeof low)
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	return jf_str_in(low, words);
}

/* Checks one value given to `d`; reports JF304 when argparse would reject it. */
static void check_value(jf_rule_ctx *ctx, const jf_argdef *d, const char *opt, const jf_word *w,
                        const char *value)
{
	static const char *const falsy[] = { "False", "false", "0", "no", "No", "off", "FALSE", NULL };
	const char *entry = d->unit->src->path;
	jf_diag *diag = NULL;
	if (d->type == TYPE_INT && !valid_int(value))
		diag = jf_sink_add(ctx->out, JF304, w->src, w->span,
		                        "'%s' is not an int: %s in %s takes int values", value, opt, entry);
	else if (d->type == TYPE_FLOAT && !valid_float(value))
		diag = jf_sink_add(ctx->out, JF304, w->src, w->span,
		                        "'%s' is not a float: %s in %s takes float values", value, opt,
		                        entry);
	else if (d->type == TYPE_BOOL && jf_str_in(value, falsy)) {
		diag = jf_sink_add(ctx->out, JF304, w->src, w->span,
		                        "'%s' turns %s on: it is declared with type=bool, and bool('%s') "
		                        "is True",
		                        value, opt, value);
		jf_diag_set_help(diag, "declare %s with action='store_true' and leave it out to turn "
		                       "it off",
		                 opt);
	}
	else if (d->type == TYPE_BOOL_WORD && !bool_word(value))
		diag = jf_sink_add(ctx->out, JF304, w->src, w->span,
		                   "'%s' is not a boolean: %s in %s takes yes/no, true/false, t/f, y/n "
		                   "or 1/0",
		                   value, opt, entry);
	else if (d->choices_known && (d->type == TYPE_STR || d->type == TYPE_INT)) {
		bool ok = false;
		for (size_t i = 0; i < d->choices.size && !ok; i++)
			ok = d->type == TYPE_INT && valid_int(value) && valid_int(d->choices.items[i])
			             ? strtol(value, NULL, 10) == strtol(d->choices.items[i], NULL, 10)
			             : !strcmp(value, d->choices.items[i]);
		if (!ok) {
			jf_buf list = JF_BUF_INIT;
			for (size_t i = 0; i < d->choices.size; i++)
				jf_buf_addf(&list, "%s'%s'", i ? ", " : "", d->choices.items[i]);
			diag = jf_sink_add(ctx->out, JF304, w->src, w->span,
			                        "invalid choice '%s' for %s (choose from %s)", value, opt,
			                        list.buf);
			jf_buf_release(&list);
		}
	}
	if (diag)
		jf_diag_relate(diag, d->unit->src, d->span, "%s is defined here", opt);
	if (diag && d->choices_unit)
		jf_diag_relate(diag, d->choices_unit->src, d->choices_at,
		               "the script stops here on any other value");
}

/* Whether the invocation's launcher adds a local rank flag to the script's
 * words: deepspeed, torch.distributed.launch without --use_env (or with an
 * option not known). */
static bool launcher_adds_local_rank(const jf_invocation *inv)
{
	if (strcmp(inv->launcher, "deepspeed") && strcmp(inv->launcher, "torch.distributed.launch"))
		return false;
	for (size_t i = 0; i < inv->launcher_args.size; i++) {
		const char *v = inv->launcher_args.items[i].value;
		if (!v || !strcmp(v, "--use_env") || !strcmp(v, "--use-env") ||
		    !strcmp(v, "--no_local_rank"))
			return false;
	}
	return true;
}

/* An invocation as the checks read it, token by token. */
typedef struct {
	jf_rule_ctx *ctx;
	const jf_cmdline *c;
	const jf_invocation *inv;
	const char *entry;
	bool *seen;   /* per argument of `c`: the invocation passes it */
	/* A word known only at run time, or values that are the script's own:
	 * what is required and which word is which positional are not known. */
	bool partial;
	JF_ARRAY(const jf_word *) positionals;
} invocation;

static void invocation_init(invocation *iv, jf_rule_ctx *ctx, const jf_cmdline *c,
                            const jf_invocation *inv)
{
	*iv = (invocation){ .ctx = ctx, .c = c, .inv = inv, .entry = inv->entry->src->path,
		            .seen = jf_xcalloc(c->args.size + 1, sizeof(bool)) };
}

static void invocation_release(invocation *iv)
{
	free(iv->seen);
	jf_array_release(&iv->positionals);
}

/* A field of a library dataclass found in other releases. */
typedef struct {
	const char *name;
	const char *since, *until; /* the first and last range holding it */
} release_span;

static void find_release_span(void *data, const jf_hf_field *f)
{
	release_span *r = data;
	if (strcmp(f->name, r->name))
		return;
	if (!r->since)
		r->since = f->since;
	r->until = f->until;
}

/* When `flag` is a field of the line's library dataclasses in other
 * releases than the job's, a note that says which. */
static void relate_other_releases(jf_diag *diag, const jf_cmdline *c, const char *flag)
{
	if (!c->library_version || !jf_str_starts(flag, "--"))
		return;
	char *name = jf_xstrdup(flag + 2);
	for (char *p = name; *p; p++)
		*p = *p == '-' ? '_' : *p;
	for (size_t i = 0; i < c->library.size; i++) {
		release_span r = { name, NULL, NULL };
		jf_hf_fields(c->library.items[i], NULL, find_release_span, &r);
		if (!r.since)
			continue;
		if (r.until)
			jf_diag_relate(diag, c->unit->src, c->span,
			               "transformers' %s has '%s' from %s until %s; the job's transformers "
			               "is %s",
			               c->library.items[i], name, r.since, r.until, c->library_version);
		else
			jf_diag_relate(diag, c->unit->src, c->span,
			               "transformers' %s has '%s' from %s; the job's transformers is %s",
			               c->library.items[i], name, r.since, c->library_version);
		break;
	}
	free(name);
}

/* argparse: a flag no argument defines. */
static void on_unknown(invocation *iv, const jf_token *t)
{
	const jf_cmdline *c = iv->c;
	if (c->tolerant) {
		jf_sink_skip(iv->ctx->out, JF302, "%s parses its command line with %s: flags its "
		                                  "parser does not define ('%s') are not checked",
		             iv->entry, c->tolerant, t->name);
		return;
	}
	jf_diag *diag;
	if (t->ambiguous) {
		diag = jf_sink_add(iv->ctx->out, JF302, t->word->src, t->word->span,
		                   "ambiguous flag '%s' for %s: it abbreviates more than one of its "
		                   "options",
		                   t->name, iv->entry);
	} else {
		diag = jf_sink_add(iv->ctx->out, JF302, t->word->src, t->word->span,
		                   "%s does not accept the flag '%s'", iv->entry, t->name);
		const char *near = nearest_option(c, t->name);
		if (near)
			jf_diag_set_help(diag, "did you mean '%s'?", near);
	}
	jf_diag_relate(diag, c->unit->src, c->span, "the argument parser of %s", iv->entry);
	relate_other_releases(diag, c, t->name);
}

/* "%s is defined here" beside finding `diag` about option `name` of `d`. */
static void relate_definition(jf_diag *diag, const jf_argdef *d, const char *name)
{
	jf_diag_relate(diag, d->unit->src, d->span, "%s is defined here", name);
}

/* argparse: an option an argument defines, with the values the reader gave it. */
static void on_option(invocation *iv, const jf_token *t)
{
	jf_rule_ctx *ctx = iv->ctx;
	const jf_argdef *d = t->def;
	iv->seen[d - iv->c->args.items] = true;
	if (t->cluster)
		return;
	if (d->act == ACT_FLAG && (!strcmp(t->name, "--help") || !strcmp(t->name, "--version")))
		iv->partial = true; /* help and version exit before anything is required */
	if (d->act == ACT_CUSTOM) {
		iv->partial = true; /* its own Action: its values are its own */
	} else if (d->act == ACT_FLAG) {
		if (t->value)
			relate_definition(jf_sink_add(ctx->out, JF304, t->word->src, t->word->span,
			                              "%s takes no value, but is given '%s'", t->name,
			                              t->value),
			                  d, t->name);
	} else if (d->nargs == NARGS_REMAINDER) {
		/* it takes the rest of the words, whatever they are */
	} else if (t->value) {
		check_value(ctx, d, t->name, t->word, t->value);
	} else {
		for (size_t k = 0; k < t->nvalues; k++) {
			const jf_word *v = &t->values[k];
			if (v->value)
				check_value(ctx, d, t->name, v, v->value);
			else
				iv->partial = true;
		}
		size_t want = d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
		bool needs = d->nargs == NARGS_ONE || d->nargs == NARGS_COUNT || d->nargs == NARGS_SOME;
		if (needs && t->nvalues < (d->nargs == NARGS_SOME ? 1 : want) && !iv->partial)
			relate_definition(jf_sink_add(ctx->out, JF304, t->word->src, t->word->span,
			                              "%s expects %s, but none follows", t->name,
			                              want > 1 ? "several values" : "a value"),
			                  d, t->name);
	}
}

/* argparse: the positionals the words filled, then what the invocation never
 * passes; only when every word is known. */
static void check_positionals_and_required(invocation *iv)
{
	jf_rule_ctx *ctx = iv->ctx;
	const jf_cmdline *c = iv->c;
	size_t p = 0, given = iv->positionals.size;
	bool rest = false;
	for (size_t k = 0; k < c->args.size && !iv->partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (d->options.size)
			continue;
		if (d->nargs == NARGS_ANY || d->nargs == NARGS_SOME || d->nargs == NARGS_REMAINDER) {
			iv->seen[k] = p < given || d->nargs != NARGS_SOME;
			rest = true;
			p = given;
		} else {
			size_t n = d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
			iv->seen[k] = p + n <= given || d->nargs == NARGS_OPTIONAL;
			p += p < given ? (n < given - p ? n : given - p) : 0;
		}
	}
	if (!iv->partial && !c->tolerant && !rest)
		for (; p < given; p++) {
			const jf_word *word = iv->positionals.items[p];
			jf_diag_relate(jf_sink_add(ctx->out, JF302, word->src, word->span,
			                           "%s takes no positional argument '%s' here", iv->entry,
			                           word->value),
			               c->unit->src, c->span, "the argument parser of %s", iv->entry);
		}
	bool rank_added = launcher_adds_local_rank(iv->inv);
	for (size_t k = 0; k < c->args.size && !iv->partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (!d->required || iv->seen[k] || d->conditional)
			continue; /* defined only sometimes: maybe not where it runs */
		bool rank = false;
		for (size_t m = 0; m < d->options.size; m++)
			rank |= !strcmp(d->options.items[m], "--local_rank") ||
			        !strcmp(d->options.items[m], "--local-rank");
		if (rank && rank_added)
			continue; /* the launcher passes it */
		const char *what = jf_argdef_name(d);
		jf_diag *diag = jf_sink_add(ctx->out, JF303, iv->inv->script.src, iv->inv->script.span,
		                            "%s requires '%s', which this invocation does not pass",
		                            iv->entry, what);
		jf_diag_relate(diag, d->unit->src, d->span, "'%s' is defined here as required", what);
	}
}

/* Reads an invocation's words like argparse (or click); reports what it would reject. */
static void check_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	invocation iv;
	invocation_init(&iv, ctx, c, inv);
	jf_token_reader r;
	jf_token t;
	jf_token_reader_init(&r, c, &inv->args);
	while (jf_cmdline_next_token(&r, &t)) {
		switch (t.kind) {
		case JF_TOKEN_RUNTIME:
			iv.partial = true;
			break;
		case JF_TOKEN_POSITIONAL:
			jf_array_push(&iv.positionals, t.word);
			break;
		case JF_TOKEN_UNKNOWN:
			on_unknown(&iv, &t);
			break;
		case JF_TOKEN_OPTION:
			on_option(&iv, &t);
			break;
		case JF_TOKEN_BUILTIN:
			break;
		}
	}
	jf_token_reader_release(&r);
	check_positionals_and_required(&iv);
	invocation_release(&iv);
}

/* Reading an invocation the way absl does */

/* absl reads an int with int(s, base): base 16 after "0x", 8 after "0o". */
static bool absl_radix_int(const char *s)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'o') || !s[2])
		return false;
	const char *digits = s[1] == 'x' ? "0123456789abcdefABCDEF_" : "01234567_";
	return strspn(s + 2, digits) == strlen(s + 2);
}

static bool absl_bool_value(const char *s)
{
	static const char *const words[] = { "true", "t", "1", "false", "f", "0", NULL };
	char low[8];
	size_t n = strlen(s);
	if (n >= sizeof low)
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	return jf_str_in(low, words);
}

static void relate_flags(jf_diag *diag, const jf_cmdline *c, const char *entry)
{
	jf_diag_relate(diag, c->unit->src, c->span, "%s parses its flags here", entry);
}

/* A flag absl does not know: an error under app.run, dropped by tf.app.run. */
static void report_unknown_flag(jf_rule_ctx *ctx, const jf_cmdline *c, const char *entry,
                                const jf_word *word, const char *written, const char *name)
{
	jf_diag *diag;
	if (c->unknown == JF_UNKNOWN_DROPPED)
		diag = jf_sink_add(ctx->out, JF308, word->src, word->span,
		                        "%s drops the unknown flag '%s' (tf.app.run ignores flags it "
		                        "does not define): the run uses the default",
		                        entry, written);
	else
		diag = jf_sink_add(ctx->out, JF302, word->src, word->span,
		                        "%s does not accept the flag '%s'", entry, written);
	relate_flags(diag, c, entry);
	char *dashed = jf_xasprintf("--%s", name);
	const char *near = nearest_option(c, dashed);
	const jf_argdef *valued = NULL;
	if (jf_str_starts(name, "no") && name[2]) {
		dashed[2] = dashed[3] = '-';
		valued = jf_cmdline_find_option(c, dashed + 2);
	}
	if (valued) /* --nolr for a flag that is no boolean */
		jf_diag_set_help(diag, "only a boolean flag is turned off with '--no...': give %s a "
		                       "value instead",
		                 valued->options.items[0]);
	else if (near)
		jf_diag_set_help(diag, "did you mean '%s'?", near);
	free(dashed);
}

/* absl: an option a flag defines, with its value. */
static void on_absl_option(invocation *iv, const jf_token *t)
{
	jf_rule_ctx *ctx = iv->ctx;
	const jf_argdef *d = t->def;
	iv->seen[d - iv->c->args.items] = true;
	if (t->negated) {
		if (t->value)
			relate_definition(jf_sink_add(ctx->out, JF304, t->word->src, t->word->span,
			                              "%s takes no value, but is given '%s'", t->name,
			                              t->value),
			                  d, d->options.items[0]);
	} else if (d->act == ACT_FLAG) {
		if (t->value && !absl_bool_value(t->value))
			relate_definition(jf_sink_add(ctx->out, JF304, t->word->src, t->word->span,
			                              "'%s' is not a boolean: %s in %s takes true or false "
			                              "(or 1, 0)",
			                              t->value, t->name, iv->entry),
			                  d, t->name);
	} else if (t->truncated) {
		relate_definition(jf_sink_add(ctx->out, JF304, t->word->src, t->word->span,
		                              "%s expects a value, but none follows", t->name),
		                  d, t->name);
	} else {
		const jf_word *vw = t->value ? t->word : &t->values[0];
		const char *value = t->value ? t->value : vw->value;
		if (value && !(d->type == TYPE_INT && absl_radix_int(value)))
			check_value(ctx, d, t->name, vw, value);
	}
}

/* Reads an invocation's words like absl's FlagValues; reports what it rejects or drops. */
static void check_absl_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	invocation iv;
	invocation_init(&iv, ctx, c, inv);
	for (size_t i = 0; i < inv->args.size; i++)
		iv.partial |= !inv->args.items[i].value;
	jf_token_reader r;
	jf_token t;
	jf_token_reader_init(&r, c, &inv->args);
	iv.partial |= r.flagfile; /* the file may pass anything */
	while (jf_cmdline_next_token(&r, &t)) {
		if (t.kind == JF_TOKEN_UNKNOWN)
			report_unknown_flag(ctx, c, iv.entry, t.word, t.name, t.bare);
		else if (t.kind == JF_TOKEN_OPTION)
			on_absl_option(&iv, &t);
	}
	jf_token_reader_release(&r);
	for (size_t k = 0; k < c->args.size && !iv.partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (!d->required || iv.seen[k])
			continue;
		jf_diag *diag = jf_sink_add(ctx->out, JF303, inv->script.src, inv->script.span,
		                                 "%s requires the flag '--%s', which this invocation "
		                                 "does not pass",
		                                 iv.entry, d->dest);
		jf_diag_relate(diag, d->unit->src, d->span, "'--%s' is defined here", d->dest);
	}
	invocation_release(&iv);
}

/* Reads an invocation's words as python-fire does; reports what it would reject. */
static void check_fire_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	invocation iv;
	invocation_init(&iv, ctx, c, inv);
	size_t positionals = 0;
	jf_token_reader r;
	jf_token t;
	jf_token_reader_init(&r, c, &inv->args);
	while (jf_cmdline_next_token(&r, &t)) {
		if (t.kind == JF_TOKEN_RUNTIME)
			iv.partial = true;
		else if (t.kind == JF_TOKEN_POSITIONAL)
			positionals++;
		else if (t.kind == JF_TOKEN_UNKNOWN)
			on_unknown(&iv, &t);
		else if (t.kind == JF_TOKEN_OPTION)
			iv.seen[t.def - c->args.items] = true;
	}
	jf_token_reader_release(&r);
	/* the words that are no flag fill the parameters not given, in order */
	for (size_t k = 0; k < c->args.size && !iv.partial; k++)
		if (!iv.seen[k] && c->args.items[k].also_positional && positionals) {
			iv.seen[k] = true;
			positionals--;
		}
	for (size_t k = 0; k < c->args.size && !iv.partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (!d->required || iv.seen[k])
			continue;
		const char *what = jf_argdef_name(d);
		jf_diag *diag = jf_sink_add(ctx->out, JF303, inv->script.src, inv->script.span,
		                            "%s requires '%s', which this invocation does not pass",
		                            iv.entry, what);
		jf_diag_relate(diag, d->unit->src, d->span, "'%s' is defined here as required", what);
	}
	invocation_release(&iv);
}

/* An invocation of a script with subcommands: the main parser's options, the
 * command word, then that command's own arguments. */
static void check_command_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	const jf_words *w = &inv->args;
	jf_cmdline main = jf_cmdline_view(c, JF_CMDLINE_MAIN);
	size_t at = w->size;
	bool known = true;
	jf_token_reader r;
	jf_token t;
	jf_token_reader_init(&r, &main, w);
	while (known && jf_cmdline_next_token(&r, &t)) {
		if (t.kind == JF_TOKEN_POSITIONAL || t.kind == JF_TOKEN_RUNTIME) {
			at = (size_t)(t.word - w->items);
			break;
		}
		/* where its values end, and the command word is, is not known */
		known = !(t.kind == JF_TOKEN_OPTION && t.def->act == ACT_CUSTOM);
	}
	jf_token_reader_release(&r);
	jf_invocation part = *inv;
	part.args = (jf_words){ w->items, at, 0 };
	if (known)
		check_invocation(ctx, &main, &part);
	jf_cmdline_view_release(&main);
	if (!known || at >= w->size || !w->items[at].value)
		return; /* no command given, or one known only at run time */
	const jf_word *word = &w->items[at];
	int command = -1;
	for (size_t i = 0; i < c->commands.size && command < 0; i++)
		if (!strcmp(c->commands.items[i], word->value))
			command = c->command_of.items[i];
	if (command < 0) {
		jf_buf names = JF_BUF_INIT;
		for (size_t i = 0; i < c->commands.size; i++)
			jf_buf_addf(&names, "%s'%s'", i ? ", " : "", c->commands.items[i]);
		jf_diag *d = jf_sink_add(ctx->out, JF302, word->src, word->span,
		                              "'%s' is not a command of %s (choose from %s)", word->value,
		                              inv->entry->src->path, names.buf);
		jf_diag_relate(d, c->unit->src, c->span, "the argument parser of %s",
		               inv->entry->src->path);
		const char *near = NULL;
		size_t best = strlen(word->value) / 3 + 2;
		for (size_t i = 0; i < c->commands.size; i++) {
			const char *name = c->commands.items[i];
			size_t dist = jf_edit_distance(word->value, name, best);
			if (dist < best || (!near && (jf_str_starts(name, word->value) ||
			                              jf_str_starts(word->value, name)))) {
				best = dist < best ? dist : best;
				near = name;
			}
		}
		if (near)
			jf_diag_set_help(d, "did you mean '%s'?", near);
		jf_buf_release(&names);
		return;
	}
	jf_cmdline cmd = jf_cmdline_view(c, command);
	part.args = (jf_words){ w->items + at + 1, w->size - at - 1, 0 };
	check_invocation(ctx, &cmd, &part);
	jf_cmdline_view_release(&cmd);
}

/* The flag a launcher adds itself, when the script does not define it. */
static void check_launcher_flags(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	const char *entry = inv->entry->src->path;
	bool deepspeed = !strcmp(inv->launcher, "deepspeed");
	if (!launcher_adds_local_rank(inv) || c->tolerant)
		return; /* parse_known_args leaves the flag for the script to ignore */
	/* torch.distributed.launch of torch 2.0 and later passes --local-rank,
	 * before --local_rank: with the image's torch known, only that one helps. */
	const jf_image *img = ctx->facts->image;
	const char *torch = NULL;
	if (!deepspeed && jf_image_has_package(img, "torch", &torch) == JF_YES && strcmp(torch, "*")) {
		long major = strtol(torch, NULL, 10);
		const char *passed = major >= 2 ? "--local-rank" : "--local_rank";
		if (!jf_cmdline_find_option(c, passed)) {
			jf_diag *d = jf_sink_add(ctx->out, JF302, inv->script.src, inv->script.span,
			                              "torch.distributed.launch of torch %s passes '%s' to "
			                              "%s, which does not accept it",
			                              torch, passed, entry);
			jf_diag_relate(d, c->unit->src, c->span, "the argument parser of %s", entry);
			jf_image_relate(d, img, JF_FACT_PACKAGES, "torch %s", torch);
			jf_diag_set_help(d, "add '%s' to the option strings of the local rank argument, "
			                    "or use torchrun (it sets LOCAL_RANK instead)",
			                 passed);
		}
		return;
	}
	if (jf_cmdline_find_option(c, "--local_rank") || jf_cmdline_find_option(c, "--local-rank"))
		return;
	jf_diag *d = jf_sink_add(ctx->out, JF302, inv->script.src, inv->script.span,
		deepspeed ? "deepspeed passes '--local_rank' to %s, which does not accept it"
		          : "torch.distributed.launch passes '--local_rank' ('--local-rank' since torch "
		            "2.0) to %s, which does not accept it",
		entry);
	jf_diag_relate(d, c->unit->src, c->span, "the argument parser of %s", entry);
	jf_diag_set_help(d, deepspeed ? "add parser.add_argument('--local_rank', type=int), or pass "
	                                "--no_local_rank to deepspeed"
	                              : "add parser.add_argument('--local_rank', '--local-rank', "
	                                "type=int), or use torchrun (it sets LOCAL_RANK instead)");
}

/* JF306: an option string defined twice (argparse refuses at start-up). */
static void check_duplicates(jf_rule_ctx *ctx, const jf_cmdline *c)
{
	if (c->parsers != 1)
		return; /* several parsers: which one an option belongs to is not known */
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++)
			for (size_t j = 0; j < i; j++)
				for (size_t m = 0; m < c->args.items[j].options.size; m++) {
					const char *o = c->args.items[i].options.items[k];
					if (strcmp(o, c->args.items[j].options.items[m]) ||
					    c->args.items[i].command != c->args.items[j].command)
						continue;
					const jf_argdef *d = &c->args.items[i], *first = &c->args.items[j];
					if (d->conditional || first->conditional)
						continue; /* defined only sometimes: in an if and its else */
					jf_diag *diag = jf_sink_add(ctx->out, JF306, d->unit->src, d->span,
						"option string '%s' is defined twice: argparse fails at start-up with "
						"\"conflicting option string: %s\"",
						o, o);
					jf_diag_relate(diag, first->unit->src, first->span,
					               "'%s' is first defined here", o);
				}
}

/* JF307: args.X where no argument has dest X */

/* Whether `body` (not counting nested functions and classes) changes the
 * namespace's attributes in ways jobfix does not follow. */
static bool namespace_escapes(const jf_file *unit, TSNode body, const char *name)
{
	const char *text = unit->src->data + ts_node_start_byte(body);
	size_t len = ts_node_end_byte(body) - ts_node_start_byte(body);
	char *copy = jf_xstrndup(text, len);
	char setattr_pat[96], dict_pat[96], vars_pat[96];
	snprintf(setattr_pat, sizeof setattr_pat, "setattr(%s", name);
	snprintf(dict_pat, sizeof dict_pat, "%s.__dict__", name);
	snprintf(vars_pat, sizeof vars_pat, "vars(%s)", name);
	bool escapes = strstr(copy, setattr_pat) || strstr(copy, dict_pat) || strstr(copy, vars_pat);
	free(copy);
	return escapes;
}

typedef struct {
	jf_rule_ctx *ctx;
	const jf_cmdline *c;
	const jf_file *unit;
	const jf_pyfacts *py;
	const char *name;
	jf_strings assigned; /* attributes the code sets itself: args.x = ... */
	bool flags; /* absl's FLAGS: a global, with methods and absl's own flags */
	/* An instance of this dataclass (HfArgumentParser), not the parser's namespace. */
	const struct jf_cmdline_dataclass *dc;
} attr_walk;

/* Whether some run of `entry` may pass one of `d`'s option strings: true
 * unless every run is known word for word and none passes it. */
static bool may_be_passed(const jf_rule_ctx *ctx, const jf_file *entry, const jf_argdef *d)
{
	if (!d->options.size)
		return true; /* a positional */
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		if (inv->entry != entry)
			continue;
		for (size_t k = 0; k < inv->args.size; k++) {
			const char *w = inv->args.items[k].value;
			if (!w)
				return true;
			for (size_t o = 0; o < d->options.size; o++)
				if (jf_word_passes(w, d->options.items[o]))
					return true;
		}
	}
	return false;
}

static bool is_number_literal(TSNode n)
{
	if (jf_node_type_is(n, JF_T_unary_operator))
		n = jf_node_field(n, JF_F_argument);
	return jf_node_type_is(n, JF_T_integer) || jf_node_type_is(n, JF_T_float);
}

/*
 * JF309: `m` (args.X of an argument without type=, so a str when passed) where
 * a str fails: arithmetic or an ordering comparison with a number, a range()
 * bound. Returns what fails ("range()", "'/'"), or NULL.
 */
static const char *str_fails_in(const jf_file *unit, TSNode m)
{
	static const char *const arith[] = { "+", "-", "/", "//", "%", "**", NULL };
	static const char *const order[] = { "<", ">", "<=", ">=", NULL };
	TSNode p = ts_node_parent(m);
	if (jf_node_type_is(p, JF_T_binary_operator)) {
		TSNode left = jf_node_field(p, JF_F_left), right = jf_node_field(p, JF_F_right);
		TSNode other = ts_node_eq(left, m) ? right : left;
		TSNode op = jf_node_field(p, JF_F_operator);
		const char *o = unit->src->data + ts_node_start_byte(op);
		size_t n = ts_node_end_byte(op) - ts_node_start_byte(op);
		if (!is_number_literal(other))
			return NULL;
		if (jf_strn_in(o, n, arith))
			return "arithmetic with a number";
		if (n == 1 && *o == '*' && jf_node_type_is(other, JF_T_float))
			return "arithmetic with a number";
		return NULL;
	}
	if (jf_node_type_is(p, JF_T_comparison_operator) && ts_node_named_child_count(p) == 2) {
		TSNode other = ts_node_eq(ts_node_named_child(p, 0), m) ? ts_node_named_child(p, 1)
		                                                          : ts_node_named_child(p, 0);
		for (uint32_t i = 0; i < ts_node_child_count(p); i++) {
			TSNode op = ts_node_child(p, i);
			if (!ts_node_is_named(op) && is_number_literal(other)) {
				char *t = jf_node_text(unit, op);
				bool ordering = jf_str_in(t, order);
				free(t);
				if (ordering)
					return "an ordering comparison with a number";
			}
		}
		return NULL;
	}
	if (jf_node_type_is(p, JF_T_argument_list)) {
		TSNode call = ts_node_parent(p);
		TSNode fn = jf_node_field(call, JF_F_function);
		if (jf_node_type_is(fn, JF_T_identifier) && jf_node_is(unit, fn, "range"))
			return "range()";
	}
	return NULL;
}

/* Visits the attribute uses `name.attr` in `body`, skipping nested
 * definitions and lambdas (except for FLAGS, which every function reads). */
static void visit_attributes(attr_walk *aw, TSNode body, bool report)
{
	const jf_pyfacts *py = aw->py;
	uint32_t scope = jf_pyfacts_scope_of(py, body), end = ts_node_end_byte(body);
	for (size_t k = jf_pyfacts_first_at(py, JF_PY_ATTRIBUTE, ts_node_start_byte(body));
	     k < py->of_kind[JF_PY_ATTRIBUTE].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ATTRIBUTE, k);
		TSNode m = pn->node;
		if (ts_node_start_byte(m) >= end)
			break;
		if (!jf_py_within(pn, body) || (!aw->flags && pn->scope != scope) ||
		    !jf_node_type_is(pn->a, JF_T_identifier) || !jf_node_is(aw->unit, pn->a, aw->name))
			continue;
		{
			TSNode attr = pn->b;
			char *a = jf_node_text(aw->unit, attr);
			TSNode parent = ts_node_parent(m);
			bool stored = jf_node_type_is(parent, JF_T_assignment) &&
			              ts_node_eq(jf_node_field(parent, JF_F_left), m);
			bool known = (aw->dc ? jf_strings_have(&aw->dc->attrs, a) : jf_cmdline_stores(aw->c, a)) ||
			             jf_str_starts(a, "_"),
			     valued;
			if (aw->flags) /* FLAGS.is_parsed(), FLAGS.logtostderr */
				known = known || aw->c->by->builtin(a, &valued) ||
				        (jf_node_type_is(parent, JF_T_call) &&
				         ts_node_eq(jf_node_field(parent, JF_F_function), m));
			for (size_t i = 0; i < aw->assigned.size && !known; i++)
				known = !strcmp(aw->assigned.items[i], a);
			if (!report && stored) {
				jf_array_push(&aw->assigned, a);
				a = NULL;
			} else if (report && known && !stored && !aw->flags && !aw->dc) {
				const jf_argdef *d = jf_cmdline_find_dest(aw->c, a);
				const char *fails = d && d->untyped && d->act == ACT_STORE &&
				                            (d->nargs == NARGS_ONE || d->nargs == NARGS_OPTIONAL) &&
				                            may_be_passed(aw->ctx, aw->unit, d)
				                    ? str_fails_in(aw->unit, m)
				                    : NULL;
				if (fails) {
					const char *opt = d->options.size ? d->options.items[d->options.size - 1]
					                                  : d->dest;
					jf_diag *diag = jf_sink_add(aw->ctx->out, JF309, aw->unit->src, jf_node_span(m),
						"'%s.%s' is a str when %s is passed (it has no type=): %s fails with "
						"TypeError",
						aw->name, a, opt, fails);
					jf_diag_relate(diag, d->unit->src, d->span, "'%s' is defined here", opt);
				}
			} else if (report && !known && !stored) {
				char *what = aw->dc ? jf_xasprintf("field of %s", aw->dc->name)
				                    : jf_xstrdup(aw->flags ? "flag the script defines"
				                                           : "argument of the parser");
				jf_diag *d = jf_sink_add(aw->ctx->out, JF307, aw->unit->src, jf_node_span(attr),
				                              "'%s.%s' is no %s: the job fails here with "
				                              "AttributeError",
				                              aw->name, a, what);
				free(what);
				jf_diag_relate(d, aw->c->unit->src, aw->c->span,
				               aw->flags ? "%s parses its flags here"
				                         : "the argument parser of %s",
				               aw->c->unit->src->path);
				const char *best = NULL;
				size_t best_d = strlen(a) / 3 + 2;
				size_t names = aw->dc ? aw->dc->attrs.size : aw->c->args.size;
				for (size_t i = 0; i < names; i++) {
					const char *dest = aw->dc ? aw->dc->attrs.items[i] : aw->c->args.items[i].dest;
					size_t dist = jf_edit_distance(a, dest, best_d);
					if (dist < best_d || (!best && (jf_str_starts(dest, a) ||
					                                jf_str_starts(a, dest)))) {
						best_d = dist < best_d ? dist : best_d;
						best = dest;
					}
				}
				if (best)
					jf_diag_set_help(d, "did you mean '%s.%s'?", aw->name, best);
				else if (aw->flags)
					jf_diag_set_help(d, "define the flag with flags.DEFINE_*, or correct "
					                    "the name");
			}
			free(a);
		}
	}
}

/* Functions a namespace is passed to are followed this deep. */
#define MAX_NAMESPACE_CALLS 2

static void check_uses_of(jf_rule_ctx *ctx, const jf_cmdline *c,
                          const struct jf_cmdline_dataclass *dc, const jf_pyfacts *py,
                          TSNode body, const char *name, int depth);

/* The one top-level `def fn` among the job's Python files, or a null node. */
static TSNode find_function(const jf_rule_ctx *ctx, const char *fn, const jf_file **where)
{
	TSNode found = { 0 };
	int count = 0;
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		if (!jf_python_mentions(u, fn))
			continue;
		jf_children kids;
		TSTree *tree = jf_facts_tree(ctx->facts, u);
		if (!tree)
			continue;
		for (TSNode def = jf_children_start(&kids, ts_tree_root_node(tree));
		     !ts_node_is_null(def); def = jf_children_next(&kids)) {
			if (jf_node_type_is(def, JF_T_decorated_definition))
				def = jf_node_field(def, JF_F_definition);
			if (jf_node_type_is(def, JF_T_function_definition) &&
			    jf_node_is(u, jf_node_field(def, JF_F_name), fn)) {
				found = def;
				*where = u;
				count++;
			}
		}
		jf_children_release(&kids);
	}
	return count == 1 ? found : (TSNode){ 0 };
}

/* The name of parameter `index` (or the one called `keyword`) of `def`, or NULL. */
static char *parameter(const jf_file *unit, TSNode def, int index, const char *keyword)
{
	TSNode params = jf_node_field(def, JF_F_parameters);
	int pos = 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
		TSNode p = ts_node_named_child(params, i);
		TSNode id = jf_node_type_is(p, JF_T_identifier) ? p : jf_node_field(p, JF_F_name);
		if (!jf_node_type_is(id, JF_T_identifier))
			return NULL; /* *args, **kwargs, a bare *: positions are no longer plain */
		if (keyword ? jf_node_is(unit, id, keyword) : pos == index)
			return jf_node_text(unit, id);
		pos++;
	}
	return NULL;
}

/* Where `name` stands among the arguments of `call`: its position, or its keyword. */
static bool argument_slot(const jf_file *unit, TSNode call, const char *name, int *index,
                          char **keyword)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	int pos = 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument)) {
			if (jf_node_is(unit, jf_node_field(a, JF_F_value), name)) {
				*keyword = jf_node_text(unit, jf_node_field(a, JF_F_name));
				return true;
			}
			continue;
		}
		if (jf_node_type_is(a, JF_T_identifier) && jf_node_is(unit, a, name)) {
			*index = pos;
			*keyword = NULL;
			return true;
		}
		if (jf_node_type_is(a, JF_T_list_splat) || jf_node_type_is(a, JF_T_dictionary_splat))
			return false;
		pos++;
	}
	return false;
}

/* Whether every call of `fn` in the job passes the same name at that slot:
 * then the parameter holds the namespace wherever the function runs. Each
 * identifier `fn` is found by its text and the node there. */
static bool always_passed(const jf_rule_ctx *ctx, const char *fn, const char *name)
{
	size_t len = strlen(fn);
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		if (!len || !jf_python_mentions(u, fn))
			continue;
		bool ok = true;
		TSTree *tree = jf_facts_tree(ctx->facts, u);
		if (!tree)
			continue;
		TSNode root = ts_tree_root_node(tree);
		const char *text = u->src->data;
		for (const char *at = strstr(text, fn); ok && at; at = strstr(at + 1, fn)) {
			uint32_t a = (uint32_t)(at - text);
			TSNode n = ts_node_named_descendant_for_byte_range(root, a, a + (uint32_t)len);
			if (!jf_node_type_is(n, JF_T_identifier) || ts_node_start_byte(n) != a ||
			    ts_node_end_byte(n) != a + len)
				continue;
			TSNode p = ts_node_parent(n);
			bool is_def = jf_node_type_is(p, JF_T_function_definition);
			bool is_call = jf_node_type_is(p, JF_T_call) &&
			               ts_node_eq(jf_node_field(p, JF_F_function), n);
			int index;
			char *kw = NULL;
			if (!is_def && !jf_node_type_is(p, JF_T_import_from_statement) &&
			    !jf_node_type_is(p, JF_T_dotted_name) &&
			    (!is_call || !argument_slot(u, p, name, &index, &kw)))
				ok = false; /* called with something else, or passed around */
			free(kw);
		}
		if (!ok)
			return false;
	}
	return true;
}

/* Whether `body` assigns `name` again (then it may hold anything). */
static bool rebinds(const jf_pyfacts *py, TSNode body, const char *name)
{
	static const jf_py_kind kinds[] = { JF_PY_ASSIGNMENT, JF_PY_AUGMENTED_ASSIGNMENT, JF_PY_FOR };
	uint32_t end = ts_node_end_byte(body);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		for (size_t i = jf_pyfacts_first_at(py, kinds[k], ts_node_start_byte(body));
		     i < py->of_kind[kinds[k]].size; i++) {
			const jf_py_node *pn = jf_pyfacts_at(py, kinds[k], i);
			if (ts_node_start_byte(pn->node) >= end)
				break;
			if (jf_py_within(pn, body) &&
			    jf_node_is(py->file, jf_node_field(pn->node, JF_F_left), name))
				return true;
		}
	return false;
}

/* Follows the namespace `name` into the functions `body` passes it to: the
 * calls of `body`, not of the functions and classes defined in it. */
static void follow_calls(jf_rule_ctx *ctx, const jf_cmdline *c,
                         const struct jf_cmdline_dataclass *dc, const jf_pyfacts *py, TSNode body,
                         const char *name, int depth)
{
	const jf_file *unit = py->file;
	uint32_t def = jf_pyfacts_scope_of(py, body), end = ts_node_end_byte(body);
	for (size_t k = jf_pyfacts_first_at(py, JF_PY_CALL, ts_node_start_byte(body));
	     k < py->of_kind[JF_PY_CALL].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
		TSNode n = pn->node;
		if (ts_node_start_byte(n) >= end)
			break;
		int index = 0;
		char *kw = NULL;
		TSNode fn = jf_node_field(n, JF_F_function);
		if (pn->def == def && jf_py_within(pn, body) && jf_node_type_is(fn, JF_T_identifier) &&
		    argument_slot(unit, n, name, &index, &kw)) {
			char *fname = jf_node_text(unit, fn);
			const jf_file *where = NULL;
			TSNode fdef = find_function(ctx, fname, &where);
			char *param = ts_node_is_null(fdef) ? NULL : parameter(where, fdef, index, kw);
			TSNode fbody = jf_node_field(fdef, JF_F_body);
			const jf_pyfacts *wpy = param ? jf_facts_python(ctx->facts, where) : NULL;
			if (wpy && always_passed(ctx, fname, name) && !rebinds(wpy, fbody, param))
				check_uses_of(ctx, c, dc, wpy, fbody, param, depth + 1);
			free(param);
			free(fname);
		}
		free(kw);
	}
}

/* Checks name.attr in `body`, and in the functions `body` passes `name` to. */
/* Adds to `aw->assigned` every attribute the file stores on a name
 * (`x.attr = ...`) anywhere: a function the namespace is handed to may set it
 * before the use (`prepare_dataloaders(opt)` setting opt.src_vocab_size). */
static void add_stored_anywhere(attr_walk *aw)
{
	const jf_pyfacts *py = aw->py;
	for (size_t k = 0; k < py->of_kind[JF_PY_ATTRIBUTE].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ATTRIBUTE, k);
		TSNode parent = ts_node_parent(pn->node);
		if (!jf_node_type_is(pn->a, JF_T_identifier) || !jf_node_type_is(parent, JF_T_assignment) ||
		    !ts_node_eq(jf_node_field(parent, JF_F_left), pn->node))
			continue;
		char *a = jf_node_text(aw->unit, pn->b);
		if (jf_strings_have(&aw->assigned, a))
			free(a);
		else
			jf_array_push(&aw->assigned, a);
	}
}

static void check_uses_of(jf_rule_ctx *ctx, const jf_cmdline *c,
                          const struct jf_cmdline_dataclass *dc, const jf_pyfacts *py,
                          TSNode body, const char *name, int depth)
{
	if (namespace_escapes(py->file, body, name))
		return;
	attr_walk aw = { ctx, c, py->file, py, name, { 0 }, false, dc };
	visit_attributes(&aw, body, false); /* what the code assigns itself */
	add_stored_anywhere(&aw);
	visit_attributes(&aw, body, true);
	jf_strings_release(&aw.assigned);
	if (depth < MAX_NAMESPACE_CALLS)
		follow_calls(ctx, c, dc, py, body, name, depth);
}

/* Whether `body` is the module, or the body of a function defined at the
 * top of such a body (decorated or not): the bodies whose statements
 * check_namespace_uses() reads. */
static bool statement_body(TSNode body)
{
	for (;;) {
		if (jf_node_type_is(body, JF_T_module))
			return true;
		TSNode def = ts_node_parent(body);
		if (!jf_node_type_is(def, JF_T_function_definition))
			return false;
		body = ts_node_parent(def);
		if (jf_node_type_is(body, JF_T_decorated_definition))
			body = ts_node_parent(body);
	}
}

/* The choices of `args.X in (...)` (`cmp`, a comparison of attribute
 * `name`.X with a literal list or tuple) for X's argument, when the
 * parser gives it none; `negated` for `not in`. */
static void take_choices(jf_cmdline *c, const jf_file *unit, TSNode cmp, const char *name,
                         bool negated, TSNode at, const jf_strings *changed)
{
	TSNode attr = ts_node_named_child(cmp, 0), set = ts_node_named_child(cmp, 1);
	if (ts_node_named_child_count(cmp) != 2 || !jf_node_type_is(attr, JF_T_attribute) ||
	    !jf_node_is(unit, jf_node_field(attr, JF_F_object), name) ||
	    (!jf_node_type_is(set, JF_T_list) && !jf_node_type_is(set, JF_T_tuple)))
		return;
	uint32_t a = ts_node_end_byte(attr), b = ts_node_start_byte(set);
	char *op = jf_xstrndup(unit->src->data + a, b > a ? b - a : 0);
	bool not_in = strstr(op, "not") != NULL;
	free(op);
	if (not_in != negated)
		return;
	char *dest = jf_node_text(unit, jf_node_field(attr, JF_F_attribute));
	for (size_t i = 0; i < c->args.size && !jf_strings_have(changed, dest); i++) {
		jf_argdef *d = &c->args.items[i];
		if (!d->dest || strcmp(d->dest, dest) || d->choices_known || !d->options.size ||
		    d->act != ACT_STORE || d->nargs != NARGS_ONE)
			continue;
		jf_argdef taken = { 0 };
		jf_cmdline__read_choices(unit, set, &taken);
		if (taken.choices_known) {
			d->choices = taken.choices;
			d->choices_known = true;
			d->choices_unit = unit;
			d->choices_at = jf_node_span(at);
			memset(&taken.choices, 0, sizeof taken.choices);
		}
		jf_cmdline__def_release(&taken);
		break;
	}
	free(dest);
}

/* After `NAME = x.parse_args()` at the top of `body`: the values the
 * statements that follow it reject, `assert NAME.x in (...)` and `if NAME.x
 * not in (...): raise ...`, as choices. */
static void read_value_checks(jf_cmdline *c, const jf_file *unit, TSNode body, TSNode after,
                              const char *name)
{
	jf_strings changed = { 0 }; /* NAME.x the statements so far assign */
	for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
		TSNode st = ts_node_named_child(body, i);
		if (ts_node_start_byte(st) <= ts_node_start_byte(after))
			continue;
		TSNode as = ts_node_named_child(st, 0);
		TSNode left = jf_node_field(as, JF_F_left);
		if (jf_node_type_is(st, JF_T_assert_statement)) {
			take_choices(c, unit, ts_node_named_child(st, 0), name, false, st, &changed);
		} else if (jf_node_type_is(st, JF_T_if_statement)) {
			TSNode then = jf_node_field(st, JF_F_consequence);
			if (jf_node_type_is(ts_node_named_child(then, 0), JF_T_raise_statement) &&
			    jf_node_type_is(jf_node_field(st, JF_F_condition), JF_T_comparison_operator))
				take_choices(c, unit, jf_node_field(st, JF_F_condition), name, true, st,
				             &changed);
		} else if ((jf_node_type_is(as, JF_T_assignment) ||
		            jf_node_type_is(as, JF_T_augmented_assignment)) &&
		           jf_node_type_is(left, JF_T_attribute) &&
		           jf_node_is(unit, jf_node_field(left, JF_F_object), name)) {
			jf_array_push(&changed, jf_node_text(unit, jf_node_field(left, JF_F_attribute)));
		}
	}
	jf_strings_release(&changed);
}

/* Finds each `NAME = x.parse_args()` at the top of a body (the module, its
 * functions, theirs) and checks NAME.attr in that body. */
/* Whether `n` stands in a top-level function its file never names again. */
static bool in_unreferenced_function(const jf_file *unit, TSNode n)
{
	TSNode outer = { 0 };
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
		if (jf_node_type_is(p, JF_T_function_definition) || jf_node_type_is(p, JF_T_class_definition))
			outer = p;
	if (ts_node_is_null(outer) || !jf_node_type_is(outer, JF_T_function_definition))
		return false;
	char *name = jf_node_text(unit, jf_node_field(outer, JF_F_name));
	bool unused = jf_cmdline_unreferenced(unit->src->data, name);
	free(name);
	return unused;
}

static void check_namespace_uses(jf_rule_ctx *ctx, jf_cmdline *c, const jf_pyfacts *py)
{
	const jf_file *unit = py->file;
	for (size_t k = 0; k < py->of_kind[JF_PY_ASSIGNMENT].size; k++) {
		TSNode as = jf_pyfacts_at(py, JF_PY_ASSIGNMENT, k)->node;
		TSNode stmt = ts_node_parent(as);
		if (!jf_node_type_is(stmt, JF_T_expression_statement) ||
		    !ts_node_eq(ts_node_named_child(stmt, 0), as))
			continue;
		TSNode body = ts_node_parent(stmt);
		TSNode left = jf_node_field(as, JF_F_left), right = jf_node_field(as, JF_F_right);
		TSNode fn = jf_node_field(right, JF_F_function);
		if (!jf_node_type_is(left, JF_T_identifier) || !jf_node_type_is(right, JF_T_call) ||
		    !jf_node_type_is(fn, JF_T_attribute) ||
		    !jf_node_is(unit, jf_node_field(fn, JF_F_attribute), "parse_args") ||
		    ts_node_named_child_count(jf_node_field(right, JF_F_arguments)) > 0 ||
		    !statement_body(body))
			continue;
		if (in_unreferenced_function(unit, stmt))
			continue; /* `def main():` beside the `main_wo_bpe()` the script calls */
		char *name = jf_node_text(unit, left);
		read_value_checks(c, unit, body, stmt, name);
		check_uses_of(ctx, c, NULL, py, body, name, 0);
		free(name);
	}
}

/* `a, b = parser.parse_args_into_dataclasses()` at the top of a body: the
 * uses of each instance whose dataclass jobfix knows whole. */
static void check_dataclass_uses(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_pyfacts *py)
{
	const jf_file *unit = py->file;
	for (size_t k = 0; k < py->of_kind[JF_PY_ASSIGNMENT].size; k++) {
		TSNode as = jf_pyfacts_at(py, JF_PY_ASSIGNMENT, k)->node;
		TSNode stmt = ts_node_parent(as);
		if (!jf_node_type_is(stmt, JF_T_expression_statement) ||
		    !ts_node_eq(ts_node_named_child(stmt, 0), as))
			continue;
		/* the body of its function (or the module): the parse may stand in a
		 * branch (`else:` after a config file's parse) */
		TSNode body = ts_node_parent(stmt);
		while (!ts_node_is_null(body) && !jf_node_type_is(body, JF_T_module) &&
		       !jf_node_type_is(ts_node_parent(body), JF_T_function_definition))
			body = ts_node_parent(body);
		TSNode left = jf_node_field(as, JF_F_left), right = jf_node_field(as, JF_F_right);
		TSNode fn = jf_node_field(right, JF_F_function);
		if (ts_node_is_null(body) || !jf_node_type_is(right, JF_T_call) ||
		    !jf_node_type_is(fn, JF_T_attribute) ||
		    !jf_node_is(unit, jf_node_field(fn, JF_F_attribute), "parse_args_into_dataclasses") ||
		    ts_node_named_child_count(jf_node_field(right, JF_F_arguments)) > 0 ||
		    !statement_body(body))
			continue;
		if (!jf_node_type_is(left, JF_T_pattern_list) && !jf_node_type_is(left, JF_T_tuple_pattern))
			continue;
		uint32_t n = ts_node_named_child_count(left);
		for (uint32_t i = 0; i < n && n == c->dataclasses.size; i++) {
			TSNode var = ts_node_named_child(left, i);
			if (!c->dataclasses.items[i].whole || !jf_node_type_is(var, JF_T_identifier))
				continue;
			char *name = jf_node_text(unit, var);
			check_uses_of(ctx, c, &c->dataclasses.items[i], py, body, name, 0);
			free(name);
		}
	}
}

/* The FLAGS variable of `unit`: `NAME = flags.FLAGS` at module level, or FLAGS
 * itself when imported (from absl.flags import FLAGS); NULL when neither. */
static char *flags_var(const jf_file *unit)
{
	jf_children kids;
	char *found = NULL;
	for (TSNode stmt = jf_children_start(&kids, ts_tree_root_node(unit->tree));
	     !ts_node_is_null(stmt) && !found; stmt = jf_children_next(&kids)) {
		TSNode as = ts_node_named_child(stmt, 0);
		TSNode left = jf_node_field(as, JF_F_left), right = jf_node_field(as, JF_F_right);
		if (jf_node_type_is(stmt, JF_T_import_from_statement) &&
		    jf_node_is(unit, jf_node_field(stmt, JF_F_module_name), "absl.flags")) {
			for (uint32_t k = 0; k < ts_node_named_child_count(stmt) && !found; k++)
				if (jf_node_is(unit, ts_node_named_child(stmt, k), "FLAGS"))
					found = jf_xstrdup("FLAGS");
		}
		if (!found && jf_node_type_is(stmt, JF_T_expression_statement) &&
		    jf_node_type_is(as, JF_T_assignment) && jf_node_type_is(left, JF_T_identifier) &&
		    jf_node_type_is(right, JF_T_attribute) &&
		    jf_node_is(unit, jf_node_field(right, JF_F_attribute), "FLAGS"))
			found = jf_node_text(unit, left);
	}
	jf_children_release(&kids);
	return found;
}

/* JF307 for absl: FLAGS.x where no flag is named x. */
static void check_flags_uses(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_pyfacts *py)
{
	const jf_file *entry = py->file;
	static const char *const tricks[] = { "flag_values_dict", "__getattr__", "__setattr__",
		                              "__dict__", "setattr(", NULL };
	for (size_t i = 0; tricks[i]; i++)
		if (strstr(entry->src->data, tricks[i]))
			return;
	char *name = flags_var(entry);
	if (!name)
		return;
	TSNode root = ts_tree_root_node(jf_facts_tree(ctx->facts, entry));
	attr_walk aw = { ctx, c, entry, py, name, { 0 }, true, NULL };
	visit_attributes(&aw, root, false); /* what the code assigns itself */
	visit_attributes(&aw, root, true);
	jf_strings_release(&aw.assigned);
	free(name);
}

/* The fields of a library's dataclasses (transformers' TrainingArguments) as options */

typedef struct {
	jf_cmdline *c;
	const char *version;  /* the job's transformers, or NULL: every field of every release */
	size_t first;         /* c->args before the library's */
} library_fields;

static void add_library_field(void *data, const jf_hf_field *f)
{
	library_fields *lf = data;
	jf_cmdline *c = lf->c;
	for (size_t i = 0; i < c->args.size; i++)
		if (c->args.items[i].dest && !strcmp(c->args.items[i].dest, f->name))
			return; /* the script's own dataclass defines it again, or it is in already */
	jf_argdef d = { .command = JF_CMDLINE_MAIN, .unit = c->unit, .span = c->span,
		        .dest = jf_xstrdup(f->name), .type = TYPE_OTHER, .nargs = NARGS_ONE };
	if (f->value != JF_HF_NO)
		jf_array_push(&d.options, jf_xasprintf("--%s", f->name));
	/* --the-field-name from 4.46.0; any release when the version is not known */
	if (strchr(f->name, '_') && f->value != JF_HF_NO &&
	    (!lf->version || jf_version_cmp(lf->version, "4.46.0") >= 0)) {
		char *dashed = jf_xasprintf("--%s", f->name);
		for (char *p = dashed + 2; *p; p++)
			*p = *p == '_' ? '-' : *p;
		jf_array_push(&d.options, dashed);
	}
	bool boolean = f->value == JF_HF_BOOL || f->value == JF_HF_FLAG;
	if (f->value == JF_HF_FLAG)
		d.act = ACT_FLAG;
	d.nargs = f->nargs == '?' || (boolean && !lf->version) ? NARGS_OPTIONAL
	          : f->nargs == '+'                            ? NARGS_SOME
	                                                       : NARGS_ONE;
	if (lf->version) { /* the release's own option: its values and what it requires */
		d.type = f->value == JF_HF_STR      ? TYPE_STR
		         : f->value == JF_HF_INT    ? TYPE_INT
		         : f->value == JF_HF_FLOAT  ? TYPE_FLOAT
		         : f->value == JF_HF_BOOL   ? TYPE_BOOL_WORD
		         : f->value == JF_HF_CHOICE ? TYPE_STR
		                                    : TYPE_OTHER;
		d.required = f->required;
		for (size_t i = 0; f->value == JF_HF_CHOICE && f->choices[i]; i++)
			jf_array_push(&d.choices, jf_xstrdup(f->choices[i]));
		d.choices_known = f->value == JF_HF_CHOICE;
	}
	if (d.options.size)
		jf_array_push(&c->args, d);
	else
		jf_cmdline__def_release(&d);
	if ((f->default_true || f->value == JF_HF_NO) && f->value != JF_HF_FLAG) {
		jf_argdef no = { .command = JF_CMDLINE_MAIN, .unit = c->unit, .span = c->span,
			         .dest = jf_xstrdup(f->name), .act = ACT_FLAG, .type = TYPE_BOOL };
		jf_array_push(&no.options, jf_xasprintf("--no_%s", f->name));
		if (!lf->version || jf_version_cmp(lf->version, "4.46.0") >= 0)
			jf_array_push(&no.options, jf_xasprintf("--no-%s", f->name));
		jf_array_push(&c->args, no);
	}
}

/* Adds to `c` the fields of the library dataclasses it reads, as the job's
 * transformers has them; opens the line when the data has no such class. */
static void add_library_fields(jf_rule_ctx *ctx, jf_cmdline *c, jf_versions *versions,
                               const char *entry)
{
	const jf_dist_version *v = jf_versions_of(versions, "transformers");
	library_fields lf = { c, v->known ? v->version : NULL, c->args.size };
	for (size_t i = 0; i < c->library.size && !c->open; i++) {
		const char *cls = c->library.items[i];
		if (!jf_hf_known_class(cls)) {
			c->open = "it reads its options from a dataclass of a library jobfix has no data on";
			break;
		}
		if (lf.version && !jf_hf_fields(cls, lf.version, add_library_field, &lf)) {
			jf_sink_skip(ctx->out, JF304, "the values the job passes to %s for transformers' %s "
			                              "are not checked: jobfix's data reads releases up to "
			                              "%s, not %s",
			             entry, cls, jf_hf_newest(), lf.version);
			lf.version = NULL;
		}
		c->library_version = lf.version;
		if (!lf.version) {
			if (!v->known || !v->version)
				jf_sink_skip(ctx->out, JF304, "the values the job passes to %s for transformers' "
				                              "%s are not checked: %s",
				             entry, cls, v->why ? v->why : "the job's transformers version is a range");
			jf_hf_fields(cls, NULL, add_library_field, &lf);
		}
	}
}

/* Says what the check covers of `entry` (--coverage): its command line read,
 * in full or tolerating flags its parser does not define, or why not; a
 * script that reads none and is given no arguments has nothing to check. */
static void cover_entry(jf_rule_ctx *ctx, const jf_file *entry, const jf_cmdline *c,
                        const char *why)
{
	bool passes = false;
	for (size_t k = 0; k < ctx->facts->shell.invocations.size; k++)
		passes |= ctx->facts->shell.invocations.items[k].entry == entry &&
		          ctx->facts->shell.invocations.items[k].args.size;
	if (why) {
		jf_sink_cover_entry(ctx->out, entry->src->path,
		                    !c->ways && !passes ? JF_COVER_NOTHING : JF_COVER_NOT_CHECKED, why);
	} else if (c->tolerant) {
		char *partly = jf_xasprintf("it parses its command line with %s: flags its parser "
		                            "does not define are not checked",
		                            c->tolerant);
		jf_sink_cover_entry(ctx->out, entry->src->path, JF_COVER_PARTIAL, partly);
		free(partly);
	} else {
		jf_sink_cover_entry(ctx->out, entry->src->path, JF_COVER_CHECKED, NULL);
	}
}

void jf_check_arguments(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule; /* one pass reports JF302-JF304 and JF306-JF309 */
	jf_pyfiles files = jf_facts_pyfiles(ctx->facts);
	jf_versions *versions = NULL; /* the job's transformers, when a library dataclass asks */
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *entry = ctx->facts->ws->files.items[i];
		if (entry->role != JF_ROLE_ENTRY)
			continue;
		jf_facts_settle(ctx->facts); /* what is kept across entries is text */
		const jf_pyfacts *py = jf_facts_python(ctx->facts, entry);
		if (!py) {
			jf_sink_cover_entry(ctx->out, entry->src->path, JF_COVER_NOT_CHECKED,
			                    "jobfix could not read the script");
			continue;
		}
		jf_cmdline c;
		jf_cmdline_read(&c, &files, py);
		if (c.library.size) {
			if (!versions)
				versions = jf_versions_new(ctx->facts);
			add_library_fields(ctx, &c, versions, entry->src->path);
		}
		/* Two ways of reading the command line in one script: which wins is not known. */
		const char *why = c.ways > 1 ? "it reads its command line in more than one way"
		                  : c.open   ? c.open
		                  : !c.ways  ? "jobfix finds no parser that reads its command line"
		                             : NULL;
		cover_entry(ctx, entry, &c, why);
		for (size_t k = 0; why && k < ctx->facts->shell.invocations.size; k++)
			if (ctx->facts->shell.invocations.items[k].entry == entry &&
			    (c.ways || ctx->facts->shell.invocations.items[k].args.size)) {
				jf_sink_skip(ctx->out, JF302, "the arguments the job passes to %s are not "
				                              "checked: %s",
				             entry->src->path, why);
				break;
			}
		if (c.ways == 1 && !c.open) {
			if (c.duplicates_fail)
				check_duplicates(ctx, &c);
			if (c.result == JF_RESULT_NAMESPACE && c.parsers == 1)
				check_namespace_uses(ctx, &c, py);
			else if (c.result == JF_RESULT_DATACLASSES)
				check_dataclass_uses(ctx, &c, py);
			else if (c.result == JF_RESULT_FLAGS)
				check_flags_uses(ctx, &c, py);
			for (size_t k = 0; k < ctx->facts->shell.invocations.size; k++) {
				const jf_invocation *inv = &ctx->facts->shell.invocations.items[k];
				if (inv->entry != entry)
					continue;
				if (c.result == JF_RESULT_NAMESPACE)
					check_launcher_flags(ctx, &c, inv);
				const char *first = inv->args.size ? inv->args.items[0].value : NULL;
				if (c.config_first_word && first &&
				    (jf_str_ends(first, ".json") || jf_str_ends(first, ".yaml") ||
				     jf_str_ends(first, ".yml")))
					continue; /* a config file is read instead of flags */
				if (c.dialect == JF_DIALECT_ABSL)
					check_absl_invocation(ctx, &c, inv);
				else if (c.dialect == JF_DIALECT_FIRE)
					check_fire_invocation(ctx, &c, inv);
				else if (c.subparsers)
					check_command_invocation(ctx, &c, inv);
				else
					check_invocation(ctx, &c, inv);
			}
		}
		jf_cmdline_release(&c);
	}
	jf_versions_free(versions);
}


/* A false value as a `type=bool` option gets it: "False", "0", "no", ... (read as True). */
static bool false_value(const char *v)
{
	static const char *const falses[] = { "false", "0", "no", "n", "off", "f", NULL };
	char low[8];
	size_t n = strlen(v);
	if (n >= sizeof low)
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)v[i]);
	return jf_str_in(low, falses);
}

/* In a job: the word of an invocation that passes option `opt` (a literal
 * "--x" of the call) a false value, into *at; whether any invocation passes
 * the option at all, into *passed. */
static bool passes_false(const jf_rule_ctx *ctx, const char *opt, const jf_word **at, bool *passed)
{
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_words *w = &ctx->facts->shell.invocations.items[i].args;
		for (size_t k = 0; k < w->size; k++) {
			const char *s = w->items[k].value;
			if (!s || !jf_word_passes(s, opt))
				continue;
			*passed = true;
			const char *eq = strchr(s, '=');
			const jf_word *v = eq ? &w->items[k] : k + 1 < w->size ? &w->items[k + 1] : NULL;
			if (v && v->value && false_value(eq ? eq + 1 : v->value)) {
				*at = v;
				return true;
			}
		}
	}
	return false;
}

/* JF305: `type=bool` matters only where argparse applies the type to a
 * value: with no `action=`, or "store", "append", "extend". In a job, the
 * message says whether an invocation passes the option a false value. */
void jf_hook_bool_type(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *file, const jf_match *m)
{
	TSNode at = jf_match_get(m, "finding");
	if (ts_node_is_null(at))
		return;
	TSNode args = ts_node_parent(at);
	if (jf_cmdline_foreign_add_argument(file, ts_node_parent(args), NULL))
		return; /* a method of a class of the code's own, not argparse's */
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (!jf_node_type_is(a, JF_T_keyword_argument) ||
		    !jf_node_is(file, jf_node_field(a, JF_F_name), "action"))
			continue;
		TSNode v = jf_node_field(a, JF_F_value);
		if (!jf_node_is(file, v, "\"store\"") && !jf_node_is(file, v, "'store'") &&
		    !jf_node_is(file, v, "\"append\"") && !jf_node_is(file, v, "'append'") &&
		    !jf_node_is(file, v, "\"extend\"") && !jf_node_is(file, v, "'extend'"))
			return;
	}
	char *msg = jf_rule_message(rule, m, file);
	const jf_word *false_at = NULL;
	bool passed = false, is_false = false;
	for (uint32_t i = 0; ctx->facts->job && i < ts_node_named_child_count(args) && !is_false; i++) {
		TSNode a = ts_node_named_child(args, i);
		char *opt = jf_node_type_is(a, JF_T_string) ? jf_node_text(file, a) : NULL;
		if (opt && strlen(opt) > 3 && opt[1] == '-') {
			opt[strlen(opt) - 1] = '\0'; /* the quotes */
			is_false = passes_false(ctx, opt + 1, &false_at, &passed);
		}
		free(opt);
	}
	jf_diag *d = jf_sink_add(ctx->out, rule->info.id, file->src, jf_node_span(at), "%s%s", msg,
	                         !ctx->facts->job || is_false ? ""
	                         : passed ? "; the job passes it no false value"
	                                  : "; the job does not pass it");
	if (is_false)
		jf_diag_relate(d, false_at->src, false_at->span,
		               "the job passes '%s' here, which is read as True", false_at->value);
	free(msg);
}
