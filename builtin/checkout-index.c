/*
 * checkout-index: copy files from the index into the work tree.
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
#include "strbuf.h"

const char *const checkout_index_usage[] = {
	"dirc checkout-index [<options>] [--] [<file>...]",
	NULL,
};

/* Say how checking out one entry failed, as git says it. */
static void
report(const struct checkout *co, int ret)
{
	fflush(stdout);
	if (ret == -E_CONFLICT)
		die("%s", error_msg());	/* git dies here */
	if (ret == -E_EXISTS) {
		if (!co->quiet)
			fprintf(stderr, "%s\n", error_msg());
	} else {
		fprintf(stderr, "error: %s\n", error_msg());
	}
}

/* Check out every entry of name; -1 (after a message) if none. */
static int
checkout_path(struct checkout *co, struct index *idx, const char *name)
{
	size_t len = strlen(name);
	ssize_t pos = index_pos(idx, name, len, -1);
	int has_same = 0, did = 0, errs = 0;

	if (pos < 0)
		pos = -pos - 1;
	for (; (size_t)pos < idx->nr; pos++) {
		struct index_entry *e = idx->entries[pos];

		if (e->namelen != len || memcmp(e->name, name, len))
			break;
		has_same = 1;
		if (ce_stage(e))
			continue;
		did = 1;
		{
			int ret = checkout_entry(co, e);

			if (ret < 0) {
				report(co, ret);
				errs++;
			}
		}
	}
	if (did)
		return errs ? -1 : 0;
	if (!co->quiet)
		fprintf(stderr, "git checkout-index: %s %s\n", name,
			has_same ? "is unmerged" : "is not in the cache");
	return -1;
}

static void
tick(void *ctx, uint64_t n)
{
	progress_add(ctx, n, 0);
	progress_tick(ctx);
}

static int
opt_progress(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	progress_setup(!unset);
	return 0;
}

int
cmd_checkout_index(int argc, const char **argv)
{
	struct repo repo;
	struct index idx;
	struct odb *odb;
	struct checkout co;
	struct lockfile lk = LOCKFILE_INIT;
	struct strbuf norm = STRBUF_INIT;
	const char *prefix = NULL;
	int all = 0, force = 0, update = 0, quiet = 0, not_new = 0;
	int read_stdin = 0, nul = 0, err = 0, threads = 0, ret;
	struct option opts[] = {
		OPT_BOOL('a', "all", &all, "check out all files in the index"),
		OPT_BOOL('f', "force", &force,
			 "force overwrite of existing files"),
		OPT_BOOL('q', "quiet", &quiet, "no warning for existing files "
			 "and files not in index"),
		OPT_BOOL('n', "no-create", &not_new,
			 "don't checkout new files"),
		OPT_BOOL('u', "index", &update, "update stat information in "
			 "the index file"),
		OPT_BOOL('z', NULL, &nul, "paths are separated with NUL "
			 "character"),
		OPT_BOOL(0, "stdin", &read_stdin, "read list of paths from the "
			 "standard input"),
		OPT_STRING(0, "prefix", &prefix, "string",
			   "when creating files, prepend <string>"),
		OPT_INT(0, "threads", &threads, "<n>",
			"threads for -a (default: all CPUs)"),
		OPT_CALLBACK_F(0, "progress", NULL, NULL, "show progress",
			       OPT_NOARG, opt_progress),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, checkout_index_usage, 0);
	if (all && (argc || read_stdin))
		die("git checkout-index: don't mix '--all' and explicit "
		    "filenames");
	ret = repo_open(&repo, REPO_NEED_WORKTREE);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	/* -u rewrites the index, so it takes the lock first */
	if (update && !prefix) {
		ret = lockfile_hold(&lk, repo.index_path);
		if (ret < 0)
			die_lib(ret);
	}
	ret = index_read(&idx, repo.index_path, 0);
	if (ret < 0)
		die_lib(ret);
	checkout_init(&co, &repo, &idx, odb);
	co.base = prefix ? prefix : "";
	co.force = force;
	co.quiet = quiet;
	co.not_new = not_new;
	co.refresh = update && !prefix;

	for (int i = 0; i < argc; i++) {
		ret = path_normalize(&norm, repo.prefix, argv[i],
				     repo.worktree);
		if (ret < 0)
			die_lib(ret);
		if (checkout_path(&co, &idx, norm.buf) < 0)
			err = 1;
	}
	if (read_stdin) {
		struct strbuf line = STRBUF_INIT, uq = STRBUF_INIT;

		while (strbuf_getdelim(&line, stdin, nul ? '\0' : '\n') != EOF) {
			const char *p = line.buf;

			if (!nul && line.buf[0] == '"') {
				if (unquote_c_style(&uq, line.buf, NULL))
					die("line is badly quoted");
				p = uq.buf;
			}
			ret = path_normalize(&norm, repo.prefix, p,
					     repo.worktree);
			if (ret < 0)
				die_lib(ret);
			if (checkout_path(&co, &idx, norm.buf) < 0)
				err = 1;
		}
		strbuf_release(&line);
		strbuf_release(&uq);
	}
	if (all) {
		struct index_entry **todo = xmalloc(st_mult(idx.nr + 1,
							    sizeof(*todo)));
		struct checkout_report *rep;
		struct progress *prog;
		size_t nr = 0;

		for (size_t i = 0; i < idx.nr; i++) {
			struct index_entry *e = idx.entries[i];

			if (ce_stage(e) || e->ext_flags & CE_SKIP_WORKTREE)
				continue;
			todo[nr++] = e;
		}
		rep = xcalloc(nr + 1, sizeof(*rep));
		prog = progress_start("Updating files", nr, 0);
		co.progress.add = tick;
		co.progress.ctx = prog;
		if (checkout_many(&co, todo, nr, threads, rep, NULL))
			err = 1;
		progress_stop(&prog);
		/* the messages in index order, whatever thread met them */
		for (size_t i = 0; i < nr; i++) {
			if (rep[i].ret < 0)
				report(&co, error_restore(&rep[i].err));
			error_saved_release(&rep[i].err);
		}
		free(rep);
		free(todo);
	}
	if (co.refreshed)
		index_mark_changed(&idx);
	if (err) {
		lockfile_rollback(&lk);
	} else if (co.refresh && idx.changed) {
		idx.threads = threads;
		ret = index_write(&idx, &repo, &lk);
		if (ret < 0)
			die("Unable to write new index file: %s", error_msg());
	} else {
		lockfile_rollback(&lk);
	}
	checkout_release(&co);
	strbuf_release(&norm);
	index_release(&idx);
	repo_release(&repo);
	return err;
}
