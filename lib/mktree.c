/*
 * mktree: parsing ls-tree lines and writing the tree they describe.
 *
 * A line, checked in git's order (the first failure is the message):
 *
 *   <mode>      strtoul(…, 8), followed by exactly one ' '
 *   <type>      up to the next ' '
 *   <id>        40 hex digits, followed by '\t'   (else "input format
 *                                                   error: <line>")
 *   <name>      the rest; "…" is unquoted unless -z ("invalid quoting")
 *
 * then the type against the mode, the stored object against both, and
 * last a '/' in the name.  Names are kept in one buffer; an entry is
 * its offset, so a tree of many entries allocates a handful of times.
 */
#include "mktree.h"

#include <sys/stat.h>

#include "error.h"
#include "object.h"
#include "odb.h"
#include "quote.h"
#include "tree.h"

void
mktree_init(struct mktree *mt)
{
	memset(mt, 0, sizeof(*mt));
	strbuf_init(&mt->names, 0);
	strbuf_init(&mt->scratch, 0);
}

void
mktree_release(struct mktree *mt)
{
	free(mt->entries);
	strbuf_release(&mt->names);
	strbuf_release(&mt->scratch);
	mktree_init(mt);
}

/* The object type a tree entry of this mode names. */
static enum object_type
mode_type(unsigned mode)
{
	if (S_ISDIR(mode))
		return OBJ_TREE;
	if (S_ISGITLINK(mode))
		return OBJ_COMMIT;
	return OBJ_BLOB;
}

static int
format_error(const char *line)
{
	return error_set(E_INVALID, "input format error: %s", line);
}

int
mktree_add_line(struct mktree *mt, struct odb *odb, const char *line,
		unsigned flags)
{
	const char *type, *sp, *hex, *name;
	struct object_id oid;
	struct mktree_entry *e;
	enum object_type want, given, stored;
	size_t type_len, len, size;
	unsigned long mode;
	char *end;
	int missing_ok = flags & MKTREE_MISSING;

	mode = strtoul(line, &end, 8);
	if (end == line || *end != ' ')
		return format_error(line);
	type = end + 1;
	sp = strchr(type, ' ');
	if (!sp)
		return format_error(line);
	hex = sp + 1;
	if (strnlen(hex, HASH_HEXSZ) < (size_t)HASH_HEXSZ ||
	    hex_to_oid(&oid, hex) ||
	    hex[HASH_HEXSZ] != '\t')
		return format_error(line);
	type_len = sp - type;
	name = hex + HASH_HEXSZ + 1;

	if (S_ISGITLINK((unsigned)mode))
		missing_ok = 1;	/* a submodule's commit is not ours */
	if (!(flags & MKTREE_NUL) && *name == '"') {
		const char *qend;

		if (unquote_c_style(&mt->scratch, name, &qend))
			return error_set(E_INVALID, "invalid quoting");
		name = mt->scratch.buf;	/* read up to its first NUL */
	}
	len = strlen(name);

	want = mode_type((unsigned)mode);
	given = type_from_name(type, type_len);
	if (given == OBJ_BAD)
		return error_set(E_INVALID, "invalid object type \"%.*s\"",
				 (int)type_len, type);
	if (given != want)
		return error_set(E_INVALID, "entry '%s' object type (%.*s) "
				 "doesn't match mode type (%s)", name,
				 (int)type_len, type, type_name(want));
	if (odb_read_info(&stored, &size, NULL, 0, odb, &oid, 0) < 0) {
		error_clear();
		if (!missing_ok)
			return error_set(E_INVALID, "entry '%s' object %s is "
					 "unavailable", name, oid_to_hex(&oid));
	} else if (stored != want) {
		return error_set(E_INVALID, "entry '%s' object %s is a %s but "
				 "specified type was (%s)", name,
				 oid_to_hex(&oid), type_name(stored),
				 type_name(want));
	}
	if (memchr(name, '/', len))
		return error_set(E_INVALID, "path %s contains slash", name);

	ALLOC_GROW(mt->entries, mt->nr + 1, mt->alloc);
	e = &mt->entries[mt->nr];
	e->mode = (unsigned)mode;
	e->oid = oid;
	e->name = mt->names.len;
	e->len = len;
	e->order = mt->nr++;
	strbuf_add(&mt->names, name, len + 1);
	return 0;
}

static int
entry_cmp(const void *va, const void *vb)
{
	const struct mktree_entry *a = va, *b = vb;
	int c = tree_name_cmp(a->str, a->len, a->mode, b->str, b->len,
			      b->mode);

	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

int
mktree_write(struct object_id *out, struct mktree *mt, struct odb *odb)
{
	struct strbuf *buf = &mt->scratch;
	int ret;

	for (size_t i = 0; i < mt->nr; i++)
		mt->entries[i].str = mt->names.buf + mt->entries[i].name;
	sort_array(mt->entries, mt->nr, sizeof(*mt->entries), entry_cmp);
	strbuf_reset(buf);
	for (size_t i = 0; i < mt->nr; i++) {
		const struct mktree_entry *e = &mt->entries[i];

		strbuf_addf(buf, "%o ", e->mode);
		strbuf_add(buf, e->str, e->len + 1);
		strbuf_add(buf, e->oid.hash, HASH_RAWSZ);
	}
	ret = odb_write(odb, &odb->writer, "tree", buf->buf, buf->len, out);
	if (ret >= 0)
		ret = odb_flush(odb);
	mt->nr = 0;
	strbuf_reset(&mt->names);
	return ret < 0 ? ret : 0;
}
