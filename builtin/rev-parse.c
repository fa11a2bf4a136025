/*
 * rev-parse: the answers scripts ask git's plumbing for — object ids of
 * names (--verify, -q, --short, --symbolic...), the revision and flag
 * arguments a porcelain passes on to rev-list (with --revs-only,
 * --no-flags, ...), and where the repository is (--git-dir,
 * --show-toplevel, --git-path, ...).
 *
 * Arguments are handled one at a time, left to right, as git does: an
 * option changes what follows it, a name is printed as an id, anything
 * else is a path (which must exist unless after "--").  The repository is
 * opened at the first argument that needs one, so --sq-quote,
 * --local-env-vars and --resolve-git-dir work outside any repository.
 *
 * Paths are printed the way git prints them: git works from the top of
 * the work tree (or from where it started, outside one), so a path git
 * holds relative is relative to that directory, and "--path-format"
 * turns it into an absolute or cwd-relative one.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "path.h"
#include "commit.h"
#include "config.h"
#include "date.h"
#include "index.h"
#include "object-name.h"
#include "odb.h"
#include "ref-list.h"
#include "refs.h"
#include "quote.h"
#include "repo.h"
#include "rev-parse-parseopt.h"
#include "sparse-index.h"
#include "strbuf.h"
#include "tree.h"

const char *const rev_parse_usage[] = {
	"dirc rev-parse --parseopt [<options>] -- [<args>...]",
	"dirc rev-parse --sq-quote [<arg>...]",
	"dirc rev-parse [<options>] [<arg>...]",
	NULL,
};

/* What is printed (git's filter bits). */
enum {
	DO_REVS = 1,		/* revisions */
	DO_NOREV = 2,		/* arguments that are not revisions */
	DO_FLAGS = 4,		/* options */
	DO_NONFLAGS = 8,	/* arguments that are not options */
};

enum { NORMAL = 0, REVERSED = 1 };
enum { SYMBOLIC_NONE, SYMBOLIC_ASIS, SYMBOLIC_FULL };
enum path_format { FORMAT_DEFAULT, FORMAT_CANONICAL, FORMAT_RELATIVE };
enum path_default {
	DEFAULT_UNMODIFIED,		/* as git holds it */
	DEFAULT_CANONICAL,		/* absolute, symlinks resolved */
	DEFAULT_RELATIVE,		/* relative to the cwd */
	DEFAULT_RELATIVE_IF_SHARED,	/* relative if both are */
};

struct rp {
	struct repo repo;
	int have_repo;
	char *cwd;		/* where we started; owned */
	const char *gitcwd;	/* where git would be working from */
	const char *prefix;	/* git's prefix ("sub/dir/"), NULL at top */
	int prefixed;		/* there was a prefix when the repo opened */
	char *gitdir;		/* the git directory as git holds it (git_dirs) */
	int gitdir_set;		/* git would have set GIT_DIR to it */
	char *commondir;	/* likewise */
	unsigned filter;
	const char *def;	/* --default */
	int show_type;
	int symbolic;
	int abbrev;		/* 0: full ids */
	int abbrev_ref, abbrev_ref_strict;
	int output_sq;
	int output_prefix;	/* --prefix was given */
	unsigned name_flags;	/* ONAME_QUIET with -q */
	enum path_format format;
	char **excludes;	/* --exclude patterns; owned */
	size_t nr_excludes, alloc_excludes;
};

static void
show(struct rp *rp, const char *arg)
{
	if (rp->output_sq) {
		putchar('\'');
		for (; *arg; arg++) {
			if (*arg == '\'')
				fputs("'\\'", stdout);
			putchar(*arg);
		}
		fputs("' ", stdout);
	} else {
		puts(arg);
	}
}

static void
show_with_type(struct rp *rp, int type, const char *arg)
{
	if (type != rp->show_type)
		putchar('^');
	show(rp, arg);
}

/* The shortest name "full" can be written as (refs.h). */
static void
shorten_ref(struct strbuf *out, struct rp *rp, const char *full, int strict)
{
	struct ref_store rs;

	ref_store_init(&rs, rp->repo.gitdir, rp->repo.commondir);
	rs.reftable = rp->repo.reftable;
	refs_shorten_unambiguous(out, &rs, full, strict);
	ref_store_release(&rs);
}

static void
show_rev(struct rp *rp, int type, const struct object_id *oid,
	 const char *name)
{
	if (!(rp->filter & DO_REVS))
		return;
	rp->def = NULL;
	if ((rp->symbolic || rp->abbrev_ref) && name) {
		if (rp->symbolic == SYMBOLIC_FULL || rp->abbrev_ref) {
			struct strbuf full = STRBUF_INIT, ab = STRBUF_INIT;
			struct object_id discard;
			int n = oname_dwim_ref(&full, &discard, &rp->repo, name,
					       strlen(name));

			if (n < 0)
				die_lib(n);
			if (n == 1) {
				if (rp->abbrev_ref) {
					shorten_ref(&ab, rp, full.buf,
						    rp->abbrev_ref_strict);
					show_with_type(rp, type, ab.buf);
				} else {
					show_with_type(rp, type, full.buf);
				}
			} else if (n > 1) {
				error("refname '%s' is ambiguous", name);
			}
			strbuf_release(&full);
			strbuf_release(&ab);
		} else {
			show_with_type(rp, type, name);
		}
	} else if (rp->abbrev) {
		char hex[HASH_MAX_HEXSZ + 1];

		oname_abbrev(hex, &rp->repo, oid, rp->abbrev);
		show_with_type(rp, type, hex);
	} else {
		show_with_type(rp, type, oid_to_hex(oid));
	}
}

/*
 * Resolve name; on failure print what git prints at that moment (the
 * ambiguity report) unless quiet, and die if git would.  0 found, -1 not.
 */
static int
lookup(struct rp *rp, const char *name, unsigned flags,
       struct object_id *out)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;
	int ret;

	ctx.flags = flags;
	ctx.prefix = rp->prefix ? rp->prefix : "";
	ret = oname_get(out, &rp->repo, name, &ctx);
	if (!ret)
		return 0;
	if (ret != -E_NOTFOUND && ret != -E_AMBIGUOUS) {
		if (ctx.silent)
			exit(128);	/* git's -q: no word */
		die_lib(ret);
	}
	if (error_pre()) {
		fflush(stdout);
		fprintf(stderr, "error: %s\n", error_pre());
	}
	error_clear();
	return -1;
}

static int
show_default(struct rp *rp)
{
	const char *s = rp->def;
	struct object_id oid;

	if (!s)
		return 0;
	rp->def = NULL;
	if (lookup(rp, s, 0, &oid) < 0)
		return 0;
	show_rev(rp, NORMAL, &oid, s);
	return 1;
}

static int
show_file(struct rp *rp, const char *arg, int output_prefix)
{
	show_default(rp);
	if ((rp->filter & (DO_NONFLAGS | DO_NOREV)) !=
	    (DO_NONFLAGS | DO_NOREV))
		return 0;
	if (output_prefix && rp->prefix && *arg != '/') {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s%s", rp->prefix, arg);
		show(rp, sb.buf);
		strbuf_release(&sb);
	} else {
		show(rp, arg);
	}
	return 1;
}

static void
verify_filename(struct rp *rp, const char *arg, int diagnose)
{
	struct object_id oid;
	struct oname_ctx ctx = ONAME_CTX_INIT;
	int ret;

	if (*arg == '-')
		die("option '%s' must come before non-option arguments", arg);
	if (path_arg_is_pattern(arg) || arg_is_existing_path(rp->gitcwd, rp->prefix, arg))
		return;
	if (!diagnose)
		die("%s: no such path in the working tree.\nUse 'git "
		    "<command> -- <path>...' to specify paths that do not "
		    "exist locally.", arg);
	/* ":(magic)" is a pathspec: no "does not exist in the index" */
	if (!(arg[0] == ':' && !isalnum((unsigned char)arg[1]))) {
		ctx.flags = ONAME_DIAGNOSE | ONAME_QUIET;
		ctx.prefix = rp->prefix ? rp->prefix : "";
		ret = oname_get(&oid, &rp->repo, arg, &ctx);
		/* git explains (after an ambiguity it did not keep quiet) */
		if (ret < 0 && ret != -E_NOTFOUND && ret != -E_AMBIGUOUS)
			die_lib(ret);
		if (error_pre()) {
			fflush(stdout);
			fprintf(stderr, "error: %s\n", error_pre());
		}
		error_clear();
	}
	die_ambiguous_arg(arg);
}

/*
 * The commit oid is or (through tags) points to; git's error for anything
 * else.  0, or -1.
 */
static int
commit_reference(struct rp *rp, const struct object_id *oid,
		 struct object_id *out)
{
	struct object_id peeled;
	enum object_type type = OBJ_BAD;
	struct odb *odb;
	size_t size;

	int ret = peel_to_type(&peeled, &rp->repo, oid, OBJ_NONE);

	if (!ret)
		ret = repo_odb(&odb, &rp->repo);
	if (!ret)
		ret = odb_read_info(&type, &size, NULL, 0, odb, &peeled, 0);
	if (ret == -E_INVALID)
		die_lib(ret);	/* a replace loop: git dies reading it */
	if (ret < 0) {
		error_clear();
		return -1;
	}
	if (type != OBJ_COMMIT) {
		error("object %s is a %s, not a commit", oid_to_hex(&peeled),
		      type_name(type) ? type_name(type) : "unknown type");
		return -1;
	}
	*out = peeled;
	return 0;
}

NORETURN static void
die_no_single_rev(int quiet)
{
	if (quiet)
		exit(1);
	die("Needed a single revision");
}

/* "A..B" and "A...B" (with the merge bases). */
static int
try_difference(struct rp *rp, const char *arg)
{
	const char *dots = strstr(arg, ".."), *end_name, *start_name;
	struct object_id start, end;
	char *start_buf;
	int symmetric;

	if (!dots)
		return 0;
	symmetric = dots[2] == '.';
	end_name = dots + 2 + symmetric;
	if (!*end_name)
		end_name = "HEAD";
	start_buf = xmemdupz(arg, dots - arg);
	start_name = dots == arg ? "HEAD" : start_buf;
	if (dots == arg && !*(dots + 2 + symmetric) && !symmetric) {
		free(start_buf);
		return 0;	/* ".." is a path, the parent directory */
	}
	if (lookup(rp, start_name, ONAME_COMMITTISH, &start) < 0 ||
	    lookup(rp, end_name, ONAME_COMMITTISH, &end) < 0) {
		free(start_buf);
		return 0;
	}
	show_rev(rp, NORMAL, &end, end_name);
	show_rev(rp, symmetric ? NORMAL : REVERSED, &start, start_name);
	if (symmetric) {
		struct commit_walk w;
		struct object_id *bases, a, b;
		size_t nr;
		int bad;

		/* both must be commits (or tags of them); git says which */
		bad = commit_reference(rp, &start, &a) < 0;
		bad |= commit_reference(rp, &end, &b) < 0;
		if (bad) {
			free(start_buf);
			return 0;
		}
		commit_walk_init(&w, &rp->repo);
		if (commit_merge_bases(&bases, &nr, &w, &a, &b) < 0)
			die_lib(-1);
		for (size_t i = 0; i < nr; i++)
			show_rev(rp, REVERSED, &bases[i], NULL);
		free(bases);
		commit_walk_release(&w);
	}
	free(start_buf);
	return 1;
}

/* "<rev>^@", "<rev>^!" and "<rev>^-[<n>]". */
static int
try_parent_shorthands(struct rp *rp, const char *arg)
{
	const char *mark;
	int include_rev = 0, include_parents = 0, ret = 0;
	unsigned long exclude = 0;
	struct object_id oid, commit;
	struct commit_walk w;
	struct commit_node *c;
	char *name;

	if ((mark = strstr(arg, "^!"))) {
		include_rev = 1;
		if (mark[2])
			return 0;
	} else if ((mark = strstr(arg, "^@"))) {
		include_parents = 1;
		if (mark[2])
			return 0;
	} else if ((mark = strstr(arg, "^-"))) {
		include_rev = 1;
		exclude = 1;
		if (mark[2]) {
			char *end;

			if (!isdigit((unsigned char)mark[2]))
				return 0;
			errno = 0;
			exclude = strtoul(mark + 2, &end, 10);
			if (*end || !exclude || errno)
				return 0;
		}
	} else {
		return 0;
	}
	name = xmemdupz(arg, mark - arg);
	if (lookup(rp, name, ONAME_COMMITTISH, &oid) < 0 ||
	    commit_reference(rp, &oid, &commit) < 0) {
		free(name);
		return 0;
	}
	commit_walk_init(&w, &rp->repo);
	c = commit_walk_node(&w, &commit);
	if (commit_walk_parse(&w, c) < 0 || (exclude && exclude >
					     c->nr_parents)) {
		error_clear();
		goto out;
	}
	if (include_rev)
		show_rev(rp, NORMAL, &oid, name);
	for (size_t i = 0; i < c->nr_parents; i++) {
		struct strbuf pname = STRBUF_INIT;

		if (exclude && i + 1 != exclude)
			continue;
		if (rp->symbolic)
			strbuf_addf(&pname, "%s^%zu", name, i + 1);
		show_rev(rp, include_parents ? NORMAL : REVERSED,
			 &c->parents[i]->oid, rp->symbolic ? pname.buf : NULL);
		strbuf_release(&pname);
	}
	ret = 1;
out:
	commit_walk_release(&w);
	free(name);
	return ret;
}

/* The rev-list options rev-parse passes on as revision arguments. */
static int
is_rev_argument(const char *arg)
{
	static const char *const rev_args[] = {
		"--all", "--bisect", "--dense", "--branches=", "--branches",
		"--header", "--ignore-missing", "--max-age=", "--max-count=",
		"--min-age=", "--no-merges", "--min-parents=",
		"--no-min-parents", "--max-parents=", "--no-max-parents",
		"--objects", "--objects-edge", "--parents", "--pretty",
		"--remotes=", "--remotes", "--glob=", "--sparse", "--tags=",
		"--tags", "--topo-order", "--date-order", "--unpacked",
	};

	for (size_t i = 0; i < ARRAY_SIZE(rev_args); i++) {
		const char *s = rev_args[i];
		size_t len = strlen(s);

		if (!strncmp(arg, s, len) && (!arg[len] || s[len - 1] == '='))
			return 1;
	}
	return 0;
}

static int
show_flag(struct rp *rp, const char *arg)
{
	if (!(rp->filter & DO_FLAGS))
		return 0;
	if (rp->filter & (is_rev_argument(arg) ? DO_REVS : DO_NOREV)) {
		show(rp, arg);
		return 1;
	}
	return 0;
}

static void
show_datestring(struct rp *rp, const char *flag, const char *date)
{
	struct strbuf sb = STRBUF_INIT;

	if ((rp->filter & (DO_FLAGS | DO_REVS)) != (DO_FLAGS | DO_REVS))
		return;
	strbuf_addf(&sb, "%s%lld", flag, approxidate(date, NULL));
	show(rp, sb.buf);
	strbuf_release(&sb);
}

/*
 * The refs --bisect shows, "refs/bisect/<term>" for its bad and good
 * terms: "bad" and "good", or the two lines of BISECT_TERMS ("git bisect
 * start --term-new", git 2.55 reads them; a missing line is an empty
 * term, as there).
 */
static void
bisect_terms(struct rp *rp, struct strbuf *bad, struct strbuf *good)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/BISECT_TERMS", rp->repo.gitdir);
	ret = strbuf_read_file(&text, path.buf);
	strbuf_addstr(bad, "refs/bisect/");
	strbuf_addstr(good, "refs/bisect/");
	if (ret == -E_NOTFOUND) {
		error_clear();
		strbuf_addstr(bad, "bad");
		strbuf_addstr(good, "good");
	} else if (ret < 0) {
		die("could not read file '%s': %s", path.buf, error_msg());
	} else {
		const char *nl = memchr(text.buf, '\n', text.len);
		const char *second = nl ? nl + 1 : text.buf + text.len;
		const char *end = memchr(second, '\n',
					 text.buf + text.len - second);

		strbuf_add(bad, text.buf, nl ? (size_t)(nl - text.buf) :
			   text.len);
		strbuf_add(good, second, end ? (size_t)(end - second) :
			   (size_t)(text.buf + text.len - second));
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

/* "--opt" or "--opt=<value>": 1 with *value (NULL without "="). */
static int
opt_with_value(const char *arg, const char *opt, const char **value)
{
	if (!skip_prefix(arg, opt, &arg))
		return 0;
	if (!*arg) {
		*value = NULL;
		return 1;
	}
	if (*arg == '=') {
		*value = arg + 1;
		return 1;
	}
	return 0;
}

/* ---- refs: --all, --branches, --tags, --remotes, --glob ---- */

static int
has_glob_specials(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

static int
excluded(struct rp *rp, const char *name)
{
	for (size_t i = 0; i < rp->nr_excludes; i++)
		if (!fnmatch(rp->excludes[i], name, 0))
			return 1;
	return 0;
}

static void
clear_excludes(struct rp *rp)
{
	for (size_t i = 0; i < rp->nr_excludes; i++)
		free(rp->excludes[i]);
	rp->nr_excludes = 0;
}

/*
 * Show the refs whose names start with under, matching pattern (if
 * given) taken below base, named without base when strip is set (as
 * --branches and friends name them); each --exclude so far applies.
 */
static void
show_refs(struct rp *rp, const char *under, const char *base,
	  const char *pattern, int strip, int type)
{
	struct strbuf full = STRBUF_INIT;
	struct ref_store rs;
	struct ref_list list;
	int ret;

	if (pattern) {
		if (strip || !starts_with(pattern, "refs/"))
			strbuf_addstr(&full, base);
		strbuf_addstr(&full, pattern);
		if (!has_glob_specials(pattern)) {
			if (full.len && full.buf[full.len - 1] != '/')
				strbuf_addch(&full, '/');
			strbuf_addch(&full, '*');
		}
	}
	ref_store_init(&rs, rp->repo.gitdir, rp->repo.commondir);
	rs.reftable = rp->repo.reftable;
	ret = ref_list_collect(&list, &rs, under);
	if (ret < 0)
		die_lib(ret);
	for (size_t i = 0; i < list.nr; i++) {
		const char *name = list.items[i].name;

		if (pattern && fnmatch(full.buf, name, 0))
			continue;
		if (strip)
			name += strlen(base);
		if (excluded(rp, name))
			continue;
		show_rev(rp, type, &list.items[i].oid, name);
	}
	ref_list_release(&list);
	ref_store_release(&rs);
	strbuf_release(&full);
}

/* ---- paths as git prints them ---- */

/*
 * path made absolute against git's working directory, with symlinks
 * resolved as far as the path exists (the rest appended as given).
 */
static void
real_forgiving(struct strbuf *out, struct rp *rp, const char *path)
{
	struct strbuf abs = STRBUF_INIT, tail = STRBUF_INIT;
	char *real = NULL;

	if (*path != '/')
		strbuf_addf(&abs, "%s/", rp->gitcwd);
	strbuf_addstr(&abs, path);
	for (;;) {
		char *slash;

		while (abs.len > 1 && abs.buf[abs.len - 1] == '/')
			strbuf_setlen(&abs, abs.len - 1);
		real = realpath(abs.buf, NULL);
		if (real)
			break;
		slash = strrchr(abs.buf, '/');
		if (!slash || slash == abs.buf) {
			real = xstrdup(abs.buf);
			strbuf_reset(&tail);
			break;
		}
		{
			/* keep the missing component for the end */
			struct strbuf t = STRBUF_INIT;

			strbuf_addstr(&t, slash);
			strbuf_addbuf(&t, &tail);
			strbuf_reset(&tail);
			strbuf_addbuf(&tail, &t);
			strbuf_release(&t);
		}
		strbuf_setlen(&abs, slash - abs.buf);
	}
	strbuf_reset(out);
	strbuf_addstr(out, real);
	if (tail.len) {
		if (out->len && out->buf[out->len - 1] == '/')
			strbuf_setlen(out, out->len - 1);
		strbuf_addbuf(out, &tail);
	}
	/* git resolves "." and ".." in what does not exist, too */
	free(real);
	strbuf_release(&abs);
	strbuf_release(&tail);
}

/*
 * in as seen from prefix (both absolute, or both relative to the same
 * directory; otherwise in as it is): "../" for each directory of prefix
 * below their common leading directories, then the rest of in.
 */
static const char *
relative_to(struct strbuf *sb, const char *in, const char *prefix)
{
	size_t ilen = strlen(in), plen = prefix ? strlen(prefix) : 0;
	size_t i = 0, j = 0, poff = 0, ioff = 0;

	if (!ilen)
		return "./";
	if (!plen)
		return in;
	if ((*in == '/') != (*prefix == '/'))
		return in;
	while (i < plen && j < ilen && prefix[i] == in[j]) {
		if (prefix[i] == '/') {
			while (prefix[i] == '/')
				i++;
			while (in[j] == '/')
				j++;
			poff = i;
			ioff = j;
		} else {
			i++;
			j++;
		}
	}
	if (i >= plen && poff < plen) {
		/* all of prefix matched, and it does not end in '/' */
		if (j >= ilen) {
			ioff = ilen;
		} else if (in[j] == '/') {
			while (in[j] == '/')
				j++;
			ioff = j;
		} else {
			i = poff;	/* "/a/bc" is not below "/a/b" */
		}
	} else if (j >= ilen && ioff < ilen && prefix[i] == '/') {
		/* in is a directory above prefix */
		while (prefix[i] == '/')
			i++;
		ioff = ilen;
	}
	in += ioff;
	ilen -= ioff;
	if (i >= plen)
		return ilen ? in : "./";
	strbuf_reset(sb);
	while (i < plen) {
		if (prefix[i] == '/') {
			strbuf_addstr(sb, "../");
			while (prefix[i] == '/')
				i++;
		} else {
			i++;
		}
	}
	if (prefix[plen - 1] != '/')
		strbuf_addstr(sb, "../");
	strbuf_addstr(sb, in);
	return sb->buf;
}

static void
print_path(struct rp *rp, const char *path, enum path_default def)
{
	const char *prefix = rp->prefix;
	struct strbuf buf = STRBUF_INIT, rpath = STRBUF_INIT;
	struct strbuf rprefix = STRBUF_INIT;
	enum path_format fmt = rp->format;

	if (!prefix && (fmt != FORMAT_DEFAULT ||
			def != DEFAULT_RELATIVE_IF_SHARED))
		prefix = rp->gitcwd;
	if (fmt == FORMAT_DEFAULT && def == DEFAULT_UNMODIFIED) {
		puts(path);
	} else if (fmt == FORMAT_RELATIVE ||
		   (fmt == FORMAT_DEFAULT && def == DEFAULT_RELATIVE)) {
		if (*path != '/') {
			real_forgiving(&rpath, rp, path);
			path = rpath.buf;
		}
		if (*prefix != '/') {
			real_forgiving(&rprefix, rp, prefix);
			prefix = rprefix.buf;
		}
		puts(relative_to(&buf, path, prefix));
	} else if (fmt == FORMAT_DEFAULT &&
		   def == DEFAULT_RELATIVE_IF_SHARED) {
		puts(relative_to(&buf, path, prefix));
	} else {
		real_forgiving(&buf, rp, path);
		puts(buf.buf);
	}
	strbuf_release(&buf);
	strbuf_release(&rpath);
	strbuf_release(&rprefix);
}

/* Is the directory dir (absolute) the cwd or above it? */
static int
cwd_inside(const struct rp *rp, const char *dir)
{
	size_t len = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(rp->cwd, dir, len) &&
	       (rp->cwd[len] == '/' || !rp->cwd[len]);
}

/* Where paths are taken from, as git's setup leaves it. */
static void
setup_cwd(struct rp *rp)
{
	struct repo *repo = &rp->repo;

	if (repo->worktree && cwd_inside(rp, repo->worktree)) {
		rp->gitcwd = repo->worktree;
		if (*repo->prefix)
			rp->prefix = repo->prefix;
	} else {
		rp->gitcwd = rp->cwd;
	}
	rp->prefixed = rp->prefix != NULL;
}

/*
 * The git and common directories as git's setup leaves them, worked out
 * when first asked for: they cost a realpath() (a readlink() for each
 * component) that a revision lookup does not need.
 */
static void
git_dirs(struct rp *rp)
{
	struct repo *repo = &rp->repo;
	const char *env = getenv("GIT_DIR"), *cdir = getenv("GIT_COMMON_DIR");
	struct strbuf dotgit = STRBUF_INIT;
	struct stat st;
	char *realgit;

	if (rp->gitdir)
		return;
	realgit = realpath(repo->gitdir, NULL);
	if (repo->worktree)
		strbuf_addf(&dotgit, "%s/.git", repo->worktree);
	if (env && *env) {
		rp->gitdir_set = 1;
		if (rp->prefixed)
			rp->gitdir = xstrdup(realgit ? realgit : repo->gitdir);
		else
			rp->gitdir = xstrdup(env);
	} else if (repo->worktree && !lstat(dotgit.buf, &st) &&
		   S_ISDIR(st.st_mode) && realgit &&
		   !strcmp(realgit, dotgit.buf)) {
		rp->gitdir = xstrdup(".git");
	} else if (!repo->worktree && realgit && !strcmp(realgit, rp->cwd)) {
		rp->gitdir_set = 1;
		rp->gitdir = xstrdup(".");
	} else {
		rp->gitdir_set = 1;
		rp->gitdir = xstrdup(realgit ? realgit : repo->gitdir);
	}
	if (cdir && *cdir) {
		rp->commondir = xstrdup(cdir);
	} else if (strcmp(repo->commondir, repo->gitdir)) {
		char *real = realpath(repo->commondir, NULL);

		rp->commondir = real ? real : xstrdup(repo->commondir);
	} else {
		rp->commondir = xstrdup(rp->gitdir);
	}
	free(realgit);
	strbuf_release(&dotgit);
}

static void
open_repo(struct rp *rp)
{
	int ret;

	if (rp->have_repo)
		return;
	ret = repo_open(&rp->repo, REPO_NO_CHDIR);
	if (!ret)
		ret = oname_check_config(&rp->repo);
	if (ret < 0)
		die_lib(ret);
	rp->have_repo = 1;
	setup_cwd(rp);
}

/* Paths inside the git directory that all worktrees share. */
static int
is_common_path(const char *path)
{
	static const char *const own[] = {
		"logs/HEAD", "logs/refs/bisect", "logs/refs/rewritten",
		"logs/refs/worktree", "refs/bisect", "refs/rewritten",
		"refs/worktree", "info/sparse-checkout",
	};
	static const char *const common[] = {
		"branches", "common", "config", "hooks", "info", "logs",
		"lost-found", "objects", "refs", "remotes", "worktrees",
		"rr-cache", "svn", "packed-refs", "shallow",
	};

	for (size_t i = 0; i < ARRAY_SIZE(own); i++) {
		size_t l = strlen(own[i]);

		if (!strncmp(path, own[i], l) && (!path[l] || path[l] == '/'))
			return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(common); i++) {
		size_t l = strlen(common[i]);

		if (!strncmp(path, common[i], l) && (!path[l] || path[l] == '/'))
			return 1;
	}
	return 0;
}

/* "--git-path <path>": where git would look for path. */
static void
git_path(struct strbuf *out, struct rp *rp, const char *path)
{
	const char *objenv = getenv("GIT_OBJECT_DIRECTORY");
	const char *idxenv = getenv("GIT_INDEX_FILE");
	const char *graftenv = getenv("GIT_GRAFT_FILE");
	const char *rest;

	strbuf_reset(out);
	if (idxenv && *idxenv && !strcmp(path, "index")) {
		strbuf_addstr(out, idxenv);
	} else if (graftenv && *graftenv && !strcmp(path, "info/grafts")) {
		strbuf_addstr(out, graftenv);
	} else if (objenv && *objenv && skip_prefix(path, "objects", &rest) &&
		   (!*rest || *rest == '/')) {
		strbuf_addf(out, "%s%s", objenv, rest);
	} else {
		const char *base;

		git_dirs(rp);
		base = is_common_path(path) ? rp->commondir : rp->gitdir;

		strbuf_addstr(out, base);
		if (out->len && out->buf[out->len - 1] != '/')
			strbuf_addch(out, '/');
		strbuf_addstr(out, path);
	}
	/* git drops leading "./" */
	while (out->len > 2 && out->buf[0] == '.' && out->buf[1] == '/') {
		size_t n = 2;

		while (n < out->len && out->buf[n] == '/')
			n++;
		memmove(out->buf, out->buf + n, out->len - n + 1);
		out->len -= n;
	}
}

/* ---- the repository questions ---- */

static void
show_git_dir(struct rp *rp, int absolute)
{
	struct strbuf sb = STRBUF_INIT;
	enum path_format saved = rp->format;

	git_dirs(rp);
	if (!absolute) {
		if (rp->gitdir_set) {
			print_path(rp, rp->gitdir, DEFAULT_UNMODIFIED);
			return;
		}
		if (!rp->prefix) {
			print_path(rp, ".git", DEFAULT_UNMODIFIED);
			return;
		}
	} else if (rp->gitdir_set || !rp->prefix) {
		real_forgiving(&sb, rp, rp->gitdir_set ? rp->gitdir : ".git");
		puts(sb.buf);
		strbuf_release(&sb);
		return;
	}
	strbuf_addf(&sb, "%s/.git", rp->gitcwd);
	if (absolute)
		rp->format = FORMAT_CANONICAL;
	print_path(rp, sb.buf, DEFAULT_CANONICAL);
	rp->format = saved;
	strbuf_release(&sb);
}

static int
inside_git_dir(struct rp *rp)
{
	const char *env = getenv("GIT_DIR");
	char *real;
	int in;

	git_dirs(rp);
	/* git compares a GIT_DIR given relative as it is: never inside */
	if (env && *env && *rp->gitdir != '/')
		return 0;
	real = realpath(rp->repo.gitdir, NULL);
	in = real && cwd_inside(rp, real);

	free(real);
	return in;
}

static int
inside_work_tree(struct rp *rp)
{
	return rp->repo.worktree && cwd_inside(rp, rp->repo.worktree);
}

static int
is_bare(struct rp *rp)
{
	int bare = rp->repo.bare;

	/* inside .git, core.bare decides */
	if (inside_git_dir(rp) && !rp->repo.worktree) {
		int b;

		if (config_get_bool(&rp->repo.config, "core.bare", &b) > 0)
			return b;
		error_clear();
		return bare && !ends_with(rp->repo.gitdir, "/.git");
	}
	return bare && !rp->repo.worktree;
}

static int
is_shallow(struct rp *rp)
{
	const char *env = getenv("GIT_SHALLOW_FILE");
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret;

	if (env && *env)
		strbuf_addstr(&path, env);
	else
		strbuf_addf(&path, "%s/shallow", rp->repo.commondir);
	ret = !stat(path.buf, &st);
	strbuf_release(&path);
	return ret;
}

/*
 * The work tree of the repository this one is a submodule of: the
 * nearest repository above whose index has a submodule (gitlink) at our
 * place.  1 with its top in out, or 0.
 */
static int
superproject(struct rp *rp, struct strbuf *out)
{
	const char *wt = rp->repo.worktree;
	struct strbuf dir = STRBUF_INIT, rel = STRBUF_INIT;
	int found = 0;

	if (!wt || !inside_work_tree(rp) || !strcmp(wt, "/"))
		return 0;
	strbuf_addstr(&dir, wt);
	for (;;) {
		char *slash = strrchr(dir.buf, '/');
		struct repo super;
		int ret;

		if (!slash || slash == dir.buf)
			break;
		strbuf_setlen(&dir, slash - dir.buf);
		if (chdir(dir.buf) < 0)
			break;
		ret = repo_open(&super, REPO_NO_CHDIR | REPO_GENTLY);
		if (ret < 0 || !super.gitdir) {
			error_clear();
			if (!ret)
				repo_release(&super);
			break;
		}
		if (super.worktree) {
			size_t slen = strlen(super.worktree);
			struct index idx;

			strbuf_reset(&rel);
			if (!strncmp(wt, super.worktree, slen) &&
			    wt[slen] == '/')
				strbuf_addstr(&rel, wt + slen + 1);
			if (rel.len && !index_read_in(&idx, super.index_path,
						      &super, INDEX_READ_QUIET,
						      0) &&
			    !sparse_index_after_read(&idx, &super,
						     SPARSE_INDEX_FULL |
						     SPARSE_INDEX_NO_PRESENT)) {
				ssize_t pos = index_pos(&idx, rel.buf, rel.len,
							-1);

				if (pos >= 0 && S_ISGITLINK(
					    idx.entries[pos]->mode)) {
					strbuf_addstr(out, super.worktree);
					found = 1;
				}
				index_release(&idx);
			}
			error_clear();
		}
		repo_release(&super);
		break;
	}
	if (chdir(rp->cwd) < 0)
		die("cannot come back to cwd: %s", strerror(errno));
	strbuf_release(&dir);
	strbuf_release(&rel);
	return found;
}

/* "--resolve-git-dir <path>": a git directory, or the one a .git file
 * names. */
static char *
resolve_gitdir(const char *path)
{
	struct strbuf buf = STRBUF_INIT, target = STRBUF_INIT;
	const char *objenv = getenv("GIT_OBJECT_DIRECTORY");
	const char *p, *slash;
	char *real = NULL;
	struct stat st;
	int ret;

	if (repo_is_gitdir(path, objenv))
		return xstrdup(path);
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	ret = strbuf_read_file(&buf, path);
	if (ret < 0)
		die("error reading %s", path);
	strbuf_rtrim(&buf);
	if (!skip_prefix(buf.buf, "gitdir: ", &p))
		die("invalid gitfile format: %s", path);
	if (!*p)
		die("no path in gitfile: %s", path);
	slash = strrchr(path, '/');
	if (*p != '/' && slash)
		strbuf_add(&target, path, slash - path + 1);
	strbuf_addstr(&target, p);
	if (!repo_is_gitdir(target.buf, objenv))
		die("not a git repository: %s", target.buf);
	real = realpath(target.buf, NULL);
	strbuf_release(&buf);
	strbuf_release(&target);
	return real;
}

static int
cmd_sq_quote(int argc, const char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < argc; i++) {
		strbuf_addch(&sb, ' ');
		quote_sq(&sb, argv[i]);
	}
	strbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	return 0;
}

static const char *const local_env_vars[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY",
	"GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE",
	"GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX",
	"GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
};

NORETURN static void
usage_and_exit(void)
{
	fprintf(stderr, "usage: %s\n", rev_parse_usage[0]);
	for (size_t i = 1; rev_parse_usage[i]; i++)
		fprintf(stderr, "   or: %s\n", rev_parse_usage[i]);
	fprintf(stderr, "\nRun \"dirc rev-parse --parseopt -h\" for more "
		"information on the first usage.\n");
	exit(129);
}

/* --short=<n> as git reads it: strtoul, then clamped to 4..40. */
static int
parse_abbrev(const char *v)
{
	unsigned long n = strtoul(v, NULL, 10);
	int as_int = (int)(unsigned)(n & 0xffffffffUL);

	if (as_int < 4)
		return 4;
	if (as_int > HASH_HEXSZ)
		return HASH_HEXSZ;
	return as_int;
}

struct oid_array {
	struct object_id *oids;	/* owned */
	size_t nr, alloc;
};

static void
collect_oid(const struct object_id *oid, void *data)
{
	struct oid_array *a = data;

	ALLOC_GROW(a->oids, a->nr + 1, a->alloc);
	oidcpy(&a->oids[a->nr++], oid);
}

/*
 * An option; 1 if handled (continue with the next argument), with *i
 * advanced past any value it took.
 */
static int
handle_option(struct rp *rp, int argc, const char **argv, int *i,
	      int *verify, int *quiet)
{
	const char *arg = argv[*i], *v;
	struct strbuf sb = STRBUF_INIT;

	if (!strcmp(arg, "--git-path")) {
		if (*i + 1 >= argc)
			die("--git-path requires an argument");
		git_path(&sb, rp, argv[++*i]);
		print_path(rp, sb.buf, DEFAULT_RELATIVE_IF_SHARED);
		strbuf_release(&sb);
		return 1;
	}
	if (!strcmp(arg, "-n")) {
		if (++*i >= argc)
			die("-n requires an argument");
		if ((rp->filter & DO_FLAGS) && (rp->filter & DO_REVS)) {
			show(rp, arg);
			show(rp, argv[*i]);
		}
		return 1;
	}
	if (starts_with(arg, "-n")) {
		if ((rp->filter & DO_FLAGS) && (rp->filter & DO_REVS))
			show(rp, arg);
		return 1;
	}
	if (opt_with_value(arg, "--path-format", &v)) {
		if (!v)
			die("--path-format requires an argument");
		if (!strcmp(v, "absolute"))
			rp->format = FORMAT_CANONICAL;
		else if (!strcmp(v, "relative"))
			rp->format = FORMAT_RELATIVE;
		else
			die("unknown argument to --path-format: %s", v);
		return 1;
	}
	if (!strcmp(arg, "--default")) {
		if (*i + 1 >= argc)
			die("--default requires an argument");
		rp->def = argv[++*i];
		return 1;
	}
	if (!strcmp(arg, "--prefix")) {
		if (*i + 1 >= argc)
			die("--prefix requires an argument");
		rp->prefix = argv[++*i];
		rp->output_prefix = 1;
		return 1;
	}
	if (!strcmp(arg, "--revs-only")) {
		rp->filter &= ~DO_NOREV;
		return 1;
	}
	if (!strcmp(arg, "--no-revs")) {
		rp->filter &= ~DO_REVS;
		return 1;
	}
	if (!strcmp(arg, "--flags")) {
		rp->filter &= ~DO_NONFLAGS;
		return 1;
	}
	if (!strcmp(arg, "--no-flags")) {
		rp->filter &= ~DO_FLAGS;
		return 1;
	}
	if (!strcmp(arg, "--verify")) {
		rp->filter &= ~(DO_FLAGS | DO_NOREV);
		*verify = 1;
		return 1;
	}
	if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
		*quiet = 1;
		rp->name_flags |= ONAME_QUIET;
		return 1;
	}
	if (opt_with_value(arg, "--short", &v)) {
		rp->filter &= ~(DO_FLAGS | DO_NOREV);
		*verify = 1;
		rp->abbrev = -1;
		if (v)
			rp->abbrev = parse_abbrev(v);
		return 1;
	}
	if (!strcmp(arg, "--sq")) {
		rp->output_sq = 1;
		return 1;
	}
	if (!strcmp(arg, "--not")) {
		rp->show_type ^= REVERSED;
		return 1;
	}
	if (!strcmp(arg, "--symbolic")) {
		rp->symbolic = SYMBOLIC_ASIS;
		return 1;
	}
	if (!strcmp(arg, "--symbolic-full-name")) {
		rp->symbolic = SYMBOLIC_FULL;
		return 1;
	}
	if (opt_with_value(arg, "--abbrev-ref", &v)) {
		int warn = 1;

		if (config_get_bool(&rp->repo.config, "core.warnambiguousrefs",
				    &warn) < 0)
			die_lib(-1);
		rp->abbrev_ref = 1;
		rp->abbrev_ref_strict = warn;
		if (v) {
			if (!strcmp(v, "strict"))
				rp->abbrev_ref_strict = 1;
			else if (!strcmp(v, "loose"))
				rp->abbrev_ref_strict = 0;
			else
				die("unknown mode for --abbrev-ref: %s", v);
		}
		return 1;
	}
	if (!strcmp(arg, "--all")) {
		show_refs(rp, "refs/", "refs/", NULL, 0, NORMAL);
		clear_excludes(rp);
		return 1;
	}
	if (skip_prefix(arg, "--disambiguate=", &v)) {
		struct oid_array found = { NULL, 0, 0 };
		int ret = oname_for_each_abbrev(&rp->repo, v, collect_oid,
						&found);

		if (ret < 0)
			die_lib(ret);
		for (size_t k = 0; k < found.nr; k++)
			show_rev(rp, NORMAL, &found.oids[k], NULL);
		free(found.oids);
		return 1;
	}
	if (!strcmp(arg, "--bisect")) {
		struct strbuf bad = STRBUF_INIT, good = STRBUF_INIT;

		bisect_terms(rp, &bad, &good);
		show_refs(rp, bad.buf, "", NULL, 0, NORMAL);
		show_refs(rp, good.buf, "", NULL, 0, REVERSED);
		strbuf_release(&bad);
		strbuf_release(&good);
		return 1;
	}
	if (opt_with_value(arg, "--branches", &v)) {
		show_refs(rp, "refs/heads/", "refs/heads/", v, 1, NORMAL);
		clear_excludes(rp);
		return 1;
	}
	if (opt_with_value(arg, "--tags", &v)) {
		show_refs(rp, "refs/tags/", "refs/tags/", v, 1, NORMAL);
		clear_excludes(rp);
		return 1;
	}
	if (opt_with_value(arg, "--remotes", &v)) {
		show_refs(rp, "refs/remotes/", "refs/remotes/", v, 1, NORMAL);
		clear_excludes(rp);
		return 1;
	}
	if (skip_prefix(arg, "--glob=", &v)) {
		show_refs(rp, "refs/", "refs/", v, 0, NORMAL);
		clear_excludes(rp);
		return 1;
	}
	if (skip_prefix(arg, "--exclude=", &v)) {
		ALLOC_GROW(rp->excludes, rp->nr_excludes + 1,
			   rp->alloc_excludes);
		rp->excludes[rp->nr_excludes++] = xstrdup(v);
		return 1;
	}
	if (!strcmp(arg, "--show-toplevel")) {
		if (!rp->repo.worktree)
			die("this operation must be run in a work tree");
		print_path(rp, rp->repo.worktree, DEFAULT_UNMODIFIED);
		return 1;
	}
	if (!strcmp(arg, "--show-superproject-working-tree")) {
		if (superproject(rp, &sb))
			print_path(rp, sb.buf, DEFAULT_UNMODIFIED);
		strbuf_release(&sb);
		return 1;
	}
	if (!strcmp(arg, "--show-prefix")) {
		puts(rp->prefix ? rp->prefix : "");
		return 1;
	}
	if (!strcmp(arg, "--show-cdup")) {
		if (!inside_work_tree(rp)) {
			if (rp->repo.worktree)
				puts(rp->repo.worktree);
			return 1;
		}
		for (const char *p = rp->prefix; p && (p = strchr(p, '/'));
		     p++)
			fputs("../", stdout);
		putchar('\n');
		return 1;
	}
	if (!strcmp(arg, "--git-dir") || !strcmp(arg, "--absolute-git-dir")) {
		show_git_dir(rp, arg[2] == 'a');
		return 1;
	}
	if (!strcmp(arg, "--git-common-dir")) {
		git_dirs(rp);
		print_path(rp, rp->commondir, DEFAULT_RELATIVE_IF_SHARED);
		return 1;
	}
	if (!strcmp(arg, "--is-inside-git-dir")) {
		puts(inside_git_dir(rp) ? "true" : "false");
		return 1;
	}
	if (!strcmp(arg, "--is-inside-work-tree")) {
		puts(inside_work_tree(rp) ? "true" : "false");
		return 1;
	}
	if (!strcmp(arg, "--is-bare-repository")) {
		puts(is_bare(rp) ? "true" : "false");
		return 1;
	}
	if (!strcmp(arg, "--is-shallow-repository")) {
		puts(is_shallow(rp) ? "true" : "false");
		return 1;
	}
	if (!strcmp(arg, "--shared-index-path")) {
		struct index idx;
		int ret = index_read_in(&idx, rp->repo.index_path,
					&rp->repo, INDEX_READ_QUIET, 0);

		if (ret < 0)
			die_lib(ret);
		if (index_shared_id(&idx)) {
			char hex[HASH_MAX_HEXSZ + 1];
			struct strbuf name = STRBUF_INIT;

			strbuf_addf(&name, "sharedindex.%s",
				    oid_to_hex_r(hex, index_shared_id(&idx)));
			git_path(&sb, rp, name.buf);
			print_path(rp, sb.buf, DEFAULT_RELATIVE);
			strbuf_release(&name);
		}
		index_release(&idx);
		strbuf_release(&sb);
		return 1;
	}
	if (skip_prefix(arg, "--since=", &v) ||
	    skip_prefix(arg, "--after=", &v)) {
		show_datestring(rp, "--max-age=", v);
		return 1;
	}
	if (skip_prefix(arg, "--before=", &v) ||
	    skip_prefix(arg, "--until=", &v)) {
		show_datestring(rp, "--min-age=", v);
		return 1;
	}
	if (!strcmp(arg, "--show-ref-format")) {	/* git 2.45 */
		puts(rp->repo.reftable ? "reftable" : "files");
		return 1;
	}
	if (opt_with_value(arg, "--output-object-format", &v)) { /* 2.45 */
		/* ids in the repository's format: no compatObjectFormat */
		if (!v)
			die("no object format specified");
		if (strcmp(v, hash_algo->name) && strcmp(v, "storage"))
			die("unsupported object format: %s", v);
		return 1;
	}
	if (opt_with_value(arg, "--show-object-format", &v)) {
		const char *mode = v ? v : "storage";

		if (strcmp(mode, "storage") && strcmp(mode, "input") &&
		    strcmp(mode, "output"))
			die("unknown mode for --show-object-format: %s", mode);
		puts(hash_algo->name);
		return 1;
	}
	return 0;
}

int
cmd_rev_parse(int argc, const char **argv)
{
	struct rp rp;
	struct strbuf cwd = STRBUF_INIT;
	struct object_id oid = null_oid;
	const char *name = NULL;
	int as_is = 0, verify = 0, quiet = 0, revs_count = 0, type = NORMAL;
	int has_dashdash = 0, seen_end = 0;

	if (argc > 1 && !strcmp(argv[1], "--parseopt"))
		return rev_parse_parseopt(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "--sq-quote"))
		return cmd_sq_quote(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "-h"))
		usage_and_exit();

	memset(&rp, 0, sizeof(rp));
	rp.filter = DO_REVS | DO_NOREV | DO_FLAGS | DO_NONFLAGS;
	/* the kernel's getcwd() is a real path already: no realpath() */
	if (strbuf_getcwd(&cwd) < 0)
		die_lib(-1);
	rp.cwd = strbuf_detach(&cwd, NULL);
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			has_dashdash = 1;
			break;
		}
	/* no arguments: only "are we in a repository?" */
	if (argc == 1)
		open_repo(&rp);

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		struct object_id cur;

		if (as_is) {
			if (show_file(&rp, arg, rp.output_prefix) && as_is < 2)
				verify_filename(&rp, arg, 0);
			continue;
		}
		if (!seen_end) {
			if (!strcmp(arg, "--local-env-vars")) {
				for (size_t k = 0; k < ARRAY_SIZE(local_env_vars);
				     k++)
					puts(local_env_vars[k]);
				continue;
			}
			if (!strcmp(arg, "--resolve-git-dir")) {
				char *dir;

				if (++i >= argc)
					die("--resolve-git-dir requires an "
					    "argument");
				dir = resolve_gitdir(argv[i]);
				if (!dir)
					die("not a gitdir '%s'", argv[i]);
				puts(dir);
				free(dir);
				continue;
			}
		}
		open_repo(&rp);
		if (!strcmp(arg, "--")) {
			as_is = 2;
			/* pass "--" on if anything but files is shown */
			if (rp.filter & (DO_FLAGS | DO_REVS))
				show_file(&rp, arg, 0);
			continue;
		}
		if (!seen_end && *arg == '-') {
			if (!strcmp(arg, "--end-of-options")) {
				seen_end = 1;
				if (rp.filter & (DO_FLAGS | DO_REVS))
					show_file(&rp, arg, 0);
				continue;
			}
			if (handle_option(&rp, argc, argv, &i, &verify,
					  &quiet))
				continue;
			if (show_flag(&rp, arg) && verify)
				die_no_single_rev(quiet);
			continue;
		}
		if (try_difference(&rp, arg))
			continue;
		if (try_parent_shorthands(&rp, arg))
			continue;
		name = arg;
		type = NORMAL;
		if (*arg == '^') {
			name++;
			type = REVERSED;
		}
		if (!lookup(&rp, name, rp.name_flags, &cur)) {
			oid = cur;
			if (verify)
				revs_count++;
			else
				show_rev(&rp, type, &oid, name);
			continue;
		}
		if (verify)
			die_no_single_rev(quiet);
		if (has_dashdash)
			die("bad revision '%s'", arg);
		as_is = 1;
		if (!show_file(&rp, arg, rp.output_prefix))
			continue;
		verify_filename(&rp, arg, 1);
	}
	if (verify) {
		if (revs_count == 1)
			show_rev(&rp, type, &oid, name);
		else if (revs_count || !show_default(&rp))
			die_no_single_rev(quiet);
	} else {
		show_default(&rp);
	}
	clear_excludes(&rp);
	free(rp.excludes);
	free(rp.gitdir);
	free(rp.commondir);
	free(rp.cwd);
	if (rp.have_repo)
		repo_release(&rp.repo);
	return 0;
}
