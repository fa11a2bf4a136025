/*
 * fuzz-pack: a whole pack — .idx and .pack together — read as dirc
 * reads packed objects: pack_open_buffer() and pack_map_buffer(), then
 * for every object of the index pack_object_info() (type and size,
 * following delta chains), pack_object_disk_size() and
 * pack_read_object() (headers, inflate, offset and reference delta
 * chains, the delta base cache), then pack_verify() as "verify-pack -v".
 *
 * Input: a 4-byte big-endian length n, n bytes of .idx without its two
 * trailing checksums, then the .pack without its trailing checksum.
 * The harness appends the checksums (the .pack's, which the .idx
 * repeats, and the .idx's own), so that mutations reach the objects
 * rather than dying at a checksum; make-corpus.sh strips them.
 *
 * Invariants checked:
 *   - pack_read_object() gives the type and size pack_object_info()
 *     announced, NUL-terminated;
 *   - reading an object twice (the second time through the delta base
 *     cache) gives the same bytes.
 */
#include "fuzz.h"

#include "error.h"
#include "object.h"
#include "pack.h"

/* Objects larger than this are not read (a delta can claim gigabytes). */
#define MAX_OBJECT (16u << 20)

/*
 * The object store around the pack, as the odb's: the pack itself (ctx)
 * but for the copies marked bad; then an id whose first byte is odd is
 * stored loose as a small blob (so that a damaged base is read from
 * "another copy"), any other is nowhere.
 */
static int
find_loose_odd(void *ctx, const struct object_id *oid, struct pack **p,
	       uint64_t *off, int *type, unsigned char **data, size_t *size)
{
	static const char blob[] = "a loose copy\n";
	struct pack *self = ctx;
	uint32_t n;

	if (pack_find(self, oid, &n) && (*off = pack_nth_offset(self, n)) &&
	    !pack_is_bad(self, *off)) {
		*p = self;
		return 1;
	}
	if (!(oid->hash[0] & 1))
		return error_set(E_NOTFOUND, "object %s not found",
				 oid_to_hex(oid));
	*type = OBJ_BLOB;
	if (data) {
		*data = xmemdupz(blob, sizeof(blob) - 1);
		*size = sizeof(blob) - 1;
	}
	return 0;
}

static void
read_all(struct pack *p, const struct pack_env *env)
{
	for (uint32_t n = 0; n < p->nr; n++) {
		uint64_t off = pack_nth_offset(p, n);
		unsigned char *data, *again;
		size_t size, size2, info_size;
		int type, type2, info_type;

		if (pack_object_info(env, p, off, &info_type, &info_size,
				     NULL) < 0) {
			error_clear();
			continue;
		}
		pack_object_disk_size(p, off);
		if (info_size > MAX_OBJECT)
			continue;
		if (pack_read_object(env, p, off, &type, &data, &size) < 0) {
			error_clear();
			continue;
		}
		if (type != info_type || size != info_size)
			BUG("object %u: info says %d/%zu, reading gives %d/%zu",
			    n, info_type, info_size, type, size);
		if (data[size] != '\0')
			BUG("object %u is not NUL-terminated", n);
		if (pack_read_object(env, p, off, &type2, &again, &size2) < 0)
			BUG("object %u read once, not twice: %s", n,
			    error_msg());
		if (type2 != type || size2 != size ||
		    memcmp(again, data, size))
			BUG("object %u reads differently the second time", n);
		free(again);
		free(data);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf idx = STRBUF_INIT, pk = STRBUF_INIT, out = STRBUF_INIT;
	struct pack_env env = { .ctx = NULL, .find = find_loose_odd };
	unsigned char sum[HASH_MAX_RAWSZ];
	struct pack *p;
	size_t n;

	if (size < 4)
		return 0;
	n = get_be32(data);
	if (n > size - 4)
		return 0;
	strbuf_add(&idx, data + 4, n);
	strbuf_add(&pk, data + 4 + n, size - 4 - n);
	hash_buffer(sum, pk.buf, pk.len);
	strbuf_add(&pk, sum, HASH_RAWSZ);
	strbuf_add(&idx, sum, HASH_RAWSZ);
	hash_buffer(sum, idx.buf, idx.len);
	strbuf_add(&idx, sum, HASH_RAWSZ);

	if (pack_open_buffer(&p, idx.buf, idx.len, "fuzz.idx") < 0)
		goto out;
	if (pack_map_buffer(p, pk.buf, pk.len) < 0)
		goto close;
	env.ctx = p;
	read_all(p, &env);
	pack_verify(&env, p, &out, 1);
close:
	pack_close(p);
	/* nothing may outlive the input: libFuzzer's leak check is per run */
	pack_cache_clear();
out:
	error_clear();
	strbuf_release(&idx);
	strbuf_release(&pk);
	strbuf_release(&out);
	return 0;
}
