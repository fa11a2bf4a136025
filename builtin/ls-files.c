/*
 * ls-files: show what the index holds (-c, -s, -u, --resolve-undo), how
 * the work tree differs from it (-d, -m, -k), and what it does not track
 * (-o), limited to pathspecs (lib/pathspec.h), named relative to the
 * current directory as git names them; --with-tree adds the paths of a
 * tree that the index no longer has, --format and --eol describe entries.
 *
 * The order is git's: the index is read before the options are parsed
 * (so a broken index wins over a bad option, except for a lone -h); the
 * index is cut down to the pathspec's common leading directory; untracked
 * (and killed) paths are printed first, then the index entries, then the
 * resolve-undo records.
 *
 * Ignore rules (-x, -X, --exclude-per-directory, --exclude-standard; -i
 * to show only what they exclude) are lib/exclude's, gathered in the
 * order the options come, as git does.
 *
 * Not implemented, and refused: recursing into submodules, fsmonitor's
 * -f bit.  In a sparse index every entry is listed, expanded from the
 * sparse directories' trees; --sparse lists those directories as they
 * are ("040000 <tree> 0\tc/"), as git does.
 *
 * The plain paths (no pathspec, -s) allocate nothing per entry: names go
 * straight into one output buffer.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "convert.h"
#include "config.h"
#include "eol.h"
#include "exclude.h"
#include "index.h"
#include "modified.h"
#include "object-name.h"
#include "odb.h"
#include "pack.h"
#include "parse-options.h"
#include "path.h"
#include "pathspec.h"
#include "quote.h"
#include "repo.h"
#include "sparse-index.h"
#include "sparse.h"
#include "strbuf.h"
#include "strmap.h"
#include "tree.h"
#include "untracked.h"

const char *const ls_files_usage[] = {
	"dirc ls-files [<options>] [<file>...]",
	NULL,
};


struct ls {
	struct repo *repo;
	struct index idx;		/* cut to max_prefix; with --with-tree,
					 * the tree's entries merged in */
	struct pathspec ps;
	size_t common;			/* the items' common directories,
					 * "a/b/" */
	size_t max_prefix;		/* the same without its slash, "a/b":
					 * git keeps entries starting so
					 * (a gitlink "a/b" too) and takes
					 * them as matching that far */
	unsigned char *seen;		/* per item, with --error-unmatch */
	size_t name_prefix_len;		/* of repo->prefix; 0 with
					 * --full-name */
	struct strbuf out;		/* flushed every 64 KB */
	struct untracked others;
	struct excludes ex;		/* the ignore rules */
	int exc_given;			/* -x, -X, --exclude-* */
	int show_ignored;		/* -i */
	struct odb *odb;		/* opened when object data is needed */
	struct read_buf rb;

	int show_cached, show_stage, show_deleted, show_modified;
	int show_others, show_unmerged, show_killed, show_resolve_undo;
	int show_tag, show_valid, show_fsmonitor, show_eol, debug;
	struct convert *convert;	/* the attr/ column; borrowed */
	int nul, full_name, error_unmatch, dedup, directory, empty_dirs;
	int recurse_submodules, sparse;
	int abbrev;			/* 0: full ids; OPT_ABBREV_AUTO: --abbrev */
	const char *format, *with_tree;
	const char *tag_cached, *tag_unmerged, *tag_removed, *tag_modified;
	const char *tag_other, *tag_killed, *tag_skip_worktree;
	const char *tag_resolve_undo;
	size_t hashed;			/* git's name hash was built */
};

/* ---- output ---- */

static void
flush_out(struct ls *ls)
{
	fwrite(ls->out.buf, 1, ls->out.len, stdout);
	strbuf_reset(&ls->out);
}

/* Append s, quoted unless -z. */
static void
add_quoted(struct ls *ls, struct strbuf *sb, const char *s, size_t len)
{
	if (ls->nul)
		strbuf_add(sb, s, len);
	else
		quote_c_style(sb, s, len, ls->repo->settings.quotepath);
}

/* name as seen from the current directory (path_relative()) */
static int
relative(struct ls *ls, struct strbuf *rel, const char *name, size_t len,
	 size_t *skip)
{
	return path_relative(rel, skip, name, len, ls->repo->prefix,
			     ls->name_prefix_len);
}

/* name as seen from the current directory, quoted unless -z, into sb */
static void
add_path(struct ls *ls, struct strbuf *sb, const char *name, size_t len)
{
	struct strbuf rel = STRBUF_INIT;
	size_t skip;

	if (relative(ls, &rel, name, len, &skip))
		add_quoted(ls, sb, rel.buf, rel.len);
	else if (skip > len)
		add_quoted(ls, sb, "./", 2);
	else
		add_quoted(ls, sb, name + skip, len - skip);
	strbuf_release(&rel);
}

/* The name, then the line terminator. */
static void
add_name(struct ls *ls, const char *name, size_t len)
{
	add_path(ls, &ls->out, name, len);
	strbuf_addch(&ls->out, ls->nul ? '\0' : '\n');
	if (ls->out.len > 65536)
		flush_out(ls);
}

static void
open_odb(struct ls *ls)
{
	int ret;

	if (ls->odb)
		return;
	ret = repo_odb(&ls->odb, ls->repo);
	if (ret < 0)
		die_lib(ret);
}

/* The object name, shortened to the unique prefix --abbrev asks for. */
static void
add_oid(struct ls *ls, struct strbuf *sb, const struct object_id *oid)
{
	char hex[HASH_MAX_HEXSZ + 1];
	size_t len;

	oid_to_hex_r(hex, oid);
	if (!ls->abbrev || ls->abbrev >= HASH_HEXSZ) {
		strbuf_add(sb, hex, HASH_HEXSZ);
		return;
	}
	if (ls->abbrev == OPT_ABBREV_AUTO) {
		/* core.abbrev, else git's length for the store's size */
		int ret = oname_default_abbrev(ls->repo, &ls->abbrev);

		if (ret < 0)
			die_lib(ret);
		if (ls->abbrev >= HASH_HEXSZ) {
			strbuf_add(sb, hex, HASH_HEXSZ);
			return;
		}
	}
	open_odb(ls);
	for (len = (size_t)ls->abbrev; len < (size_t)HASH_HEXSZ; len++) {
		struct object_id found[2];
		size_t n = odb_find_prefix(ls->odb, hex, len, found, 2);

		if (!n || (n == 1 && oideq(&found[0], oid)))
			break;
	}
	strbuf_add(sb, hex, len);
}

/* ---- line endings (--eol, %(eolinfo:...)) ---- */

static int
stats_chunk(void *ctx, const void *data, size_t len)
{
	eol_stats_add(ctx, data, len);
	return 0;
}

/* <eolinfo> of the work-tree file at path; "" if not a readable file */
static const char *
worktree_eolinfo(struct ls *ls, const char *path)
{
	struct eol_stats st = EOL_STATS_INIT;
	struct stat sb;
	int fd, ret;

	if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
		return "";
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return "";
	ret = fstat(fd, &sb);
	if (!ret)
		ret = fileio_stream_fd(fd, (uint64_t)sb.st_size, &ls->rb,
				       stats_chunk, &st, path);
	close(fd);
	if (ret < 0) {
		error_clear();
		return "";
	}
	return eol_stats_name(&st);
}

/*
 * <eolinfo> of the staged blob of path, as git finds it: the stage-0
 * entry, or else stage 2 ("ours" in a merge); "none" if neither or if
 * the blob cannot be read.
 */
static const char *
index_eolinfo(struct ls *ls, const struct index_entry *e)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct eol_stats st = EOL_STATS_INIT;
	ssize_t pos;
	const char *name;

	if (!S_ISREG(e->mode))
		return "";
	pos = index_pos(&ls->idx, e->name, e->namelen, 0);
	if (pos < 0)
		pos = index_pos(&ls->idx, e->name, e->namelen, 2);
	if (pos < 0)
		return "none";
	open_odb(ls);
	if (odb_read(&obj, ls->odb, &ls->idx.entries[pos]->oid, 0) < 0) {
		error_clear();
		return "none";
	}
	if (obj.type == OBJ_BLOB)
		eol_stats_add(&st, obj.data, obj.size);
	name = eol_stats_name(&st);
	odb_object_release(&obj);
	return name;
}

static void
add_eolinfo(struct ls *ls, const struct index_entry *e, const char *path)
{
	const char *i = e ? index_eolinfo(ls, e) : "";

	strbuf_addf(&ls->out, "i/%-5s w/%-5s attr/%-17s\t", i,
		    worktree_eolinfo(ls, path),
		    convert_attr_ascii(ls->convert, path));
}

/* ---- one index entry ---- */

static void
add_debug(struct ls *ls, const struct index_entry *e)
{
	unsigned flags = e->flags & (CE_VALID | CE_STAGEMASK);

	if (e->ext_flags)
		flags |= CE_EXTENDED | (unsigned)e->ext_flags << 16;
	if (ls->hashed)
		flags |= 1u << 20;	/* git's CE_HASHED */
	if (e->state & CE_UPDATE_IN_BASE)
		flags |= 1u << 27;	/* git's CE_UPDATE_IN_BASE: a split
					 * index's replaced entry */
	strbuf_addf(&ls->out, "  ctime: %u:%u\n  mtime: %u:%u\n"
		    "  dev: %u\tino: %u\n  uid: %u\tgid: %u\n"
		    "  size: %u\tflags: %x\n",
		    e->sd.ctime_sec, e->sd.ctime_nsec, e->sd.mtime_sec,
		    e->sd.mtime_nsec, e->sd.dev, e->sd.ino, e->sd.uid,
		    e->sd.gid, e->sd.size, flags);
}

/* --format: %(atom), %%, %n, %xNN; anything else is git's error */

/* The type an entry's mode stands for: a gitlink's is a commit. */
static const char *
entry_type(const struct index_entry *e)
{
	if (S_ISDIR(e->mode))
		return "tree";		/* a sparse directory */
	if (S_ISGITLINK(e->mode))
		return "commit";
	return "blob";
}

/*
 * %(objectsize): a blob's size from the object store (its absence is
 * fatal, as in git), "-" for anything else; padded, right-aligned in 7
 * columns.
 */
static void
add_objectsize(struct ls *ls, const struct index_entry *e, int padded)
{
	char num[32] = "-";
	enum object_type type;
	size_t size;

	if (!S_ISDIR(e->mode) && !S_ISGITLINK(e->mode)) {
		open_odb(ls);
		if (odb_read_info(&type, &size, NULL, 0, ls->odb, &e->oid,
				  ODB_READ_ANY_TYPE) < 0) {
			error_clear();
			flush_out(ls);
			die("could not get object info about '%s'",
			    oid_to_hex(&e->oid));
		}
		snprintf(num, sizeof(num), "%zu", size);
	}
	strbuf_addf(&ls->out, padded ? "%7s" : "%s", num);
}

/* %(path): as seen from here, quoted unless -z (git 2.55) */
static void
add_format_path(struct ls *ls, const struct index_entry *e)
{
	add_path(ls, &ls->out, e->name, e->namelen);
}

static void
add_format(struct ls *ls, const struct index_entry *e)
{
	const char *p = ls->format;

	for (;;) {
		const char *pct = strchr(p, '%'), *end;
		size_t len;

		if (!pct) {
			strbuf_addstr(&ls->out, p);
			break;
		}
		strbuf_add(&ls->out, p, pct - p);
		p = pct + 1;
		if (*p == '%' || *p == 'n') {
			strbuf_addch(&ls->out, *p == 'n' ? '\n' : '%');
			p++;
			continue;
		}
		if (*p == 'x' && hexval((unsigned char)p[1]) >= 0 &&
		    hexval((unsigned char)p[2]) >= 0) {
			strbuf_addch(&ls->out, hexval((unsigned char)p[1]) << 4 |
				     hexval((unsigned char)p[2]));
			p += 3;
			continue;
		}
		if (*p != '(')
			die("bad ls-files format: element '%s' does not start "
			    "with '('", p);
		end = strchr(p + 1, ')');
		if (!end)
			die("bad ls-files format: element '%s' does not end in "
			    "')'", p);
		len = end - p + 1;
		if (len == 12 && !memcmp(p, "(objectmode)", len))
			strbuf_addf(&ls->out, "%06o", e->mode);
		else if (len == 12 && !memcmp(p, "(objectname)", len))
			add_oid(ls, &ls->out, &e->oid);
		else if (len == 12 && !memcmp(p, "(objecttype)", len))
			strbuf_addstr(&ls->out, entry_type(e));
		else if (len == 12 && !memcmp(p, "(objectsize)", len))
			add_objectsize(ls, e, 0);
		else if (len == 19 && !memcmp(p, "(objectsize:padded)", len))
			add_objectsize(ls, e, 1);
		else if (len == 7 && !memcmp(p, "(stage)", len))
			strbuf_addf(&ls->out, "%d", ce_stage(e));
		else if (len == 15 && !memcmp(p, "(eolinfo:index)", len))
			strbuf_addstr(&ls->out, index_eolinfo(ls, e));
		else if (len == 18 && !memcmp(p, "(eolinfo:worktree)", len))
			strbuf_addstr(&ls->out, worktree_eolinfo(ls, e->name));
		else if (len == 9 && !memcmp(p, "(eolattr)", len))
			strbuf_addstr(&ls->out,
				      convert_attr_ascii(ls->convert, e->name));
		else if (len == 6 && !memcmp(p, "(path)", len))
			add_format_path(ls, e);
		else
			die("bad ls-files format: %%%.*s", (int)len, p);
		p = end + 1;
	}
	strbuf_addch(&ls->out, ls->nul ? '\0' : '\n');
}

static void
show_ce(struct ls *ls, const struct index_entry *e, const char *tag)
{
	unsigned mflags = S_ISGITLINK(e->mode) ? PATHSPEC_MATCH_DIRECTORY : 0;

	if (!pathspec_match(&ls->ps, e->name, e->namelen, ls->max_prefix,
			    ls->seen, mflags))
		return;
	if (ls->format) {
		add_format(ls, e);
	} else {
		char alt[4];

		if (*tag && ls->show_valid && (e->flags & CE_VALID)) {
			/* -v: assume-unchanged entries get lower case */
			memcpy(alt, tag, 3);
			alt[3] = '\0';
			alt[0] = (char)(alt[0] | 0x20);
			tag = alt;
		}
		if (ls->show_stage) {
			/* "%s%06o %s %d\t", by hand: it runs per entry */
			char buf[8];

			strbuf_addstr(&ls->out, tag);
			for (int i = 0; i < 6; i++)
				buf[i] = '0' + ((e->mode >> (3 * (5 - i))) & 7);
			buf[6] = ' ';
			strbuf_add(&ls->out, buf, 7);
			add_oid(ls, &ls->out, &e->oid);
			buf[0] = ' ';
			buf[1] = '0' + ce_stage(e);
			buf[2] = '\t';
			strbuf_add(&ls->out, buf, 3);
		} else {
			strbuf_addstr(&ls->out, tag);
		}
		if (ls->show_eol)
			add_eolinfo(ls, e, e->name);
		add_name(ls, e->name, e->namelen);
	}
	if (ls->debug)
		add_debug(ls, e);
	if (ls->out.len > 65536)
		flush_out(ls);
}

/* ---- untracked and killed files ---- */

static void
show_dir_entry(struct ls *ls, const char *tag, const char *name)
{
	size_t len = strlen(name);
	int dir = len && name[len - 1] == '/';

	if (!pathspec_match(&ls->ps, name, len - dir, ls->max_prefix,
			    ls->seen, dir ? PATHSPEC_MATCH_DIRECTORY : 0))
		return;
	strbuf_addstr(&ls->out, tag);
	if (ls->show_eol)
		add_eolinfo(ls, NULL, name);
	add_name(ls, name, len);
}

/*
 * Is name (a file, or "d/") not in the index, at any stage?  git checks a
 * directory "d/" by its name "d": one that the index has as a file is
 * not listed as other (though the walk found it).
 */
static int
is_other(const struct index *idx, const char *name)
{
	size_t len = strlen(name);

	if (len && name[len - 1] == '/')
		len--;
	return index_pos(idx, name, len, -1) < 0;
}

/*
 * Would checking out the index remove name?  Yes if a leading directory
 * of it is a (stage-0) file in the index, or if name (a file) is a
 * directory there.  Directories ("d/") are only checked for the first.
 */
static int
is_killed(const struct index *idx, const char *name)
{
	size_t len = strlen(name);
	const char *cp, *sp;

	for (cp = name; (size_t)(cp - name) < len; cp = sp + 1) {
		const struct index_entry *e;
		ssize_t pos;

		sp = strchr(cp, '/');
		if (sp) {
			if (index_pos(idx, name, sp - name, 0) >= 0)
				return 1;
			continue;
		}
		pos = index_pos(idx, name, len, 0);
		if (pos >= 0)
			return 0;
		pos = -pos - 1;
		while ((size_t)pos < idx->nr && ce_stage(idx->entries[pos]))
			pos++;	/* unmerged entries do not count */
		if ((size_t)pos >= idx->nr)
			return 0;
		e = idx->entries[pos];
		return len < e->namelen && !strncmp(e->name, name, len) &&
		       e->name[len] == '/';
	}
	return 0;
}

/* ---- the index entries ---- */

static void
show_files(struct ls *ls)
{
	struct index *idx = &ls->idx;

	if (ls->show_others)
		for (size_t i = 0; i < ls->others.nr; i++)
			if (is_other(idx, ls->others.names[i]))
				show_dir_entry(ls, ls->tag_other,
					       ls->others.names[i]);
	if (ls->show_killed)
		for (size_t i = 0; i < ls->others.nr; i++)
			if (is_killed(idx, ls->others.names[i]))
				show_dir_entry(ls, ls->tag_killed,
					       ls->others.names[i]);
	if (!(ls->show_cached || ls->show_stage || ls->show_deleted ||
	      ls->show_modified))
		return;
	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i];
		struct stat st;
		int err;

		if (ls->show_ignored &&
		    !excludes_path(&ls->ex, e->name, e->namelen,
				   S_ISGITLINK(e->mode) ? EXCLUDE_DTYPE_DIR :
				   EXCLUDE_DTYPE_FILE))
			continue;
		if ((ls->show_cached || ls->show_stage) &&
		    (!ls->show_unmerged || ce_stage(e))) {
			show_ce(ls, e, ce_stage(e) ? ls->tag_unmerged :
				e->ext_flags & CE_SKIP_WORKTREE ?
				ls->tag_skip_worktree : ls->tag_cached);
			if (ls->dedup)
				goto next_name;
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
			show_ce(ls, e, ls->tag_removed);
			if (ls->dedup)
				goto next_name;
		}
		if (ls->show_modified &&
		    (err || modified_check(NULL, ls->repo, idx, e, &st, 0,
					   NULL) == ENTRY_MODIFIED)) {
			show_ce(ls, e, ls->tag_modified);
			if (ls->dedup)
				goto next_name;
		}
		continue;
next_name:
		while (i + 1 < idx->nr &&
		       !strcmp(idx->entries[i + 1]->name, e->name))
			i++;
	}
}

static int
cmp_reuc(const void *a, const void *b)
{
	return strcmp((*(const struct resolve_undo *const *)a)->path,
		      (*(const struct resolve_undo *const *)b)->path);
}

static void
show_resolve_undo(struct ls *ls)
{
	const struct resolve_undo **ru;
	size_t nr = ls->idx.reuc_nr;

	ru = xcalloc(nr ? nr : 1, sizeof(*ru));
	for (size_t i = 0; i < nr; i++)
		ru[i] = &ls->idx.reuc[i];
	sort_array(ru, nr, sizeof(*ru), cmp_reuc);
	for (size_t i = 0; i < nr; i++) {
		const char *path = ru[i]->path;
		size_t len = strlen(path);

		if (len < ls->max_prefix ||
		    !pathspec_match(&ls->ps, path, len, ls->max_prefix,
				    ls->seen, 0))
			continue;
		for (int s = 0; s < 3; s++) {
			if (!ru[i]->mode[s])
				continue;
			strbuf_addf(&ls->out, "%s%06o ", ls->tag_resolve_undo,
				    ru[i]->mode[s]);
			add_oid(ls, &ls->out, &ru[i]->oid[s]);
			strbuf_addf(&ls->out, " %d\t", s + 1);
			add_name(ls, path, len);
		}
	}
	free(ru);
}

/* ---- shaping the index: the prefix, --with-tree ---- */

/* Keep only the entries starting with max_prefix (git's prune_index). */
static void
prune_index(struct ls *ls)
{
	struct index *idx = &ls->idx;
	const char *p = ls->ps.nr ? ls->ps.items[0].match : "";
	size_t plen = ls->max_prefix, first, last;
	ssize_t pos;

	if (!plen || !idx->nr)
		return;
	pos = index_pos(idx, p, plen, 0);
	first = pos < 0 ? (size_t)(-pos - 1) : (size_t)pos;
	for (last = first; last < idx->nr; last++)
		if (strncmp(idx->entries[last]->name, p, plen))
			break;
	memmove(idx->entries, idx->entries + first,
		(last - first) * sizeof(*idx->entries));
	idx->nr = last - first;
}

struct tree_entries {
	struct index_entry **e;
	size_t nr, alloc;
};

/* Does the directory path ("a/b/") lead to or lie under the prefix? */
static int
dir_wanted(const char *path, size_t len, const char *prefix, size_t plen)
{
	size_t n = len < plen ? len : plen;

	return !strncmp(path, prefix, n);
}

static int
read_tree_entries(struct ls *ls, struct tree_entries *out,
		  const struct object_id *oid, struct strbuf *path,
		  const char *prefix, size_t plen)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct tree_iter it;
	struct tree_entry te;
	size_t base = path->len;
	int ret;

	ret = odb_read(&obj, ls->odb, oid, 0);
	if (ret < 0)
		return ret;
	if (obj.type != OBJ_TREE) {
		ret = error_set(E_CORRUPT, "object %s is not a tree",
				oid_to_hex(oid));
		goto out;
	}
	tree_iter_init(&it, obj.data, obj.size);
	while ((ret = tree_iter_next(&it, &te)) > 0) {
		strbuf_setlen(path, base);
		strbuf_add(path, te.name, te.namelen);
		if (S_ISDIR(te.mode)) {
			strbuf_addch(path, '/');
			if (!dir_wanted(path->buf, path->len, prefix, plen))
				continue;
			ret = read_tree_entries(ls, out, te.oid, path, prefix,
						plen);
			if (ret < 0)
				goto out;
		} else if (path->len >= plen &&
			   !strncmp(path->buf, prefix, plen)) {
			struct index_entry *e;

			e = index_entry_new(&ls->idx, path->buf, path->len);
			e->mode = te.mode;
			oidcpy(&e->oid, te.oid);
			e->flags = 1 << CE_STAGESHIFT;
			ALLOC_GROW(out->e, out->nr + 1, out->alloc);
			out->e[out->nr++] = e;
		}
	}
out:
	strbuf_setlen(path, base);
	odb_object_release(&obj);
	return ret;
}

static int
entry_cmp(const struct index_entry *a, const struct index_entry *b)
{
	size_t n = a->namelen < b->namelen ? a->namelen : b->namelen;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->namelen != b->namelen)
		return a->namelen < b->namelen ? -1 : 1;
	return ce_stage(a) - ce_stage(b);
}

/*
 * --with-tree: the tree's paths (under the prefix) join the index at
 * stage 1, unmerged entries move to stage 3 to make room, and a tree
 * path the index has at stage 0 is not shown (git's
 * overlay_tree_on_index).
 */
static void
overlay_tree(struct ls *ls)
{
	struct tree_entries tr = { NULL, 0, 0 };
	struct strbuf path = STRBUF_INIT;
	struct index *idx = &ls->idx;
	struct object_id oid, tree;
	struct index_entry **merged, *last0 = NULL;
	const char *prefix = ls->ps.nr ? ls->ps.items[0].match : "";
	size_t i = 0, j = 0, n = 0;

	if (get_oid(&oid, ls->repo, ls->with_tree) < 0) {
		error_clear();
		die("tree-ish %s not found.", ls->with_tree);
	}
	if (peel_to_type(&tree, ls->repo, &oid, OBJ_TREE) < 0) {
		error_clear();
		die("bad tree-ish %s", oid_to_hex(&oid));
	}
	open_odb(ls);
	if (read_tree_entries(ls, &tr, &tree, &path, prefix,
			      ls->common) < 0)
		die("unable to read tree entries %s", ls->with_tree);
	strbuf_release(&path);

	for (size_t k = 0; k < idx->nr; k++)
		if (ce_stage(idx->entries[k]))
			idx->entries[k]->flags |= CE_STAGEMASK;
	merged = xcalloc(st_add(idx->nr, tr.nr) + 1, sizeof(*merged));
	while (i < idx->nr || j < tr.nr) {
		struct index_entry *e;

		if (j == tr.nr || (i < idx->nr &&
				   entry_cmp(idx->entries[i], tr.e[j]) < 0))
			e = idx->entries[i++];
		else
			e = tr.e[j++];
		if (!ce_stage(e))
			last0 = e;
		else if (ce_stage(e) == 1 && last0 &&
			 !strcmp(last0->name, e->name))
			continue;
		merged[n++] = e;
	}
	free(idx->entries);
	idx->entries = merged;
	idx->nr = n;
	idx->alloc = st_add(idx->nr, tr.nr) + 1;
	free(tr.e);
}

/* ---- options ---- */

static int
opt_exclude(const struct option *opt, const char *arg, int unset)
{
	struct ls *ls = opt->value;

	(void)unset;
	ls->exc_given = 1;
	excludes_add_pattern(&ls->ex, arg);
	return 0;
}

static int
opt_exclude_from(const struct option *opt, const char *arg, int unset)
{
	struct ls *ls = opt->value;
	int ret;

	(void)unset;
	ls->exc_given = 1;
	ret = excludes_add_file(&ls->ex, arg, NULL);
	if (ret < 0) {
		if (error_code() != E_NOTFOUND && error_code() != E_CORRUPT)
			warning("%s", error_msg());
		die("cannot use %s as an exclude file", arg);
	}
	return 0;
}

static int
opt_exclude_per_dir(const struct option *opt, const char *arg, int unset)
{
	struct ls *ls = opt->value;

	/* git's OPT_STRING: --no-... forgets the name (.gitignore too) */
	excludes_set_per_dir(&ls->ex, unset ? NULL : arg);
	return 0;
}

static int
opt_exclude_standard(const struct option *opt, const char *arg, int unset)
{
	struct ls *ls = opt->value;
	int ret;

	(void)arg;
	(void)unset;
	ls->exc_given = 1;
	ret = excludes_add_standard(&ls->ex, ls->repo);
	if (ret < 0)
		die_lib(ret);
	return 0;
}

/* git's usage_msg_opt(): "fatal: <msg>", a blank line, the usage; 129 */
static void NORETURN
usage_fatal(const char *msg, const struct option *opts)
{
	fflush(stdout);
	fprintf(stderr, "fatal: %s\n\n", msg);
	usage_with_options(ls_files_usage, opts);
}

static void
refuse_submodules(struct ls *ls)
{
	for (size_t i = 0; i < ls->idx.nr; i++) {
		const struct index_entry *e = ls->idx.entries[i];

		if (S_ISGITLINK(e->mode) &&
		    pathspec_match(&ls->ps, e->name, e->namelen,
				   ls->max_prefix, NULL,
				   PATHSPEC_MATCH_DIRECTORY))
			die("ls-files --recurse-submodules: submodules are not "
			    "supported by dirc ('%s' is one)", e->name);
	}
}

int
cmd_ls_files(int argc, const char **argv)
{
	struct repo repo;
	struct ls ls;
	struct strbuf hint = STRBUF_INIT;
	struct convert *cv;
	struct odb *cv_odb;
	int ret, unmatched = 0, require_work_tree;
	struct option opts[] = {
		OPT_BOOL('z', NULL, &ls.nul, "separate paths with the NUL "
			 "character"),
		OPT_BOOL('t', NULL, &ls.show_tag, "identify the file status "
			 "with tags"),
		OPT_BOOL('v', NULL, &ls.show_valid, "use lowercase letters for "
			 "'assume unchanged' files"),
		OPT_BOOL('f', NULL, &ls.show_fsmonitor, "use lowercase letters "
			 "for 'fsmonitor clean' files"),
		OPT_BOOL('c', "cached", &ls.show_cached, "show cached files "
			 "in the output (default)"),
		OPT_BOOL('d', "deleted", &ls.show_deleted, "show deleted files "
			 "in the output"),
		OPT_BOOL('m', "modified", &ls.show_modified, "show modified "
			 "files in the output"),
		OPT_BOOL('o', "others", &ls.show_others, "show other files in "
			 "the output"),
		OPT_BOOL('i', "ignored", &ls.show_ignored, "show ignored files "
			 "in the output"),
		OPT_BOOL('s', "stage", &ls.show_stage, "show staged contents' "
			 "object name in the output"),
		OPT_BOOL('k', "killed", &ls.show_killed, "show files on the "
			 "filesystem that need to be removed"),
		OPT_BOOL(0, "directory", &ls.directory, "show 'other' "
			 "directories' names only"),
		OPT_BOOL(0, "eol", &ls.show_eol, "show line endings of files"),
		OPT_BOOL(0, "empty-directory", &ls.empty_dirs, "with "
			 "--no-empty-directory, don't show empty directories"),
		OPT_BOOL('u', "unmerged", &ls.show_unmerged, "show unmerged "
			 "files in the output"),
		OPT_BOOL(0, "resolve-undo", &ls.show_resolve_undo, "show "
			 "resolve-undo information"),
		OPT_CALLBACK_F('x', "exclude", &ls, "pattern", "skip files "
			       "matching pattern", OPT_NONEG, opt_exclude),
		OPT_CALLBACK_F('X', "exclude-from", &ls, "file", "read "
			       "exclude patterns from <file>", OPT_NONEG,
			       opt_exclude_from),
		OPT_CALLBACK(0, "exclude-per-directory", &ls, "file",
			     "read additional per-directory exclude patterns "
			     "in <file>", opt_exclude_per_dir),
		OPT_CALLBACK_F(0, "exclude-standard", &ls, NULL, "add the "
			       "standard git exclusions", OPT_NOARG | OPT_NONEG,
			       opt_exclude_standard),
		OPT_BOOL(0, "full-name", &ls.full_name, "make the output "
			 "relative to the project top directory"),
		OPT_BOOL(0, "recurse-submodules", &ls.recurse_submodules,
			 "recurse through submodules (not supported)"),
		OPT_BOOL(0, "error-unmatch", &ls.error_unmatch, "if any <file> "
			 "is not in the index, treat this as an error"),
		OPT_STRING(0, "with-tree", &ls.with_tree, "tree-ish", "pretend "
			   "that paths removed since <tree-ish> are still "
			   "present"),
		OPT_CALLBACK_F(0, "abbrev", &ls.abbrev, "n", "use <n> digits to "
			       "display object names", OPT_OPTARG,
			       parse_opt_abbrev),
		OPT_BOOL(0, "debug", &ls.debug, "show debugging data"),
		OPT_BOOL(0, "deduplicate", &ls.dedup, "suppress duplicate "
			 "entries"),
		OPT_BOOL(0, "sparse", &ls.sparse, "show sparse directories in "
			 "the presence of a sparse index"),
		OPT_STRING(0, "format", &ls.format, "format", "format to use "
			   "for the output"),
		OPT_END(),
	};

	memset(&ls, 0, sizeof(ls));
	ls.empty_dirs = 1;
	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options_to(ls_files_usage, opts, 0, 129);

	ret = repo_open(&repo, 0);
	if (ret < 0)
		die_lib(ret);
	ls.repo = &repo;
	ret = index_read_in(&ls.idx, repo.index_path, &repo, 0, 0);
	if (ret < 0)
		die_lib(ret);
	excludes_init(&ls.ex, repo.settings.ignorecase ? EXCLUDE_ICASE : 0);
	/* -m, -d: racy entries compared with their files cleaned as git */
	cv = convert_new(&repo, &ls.idx, repo_odb(&cv_odb, &repo) < 0 ? NULL :
			 cv_odb, 0);
	error_clear();
	convert_attach_index(cv, &ls.idx);
	ls.convert = cv;
	argc = parse_options(argc, argv, opts, ls_files_usage, 0);
	/* --sparse: sparse directories as they are (but --with-tree) */
	ret = sparse_index_after_read(&ls.idx, &repo,
				      ls.sparse && !ls.with_tree ?
				      SPARSE_INDEX_KEEP : SPARSE_INDEX_FULL);
	if (ret < 0)
		die_lib(ret);

	if (ls.format && (ls.show_stage || ls.show_others || ls.show_killed ||
			  ls.show_resolve_undo || ls.dedup || ls.show_eol ||
			  ls.show_tag))
		usage_fatal("--format cannot be used with -s, -o, -k, -t, "
			    "--resolve-undo, --deduplicate, --eol", opts);
	ls.tag_cached = ls.tag_unmerged = ls.tag_removed = "";
	ls.tag_modified = ls.tag_other = ls.tag_killed = "";
	ls.tag_skip_worktree = ls.tag_resolve_undo = "";
	if (ls.show_tag || ls.show_valid || ls.show_fsmonitor) {
		ls.tag_cached = "H ";
		ls.tag_unmerged = "M ";
		ls.tag_removed = "R ";
		ls.tag_modified = "C ";
		ls.tag_other = "? ";
		ls.tag_killed = "K ";
		ls.tag_skip_worktree = "S ";
		ls.tag_resolve_undo = "U ";
	}
	if (ls.show_fsmonitor) {
		const char *v;

		/* without fsmonitor no entry is "fsmonitor valid" */
		if (config_get(&repo.config, "core.fsmonitor", &v) &&
		    (!v || config_parse_bool(v) != 0))
			die("ls-files -f: core.fsmonitor is not supported by "
			    "dirc");
	}
	require_work_tree = ls.show_modified || ls.show_others ||
			    ls.show_deleted || ls.show_killed;
	/* the index alone needs no work tree (a bare repository has one) */
	if (require_work_tree) {
		ret = repo_setup_worktree(&repo);
		if (ret < 0)
			die_lib(ret);
	}
	if (ls.ex.per_dir)
		ls.exc_given = 1;
	if (ls.exc_given) {
		open_odb(&ls);
		excludes_set_index(&ls.ex, &ls.idx, ls.odb);
	}
	if (ls.show_ignored && !ls.show_others && !ls.show_cached)
		die("ls-files -i must be used with either -o or -c");
	if (ls.show_ignored && !ls.exc_given)
		die("ls-files --ignored needs some exclude pattern");
	if (ls.show_unmerged)
		ls.show_stage = 1;
	/* --deduplicate has no effect when stages or tags are shown */
	if (ls.show_tag || ls.show_stage)
		ls.dedup = 0;
	if (ls.recurse_submodules &&
	    (ls.show_deleted || ls.show_others || ls.show_unmerged ||
	     ls.show_killed || ls.show_modified || ls.show_resolve_undo ||
	     ls.with_tree))
		die("ls-files --recurse-submodules unsupported mode");
	if (ls.recurse_submodules && ls.error_unmatch)
		die("ls-files --recurse-submodules does not support "
		    "--error-unmatch");

	repo_paths_top(&hint, &repo);
	ret = pathspec_parse(&ls.ps, argv, argc, repo.prefix, hint.buf,
			     PATHSPEC_PREFER_CWD);
	strbuf_release(&hint);
	if (ret < 0)
		die_lib(ret);
	ls.common = pathspec_common_prefix(&ls.ps);
	ls.max_prefix = ls.common ? ls.common - 1 : 0;
	ls.name_prefix_len = ls.full_name ? 0 : strlen(repo.prefix);
	prune_index(&ls);
	if (ls.ps.nr && ls.error_unmatch)
		ls.seen = xcalloc(ls.ps.nr, 1);
	if (!(ls.show_stage || ls.show_deleted || ls.show_others ||
	      ls.show_unmerged || ls.show_killed || ls.show_modified ||
	      ls.show_resolve_undo))
		ls.show_cached = 1;
	if (ls.with_tree) {
		if (ls.show_stage || ls.show_unmerged)
			die("options '%s' and '%s' cannot be used together",
			    "ls-files --with-tree", "-s/-u");
		overlay_tree(&ls);
	}
	if (ls.recurse_submodules)
		refuse_submodules(&ls);

	strbuf_init(&ls.out, 0);
	if (ls.show_others || ls.show_killed) {
		unsigned flags = 0;

		if (ls.directory)
			flags |= UNTRACKED_DIRECTORIES;
		if (!ls.empty_dirs)
			flags |= UNTRACKED_HIDE_EMPTY;
		if (!ls.show_others)
			flags |= UNTRACKED_KILLED_ONLY;
		if (repo.settings.ignorecase)
			flags |= UNTRACKED_IGNORECASE;
		if (ls.show_ignored)
			flags |= UNTRACKED_SHOW_IGNORED;
		untracked_collect(&ls.others, &ls.idx, &ls.ps, repo.gitdir,
				  ls.exc_given ? &ls.ex : NULL, flags);
		ls.hashed = ls.others.lookups;
	}
	show_files(&ls);
	if (ls.show_resolve_undo)
		show_resolve_undo(&ls);
	flush_out(&ls);

	if (ls.seen) {
		for (size_t i = 0; i < ls.ps.nr; i++) {
			if (!pathspec_item_unmatched(&ls.ps, ls.seen, i))
				continue;
			fflush(stdout);
			fprintf(stderr, "error: pathspec '%s' did not match any "
				"file(s) known to git\n",
				ls.ps.items[i].original);
			unmatched = 1;
		}
		if (unmatched)
			fprintf(stderr, "Did you forget to 'git add'?\n");
	}
	free(ls.seen);
	pathspec_release(&ls.ps);
	untracked_release(&ls.others);
	excludes_release(&ls.ex);
	strbuf_release(&ls.out);
	read_buf_release(&ls.rb);
	if (convert_free(cv) < 0)
		die_lib(-1);
	index_release(&ls.idx);
	repo_release(&repo);
	return unmatched ? 1 : 0;
}
