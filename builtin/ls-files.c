/*
 * ls-files: show what the index holds (-c, -s, -u), how the work tree
 * differs from it (-d, -m), and what it does not track (-o), limited to
 * pathspecs, named relative to the current directory as git names them.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "index.h"
#include "parse-options.h"
#include "path.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"
#include "strmap.h"
#include "tree.h"

const char *const ls_files_usage[] = {
	"dirc ls-files [<options>] [<file>...]",
	NULL,
};

struct pathspec_item {
	char *match;		/* relative to the top */
	size_t len;
	int has_glob;
	int seen;
	const char *original;
};

struct ls {
	struct repo *repo;
	struct index idx;
	const char *prefix;	/* "" or "sub/" */
	struct pathspec_item *ps;
	size_t ps_nr;
	int show_cached, show_stage, show_deleted, show_modified;
	int show_others, show_unmerged, show_tag, full_name, nul;
	int error_unmatch, dedup, directory, show_valid;
	struct strbuf out;
};

static int
has_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

/* Does name match the pathspecs (or lie under the prefix without any)? */
static int
ps_match(struct ls *ls, const char *name, size_t len, int is_dir)
{
	if (!ls->ps_nr) {
		size_t plen = strlen(ls->prefix);

		if (!plen)
			return 1;
		/* under the prefix, or a directory on the way to it */
		if (path_in_dir(name, len, ls->prefix, plen - 1))
			return 1;
		return is_dir && len < plen && ls->prefix[len] == '/' &&
		       !memcmp(ls->prefix, name, len);
	}
	for (size_t i = 0; i < ls->ps_nr; i++) {
		struct pathspec_item *it = &ls->ps[i];
		size_t m = it->len;

		if (!m || (len >= m && !memcmp(name, it->match, m) &&
			   (len == m || name[m] == '/' ||
			    it->match[m - 1] == '/'))) {
			it->seen = 1;
			return 1;
		}
		if (is_dir && m > len && !memcmp(name, it->match, len) &&
		    it->match[len] == '/')
			return 1;	/* descend towards it */
		if (it->has_glob && !fnmatch(it->match, name, 0)) {
			it->seen = 1;
			return 1;
		}
		if (it->has_glob && is_dir)
			return 1;
	}
	return 0;
}

/* Append name, quoted unless -z, and its terminator; flush when big. */
static void
add_quoted(struct ls *ls, const char *name, size_t len)
{
	if (ls->nul)
		strbuf_add(&ls->out, name, len);
	else
		quote_c_style(&ls->out, name, len,
			      ls->repo->settings.quotepath);
	strbuf_addch(&ls->out, ls->nul ? '\0' : '\n');
	if (ls->out.len > 65536) {
		fwrite(ls->out.buf, 1, ls->out.len, stdout);
		strbuf_reset(&ls->out);
	}
}

/* name as seen from the prefix: "a", "../x" */
static void
add_name(struct ls *ls, const char *name, size_t len)
{
	struct strbuf rel = STRBUF_INIT;
	const char *p = ls->prefix;
	size_t plen = strlen(p);

	if (ls->full_name || !plen) {
		add_quoted(ls, name, len);	/* the common case: no copy */
		return;
	} else if (len >= plen && !memcmp(name, p, plen)) {
		strbuf_add(&rel, name + plen, len - plen);
	} else {
		/* climb out of the prefix as far as needed */
		size_t common = 0, i;

		for (i = 0; i < plen && i < len && p[i] == name[i]; i++)
			if (p[i] == '/')
				common = i + 1;
		for (i = common; i < plen; i++)
			if (p[i] == '/')
				strbuf_addstr(&rel, "../");
		strbuf_add(&rel, name + common, len - common);
	}
	add_quoted(ls, rel.buf, rel.len);
	strbuf_release(&rel);
}

static void
show_entry(struct ls *ls, const struct index_entry *e, const char *tag)
{
	if (!ps_match(ls, e->name, e->namelen, 0))
		return;
	if (ls->show_tag) {
		/* -v: assume-unchanged entries get lowercase tags */
		if (ls->show_valid && e->flags & CE_VALID)
			strbuf_addch(&ls->out, tag[0] | 0x20);
		else
			strbuf_addch(&ls->out, tag[0]);
		strbuf_addstr(&ls->out, tag + 1);
	}
	if (ls->show_stage) {
		/* "%06o %s %d\t", by hand: it runs for every entry */
		char buf[6 + 1 + HASH_HEXSZ + 1 + 1 + 1 + 1];

		for (int i = 0; i < 6; i++)
			buf[i] = '0' + ((e->mode >> (3 * (5 - i))) & 7);
		buf[6] = ' ';
		oid_to_hex_r(buf + 7, &e->oid);
		buf[7 + HASH_HEXSZ] = ' ';
		buf[8 + HASH_HEXSZ] = '0' + ce_stage(e);
		buf[9 + HASH_HEXSZ] = '\t';
		strbuf_add(&ls->out, buf, 10 + HASH_HEXSZ);
	}
	add_name(ls, e->name, e->namelen);
}

/* ---- untracked files ---- */

struct others {
	char **names;
	size_t nr, alloc;
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
tracked_under(const struct index *idx, const char *dir, size_t len)
{
	ssize_t pos = index_pos(idx, dir, len, -1);

	if (pos >= 0)
		return 1;
	pos = -pos - 1;
	for (; (size_t)pos < idx->nr; pos++) {
		const struct index_entry *e = idx->entries[pos];

		if (e->namelen <= len || memcmp(e->name, dir, len))
			return 0;
		if (e->name[len] == '/')
			return 1;
		if (e->name[len] > '/')
			return 0;
	}
	return 0;
}

static void
walk(struct ls *ls, struct strbuf *path, struct others *o)
{
	DIR *dir = opendir(path->len ? path->buf : ".");
	size_t base = path->len;
	struct dirent *de;

	if (!dir) {
		if (errno != ENOENT && errno != ENOTDIR)
			warning("could not open directory '%s': %s",
				path->buf, strerror(errno));
		return;
	}
	while ((de = readdir(dir))) {
		const char *n = de->d_name;
		struct stat st;
		int is_dir;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (!base && !strcmp(n, ".git"))
			continue;
		strbuf_setlen(path, base);
		strbuf_addstr(path, n);
		if (lstat(path->buf, &st) < 0)
			continue;
		is_dir = S_ISDIR(st.st_mode);
		if (!ps_match(ls, path->buf, path->len, is_dir))
			continue;
		if (!is_dir) {
			if (index_pos(&ls->idx, path->buf, path->len, -1) < 0) {
				ALLOC_GROW(o->names, o->nr + 1, o->alloc);
				o->names[o->nr++] = xstrdup(path->buf);
			}
			continue;
		}
		/* a directory: a gitlink in the index is tracked */
		{
			ssize_t pos = index_pos(&ls->idx, path->buf, path->len,
						-1);

			if (pos >= 0 &&
			    S_ISGITLINK(ls->idx.entries[pos]->mode))
				continue;
		}
		strbuf_addch(path, '/');
		strbuf_addstr(path, ".git");
		if (!access(path->buf, F_OK)) {
			/* another repository: shown as a directory */
			strbuf_setlen(path, path->len - 4);
			if (ps_match(ls, path->buf, path->len - 1, 0)) {
				ALLOC_GROW(o->names, o->nr + 1, o->alloc);
				o->names[o->nr++] = xstrdup(path->buf);
			}
			continue;
		}
		strbuf_setlen(path, path->len - 4);
		if (ls->directory &&
		    !tracked_under(&ls->idx, path->buf, path->len - 1) &&
		    ps_match(ls, path->buf, path->len - 1, 0)) {
			ALLOC_GROW(o->names, o->nr + 1, o->alloc);
			o->names[o->nr++] = xstrdup(path->buf);
			continue;
		}
		walk(ls, path, o);
	}
	strbuf_setlen(path, base);
	closedir(dir);
}

static void
show_others(struct ls *ls)
{
	struct strbuf path = STRBUF_INIT;
	struct others o = { NULL, 0, 0 };

	walk(ls, &path, &o);
	sort_array(o.names, o.nr, sizeof(*o.names), cmp_str);
	for (size_t i = 0; i < o.nr; i++) {
		if (ls->show_tag)
			strbuf_addstr(&ls->out, "? ");
		add_name(ls, o.names[i], strlen(o.names[i]));
		free(o.names[i]);
	}
	free(o.names);
	strbuf_release(&path);
}

static void
show_files(struct ls *ls)
{
	const struct index *idx = &ls->idx;
	const char *last = NULL;
	size_t lastlen = 0;

	if (!(ls->show_cached || ls->show_stage || ls->show_deleted ||
	      ls->show_modified))
		return;
	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i];
		struct stat st;
		int err;

		if (ls->dedup && last && lastlen == e->namelen &&
		    !memcmp(last, e->name, lastlen))
			continue;
		if ((ls->show_cached || ls->show_stage) &&
		    (!ls->show_unmerged || ce_stage(e))) {
			show_entry(ls, e, ce_stage(e) ? "M " :
				   e->ext_flags & CE_SKIP_WORKTREE ? "S " :
				   "H ");
			if (ls->dedup) {
				last = e->name;
				lastlen = e->namelen;
				continue;
			}
		}
		if (!(ls->show_deleted || ls->show_modified))
			continue;
		if (e->ext_flags & CE_SKIP_WORKTREE)
			continue;
		err = lstat(e->name, &st);
		if (err && errno != ENOENT && errno != ENOTDIR)
			error("cannot lstat '%s': %s", e->name,
			      strerror(errno));
		if (err && ls->show_deleted) {
			show_entry(ls, e, "R ");
			if (ls->dedup) {
				last = e->name;
				lastlen = e->namelen;
				continue;
			}
		}
		if (ls->show_modified &&
		    (err || index_entry_modified(ls->repo, &ls->idx, e, &st,
						 0))) {
			show_entry(ls, e, "C ");
			if (ls->dedup) {
				last = e->name;
				lastlen = e->namelen;
			}
		}
	}
}

int
cmd_ls_files(int argc, const char **argv)
{
	struct repo repo;
	struct ls ls;
	struct strbuf norm = STRBUF_INIT;
	int ret, unmatched = 0;
	struct option opts[] = {
		OPT_BOOL('z', NULL, &ls.nul, "separate paths with the NUL "
			 "character"),
		OPT_BOOL('t', NULL, &ls.show_tag, "identify the file status "
			 "with tags"),
		OPT_BOOL('v', NULL, &ls.show_valid, "use lowercase letters for "
			 "'assume unchanged' files"),
		OPT_BOOL('c', "cached", &ls.show_cached, "show cached files "
			 "in the output (default)"),
		OPT_BOOL('d', "deleted", &ls.show_deleted, "show deleted files "
			 "in the output"),
		OPT_BOOL('m', "modified", &ls.show_modified, "show modified "
			 "files in the output"),
		OPT_BOOL('o', "others", &ls.show_others, "show other files in "
			 "the output"),
		OPT_BOOL('s', "stage", &ls.show_stage, "show staged contents' "
			 "object name in the output"),
		OPT_BOOL('u', "unmerged", &ls.show_unmerged, "show unmerged "
			 "files in the output"),
		OPT_BOOL(0, "directory", &ls.directory, "show 'other' "
			 "directories' names only"),
		OPT_BOOL(0, "full-name", &ls.full_name, "make the output "
			 "relative to the project top directory"),
		OPT_BOOL(0, "error-unmatch", &ls.error_unmatch, "if any <file> "
			 "is not in the index, treat this as an error"),
		OPT_BOOL(0, "deduplicate", &ls.dedup, "suppress duplicate "
			 "entries"),
		OPT_END(),
	};

	memset(&ls, 0, sizeof(ls));
	argc = parse_options(argc, argv, opts, ls_files_usage, 0);
	ret = repo_open(&repo, REPO_NEED_WORKTREE);
	if (ret < 0)
		die_lib(ret);
	ls.repo = &repo;
	ls.prefix = repo.prefix;
	if (ls.show_unmerged)
		ls.show_stage = 1;
	if (ls.show_valid)
		ls.show_tag = 1;
	/* --deduplicate has no effect when stages or tags are shown */
	if (ls.show_stage || ls.show_tag)
		ls.dedup = 0;
	if (!(ls.show_stage || ls.show_deleted || ls.show_others ||
	      ls.show_modified || ls.show_unmerged))
		ls.show_cached = 1;
	ret = index_read(&ls.idx, repo.index_path, 0);
	if (ret < 0)
		die_lib(ret);

	ls.ps = xcalloc(argc ? argc : 1, sizeof(*ls.ps));
	for (int i = 0; i < argc; i++) {
		struct pathspec_item *it = &ls.ps[ls.ps_nr++];

		ret = path_normalize(&norm, repo.prefix, argv[i],
				     repo.worktree);
		if (ret < 0)
			die_lib(ret);
		it->match = strbuf_detach(&norm, NULL);
		it->len = strlen(it->match);
		it->has_glob = has_glob(it->match);
		it->original = argv[i];
	}
	strbuf_init(&ls.out, 0);
	if (ls.show_others)
		show_others(&ls);
	show_files(&ls);
	fwrite(ls.out.buf, 1, ls.out.len, stdout);

	if (ls.error_unmatch) {
		for (size_t i = 0; i < ls.ps_nr; i++) {
			if (ls.ps[i].seen)
				continue;
			fflush(stdout);
			fprintf(stderr, "error: pathspec '%s' did not match any "
				"file(s) known to git\n", ls.ps[i].original);
			unmatched = 1;
		}
		if (unmatched)
			fprintf(stderr, "Did you forget to 'git add'?\n");
	}
	for (size_t i = 0; i < ls.ps_nr; i++)
		free(ls.ps[i].match);
	free(ls.ps);
	strbuf_release(&ls.out);
	index_release(&ls.idx);
	repo_release(&repo);
	return unmatched ? 1 : 0;
}
