/*
 * checkout-index: copy files from the index into the work tree, or into
 * temporary files (--temp), from stage 0 or a named stage.
 *
 * Nothing is written before everything that would make git die midway
 * has been checked: the --stdin input is read and unquoted whole, and
 * every entry to be written is checked for a file in the way of its
 * directories (git's "cannot create directory at").  Per-path problems
 * ("already exists", "is not in the cache") are reported as git reports
 * them, in git's order, and the others are still checked out.
 */
#include "builtin.h"
#include "checkout.h"
#include "index.h"
#include "odb.h"
#include "parse-options.h"
#include "path.h"
#include "progress.h"
#include "quote.h"
#include "repo.h"
#include "sparse-index.h"
#include "sparse.h"
#include "strbuf.h"

const char *const checkout_index_usage[] = {
	"dirc checkout-index [<options>] [--] [<file>...]",
	NULL,
};

#define STAGE_ALL 4	/* --stage=all: stages 1 to 3 of each path */

struct ci {
	struct repo repo;
	struct index idx;
	struct checkout co;
	int stage;		/* 0, 1 to 3, or STAGE_ALL */
	int temp;		/* --temp; -1 until the options are read */
	int ignore_skip;	/* --ignore-skip-worktree-bits */
	int quiet;
	int nul;		/* -z */
	int threads;
	int check;		/* a dry pass: only look for fatal conflicts */
	int err;		/* some path failed */
};

/* Say how checking out one entry failed, as git says it. */
static void
report(struct ci *ci, int ret)
{
	fflush(stdout);
	if (ret == -E_CONFLICT || ret == -E_FILTER)
		die("%s", error_msg());	/* git dies here */
	if (ret == -E_EXISTS) {
		if (!ci->quiet)
			fprintf(stderr, "%s\n", error_msg());
	} else {
		fprintf(stderr, "error: %s\n", error_msg());
	}
	ci->err = 1;
}

/* name as seen from the directory the command started in: "a", "../x" */
static void
add_relative(struct strbuf *out, const char *name, size_t len,
	     const char *prefix)
{
	size_t plen = strlen(prefix), common = 0;

	if (len >= plen && !memcmp(name, prefix, plen)) {
		strbuf_add(out, name + plen, len - plen);
		return;
	}
	for (size_t i = 0; i < plen && i < len && prefix[i] == name[i]; i++)
		if (prefix[i] == '/')
			common = i + 1;
	for (size_t i = common; i < plen; i++)
		if (prefix[i] == '/')
			strbuf_addstr(out, "../");
	strbuf_add(out, name + common, len - common);
}

/* One line of the --temp listing: "<temp names>\t<path>" and RS. */
static void
print_temp(struct ci *ci, const struct strbuf *names, const char *name,
	   size_t len)
{
	struct strbuf line = STRBUF_INIT, rel = STRBUF_INIT;

	strbuf_addbuf(&line, names);
	strbuf_addch(&line, '\t');
	add_relative(&rel, name, len, ci->repo.prefix);
	if (ci->nul)
		strbuf_addbuf(&line, &rel);
	else
		quote_c_style(&line, rel.buf, rel.len,
			      ci->repo.settings.quotepath);
	strbuf_addch(&line, ci->nul ? '\0' : '\n');
	fwrite(line.buf, 1, line.len, stdout);
	strbuf_release(&line);
	strbuf_release(&rel);
}

/* Is entry e one this run checks out (stage, and skip-worktree aside)? */
static int
wanted(const struct ci *ci, const struct index_entry *e)
{
	if (ci->stage == STAGE_ALL)
		return ce_stage(e) != 0;
	return ce_stage(e) == ci->stage;
}

/* "<stage 1> <stage 2> <stage 3>", "." for a stage not written. */
static void
stage_names(struct strbuf *out, struct strbuf *stage)
{
	strbuf_reset(out);
	for (int s = 1; s <= 3; s++) {
		if (s > 1)
			strbuf_addch(out, ' ');
		if (stage[s].len)
			strbuf_addbuf(out, &stage[s]);
		else
			strbuf_addch(out, '.');
	}
}

/*
 * Check out the wanted entries of one path (in a check pass, only look
 * for what would make git die).  0, or -1 after git's message.
 */
static int
checkout_path(struct ci *ci, const char *name, size_t len)
{
	ssize_t pos = index_pos(&ci->idx, name, len, -1);
	struct strbuf stage[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				   STRBUF_INIT };
	int has_same = 0, did = 0, made = 0, ret = -1, sparse_dir;

	if (pos < 0)
		pos = -pos - 1;
	for (; (size_t)pos < ci->idx.nr; pos++) {
		struct index_entry *e = ci->idx.entries[pos];
		int s = ce_stage(e);

		if (e->namelen != len || memcmp(e->name, name, len))
			break;
		has_same = 1;
		if (!wanted(ci, e))
			continue;
		if (e->ext_flags & CE_SKIP_WORKTREE && !ci->ignore_skip) {
			if (!ci->check && !ci->quiet)
				fprintf(stderr, "git checkout-index: %s has "
					"skip-worktree enabled; use "
					"'--ignore-skip-worktree-bits' to "
					"checkout\n", name);
			goto out;
		}
		did = 1;
		if (ci->check) {
			if ((ci->temp ? checkout_check_conversion(&ci->co, e) :
			     checkout_precheck(&ci->co, e)) < 0)
				die("%s", error_msg());
		} else if (!ci->temp) {
			int r = checkout_entry(&ci->co, e);

			if (r < 0)
				report(ci, r);
		} else {
			int r = checkout_entry_temp(&ci->co, e, &stage[s]);

			if (r < 0)
				report(ci, r);
			else
				made = 1;
		}
	}
	if (made) {
		/* the listing: its first field is the temporary name(s) */
		if (ci->stage == STAGE_ALL)
			stage_names(&stage[0], stage);
		print_temp(ci, &stage[ci->stage == STAGE_ALL ? 0 : ci->stage],
			   name, len);
	}
	/* a directory git holds collapsed: an entry of that name, not a file */
	sparse_dir = !has_same && sparse_index_names_dir(&ci->idx, name, len);
	if (did || ((has_same || sparse_dir) && ci->stage == STAGE_ALL)) {
		ret = 0;
		goto out;
	}
	if (!ci->quiet && !ci->check) {
		if (sparse_dir)
			fprintf(stderr, "git checkout-index: %s is a sparse "
				"directory\n", name);
		else if (!has_same)
			fprintf(stderr, "git checkout-index: %s is not in the "
				"cache\n", name);
		else if (ci->stage)
			fprintf(stderr, "git checkout-index: %s does not "
				"exist at stage %d\n", name, ci->stage);
		else
			fprintf(stderr, "git checkout-index: %s is unmerged\n",
				name);
	}
out:
	for (int s = 0; s < 4; s++)
		strbuf_release(&stage[s]);
	return ret;
}

/*
 * -a: every wanted entry in index order — of the directory the command
 * started in, as git — the files written in parallel.
 */
static void
checkout_all(struct ci *ci)
{
	struct index_entry **todo = xmalloc(st_mult(ci->idx.nr + 1,
						    sizeof(*todo)));
	const char *dir = ci->repo.prefix;
	size_t dirlen = strlen(dir);
	struct checkout_report *rep;
	struct progress *prog;
	size_t nr = 0;

	for (size_t i = 0; i < ci->idx.nr; i++) {
		struct index_entry *e = ci->idx.entries[i];

		if ((dirlen && (e->namelen <= dirlen ||
				memcmp(e->name, dir, dirlen))) ||
		    !wanted(ci, e) ||
		    (e->ext_flags & CE_SKIP_WORKTREE && !ci->ignore_skip))
			continue;
		if (ci->temp) {
			/* one listing line per path, stages together */
			size_t j = i;

			while (j + 1 < ci->idx.nr &&
			       !strcmp(ci->idx.entries[j + 1]->name, e->name))
				j++;
			if (checkout_path(ci, e->name, e->namelen) < 0)
				ci->err = 1;
			i = j;
			continue;
		}
		if (ci->check) {
			if (checkout_precheck(&ci->co, e) < 0)
				die("%s", error_msg());
			continue;
		}
		todo[nr++] = e;
	}
	if (ci->check || ci->temp) {
		free(todo);
		return;
	}
	rep = xcalloc(nr + 1, sizeof(*rep));
	prog = progress_start("Updating files", nr, 0);
	ci->co.progress.ctx = prog;
	/* all stages of a path go to one file: in order, on one thread */
	checkout_many(&ci->co, todo, nr,
		      ci->stage == STAGE_ALL ? 1 : ci->threads, rep, NULL);
	progress_stop(&prog);
	ci->co.progress.ctx = NULL;
	/* the messages in index order, whatever thread met them */
	for (size_t i = 0; i < nr; i++) {
		if (rep[i].ret < 0)
			report(ci, error_restore(&rep[i].err));
		error_saved_release(&rep[i].err);
	}
	free(rep);
	free(todo);
}

static void
tick_add(void *ctx, uint64_t n)
{
	progress_add(ctx, n, 0);
}

static void
tick(void *ctx)
{
	progress_tick(ctx);
}

/* --stage=<n>|all: as git, the first character decides a number. */
static int
opt_stage(const struct option *opt, const char *arg, int unset)
{
	struct ci *ci = opt->value;

	(void)unset;
	if (!strcmp(arg, "all")) {
		ci->stage = STAGE_ALL;	/* implies --temp, decided after */
	} else if (arg[0] >= '1' && arg[0] <= '3') {
		ci->stage = arg[0] - '0';
	} else {
		die("stage should be between 1 and 3 or all");
	}
	return 0;
}

/* A path from the command line or --stdin, as a path from the top. */
static void
normalize(struct ci *ci, struct strbuf *out, const char *arg)
{
	int ret = path_normalize(out, ci->repo.prefix, arg, ci->repo.worktree);

	if (ret < 0)
		die_lib(ret);
}

int
cmd_checkout_index(int argc, const char **argv)
{
	struct ci ci = { .stage = 0, .temp = -1 };
	struct odb *odb;
	struct lockfile lk = LOCKFILE_INIT;
	struct strbuf norm = STRBUF_INIT;
	char **paths = NULL;
	size_t npaths = 0, alloc = 0;
	const char *prefix = NULL;
	int all = 0, force = 0, update = 0, not_new = 0, read_stdin = 0, ret;
	struct option opts[] = {
		OPT_BOOL('a', "all", &all, "check out all files in the index"),
		OPT_BOOL(0, "ignore-skip-worktree-bits", &ci.ignore_skip,
			 "do not skip files with skip-worktree set"),
		OPT_BOOL('f', "force", &force,
			 "force overwrite of existing files"),
		OPT_BOOL('q', "quiet", &ci.quiet, "no warning for existing "
			 "files and files not in index"),
		OPT_BOOL('n', "no-create", &not_new,
			 "don't checkout new files"),
		OPT_BOOL('u', "index", &update, "update stat information in "
			 "the index file"),
		OPT_BOOL('z', NULL, &ci.nul, "paths are separated with NUL "
			 "character"),
		OPT_BOOL(0, "stdin", &read_stdin, "read list of paths from the "
			 "standard input"),
		OPT_BOOL(0, "temp", &ci.temp, "write the content to temporary "
			 "files"),
		OPT_STRING(0, "prefix", &prefix, "string",
			   "when creating files, prepend <string>"),
		OPT_CALLBACK_F(0, "stage", &ci, "(1|2|3|all)",
			       "copy out the files from named stage",
			       OPT_NONEG, opt_stage),
		OPT_INT(0, "threads", &ci.threads, "<n>",
			"threads for -a (default: all CPUs)"),
		OPT_CALLBACK_F(0, "progress", NULL, NULL, "show progress",
			       OPT_NOARG, progress_option),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, checkout_index_usage, 0);
	/*
	 * --stage=all implies --temp unless told otherwise, wherever the
	 * options stand; git 2.39 let a later --no-temp write the stages
	 * over each other in the work tree, git 2.55 refuses it.
	 */
	if (ci.temp < 0)
		ci.temp = ci.stage == STAGE_ALL;
	if (!ci.temp && ci.stage == STAGE_ALL)
		die("options '--stage=all' and '--no-temp' cannot be used "
		    "together");
	if (all && argc)
		die("git checkout-index: don't mix '--all' and explicit "
		    "filenames");
	if (all && read_stdin)
		die("git checkout-index: don't mix '--all' and '--stdin'");
	if (read_stdin && argc)
		die("git checkout-index: don't mix '--stdin' and explicit "
		    "filenames");
	ret = repo_open(&ci.repo, REPO_NEED_WORKTREE);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &ci.repo);
	if (ret < 0)
		die_lib(ret);
	/* -u rewrites the index (not with --prefix or --temp): lock first */
	if (update && !prefix && !ci.temp) {
		ret = lockfile_hold(&lk, ci.repo.index_path);
		if (ret < 0)
			die_lib(ret);
	}
	ret = index_read_in(&ci.idx, ci.repo.index_path, &ci.repo, 0,
			    ci.threads);
	if (ret < 0)
		die_lib(ret);
	/* kept (only stat data changes), on or off as configured */
	index_untracked_follow(&ci.idx, &ci.repo);
	ret = sparse_index_after_read(&ci.idx, &ci.repo, SPARSE_INDEX_AWARE);
	if (ret < 0)
		die_lib(ret);
	checkout_init(&ci.co, &ci.repo, &ci.idx, odb);
	ci.co.base = prefix ? prefix : "";
	ci.co.force = force;
	ci.co.quiet = ci.quiet;
	ci.co.not_new = not_new;
	ci.co.refresh = update && !prefix && !ci.temp;
	ci.co.progress.add = tick_add;
	ci.co.progress.tick = tick;

	/* the paths, all of them, before anything is written */
	for (int i = 0; i < argc; i++) {
		normalize(&ci, &norm, argv[i]);
		ALLOC_GROW(paths, npaths + 1, alloc);
		paths[npaths++] = strbuf_detach(&norm, NULL);
	}
	if (read_stdin) {
		struct strbuf line = STRBUF_INIT, uq = STRBUF_INIT;

		while (strbuf_getdelim(&line, stdin, ci.nul ? '\0' : '\n') !=
		       EOF) {
			const char *p = line.buf;

			if (!ci.nul && line.buf[0] == '"') {
				if (unquote_c_style(&uq, line.buf, NULL))
					die("line is badly quoted");
				p = uq.buf;
			}
			normalize(&ci, &norm, p);
			ALLOC_GROW(paths, npaths + 1, alloc);
			paths[npaths++] = strbuf_detach(&norm, NULL);
		}
		strbuf_release(&line);
		strbuf_release(&uq);
	}

	/* first a pass that only looks, then the real one */
	for (ci.check = 1; ci.check >= 0; ci.check--) {
		checkout_quiet(&ci.co, ci.check);
		for (size_t i = 0; i < npaths; i++)
			if (checkout_path(&ci, paths[i], strlen(paths[i])) < 0)
				ci.err = 1;
		if (all)
			checkout_all(&ci);
		if (ci.check)
			ci.err = 0;
	}

	if (ci.co.refreshed)
		index_mark_changed(&ci.idx);
	if (ci.err || !ci.co.refresh || !ci.idx.changed) {
		lockfile_rollback(&lk);
	} else {
		ci.idx.threads = ci.threads;
		ret = index_write(&ci.idx, &ci.repo, &lk);
		if (ret < 0)
			die("Unable to write new index file: %s", error_msg());
	}
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	checkout_release(&ci.co);
	strbuf_release(&norm);
	index_release(&ci.idx);
	repo_release(&ci.repo);
	return ci.err;
}
