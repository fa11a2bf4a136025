/*
 * reftable: a stack of reftable files — the merged view, additions and
 * compaction, with git 2.55's locks and file names.  The bytes of one
 * table are reftable-format.c's.
 *
 * Invariants:
 *   - st->tables is the list tables.list held when last read, oldest
 *     first, each table read whole or through a table_source (tables
 *     are immutable once named in the list);
 *   - a table file is named "0x<min>-0x<max>-<random>.ref" (12 hex
 *     digits each, 8 for the random part) after the update indexes in
 *     its header, and is written as "<name>.temp.XXXXXX" first, then
 *     renamed: a crash leaves a stray temporary file, never a partial
 *     table under a listed name;
 *   - tables.list changes only by renaming tables.list.lock over it,
 *     and every writer holds that lock while it decides what to write.
 *
 * Compaction (git's rules): after each addition the stack is made a
 * geometric sequence again (each table at least factor times the size
 * of the next newer one, sizes as git counts them); the tables to merge
 * are locked ("<table>.lock", newest first; when one is held by someone
 * else the newer ones already locked are compacted alone, if there are
 * two), tables.list.lock is dropped while the merged table is written
 * and taken again to swap it in.  Deletions and log tombstones are
 * dropped only when the merge reaches the oldest table.
 */
#include "reftable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fileio.h"
#include "lockfile.h"
#include "reftable-format.h"
#include "strbuf.h"

struct reftable_stack {
	char *dir;			/* owned */
	char *list_path;		/* <dir>/tables.list; owned */
	const struct hash_algo *algo;
	struct reftable_write_options opts;
	struct rt_table *tables;	/* owned; oldest first */
	size_t nr;
	long lock_timeout_ms;	/* of the last addition, for its compaction */
};

struct reftable_addition {
	struct reftable_stack *st;	/* borrowed */
	struct lockfile lock;		/* tables.list.lock */
	uint64_t update_index;
	char *new_table;		/* its name once written; owned */
	struct strbuf bytes;		/* and its bytes, to load it from */
};

/*
 * tables.list
 */

static void
names_free(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

/*
 * The names in tables.list (NULL-terminated; empty if it is missing).
 * A name that is not a plain file name is -E_CORRUPT.
 */
static int
read_names(char ***out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char **names = xcalloc(1, sizeof(*names)), *p, *nl;
	size_t nr = 0, alloc = 1;
	int ret = strbuf_read_file(&sb, path);

	*out = NULL;
	if (ret == -E_NOTFOUND) {
		error_clear();
		ret = 0;
	}
	for (p = sb.buf; ret >= 0 && p < sb.buf + sb.len; p = nl + 1) {
		nl = memchr(p, '\n', sb.buf + sb.len - p);
		if (!nl)
			nl = sb.buf + sb.len;
		if (nl == p)
			continue;
		if (memchr(p, '/', nl - p) || (nl - p == 1 && *p == '.') ||
		    (nl - p == 2 && !memcmp(p, "..", 2))) {
			ret = error_set(E_CORRUPT, "'%s' names a bad table "
					"'%.*s'", path, (int)(nl - p), p);
			break;
		}
		ALLOC_GROW(names, nr + 2, alloc);
		names[nr++] = xstrndup(p, nl - p);
		names[nr] = NULL;
	}
	strbuf_release(&sb);
	if (ret < 0) {
		names_free(names);
		return ret;
	}
	*out = names;
	return 0;
}

static char *
stack_path(const struct reftable_stack *st, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", st->dir, name);
	return strbuf_detach(&sb, NULL);
}

/* Does tables.list still name exactly our tables?  1 yes, 0 no. */
static int
stack_uptodate(struct reftable_stack *st)
{
	char **names;
	size_t i;
	int ret = read_names(&names, st->list_path);

	if (ret < 0)
		return ret;
	for (i = 0; i < st->nr; i++)
		if (!names[i] || strcmp(names[i], st->tables[i].name))
			break;
	ret = i == st->nr && !names[i];
	names_free(names);
	return ret;
}

/*
 * A table bigger than RT_READ_WHOLE is read through this source: a block
 * at a time with pread() for its first RT_PREAD_READS reads, then
 * mapped.  A lookup of one ref makes about eight reads; a mapping would
 * cost a short-lived process more, in page-table work at its faults and
 * again at exit (perf/README.md, "reftable reads").  A walk or a batch
 * of lookups goes on to the mapping.  A table compacted away stays
 * readable through the open descriptor, as through the mapping.  Like
 * the seek hint, the source is one thread's: reads change it.
 * DIRC_TEST_RT_READS=<n> sets the reads before the mapping (0: at once).
 */
#define RT_READ_WHOLE ((size_t)8192)
#define RT_PREAD_READS 64
/* With more tables than this in the list, each is mapped at once: one
 * open descriptor per table must stay well inside any file limit. */
#define RT_PREAD_TABLES 32

struct table_source {
	struct rt_source src;		/* first: the table's pointer */
	int fd;				/* -1 once mapped */
	unsigned char *map;		/* NULL until mapped */
	size_t len;
	unsigned long long reads_left;	/* before the mapping */
	char *path;			/* for messages; owned */
};

static int
source_read(struct rt_source *src, uint64_t off, size_t n,
	    struct strbuf *buf, const unsigned char **out)
{
	struct table_source *s = (struct table_source *)src;
	ssize_t got;

	if (!s->map && !s->reads_left) {
		void *map = mmap(NULL, s->len, PROT_READ, MAP_PRIVATE, s->fd,
				 0);

		if (map != MAP_FAILED) {
			s->map = map;
			close(s->fd);
			s->fd = -1;
		} else {
			s->reads_left = ~0ULL;	/* no memory: read on */
		}
	}
	if (s->map) {
		*out = s->map + off;
		return 0;
	}
	s->reads_left--;
	strbuf_reset(buf);
	strbuf_grow(buf, n);
	got = pread_full(s->fd, buf->buf, n, off);
	if (got < 0)
		return error_errno(errno, "could not read '%s'", s->path);
	if ((size_t)got < n)
		return error_set(E_CORRUPT, "reftable '%s' is corrupt: "
				 "it is shorter than when opened", s->path);
	strbuf_setlen(buf, n);
	*out = (const unsigned char *)buf->buf;
	return 0;
}

static void
source_release(struct rt_source *src)
{
	struct table_source *s = (struct table_source *)src;

	if (s->map)
		munmap(s->map, s->len);
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	free(s);
}

/*
 * Read the table name of the stack: whole when small, else through a
 * table_source (mapped at once when may_pread is 0).  Tables never
 * change once named in tables.list.
 */
static int
table_load(struct rt_table *out, const struct reftable_stack *st,
	   const char *name, int may_pread)
{
	char *path = stack_path(st, name);
	struct strbuf sb = STRBUF_INIT;
	struct stat sbuf;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sbuf) < 0) {
		ret = error_errno(errno, "could not open '%s' for reading",
				  path);
		goto out;
	}
	if ((size_t)sbuf.st_size >= MIN(fileio_cutoff(), RT_READ_WHOLE)) {
		struct table_source *s = xcalloc(1, sizeof(*s));
		unsigned long long reads = RT_PREAD_READS, v;

		if (env_number("DIRC_TEST_RT_READS", &v))
			reads = v;
		s->src.read = source_read;
		s->src.release = source_release;
		s->fd = fd;
		fd = -1;
		s->len = sbuf.st_size;
		s->reads_left = may_pread ? reads : 0;
		s->path = xstrdup(path);
		ret = rt_table_parse_source(out, path, &s->src, s->len,
					    st->algo);
	} else {
		unsigned char *data;
		size_t len;

		if (strbuf_read_fd(&sb, fd, sbuf.st_size) < 0) {
			ret = error_errno(errno, "could not read '%s'", path);
			goto out;
		}
		data = (unsigned char *)strbuf_detach(&sb, &len);
		ret = rt_table_parse(out, path, data, len, st->algo);
	}
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	free(path);
	return ret;
}

static void
tables_free(struct rt_table *tables, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		rt_table_release(&tables[i]);
	free(tables);
}

/*
 * Load the tables named in names into *out (n of them), reusing st's
 * (marked in reused[]).  0, 1 if a table is missing, or a negative E_*.
 */
static int
load_named(struct rt_table **out, size_t *n, struct reftable_stack *st,
	   char **names, int *reused)
{
	struct rt_table *tables;
	size_t nr = 0;
	int ret = 0;

	while (names[nr])
		nr++;
	tables = xcalloc(nr ? nr : 1, sizeof(*tables));
	for (size_t i = 0; i < nr && ret >= 0; i++) {
		size_t j;

		for (j = 0; j < st->nr; j++)
			if (!reused[j] && !strcmp(st->tables[j].name, names[i]))
				break;
		if (j < st->nr) {
			reused[j] = 1;
			tables[i] = st->tables[j];
			continue;
		}
		ret = table_load(&tables[i], st, names[i],
				 nr <= RT_PREAD_TABLES);
		if (ret == -E_NOTFOUND) {
			error_clear();
			ret = 1;
		}
		if (ret)
			rt_table_release(&tables[i]);
		if (ret)
			break;
	}
	if (ret) {
		for (size_t i = 0; i < nr; i++) {
			int mine = 1;

			for (size_t j = 0; j < st->nr; j++)
				if (tables[i].path &&
				    tables[i].path == st->tables[j].path)
					mine = 0;
			if (mine)
				rt_table_release(&tables[i]);
		}
		free(tables);
		return ret;
	}
	*out = tables;
	*n = nr;
	return 0;
}

/*
 * Read tables.list and the tables, keeping those already loaded.  A
 * listed table that is missing was compacted away by another writer
 * after we read the list: read it again, once.
 */
static int
stack_load(struct reftable_stack *st)
{
	for (int attempt = 0;; attempt++) {
		int *reused = xcalloc(st->nr + 1, sizeof(*reused));
		struct rt_table *tables = NULL;
		char **names;
		size_t nr = 0;
		int ret = read_names(&names, st->list_path);

		if (ret >= 0)
			ret = load_named(&tables, &nr, st, names, reused);
		if (ret == 1 && attempt) {
			for (size_t i = 0; names[i]; i++) {
				char *path = stack_path(st, names[i]);

				if (access(path, F_OK) < 0)
					ret = error_set(E_CORRUPT, "reftable "
							"'%s' named in '%s' "
							"is missing", path,
							st->list_path);
				free(path);
				if (ret < 0)
					break;
			}
			if (ret == 1)
				ret = error_set(E_CORRUPT, "reftables in '%s' "
						"keep changing", st->dir);
		}
		names_free(names);
		if (ret == 1) {
			free(reused);
			continue;
		}
		if (ret < 0) {
			free(reused);
			return ret;
		}
		for (size_t j = 0; j < st->nr; j++)
			if (!reused[j])
				rt_table_release(&st->tables[j]);
		free(reused);
		free(st->tables);
		st->tables = tables;
		st->nr = nr;
		return 0;
	}
}

int
reftable_stack_open(struct reftable_stack **out, const char *dir,
		    const struct hash_algo *algo)
{
	struct reftable_stack *st = xcalloc(1, sizeof(*st));
	struct strbuf sb = STRBUF_INIT;
	int ret;

	st->dir = xstrdup(dir);
	strbuf_addf(&sb, "%s/tables.list", dir);
	st->list_path = strbuf_detach(&sb, NULL);
	st->algo = algo;
	ret = stack_load(st);
	if (ret < 0) {
		reftable_stack_close(st);
		st = NULL;
	}
	*out = st;
	return ret;
}

int
reftable_stack_reload(struct reftable_stack *st)
{
	int ret = stack_uptodate(st);

	if (ret < 0)
		return ret;
	return ret ? 0 : stack_load(st);
}

void
reftable_stack_close(struct reftable_stack *st)
{
	if (!st)
		return;
	tables_free(st->tables, st->nr);
	free(st->dir);
	free(st->list_path);
	free(st);
}

void
reftable_stack_set_options(struct reftable_stack *st,
			   const struct reftable_write_options *opts)
{
	st->opts = *opts;
}

uint64_t
reftable_stack_next_update_index(const struct reftable_stack *st)
{
	return st->nr ? st->tables[st->nr - 1].max_index + 1 : 1;
}

/*
 * The merged view: one cursor per table; the smallest key wins, and of
 * equal keys the newest table's record.
 */
struct merged {
	struct rt_iter *its;	/* owned; one per table, oldest first */
	int *has;		/* owned; its[i] holds a record */
	size_t nr;
	ssize_t cur;		/* the winner last returned, or -1 */
};

static int
merged_init(struct merged *m, struct rt_table *tables, size_t nr,
	    unsigned char type, const void *seek, size_t seek_len)
{
	int ret = 0;

	m->its = xcalloc(nr ? nr : 1, sizeof(*m->its));
	m->has = xcalloc(nr ? nr : 1, sizeof(*m->has));
	m->nr = nr;
	m->cur = -1;
	for (size_t i = 0; i < nr; i++)
		rt_iter_init(&m->its[i], &tables[i], type);
	for (size_t i = 0; i < nr && ret >= 0; i++) {
		ret = rt_iter_seek(&m->its[i], seek, seek_len);
		m->has[i] = !ret;
	}
	return ret < 0 ? ret : 0;
}

static void
merged_release(struct merged *m)
{
	for (size_t i = 0; i < m->nr; i++)
		rt_iter_release(&m->its[i]);
	free(m->its);
	free(m->has);
}

static int
iter_key_cmp(const struct rt_iter *a, const struct rt_iter *b)
{
	int c = memcmp(a->key.buf, b->key.buf, MIN(a->key.len, b->key.len));

	if (c)
		return c;
	return a->key.len < b->key.len ? -1 : a->key.len > b->key.len;
}

/* 0 with m->cur the winner, 1 at the end, or a negative E_*. */
static int
merged_next(struct merged *m)
{
	ssize_t best = -1;

	if (m->cur >= 0) {
		const struct rt_iter *w = &m->its[m->cur];

		/* advance every cursor sitting on the winner's key */
		for (size_t i = 0; i < m->nr; i++) {
			int ret;

			if (!m->has[i] || (ssize_t)i == m->cur ||
			    iter_key_cmp(&m->its[i], w))
				continue;
			ret = rt_iter_next(&m->its[i]);
			if (ret < 0)
				return ret;
			m->has[i] = !ret;
		}
		{
			int ret = rt_iter_next(&m->its[m->cur]);

			if (ret < 0)
				return ret;
			m->has[m->cur] = !ret;
		}
		m->cur = -1;
	}
	for (size_t i = 0; i < m->nr; i++) {
		if (!m->has[i])
			continue;
		if (best < 0 || iter_key_cmp(&m->its[i], &m->its[best]) <= 0)
			best = i;	/* later (newer) wins ties */
	}
	if (best < 0)
		return 1;
	m->cur = best;
	return 0;
}

int
reftable_stack_read_ref(struct reftable_stack *st, const char *name,
			struct reftable_ref *out)
{
	size_t len = strlen(name);

	memset(out, 0, sizeof(*out));
	for (size_t i = st->nr; i-- > 0;) {
		struct rt_iter it;
		int ret;

		rt_iter_init(&it, &st->tables[i], RT_BLOCK_REF);
		ret = rt_iter_seek(&it, name, len);
		if (ret < 0) {
			rt_iter_release(&it);
			return ret;
		}
		if (!ret && it.key.len == len && !memcmp(it.key.buf, name, len)) {
			ret = it.ref.type == REFTABLE_REF_DELETION;
			if (!ret) {
				*out = it.ref;
				memset(&it.ref, 0, sizeof(it.ref));
			}
			rt_iter_release(&it);
			return ret;
		}
		rt_iter_release(&it);
	}
	return 1;
}

int
reftable_stack_for_each_ref(struct reftable_stack *st, const char *prefix,
			    reftable_ref_fn fn, void *ctx)
{
	size_t plen = strlen(prefix);
	struct merged m;
	int ret = merged_init(&m, st->tables, st->nr, RT_BLOCK_REF, prefix,
			      plen);

	while (ret >= 0 && !(ret = merged_next(&m))) {
		const struct rt_iter *it = &m.its[m.cur];

		if (it->key.len < plen || memcmp(it->key.buf, prefix, plen)) {
			ret = 1;
			break;
		}
		if (it->ref.type == REFTABLE_REF_DELETION)
			continue;
		ret = fn(&it->ref, ctx);
		if (ret)
			break;
	}
	merged_release(&m);
	return ret == 1 ? 0 : ret;
}

int
reftable_stack_for_each_log(struct reftable_stack *st, const char *name,
			    reftable_log_fn fn, void *ctx)
{
	struct strbuf seek = STRBUF_INIT;
	struct merged m;
	int ret;

	if (name)
		strbuf_add(&seek, name, strlen(name) + 1);
	ret = merged_init(&m, st->tables, st->nr, RT_BLOCK_LOG, seek.buf,
			  seek.len);
	while (ret >= 0 && !(ret = merged_next(&m))) {
		const struct rt_iter *it = &m.its[m.cur];

		if (name && (it->key.len < seek.len ||
			     memcmp(it->key.buf, seek.buf, seek.len))) {
			ret = 1;
			break;
		}
		if (it->log.deletion)
			continue;
		ret = fn(&it->log, ctx);
		if (ret)
			break;
	}
	merged_release(&m);
	strbuf_release(&seek);
	return ret == 1 ? 0 : ret;
}

/*
 * Writing files.
 */

static unsigned
file_mode(const struct reftable_stack *st)
{
	mode_t mask;

	if (st->opts.file_mode)
		return st->opts.file_mode;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

static uint32_t
random_suffix(void)
{
	static uint32_t state;
	uint32_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			v = 0;
		close(fd);
	}
	if (!v) {
		state = state * 1103515245u + 12345u + (uint32_t)getpid() +
			(uint32_t)time(NULL);
		v = state;
	}
	return v;
}

static void
table_name(struct strbuf *out, uint64_t min, uint64_t max)
{
	strbuf_reset(out);
	strbuf_addf(out, "0x%012llx-0x%012llx-%08x", (unsigned long long)min,
		    (unsigned long long)max, (unsigned)random_suffix());
}

/*
 * Write bytes to "<dir>/<base>.temp.XXXXXX" and rename it to
 * "<dir>/<base'>.ref" (base' = base with a new random part, as git
 * draws the name twice).  *out gets the final file name.
 */
static int
write_table_file(char **out, struct reftable_stack *st, uint64_t min,
		 uint64_t max, const struct strbuf *bytes)
{
	struct strbuf name = STRBUF_INIT, tmp = STRBUF_INIT;
	char *path = NULL;
	int fd, ret = 0;

	*out = NULL;
	table_name(&name, min, max);
	strbuf_addf(&tmp, "%s/%s.temp.XXXXXX", st->dir, name.buf);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		ret = error_errno(errno, "unable to create '%s'", tmp.buf);
		goto out;
	}
	if (fchmod(fd, file_mode(st)) < 0 ||
	    write_full(fd, bytes->buf, bytes->len) < 0 ||
	    (st->opts.fsync && fsync(fd) < 0)) {
		ret = error_errno(errno, "unable to write '%s'", tmp.buf);
		close(fd);
		goto out;
	}
	if (close(fd) < 0) {
		ret = error_errno(errno, "unable to write '%s'", tmp.buf);
		goto out;
	}
	table_name(&name, min, max);
	strbuf_addstr(&name, ".ref");
	path = stack_path(st, name.buf);
	if (rename(tmp.buf, path) < 0) {
		ret = error_errno(errno, "unable to rename '%s' to '%s'",
				  tmp.buf, path);
		goto out;
	}
	*out = strbuf_detach(&name, NULL);
out:
	if (ret < 0 && fd >= 0)
		unlink(tmp.buf);
	free(path);
	strbuf_release(&tmp);
	strbuf_release(&name);
	return ret;
}

static enum sync_mode
sync_of(const struct reftable_stack *st)
{
	return st->opts.fsync ? SYNC_FULL : SYNC_NONE;
}

/* Write names (then extra, if not NULL) into the held lock; commit. */
static int
commit_list(struct reftable_stack *st, struct lockfile *lk,
	    const char **names, size_t nr, const char *extra)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	for (size_t i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s\n", names[i]);
	if (extra)
		strbuf_addf(&sb, "%s\n", extra);
	if (write_full(lk->fd, sb.buf, sb.len) < 0) {
		ret = error_errno(errno, "unable to write '%s'", lk->lock_path);
		lockfile_rollback(lk);
	} else {
		ret = lockfile_commit(lk, sync_of(st));
	}
	strbuf_release(&sb);
	return ret;
}

static int
hold_list(struct reftable_stack *st, struct lockfile *lk, long timeout_ms)
{
	int ret = lockfile_hold_timeout(lk, st->list_path, timeout_ms);

	if (ret >= 0 && fchmod(lk->fd, file_mode(st)) < 0) {
		ret = error_errno(errno, "unable to chmod '%s'", lk->lock_path);
		lockfile_rollback(lk);
	}
	return ret;
}

/*
 * Additions.
 */

int
reftable_addition_begin(struct reftable_addition **out,
			struct reftable_stack *st, long timeout_ms)
{
	struct reftable_addition *add = xcalloc(1, sizeof(*add));
	int ret;

	*out = NULL;
	add->st = st;
	st->lock_timeout_ms = timeout_ms;
	add->lock = (struct lockfile)LOCKFILE_INIT;
	strbuf_init(&add->bytes, 0);
	ret = hold_list(st, &add->lock, timeout_ms);
	if (ret >= 0) {
		ret = stack_uptodate(st);
		if (!ret) {
			lockfile_rollback(&add->lock);
			ret = stack_load(st);
			if (ret >= 0)
				ret = error_set(E_CONFLICT, "the reftable stack "
						"in '%s' changed; reloaded",
						st->dir);
		}
	}
	if (ret < 0) {
		reftable_addition_free(add);
		return ret;
	}
	add->update_index = reftable_stack_next_update_index(st);
	*out = add;
	return 0;
}

static int
ref_name_cmp(const void *va, const void *vb)
{
	const struct reftable_ref *a = va, *b = vb;

	return strcmp(a->name, b->name);
}

static int
log_cmp(const void *va, const void *vb)
{
	const struct reftable_log *a = va, *b = vb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->update_index > b->update_index ? -1
	       : a->update_index < b->update_index;
}

int
reftable_addition_write(struct reftable_addition *add, reftable_fill_fn fill,
			void *ctx)
{
	struct reftable_stack *st = add->st;
	uint64_t ui = add->update_index;
	struct rt_writer *w;
	int ret;

	if (add->new_table)
		return error_set(E_INVALID, "reftable: one table per "
				 "addition");
	strbuf_release(&add->bytes);
	ret = rt_writer_new(&w, &add->bytes, st->algo, &st->opts, 0, ui, ui);
	if (!ret)
		ret = fill(w, ui, ctx);
	if (!ret)
		ret = rt_writer_finish(w);
	rt_writer_free(w);
	if (!ret)
		ret = write_table_file(&add->new_table, st, ui, ui,
				       &add->bytes);
	if (ret)
		strbuf_release(&add->bytes);
	return ret < 0 ? ret : 0;
}

struct record_arrays {
	const struct reftable_ref *refs;
	size_t nref;
	const struct reftable_log *logs;
	size_t nlog;
};

static int
fill_arrays(struct rt_writer *w, uint64_t update_index, void *ctx)
{
	const struct record_arrays *a = ctx;
	int ret = 0;

	(void)update_index;	/* set in the records already */
	for (size_t i = 0; i < a->nref && !ret; i++)
		ret = rt_writer_add_ref(w, &a->refs[i]);
	for (size_t i = 0; i < a->nlog && !ret; i++)
		ret = rt_writer_add_log(w, &a->logs[i]);
	return ret;
}

int
reftable_addition_add(struct reftable_addition *add,
		      struct reftable_ref *refs, size_t nref,
		      struct reftable_log *logs, size_t nlog)
{
	struct record_arrays arrays;
	uint64_t ui = add->update_index;

	if (add->new_table)
		return error_set(E_INVALID, "reftable: one table per "
				 "addition");
	for (size_t i = 0; i < nref; i++)
		refs[i].update_index = ui;
	for (size_t i = 0; i < nlog; i++)
		if (!logs[i].deletion)
			logs[i].update_index = ui;
	/* sorted, and no name twice (a batch often comes sorted) */
	for (size_t i = 1; i < nref; i++) {
		int c = strcmp(refs[i - 1].name, refs[i].name);

		if (c > 0) {
			qsort(refs, nref, sizeof(*refs), ref_name_cmp);
			break;
		}
	}
	for (size_t i = 1; i < nlog; i++) {
		if (log_cmp(&logs[i - 1], &logs[i]) > 0) {
			qsort(logs, nlog, sizeof(*logs), log_cmp);
			break;
		}
	}
	for (size_t i = 1; i < nref; i++)
		if (!strcmp(refs[i - 1].name, refs[i].name))
			return error_set(E_INVALID, "reftable: ref '%s' given "
					 "twice", refs[i].name);
	for (size_t i = 1; i < nlog; i++)
		if (!log_cmp(&logs[i - 1], &logs[i]))
			return error_set(E_INVALID, "reftable: log of '%s' "
					 "given twice", logs[i].name);
	arrays.refs = refs;
	arrays.nref = nref;
	arrays.logs = logs;
	arrays.nlog = nlog;
	return reftable_addition_write(add, fill_arrays, &arrays);
}

static int stack_auto_compact(struct reftable_stack *st);

/*
 * The table just listed, from the bytes written, for the reload that
 * follows (which keeps the tables it has): not read back from disk.
 */
static void
adopt_new_table(struct reftable_addition *add)
{
	struct reftable_stack *st = add->st;
	char *path = stack_path(st, add->new_table);
	size_t len;
	unsigned char *data;
	struct rt_table t;

	if (!add->bytes.len) {
		free(path);
		return;
	}
	data = (unsigned char *)strbuf_detach(&add->bytes, &len);
	if (rt_table_parse(&t, path, data, len, st->algo) < 0) {
		/* read from disk as any other, with the error then */
		error_clear();
		rt_table_release(&t);
	} else {
		st->tables = xrealloc(st->tables,
				      st_mult(st->nr + 1, sizeof(*st->tables)));
		st->tables[st->nr++] = t;
	}
	free(path);
}

int
reftable_addition_commit(struct reftable_addition *add)
{
	struct reftable_stack *st = add->st;
	const char **names;
	int ret;

	if (!add->new_table) {
		lockfile_rollback(&add->lock);
		return 0;
	}
	names = xcalloc(st->nr + 1, sizeof(*names));
	for (size_t i = 0; i < st->nr; i++)
		names[i] = st->tables[i].name;
	ret = commit_list(st, &add->lock, names, st->nr, add->new_table);
	free(names);
	if (ret < 0)
		return ret;
	adopt_new_table(add);
	free(add->new_table);
	add->new_table = NULL;
	ret = stack_load(st);
	if (ret < 0)
		return ret;
	ret = stack_auto_compact(st);
	if (ret == -E_LOCKED || ret == -E_CONFLICT) {
		error_clear();
		ret = 0;
	}
	return ret;
}

void
reftable_addition_free(struct reftable_addition *add)
{
	if (!add)
		return;
	if (add->new_table) {
		char *path = stack_path(add->st, add->new_table);

		unlink(path);
		free(path);
		free(add->new_table);
	}
	strbuf_release(&add->bytes);
	lockfile_rollback(&add->lock);
	free(add);
}

/*
 * Compaction.
 */

/* Merge tables [first, last] into bytes (empty if nothing is left). */
static int
merge_tables(struct strbuf *bytes, struct reftable_stack *st, size_t first,
	     size_t last)
{
	struct reftable_ref *refs = NULL;
	struct reftable_log *logs = NULL;
	size_t nref = 0, aref = 0, nlog = 0, alog = 0;
	struct merged m;
	int ret;

	ret = merged_init(&m, st->tables + first, last - first + 1,
			  RT_BLOCK_REF, "", 0);
	while (ret >= 0 && !(ret = merged_next(&m))) {
		struct rt_iter *it = &m.its[m.cur];

		if (!first && it->ref.type == REFTABLE_REF_DELETION)
			continue;
		ALLOC_GROW(refs, nref + 1, aref);
		refs[nref++] = it->ref;
		memset(&it->ref, 0, sizeof(it->ref));
	}
	merged_release(&m);
	if (ret < 0)
		goto out;
	ret = merged_init(&m, st->tables + first, last - first + 1,
			  RT_BLOCK_LOG, "", 0);
	while (ret >= 0 && !(ret = merged_next(&m))) {
		struct rt_iter *it = &m.its[m.cur];

		if (!first && it->log.deletion)
			continue;
		ALLOC_GROW(logs, nlog + 1, alog);
		logs[nlog++] = it->log;
		memset(&it->log, 0, sizeof(it->log));
	}
	merged_release(&m);
	if (ret < 0)
		goto out;
	ret = rt_write_table(bytes, st->algo, &st->opts, 0,
			     st->tables[first].min_index,
			     st->tables[last].max_index, refs, nref, logs,
			     nlog);
	if (ret == 1) {
		strbuf_reset(bytes);
		ret = 0;
	}
out:
	for (size_t i = 0; i < nref; i++)
		reftable_ref_release(&refs[i]);
	for (size_t i = 0; i < nlog; i++)
		reftable_log_release(&logs[i]);
	free(refs);
	free(logs);
	return ret;
}

/*
 * Compact tables [first, last] (indexes into st->tables).  best_effort:
 * when a table's lock is held, compact the newer ones already locked if
 * there are at least two.  -E_LOCKED or -E_CONFLICT when it cannot.
 */
static int
compact_range(struct reftable_stack *st, size_t first, size_t last,
	      int best_effort, long timeout_ms)
{
	struct lockfile list = LOCKFILE_INIT;
	struct lockfile *locks = NULL;
	struct strbuf bytes = STRBUF_INIT;
	char **names = NULL, *new_name = NULL;
	const char *first_name;
	size_t nlocks = 0, from, to, nnames;
	int ret;

	if (first >= last)
		return 0;
	ret = hold_list(st, &list, timeout_ms);
	if (ret < 0)
		return ret;
	ret = stack_uptodate(st);
	if (ret <= 0) {
		if (!ret)
			ret = error_set(E_CONFLICT, "the reftable stack in "
					"'%s' changed", st->dir);
		goto out;
	}
	locks = xcalloc(last - first + 1, sizeof(*locks));
	for (size_t i = last + 1; i > first; i--) {
		char *path = stack_path(st, st->tables[i - 1].name);

		locks[nlocks] = (struct lockfile)LOCKFILE_INIT;
		ret = lockfile_hold(&locks[nlocks], path);
		free(path);
		if (ret == -E_LOCKED && best_effort && last - (i - 1) >= 2) {
			/* compact the newer tables locked so far */
			error_clear();
			first = i;
			break;
		}
		if (ret < 0)
			goto out;
		ret = lockfile_close(&locks[nlocks++], SYNC_NONE);
		if (ret < 0)
			goto out;
	}
	lockfile_rollback(&list);

	ret = merge_tables(&bytes, st, first, last);
	if (ret < 0)
		goto out;
	if (bytes.len) {
		ret = write_table_file(&new_name, st,
				       st->tables[first].min_index,
				       st->tables[last].max_index, &bytes);
		if (ret < 0)
			goto out;
	}

	ret = hold_list(st, &list, timeout_ms);
	if (ret < 0)
		goto out;
	ret = read_names(&names, st->list_path);
	if (ret < 0)
		goto out;
	/* find our tables in the list as it is now */
	for (nnames = 0; names[nnames]; nnames++)
		;
	first_name = st->tables[first].name;
	for (from = 0; from < nnames; from++)
		if (!strcmp(names[from], first_name))
			break;
	if (from == nnames || nnames - from <= last - first) {
		ret = error_set(E_CONFLICT, "the reftable stack in '%s' "
				"changed", st->dir);
		goto out;
	}
	to = from + (last - first);
	for (size_t j = 0; j <= last - first; j++)
		if (strcmp(names[from + j], st->tables[first + j].name)) {
			ret = error_set(E_CONFLICT, "the reftable stack in "
					"'%s' changed", st->dir);
			goto out;
		}
	{
		struct strbuf sb = STRBUF_INIT;

		for (size_t j = 0; j < nnames; j++) {
			if (j == from && new_name)
				strbuf_addf(&sb, "%s\n", new_name);
			if (j < from || j > to)
				strbuf_addf(&sb, "%s\n", names[j]);
		}
		if (write_full(list.fd, sb.buf, sb.len) < 0)
			ret = error_errno(errno, "unable to write '%s'",
					  list.lock_path);
		else
			ret = lockfile_commit(&list, sync_of(st));
		strbuf_release(&sb);
		if (ret < 0)
			goto out;
	}
	free(new_name);
	new_name = NULL;
	ret = stack_load(st);
	/* the old tables go; readers that still have them read on */
	for (size_t i = 0; i < nlocks; i++) {
		size_t n = strlen(locks[i].lock_path) - strlen(".lock");
		char *path = xstrndup(locks[i].lock_path, n);

		unlink(path);
		free(path);
	}
out:
	if (new_name) {
		char *path = stack_path(st, new_name);

		unlink(path);
		free(path);
		free(new_name);
	}
	lockfile_rollback(&list);
	for (size_t i = 0; i < nlocks; i++)
		lockfile_rollback(&locks[i]);
	free(locks);
	names_free(names);
	strbuf_release(&bytes);
	return ret;
}

int
reftable_stack_compact_all(struct reftable_stack *st, long timeout_ms)
{
	if (st->nr < 2)
		return 0;
	return compact_range(st, 0, st->nr - 1, 0, timeout_ms);
}

void
rt_compaction_segment(size_t *start, size_t *end, const uint64_t *sizes,
		      size_t n, unsigned factor)
{
	uint64_t bytes = 0;
	size_t i;

	*start = *end = 0;
	if (!factor)
		factor = 2;
	if (n < 2)
		return;
	/* the newest table that breaks the sequence ends the segment */
	for (i = n - 1; i > 0; i--)
		if (sizes[i - 1] < sizes[i] * factor) {
			*end = i + 1;
			bytes = sizes[i];
			break;
		}
	/*
	 * and it reaches back over every older table smaller than factor
	 * times what is merged after it
	 */
	for (; *end && i > 0; i--) {
		uint64_t merged = bytes;

		bytes += sizes[i - 1];
		if (sizes[i - 1] < merged * factor)
			*start = i - 1;
	}
}

static int
stack_auto_compact(struct reftable_stack *st)
{
	uint64_t *sizes;
	size_t start, end;

	if (st->nr < 2)
		return 0;
	sizes = xcalloc(st->nr, sizeof(*sizes));
	for (size_t i = 0; i < st->nr; i++)
		sizes[i] = rt_table_weight(&st->tables[i]);
	rt_compaction_segment(&start, &end, sizes, st->nr,
			      st->opts.geometric_factor);
	free(sizes);
	if (end - start < 2)
		return 0;
	return compact_range(st, start, end - 1, 1, st->lock_timeout_ms);
}

int
reftable_stack_create(const char *dir, unsigned mode)
{
	struct strbuf sb = STRBUF_INIT;
	int fd, ret = 0;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return error_errno(errno, "unable to create '%s'", dir);
	strbuf_addf(&sb, "%s/tables.list", dir);
	fd = open(sb.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		  mode ? mode : 0666);
	if (fd < 0)
		ret = error_errno(errno, "unable to create '%s'", sb.buf);
	else if ((mode && fchmod(fd, mode) < 0) || close(fd) < 0)
		ret = error_errno(errno, "unable to create '%s'", sb.buf);
	strbuf_release(&sb);
	return ret;
}
