/*
 * perm: the shared-repository permission rules.
 *
 * The setting lives in three statics, written only while the process is
 * single-threaded (repo_open(), init) and read afterwards: whether it
 * still has to be parsed, the raw value, and the parsed one.
 *
 * How a mode is widened (s is the setting, m the mode as created):
 *   t = |s|; no owner write bit in m: t loses its write bits;
 *   owner execute bit in m: t gains its read bits as execute bits;
 *   s < 0 (an explicit mode): m's permission bits become t, else m |= t;
 *   a directory further gets read bits as execute bits, and setgid if
 *   the group may read or write it.
 */
#include "perm.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "config.h"
#include "error.h"

static int shared_parsed = 1;	/* 0: raw_value still to be parsed */
static char *raw_value;		/* NULL for implicit true; owned */
static int shared_value;	/* PERM_* or -mode */

int
perm_parse_shared(int *out, const char *var, const char *value)
{
	char *end;
	long n;
	int b;

	if (!value || !strcmp(value, "group")) {
		*out = PERM_GROUP;
		return 0;
	}
	if (!strcmp(value, "umask")) {
		*out = PERM_UMASK;
		return 0;
	}
	if (!strcmp(value, "all") || !strcmp(value, "world") ||
	    !strcmp(value, "everybody")) {
		*out = PERM_EVERYBODY;
		return 0;
	}
	n = strtol(value, &end, 8);
	if (*end) {
		/* not octal: a boolean (an integer counts as one) */
		b = config_parse_bool(value);
		if (b < 0)
			return error_set(E_INVALID, "bad boolean config value "
					 "'%s' for '%s'", value, var);
		*out = b ? PERM_GROUP : PERM_UMASK;
		return 0;
	}
	switch (n) {
	case 0:
		*out = PERM_UMASK;
		return 0;
	case 1:
		*out = PERM_GROUP;
		return 0;
	case 2:
		*out = PERM_EVERYBODY;
		return 0;
	}
	if ((n & 0600) != 0600)
		return error_set(E_INVALID, "problem with core.sharedRepository "
				 "filemode value (0%.3lo).\nThe owner of files "
				 "must always have read and write permissions.",
				 (unsigned long)n);
	/* others never get write permission; directories get x later */
	*out = -(int)(n & 0666);
	return 0;
}

void
perm_shared_from_config(int present, const char *value)
{
	free(raw_value);
	raw_value = NULL;
	if (!present) {
		shared_value = PERM_UMASK;
		shared_parsed = 1;
		return;
	}
	raw_value = value ? xstrdup(value) : NULL;
	shared_parsed = 0;
}

void
perm_set_shared(int shared)
{
	free(raw_value);
	raw_value = NULL;
	shared_value = shared;
	shared_parsed = 1;
}

int
perm_get_shared(int *out)
{
	if (!shared_parsed) {
		int ret = perm_parse_shared(&shared_value,
					    "core.sharedrepository",
					    raw_value);

		if (ret < 0)
			return ret;	/* and again next time */
		shared_parsed = 1;
	}
	*out = shared_value;
	return 0;
}

int
perm_calc(int shared, int mode)
{
	int tweak = shared < 0 ? -shared : shared;

	if (!(mode & S_IWUSR))
		tweak &= ~0222;
	if (mode & S_IXUSR)
		tweak |= (tweak & 0444) >> 2;
	if (shared < 0)
		return (mode & ~0777) | tweak;
	return mode | tweak;
}

int
perm_adjust(const char *path)
{
	struct stat st;
	int shared, ret, mode;

	ret = perm_get_shared(&shared);
	if (ret < 0 || !shared)
		return ret;
	if (lstat(path, &st) < 0)
		return error_errno(errno, "cannot fix permission bits on '%s'",
				   path);
	if (S_ISLNK(st.st_mode))
		return 0;
	mode = perm_calc(shared, st.st_mode & 07777);
	if (S_ISDIR(st.st_mode)) {
		mode |= (mode & 0444) >> 2;
		/* setgid only matters when the group gets anything */
		if (mode & 060)
			mode |= S_ISGID;
	}
	if (mode != (int)(st.st_mode & 07777) && chmod(path, mode) < 0)
		return error_errno(errno, "cannot fix permission bits on '%s'",
				   path);
	return 0;
}

int
perm_mkdir(const char *path)
{
	if (mkdir(path, 0777) < 0) {
		if (errno == EEXIST)
			return 1;
		return error_errno(errno, "unable to create directory '%s'",
				   path);
	}
	return perm_adjust(path);
}
