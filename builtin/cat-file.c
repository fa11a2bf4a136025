/*
 * cat-file: show an object's type, size or contents; answer batches of
 * names (or commands) on standard input in git's formats.
 *
 * Options are checked in git's order and with git's messages: two modes
 * (-e, -p, -t, -s, --textconv, --filters, --batch-all-objects) conflict
 * while the options are parsed; then --path without --textconv/--filters,
 * a single-object mode with a batch, batch-only options without one, and
 * the argument counts.
 *
 * In a batch, a name that does not resolve, an object that is missing or
 * whose header cannot be read is answered "<name> missing" (the reason on
 * stderr) and the batch goes on, as git's does; what git itself dies on
 * mid-stream (an object of an unknown type, a replace loop, a bad
 * --batch-command line) is fatal here too.
 *
 * --filters smudges a blob as git's checkout would (convert.h, the work
 * tree's attributes of its path); --textconv prints it as stored unless
 * a textconv program is configured for its diff driver, which dirc
 * refuses to run.
 *
 * Since git 2.40 (dirc follows 2.55): -Z ends output records in NUL as
 * well as input ones; --filter=<spec> leaves objects out of a batch
 * ("<name> excluded", or nothing with --batch-all-objects); --use-mailmap
 * maps the idents of commits and tags in what -p, <type> <object> and
 * the batches print and in the sizes -s and the batches report, and the
 * batch command "mailmap <bool>" turns that on and off; %(objectmode)
 * shows the mode of the tree or index entry a name gave; a submodule's
 * commit that is not here is "<id> submodule".
 */
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attr.h"
#include "builtin.h"
#include "convert.h"
#include "config.h"
#include "index.h"
#include "mailmap.h"
#include "object-filter.h"
#include "object-name.h"
#include "odb-many.h"
#include "odb.h"
#include "parse-options.h"
#include "path.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"
#include "tree-path.h"
#include "tree.h"
#include "workers.h"

const char *const cat_file_usage[] = {
	"dirc cat-file <type> <object>",
	"dirc cat-file (-e | -p) <object>",
	"dirc cat-file (-t | -s) [--allow-unknown-type] <object>",
	"dirc cat-file (--batch | --batch-check | --batch-command) "
	"[--batch-all-objects]\n"
	"                    [--buffer] [--follow-symlinks] [--unordered]\n"
	"                    [--textconv | --filters] [-Z]",
	"dirc cat-file (--textconv | --filters)\n"
	"                    [<rev>:<path|tree-ish> | --path=<path|tree-ish> "
	"<rev>]",
	NULL,
};

/* git reads a loose header into 32 bytes unless --allow-unknown-type */
#define GIT_HEADER_MAX 32

enum batch_mode {
	BATCH_NONE,
	BATCH_CONTENTS,		/* --batch */
	BATCH_CHECK,		/* --batch-check */
	BATCH_COMMAND,		/* --batch-command */
};

/* The mode given first: a second one may not differ. */
struct cmdmode {
	int mode;		/* 'e', 'p', 't', 's', 'c' (--textconv),
				 * 'w' (--filters), 'a' (--batch-all-objects),
				 * or 0 */
	const struct option *first;
};

struct batch_opt {
	enum batch_mode mode;
	const char *format;	/* NULL: the default */
};

/* A mode option: its letter in defval. */
#define OPT_MODE(s, l, v, h, mode) \
	{ OPT_CALLBACK_, (s), (l), (v), NULL, (h), OPT_NOARG | OPT_NONEG, \
	  (mode), opt_cmdmode }
#define OPT_BATCH(l, v, h, mode) \
	{ OPT_CALLBACK_, 0, (l), (v), "format", (h), OPT_OPTARG | OPT_NONEG, \
	  (mode), opt_batch }

/* "fatal: <msg>", a blank line and the usage; exit 129, as git. */
PRINTF_LIKE(2, 3) NORETURN static void
usage_fatal(const struct option *opts, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	usage_with_options(cat_file_usage, opts);
}

/* git's usage(): "usage: <msg>" alone; exit 129. */
PRINTF_LIKE(1, 2) NORETURN static void
usage_plain(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("usage: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(129);
}

/* An option as given: "-p" or "--textconv" (each has one form) */
static void
option_name(struct strbuf *out, const struct option *o)
{
	if (o->short_name)
		strbuf_addf(out, "-%c", o->short_name);
	else
		strbuf_addf(out, "--%s", o->long_name);
}

static int
opt_cmdmode(const struct option *opt, const char *arg, int unset)
{
	struct cmdmode *cm = opt->value;

	(void)arg;
	(void)unset;
	if (cm->mode && cm->mode != opt->defval) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

		/* git 2.55's words (2.39: "switch `p' is incompatible
		 * with -e") */
		option_name(&a, opt);
		option_name(&b, cm->first);
		fflush(stdout);
		fprintf(stderr, "error: options '%s' and '%s' cannot be used "
			"together\n", a.buf, b.buf);
		exit(129);
	}
	cm->mode = opt->defval;
	cm->first = opt;
	return 0;
}

static int
opt_batch(const struct option *opt, const char *arg, int unset)
{
	struct batch_opt *b = opt->value;

	(void)unset;
	if (b->mode) {
		fflush(stdout);
		fprintf(stderr, "error: only one batch option may be "
			"specified\n");
		exit(129);
	}
	b->mode = opt->defval;
	b->format = arg;
	return 0;
}

/* ---- object information, as git reports it ---- */

struct obj_info {
	struct object_id oid;	/* what was read (the replacement, if any) */
	struct strbuf type;	/* as stored, any length */
	enum object_type t;	/* OBJ_BAD for a --literally type */
	size_t size;
};
#define OBJ_INFO_INIT { { { 0 } }, STRBUF_INIT, OBJ_NONE, 0 }

/*
 * Type and size of oid (after replacement unless ODB_READ_NO_REPLACE is
 * in flags).  0 or lib's negative E_*.
 */
static int
get_info(struct obj_info *info, struct odb *odb, const struct object_id *oid,
	 unsigned flags)
{
	int ret = odb_replacement(&info->oid, odb, oid, flags);

	if (ret < 0)
		return ret;
	ret = odb_read_type(&info->type, &info->size, odb, &info->oid,
			    flags | ODB_READ_NO_REPLACE);
	if (ret < 0)
		return ret;
	info->t = type_from_name(info->type.buf, info->type.len);
	return 0;
}

/*
 * Is the header of an object of an unknown type longer than git reads
 * without --allow-unknown-type?  Then git says "header for <id> too
 * long" where a shorter one is "invalid object type".
 */
static int
header_too_long(const struct obj_info *info)
{
	char digits[32];

	return info->type.len + 1 +
	       (size_t)snprintf(digits, sizeof(digits), "%zu", info->size) +
	       1 > GIT_HEADER_MAX;
}

static void
error_header_too_long(const struct obj_info *info)
{
	error("header for %s too long, exceeds %d bytes",
	      oid_to_hex(&info->oid), GIT_HEADER_MAX);
}

/* Print a tree as "<mode> <type> <id>\t<name>" lines. */
static void
pretty_tree(const struct odb_object *obj, int quotepath)
{
	struct strbuf out = STRBUF_INIT;
	struct tree_iter it;
	struct tree_entry e;
	int ret;

	tree_iter_init(&it, obj->data, obj->size);
	while ((ret = tree_iter_next(&it, &e)) > 0) {
		const char *type = S_ISDIR(e.mode) ? "tree" :
			S_ISGITLINK(e.mode) ? "commit" : "blob";

		strbuf_reset(&out);
		strbuf_addf(&out, "%06o %s %s\t", e.mode, type,
			    oid_to_hex(e.oid));
		quote_c_style(&out, e.name, e.namelen, quotepath);
		strbuf_addch(&out, '\n');
		fwrite(out.buf, 1, out.len, stdout);
	}
	strbuf_release(&out);
	if (ret < 0)
		die_lib(ret);
}

/*
 * Read oid as type want, peeling tags (and commits to their trees) as
 * git's "cat-file <type> <object>" does.  0, 1 if it does not peel to
 * want, or lib's negative E_*.
 */
static int
read_as_type(struct odb_object *obj, struct odb *odb, struct object_id oid,
	     enum object_type want)
{
	for (int depth = 0; depth < 64; depth++) {
		const char *p;
		int ret = odb_read(obj, odb, &oid, 0);

		if (ret < 0)
			return ret;
		if (obj->type == want)
			return 0;
		p = (const char *)obj->data;
		if (obj->type == OBJ_TAG &&
		    obj->size > 7 + (size_t)HASH_HEXSZ &&
		    skip_prefix(p, "object ", &p) && !hex_to_oid(&oid, p)) {
			odb_object_release(obj);
			continue;
		}
		if (obj->type == OBJ_COMMIT && want == OBJ_TREE &&
		    obj->size > 5 + (size_t)HASH_HEXSZ &&
		    skip_prefix(p, "tree ", &p) && !hex_to_oid(&oid, p)) {
			odb_object_release(obj);
			continue;
		}
		odb_object_release(obj);
		return 1;
	}
	return 1;
}

/* ---- attributes: --filters and --textconv ---- */

/*
 * --textconv: dirc runs no textconv programs.  Refuse when path's diff
 * driver (diff=<d>) has diff.<d>.textconv configured; otherwise git
 * prints the blob as it is stored, and so does dirc.
 */
static void
check_no_textconv(struct repo *repo, struct convert **cv, const char *path)
{
	struct attr_set *as = attr_set_new(repo, NULL, NULL, ATTR_CHECKIN);
	struct attr_values av = ATTR_VALUES_INIT;
	struct strbuf key = STRBUF_INIT;
	int id = attr_intern(as, "diff", 4);
	const char *v, *drv;

	(void)cv;
	attr_get(&av, as, path);
	drv = attr_value(&av, id);
	if (ATTR_HAS_VALUE(drv)) {
		strbuf_addf(&key, "diff.%s.textconv", drv);
		if (config_get(&repo->config, key.buf, &v) && v)
			die("--textconv: dirc does not run textconv programs, "
			    "and '%s' has diff=%s with %s set (see "
			    "dirc-cat-file(1))", path, drv, key.buf);
	}
	strbuf_release(&key);
	attr_values_release(&av);
	attr_set_free(as);
}

/*
 * Write the blob's bytes for path: smudged as git's --filters smudges
 * them (the work tree's attributes; no index, as in git), or as they
 * are for --textconv.  Dies when the conversion fails.
 */
static void
write_blob_for(struct repo *repo, struct convert **cv, int cmdmode,
	       const char *path, const struct object_id *oid,
	       const struct odb_object *obj)
{
	struct strbuf conv = STRBUF_INIT;
	struct convert_plan p;
	int ret = 1;

	if (cmdmode == 'w') {
		if (!*cv)
			*cv = convert_new(repo, NULL, NULL, 0);
		convert_plan_for(&p, *cv, path);
		p.blob = oid;	/* git names it to a filter process */
		if (convert_plan_smudges(*cv, &p))
			ret = convert_to_worktree(&conv, *cv, &p, path,
						  obj->data, obj->size);
		if (ret < 0) {
			fflush(stdout);
			die_lib(ret);
		}
	} else if (cmdmode == 'c') {
		check_no_textconv(repo, cv, path);
	}
	if (!ret)
		fwrite(conv.buf, 1, conv.len, stdout);
	else
		fwrite(obj->data, 1, obj->size, stdout);
	strbuf_release(&conv);
}

/*
 * --use-mailmap and the batch command "mailmap <bool>": the map is read
 * once, when first used.
 */
struct mailmap_use {
	struct repo *repo;
	struct mailmap map;
	int loaded;
	int on;			/* map idents now */
};

static void
mailmap_use_on(struct mailmap_use *mu)
{
	mu->on = 1;
	if (!mu->loaded)
		mailmap_read(&mu->map, mu->repo);
	mu->loaded = 1;
}

/*
 * An object's contents as --use-mailmap shows them: a commit's or tag's
 * idents mapped (into out; 1), or 0 to show data as it is.
 */
static int
mailmap_contents(struct strbuf *out, const struct mailmap_use *mu,
		 enum object_type type, const void *data, size_t size)
{
	if (!mu->on || (type != OBJ_COMMIT && type != OBJ_TAG))
		return 0;
	strbuf_reset(out);
	strbuf_add(out, data, size);
	mailmap_apply_headers(out, &mu->map);
	return 1;
}

/* ---- batch output ---- */

enum atom {
	ATOM_LITERAL,
	ATOM_OBJECTNAME,
	ATOM_OBJECTTYPE,
	ATOM_OBJECTSIZE,
	ATOM_OBJECTSIZE_DISK,
	ATOM_OBJECTMODE,
	ATOM_DELTABASE,
	ATOM_REST,
};

struct segment {
	enum atom atom;
	const char *text;	/* ATOM_LITERAL: borrowed from the format */
	size_t len;
};

struct batch {
	struct repo *repo;
	struct odb *odb;
	enum batch_mode mode;
	struct segment *fmt;	/* owned */
	size_t fmt_nr, fmt_alloc;
	int split;		/* name and rest are split at whitespace */
	int need_info;		/* the format shows the type or size */
	int follow;		/* --follow-symlinks */
	int buffer;		/* --buffer */
	int nul;		/* -z or -Z: input records end in NUL */
	char delim;		/* what ends an output record: '\n', or NUL
				 * with -Z */
	int all;		/* --batch-all-objects */
	int cmdmode;		/* 'c' or 'w': --textconv, --filters */
	const struct object_filter *filter;	/* --filter; borrowed */
	struct mailmap_use *mu;	/* --use-mailmap, "mailmap <bool>";
				 * borrowed */
	struct convert *convert;	/* owned; made on first need */
	struct strbuf line;	/* scratch for one output line */
	struct strbuf mapped;	/* scratch: contents with idents mapped */
};

/*
 * Must the type be read even when the format shows neither type nor
 * size?  As git: to filter, and to map idents.
 */
static int
need_type(const struct batch *b)
{
	return b->need_info || b->mu->on ||
	       b->filter->choice != OBJECT_FILTER_NONE;
}

/* Does --filter leave out an object of this type and size? */
static int
filtered_out(const struct batch *b, enum object_type type, size_t size)
{
	switch (b->filter->choice) {
	case OBJECT_FILTER_BLOB_NONE:
		return type == OBJ_BLOB;
	case OBJECT_FILTER_BLOB_LIMIT:
		return type == OBJ_BLOB && size >= b->filter->blob_limit;
	case OBJECT_FILTER_OBJECT_TYPE:
		return type != b->filter->type;
	default:
		return 0;
	}
}

static void
add_segment(struct batch *b, enum atom atom, const char *text, size_t len)
{
	ALLOC_GROW(b->fmt, b->fmt_nr + 1, b->fmt_alloc);
	b->fmt[b->fmt_nr++] = (struct segment){ atom, text, len };
}

/*
 * Parse the format once, dying on a bad atom as git does up front:
 * "%(atom)", "%%" for a '%', any other '%' as it is.
 */
static void
parse_format(struct batch *b, const char *fmt)
{
	static const struct { const char *name; enum atom atom; } atoms[] = {
		{ "objectname", ATOM_OBJECTNAME },
		{ "objecttype", ATOM_OBJECTTYPE },
		{ "objectsize", ATOM_OBJECTSIZE },
		{ "objectsize:disk", ATOM_OBJECTSIZE_DISK },
		{ "objectmode", ATOM_OBJECTMODE },
		{ "deltabase", ATOM_DELTABASE },
		{ "rest", ATOM_REST },
	};
	const char *p = fmt;

	while (*p) {
		const char *lit = p, *end;
		size_t i;

		/* text up to a '%' that starts an atom; "%%" is one '%' */
		while (*p && !(p[0] == '%' && (p[1] == '(' || p[1] == '%')))
			p++;
		if (p > lit)
			add_segment(b, ATOM_LITERAL, lit, p - lit);
		if (!*p)
			break;
		if (p[1] == '%') {
			add_segment(b, ATOM_LITERAL, p, 1);
			p += 2;
			continue;
		}
		end = strchr(p, ')');
		if (!end)
			die("format element '%s' does not end in ')'", p + 1);
		for (i = 0; i < ARRAY_SIZE(atoms); i++)
			if (strlen(atoms[i].name) == (size_t)(end - p - 2) &&
			    !memcmp(atoms[i].name, p + 2, end - p - 2))
				break;
		if (i == ARRAY_SIZE(atoms))
			die("unknown format element: %.*s", (int)(end - p - 2),
			    p + 2);
		if (atoms[i].atom == ATOM_REST)
			b->split = 1;
		if (atoms[i].atom == ATOM_OBJECTTYPE ||
		    atoms[i].atom == ATOM_OBJECTSIZE)
			b->need_info = 1;
		add_segment(b, atoms[i].atom, NULL, 0);
		p = end + 1;
	}
}

static off_t
disk_size(struct odb *odb, const struct object_id *oid)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	struct pack *p;
	uint64_t off;
	off_t size = 0;

	if (odb_find_packed(odb, oid, &p, &off))
		return pack_object_disk_size(p, off);
	for (size_t i = 0; i < odb->nr_sources; i++) {
		odb_loose_path_in(&path, odb->sources[i].objdir, oid);
		if (!stat(path.buf, &st)) {
			size = st.st_size;
			break;
		}
	}
	strbuf_release(&path);
	return size;
}

static void
delta_base(struct object_id *out, struct odb *odb, const struct object_id *oid)
{
	struct pack *p;
	uint64_t off;
	size_t size;
	int type;

	*out = null_oid;
	if (odb_find_packed(odb, oid, &p, &off) &&
	    pack_object_info(&odb->env, p, off, &type, &size, out) < 0) {
		error_clear();
		*out = null_oid;
	}
}

/*
 * The info line of one object into b->line (with its end): mode is the
 * tree or index entry's the name gave (0: none).
 */
static void
format_line(struct batch *b, const struct object_id *name_oid,
	    const struct obj_info *info, const char *rest, unsigned mode)
{
	struct object_id base;

	strbuf_reset(&b->line);
	for (size_t i = 0; i < b->fmt_nr; i++) {
		const struct segment *s = &b->fmt[i];

		switch (s->atom) {
		case ATOM_LITERAL:
			strbuf_add(&b->line, s->text, s->len);
			break;
		case ATOM_OBJECTNAME:
			strbuf_addstr(&b->line, oid_to_hex(name_oid));
			break;
		case ATOM_OBJECTTYPE:
			strbuf_addbuf(&b->line, &info->type);
			break;
		case ATOM_OBJECTSIZE:
			strbuf_addf(&b->line, "%zu", info->size);
			break;
		case ATOM_OBJECTSIZE_DISK:
			strbuf_addf(&b->line, "%lld",
				    (long long)disk_size(b->odb, &info->oid));
			break;
		case ATOM_OBJECTMODE:
			if (mode)
				strbuf_addf(&b->line, "%06o", mode);
			break;
		case ATOM_DELTABASE:
			delta_base(&base, b->odb, &info->oid);
			strbuf_addstr(&b->line, oid_to_hex(&base));
			break;
		case ATOM_REST:
			strbuf_addstr(&b->line, rest ? rest : "");
			break;
		}
	}
	strbuf_addch(&b->line, b->delim);
}

static void
batch_flush(struct batch *b)
{
	if (!b->buffer)
		fflush(stdout);
}

static void
batch_missing(struct batch *b, const char *name, const char *what)
{
	printf("%s %s%c", name, what, b->delim);
	batch_flush(b);
}

/*
 * A lib error while answering name: a damaged object is reported and
 * answered "missing", as git answers an object whose header it cannot
 * read; anything else (a replace loop, an I/O error) is fatal.
 */
static void
batch_error(struct batch *b, const char *name, int ret, const char *what)
{
	if (ret == -E_NOTFOUND) {
		error_clear();
	} else if (ret == -E_CORRUPT) {
		error_lib(ret);
	} else {
		die_lib(ret);
	}
	batch_missing(b, name, what);
}

/*
 * How an object that cannot be read is answered: "<name> missing", or,
 * for a submodule's commit that a tree or index entry names (git 2.50),
 * "<id> submodule".  name is set to what to print, hex is its room.
 */
static const char *
gone_word(const char **name, char *hex, const struct object_id *oid,
	  unsigned mode)
{
	if (!S_ISGITLINK(mode))
		return "missing";
	*name = oid_to_hex_r(hex, oid);
	return "submodule";
}

/*
 * The usual case of --batch: one read gives the type, the size and the
 * contents.  0 if that read failed (get_info() then says why, unless
 * the object was corrupt: that is said here).
 */
static int
read_at_once(struct obj_info *info, struct odb_object *obj, struct odb *odb,
	     const struct object_id *oid, unsigned flags)
{
	int ret = odb_replacement(&info->oid, odb, oid, flags);

	if (ret < 0)
		die_lib(ret);
	ret = odb_read(obj, odb, &info->oid, ODB_READ_NO_REPLACE);
	if (ret < 0) {
		/* a corrupt copy is now skipped (as git, marked bad): say
		 * why here, as get_info() will not find it again */
		if (ret == -E_CORRUPT && !odb_has(odb, &info->oid))
			error_lib(ret);
		else
			error_clear();
		return 0;
	}
	info->t = obj->type;
	strbuf_addstr(&info->type, type_name(obj->type));
	info->size = obj->size;
	return 1;
}

/*
 * Answer one object: name is what the input said (for "missing"),
 * oid what it resolved to, rest the rest of the line, mode that of
 * the tree or index entry the name gave (0: none).
 */
static void
batch_object(struct batch *b, const char *name, const struct object_id *oid,
	     const char *rest, int contents, unsigned flags, unsigned mode)
{
	struct obj_info info = OBJ_INFO_INIT;
	struct odb_object obj = ODB_OBJECT_INIT;
	const void *data;
	char hex[HASH_MAX_HEXSZ + 1];
	const char *gone = gone_word(&name, hex, oid, mode);
	int convert, no_path, ret;

	if (!contents && !need_type(b)) {
		/* as git: without a type or size to show, only look */
		ret = odb_replacement(&info.oid, b->odb, oid, flags);
		if (ret < 0)
			die_lib(ret);
		if (!odb_has(b->odb, &info.oid)) {
			batch_missing(b, name, gone);
			goto out;
		}
		format_line(b, oid, &info, rest, mode);
		fwrite(b->line.buf, 1, b->line.len, stdout);
		batch_flush(b);
		goto out;
	}
	if (!contents || !read_at_once(&info, &obj, b->odb, oid, flags)) {
		ret = get_info(&info, b->odb, oid, flags);
		if (ret < 0) {
			batch_error(b, name, ret, gone);
			goto out;
		}
		if (info.t == OBJ_BAD) {
			if (!header_too_long(&info))
				die("invalid object type");
			error_header_too_long(&info);
			batch_missing(b, name, gone);
			goto out;
		}
		if (contents) {
			ret = odb_read(&obj, b->odb, &info.oid,
				       ODB_READ_NO_REPLACE);
			if (ret < 0) {
				batch_error(b, name, ret, gone);
				goto out;
			}
		}
	}
	if (filtered_out(b, info.t, info.size)) {
		/* with --batch-all-objects, left out without a word */
		if (!b->all)
			batch_missing(b, name, "excluded");
		goto out;
	}
	data = obj.data;
	if (b->mu->on && (info.t == OBJ_COMMIT || info.t == OBJ_TAG)) {
		/* the size shown is that of the mapped contents */
		if (!contents &&
		    odb_read(&obj, b->odb, &info.oid, ODB_READ_NO_REPLACE) < 0) {
			error_clear();
			die("unable to read %s", oid_to_hex(&info.oid));
		}
		mailmap_contents(&b->mapped, b->mu, info.t, obj.data,
				 obj.size);
		data = b->mapped.buf;
		info.size = b->mapped.len;
	}
	/* --textconv/--filters of a blob's contents: the path is the rest */
	convert = contents && b->cmdmode && info.t == OBJ_BLOB;
	no_path = convert && !(rest && *rest);
	format_line(b, oid, &info, rest, mode);
	fwrite(b->line.buf, 1, b->line.len, stdout);
	if (no_path) {
		/* git prints the info line, then finds it has no path */
		fflush(stdout);
		die("missing path for '%s'", oid_to_hex(oid));
	}
	if (contents) {
		if (convert)
			write_blob_for(b->repo, &b->convert, b->cmdmode, rest,
				       oid, &obj);
		else
			fwrite(data, 1, info.size, stdout);
		putchar(b->delim);
	}
	batch_flush(b);
out:
	odb_object_release(&obj);
	strbuf_release(&info.type);
}

/*
 * Batch input names many objects, mostly by full id: like git, take a
 * full hex id as the object without checking for a ref of that name
 * (no "refname is ambiguous" warning, no ref lookups per line).
 */
static int
batch_get_oid(struct object_id *oid, unsigned *mode, struct repo *repo,
	      const char *name)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;
	int ret;

	ctx.flags = ONAME_DIAGNOSE | ONAME_HEX_NO_REFS;
	ret = oname_get(oid, repo, name, &ctx);
	if (mode)
		*mode = ctx.mode;
	return ret;
}

/*
 * "<rev>:<path>" with --follow-symlinks: the path is walked in rev's
 * tree with links followed.  Returns 0 if name is not of that form.
 */
static int
batch_follow(struct batch *b, const char *name, const char *rest,
	     int contents)
{
	struct strbuf rev = STRBUF_INIT, full = STRBUF_INIT,
		      outside = STRBUF_INIT;
	struct object_id oid, tree;
	const char *colon, *path;
	unsigned mode;
	int ret;

	colon = oname_path_colon(name);
	if (!colon || colon == name)
		return 0;	/* an index path or a plain name */
	strbuf_add(&rev, name, colon - name);
	path = colon + 1;
	ret = batch_get_oid(&oid, NULL, b->repo, rev.buf);
	if (!ret)
		ret = peel_to_type(&tree, b->repo, &oid, OBJ_TREE);
	if (ret == -E_NOTFOUND || ret == -E_INVALID || ret == -E_AMBIGUOUS) {
		error_clear();
		batch_missing(b, name, "missing");
		goto out;
	}
	if (ret < 0) {
		batch_error(b, name, ret, "missing");
		goto out;
	}
	/* "./x" and "../x" are relative to where dirc started */
	if (starts_with(path, "./") || starts_with(path, "../")) {
		if (path_normalize(&full, b->repo->prefix ? b->repo->prefix :
				   "", path, b->repo->worktree ?
				   b->repo->worktree : "/") < 0) {
			error_clear();
			batch_missing(b, name, "missing");
			goto out;
		}
		path = full.buf;
	}
	ret = tree_path_follow(&oid, &mode, &outside, b->odb, &tree, path);
	switch (ret) {
	case TREE_PATH_FOUND:
		/*
		 * git says "missing", not "submodule", when it followed;
		 * "<rev>:" is the tree itself, with no mode
		 */
		batch_object(b, name, &oid, rest, contents, 0,
			     S_ISGITLINK(mode) || !*path ? 0 : mode);
		break;
	case TREE_PATH_MISSING:
		batch_missing(b, name, "missing");
		break;
	case TREE_PATH_DANGLING:
	case TREE_PATH_NOTDIR:
	case TREE_PATH_LOOP:
		printf("%s %zu%c%s%c", ret == TREE_PATH_DANGLING ? "dangling" :
		       ret == TREE_PATH_NOTDIR ? "notdir" : "loop",
		       strlen(name), b->delim, name, b->delim);
		batch_flush(b);
		break;
	case TREE_PATH_OUTSIDE:
		printf("symlink %zu%c%s%c", outside.len, b->delim,
		       outside.buf, b->delim);
		batch_flush(b);
		break;
	default:
		batch_error(b, name, ret, "missing");
		break;
	}
out:
	strbuf_release(&rev);
	strbuf_release(&full);
	strbuf_release(&outside);
	return 1;
}

/* Resolve name and answer it. */
static void
batch_name(struct batch *b, const char *name, const char *rest, int contents)
{
	struct object_id oid;
	unsigned mode;
	int ret;

	if (b->follow && batch_follow(b, name, rest, contents))
		return;
	ret = batch_get_oid(&oid, &mode, b->repo, name);
	if (ret == -E_AMBIGUOUS) {
		if (error_pre())
			error("%s", error_pre());
		error_clear();
		batch_missing(b, name, "ambiguous");
		return;
	}
	if (ret == -E_NOTFOUND || ret == -E_INVALID) {
		error_clear();
		batch_missing(b, name, "missing");
		return;
	}
	/* git dies on an object it cannot read while resolving a name */
	if (ret == -E_CORRUPT)
		die_lib(ret);
	if (ret < 0) {
		batch_error(b, name, ret, "missing");
		return;
	}
	batch_object(b, name, &oid, rest, contents, 0, mode);
}

/* One --batch or --batch-check line (modified in place). */
static void
batch_line(struct batch *b, char *line)
{
	char *rest = NULL;

	if (b->split) {
		char *sp = strpbrk(line, " \t");

		if (sp) {
			*sp = '\0';
			rest = sp + 1;
			while (*rest == ' ' || *rest == '\t')
				rest++;
		}
	}
	batch_name(b, line, rest, b->mode == BATCH_CONTENTS);
}

/* ---- --batch-command ---- */

enum command {
	CMD_CONTENTS,
	CMD_INFO,
	CMD_FLUSH,
	CMD_MAILMAP,		/* git 2.47 */
};

struct queued {
	enum command cmd;
	char *arg;		/* owned */
};

struct command_queue {
	struct queued *q;	/* owned */
	size_t nr, alloc;
};

/*
 * "mailmap <bool>": map idents in what follows, or stop.  As git, the
 * value is checked when the command runs (with --buffer, at the flush).
 */
static void
command_mailmap(struct batch *b, const char *arg)
{
	int on = config_parse_bool(arg);

	if (on < 0)
		die("mailmap: invalid boolean '%s'", arg);
	if (on)
		mailmap_use_on(b->mu);
	else
		b->mu->on = 0;
}

static void
dispatch(struct batch *b, struct command_queue *cq)
{
	for (size_t i = 0; i < cq->nr; i++) {
		if (cq->q[i].cmd == CMD_MAILMAP)
			command_mailmap(b, cq->q[i].arg);
		else
			batch_name(b, cq->q[i].arg, NULL,
				   cq->q[i].cmd == CMD_CONTENTS);
		free(cq->q[i].arg);
	}
	cq->nr = 0;
}

/* A copy of s for a message: control bytes as '?', as git prints them. */
static const char *
printable(struct strbuf *out, const char *s)
{
	strbuf_reset(out);
	for (; *s; s++) {
		unsigned char c = *s;

		strbuf_addch(out, (c < 0x20 && c != '\t' && c != '\n') ||
			     c == 0x7f ? '?' : c);
	}
	return out->buf;
}

/*
 * One command line (len bytes, which may hold a NUL).  With -z or -Z an
 * empty record is "unknown command: ''", as in git 2.55, whose record
 * still holds its terminator when it checks for an empty one.
 */
static void
batch_command(struct batch *b, struct command_queue *cq, const char *line,
	      size_t len)
{
	static const struct {
		const char *name;
		enum command cmd;
		int args;
	} cmds[] = {
		{ "contents", CMD_CONTENTS, 1 }, { "info", CMD_INFO, 1 },
		{ "flush", CMD_FLUSH, 0 }, { "mailmap", CMD_MAILMAP, 1 },
	};
	struct strbuf shown = STRBUF_INIT;
	const char *p = NULL;
	size_t i;

	if (!len && !b->nul)
		die("empty command in input");
	if (*line && strchr(" \t\n\r", *line))
		die("whitespace before command: '%s'",
		    printable(&shown, line));
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (skip_prefix(line, cmds[i].name, &p))
			break;
	if (i == ARRAY_SIZE(cmds))
		die("unknown command: '%s'", printable(&shown, line));
	if (cmds[i].args && *p != ' ')
		die("%s requires arguments", cmds[i].name);
	if (!cmds[i].args && *p)
		die("%s takes no arguments", cmds[i].name);
	strbuf_release(&shown);

	if (!cmds[i].args) {
		if (!b->buffer)
			die("flush is only for --buffer mode");
		dispatch(b, cq);
		fflush(stdout);
		return;
	}
	ALLOC_GROW(cq->q, cq->nr + 1, cq->alloc);
	cq->q[cq->nr].cmd = cmds[i].cmd;
	cq->q[cq->nr++].arg = xstrdup(p + 1);
	if (!b->buffer)
		dispatch(b, cq);
}

/* ---- batches on the worker pool ---- */

/*
 * --batch, and --batch-check with a type or size to show, read their
 * objects on the worker pool: the names of every line that is already
 * in (a read of standard input gives what the writer has written so
 * far) are resolved here, their objects read by the workers, and the
 * answers written in input order, then flushed (unless --buffer) before
 * reading on.  A reader that writes one name and waits gets its answer
 * as before; the output is the same bytes as one object at a time.
 * Anything out of the ordinary (a name that does not resolve, an object
 * that cannot be read or has an unknown type) is answered by the serial
 * path, in its place, with its messages.
 */
static int
parallel_ok(const struct batch *b)
{
	return (b->mode == BATCH_CONTENTS ||
		(b->mode == BATCH_CHECK && b->need_info)) &&
	       !b->follow && !b->cmdmode && !b->mu->on;
}

struct pline {
	const char *name;	/* in the input buffer */
	const char *rest;	/* NULL: none */
	struct object_id oid;	/* what the name resolved to */
	unsigned mode;		/* of the tree or index entry named, or 0 */
	int serial;		/* answered by batch_name() */
};

/* One object read by the workers: its answer. */
static void
answer_read(struct batch *b, const char *name, const struct object_id *oid,
	    const char *rest, struct odb_many_item *it, int contents,
	    unsigned flags, unsigned mode)
{
	struct obj_info info = OBJ_INFO_INIT;

	if (it->ret == -E_CORRUPT) {
		/* a damaged packed copy is skipped now: say why here, and
		 * the serial path answers "missing" (it reports a damaged
		 * loose copy itself) */
		if (!odb_has(b->odb, &it->oid))
			error_lib(error_restore(&it->err));
		error_saved_release(&it->err);
	}
	if (it->ret < 0 || it->obj.type == OBJ_BAD) {
		/* again, with the messages */
		batch_object(b, name, oid, rest, contents, flags, mode);
		return;
	}
	if (filtered_out(b, it->obj.type, it->obj.size)) {
		if (!b->all)
			batch_missing(b, name, "excluded");
		return;
	}
	info.oid = it->oid;
	info.t = it->obj.type;
	info.size = it->obj.size;
	strbuf_addstr(&info.type, it->obj.type_name);
	format_line(b, oid, &info, rest, mode);
	fwrite(b->line.buf, 1, b->line.len, stdout);
	if (contents) {
		fwrite(it->obj.data, 1, it->obj.size, stdout);
		putchar(b->delim);
	}
	/* without --buffer, one object at a time, as git */
	batch_flush(b);
	strbuf_release(&info.type);
}

/* Answer lines[0..nr) in order, reading their objects on the pool. */
static void
answer_lines(struct batch *b, struct odb_many *m, struct pline *lines,
	     struct odb_many_item *items, size_t nr)
{
	int contents = b->mode == BATCH_CONTENTS;
	size_t pos = 0;

	for (size_t i = 0; i < nr; i++) {
		struct pline *l = &lines[i];
		int ret = batch_get_oid(&l->oid, &l->mode, b->repo,
					l->name);

		items[i] = (struct odb_many_item){ .skip = 1 };
		if (!ret)
			ret = odb_replacement(&items[i].oid, b->odb, &l->oid,
					      0);
		if (ret) {
			error_clear();
			l->serial = 1;
			continue;
		}
		l->serial = 0;
		items[i].skip = 0;
	}
	while (pos < nr) {
		size_t k = odb_many_read(m, items + pos, nr - pos);

		for (size_t i = pos; i < pos + k; i++) {
			struct pline *l = &lines[i];

			if (l->serial)
				batch_name(b, l->name, l->rest, contents);
			else
				answer_read(b, l->name, &l->oid, l->rest,
					    &items[i], contents, 0, l->mode);
			odb_object_release(&items[i].obj);
		}
		pos += k;
	}
}

/*
 * Split the complete lines of in (from *start) as read_line() does; the
 * last piece only at eof.  Lines are cut in place.  Returns how many.
 */
static size_t
split_lines(struct batch *b, struct strbuf *in, size_t *start, int eof,
	    struct pline **lines, size_t *alloc)
{
	char delim = b->nul ? '\0' : '\n';
	size_t nr = 0;

	while (*start < in->len) {
		char *s = in->buf + *start;
		char *e = memchr(s, delim, in->len - *start);
		char *rest = NULL;

		if (!e && !eof)
			break;
		if (e) {
			*e = '\0';
			*start = e + 1 - in->buf;
			if (!b->nul && e > s && e[-1] == '\r')
				e[-1] = '\0';
		} else {
			*start = in->len;	/* the buffer is NUL-ended */
		}
		if (b->split) {
			char *sp = strpbrk(s, " \t");

			if (sp) {
				*sp = '\0';
				rest = sp + 1;
				while (*rest == ' ' || *rest == '\t')
					rest++;
			}
		}
		ALLOC_GROW(*lines, nr + 1, *alloc);
		(*lines)[nr++] = (struct pline){ .name = s, .rest = rest };
	}
	return nr;
}

#define INPUT_CHUNK 65536

static void
run_batch_parallel(struct batch *b)
{
	struct strbuf in = STRBUF_INIT;
	struct pline *lines = NULL;
	struct odb_many_item *items = NULL;
	size_t alloc = 0, items_alloc = 0;
	struct odb_many m;
	int eof = 0;

	odb_many_init(&m, b->odb, workers_count(0, b->repo->settings.threads,
						SIZE_MAX, 0),
		      b->mode != BATCH_CONTENTS);
	while (!eof) {
		size_t start = 0, nr;
		ssize_t got;

		strbuf_grow(&in, INPUT_CHUNK);
		/*
		 * What is there now, up to a chunk: waits only if nothing.
		 * A read error ends the input, as git's getline loop does.
		 */
		got = read_at_least(0, in.buf + in.len, 1, INPUT_CHUNK);
		if (got <= 0) {
			got = 0;
			eof = 1;
		}
		strbuf_setlen(&in, in.len + got);
		nr = split_lines(b, &in, &start, eof, &lines, &alloc);
		if (nr) {
			ALLOC_GROW(items, nr, items_alloc);
			answer_lines(b, &m, lines, items, nr);
		}
		memmove(in.buf, in.buf + start, in.len - start);
		strbuf_setlen(&in, in.len - start);
	}
	odb_many_release(&m);
	free(items);
	free(lines);
	strbuf_release(&in);
}

#define ALL_WINDOW 4096	/* objects answered per window */

/* --batch-all-objects on the pool: oids[0..nr), as stored. */
static void
all_objects_parallel(struct batch *b, const struct object_id *oids,
		     size_t nr)
{
	int contents = b->mode == BATCH_CONTENTS;
	struct odb_many_item *items = xcalloc(ALL_WINDOW, sizeof(*items));
	struct odb_many m;

	odb_many_init(&m, b->odb, workers_count(0, b->repo->settings.threads,
						SIZE_MAX, 0), !contents);
	for (size_t base = 0; base < nr; base += ALL_WINDOW) {
		size_t n = MIN(nr - base, (size_t)ALL_WINDOW), pos = 0;

		for (size_t i = 0; i < n; i++)
			items[i] = (struct odb_many_item){ .oid = oids[base + i] };
		while (pos < n) {
			size_t k = odb_many_read(&m, items + pos, n - pos);

			for (size_t i = pos; i < pos + k; i++) {
				char hex[HASH_MAX_HEXSZ + 1];

				answer_read(b, oid_to_hex_r(hex, &items[i].oid),
					    &items[i].oid, NULL, &items[i],
					    contents, ODB_READ_NO_REPLACE, 0);
				odb_object_release(&items[i].obj);
			}
			pos += k;
		}
	}
	odb_many_release(&m);
	free(items);
}

/* ---- --batch-all-objects ---- */

struct oid_list {
	struct object_id *oids;
	size_t nr, alloc;
};

static int
collect_oid(const struct object_id *oid, void *ctx)
{
	struct oid_list *l = ctx;

	ALLOC_GROW(l->oids, l->nr + 1, l->alloc);
	oidcpy(&l->oids[l->nr++], oid);
	return 0;
}

static int
cmp_oid(const void *a, const void *b)
{
	return oidcmp(a, b);
}

/* Position and id, to sort by id and restore the order found. */
struct seen {
	struct object_id oid;
	size_t pos;
};

static int
cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	int c = oidcmp(&x->oid, &y->oid);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static int
cmp_pos(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * Every object stored (loose, packed, alternates), once each: in id
 * order, or with --unordered in the order the store lists them.  As in
 * git, replacements are not applied.
 */
static void
batch_all_objects(struct batch *b, int unordered)
{
	struct oid_list l = { NULL, 0, 0 };
	int contents = b->mode == BATCH_CONTENTS;
	size_t nr = 0;
	int ret;

	ret = odb_for_each_object(b->odb, 0, collect_oid, &l);
	if (ret < 0)
		die_lib(ret);
	if (!unordered) {
		sort_array(l.oids, l.nr, sizeof(*l.oids), cmp_oid);
		for (size_t i = 0; i < l.nr; i++)
			if (!i || !oideq(&l.oids[i], &l.oids[i - 1]))
				l.oids[nr++] = l.oids[i];
	} else {
		struct seen *s = xcalloc(l.nr ? l.nr : 1, sizeof(*s));
		size_t k = 0;

		for (size_t i = 0; i < l.nr; i++)
			s[i] = (struct seen){ l.oids[i], i };
		sort_array(s, l.nr, sizeof(*s), cmp_seen);
		for (size_t i = 0; i < l.nr; i++)
			if (!i || !oideq(&s[i].oid, &s[i - 1].oid))
				s[k++] = s[i];
		sort_array(s, k, sizeof(*s), cmp_pos);
		for (size_t i = 0; i < k; i++)
			l.oids[nr++] = s[i].oid;
		free(s);
	}
	if (parallel_ok(b))
		all_objects_parallel(b, l.oids, nr);
	else
		for (size_t i = 0; i < nr; i++) {
			char hex[HASH_MAX_HEXSZ + 1];

			batch_object(b, oid_to_hex_r(hex, &l.oids[i]),
				     &l.oids[i], NULL, contents,
				     ODB_READ_NO_REPLACE, 0);
		}
	free(l.oids);
}

/* A line of input, as git's strbuf_getline (CR before LF dropped). */
static int
read_line(struct strbuf *line, int nul)
{
	if (strbuf_getdelim(line, stdin, nul ? '\0' : '\n') == EOF)
		return 0;
	if (!nul && line->len && line->buf[line->len - 1] == '\r' &&
	    !feof(stdin))
		strbuf_setlen(line, line->len - 1);
	return 1;
}

static int
env_true(const char *name)
{
	const char *v = getenv(name);

	return v && config_parse_bool(v) == 1;
}

static int
run_batch(struct batch *b, const char *format, int all, int unordered)
{
	struct strbuf line = STRBUF_INIT;
	struct command_queue cq = { NULL, 0, 0 };

	strbuf_init(&b->line, 0);
	strbuf_init(&b->mapped, 0);
	/* "--batch=" is an empty format, not the default */
	parse_format(b, format ? format :
		     "%(objectname) %(objecttype) %(objectsize)");
	/* with a conversion, the path follows the name (not for commands) */
	if (b->cmdmode && b->mode != BATCH_COMMAND)
		b->split = 1;
	if (b->mode == BATCH_COMMAND)
		b->split = 0;
	if (all) {
		batch_all_objects(b, unordered);
	} else if (b->mode != BATCH_COMMAND && parallel_ok(b)) {
		run_batch_parallel(b);
	} else {
		while (read_line(&line, b->nul)) {
			if (b->mode == BATCH_COMMAND)
				batch_command(b, &cq, line.buf, line.len);
			else
				batch_line(b, line.buf);
		}
		if (cq.nr && !env_true("GIT_TEST_CAT_FILE_NO_FLUSH_ON_EXIT"))
			dispatch(b, &cq);
	}
	fflush(stdout);
	for (size_t i = 0; i < cq.nr; i++)
		free(cq.q[i].arg);
	free(cq.q);
	free(b->fmt);
	strbuf_release(&line);
	strbuf_release(&b->line);
	strbuf_release(&b->mapped);
	if (convert_free(b->convert) < 0)
		die_lib(-1);
	b->convert = NULL;
	return 0;
}

/* ---- one object ---- */

static void
resolve_or_die(struct object_id *oid, struct repo *repo, const char *name)
{
	int ret = get_oid(oid, repo, name);

	if (ret < 0)
		die_lib(ret);
}

/* -t and -s */
static int
show_type_or_size(struct odb *odb, const struct object_id *oid, int mode,
		  int unknown_type, struct mailmap_use *mu)
{
	struct obj_info info = OBJ_INFO_INIT;
	int ret = get_info(&info, odb, oid, 0);

	if (ret == -E_CORRUPT)
		error_lib(ret);
	else if (ret < 0 && ret != -E_NOTFOUND)
		die_lib(ret);
	if (ret < 0)
		die("git cat-file: could not get object info");
	if (info.t == OBJ_BAD && !unknown_type) {
		if (!header_too_long(&info))
			die("invalid object type");
		error_header_too_long(&info);
		die("git cat-file: could not get object info");
	}
	if (mode == 's' && mu->on &&
	    (info.t == OBJ_COMMIT || info.t == OBJ_TAG)) {
		/* the size of what -p would show, idents mapped */
		struct odb_object obj = ODB_OBJECT_INIT;
		struct strbuf mapped = STRBUF_INIT;

		ret = odb_read(&obj, odb, &info.oid, ODB_READ_NO_REPLACE);
		if (ret < 0)
			die_lib(ret);
		mailmap_contents(&mapped, mu, obj.type, obj.data, obj.size);
		info.size = mapped.len;
		strbuf_release(&mapped);
		odb_object_release(&obj);
	}
	if (mode == 't')
		printf("%s\n", info.type.buf);
	else
		printf("%zu\n", info.size);
	strbuf_release(&info.type);
	return 0;
}

/* -p (and --textconv of what has no text conversion) */
static int
pretty_print(struct repo *repo, struct odb *odb, const struct object_id *oid,
	     const char *name, struct mailmap_use *mu)
{
	struct strbuf mapped = STRBUF_INIT;
	struct obj_info info = OBJ_INFO_INIT;
	struct odb_object obj = ODB_OBJECT_INIT;
	int ret = get_info(&info, odb, oid, 0);

	if (ret == -E_CORRUPT)
		error_lib(ret);
	else if (ret < 0 && ret != -E_NOTFOUND)
		die_lib(ret);
	if (ret < 0)
		die("Not a valid object name %s", name);
	if (info.t == OBJ_BAD) {
		if (!header_too_long(&info))
			die("invalid object type");
		error_header_too_long(&info);
		die("Not a valid object name %s", name);
	}
	ret = odb_read(&obj, odb, &info.oid, ODB_READ_NO_REPLACE);
	if (ret < 0)
		die_lib(ret);
	if (obj.type == OBJ_TREE) {
		struct object_id check;

		/* git parses a tree to print it, checking its id */
		odb_hash(&check, "tree", obj.data, obj.size);
		if (!oideq(&check, &info.oid)) {
			error("hash mismatch %s", oid_to_hex(&info.oid));
			die("not a tree object");
		}
		pretty_tree(&obj, repo->settings.quotepath);
	} else if (mailmap_contents(&mapped, mu, obj.type, obj.data,
				    obj.size)) {
		fwrite(mapped.buf, 1, mapped.len, stdout);
	} else {
		fwrite(obj.data, 1, obj.size, stdout);
	}
	odb_object_release(&obj);
	strbuf_release(&info.type);
	strbuf_release(&mapped);
	return 0;
}

/* <type> <object> */
static int
show_as_type(struct odb *odb, const struct object_id *oid, const char *type,
	     const char *name, struct mailmap_use *mu)
{
	struct strbuf mapped = STRBUF_INIT;
	struct obj_info info = OBJ_INFO_INIT;
	struct odb_object obj = ODB_OBJECT_INIT;
	enum object_type want = type_from_name(type, strlen(type));
	int ret;

	if (want == OBJ_BAD)
		die("invalid object type \"%s\"", type);
	ret = get_info(&info, odb, oid, 0);
	if (!ret && info.t == OBJ_BAD) {
		if (!header_too_long(&info))
			die("invalid object type");
		error_header_too_long(&info);
		die("git cat-file %s: bad file", name);
	}
	strbuf_release(&info.type);
	ret = ret < 0 ? ret : read_as_type(&obj, odb, *oid, want);
	if (ret < 0 && ret != -E_NOTFOUND)
		die_lib(ret);
	if (ret)
		die("git cat-file %s: bad file", name);
	if (mailmap_contents(&mapped, mu, obj.type, obj.data, obj.size))
		fwrite(mapped.buf, 1, mapped.len, stdout);
	else
		fwrite(obj.data, 1, obj.size, stdout);
	odb_object_release(&obj);
	strbuf_release(&mapped);
	return 0;
}

/* --textconv and --filters on one object */
static int
show_converted(struct repo *repo, struct odb *odb, int cmdmode,
	       const char *name, const char *path_opt, struct mailmap_use *mu)
{
	struct object_id oid;
	struct obj_info info = OBJ_INFO_INIT;
	struct odb_object obj = ODB_OBJECT_INIT;
	struct strbuf rev = STRBUF_INIT, path = STRBUF_INIT;
	const char *colon;
	int ret;

	colon = oname_path_colon(name);
	if (colon && colon != name)
		strbuf_add(&rev, name, colon - name);
	ret = get_oid(&oid, repo, name);
	if (ret < 0) {
		struct error_saved err = ERROR_SAVED_INIT;

		error_save(&err);
		if (rev.len && get_oid(&oid, repo, rev.buf) < 0) {
			/* git names the part before the colon */
			error_clear();
			die("invalid object name '%s'.", rev.buf);
		}
		die_lib(error_restore(&err));
	}
	if (path_opt) {
		strbuf_addstr(&path, path_opt);
	} else {
		if (!colon)
			die("<object>:<path> required, only <object> '%s' "
			    "given", name);
		/* ":path" and ":N:path" name an index entry */
		if (!rev.len && colon[1] >= '0' && colon[1] <= '3' &&
		    colon[2] == ':')
			colon += 2;
		strbuf_addstr(&path, colon + 1);
	}
	ret = get_info(&info, odb, &oid, 0);
	if (ret < 0 && ret != -E_NOTFOUND && ret != -E_CORRUPT)
		die_lib(ret);
	if (ret < 0 && cmdmode == 'w') {
		/* git's --filters reports and exits -1 */
		if (ret == -E_CORRUPT)
			error_lib(ret);
		error_clear();
		error("cannot read object %s '%s'", oid_to_hex(&oid),
		      path.buf);
		ret = -1;
		goto out;
	}
	if (ret < 0 || info.t != OBJ_BLOB) {
		error_clear();
		if (cmdmode == 'c') {
			/* no text conversion: what -p prints */
			ret = pretty_print(repo, odb, &oid, name, mu);
			goto out;
		}
		if (info.t == OBJ_BAD)
			die("invalid object type");
	}
	ret = odb_read(&obj, odb, &info.oid, ODB_READ_NO_REPLACE);
	if (ret < 0)
		die_lib(ret);
	if (!ret && info.t == OBJ_BLOB) {
		struct convert *cv = NULL;

		write_blob_for(repo, &cv, cmdmode, path.buf, &info.oid, &obj);
		ret = convert_free(cv);
		if (ret < 0)
			die_lib(ret);
	} else {
		fwrite(obj.data, 1, obj.size, stdout);
	}
out:
	odb_object_release(&obj);
	strbuf_release(&info.type);
	strbuf_release(&rev);
	strbuf_release(&path);
	return ret;
}

/* --filter=<spec> (several combine), --no-filter: as git, a bad spec dies */
static int
opt_filter(const struct option *opt, const char *arg, int unset)
{
	struct object_filter *f = opt->value;

	if (unset || !arg) {
		*f = (struct object_filter)OBJECT_FILTER_INIT;
		return 0;
	}
	if (object_filter_add(f, arg) < 0) {
		fflush(stdout);
		die("%s", error_msg());
	}
	return 0;
}

int
cmd_cat_file(int argc, const char **argv)
{
	struct repo repo;
	struct odb *odb;
	struct object_id oid;
	struct cmdmode cm = { 0, NULL };
	struct batch_opt batch = { BATCH_NONE, NULL };
	const char *path = NULL;
	int unknown_type = 0, follow = 0, unordered = 0, buffer = -1, nul = 0;
	int nul_out = 0, mailmap = 0, ret;
	struct object_filter filter = OBJECT_FILTER_INIT;
	struct mailmap_use mu = { NULL, MAILMAP_INIT, 0, 0 };
	struct option opts[] = {
		OPT_GROUP("Check object existence or emit object contents"),
		OPT_MODE('e', NULL, &cm, "check if <object> exists", 'e'),
		OPT_MODE('p', NULL, &cm, "pretty-print <object> content", 'p'),
		OPT_GROUP("Emit [broken] object attributes"),
		OPT_MODE('t', NULL, &cm, "show object type (one of 'blob', "
			 "'tree', 'commit', 'tag', ...)", 't'),
		OPT_MODE('s', NULL, &cm, "show object size", 's'),
		OPT_BOOL(0, "allow-unknown-type", &unknown_type,
			 "allow -s and -t to work with broken/corrupt objects"),
		OPT_BOOL(0, "use-mailmap", &mailmap, "use mail map file"),
		OPT_BOOL(0, "mailmap", &mailmap, "alias of --use-mailmap"),
		OPT_GROUP("Batch objects requested on stdin "
			  "(or --batch-all-objects)"),
		OPT_BATCH("batch", &batch,
			  "show full <object> or <rev> contents",
			  BATCH_CONTENTS),
		OPT_BATCH("batch-check", &batch,
			  "like --batch, but don't emit <contents>",
			  BATCH_CHECK),
		OPT_BOOL_F('z', NULL, &nul, "stdin is NUL-terminated",
			   OPT_HIDDEN),
		OPT_BOOL('Z', NULL, &nul_out,
			 "stdin and stdout is NUL-terminated"),
		OPT_BATCH("batch-command", &batch, "read commands from stdin",
			  BATCH_COMMAND),
		OPT_MODE(0, "batch-all-objects", &cm, "with --batch[-check]: "
			 "ignores stdin, batches all known objects", 'a'),
		OPT_GROUP("Change or optimize batch output"),
		OPT_BOOL(0, "buffer", &buffer, "buffer --batch output"),
		OPT_BOOL(0, "follow-symlinks", &follow,
			 "follow in-tree symlinks"),
		OPT_BOOL(0, "unordered", &unordered,
			 "do not order objects before emitting them"),
		OPT_GROUP("Emit object (blob or tree) with conversion or "
			  "filter (stand-alone, or with batch)"),
		OPT_MODE(0, "textconv", &cm, "run textconv on object's content",
			 'c'),
		OPT_MODE(0, "filters", &cm, "run filters on object's content",
			 'w'),
		OPT_STRING(0, "path", &path, "blob|tree",
			   "use a <path> for (--textconv | --filters); Not "
			   "with 'batch'"),
		OPT_CALLBACK(0, "filter", &filter, "args", "object filtering",
			     opt_filter),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, cat_file_usage, 0);

	/* git 2.50: cat-file applies three kinds of filter, in batches */
	switch (filter.choice) {
	case OBJECT_FILTER_NONE:
		break;
	case OBJECT_FILTER_BLOB_NONE:
	case OBJECT_FILTER_BLOB_LIMIT:
	case OBJECT_FILTER_OBJECT_TYPE:
		if (!batch.mode)
			usage_plain("objects filter only supported in batch "
				    "mode");
		break;
	default:
		usage_plain("objects filter not supported: '%s'",
			    object_filter_name(filter.choice));
	}
	if (path && cm.mode != 'c' && cm.mode != 'w')
		usage_fatal(opts, "'--path=<path|tree-ish>' needs '--filters' "
			    "or '--textconv'");
	if (batch.mode && cm.mode && strchr("epts", cm.mode))
		usage_fatal(opts, "'-%c' is incompatible with batch mode",
			    cm.mode);
	if (!batch.mode) {
		if (follow)
			usage_fatal(opts, "'--follow-symlinks' requires a "
				    "batch mode");
		if (buffer >= 0)
			usage_fatal(opts, "'--buffer' requires a batch mode");
		if (cm.mode == 'a')
			usage_fatal(opts, "'--batch-all-objects' requires a "
				    "batch mode");
		if (nul)
			usage_fatal(opts, "'-z' requires a batch mode");
		if (nul_out)
			usage_fatal(opts, "'-Z' requires a batch mode");
	}
	if (batch.mode && argc && cm.mode != 'c' && cm.mode != 'w')
		usage_fatal(opts, "batch modes take no arguments");
	if (!batch.mode && cm.mode && !argc) {
		if (cm.mode == 'c' || cm.mode == 'w')
			usage_fatal(opts, "<rev> required with '--%s'",
				    cm.mode == 'c' ? "textconv" : "filters");
		usage_fatal(opts, "<object> required with '-%c'", cm.mode);
	}
	if (!batch.mode && cm.mode && argc > 1)
		usage_fatal(opts, "too many arguments");
	if (!batch.mode && !cm.mode && !argc)
		usage_with_options(cat_file_usage, opts);
	if (!batch.mode && !cm.mode && argc != 2)
		usage_fatal(opts, "only two arguments allowed in <type> "
			    "<object> mode, not %d", argc);

	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	mu.repo = &repo;
	if (mailmap)
		mailmap_use_on(&mu);

	if (batch.mode) {
		struct batch b = {
			.repo = &repo, .odb = odb, .mode = batch.mode,
			.follow = follow, .nul = nul || nul_out,
			.delim = nul_out ? '\0' : '\n',
			.all = cm.mode == 'a', .filter = &filter, .mu = &mu,
			/* as git: --batch-all-objects buffers unless --no-buffer */
			.buffer = buffer < 0 ? cm.mode == 'a' : buffer > 0,
			.cmdmode = cm.mode == 'a' ? 0 : cm.mode,
		};

		/* git ignores the arguments with --textconv/--filters */
		ret = run_batch(&b, batch.format, cm.mode == 'a', unordered);
		mailmap_release(&mu.map);
		repo_release(&repo);
		return ret;
	}

	if (unknown_type && cm.mode != 't' && cm.mode != 's')
		die("git cat-file --allow-unknown-type: use with -s or -t");
	switch (cm.mode) {
	case 'c':
	case 'w':
		ret = show_converted(&repo, odb, cm.mode, argv[0], path, &mu);
		break;
	case 'e':
		resolve_or_die(&oid, &repo, argv[0]);
		ret = odb_has(odb, &oid) ? 0 : 1;
		break;
	case 't':
	case 's':
		resolve_or_die(&oid, &repo, argv[0]);
		ret = show_type_or_size(odb, &oid, cm.mode, unknown_type,
					&mu);
		break;
	case 'p':
		resolve_or_die(&oid, &repo, argv[0]);
		ret = pretty_print(&repo, odb, &oid, argv[0], &mu);
		break;
	default:
		resolve_or_die(&oid, &repo, argv[1]);
		ret = show_as_type(odb, &oid, argv[0], argv[1], &mu);
		break;
	}
	mailmap_release(&mu.map);
	repo_release(&repo);
	return ret;
}
