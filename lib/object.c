/*
 * object: object types, headers and ids.
 */
#include "object.h"

#include "trace.h"

static const char *const type_names[] = {
	[OBJ_COMMIT] = "commit",
	[OBJ_TREE] = "tree",
	[OBJ_BLOB] = "blob",
	[OBJ_TAG] = "tag",
};

const char *
type_name(enum object_type type)
{
	if (type < 0 || (size_t)type >= ARRAY_SIZE(type_names))
		return NULL;
	return type_names[type];
}

enum object_type
type_from_name(const char *s, size_t len)
{
	for (size_t i = 1; i < ARRAY_SIZE(type_names); i++)
		if (type_names[i] && strlen(type_names[i]) == len &&
		    !memcmp(s, type_names[i], len))
			return i;
	return OBJ_BAD;
}

size_t
odb_header(char *buf, size_t bufsize, const char *type, uint64_t size)
{
	int n = snprintf(buf, bufsize, "%s %llu", type,
			 (unsigned long long)size);

	if (n < 0 || (size_t)n >= bufsize)
		BUG("object header for type '%s' does not fit", type);
	return n + 1;
}

ssize_t
odb_parse_header(const unsigned char *hdr, size_t len, char *type_out,
		 size_t type_size, uint64_t *size)
{
	const unsigned char *sp = memchr(hdr, ' ', len), *p;
	uint64_t v = 0;

	if (!sp || sp == hdr)
		return -1;
	if (type_out && type_size) {
		size_t tl = MIN((size_t)(sp - hdr), type_size - 1);

		memcpy(type_out, hdr, tl);
		type_out[tl] = '\0';
	}
	p = sp + 1;
	if (p >= hdr + len || *p < '0' || *p > '9')
		return -1;
	if (*p == '0' && p + 1 < hdr + len && p[1] != '\0')
		return -1;	/* no leading zeros */
	for (; p < hdr + len && *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (p >= hdr + len || *p != '\0')
		return -1;
	*size = v;
	return p + 1 - hdr;
}

void
odb_hdr_init(struct odb_hdr *h, const char *type, uint64_t size)
{
	/* the type, a space, at most 20 digits and the NUL */
	size_t need = st_add(strlen(type), 1 + 20 + 1);

	h->buf = need <= sizeof(h->inline_buf) ? h->inline_buf :
		xmalloc(need);
	h->len = odb_header(h->buf, MAX(need, sizeof(h->inline_buf)), type,
			    size);
}

void
odb_hdr_release(struct odb_hdr *h)
{
	if (h->buf != h->inline_buf)
		free(h->buf);
	h->buf = NULL;
	h->len = 0;
}

void
odb_hash(struct object_id *out, const char *type, const void *data,
	 size_t len)
{
	struct hasher *h = hasher_thread();
	struct odb_hdr hdr;

	odb_hdr_init(&hdr, type, len);
	hasher_begin(h);
	hasher_update(h, hdr.buf, hdr.len);
	odb_hdr_release(&hdr);
	hasher_update(h, data, len);
	hasher_final(h, out->hash);
	trace_count(TC_OBJECTS_HASHED, 1);
	trace_count(TC_BYTES_HASHED, len);
}

