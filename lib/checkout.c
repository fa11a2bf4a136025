/*
 * checkout: index entries to work-tree files.
 *
 * Files are created with O_CREAT|O_EXCL and mode 0666 or 0777 (the
 * umask decides the rest), written in one call, and closed; a write that
 * fails (EFBIG, ENOSPC) removes the partial file.
 *
 * An entry whose name may not enter an index (path_verify: "", ".",
 * "..", "/x", ".git" and the like, which only a damaged or hostile index
 * holds) is refused before anything is looked at: "--force" on an entry
 * "." would otherwise empty the work tree, and "../x" or "/x" reach
 * outside it.
 *
 * The directories of base up to its last '/' ("out/" of "out/pre-") are
 * the caller's and are stat()ed, so a symlink to a directory there is
 * written through; everything after is lstat()ed, so a symlink where the
 * tree has a directory is in the way, as in git.
 *
 * Whether an existing file still holds an entry is decided in one place,
 * entry_modified().
 */
#include "checkout.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "attr.h"
#include "convert.h"
#include "dir.h"
#include "error.h"
#include "filter.h"
#include "index.h"
#include "modified.h"
#include "odb.h"
#include "path.h"
#include "repo.h"
#include "strmap.h"
#include "trace.h"
#include "tree.h"
#include "workers.h"

void
checkout_init(struct checkout *co, struct repo *repo, struct index *idx,
	      struct odb *odb)
{
	memset(co, 0, sizeof(*co));
	co->repo = repo;
	co->idx = idx;
	co->odb = odb;
	co->base = "";
	strbuf_init(&co->path, 0);
}

void
checkout_release(struct checkout *co)
{
	strbuf_release(&co->path);
	if (co->idx && co->convert && co->idx->hash_ctx == co->convert) {
		co->idx->hash_file = NULL;
		co->idx->hash_ctx = NULL;
	}
	/* a filter process dying at its end is reported there, as in git */
	if (convert_free(co->convert) < 0)
		error_clear();
	co->convert = NULL;
}

static int remove_tree(struct strbuf *path);

/* dir_for_each() callback: remove one entry of remove_tree()'s walk */
static int
remove_entry(struct strbuf *path, const char *name UNUSED, void *data UNUSED)
{
	struct stat st;

	if (lstat(path->buf, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return remove_tree(path);
	if (unlink(path->buf) < 0)
		return error_errno(errno, "cannot unlink '%s'", path->buf);
	return 0;
}

/* rm -r path */
static int
remove_tree(struct strbuf *path)
{
	int ret = dir_for_each(path, remove_entry, NULL);

	if (!ret && rmdir(path->buf) < 0)
		ret = error_errno(errno, "cannot rmdir '%s'", path->buf);
	return ret;
}

/* The length of base up to and including its last '/': the caller's. */
static size_t
base_dirs_len(const char *base)
{
	const char *slash = strrchr(base, '/');

	return slash ? (size_t)(slash - base + 1) : 0;
}

/* Is the leading directory path[0..len) a directory, as checkout sees it? */
static int
is_dir(const char *path, size_t len, size_t trusted, struct stat *st)
{
	int ret = len < trusted ? stat(path, st) : lstat(path, st);

	return !ret && S_ISDIR(st->st_mode);
}

/*
 * Make the directories leading to the last component of path (the base
 * prefix's too).  A file or symlink in the way is replaced when force;
 * otherwise it is -E_CONFLICT, which git treats as fatal.
 */
static int
make_dirs(struct checkout *co, char *path)
{
	size_t trusted = base_dirs_len(co->base);

	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		size_t len = p - path;
		struct stat st;

		*p = '\0';
		if (is_dir(path, len, trusted, &st)) {
			*p = '/';
			continue;
		}
		if (mkdir(path, 0777) < 0) {
			int e = errno;

			/* another thread may have just made it */
			if (e == EEXIST && is_dir(path, len, trusted, &st))
				e = 0;
			else if (e == EEXIST && co->force)
				e = unlink(path) < 0 || mkdir(path, 0777) < 0 ?
				    errno : 0;
			if (e) {
				int ret = error_set(E_CONFLICT, "cannot create "
						    "directory at '%s': %s",
						    path, strerror(e));

				*p = '/';
				return ret;
			}
		}
		*p = '/';
	}
	return 0;
}

static int
write_file(const char *path, unsigned mode, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		      (mode & 0100) ? 0777 : 0666);
	int ret = 0;

	if (fd < 0)
		return error_errno(errno, "unable to create file %s", path);
	/* git names the file and not the reason (a full disk, say) */
	if (write_full(fd, data, len) < 0)
		ret = error_set(error_code_of_errno(errno),
				"unable to write file %s", path);
	if (close(fd) < 0 && !ret)
		ret = error_set(error_code_of_errno(errno),
				"unable to write file %s", path);
	if (ret < 0)
		unlink(path);
	return ret;
}

/* e's blob, as git reads it for a checkout; its error names e. */
static int
read_blob(struct odb_object *obj, struct checkout *co,
	  const struct index_entry *e)
{
	int ret = odb_read(obj, co->odb, &e->oid, 0);

	if (ret == -E_NOTFOUND)
		return error_set(E_NOTFOUND, "unable to read sha1 file of %s "
				 "(%s)", e->name, oid_to_hex(&e->oid));
	if (ret < 0)
		return ret;
	if (obj->type != OBJ_BLOB) {
		odb_object_release(obj);
		return error_set(E_CORRUPT, "unable to read sha1 file of %s "
				 "(%s)", e->name, oid_to_hex(&e->oid));
	}
	return 0;
}

/* The conversions, made on first need (on the caller's thread). */
static struct convert *
convert_of(struct checkout *co)
{
	if (!co->convert) {
		co->convert = convert_new(co->repo, co->idx, co->odb,
					  co->convert_flags);
		/* "is the file still the entry's?" cleans it as git does */
		if (co->idx && !co->idx->hash_file)
			convert_attach_index(co->convert, co->idx);
	}
	return co->convert;
}

/*
 * The work-tree bytes of the regular file e whose blob is obj (git's
 * smudge): *data and *len point into obj or conv.  0 or -E_*.
 */
static int
smudge(struct checkout *co, const struct index_entry *e,
       const struct odb_object *obj, struct strbuf *conv,
       const void **data, size_t *len)
{
	struct convert_plan p;
	int ret;

	*data = obj->data;
	*len = obj->size;
	if (!S_ISREG(e->mode))
		return 0;
	convert_plan_for(&p, co->convert, e->name);
	if (!convert_plan_smudges(co->convert, &p))
		return 0;
	p.blob = &e->oid;
	ret = convert_to_worktree(conv, co->convert, &p, e->name, obj->data,
				  obj->size);
	if (ret < 0 || ret == FILTER_DELAYED)
		return ret;
	if (!ret) {
		*data = conv->buf;
		*len = conv->len;
	}
	return 0;
}

static int
write_entry(struct checkout *co, struct index_entry *e, const char *path)
{
	struct strbuf conv = STRBUF_INIT;
	struct odb_object obj;
	const void *data;
	size_t len;
	int ret;

	if (S_ISGITLINK(e->mode)) {
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			return error_errno(errno, "cannot create submodule "
					   "directory %s", path);
		return 0;
	}
	ret = read_blob(&obj, co, e);
	if (ret < 0)
		return ret;
	if (S_ISLNK(e->mode) && co->repo->settings.symlinks) {
		char *target = xmemdupz(obj.data, obj.size);

		if (symlink(target, path) < 0)
			ret = error_errno(errno, "unable to create symlink %s",
					  path);
		free(target);
	} else {
		ret = smudge(co, e, &obj, &conv, &data, &len);
		if (!ret)
			ret = write_file(path, S_ISLNK(e->mode) ? 0644 :
					 e->mode, data, len);
		else if (ret == FILTER_DELAYED)
			goto out;	/* written when the filter has it */
	}
out:
	odb_object_release(&obj);
	strbuf_release(&conv);
	if (!ret)
		trace_count(TC_FILES_CHECKED_OUT, 1);
	return ret;
}

int
checkout_entry_temp(struct checkout *co, const struct index_entry *e,
		    struct strbuf *name)
{
	struct strbuf conv = STRBUF_INIT;
	struct odb_object obj;
	char tmpl[] = ".merge_file_XXXXXX";
	const void *data;
	size_t len;
	int fd, ret;

	if (S_ISGITLINK(e->mode))
		return error_set(E_UNSUPPORTED, "cannot create temporary "
				 "submodule %s", e->name);
	convert_of(co);
	ret = read_blob(&obj, co, e);
	if (ret < 0)
		return ret;
	ret = smudge(co, e, &obj, &conv, &data, &len);
	if (ret < 0) {
		odb_object_release(&obj);
		strbuf_release(&conv);
		return ret;
	}
	if (S_ISLNK(e->mode))
		memcpy(tmpl, ".merge_link_", 12);
	fd = mkstemp(tmpl);
	if (fd < 0) {
		ret = error_errno(errno, "unable to create file %s", tmpl);
	} else {
		if (write_full(fd, data, len) < 0)
			ret = error_set(error_code_of_errno(errno),
					"unable to write file %s", tmpl);
		if (close(fd) < 0 && !ret)
			ret = error_set(error_code_of_errno(errno),
					"unable to write file %s", tmpl);
		if (ret < 0)
			unlink(tmpl);
		else
			strbuf_addstr(name, tmpl);
	}
	odb_object_release(&obj);
	strbuf_release(&conv);
	if (!ret)
		trace_count(TC_FILES_CHECKED_OUT, 1);
	return ret;
}

/* Is any leading directory of path (after start) not a real directory? */
static int
leading_not_dirs(const char *path, size_t start)
{
	struct strbuf sb = STRBUF_INIT;
	int bad = 0;

	for (const char *p = strchr(path + start, '/'); p;
	     p = strchr(p + 1, '/')) {
		struct stat st;

		strbuf_reset(&sb);
		strbuf_add(&sb, path, p - path);
		if (lstat(sb.buf, &st) < 0 || !S_ISDIR(st.st_mode)) {
			bad = 1;
			break;
		}
	}
	strbuf_release(&sb);
	return bad;
}

/*
 * Does the file st describes still hold what e records (git's
 * ie_match_stat, assume-unchanged looked through)?  The one "modified"
 * question a checkout asks.
 */
static int
entry_modified(struct checkout *co, struct index_entry *e,
	       const struct stat *st)
{
	return modified_check(NULL, co->repo, co->idx, e, st,
			      MODIFIED_IGNORE_VALID |
			      MODIFIED_IGNORE_SKIP_WORKTREE |
			      MODIFIED_STAT_ONLY, NULL) != ENTRY_CLEAN;
}

/* co->path = base + e->name; 0, or -E_INVALID for a name no index holds */
static int
set_path(struct checkout *co, const struct index_entry *e)
{
	if (!path_verify(e->name, e->mode, co->repo->settings.protect))
		return error_set(E_INVALID, "invalid path '%s'", e->name);
	strbuf_reset(&co->path);
	strbuf_addstr(&co->path, co->base);
	strbuf_add(&co->path, e->name, e->namelen);
	return 0;
}

int
checkout_entry(struct checkout *co, struct index_entry *e)
{
	size_t baselen = strlen(co->base);
	struct stat st;
	int ret;

	ret = set_path(co, e);
	if (ret < 0)
		return ret;
	convert_of(co);
	if (!leading_not_dirs(co->path.buf, baselen) &&
	    !lstat(co->path.buf, &st)) {
		if (!entry_modified(co, e, &st))
			return 0;
		if (!co->force)
			return error_set(E_EXISTS, "%s already exists, no "
					 "checkout", co->path.buf);
		if (S_ISDIR(st.st_mode)) {
			if (S_ISGITLINK(e->mode))
				return 0;
			ret = remove_tree(&co->path);
			if (ret < 0)
				return ret;
		} else if (unlink(co->path.buf) < 0) {
			return error_errno(errno, "unable to unlink old '%s'",
					   co->path.buf);
		}
	} else if (co->not_new) {
		return 0;
	}
	ret = make_dirs(co, co->path.buf);
	if (ret < 0)
		return ret;
	ret = write_entry(co, e, co->path.buf);
	if (ret < 0 || ret == FILTER_DELAYED)
		return ret;
	trace_step("file checked out");
	if (co->refresh && !lstat(co->path.buf, &st)) {
		index_entry_fill_stat(e, &st);
		e->state |= CE_UPTODATE;
		co->refreshed = 1;
	}
	return 0;
}

int
checkout_check_conversion(struct checkout *co, const struct index_entry *e)
{
	struct convert_plan p;

	if (!S_ISREG(e->mode))
		return 0;
	convert_plan_for(&p, convert_of(co), e->name);
	if (!p.encoding)
		return 0;
	if (!ATTR_HAS_VALUE(p.encoding))
		return error_set(E_INVALID, "true/false are no valid "
				 "working-tree-encodings");
	return error_set(E_UNSUPPORTED, "cannot check out '%s': "
			 "working-tree-encoding=%s: dirc does not re-encode "
			 "content; nothing was written", e->name, p.encoding);
}

void
checkout_quiet(struct checkout *co, int quiet)
{
	convert_quiet(convert_of(co), quiet);
}

int
checkout_precheck(struct checkout *co, const struct index_entry *e)
{
	size_t baselen = strlen(co->base), trusted = base_dirs_len(co->base);
	struct stat st;
	char *path;

	if (set_path(co, e) < 0) {
		error_clear();
		return 0;
	}
	convert_of(co);
	path = co->path.buf;
	if (!leading_not_dirs(path, baselen) && !lstat(path, &st)) {
		/* kept as it is, or "already exists": nothing written */
		if (!co->force ||
		    !entry_modified(co, (struct index_entry *)e, &st))
			return 0;
		return checkout_check_conversion(co, e);
	}
	if (co->not_new)
		return 0;
	for (char *p = strchr(path + 1, '/'); !co->force && p;
	     p = strchr(p + 1, '/')) {
		size_t len = p - path;
		int gone;

		*p = '\0';
		gone = !is_dir(path, len, trusted, &st) &&
		       lstat(path, &st) < 0;
		if (!gone && !is_dir(path, len, trusted, &st)) {
			int ret = error_set(E_CONFLICT, "cannot create "
					    "directory at '%s': %s", path,
					    strerror(EEXIST));

			*p = '/';
			return ret;
		}
		*p = '/';
		if (gone)
			break;	/* made from here on: nothing in the way */
	}
	return checkout_check_conversion(co, e);
}

struct many {
	struct checkout *co;		/* per thread */
	struct index_entry **entries;
	struct checkout_report *rep;
	int stop;			/* a filter failed as git dies: no
					 * more entries (one thread then) */
};

static void
checkout_one(void *ctx, size_t i, int thread)
{
	struct many *m = ctx;
	struct checkout *co = &m->co[thread];

	if (m->stop)
		return;		/* after a filter's fatal failure, as git */
	m->rep[i].ret = checkout_entry(co, m->entries[i]);
	if (m->rep[i].ret < 0)
		error_save(&m->rep[i].err);
	if (m->rep[i].ret == -E_FILTER)
		m->stop = 1;
	if (co->progress.add)
		co->progress.add(co->progress.ctx, 1);
	if (!thread && co->progress.tick)
		co->progress.tick(co->progress.ctx);
}

/*
 * The entries a filter process delayed (rep[i].ret == FILTER_DELAYED),
 * written as it hands them over, as git's finish_delayed_checkout: the
 * filter answers "list_available_blobs" until it has nothing more.  One
 * never delivered, or a filter that broke the exchange, fails the
 * entries still waiting with "read-tree failed" (git's messages given
 * already; git exits 128 without another).
 */
static void
finish_delayed(struct checkout *co, struct index_entry **entries, size_t nr,
	       struct checkout_report *rep)
{
	struct strmap byname = STRMAP_INIT;
	struct strbuf path = STRBUF_INIT;
	size_t errors = 0, waiting = 0;
	int ret;

	for (size_t i = 0; i < nr; i++) {
		if (rep[i].ret != FILTER_DELAYED)
			continue;
		strmap_put(&byname, entries[i]->name, entries[i]->namelen,
			   (void *)(i + 1));
		waiting++;
	}
	if (!waiting)
		goto out;
	while ((ret = convert_delayed_next(co->convert, &path, &errors)) > 0) {
		size_t i = (size_t)strmap_get(&byname, path.buf, path.len);

		if (!i-- || rep[i].ret != FILTER_DELAYED) {
			errors++;	/* not ours to write: git fails too */
			continue;
		}
		rep[i].ret = checkout_entry(co, entries[i]);
		if (rep[i].ret == FILTER_DELAYED)
			rep[i].ret = error_set(E_CONFLICT, "read-tree failed");
		if (rep[i].ret < 0)
			error_save(&rep[i].err);
	}
	if (ret < 0) {
		/* git dies of it: on the first entry still waiting */
		size_t k = 0;

		while (k < nr && rep[k].ret != FILTER_DELAYED)
			k++;
		if (k == nr)
			k = 0;
		error_saved_release(&rep[k].err);
		rep[k].ret = ret;
		error_save(&rep[k].err);
		for (size_t i = 0; i < nr; i++)
			if (rep[i].ret == FILTER_DELAYED)
				rep[i].ret = 0;	/* never reached */
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		if (rep[i].ret != FILTER_DELAYED)
			continue;
		rep[i].ret = error_set(E_CONFLICT, "read-tree failed");
		error_save(&rep[i].err);
		errors = 0;
	}
	for (size_t i = 0; i < nr && errors; i++)
		if (rep[i].ret < 0)
			errors = 0;	/* the command fails already */
	if (errors && nr) {
		/* all written, yet something failed: so does the command */
		rep[0].ret = error_set(E_CONFLICT, "read-tree failed");
		error_save(&rep[0].err);
	}
out:
	strbuf_release(&path);
	strmap_release(&byname);
}

/* Below this many files, threads are not worth starting. */
#define CHECKOUT_PARALLEL_MIN 64

size_t
checkout_many(struct checkout *co, struct index_entry **entries, size_t nr,
	      int threads, struct checkout_report *rep,
	      const char *progress_title)
{
	struct many m = { NULL, entries, rep, 0 };
	size_t failed = 0;
	int n = workers_count(threads, co->repo->settings.threads, nr, CHECKOUT_PARALLEL_MIN);

	/* a filter sees the files one at a time in index order, as git's */
	if (n > 1 && filter_any_configured(co->repo, FILTER_SMUDGE))
		n = 1;

	(void)progress_title;
	convert_of(co);
	if (n > 1)
		odb_prepare_threads(co->odb);
	m.co = xcalloc(n, sizeof(*m.co));
	for (int t = 0; t < n; t++) {
		m.co[t] = *co;
		strbuf_init(&m.co[t].path, 0);
		m.co[t].refreshed = 0;
	}
	workers_run(n, nr, checkout_one, &m);
	for (int t = 0; t < n; t++) {
		if (m.co[t].refreshed)
			co->refreshed = 1;
		strbuf_release(&m.co[t].path);
	}
	free(m.co);
	if (!m.stop)
		finish_delayed(co, entries, nr, rep);
	for (size_t i = 0; i < nr; i++)
		failed += rep[i].ret < 0;
	if (co->refreshed && co->idx)
		index_mark_changed(co->idx);
	return failed;
}

int
checkout_remove(struct checkout *co, const struct index_entry *e)
{
	size_t baselen = strlen(co->base);
	char *slash;
	int ret = set_path(co, e);

	if (ret < 0)
		return ret;
	if (leading_not_dirs(co->path.buf, baselen))
		return 0;
	if (unlink(co->path.buf) < 0 && errno != ENOENT) {
		if (errno == EISDIR || errno == EPERM) {
			struct stat st;

			if (!lstat(co->path.buf, &st) && S_ISDIR(st.st_mode) &&
			    S_ISGITLINK(e->mode)) {
				rmdir(co->path.buf);
				return 0;
			}
		}
		return error_errno(errno, "unable to unlink '%s'",
				   co->path.buf);
	}
	/* remove directories that became empty */
	while ((slash = strrchr(co->path.buf, '/')) &&
	       (size_t)(slash - co->path.buf) > baselen) {
		strbuf_setlen(&co->path, slash - co->path.buf);
		if (rmdir(co->path.buf) < 0)
			break;
	}
	return 0;
}
