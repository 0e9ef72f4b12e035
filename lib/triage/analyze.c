/* analyze.c - what ended a failed job, read from its log */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "triage/analyze.h"
#include "triage/log.h"

#define FRAMES_MAX 64    /* per traceback: the innermost are kept */
#define RANKS_MAX 256    /* rank labels followed apart; the rest share the last */
#define CONTEXTS_MAX 8   /* explaining lines kept, the first ones */
#define ATTACH_LINES 40  /* a message this close after a traceback's end shares its frames */
#define MESSAGE_MAX 400  /* bytes of the failure line quoted */
#define EXPLAINS_LINES 500 /* an explaining line this close before the error it explains */
#define EVAL_PREFIX 24   /* an evaluation marker starts this close to the line's start */

static const char TRACEBACK[] = "Traceback (most recent call last)";

typedef struct {
	char label[32];
	jf_triage_frame frames[FRAMES_MAX];
	size_t nframes;
	bool open;        /* inside a traceback */
	size_t indent;    /* of its "Traceback" line */
	uint64_t ended;   /* the line that ended the last traceback; 0: none */
	bool exception;   /* that line is an exception line */
} rank_state;

typedef struct {
	const jf_triage_pattern *pattern; /* NULL: a line no pattern knows, chosen by `basis` */
	jf_triage_basis basis;
	uint64_t line;
	char *message;
	bool has_frame;
	jf_triage_frame frame;
	const char *stage;
	char *progress;
	int64_t time;
	bool dated;
} candidate;

typedef struct {
	const jf_triage_table *table;
	void *md;
	rank_state *ranks;
	size_t nranks, last_rank;
	candidate best;
	candidate fallback; /* the last line of the best basis no pattern knows */
	candidate contexts[CONTEXTS_MAX];
	size_t ncontexts;
	/* the current line's keys, from the prefilter: patterns whose literal it holds (sorted,
	 * once each), and progress words with their places */
	uint32_t *hits;
	size_t nhits;
	struct {
		uint32_t word;
		size_t at;
	} words[32];
	size_t nwords;
	size_t traceback_at; /* where "Traceback (most recent call last)" is; SIZE_MAX: nowhere */
	/* time and progress */
	int64_t first_time, time;
	bool first_dated, dated;
	long epoch, step;      /* the last seen; -1: none */
	uint64_t train_line;   /* the last line showing training progress */
	uint64_t eval_line;    /* the last line starting an evaluation */
	uint64_t frames_seen;  /* Python ran: a traceback frame was seen */
	/* an IDE's "Exception has occurred: Name": the name, for the message on the next line */
	char ide_exception[64];
	char *joined; /* "Name: message", JF_LOG_LINE_MAX + sizeof ide_exception + 3 bytes */
} analysis;

/* Frames */

static void frame_release(jf_triage_frame *f)
{
	free(f->file);
	free(f->function);
	memset(f, 0, sizeof *f);
}

static void frame_copy(jf_triage_frame *to, const jf_triage_frame *from)
{
	to->file = jf_xstrdup(from->file);
	to->function = from->function ? jf_xstrdup(from->function) : NULL;
	to->line = from->line;
}

static void frames_clear(rank_state *r)
{
	for (size_t i = 0; i < r->nframes; i++)
		frame_release(&r->frames[i]);
	r->nframes = 0;
}

bool jf_triage_library_file(const char *path)
{
	static const char *const marks[] = {
		"/site-packages/", "/dist-packages/", "\\site-packages\\", "/lib/python", "/lib64/python",
		"\\Lib\\", "/usr/lib/", "/usr/local/lib/", "/_bootstrap", NULL,
	};
	if (*path == '<') /* <frozen runpy>, <string>, <stdin> */
		return true;
	for (const char *const *m = marks; *m; m++)
		if (strstr(path, *m))
			return true;
	return false;
}

/* `  File "PATH", line N, in FUNC`: into *f; false when the text is no frame. */
static bool parse_frame(const char *s, const char *end, jf_triage_frame *f)
{
	if (end - s < 7 || strncmp(s, "File \"", 6))
		return false;
	s += 6;
	const char *q = memmem(s, (size_t)(end - s), "\", line ", 8);
	if (!q || q == s)
		return false;
	const char *n = q + 8;
	unsigned line = 0;
	while (n < end && isdigit((unsigned char)*n) && line < 100000000u)
		line = line * 10 + (unsigned)(*n++ - '0');
	f->file = jf_xstrndup(s, (size_t)(q - s));
	f->line = line;
	f->function = NULL;
	if (end - n > 5 && !strncmp(n, ", in ", 5)) {
		const char *fn = n + 5, *fe = fn;
		while (fe < end && !isspace((unsigned char)*fe))
			fe++;
		f->function = jf_xstrndup(fn, (size_t)(fe - fn));
	}
	return true;
}

/* The innermost frame outside the libraries, or NULL. */
static const jf_triage_frame *user_frame(const rank_state *r)
{
	for (size_t i = r->nframes; i-- > 0;)
		if (!jf_triage_library_file(r->frames[i].file))
			return &r->frames[i];
	return NULL;
}

static bool has_word(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strstr(s, *words))
			return true;
	return false;
}

/* The stage function `f` shows by its name: evaluation, checkpointing, training, or, for a
 * function of the job's own, initialisation; NULL when it tells none. */
static const char *stage_of_function(const jf_triage_frame *f)
{
	static const char *const eval[] = { "eval", "valid", "predict", "infer", NULL };
	static const char *const save[] = { "save", "checkpoint", NULL };
	static const char *const train[] = { "train", "fit", "backward", "optimizer_step", NULL };
	static const char *const init[] = { "load", "init", "build", "setup", "prepare",
		                            "download", "parse_args", "create", NULL };
	if (!f->function)
		return NULL;
	char name[128];
	size_t k = 0;
	for (; f->function[k] && k + 1 < sizeof name; k++)
		name[k] = (char)tolower((unsigned char)f->function[k]);
	name[k] = '\0';
	if (has_word(name, eval) || !strncmp(name, "test", 4))
		return "evaluation";
	if (has_word(name, save) && !strstr(name, "load"))
		return "checkpointing";
	if (has_word(name, train))
		return "training";
	if (has_word(name, init) && !jf_triage_library_file(f->file))
		return "initialisation";
	return NULL;
}

/* The stage a traceback's functions show, innermost first; initialisation only when no
 * function shows another. */
static const char *stage_of_frames(const rank_state *r)
{
	const char *init = NULL;
	for (size_t i = r->nframes; i-- > 0;) {
		const char *stage = stage_of_function(&r->frames[i]);
		if (stage && strcmp(stage, "initialisation"))
			return stage;
		if (stage && !init)
			init = stage;
	}
	return init;
}

/* Rank labels */

static rank_state *rank_of(analysis *a, const char *label)
{
	if (a->nranks && !strcmp(a->ranks[a->last_rank].label, label))
		return &a->ranks[a->last_rank];
	for (size_t i = 0; i < a->nranks; i++)
		if (!strcmp(a->ranks[i].label, label))
			return &a->ranks[a->last_rank = i];
	if (a->nranks == RANKS_MAX)
		return &a->ranks[a->last_rank = RANKS_MAX - 1];
	rank_state *r = &a->ranks[a->last_rank = a->nranks++];
	memset(r, 0, sizeof *r);
	snprintf(r->label, sizeof r->label, "%s", label);
	return r;
}

/* Text */

/* s[0, n) as valid UTF-8, without control characters, at most MESSAGE_MAX bytes. */
static char *quote_line(const char *s, size_t n)
{
	jf_buf b = JF_BUF_INIT;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	for (size_t i = 0; i < n && b.len < MESSAGE_MAX;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = jf_utf8_seq((const unsigned char *)s + i, n - i);
		if (!len) {
			jf_buf_adds(&b, "\xef\xbf\xbd"); /* U+FFFD */
			i++;
		} else if (len == 1 && (c < 0x20 || c == 0x7f)) {
			jf_buf_addc(&b, ' ');
			i++;
		} else {
			if (b.len + len > MESSAGE_MAX)
				break;
			jf_buf_add(&b, s + i, len);
			i += len;
		}
	}
	if (b.len >= MESSAGE_MAX)
		jf_buf_adds(&b, "...");
	return jf_buf_detach(&b, NULL);
}

static size_t leading_space(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* The length of the dotted identifier s starts with, 0: none. */
static size_t dotted_name(const char *s, size_t n)
{
	size_t i = 0;
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
		i++;
	return i;
}

/* "Name: message" or "Name" where Name is a dotted identifier: the line a traceback ends
 * with. */
static bool exception_line(const char *s, size_t n)
{
	size_t i = dotted_name(s, n);
	return i && (i == n || (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ')));
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(s + n - k, suffix, k);
}

/* An exception line without its traceback: "pkg.SomeError: message" (a name ending as
 * exceptions' names do), or a program's "error: ..." / "FATAL: ...". */
static bool exception_shaped(const char *s, size_t n)
{
	static const char *const ends[] = { "Error", "Exception", "Failure", "Exit", "Interrupt",
		                            "Fault", NULL };
	static const char *const levels[] = { "error", "Error", "ERROR", "fatal", "Fatal", "FATAL",
		                              NULL };
	size_t i = dotted_name(s, n);
	if (!i || i == n || s[i] != ':' || (i + 1 < n && s[i + 1] != ' '))
		return false;
	for (const char *const *e = ends; *e; e++)
		if (ends_with(s, i, *e))
			return true;
	for (const char *const *e = levels; *e; e++)
		if (i == strlen(*e) && !memcmp(s, *e, i))
			return true;
	return false;
}

/* Whether the line's words (scan_line() found them) make it read as an error: one of the
 * error words, starting a word (not "--fail-fast", "error_rate" is one: its start), on a line
 * that is not a warning or a progress bar's. */
static bool error_worded(const analysis *a, const char *text)
{
	bool error = false;
	for (size_t i = 0; i < a->nwords; i++) {
		uint32_t w = a->words[i].word;
		size_t at = a->words[i].at;
		if (w == JF_WORD_WARN || w == JF_WORD_RATE || w == JF_WORD_RATE2)
			return false;
		if (w >= JF_WORD_ERROR && w <= JF_WORD_ASSERT &&
		    (at == 0 || !(isalnum((unsigned char)text[at - 1]) || strchr("_-./=", text[at - 1]))))
			error = true;
	}
	return error;
}

/* Candidates */

static void candidate_release(candidate *c)
{
	free(c->message);
	free(c->progress);
	frame_release(&c->frame);
	memset(c, 0, sizeof *c);
}

static char *progress_text(const analysis *a)
{
	if (a->epoch < 0 && a->step < 0)
		return NULL;
	if (a->epoch >= 0 && a->step >= 0)
		return jf_xasprintf("epoch %ld, step %ld", a->epoch, a->step);
	return a->epoch >= 0 ? jf_xasprintf("epoch %ld", a->epoch) : jf_xasprintf("step %ld", a->step);
}

/* What the rank's traceback says of the line `number`: its frames when the line ended it or
 * came just after it. */
static const rank_state *frames_for(const rank_state *r, uint64_t number)
{
	if (r->open || !r->ended || !r->nframes)
		return NULL;
	return number - r->ended <= ATTACH_LINES ? r : NULL;
}

/* The stage of a failure: setup for a message that comes before Python runs, else what its
 * traceback's functions show, else the log's progress before it, else initialisation when
 * Python ran; NULL when nothing tells. */
static const char *stage_at(const analysis *a, const jf_triage_pattern *p, const rank_state *tb)
{
	const char *stage = tb ? stage_of_frames(tb) : NULL;
	if (p && p->setup)
		return "setup";
	if (stage)
		return stage;
	if (a->eval_line && a->eval_line > a->train_line)
		return "evaluation";
	if (a->train_line)
		return "training";
	return a->frames_seen ? "initialisation" : NULL;
}

static void capture(analysis *a, candidate *c, const jf_triage_pattern *p, uint64_t number,
                    const char *text, size_t len, const rank_state *r)
{
	candidate_release(c);
	c->pattern = p;
	c->basis = JF_BASIS_PATTERN;
	c->line = number;
	c->message = quote_line(text, len);
	const rank_state *tb = frames_for(r, number);
	const jf_triage_frame *f = tb ? user_frame(tb) : NULL;
	if (f) {
		c->has_frame = true;
		frame_copy(&c->frame, f);
	}
	c->stage = stage_at(a, p, tb);
	c->progress = progress_text(a);
	c->time = a->time;
	c->dated = a->dated;
}

static bool on_key(void *data, uint32_t id, size_t at)
{
	analysis *a = data;
	size_t n = a->table->npatterns;
	if (id == n + JF_WORD_TRACEBACK) {
		a->traceback_at = at;
		return true;
	}
	if (id >= n) {
		if (a->nwords < sizeof a->words / sizeof *a->words)
			a->words[a->nwords].word = id - (uint32_t)n, a->words[a->nwords++].at = at;
		return true;
	}
	size_t i = a->nhits; /* kept sorted: a line has few hits */
	while (i > 0 && a->hits[i - 1] > id)
		i--;
	if (i > 0 && a->hits[i - 1] == id)
		return true;
	memmove(a->hits + i + 1, a->hits + i, (a->nhits - i) * sizeof *a->hits);
	a->hits[i] = id;
	a->nhits++;
	return true;
}

/* Finds the line's keys: the patterns whose literal it holds, and the words. */
static void scan_line(analysis *a, const char *text, size_t len)
{
	a->nhits = a->nwords = 0;
	a->traceback_at = SIZE_MAX;
	jf_keyset_scan(a->table->literals, text, len, on_key, a);
}

/* The pattern of the highest rank matching the line (of equal ranks, the first), among those
 * whose literal scan_line() found in it and those with none. */
static const jf_triage_pattern *match_line(analysis *a, const char *text, size_t len)
{
	const jf_triage_table *t = a->table;
	const jf_triage_pattern *best = NULL;
	size_t h = 0, u = 0;
	while (h < a->nhits || u < t->nunfiltered) {
		uint32_t i = u == t->nunfiltered || (h < a->nhits && a->hits[h] < t->unfiltered[u])
		                     ? a->hits[h++]
		                     : t->unfiltered[u++];
		const jf_triage_pattern *p = &t->patterns[i];
		if ((!best || p->rank > best->rank) && jf_triage_pattern_matches(p, text, len, a->md))
			best = p;
	}
	return best;
}

/* Progress */

/* The number after a keyword at s ("epoch 3", "Epoch: [3/90]", "step=120"), or -1. */
static long number_after(const char *s, const char *end)
{
	while (s < end && (isalpha((unsigned char)*s) || *s == '_'))
		s++;
	int seps = 0;
	while (s < end && strchr(" :=#[(", *s) && seps++ < 3)
		s++;
	if (s >= end || !isdigit((unsigned char)*s))
		return -1;
	long v = 0;
	while (s < end && isdigit((unsigned char)*s) && v < 100000000L)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* The progress the line's words show (match_line() found them): an evaluation starting (its
 * word near the line's start), training progress (an epoch, step or iteration number, a
 * progress bar's rate). */
static void track_progress(analysis *a, const char *text, size_t len, uint64_t number)
{
	const char *end = text + len;
	bool eval = false;
	for (size_t i = 0; i < a->nwords; i++) {
		size_t at = a->words[i].at;
		uint32_t w = a->words[i].word;
		if ((w == JF_WORD_EVAL || w == JF_WORD_VALID || w == JF_WORD_TEST) && at <= EVAL_PREFIX &&
		    (at == 0 || !isalpha((unsigned char)text[at - 1])))
			eval = true;
	}
	if (eval)
		a->eval_line = number;
	for (size_t i = 0; i < a->nwords; i++) {
		size_t at = a->words[i].at;
		uint32_t w = a->words[i].word;
		if (w == JF_WORD_RATE || w == JF_WORD_RATE2) {
			if (!eval)
				a->train_line = number;
			continue;
		}
		/* a word of its own: not "--epochs 3" of an echoed command, not "max_steps=" */
		if ((w != JF_WORD_EPOCH && w != JF_WORD_STEP && w != JF_WORD_ITER) ||
		    (at > 0 && (isalpha((unsigned char)text[at - 1]) || strchr("-_.", text[at - 1]))))
			continue;
		/* "epoch 3", "iteration 12", not "epochs=50" of a config */
		const char *after = text + at + (w == JF_WORD_EPOCH ? 5 : 4);
		if (w == JF_WORD_ITER && end - after >= 5 && !strncasecmp(after, "ation", 5))
			after += 5;
		if (after < end && isalpha((unsigned char)*after))
			continue;
		long v = number_after(after, end);
		if (v < 0)
			continue;
		if (w == JF_WORD_EPOCH)
			a->epoch = v;
		else
			a->step = v;
		if (!eval)
			a->train_line = number;
	}
}

/* Whether the text after "Traceback (most recent call last)" ends the line: ":" and spaces,
 * or nothing (a notebook's header); a traceback quoted inside a longer line starts none. */
static bool ends_traceback_header(const char *s, const char *end)
{
	if (s < end && *s == ':')
		s++;
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s == end;
}

/* Tracebacks: returns whether the line is part of one (a frame or code), not to be matched. */
static bool track_traceback(analysis *a, rank_state *r, const char *text, size_t len,
                            uint64_t number)
{
	size_t ws = leading_space(text, len);
	const char *s = text + ws, *end = text + len;
	/* the scan ignores case: Python's own is checked */
	if (a->traceback_at != SIZE_MAX &&
	    !memcmp(text + a->traceback_at, TRACEBACK, sizeof TRACEBACK - 1) &&
	    ends_traceback_header(text + a->traceback_at + sizeof TRACEBACK - 1, end)) {
		frames_clear(r);
		r->open = true;
		r->indent = ws;
		r->ended = 0;
		return true;
	}
	if (!r->open)
		return false;
	if (s == end) /* a blank line does not end it */
		return true;
	jf_triage_frame f;
	if (parse_frame(s, end, &f)) {
		if (r->nframes == FRAMES_MAX) { /* the innermost frames matter: drop the outermost */
			frame_release(&r->frames[0]);
			memmove(r->frames, r->frames + 1, (FRAMES_MAX - 1) * sizeof *r->frames);
			r->nframes--;
		}
		r->frames[r->nframes++] = f;
		a->frames_seen = number;
		return true;
	}
	if (ws > r->indent) /* a frame's code, or the markers under it */
		return true;
	r->open = false;
	r->ended = number;
	r->exception = exception_line(s, (size_t)(end - s));
	return false;
}

/* VS Code shows an uncaught exception as "Exception has occurred: ValueError" with the message
 * on the next line; users paste it so. The two are read as the one line Python prints. */
static void join_ide_exception(analysis *a, jf_log_line *ln)
{
	static const char HEADER[] = "Exception has occurred: ";
	const size_t hn = sizeof HEADER - 1;
	if (!ln->len)
		return;
	if (a->ide_exception[0]) {
		size_t n = strlen(a->ide_exception);
		if (!(ln->len > n && !memcmp(ln->text, a->ide_exception, n) && ln->text[n] == ':')) {
			memcpy(a->joined, a->ide_exception, n);
			memcpy(a->joined + n, ": ", 2);
			memcpy(a->joined + n + 2, ln->text, ln->len);
			ln->text = a->joined;
			ln->len += n + 2;
		}
		a->ide_exception[0] = '\0';
		return;
	}
	if (ln->len > hn && ln->len - hn < sizeof a->ide_exception && !memcmp(ln->text, HEADER, hn) &&
	    dotted_name(ln->text + hn, ln->len - hn) == ln->len - hn) {
		memcpy(a->ide_exception, ln->text + hn, ln->len - hn);
		a->ide_exception[ln->len - hn] = '\0';
	}
}

static void analyze_line(analysis *a, const char *raw, size_t len, char *buf, uint64_t number)
{
	jf_log_line ln;
	jf_log_clean(raw, len, buf, &ln);
	join_ide_exception(a, &ln);
	if (ln.time >= 0) {
		if (a->first_time < 0) {
			a->first_time = ln.time;
			a->first_dated = ln.dated;
		}
		a->time = ln.time;
		a->dated = ln.dated;
	}
	rank_state *r = rank_of(a, ln.rank);
	scan_line(a, ln.text, ln.len);
	if (track_traceback(a, r, ln.text, ln.len, number))
		return;
	const jf_triage_pattern *p = match_line(a, ln.text, ln.len);
	if (p && p->explains) {
		if (a->ncontexts < CONTEXTS_MAX)
			capture(a, &a->contexts[a->ncontexts++], p, number, ln.text, ln.len, r);
	} else if (p) {
		if (!a->best.pattern || p->rank > a->best.pattern->rank)
			capture(a, &a->best, p, number, ln.text, ln.len, r);
	} else {
		size_t ws = leading_space(ln.text, ln.len);
		jf_triage_basis basis = r->ended == number && r->exception ? JF_BASIS_TRACEBACK_END
		                        : exception_shaped(ln.text + ws, ln.len - ws) ? JF_BASIS_EXCEPTION
		                        : error_worded(a, ln.text)                     ? JF_BASIS_ERROR_WORD
		                                                                       : JF_BASIS_NONE;
		if (basis != JF_BASIS_NONE && (!a->fallback.message || basis >= a->fallback.basis)) {
			capture(a, &a->fallback, NULL, number, ln.text + ws, ln.len - ws, r);
			a->fallback.basis = basis;
		}
	}
	track_progress(a, ln.text, ln.len, number);
}

/* Whether the winning pattern only wraps a failure it does not name (torchrun's summary, "exited
 * with code 1"), so that an exception line no pattern knows tells more. */
static bool only_wraps(const jf_triage_pattern *p)
{
	return p->rank <= 10 && !strcmp(p->category->name, "Unknown");
}

/* The explaining line for the winner, or the winner: the line of the highest pattern, else
 * the last line no pattern knows that reads as a failure (an exception line beats a
 * wrapper's). */
static candidate *root_of(analysis *a)
{
	candidate *best = &a->best;
	if (!a->best.pattern ||
	    (only_wraps(a->best.pattern) && a->fallback.message &&
	     a->fallback.basis >= JF_BASIS_EXCEPTION))
		best = a->fallback.message ? &a->fallback : NULL;
	if (!best || !best->pattern)
		return best;
	for (size_t i = 0; i < a->ncontexts; i++) {
		candidate *c = &a->contexts[i];
		for (const jf_triage_category **e = c->pattern->explains; *e; e++)
			if (*e == best->pattern->category && c->line < best->line &&
			    best->line - c->line <= EXPLAINS_LINES) {
				/* the explaining line is the root; the failure's frame and stage stay */
				if (best->has_frame && !c->has_frame) {
					frame_copy(&c->frame, &best->frame);
					c->has_frame = true;
				}
				c->stage = best->stage ? best->stage : c->stage;
				return c;
			}
	}
	return best;
}

void jf_triage_analyze(const char *path, jf_triage_result *out)
{
	memset(out, 0, sizeof *out);
	out->log = jf_xstrdup(path);
	out->elapsed = -1;
	analysis a = { 0 };
	a.table = jf_triage_table_get();
	if (a.table->error) {
		out->error = jf_xasprintf("jobfix's own data is broken: %s", a.table->error);
		return;
	}
	char *error = NULL;
	jf_log *log = jf_log_open(path, &error);
	if (!log) {
		out->error = error;
		return;
	}
	a.md = jf_triage_match_data_new();
	a.ranks = jf_xcalloc(RANKS_MAX, sizeof *a.ranks);
	a.hits = jf_xcalloc(a.table->npatterns + 1, sizeof *a.hits);
	a.first_time = a.time = -1;
	a.epoch = a.step = -1;
	char *buf = jf_xmalloc(JF_LOG_LINE_MAX + 1);
	a.joined = jf_xmalloc(JF_LOG_LINE_MAX + sizeof a.ide_exception + 3);
	const char *line;
	size_t len;
	int rc;
	while ((rc = jf_log_next(log, &line, &len, &error)) > 0)
		analyze_line(&a, line, len, buf, jf_log_line_number(log));
	out->lines = jf_log_line_number(log);
	if (rc < 0) { /* "path:3:7: ..." for a place, "path: ..." otherwise */
		out->error = jf_xasprintf("%s:%s%s", path, isdigit((unsigned char)*error) ? "" : " ", error);
		free(error);
	}
	candidate *root = root_of(&a);
	out->category = jf_triage_category_find(a.table, "Unknown");
	out->retry = out->category->retry;
	out->why = out->category->why;
	if (root && !out->error) {
		out->found = true;
		out->line = root->line;
		out->message = root->message, root->message = NULL;
		out->pattern = root->pattern;
		out->basis = root->basis;
		if (root->pattern) {
			out->category = root->pattern->category;
			out->retry = root->pattern->retry;
			out->why = root->pattern->why ? root->pattern->why : out->category->why;
		}
		out->stage = root->stage;
		out->progress = root->progress, root->progress = NULL;
		if (root->time >= 0 && a.first_time >= 0 && root->dated == a.first_dated) {
			int64_t d = root->time - a.first_time;
			out->elapsed = d >= 0 ? d : root->dated ? -1 : d + 86400;
		}
		if (root->has_frame) {
			out->has_frame = true;
			out->frame = root->frame;
			memset(&root->frame, 0, sizeof root->frame);
		}
	}
	free(buf);
	free(a.joined);
	candidate_release(&a.best);
	candidate_release(&a.fallback);
	for (size_t i = 0; i < a.ncontexts; i++)
		candidate_release(&a.contexts[i]);
	for (size_t i = 0; i < a.nranks; i++)
		frames_clear(&a.ranks[i]);
	free(a.ranks);
	free(a.hits);
	jf_triage_match_data_free(a.md);
	jf_log_close(log);
}

void jf_triage_result_release(jf_triage_result *r)
{
	free(r->log);
	free(r->error);
	free(r->message);
	free(r->progress);
	frame_release(&r->frame);
	memset(r, 0, sizeof *r);
}
