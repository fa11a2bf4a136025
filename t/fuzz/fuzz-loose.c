/*
 * fuzz-loose: a loose object file's bytes — zlib inflate, the
 * "<type> <size>\0" header, the size and end-of-stream checks — through
 * odb_loose_parse() and odb_loose_parse_info() (what odb_read and
 * odb_read_info do after mapping the file), and the header parser
 * odb_parse_header() on the raw bytes.
 *
 * Invariants checked:
 *   - a header that parses is the canonical one odb_header() writes;
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
