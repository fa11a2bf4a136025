/*
 * check-ignore: say which paths the ignore rules exclude (lib/exclude.h,
 * the standard sources: .gitignore files, info/exclude,
 * core.excludesFile), and with -v by which pattern of which source.
 *
 * As in git: a path the index tracks (a pathspec that matches an index
 * entry) is never reported, unless
 * --no-index; without -v a path whose deciding pattern is a negation is
 * not reported, with -v it is, and counts for the exit code (0 if some
 * path was reported, 1 if none).  Paths are pathspecs: relative to the
 * current directory, ":/" magic allowed, other magic refused.  With
 * --stdin each line (C-quoted if it starts with '"', unless -z) is one
 * path, and the answer is flushed at once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"
#include "exclude.h"
#include "index.h"
#include "parse-options.h"
#include "pathspec.h"
#include "quote.h"
#include "repo.h"
#include "sparse-index.h"
#include "strbuf.h"
#include "tree.h"

const char *const check_ignore_usage[] = {
	"dirc check-ignore [<options>] <pathname>...",
	"dirc check-ignore [<options>] --stdin",
	NULL,
};

struct ci {
	struct repo *repo;
	struct index idx;
	struct excludes ex;
	struct strbuf out;
	int quiet, verbose, stdin_paths, nul, non_matching, no_index;
};

static void
show(struct ci *ci, const char *path, const struct exclude_pattern *p)
{
	struct strbuf *o = &ci->out;
	const char *bang = p && (p->flags & EXCLUDE_NEGATIVE) ? "!" : "";
	const char *slash = p && (p->flags & EXCLUDE_MUSTBEDIR) ? "/" : "";

	strbuf_reset(o);
	if (!ci->verbose) {
		if (ci->nul)
			strbuf_add(o, path, strlen(path) + 1);
		else {
			quote_c_style(o, path, strlen(path),
				      ci->repo->settings.quotepath);
			strbuf_addch(o, '\n');
		}
	} else if (ci->nul) {
		if (p)
			strbuf_addf(o, "%s%c%d%c%s%s%s%c", p->list->src, '\0',
				    p->lineno, '\0', bang, p->pattern, slash,
				    '\0');
		else
			strbuf_add(o, "\0\0\0", 3);
		strbuf_add(o, path, strlen(path) + 1);
	} else {
		if (p) {
			quote_c_style(o, p->list->src, strlen(p->list->src),
				      ci->repo->settings.quotepath);
			strbuf_addf(o, ":%d:%s%s%s\t", p->lineno, bang,
				    p->pattern, slash);
		} else {
			strbuf_addstr(o, "::\t");
		}
		quote_c_style(o, path, strlen(path),
			      ci->repo->settings.quotepath);
		strbuf_addch(o, '\n');
	}
	fwrite(o->buf, 1, o->len, stdout);
}

/* Does the item match an index entry (git's "seen" against the index)? */
static int
in_index(struct ci *ci, const struct pathspec *ps)
{
	const struct pathspec_item *it = &ps->items[0];
	const struct index *idx = &ci->idx;
	size_t first = 0, n = it->nowildcard_len;

	if (ps->magic & PATHSPEC_ICASE) {
		n = 0;
	} else if (n) {
		/* only names starting with the literal part can match */
		ssize_t pos = index_pos(idx, it->match, n, 0);

		first = pos < 0 ? (size_t)(-pos - 1) : (size_t)pos;
	}
	for (size_t i = first; i < idx->nr; i++) {
		const struct index_entry *e = idx->entries[i];

		if (n && (e->namelen < n || memcmp(e->name, it->match, n)))
			break;
		if (pathspec_match(ps, e->name, e->namelen, 0, NULL,
				   S_ISGITLINK(e->mode) ?
				   PATHSPEC_MATCH_DIRECTORY : 0))
			return 1;
	}
	return 0;
}

/*
 * git's checks on the paths: none may lie beyond a symbolic link, nor
 * inside a submodule ("sub/" loses its slash).
 */
static void
check_leading(struct ci *ci, struct pathspec_item *it)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 1; i < it->len; i++) {
		struct stat st;

		if (it->match[i] != '/')
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, it->match, i);
		if (lstat(sb.buf, &st) < 0)
			break;
		if (S_ISLNK(st.st_mode))
			die("pathspec '%s' is beyond a symbolic link",
			    it->original);
	}
	strbuf_release(&sb);
	for (size_t i = 0; i < ci->idx.nr; i++) {
		const struct index_entry *e = ci->idx.entries[i];

		if (!S_ISGITLINK(e->mode) || it->len <= e->namelen ||
		    it->match[e->namelen] != '/' ||
		    memcmp(e->name, it->match, e->namelen))
			continue;
		if (it->len == e->namelen + 1) {
			it->match[--it->len] = '\0';
			if (it->nowildcard_len > it->len)
				it->nowildcard_len = it->len;
		} else {
			die("Pathspec '%s' is in submodule '%.*s'",
			    it->original, (int)e->namelen, e->name);
		}
	}
}

static void
check_magic(const struct pathspec *ps)
{
	for (size_t i = 0; i < ps->nr; i++) {
		unsigned m = ps->items[i].magic & ~PATHSPEC_TOP;

		if (m)
			die("%s: pathspec magic not supported by this "
			    "command: %s", ps->items[i].original,
			    m & PATHSPEC_LITERAL ? "'literal'" :
			    m & PATHSPEC_GLOB ? "'glob'" :
			    m & PATHSPEC_ICASE ? "'icase'" :
			    "'exclude' (mnemonic: '!')");
	}
}

/* Check the paths args (nr of them); how many were reported. */
static int
check_paths(struct ci *ci, const char *const *args, size_t nr)
{
	struct pathspec ps = PATHSPEC_INIT;
	int ret, ignored = 0;

	ret = pathspec_parse(&ps, args, nr, ci->repo->prefix,
			     ci->repo->worktree, 0);
	if (ret < 0)
		die_lib(ret);
	check_magic(&ps);
	for (size_t i = 0; i < ps.nr; i++)
		check_leading(ci, &ps.items[i]);
	for (size_t i = 0; i < ps.nr; i++) {
		struct pathspec one = { &ps.items[i], 1, ps.items[i].magic };
		const struct pathspec_item *it = &ps.items[i];
		const struct exclude_pattern *p = NULL;

		if (ci->no_index || !in_index(ci, &one)) {
			p = excludes_pattern(&ci->ex, it->match, it->len,
					     EXCLUDE_DTYPE_UNKNOWN);
			if (!ci->verbose && p && (p->flags & EXCLUDE_NEGATIVE))
				p = NULL;
		}
		if (!ci->quiet && (p || ci->non_matching))
			show(ci, it->original, p);
		ignored += p != NULL;
	}
	pathspec_release(&ps);
	return ignored;
}

/* A line of input, as git's strbuf_getline (a CR before the LF dropped). */
static int
read_line(struct strbuf *line, int nul)
{
	if (strbuf_getdelim(line, stdin, nul ? '\0' : '\n') == EOF)
		return 0;
	if (!nul && line->len && line->buf[line->len - 1] == '\r')
		strbuf_setlen(line, line->len - 1);
	return 1;
}

int
cmd_check_ignore(int argc, const char **argv)
{
	struct repo repo;
	struct ci ci;
	struct strbuf line = STRBUF_INIT, unq = STRBUF_INIT;
	struct odb *odb;
	int ret, ignored = 0;
	struct option opts[] = {
		OPT_BOOL('q', "quiet", &ci.quiet, "suppress progress "
			 "reporting"),
		OPT_BOOL('v', "verbose", &ci.verbose, "be verbose"),
		OPT_GROUP(""),
		OPT_BOOL(0, "stdin", &ci.stdin_paths, "read file names from "
			 "stdin"),
		OPT_BOOL('z', NULL, &ci.nul, "terminate input and output "
			 "records by a NUL character"),
		OPT_BOOL('n', "non-matching", &ci.non_matching, "show "
			 "non-matching input paths"),
		OPT_BOOL(0, "no-index", &ci.no_index, "ignore index when "
			 "checking"),
		OPT_END(),
	};

	memset(&ci, 0, sizeof(ci));
	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options_to(check_ignore_usage, opts, 0, 129);
	ret = repo_open(&repo, REPO_NEED_WORKTREE);
	if (ret < 0)
		die_lib(ret);
	ci.repo = &repo;
	argc = parse_options(argc, argv, opts, check_ignore_usage, 0);

	if (ci.stdin_paths) {
		if (argc > 0)
			die("cannot specify pathnames with --stdin");
	} else {
		if (ci.nul)
			die("-z only makes sense with --stdin");
		if (argc == 0)
			die("no path specified");
	}
	if (ci.quiet) {
		if (argc > 1)
			die("--quiet is only valid with a single pathname");
		if (ci.verbose)
			die("cannot have both --quiet and --verbose");
	}
	if (ci.non_matching && !ci.verbose)
		die("--non-matching is only valid with --verbose");

	if (!ci.no_index) {
		ret = index_read_in(&ci.idx, repo.index_path, &repo, 0, 0);
		if (ret < 0)
			die_lib(ret);
		ret = sparse_index_after_read(&ci.idx, &repo,
					      SPARSE_INDEX_FULL |
					      SPARSE_INDEX_NO_PRESENT);
		if (ret < 0)
			die_lib(ret);
	}
	excludes_init(&ci.ex, repo.settings.ignorecase ? EXCLUDE_ICASE : 0);
	if (!ci.no_index) {
		ret = repo_odb(&odb, &repo);
		if (ret < 0)
			die_lib(ret);
		excludes_set_index(&ci.ex, &ci.idx, odb);
	}
	ret = excludes_add_standard(&ci.ex, &repo);
	if (ret < 0)
		die_lib(ret);
	strbuf_init(&ci.out, 0);

	if (ci.stdin_paths) {
		while (read_line(&line, ci.nul)) {
			const char *path = line.buf;

			if (!ci.nul && line.buf[0] == '"') {
				if (unquote_c_style(&unq, line.buf, NULL))
					die("line is badly quoted");
				path = unq.buf;
			}
			ignored += check_paths(&ci, &path, 1);
			if (fflush(stdout))
				die("unable to write to stdout: %s",
				    strerror(errno));
		}
	} else {
		ignored = check_paths(&ci, argv, (size_t)argc);
	}

	strbuf_release(&line);
	strbuf_release(&unq);
	strbuf_release(&ci.out);
	excludes_release(&ci.ex);
	if (!ci.no_index)
		index_release(&ci.idx);
	repo_release(&repo);
	return !ignored;
}
