/*
 * worktree: the administrative files that tie linked worktrees to their
 * repository.  <common>/worktrees/<id>/gitdir names the worktree's
 * ".git" file; that file says "gitdir: <common>/worktrees/<id>".  Both
 * are absolute, or (git 2.48's extensions.relativeWorktrees) relative:
 * the first to <common>/worktrees/<id>, the second to the worktree.
 */
#include "worktree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config-write.h"
#include "error.h"
#include "path.h"
#include "repo.h"
#include "strbuf.h"

/* Write text into path, replacing it. */
static int
write_text(const char *path, const char *text)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || write_full(fd, text, strlen(text)) < 0) {
		ret = error_errno(errno, "could not write to '%s'", path);
		if (fd >= 0)
			close(fd);
	} else if (close(fd) < 0) {
		ret = error_errno(errno, "could not write to '%s'", path);
	}
	return ret;
}

/*
 * The absolute path with "." and ".." components (and empty ones)
 * resolved by name, into out.
 */
static void
collapse_dots(struct strbuf *out, const char *path)
{
	strbuf_reset(out);
	while (*path) {
		size_t n = strcspn(path, "/");
		const char *end = path + n;

		if (n == 2 && !strncmp(path, "..", 2)) {
			char *slash = strrchr(out->buf, '/');

			strbuf_setlen(out, slash ? (size_t)(slash - out->buf) :
				      0);
		} else if (n && !(n == 1 && *path == '.')) {
			strbuf_addch(out, '/');
			strbuf_add(out, path, n);
		}
		path = *end ? end + 1 : end;
	}
	if (!out->len)
		strbuf_addch(out, '/');
}

/* The absolute path to, as seen from the absolute directory from. */
static void
relative_to(struct strbuf *out, const char *to, const char *from)
{
	struct strbuf prefix = STRBUF_INIT;
	size_t skip;

	/* path_relative() takes names from a top: "/" is that top */
	strbuf_addstr(&prefix, from + 1);
	if (prefix.len)
		strbuf_addch(&prefix, '/');
	strbuf_reset(out);
	if (!path_relative(out, &skip, to + 1, strlen(to + 1), prefix.buf,
			   prefix.len))
		strbuf_addstr(out, skip > strlen(to + 1) ? "./" :
			      to + 1 + skip);
	strbuf_release(&prefix);
}

/*
 * Relative links need extensions.relativeWorktrees, and so format
 * version 1: set both in commondir's config where they are missing.
 */
static int
allow_relative(const char *commondir)
{
	struct strbuf config = STRBUF_INIT;
	int ret;

	strbuf_addf(&config, "%s/config", commondir);
	ret = config_write_count(config.buf, "extensions.relativeworktrees");
	if (!ret)
		ret = config_write_set(config.buf,
				       "core.repositoryformatversion", "1");
	if (!ret)
		ret = config_write_set(config.buf,
				       "extensions.relativeWorktrees", "true");
	strbuf_release(&config);
	return ret < 0 ? ret : 0;
}

int
worktree_repair(const char *commondir, const char *old_commondir)
{
	struct strbuf path = STRBUF_INIT, wt = STRBUF_INIT;
	struct strbuf admin = STRBUF_INIT, wt_real = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, rel = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int ret = 0, relative_ok = 0;

	strbuf_addf(&path, "%s/worktrees", commondir);
	dir = opendir(path.buf);
	if (!dir)
		goto out;
	while ((de = readdir(dir))) {
		int relative;

		if (de->d_name[0] == '.')
			continue;
		/* worktrees/<id>/gitdir names the worktree's .git file */
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/worktrees/%s/gitdir", commondir,
			    de->d_name);
		if (strbuf_read_file(&wt, path.buf) < 0) {
			error_clear();
			continue;
		}
		strbuf_rtrim(&wt);
		/* a relative one is seen from where the directory was */
		relative = wt.buf[0] != '/';
		if (relative) {
			strbuf_reset(&text);
			strbuf_addf(&text, "%s/worktrees/%s/%s", old_commondir,
				    de->d_name, wt.buf);
			/* that directory is gone: ".." taken by name */
			collapse_dots(&wt, text.buf);
		}
		/* a worktree that is gone: left alone */
		if (stat(wt.buf, &st) < 0)
			continue;
		if (ends_with(wt.buf, "/.git"))
			strbuf_setlen(&wt, wt.len - 5);
		strbuf_setlen(&path, path.len - 7);
		ret = repo_realpath(&admin, path.buf);
		if (ret < 0 || (ret = repo_realpath(&wt_real, wt.buf)) < 0)
			break;
		if (relative && !relative_ok) {
			ret = allow_relative(commondir);
			if (ret < 0)
				break;
			relative_ok = 1;
		}
		/* both links, as git 2.55 writes them after a move */
		strbuf_reset(&text);
		if (relative) {
			relative_to(&rel, wt_real.buf, admin.buf);
			strbuf_addf(&text, "%s/.git\n", rel.buf);
		} else {
			strbuf_addf(&text, "%s/.git\n", wt_real.buf);
		}
		strbuf_addstr(&path, "/gitdir");
		ret = write_text(path.buf, text.buf);
		if (ret < 0)
			break;
		strbuf_reset(&text);
		if (relative)
			relative_to(&rel, admin.buf, wt_real.buf);
		strbuf_addf(&text, "gitdir: %s\n",
			    relative ? rel.buf : admin.buf);
		strbuf_addstr(&wt_real, "/.git");
		ret = write_text(wt_real.buf, text.buf);
		if (ret < 0)
			break;
	}
	closedir(dir);
out:
	strbuf_release(&path);
	strbuf_release(&wt);
	strbuf_release(&admin);
	strbuf_release(&wt_real);
	strbuf_release(&text);
	strbuf_release(&rel);
	return ret;
}
