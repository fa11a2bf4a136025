/*
 * dir: the one readdir() loop of the recursive walks (see dir.h).  It
 * owns no state: the DIR handle lives for one call, and the caller's path
 * buffer is restored to its length on entry before every callback returns
 * to the loop and before the call returns.
 */
#include "dir.h"

#include <dirent.h>

#include "error.h"

int
dir_for_each(struct strbuf *path, dir_entry_fn fn, void *data)
{
	size_t len = path->len;
	DIR *dir = opendir(path->buf);
	struct dirent *de;
	int ret = 0;

	if (!dir) {
		int err = errno;

		ret = error_errno(err, "cannot open directory '%s'",
				  path->buf);
		errno = err;
		return ret;
	}
	while (!ret && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addch(path, '/');
		strbuf_addstr(path, de->d_name);
		ret = fn(path, de->d_name, data);
		strbuf_setlen(path, len);
	}
	closedir(dir);
	return ret;
}
