/*
 * perm: core.sharedRepository, the permissions of what dirc creates in a
 * repository that a group (or everybody) shares.  A file or directory is
 * created under the umask as usual and then widened (or, for an explicit
 * mode, set) by perm_adjust(), git's rule: a shared directory also gets
 * its read bits as execute bits and (when the group gets access) the
 * setgid bit, so that what is made in it keeps the group.
 *
 * The setting is process-wide: repo_open() and init set it once, before
 * any thread starts, and the modules that create files without a
 * repository at hand (lockfile, odb, refs) read it.  Like git, the value
 * is parsed when it is first needed, so a bad value fails only a command
 * that creates something.
 */
#ifndef DIRC_PERM_H
#define DIRC_PERM_H

#include "util.h"

/* What a parsed setting holds; an explicit mode m is stored as -m. */
enum perm_shared {
	PERM_UMASK = 0,		/* not shared: the umask decides */
	PERM_GROUP = 0660,	/* "group", "true", 1 */
	PERM_EVERYBODY = 0664,	/* "all", "world", "everybody", 2 */
};

/*
 * Parse a core.sharedRepository value into *out (PERM_* or -mode).  var
 * names the setting in messages ("arg" for init's --shared, as git).
 * NULL means "group".  0, or -E_INVALID with git's message ("bad boolean
 * config value ..." or "problem with core.sharedRepository filemode
 * value (0NNN) ...").
 */
int perm_parse_shared(int *out, const char *var, const char *value);

/*
 * Set the process's setting: from the configuration (present: the key is
 * set at all; value NULL then means implicit true; parsed on first use),
 * or an already parsed one.
 */
void perm_shared_from_config(int present, const char *value);
void perm_set_shared(int shared);

/* The setting (parsing it now if needed).  0, or -E_INVALID. */
int perm_get_shared(int *out);

/* The mode a new file (not a directory) of mode gets under shared. */
int perm_calc(int shared, int mode);

/*
 * Give path, just created by this process, the permissions the setting
 * asks for (a no-op when not shared).  0, or a negative E_* (a bad
 * setting, or chmod failed: "cannot fix permission bits on '<path>'").
 */
int perm_adjust(const char *path);

/*
 * mkdir(path, 0777), then perm_adjust() if it was created.  0 if it was
 * made, 1 if it existed already (as anything: the caller checks), or a
 * negative E_* ("unable to create directory '<path>'").
 */
int perm_mkdir(const char *path);

#endif
