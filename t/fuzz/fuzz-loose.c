/*
 * fuzz-loose: a loose object file's bytes — zlib inflate, the
 * "<type> <size>\0" header, the size and end-of-stream checks — through
 * odb_loose_parse() and odb_loose_parse_info() (what odb_read and
 * odb_read_info do after mapping the file), and the header parser
 * odb_parse_header() on the raw bytes.
 *
 * The input is tried twice: as a loose file, and as the plain bytes of
 * an object that the target deflates itself (so that mutations reach
 * what lies behind zlib).
 *
 * Invariants checked:
 *   - a header that parses is the canonical one odb_header() writes;
 *   - plain bytes deflated read back exactly when the header parses and
 *     its size is that of the rest;
 *   - an object of a known type that parses gives the same type and
 *     size through odb_loose_parse_info(), verifies against the id
 *     odb_hash() computes, and parses the same when deflated again.
 */
#include "fuzz.h"

#include <zlib.h>

#include "error.h"
#include "object.h"
#include "odb.h"

static void
check_header(const uint8_t *data, size_t size)
{
	char type[64], canon[ODB_HEADER_MAX + 64];
	uint64_t len;
	ssize_t hlen = odb_parse_header(data, size, type, sizeof(type), &len);

	if (hlen < 0)
		return;
	if ((size_t)hlen > size || data[hlen - 1] != '\0')
		BUG("header length %zd is wrong", hlen);
	/* a type with a NUL in it, or truncated: nothing to compare */
	if ((const uint8_t *)memchr(data, ' ', size) - data !=
	    (ptrdiff_t)strlen(type))
		return;
	if (odb_header(canon, sizeof(canon), type, len) != (size_t)hlen ||
	    memcmp(canon, data, hlen))
		BUG("header '%s' is not canonical", canon);
}

static void
redeflate(const struct odb_object *obj, const struct object_id *oid)
{
	char hdr[ODB_HEADER_MAX];
	size_t hlen = odb_header(hdr, sizeof(hdr), obj->type_name, obj->size);
	unsigned char *raw = xmalloc(st_add(hlen, obj->size));
	uLongf zlen = compressBound(hlen + obj->size);
	unsigned char *z = xmalloc(zlen);
	struct odb_object again;

	memcpy(raw, hdr, hlen);
	memcpy(raw + hlen, obj->data, obj->size);
	if (compress2(z, &zlen, raw, hlen + obj->size, 1) != Z_OK)
		BUG("compress2 failed");
	if (odb_loose_parse(&again, z, zlen, oid, "redeflated",
			    ODB_READ_VERIFY) < 0)
		BUG("a re-deflated object does not parse: %s", error_msg());
	if (again.type != obj->type || again.size != obj->size ||
	    memcmp(again.data, obj->data, obj->size))
		BUG("a re-deflated object reads differently");
	odb_object_release(&again);
	free(raw);
	free(z);
}

/*
 * The input as an object's plain bytes, deflated here: mutations of the
 * header and the content reach the checks behind zlib.  It reads back
 * exactly when its header is sound and announces the bytes that follow.
 */
static void
check_plain(const uint8_t *data, size_t size)
{
	uLongf zlen = compressBound(size);
	unsigned char *z = xmalloc(zlen);
	struct odb_object obj;
	char type[64];
	uint64_t len;
	ssize_t hlen;
	int ret, sound;

	if (compress2(z, &zlen, data, size, 1) != Z_OK)
		BUG("compress2 failed");
	hlen = odb_parse_header(data, size, type, sizeof(type), &len);
	/* (a header longer than odb_loose_parse's 8 KB buffer is refused) */
	sound = hlen >= 0 && hlen <= 8192 && len == size - hlen;
	ret = odb_loose_parse(&obj, z, zlen, &null_oid, "plain",
			      ODB_READ_ANY_TYPE);
	if (sound != !ret)
		BUG("plain object %s, but %s", sound ? "sound" : "unsound",
		    ret ? error_msg() : "it reads");
	if (!ret && (obj.size != len || memcmp(obj.data, data + hlen, len)))
		BUG("plain object reads back other bytes");
	if (!ret)
		odb_object_release(&obj);
	error_clear();
	free(z);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct odb_object obj;
	struct object_id oid;
	enum object_type type;
	size_t isize;
	char tbuf[64];
	int ret, info;

	check_header(data, size);
	check_plain(data, size);

	ret = odb_loose_parse(&obj, data, size, &null_oid, "fuzz",
			      ODB_READ_ANY_TYPE);
	info = odb_loose_parse_info(&type, &isize, tbuf, sizeof(tbuf), data,
				    size, &null_oid, "fuzz",
				    ODB_READ_ANY_TYPE);
	error_clear();
	if (ret < 0)
		return 0;
	if (obj.data[obj.size] != '\0')
		BUG("object data not NUL-terminated");
	if (obj.type != OBJ_BAD) {
		struct odb_object verified;

		if (info < 0 || type != obj.type || isize != obj.size)
			BUG("odb_loose_parse_info disagrees");
		odb_hash(&oid, obj.type_name, obj.data, obj.size);
		if (odb_loose_parse(&verified, data, size, &oid, "fuzz",
				    ODB_READ_VERIFY) < 0)
			BUG("the object does not verify: %s", error_msg());
		odb_object_release(&verified);
		redeflate(&obj, &oid);
	}
	odb_object_release(&obj);
	return 0;
}
