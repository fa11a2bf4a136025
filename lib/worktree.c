/*
 * worktree: the administrative files that tie linked worktrees to their
 * repository.  <common>/worktrees/<id>/gitdir names the worktree's
 * ".git" file; that file says "gitdir: <common>/worktrees/<id>".
 */
#include "worktree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "repo.h"
#include "strbuf.h"

/* Write "gitdir: <target>\n" into path, replacing it. */
static int
write_gitfile(const char *path, const char *target)
{
	struct strbuf text = STRBUF_INIT;
	int fd, ret = 0;

	strbuf_addf(&text, "gitdir: %s\n", target);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || write_full(fd, text.buf, text.len) < 0) {
		ret = error_errno(errno, "could not write to '%s'", path);
		if (fd >= 0)
			close(fd);
	} else if (close(fd) < 0) {
		ret = error_errno(errno, "could not write to '%s'", path);
	}
	strbuf_release(&text);
	return ret;
}

int
worktree_repair(const char *commondir)
{
	struct strbuf path = STRBUF_INIT, wt = STRBUF_INIT;
	struct strbuf admin = STRBUF_INIT, target = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int ret = 0;

	strbuf_addf(&path, "%s/worktrees", commondir);
	dir = opendir(path.buf);
	if (!dir)
		goto out;
	while ((de = readdir(dir))) {
		int r;

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
		if (!ends_with(wt.buf, "/.git"))
			strbuf_addstr(&wt, "/.git");
		/* a worktree that is gone, or not a directory: left alone */
		strbuf_setlen(&wt, wt.len - 5);
		if (stat(wt.buf, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		strbuf_addstr(&wt, "/.git");
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/worktrees/%s", commondir, de->d_name);
		if (repo_realpath(&admin, path.buf) < 0)
			break;
		r = repo_read_gitfile(&target, wt.buf);
		if (r < 0)
			error_clear();
		if (r > 0 && !strcmp(target.buf, admin.buf))
			continue;
		if (r == 0 && !stat(wt.buf, &st) && !S_ISREG(st.st_mode))
			continue;	/* .git is not a file: git says so */
		ret = write_gitfile(wt.buf, admin.buf);
		if (ret < 0)
			break;
	}
	closedir(dir);
out:
	strbuf_release(&path);
	strbuf_release(&wt);
	strbuf_release(&admin);
	strbuf_release(&target);
	return ret;
}
