/*
 * filter: a placeholder until the drivers are run (issue 14): a driver
 * with a command configured is refused, never skipped.
 */
#include "filter.h"
#include "error.h"
#include "repo.h"

struct filter_session {
	struct repo *repo;
	unsigned flags;
};

struct filter_session *
filter_session_new(struct repo *repo, unsigned flags)
{
	struct filter_session *fs = xcalloc(1, sizeof(*fs));

	fs->repo = repo;
	fs->flags = flags;
	return fs;
}

int
filter_session_end(struct filter_session *fs)
{
	free(fs);
	return 0;
}

static int
has_key(struct filter_session *fs, const char *driver, const char *what)
{
	struct strbuf key = STRBUF_INIT;
	const char *v = NULL;
	int found;

	strbuf_addf(&key, "filter.%s.%s", driver, what);
	found = config_get(&fs->repo->config, key.buf, &v) == 1 && v && *v;
	strbuf_release(&key);
	return found;
}

int
filter_configured(struct filter_session *fs, const char *driver,
		  enum filter_direction dir)
{
	return has_key(fs, driver, "process") ||
	       has_key(fs, driver, dir == FILTER_CLEAN ? "clean" : "smudge");
}

int
filter_apply(struct filter_session *fs, const char *driver,
	     const char *path, enum filter_direction dir,
	     const void *in, size_t len, struct strbuf *out)
{
	(void)in;
	(void)len;
	(void)out;
	if (!filter_configured(fs, driver, dir))
		return 1;
	return error_set(E_UNSUPPORTED, "%s: filter '%s' is not supported yet",
			 path, driver);
}
