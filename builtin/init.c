/*
 * init: create an empty repository git accepts as is, or re-initialise
 * an existing one without overwriting anything.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "config.h"
#include "parse-options.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"

const char *const init_usage[] = {
	"dirc init [-q | --quiet] [--bare] [--template=<template-directory>]\n"
	"          [--object-format=sha1] [-b <branch-name> | "
	"--initial-branch=<branch-name>]\n"
	"          [<directory>]",
	NULL,
};

static void
mkdir_or_die(const char *path)
{
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		die("cannot mkdir %s: %s", path, strerror(errno));
}

static void
mkdir_p_or_die(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	while ((p = strchr(p + 1, '/'))) {
		strbuf_reset(&sb);
		strbuf_add(&sb, path, p - path);
		mkdir_or_die(sb.buf);
	}
	mkdir_or_die(path);
	strbuf_release(&sb);
}

/* Write a file unless it exists already (re-init keeps what is there). */
static void
write_new_file(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s/%s", dir, name);
	fd = open(path.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		if (errno != EEXIST)
			die("cannot create %s: %s", path.buf, strerror(errno));
	} else {
		if (write_full(fd, text, strlen(text)) < 0 || close(fd) < 0)
			die("cannot write %s: %s", path.buf, strerror(errno));
	}
	strbuf_release(&path);
}

static void
copy_template(const char *from, const char *to)
{
	DIR *dir = opendir(from);
	struct dirent *de;

	if (!dir) {
		warning("templates not found in %s", from);
		return;
	}
	while ((de = readdir(dir))) {
		struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(&src, "%s/%s", from, de->d_name);
		strbuf_addf(&dst, "%s/%s", to, de->d_name);
		if (lstat(src.buf, &st) < 0) {
			/* vanished: skip */
		} else if (S_ISDIR(st.st_mode)) {
			mkdir_or_die(dst.buf);
			copy_template(src.buf, dst.buf);
		} else if (S_ISREG(st.st_mode) && access(dst.buf, F_OK)) {
			struct strbuf data = STRBUF_INIT;
			int fd;

			if (strbuf_read_file(&data, src.buf) < 0)
				die_lib(-1);
			fd = open(dst.buf, O_WRONLY | O_CREAT | O_EXCL, st.st_mode & 0777);
			if (fd < 0 || write_full(fd, data.buf, data.len) < 0 ||
			    close(fd) < 0)
				die("cannot copy '%s' to '%s': %s", src.buf,
				    dst.buf, strerror(errno));
			strbuf_release(&data);
		}
		strbuf_release(&src);
		strbuf_release(&dst);
	}
	closedir(dir);
}

/* Does this file system keep the executable bit? */
static int
probe_filemode(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ok = 0;

	strbuf_addf(&path, "%s/config", gitdir);
	if (!lstat(path.buf, &st) &&
	    !chmod(path.buf, st.st_mode ^ S_IXUSR)) {
		struct stat st2;

		ok = !lstat(path.buf, &st2) &&
		     (st.st_mode & S_IXUSR) != (st2.st_mode & S_IXUSR);
		chmod(path.buf, st.st_mode);
	}
	strbuf_release(&path);
	return ok;
}

/*
 * Write the core settings into config, keeping whatever a config file
 * already there holds (only the keys it lacks are added).
 */
static void
write_config(const char *gitdir, int bare)
{
	struct strbuf path = STRBUF_INIT, old = STRBUF_INIT, add = STRBUF_INIT;
	struct config have = CONFIG_INIT;
	const char *v;
	int fd;

	strbuf_addf(&path, "%s/config", gitdir);
	write_new_file(gitdir, "config", "");
	if (strbuf_read_file(&old, path.buf) < 0 ||
	    config_parse_buffer(&have, old.buf, old.len, path.buf, 0) < 0)
		die_lib(-1);
	if (!config_get(&have, "core.repositoryformatversion", &v))
		strbuf_addstr(&add, "\trepositoryformatversion = 0\n");
	if (!config_get(&have, "core.filemode", &v))
		strbuf_addf(&add, "\tfilemode = %s\n",
			    probe_filemode(gitdir) ? "true" : "false");
	if (!config_get(&have, "core.bare", &v))
		strbuf_addf(&add, "\tbare = %s\n", bare ? "true" : "false");
	if (!bare && !config_get(&have, "core.logallrefupdates", &v))
		strbuf_addstr(&add, "\tlogallrefupdates = true\n");
	if (add.len) {
		fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0 ||
		    (old.len && old.buf[old.len - 1] != '\n' &&
		     write_full(fd, "\n", 1) < 0) ||
		    write_full(fd, "[core]\n", 7) < 0 ||
		    write_full(fd, add.buf, add.len) < 0 || close(fd) < 0)
			die("cannot write %s: %s", path.buf, strerror(errno));
	}
	config_release(&have);
	strbuf_release(&path);
	strbuf_release(&old);
	strbuf_release(&add);
}

static const char exclude_text[] =
	"# Patterns of untracked files for git status to leave out, for this\n"
	"# repository only (see gitignore(5)).  Lines starting with '#' are\n"
	"# comments.\n";

int
cmd_init(int argc, const char **argv)
{
	const char *branch = NULL, *template = NULL, *format = NULL;
	int quiet = 0, bare = 0, reinit, ret;
	struct strbuf gitdir = STRBUF_INIT, sb = STRBUF_INIT;
	struct config cfg = CONFIG_INIT;
	const char *env_dir = getenv("GIT_DIR");
	char *template_abs = NULL;
	int branch_given;
	struct option opts[] = {
		OPT_STRING(0, "template", &template, "template-directory",
			   "directory from which templates will be used"),
		OPT_BOOL(0, "bare", &bare, "create a bare repository"),
		OPT_BOOL('q', "quiet", &quiet, "be quiet"),
		OPT_STRING('b', "initial-branch", &branch, "name",
			   "override the name of the initial branch"),
		OPT_STRING(0, "object-format", &format, "hash",
			   "specify the hash algorithm to use"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, init_usage, 0);
	if (argc > 1)
		usage_with_options(init_usage, opts);
	if (format && strcmp(format, "sha1"))
		die("unknown hash algorithm '%s' (dirc supports sha1)", format);
	/* relative paths are from where we started, not the new directory */
	if (template && *template && template[0] != '/')
		template = template_abs = repo_abspath(template, NULL);
	if (argc == 1) {
		mkdir_p_or_die(argv[0]);
		if (chdir(argv[0]) < 0)
			die("cannot chdir to %s: %s", argv[0], strerror(errno));
	}

	/* the configuration that applies before the repository exists */
	ret = config_load_user(&cfg);
	if (!ret)
		ret = config_load_env(&cfg);
	if (ret < 0)
		die_lib(ret);
	branch_given = branch != NULL;
	if (!branch && config_get_string(&cfg, "init.defaultbranch",
					 &branch) < 0)
		die_lib(-1);
	if (!template)
		config_get_string(&cfg, "init.templatedir", &template);
	if (branch) {
		strbuf_addf(&sb, "refs/heads/%s", branch);
		if (!refname_is_valid(sb.buf, 0))
			die("invalid initial branch name: '%s'", branch);
	}

	if (env_dir && *env_dir) {
		char *abs = repo_abspath(env_dir, NULL);

		strbuf_addstr(&gitdir, abs);
		free(abs);
		if (!getenv("GIT_WORK_TREE"))
			bare = 1;
	} else {
		if (strbuf_getcwd(&gitdir) < 0)
			die_lib(-1);
		if (!bare)
			strbuf_addstr(&gitdir, "/.git");
	}
	mkdir_p_or_die(gitdir.buf);
	reinit = repo_is_gitdir(gitdir.buf, NULL);

	if (template && *template)
		copy_template(template, gitdir.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/refs", gitdir.buf);
	mkdir_or_die(sb.buf);
	strbuf_addstr(&sb, "/heads");
	mkdir_or_die(sb.buf);
	strbuf_setlen(&sb, sb.len - 6);
	strbuf_addstr(&sb, "/tags");
	mkdir_or_die(sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/objects", gitdir.buf);
	mkdir_or_die(sb.buf);
	strbuf_addstr(&sb, "/info");
	mkdir_or_die(sb.buf);
	strbuf_setlen(&sb, sb.len - 5);
	strbuf_addstr(&sb, "/pack");
	mkdir_or_die(sb.buf);
	if (!template || *template) {
		/* what git's default templates give, in our words */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/info", gitdir.buf);
		mkdir_or_die(sb.buf);
		write_new_file(sb.buf, "exclude", exclude_text);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/hooks", gitdir.buf);
		mkdir_or_die(sb.buf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/branches", gitdir.buf);
		mkdir_or_die(sb.buf);
		write_new_file(gitdir.buf, "description",
			       "Unnamed repository; edit this file "
			       "'description' to name the repository.\n");
	}

	if (!reinit) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "ref: refs/heads/%s\n",
			    branch ? branch : "master");
		write_new_file(gitdir.buf, "HEAD", sb.buf);
		write_config(gitdir.buf, bare);
		if (!branch && !quiet)
			fprintf(stderr,
				"hint: Using 'master' as the name for the "
				"initial branch. Set init.defaultBranch\n"
				"hint: (git config --global init.defaultBranch "
				"<name>) to choose another and\n"
				"hint: silence this hint.\n");
	} else if (branch_given) {
		/* git warns even with -q */
		warning("re-init: ignored --initial-branch=%s", branch);
	}
	if (!quiet)
		printf("%s Git repository in %s/\n",
		       reinit ? "Reinitialized existing" : "Initialized empty",
		       gitdir.buf);
	strbuf_release(&gitdir);
	strbuf_release(&sb);
	config_release(&cfg);
	free(template_abs);
	return 0;
}
