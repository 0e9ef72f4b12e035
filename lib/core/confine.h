/* confine.h - the folders a lint may read: its repository and those the user allows
 *
 * A lint reads only below its roots: the top of the git repository that
 * holds the linted path (found lexically, so a symlinked folder inside the
 * repository still counts as inside it; without one, the current folder when
 * the path is inside it, else the path's folder), and the folders the user
 * names with --allow-outside or the config's `allow-outside`. A path is
 * compared by its real path, so a symlink or `..` that leads out is refused.
 *
 * The roots hold for the thread that entered them (jf_confine_enter), for the
 * one lint it runs; a thread that entered none may read anywhere (the unit
 * tests, `jobfix rules`).
 */
#ifndef JF_CONFINE_H
#define JF_CONFINE_H

#include "core/util.h"

typedef struct {
	jf_strings roots; /* real paths; the first is the repository */
} jf_confine;

/**
 * The roots of a lint of `path`, with the folders of `allowed` (NULL: none;
 * relative ones from the current folder; one that does not exist is left out).
 */
void jf_confine_init(jf_confine *self, const char *path, const jf_strings *allowed);
void jf_confine_release(jf_confine *self);
/** `self` holds for this thread until jf_confine_leave(); it must outlive that. */
void jf_confine_enter(const jf_confine *self);
void jf_confine_leave(void);
/** The roots this thread entered, or NULL (another thread may enter them too). */
const jf_confine *jf_confine_current(void);
/**
 * Whether `path`, which exists, lies in `self`: its real path is below a
 * root. A path whose real path cannot be found (a symlink loop) does not.
 */
bool jf_confine_has(const jf_confine *self, const char *path);
/** Whether this thread may read `path`: always outside a lint, else jf_confine_has(). */
bool jf_confine_allows(const char *path);

#endif
