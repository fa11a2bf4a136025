/*
 * untracked: the walk.  Each directory entry gets one treatment, as in
 * git's dir.c: none (skip it), recurse (walk into it), or untracked
 * (report it).  A directory whose treatment needs its contents (to hide
 * it when empty) is walked "check only": nothing is reported, the walk
 * stops at the first untracked thing.
 *
 * Index questions are answered by binary search in the sorted entries
 * (index_pos), or, under core.ignorecase, by two hash maps of the folded
 * names and of their leading directories, built on first use.
 */
#include "untracked.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "exclude.h"
#include "index.h"
#include "pathspec.h"
#include "repo.h"
#include "strmap.h"
#include "tree.h"
#include "workers.h"

enum treatment {
	T_NONE,
	T_RECURSE,
	T_EXCLUDED,
	T_UNTRACKED,
};

enum in_index {
	IN_INDEX_NONE,
	IN_INDEX_DIRECTORY,	/* entries below it */
	IN_INDEX_GITLINK,
};

struct walker {
	const struct index *idx;
	const struct pathspec *ps;
	struct excludes *ex;		/* may be NULL */
	unsigned flags;
	char *gitdir_real;	/* realpath of our git directory; owned */
	struct untracked *out;
	/*
	 * At the top of a parallel walk: directories to walk are listed
	 * here instead of being walked (owned by untracked_collect)
	 */
	struct strbuf *defer;
	size_t defer_nr, defer_alloc;
	/* core.ignorecase: folded names, built on first use */
	int folded;
	struct strbuf folded_names;	/* owned */
	struct strmap files;		/* folded name -> entry */
	struct strmap dirs;		/* folded leading directories */
};

/* ---- questions to the index ---- */

static void
fold_into(struct strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		strbuf_addch(sb, c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
	}
}

static void
build_folded(struct walker *w)
{
	const struct index *idx = w->idx;
	size_t *offs = xcalloc(idx->nr ? idx->nr : 1, sizeof(*offs));

	w->folded = 1;
	/* first every folded name, so that the buffer no longer moves */
	for (size_t i = 0; i < idx->nr; i++) {
		offs[i] = w->folded_names.len;
		fold_into(&w->folded_names, idx->entries[i]->name,
			  idx->entries[i]->namelen);
		strbuf_addch(&w->folded_names, '\0');
	}
	for (size_t i = 0; i < idx->nr; i++) {
		const char *name = w->folded_names.buf + offs[i];
		size_t len = idx->entries[i]->namelen;

		if (!strmap_get(&w->files, name, len))
			strmap_put(&w->files, name, len, idx->entries[i]);
		while (len) {
			while (len && name[len - 1] != '/')
				len--;
			if (!len)
				break;
			len--;
			if (strmap_get(&w->dirs, name, len))
				break;	/* and so are its parents */
			strmap_put(&w->dirs, name, len, (void *)name);
		}
	}
	free(offs);
}

/* The entry named name (any stage), or NULL. */
static const struct index_entry *
index_file(struct walker *w, const char *name, size_t len)
{
	ssize_t pos;

	w->out->lookups++;
	if (w->flags & UNTRACKED_IGNORECASE) {
		struct strbuf key = STRBUF_INIT;
		const struct index_entry *e;

		if (!w->folded)
			build_folded(w);
		fold_into(&key, name, len);
		e = strmap_get(&w->files, key.buf, key.len);
		strbuf_release(&key);
		return e;
	}
	pos = index_pos(w->idx, name, len, -1);
	return pos >= 0 ? w->idx->entries[pos] : NULL;
}

/* What the index has at directory dir (len bytes, no slash). */
static enum in_index
index_dir(struct walker *w, const char *dir, size_t len)
{
	const struct index *idx = w->idx;
	ssize_t pos;

	if (w->flags & UNTRACKED_IGNORECASE) {
		struct strbuf key = STRBUF_INIT;
		const struct index_entry *e;
		int found;

		if (!w->folded)
			build_folded(w);
		fold_into(&key, dir, len);
		found = strmap_get(&w->dirs, key.buf, key.len) != NULL;
		strbuf_release(&key);
		if (found)
			return IN_INDEX_DIRECTORY;
		e = index_file(w, dir, len);
		return e && S_ISGITLINK(e->mode) ? IN_INDEX_GITLINK :
		       IN_INDEX_NONE;
	}
	/* entries named dir come first, then dir-x, dir.x, then dir/... */
	pos = index_pos(idx, dir, len, -1);
	if (pos < 0)
		pos = -pos - 1;
	for (; (size_t)pos < idx->nr; pos++) {
		const struct index_entry *e = idx->entries[pos];
		unsigned char c;

		if (e->namelen < len || memcmp(e->name, dir, len))
			break;
		c = e->name[len];
		if (c > '/')
			break;
		if (c == '/')
			return IN_INDEX_DIRECTORY;
		if (!c && S_ISGITLINK(e->mode))
			return IN_INDEX_GITLINK;
	}
	return IN_INDEX_NONE;
}

/* ---- the work tree ---- */

/*
 * Is dir ("d/") another repository: its .git a git directory, or a
 * gitfile naming one (or one we cannot read), and not our own?
 */
static int
nested_repo(struct walker *w, const char *dir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *objenv = getenv("GIT_OBJECT_DIRECTORY");
	struct stat st;
	int ret = 0;

	strbuf_addf(&path, "%s.git", dir);
	if (stat(path.buf, &st) < 0)
		goto out;
	if (S_ISREG(st.st_mode)) {
		const char *p;
		char *target;

		if (strbuf_read_file(&buf, path.buf) < 0) {
			/* git counts an unreadable gitfile as a repository */
			error_clear();
			ret = 1;
			goto ours;
		}
		strbuf_rtrim(&buf);
		if (!skip_prefix(buf.buf, "gitdir: ", &p))
			goto out;
		target = repo_abspath(p, dir);
		ret = repo_is_gitdir(target, objenv);
		free(target);
	} else if (S_ISDIR(st.st_mode)) {
		ret = repo_is_gitdir(path.buf, objenv);
	}
ours:
	if (ret && w->gitdir_real) {
		char *real = realpath(path.buf, NULL);

		if (real && !strcmp(real, w->gitdir_real))
			ret = 0;
		free(real);
	}
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

static void
add_name(struct walker *w, const char *name, size_t len)
{
	struct untracked *u = w->out;

	if (index_file(w, name, len))
		return;
	ALLOC_GROW(u->offsets, u->offsets_nr + 1, u->offsets_alloc);
	u->offsets[u->offsets_nr++] = u->arena.len;
	strbuf_add(&u->arena, name, len);
	strbuf_addch(&u->arena, '\0');
}

static enum treatment read_dir(struct walker *w, struct strbuf *path,
			       int check_only);

/*
 * path: "d/" (baselen bytes of it are the parent's "p/"); excluded: the
 * ignore rules exclude it (and UNTRACKED_SHOW_IGNORED is set, or it
 * would not be here).
 */
static enum treatment
treat_directory(struct walker *w, struct strbuf *path, int excluded)
{
	enum treatment state;
	int how = 0, stop_early;

	switch (index_dir(w, path->buf, path->len - 1)) {
	case IN_INDEX_DIRECTORY:
		return T_RECURSE;
	case IN_INDEX_GITLINK:
		return T_NONE;
	case IN_INDEX_NONE:
		break;
	}
	/* an excluded directory matched an ignore rule: git skips this */
	if (!excluded) {
		how = pathspec_match(w->ps, path->buf, path->len, 0, NULL,
				     PATHSPEC_MATCH_LEADING);
		if (!how)
			return T_NONE;
	}
	if (nested_repo(w, path->buf)) {
		if (how == PATHSPEC_MATCHED_LEADING)
			return T_NONE;
		return excluded ? T_EXCLUDED : T_UNTRACKED;
	}
	if (!(w->flags & UNTRACKED_DIRECTORIES) ||
	    how == PATHSPEC_MATCHED_LEADING)
		return T_RECURSE;
	if (excluded && !(w->flags & UNTRACKED_HIDE_EMPTY))
		return T_EXCLUDED;
	if (!excluded &&
	    !(w->flags & (UNTRACKED_SHOW_IGNORED | UNTRACKED_HIDE_EMPTY)))
		return T_UNTRACKED;
	/*
	 * Look inside: to know whether it is empty (stopping at the first
	 * thing found), or, showing ignored paths, to report those in it.
	 */
	stop_early = !!(w->flags & UNTRACKED_HIDE_EMPTY);
	state = read_dir(w, path, stop_early);
	if (state == T_NONE && !(w->flags & UNTRACKED_HIDE_EMPTY))
		state = excluded ? T_EXCLUDED : T_UNTRACKED;
	if (state == T_UNTRACKED && (w->flags & UNTRACKED_HIDE_EMPTY) &&
	    !pathspec_match(w->ps, path->buf, path->len, 0, NULL,
			    PATHSPEC_MATCH_DIRECTORY))
		state = T_NONE;
	return state;
}

/* The entry name in the directory path (baselen bytes); path is set to it. */
static enum treatment
treat_path(struct walker *w, struct strbuf *path, size_t baselen,
	   const char *name, unsigned char dtype)
{
	int dot_git, excluded = 0;
	const struct index_entry *tracked;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return T_NONE;
	dot_git = w->flags & UNTRACKED_IGNORECASE ? !strcasecmp(name, ".git") :
		  !strcmp(name, ".git");
	if (dot_git)
		return T_NONE;
	strbuf_setlen(path, baselen);
	strbuf_addstr(path, name);
	if (!pathspec_may_match_below(w->ps, path->buf, path->len))
		return T_NONE;
	if (dtype == DT_UNKNOWN) {
		struct stat st;

		if (lstat(path->buf, &st) < 0)
			return T_NONE;
		dtype = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ?
			DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
	}
	tracked = index_file(w, path->buf, path->len);
	if (dtype != DT_DIR && tracked)
		return T_NONE;
	if ((w->flags & UNTRACKED_KILLED_ONLY) && dtype == DT_DIR && !tracked &&
	    index_dir(w, path->buf, path->len) == IN_INDEX_NONE)
		return T_NONE;
	if (w->ex && (dtype == DT_DIR || dtype == DT_REG || dtype == DT_LNK))
		excluded = excludes_path(w->ex, path->buf, path->len,
					 dtype == DT_DIR ? EXCLUDE_DTYPE_DIR :
					 EXCLUDE_DTYPE_FILE);
	if (excluded && !(w->flags & UNTRACKED_SHOW_IGNORED))
		return T_EXCLUDED;
	switch (dtype) {
	case DT_REG:
	case DT_LNK:
		if (!pathspec_match(w->ps, path->buf, path->len, 0, NULL, 0))
			return T_NONE;
		return excluded ? T_EXCLUDED : T_UNTRACKED;
	case DT_DIR:
		strbuf_addch(path, '/');
		return treat_directory(w, path, excluded);
	default:
		return T_NONE;
	}
}

/*
 * Walk the directory path ("" or "d/"), reporting what is untracked
 * unless check_only.  Returns the furthest treatment met (T_UNTRACKED
 * as soon as check_only meets one).
 */
static enum treatment
read_dir(struct walker *w, struct strbuf *path, int check_only)
{
	size_t baselen = path->len, nr = 0, alloc = 0;
	enum treatment dir_state = T_NONE;
	struct strbuf names = STRBUF_INIT;
	struct { size_t off; unsigned char type; } *ents = NULL;
	int per_dir_seen = 0;
	struct dirent *de;
	DIR *dir;

	dir = opendir(baselen ? path->buf : ".");
	if (!dir) {
		diag_emit(DIAG_WARNING, "could not open directory '%s': %s",
			  path->buf, strerror(errno));
		return T_NONE;
	}
	/* the whole listing first: one open directory at a time */
	while ((de = readdir(dir))) {
		ALLOC_GROW(ents, nr + 1, alloc);
		ents[nr].off = names.len;
		ents[nr++].type = de->d_type;
		strbuf_addstr(&names, de->d_name);
		strbuf_addch(&names, '\0');
		if (w->ex && w->ex->per_dir && !strcmp(de->d_name, w->ex->per_dir))
			per_dir_seen = 1;
	}
	closedir(dir);
	if (w->ex && w->ex->per_dir && !per_dir_seen)
		excludes_hint_absent(w->ex, path->buf, baselen);
	for (size_t i = 0; i < nr; i++) {
		enum treatment state;
		int is_dir;

		state = treat_path(w, path, baselen, names.buf + ents[i].off,
				   ents[i].type);
		if (state > dir_state)
			dir_state = state;
		is_dir = path->len && path->buf[path->len - 1] == '/';
		if (state == T_RECURSE && w->defer && !check_only) {
			/* walked later, on a worker; nothing to add here */
			ALLOC_GROW(w->defer, w->defer_nr + 1, w->defer_alloc);
			strbuf_init(&w->defer[w->defer_nr], 0);
			strbuf_addbuf(&w->defer[w->defer_nr++], path);
			continue;
		}
		if (state == T_RECURSE ||
		    (state == T_UNTRACKED && is_dir &&
		     pathspec_match_positive(w->ps, path->buf, path->len,
					     baselen, NULL,
					     PATHSPEC_MATCH_LEADING) ==
		     PATHSPEC_MATCHED_LEADING)) {
			size_t len = path->len;
			struct strbuf *defer = w->defer;
			enum treatment sub;

			w->defer = NULL;	/* only the top level defers */
			sub = read_dir(w, path, check_only);
			w->defer = defer;

			strbuf_setlen(path, len);
			if (sub > dir_state)
				dir_state = sub;
			if (!pathspec_match(w->ps, path->buf, path->len, 0, NULL,
					    0))
				state = T_NONE;
		}
		if (check_only) {
			if (dir_state == T_UNTRACKED)
				break;
			continue;
		}
		if (state == T_EXCLUDED ? (w->flags & UNTRACKED_SHOW_IGNORED) :
		    state == T_UNTRACKED && !(w->flags & UNTRACKED_SHOW_IGNORED))
			add_name(w, path->buf, path->len);
	}
	free(ents);
	strbuf_release(&names);
	strbuf_setlen(path, baselen);
	return dir_state;
}

/* Is any leading directory of path (its last component excluded) a symlink? */
static int
symlink_on_the_way(const char *path, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	for (size_t i = 0; i < len && !found; i++) {
		struct stat st;

		if (path[i] != '/' || !i)
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, path, i);
		if (lstat(sb.buf, &st) < 0)
			break;
		found = S_ISLNK(st.st_mode);
	}
	strbuf_release(&sb);
	return found;
}

static int
is_directory(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The walk starts in the common leading directory: treat each of its
 * components as the walk would meet it.  True if the walk may go in;
 * a component reported as untracked on the way ("d/" with --directory)
 * is reported here.
 */
static int
treat_leading_path(struct walker *w, const char *prefix, size_t len)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	enum treatment state = T_NONE;
	size_t baselen = 0, prevlen;

	while (len && prefix[len - 1] == '/')
		len--;
	if (!len)
		return 1;
	for (;;) {
		const char *slash;

		prevlen = baselen + !!baselen;
		slash = memchr(prefix + prevlen, '/', len - prevlen);
		baselen = slash ? (size_t)(slash - prefix) : len;
		strbuf_reset(&sb);
		strbuf_add(&sb, prefix, baselen);
		if (!is_directory(sb.buf))
			break;
		strbuf_setlen(&sb, prevlen);
		strbuf_reset(&name);
		strbuf_add(&name, prefix + prevlen, baselen - prevlen);
		state = treat_path(w, &sb, prevlen, name.buf, DT_DIR);
		if (state != T_RECURSE || len <= baselen)
			break;
	}
	if (state == (w->flags & UNTRACKED_SHOW_IGNORED ? T_EXCLUDED :
		      T_UNTRACKED))
		add_name(w, sb.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&name);
	return state == T_RECURSE;
}

/* ---- the parallel walk ---- */

/*
 * On a big tree the directories under the top are walked on several
 * threads, each with its own walker: its own results and its own stack
 * of per-directory ignore lists (sharing the other sources), merged
 * after the join (the results are sorted anyway).  The index, the
 * pathspecs and the folded names are only read meanwhile.
 */
#define PARALLEL_MIN_ENTRIES 4096 /* NEEDSWORK: measured only at P12's
				   * scale 0.25 (20k entries); below, one
				   * thread.  DIRC_PARALLEL_WALK_MIN
				   * overrides it (tests: 0) */

struct par {
	struct walker *main;
	struct walker *tw;		/* per thread */
	struct untracked *outs;		/* per thread */
	struct excludes *exs;		/* per thread */
};

static void
walk_job(void *ctx, size_t item, int thread)
{
	struct par *par = ctx;
	struct walker *w = &par->tw[thread];
	struct strbuf path = STRBUF_INIT;

	strbuf_addbuf(&path, &par->main->defer[item]);
	read_dir(w, &path, 0);
	strbuf_release(&path);
}

static int
any_skip_worktree(const struct index *idx)
{
	for (size_t i = 0; i < idx->nr; i++)
		if (idx->entries[i]->ext_flags & CE_SKIP_WORKTREE)
			return 1;
	return 0;
}

/* Walk from path (the start directory), in parallel when it pays. */
static void
walk(struct walker *w, struct strbuf *path)
{
	const char *env = getenv("DIRC_PARALLEL_WALK_MIN");
	size_t min = env ? (size_t)strtoul(env, NULL, 10) :
		     PARALLEL_MIN_ENTRIES;
	struct par par;
	int nthreads;

	/*
	 * a skip-worktree ignore file would be read from the object store,
	 * which is not for several threads
	 */
	if (w->idx->nr < min ||
	    (w->ex && w->ex->odb && any_skip_worktree(w->idx))) {
		read_dir(w, path, 0);
		return;
	}
	w->defer = xcalloc(1, sizeof(*w->defer));
	w->defer_alloc = 1;
	read_dir(w, path, 0);
	nthreads = w->defer_nr < 2 ? 1 :
		   workers_count(0, 0, w->defer_nr, 1);
	if ((w->flags & UNTRACKED_IGNORECASE) && !w->folded)
		build_folded(w);
	memset(&par, 0, sizeof(par));
	par.main = w;
	par.tw = xcalloc(nthreads, sizeof(*par.tw));
	par.outs = xcalloc(nthreads, sizeof(*par.outs));
	par.exs = xcalloc(nthreads, sizeof(*par.exs));
	for (int t = 0; t < nthreads; t++) {
		par.tw[t] = *w;
		par.tw[t].defer = NULL;
		strbuf_init(&par.outs[t].arena, 0);
		par.tw[t].out = &par.outs[t];
		if (w->ex) {
			excludes_clone(&par.exs[t], w->ex);
			par.tw[t].ex = &par.exs[t];
		}
	}
	workers_run(nthreads, w->defer_nr, walk_job, &par);
	for (int t = 0; t < nthreads; t++) {
		struct untracked *o = &par.outs[t];

		for (size_t i = 0; i < o->offsets_nr; i++) {
			const char *name = o->arena.buf + o->offsets[i];
			struct untracked *u = w->out;

			ALLOC_GROW(u->offsets, u->offsets_nr + 1,
				   u->offsets_alloc);
			u->offsets[u->offsets_nr++] = u->arena.len;
			strbuf_addstr(&u->arena, name);
			strbuf_addch(&u->arena, '\0');
		}
		w->out->lookups += o->lookups;
		untracked_release(o);
		if (w->ex)
			excludes_release(&par.exs[t]);
	}
	for (size_t i = 0; i < w->defer_nr; i++)
		strbuf_release(&w->defer[i]);
	free(w->defer);
	w->defer = NULL;
	free(par.tw);
	free(par.outs);
	free(par.exs);
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
untracked_collect(struct untracked *out, const struct index *idx,
		  const struct pathspec *ps, const char *gitdir,
		  struct excludes *ex, unsigned flags)
{
	struct walker w;
	struct strbuf path = STRBUF_INIT;
	size_t plen = pathspec_common_prefix(ps);

	memset(&w, 0, sizeof(w));
	w.idx = idx;
	w.ps = ps;
	w.ex = ex;
	w.flags = flags;
	w.out = out;
	w.gitdir_real = gitdir ? realpath(gitdir, NULL) : NULL;
	strbuf_init(&w.folded_names, 0);

	if (plen)
		strbuf_add(&path, ps->items[0].match, plen);
	if (!symlink_on_the_way(path.buf, path.len) &&
	    (!plen || treat_leading_path(&w, path.buf, path.len)))
		walk(&w, &path);

	out->names = xcalloc(out->offsets_nr ? out->offsets_nr : 1,
			     sizeof(*out->names));
	for (size_t i = 0; i < out->offsets_nr; i++)
		out->names[i] = out->arena.buf + out->offsets[i];
	out->nr = out->offsets_nr;
	sort_array(out->names, out->nr, sizeof(*out->names), cmp_name);

	strbuf_release(&path);
	strbuf_release(&w.folded_names);
	strmap_release(&w.files);
	strmap_release(&w.dirs);
	free(w.gitdir_real);
}

void
untracked_release(struct untracked *u)
{
	free(u->names);
	free(u->offsets);
	strbuf_release(&u->arena);
	memset(u, 0, sizeof(*u));
	strbuf_init(&u->arena, 0);
}
