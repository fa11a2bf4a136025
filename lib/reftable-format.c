/*
 * reftable-format: the bytes of one reftable file, read and written.
 *
 * File layout (all integers big-endian):
 *
 *   offset  size   meaning
 *   0       4      "REFT"
 *   4       1      version: 1 (SHA-1) or 2 (hash id follows)
 *   5       3      block size
 *   8       8      min update index
 *   16      8      max update index
 *   24      4      version 2 only: hash id, "sha1" or "s256"
 *   H       ...    blocks: ref blocks, [ref index], [obj blocks, [obj
 *                  index]], [log blocks, [log index]]; the first block
 *                  shares its bytes with the header (its offset is 0 and
 *                  its type byte sits at H)
 *   end-F   F      footer: the header again, then ref index offset (8),
 *                  obj offset << 5 | obj id length (8), obj index offset
 *                  (8), log offset (8), log index offset (8), CRC-32 of
 *                  all the footer before it (4).  F = H + 44.
 *
 * A block: type (1), length (3, counted from the block's offset, so the
 * first block's length includes the file header), records, restart
 * offsets (3 each), restart count (2).  Ref, obj and index blocks are
 * padded with zeros to the block size except the last one before the
 * log section or the footer; a log block holds its length uncompressed,
 * and everything after its 4-byte header is one zlib stream, unpadded.
 *
 * A record: varint prefix length (bytes shared with the previous key;
 * 0 at a restart), varint (suffix length << 3 | value type), suffix,
 * value.  Values:
 *   ref   varint update index - min; type 1: id; 2: id, peeled id;
 *         3: varint length, target; 0: nothing (a deletion)
 *   log   key is name NUL (~update index, 8 bytes); type 1: old id, new
 *         id, varint+name, varint+email, varint time, tz (2, signed),
 *         varint+message; type 0: nothing (a tombstone)
 *   obj   key is an id prefix; count in the type (1-7) or a varint
 *         after the key (type 0), then count block offsets, the first
 *         absolute and the rest as deltas
 *   index key is the last key of the block, varint block offset
 *
 * Reading checks every length against the buffer; anything out of
 * bounds is -E_CORRUPT naming the table.
 */
#include "reftable-format.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "error.h"
#include "mempool.h"

void
reftable_ref_release(struct reftable_ref *ref)
{
	free(ref->name);
	free(ref->target);
	memset(ref, 0, sizeof(*ref));
}

void
reftable_log_release(struct reftable_log *log)
{
	free(log->name);
	free(log->who);
	free(log->email);
	free(log->message);
	memset(log, 0, sizeof(*log));
}

#define RT_MAX_RESTARTS 65535
#define RT_DEFAULT_BLOCK_SIZE 4096
#define RT_DEFAULT_RESTART_INTERVAL 16
#define RT_ID_SHA1 0x73686131u		/* "sha1" */
#define RT_ID_SHA256 0x73323536u	/* "s256" */

static size_t
footer_len(int version)
{
	return version == 1 ? 68 : 72;
}

static int
corrupt(const struct rt_table *t, const char *what)
{
	return error_set(E_CORRUPT, "reftable '%s' is corrupt: %s", t->path,
			 what);
}

static uint32_t
get_be24(const unsigned char *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static void
put_be24(unsigned char *p, uint32_t v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

static void
put_be64(unsigned char *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, (uint32_t)v);
}

int
rt_varint_decode(const unsigned char **p, const unsigned char *end,
		 uint64_t *out)
{
	const unsigned char *q = *p;
	uint64_t v;

	if (q >= end)
		return -1;
	v = *q & 127;
	while (*q++ & 128) {
		/* each continuation adds one; refuse what passes 64 bits */
		v++;
		if (!v || (v >> 57) || q >= end)
			return -1;
		v = (v << 7) | (*q & 127);
	}
	*p = q;
	*out = v;
	return 0;
}

/*
 * The n bytes of t at off (off + n <= t->len): in memory, or through the
 * source (into buf, unless it has them in memory).  0 or a negative E_*.
 */
static int
table_bytes(const struct rt_table *t, uint64_t off, size_t n,
	    struct strbuf *buf, const unsigned char **out)
{
	if (t->data) {
		*out = t->data + off;
		return 0;
	}
	return t->src->read(t->src, off, n, buf, out);
}

#define RT_HEAD_READ 29		/* the longer header and a block type */
#define RT_FOOTER_MAX 72

/* The header and footer of a table (head: RT_HEAD_READ bytes). */
static int
table_check(struct rt_table *out, const unsigned char *head,
	    const unsigned char *f)
{
	size_t flen = footer_len(out->version);
	uint32_t id;
	uint64_t obj;

	if (memcmp(f, head, out->hdr_len))
		return corrupt(out, "footer does not repeat the header");
	if (crc32(0, f, flen - 4) != get_be32(f + flen - 4))
		return corrupt(out, "footer checksum mismatch");
	id = out->version == 1 ? RT_ID_SHA1 : get_be32(head + 24);
	if (id != out->algo->format_id)
		return error_set(E_CORRUPT,
				 "reftable '%s' is corrupt: its hash is not %s",
				 out->path, out->algo->name);
	out->block_size = get_be24(head + 5);
	out->min_index = get_be64(head + 8);
	out->max_index = get_be64(head + 16);
	f += out->hdr_len;
	obj = get_be64(f + 8);
	out->log_off = get_be64(f + 24);
	out->ref_index_off = get_be64(f);
	out->log_index_off = get_be64(f + 32);
	if ((obj >> 5) >= out->end || out->log_off >= out->end ||
	    get_be64(f) >= out->end || get_be64(f + 16) >= out->end ||
	    get_be64(f + 32) >= out->end)
		return corrupt(out, "section offset out of range");
	if (out->end > out->hdr_len) {
		unsigned char first = head[out->hdr_len];

		out->has_refs = first == RT_BLOCK_REF;
		out->has_logs = first == RT_BLOCK_LOG || out->log_off > 0;
		if (first != RT_BLOCK_REF && first != RT_BLOCK_LOG)
			return corrupt(out, "first block is not refs or logs");
		if (first == RT_BLOCK_LOG && out->log_off)
			return corrupt(out, "log offset out of range");
	}
	return 0;
}

static int
table_parse(struct rt_table *out, const char *path, unsigned char *data,
	    struct rt_source *src, size_t len, const struct hash_algo *algo)
{
	unsigned char head[RT_HEAD_READ], f[RT_FOOTER_MAX];
	struct strbuf buf = STRBUF_INIT;
	const unsigned char *p;
	const char *slash;
	size_t flen;
	int ret;

	memset(out, 0, sizeof(*out));
	out->path = xstrdup(path);
	slash = strrchr(out->path, '/');
	out->name = slash ? slash + 1 : out->path;
	out->data = data;
	out->src = data ? NULL : src;
	out->len = len;
	out->algo = algo;
	if (len < 24 + 68)
		return corrupt(out, "too short");
	/* both header lengths and the first block's type fit in 92 bytes */
	ret = table_bytes(out, 0, sizeof(head), &buf, &p);
	if (ret < 0)
		goto done;
	memcpy(head, p, sizeof(head));
	if (memcmp(head, "REFT", 4)) {
		ret = corrupt(out, "bad magic");
		goto done;
	}
	out->version = head[4];
	if (out->version != 1 && out->version != 2) {
		ret = corrupt(out, "unknown version");
		goto done;
	}
	out->hdr_len = out->version == 1 ? 24 : 28;
	flen = footer_len(out->version);
	if (len < out->hdr_len + flen) {
		ret = corrupt(out, "too short");
		goto done;
	}
	out->end = len - flen;
	ret = table_bytes(out, out->end, flen, &buf, &p);
	if (ret < 0)
		goto done;
	memcpy(f, p, flen);
	ret = table_check(out, head, f);
done:
	strbuf_release(&buf);
	return ret;
}

static int
mem_read(struct rt_source *src, uint64_t off, size_t n, struct strbuf *buf,
	 const unsigned char **out)
{
	struct rt_mem_source *m = (struct rt_mem_source *)src;

	if (off > m->len || n > m->len - off)
		return error_set(E_INVALID, "read past the end: %zu at %llu "
				 "of %zu", n, (unsigned long long)off, m->len);
	if (++m->reads == m->fail_at)
		return error_set(E_IO, "read %u fails", m->reads);
	if (m->reads > m->copies) {
		*out = m->data + off;
		return 0;
	}
	strbuf_reset(buf);
	/* exactly n bytes: the sanitizer sees a read past them */
	strbuf_add(buf, m->data + off, n);
	*out = (const unsigned char *)buf->buf;
	return 0;
}

static void
mem_release(struct rt_source *src)
{
	struct rt_mem_source *m = (struct rt_mem_source *)src;

	free(m->data);
	free(m);
}

struct rt_mem_source *
rt_mem_source_new(unsigned char *data, size_t len, unsigned copies,
		  unsigned fail_at)
{
	struct rt_mem_source *m = xcalloc(1, sizeof(*m));

	m->src.read = mem_read;
	m->src.release = mem_release;
	m->data = data;
	m->len = len;
	m->copies = copies;
	m->fail_at = fail_at;
	return m;
}

int
rt_table_parse(struct rt_table *out, const char *path, unsigned char *data,
	       size_t len, const struct hash_algo *algo)
{
	return table_parse(out, path, data, NULL, len, algo);
}

int
rt_table_parse_source(struct rt_table *out, const char *path,
		      struct rt_source *src, size_t len,
		      const struct hash_algo *algo)
{
	return table_parse(out, path, NULL, src, len, algo);
}

void
rt_table_release(struct rt_table *t)
{
	free(t->path);
	free(t->data);
	if (t->src)
		t->src->release(t->src);
	memset(t, 0, sizeof(*t));
}

uint64_t
rt_table_weight(const struct rt_table *t)
{
	return t->end - (t->hdr_len - 1);
}

/*
 * Reading blocks.
 */

static void
block_release(struct rt_block *b)
{
	strbuf_release(&b->buf);
	memset(b, 0, sizeof(*b));
	strbuf_init(&b->buf, 0);
}

/* Read through a source in pieces of this much (log blocks). */
#define RT_READ_PIECE 8192

/*
 * A log block at off: its first skip bytes (hdr) are stored as they are,
 * the zlib stream after them inflates to the rest of its block_len
 * bytes.  The stream's length is known only at its end: it is fed a
 * piece at a time from a source, all at once from memory.
 */
static int
inflate_block(struct rt_block *b, const struct rt_table *t, uint64_t off,
	      const unsigned char *hdr, size_t skip, size_t block_len)
{
	struct strbuf in = STRBUF_INIT;
	uint64_t pos = off + skip;
	z_stream z;
	int zret = Z_OK, ret = 0;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return corrupt(t, "zlib init failed");
	strbuf_reset(&b->buf);
	strbuf_grow(&b->buf, block_len);
	memcpy(b->buf.buf, hdr, skip);
	z.next_out = (unsigned char *)b->buf.buf + skip;
	z.avail_out = (uInt)(block_len - skip);
	while (zret != Z_STREAM_END) {
		size_t n = MIN(t->end - pos, (uint64_t)UINT32_MAX);
		const unsigned char *p;

		if (!t->data)
			n = MIN(n, RT_READ_PIECE);
		/* the stream ran past the blocks, or wants more room */
		if (!n || (zret == Z_BUF_ERROR && z.avail_in)) {
			ret = corrupt(t, "bad compressed log block");
			break;
		}
		if (!z.avail_in) {
			ret = table_bytes(t, pos, n, &in, &p);
			if (ret < 0)
				break;
			z.next_in = (unsigned char *)p;
			z.avail_in = (uInt)n;
			pos += n;
		}
		zret = inflate(&z, Z_NO_FLUSH);
		if (zret != Z_OK && zret != Z_STREAM_END &&
		    zret != Z_BUF_ERROR) {
			ret = corrupt(t, "bad compressed log block");
			break;
		}
	}
	if (!ret && z.total_out != block_len - skip)
		ret = corrupt(t, "bad compressed log block");
	if (!ret) {
		strbuf_setlen(&b->buf, block_len);
		b->next = off + skip + z.total_in;
		b->data = (const unsigned char *)b->buf.buf;
	}
	inflateEnd(&z);
	strbuf_release(&in);
	return ret;
}

/*
 * Decode the block at file offset off.  0 with *b set, 1 if the block
 * there is not of type want (0: any) or off is past the blocks, or
 * -E_CORRUPT.
 * From a source, one read brings a padded block and the byte after it.
 */
static int
block_load(struct rt_block *b, const struct rt_table *t, uint64_t off,
	   unsigned char want)
{
	size_t skip = off ? 0 : t->hdr_len;
	size_t block_len, restarts, have;
	const unsigned char *p;
	int ret;

	if (off >= t->end)
		return 1;
	if (t->end - off < skip + 4)
		return corrupt(t, "truncated block header");
	have = t->end - off;
	if (!t->data) {
		size_t guess = t->block_size ? t->block_size
					     : RT_DEFAULT_BLOCK_SIZE;

		have = MIN(have, MAX(guess + 1, skip + 4));
	}
	ret = table_bytes(t, off, have, &b->buf, &p);
	if (ret < 0)
		return ret;
	if (want && p[skip] != want)
		return 1;
	b->type = p[skip];
	block_len = get_be24(p + skip + 1);
	if (block_len < skip + 4 + 2)
		return corrupt(t, "bad block length");
	if (b->type == RT_BLOCK_LOG) {
		unsigned char hdr[RT_HEAD_READ + 4];

		memcpy(hdr, p, skip + 4);
		ret = inflate_block(b, t, off, hdr, skip + 4, block_len);
		if (ret < 0)
			return ret;
	} else {
		uint64_t padded = off + (t->block_size ? t->block_size : block_len);

		if (block_len > t->end - off)
			return corrupt(t, "block runs past the end");
		if (have < block_len + (off + block_len < t->end)) {
			have = MIN(block_len + 1, t->end - off);
			ret = table_bytes(t, off, have, &b->buf, &p);
			if (ret < 0)
				return ret;
		}
		b->data = p;
		if (block_len < t->block_size && off + block_len < t->end &&
		    p[block_len])
			b->next = off + block_len;	/* unpadded */
		else
			b->next = MAX(padded, off + block_len);
	}
	b->off = off;
	b->len = block_len;
	restarts = get_be16(b->data + block_len - 2);
	if (3 * restarts + 2 > block_len - skip - 4)
		return corrupt(t, "bad restart count");
	b->rec_start = skip + 4;
	b->rec_end = block_len - 2 - 3 * restarts;
	return 0;
}

/*
 * block_load(), leaving b empty unless it returns 0: a read may have
 * replaced the bytes b held.
 */
static int
block_read(struct rt_block *b, const struct rt_table *t, uint64_t off,
	   unsigned char want)
{
	int ret = block_load(b, t, off, want);

	if (ret) {
		b->data = NULL;
		b->len = b->rec_start = b->rec_end = 0;
	}
	return ret;
}

/*
 * Records.
 */

void
rt_log_key(struct strbuf *out, const char *name, uint64_t update_index)
{
	unsigned char be[8];

	strbuf_reset(out);
	strbuf_add(out, name, strlen(name) + 1);
	put_be64(be, ~update_index);
	strbuf_add(out, be, 8);
}

/* Take a varint-prefixed string from [*p, end) into a new string. */
static int
take_string(char **out, const unsigned char **p, const unsigned char *end)
{
	uint64_t n;

	if (rt_varint_decode(p, end, &n) < 0 || n > (uint64_t)(end - *p))
		return -1;
	*out = xmemdupz(*p, n);
	*p += n;
	return 0;
}

static void
ref_clear(struct reftable_ref *r)
{
	reftable_ref_release(r);
}

static int
decode_ref(struct rt_iter *it, unsigned type, const unsigned char *p,
	   const unsigned char *end, size_t *used)
{
	const unsigned char *start = p;
	size_t raw = it->t->algo->rawsz;
	struct reftable_ref *r = &it->ref;
	uint64_t delta;

	ref_clear(r);
	if (rt_varint_decode(&p, end, &delta) < 0)
		return corrupt(it->t, "bad ref record");
	r->name = xmemdupz(it->key.buf, it->key.len);
	r->update_index = it->t->min_index + delta;
	r->type = type;
	switch (type) {
	case REFTABLE_REF_DELETION:
		break;
	case REFTABLE_REF_VAL1:
	case REFTABLE_REF_VAL2:
		if ((size_t)(end - p) < raw * type)
			return corrupt(it->t, "truncated ref record");
		memcpy(r->value.hash, p, raw);
		p += raw;
		if (type == REFTABLE_REF_VAL2) {
			memcpy(r->peeled.hash, p, raw);
			p += raw;
		}
		break;
	case REFTABLE_REF_SYMREF:
		if (take_string(&r->target, &p, end) < 0)
			return corrupt(it->t, "bad symref record");
		break;
	default:
		return corrupt(it->t, "unknown ref value type");
	}
	*used = p - start;
	return 0;
}

static int
decode_log(struct rt_iter *it, unsigned type, const unsigned char *p,
	   const unsigned char *end, size_t *used)
{
	const unsigned char *start = p;
	size_t raw = it->t->algo->rawsz;
	struct reftable_log *l = &it->log;
	uint64_t v;

	reftable_log_release(l);
	if (it->key.len <= 9 || it->key.buf[it->key.len - 9])
		return corrupt(it->t, "bad log key");
	l->name = xmemdupz(it->key.buf, it->key.len - 9);
	l->update_index = ~get_be64(it->key.buf + it->key.len - 8);
	if (type == 0) {
		l->deletion = 1;
		*used = 0;
		return 0;
	}
	if (type != 1)
		return corrupt(it->t, "unknown log value type");
	if ((size_t)(end - p) < 2 * raw)
		return corrupt(it->t, "truncated log record");
	memcpy(l->old_oid.hash, p, raw);
	memcpy(l->new_oid.hash, p + raw, raw);
	p += 2 * raw;
	if (take_string(&l->who, &p, end) < 0 ||
	    take_string(&l->email, &p, end) < 0 ||
	    rt_varint_decode(&p, end, &v) < 0 || end - p < 2)
		return corrupt(it->t, "bad log record");
	l->time = v;
	l->tz = (int16_t)get_be16(p);
	p += 2;
	if (take_string(&l->message, &p, end) < 0)
		return corrupt(it->t, "bad log record");
	*used = p - start;
	return 0;
}

void
rt_iter_init(struct rt_iter *it, const struct rt_table *t, unsigned char type)
{
	memset(it, 0, sizeof(*it));
	it->t = t;
	it->type = type;
	strbuf_init(&it->blk.buf, 0);
	strbuf_init(&it->key, 0);
	if (type == RT_BLOCK_REF ? !t->has_refs
	    : type == RT_BLOCK_LOG ? !t->has_logs : 0)
		it->done = 1;
	it->blk.next = type == RT_BLOCK_REF ? 0 : t->log_off;
}

void
rt_iter_release(struct rt_iter *it)
{
	block_release(&it->blk);
	strbuf_release(&it->key);
	reftable_ref_release(&it->ref);
	reftable_log_release(&it->log);
}

/* A varint, the one-byte case inline (most lengths and prefixes). */
static inline int
varint_get(const unsigned char **p, const unsigned char *end, uint64_t *out)
{
	if (*p < end && !(**p & 128)) {
		*out = *(*p)++;
		return 0;
	}
	return rt_varint_decode(p, end, out);
}

/* Skip a varint-prefixed string in [*p, end): 0, or -1. */
static int
skip_string(const unsigned char **p, const unsigned char *end)
{
	uint64_t n;

	if (varint_get(p, end, &n) < 0 || n > (uint64_t)(end - *p))
		return -1;
	*p += n;
	return 0;
}

/*
 * The length of the value (of type it->vtype) at p: what a cursor
 * passes over when it only compares keys.  0, or -E_CORRUPT.
 */
static int
value_len(struct rt_iter *it, const unsigned char *p, const unsigned char *end,
	  size_t *used)
{
	const unsigned char *start = p;
	size_t raw = it->t->algo->rawsz;
	uint64_t v;

	switch (it->type) {
	case RT_BLOCK_REF:
		if (varint_get(&p, end, &v) < 0)
			return corrupt(it->t, "bad ref record");
		switch (it->vtype) {
		case REFTABLE_REF_DELETION:
			break;
		case REFTABLE_REF_VAL1:
		case REFTABLE_REF_VAL2:
			if ((size_t)(end - p) < raw * it->vtype)
				return corrupt(it->t, "truncated ref record");
			p += raw * it->vtype;
			break;
		case REFTABLE_REF_SYMREF:
			if (skip_string(&p, end) < 0)
				return corrupt(it->t, "bad symref record");
			break;
		default:
			return corrupt(it->t, "unknown ref value type");
		}
		break;
	case RT_BLOCK_LOG:
		if (!it->vtype)
			break;
		if (it->vtype != 1)
			return corrupt(it->t, "unknown log value type");
		if ((size_t)(end - p) < 2 * raw)
			return corrupt(it->t, "truncated log record");
		p += 2 * raw;
		if (skip_string(&p, end) < 0 || skip_string(&p, end) < 0 ||
		    varint_get(&p, end, &v) < 0 || end - p < 2)
			return corrupt(it->t, "bad log record");
		p += 2;
		if (skip_string(&p, end) < 0)
			return corrupt(it->t, "bad log record");
		break;
	default:
		if (varint_get(&p, end, &v) < 0)
			return corrupt(it->t, "bad index record");
		break;
	}
	*used = p - start;
	return 0;
}

/*
 * Step to the next record and decode its key only (into it->key); its
 * value is left at it->val for decode_value().  0, 1 at the end, or
 * -E_CORRUPT.
 */
static int
iter_step(struct rt_iter *it)
{
	const unsigned char *p, *end;
	uint64_t prefix, suffix;
	size_t used = 0, n;
	int ret;

	if (it->done)
		return 1;
	while (!it->in_block || it->pos >= it->blk.rec_end) {
		uint64_t next = it->blk.next;

		ret = block_read(&it->blk, it->t, next, it->type);
		if (ret) {
			it->done = 1;
			return ret;
		}
		it->in_block = 1;
		it->pos = it->blk.rec_start;
		strbuf_reset(&it->key);
		if (it->pos >= it->blk.rec_end)
			return corrupt(it->t, "empty block");
	}
	p = it->blk.data + it->pos;
	end = it->blk.data + it->blk.rec_end;
	if (varint_get(&p, end, &prefix) < 0 ||
	    varint_get(&p, end, &suffix) < 0 || prefix > it->key.len ||
	    (suffix >> 3) > (uint64_t)(end - p) || (!prefix && !(suffix >> 3))) {
		it->done = 1;
		return corrupt(it->t, "bad record key");
	}
	n = suffix >> 3;
	if (prefix + n >= it->key.alloc)
		strbuf_grow(&it->key, prefix + n - it->key.len);
	memcpy(it->key.buf + prefix, p, n);
	it->key.len = prefix + n;
	it->key.buf[it->key.len] = '\0';
	p += n;
	it->vtype = suffix & 7;
	it->val = p - it->blk.data;
	ret = value_len(it, p, end, &used);
	if (ret < 0) {
		it->done = 1;
		return ret;
	}
	it->pos = it->val + used;
	return 0;
}

/* Decode the value of the record iter_step() stepped to. */
static int
decode_value(struct rt_iter *it)
{
	const unsigned char *p = it->blk.data + it->val;
	const unsigned char *end = it->blk.data + it->pos;
	size_t used;
	int ret;

	if (it->type == RT_BLOCK_REF) {
		ret = decode_ref(it, it->vtype, p, end, &used);
	} else if (it->type == RT_BLOCK_LOG) {
		ret = decode_log(it, it->vtype, p, end, &used);
	} else {
		ret = rt_varint_decode(&p, end, &it->index_off) < 0 ||
		      it->index_off >= it->t->end
		      ? corrupt(it->t, "bad index record") : 0;
	}
	if (ret < 0)
		it->done = 1;
	return ret;
}

int
rt_iter_next(struct rt_iter *it)
{
	int ret = iter_step(it);

	return ret ? ret : decode_value(it);
}

static int
key_cmp(const char *a, size_t alen, const void *b, size_t blen)
{
	int c = memcmp(a, b, MIN(alen, blen));

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

/* The key of the record at a restart point (off): *key, *len, in b. */
static int
restart_key(const unsigned char **key, size_t *len, const struct rt_table *t,
	    const struct rt_block *b, size_t off)
{
	const unsigned char *p = b->data + off, *end = b->data + b->rec_end;
	uint64_t prefix, suffix;

	if (off < b->rec_start || off >= b->rec_end ||
	    varint_get(&p, end, &prefix) < 0 ||
	    varint_get(&p, end, &suffix) < 0 || prefix ||
	    (suffix >> 3) > (uint64_t)(end - p) || !(suffix >> 3))
		return corrupt(t, "bad restart point");
	*key = p;
	*len = suffix >> 3;
	return 0;
}

static void
block_swap(struct rt_block *a, struct rt_block *b)
{
	struct rt_block tmp = *a;

	*a = *b;
	*b = tmp;
}

/*
 * The block held is the last of its section (the one after it is of
 * another type): a walk stops there without reading that one again.
 */
static void
block_ends_section(struct rt_block *b, const struct rt_table *t)
{
	b->next = t->end;
}

/*
 * Place the cursor of it, whose block is loaded, at the last restart
 * point whose key is <= key: the record wanted is at or after it.  0 or
 * -E_CORRUPT.
 */
static int
seek_loaded(struct rt_iter *it, const void *key, size_t len)
{
	struct rt_block *b = &it->blk;
	size_t lo = 0, hi = (b->len - 2 - b->rec_end) / 3;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, klen;
		const unsigned char *k;
		int ret = restart_key(&k, &klen, it->t, b,
				      get_be24(b->data + b->rec_end + 3 * mid));

		if (ret < 0)
			return ret;
		if (key_cmp((const char *)k, klen, key, len) > 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	it->pos = lo ? get_be24(b->data + b->rec_end + 3 * (lo - 1))
		     : b->rec_start;
	strbuf_reset(&it->key);
	it->in_block = 1;
	return 0;
}

/* The first key of a loaded block. */
static int
first_key(const unsigned char **key, size_t *len, const struct rt_table *t,
	  const struct rt_block *b)
{
	return restart_key(key, len, t, b, b->rec_start);
}

/*
 * Load into it->blk the block of its type that holds the first key >=
 * key, through the index whose top level starts at top: 0, 1 if every
 * key is smaller, or -E_CORRUPT.  Each block on the way is read once.
 */
static int
index_lookup(struct rt_iter *it, uint64_t top, const void *key, size_t len,
	     struct rt_table *hint)
{
	const struct rt_table *t = it->t;
	struct rt_block next;
	struct rt_iter idx;
	int ret;

	rt_iter_init(&idx, t, RT_BLOCK_INDEX);
	memset(&next, 0, sizeof(next));
	strbuf_init(&next.buf, 0);
	/*
	 * The top level may span several blocks (git writes up to three);
	 * start from the last one whose first key is <= key rather than
	 * scan the ones before it record by record.
	 */
	ret = block_read(&idx.blk, t, top, RT_BLOCK_INDEX);
	if (ret > 0)
		ret = corrupt(t, "index offset points to another section");
	while (!ret) {
		const unsigned char *k;
		size_t klen;

		ret = block_read(&next, t, idx.blk.next, RT_BLOCK_INDEX);
		if (ret > 0)
			block_ends_section(&idx.blk, t);
		if (ret)
			break;
		ret = first_key(&k, &klen, t, &next);
		if (ret < 0 || key_cmp((const char *)k, klen, key, len) > 0)
			break;
		block_swap(&idx.blk, &next);
	}
	if (ret > 0 && idx.blk.data)
		ret = 0;
	/* each level points to blocks before it: a bounded descent */
	for (int level = 0; !ret; level++) {
		uint64_t off;

		if (level == 64) {
			ret = corrupt(t, "index too deep");
			break;
		}
		/*
		 * the restart points bound the scan to one interval; a
		 * top level of several blocks goes on into the next
		 */
		ret = seek_loaded(&idx, key, len);
		if (ret)
			break;
		while (!(ret = iter_step(&idx)))
			if (key_cmp(idx.key.buf, idx.key.len, key, len) >= 0)
				break;
		if (!ret)
			ret = decode_value(&idx);
		if (ret)
			break;
		off = idx.index_off;
		if (off >= idx.blk.off) {
			ret = corrupt(t, "index points forward");
			break;
		}
		ret = block_read(&next, t, off, 0);
		if (ret)
			break;
		if (next.type == RT_BLOCK_INDEX) {
			/* down one level */
			block_swap(&idx.blk, &next);
			idx.done = 0;
			continue;
		}
		if (next.type != it->type) {
			ret = corrupt(t, "index points to another section");
			break;
		}
		/* the index record's key is the block's last */
		if (hint && idx.key.len <= sizeof(hint->hint_key)) {
			hint->hint_off = off;
			hint->hint_len = idx.key.len;
			memcpy(hint->hint_key, idx.key.buf, idx.key.len);
		}
		block_swap(&it->blk, &next);
		break;
	}
	block_release(&next);
	rt_iter_release(&idx);
	return ret;
}

/*
 * Load into it->blk the ref block of t's hint if it holds key (between
 * its first key and its last): 1 if so, else 0.
 */
static int
hint_load(struct rt_iter *it, const void *key, size_t len)
{
	const struct rt_table *t = it->t;
	const unsigned char *first;
	size_t flen;

	if (key_cmp((const char *)t->hint_key, t->hint_len, key, len) < 0)
		return 0;
	if (block_read(&it->blk, t, t->hint_off, RT_BLOCK_REF) ||
	    first_key(&first, &flen, t, &it->blk) < 0) {
		error_clear();
		return 0;
	}
	return key_cmp((const char *)first, flen, key, len) <= 0;
}

/*
 * Load into it->blk the last block of its section whose first key is
 * <= key (the first block when none is), reading from the section's
 * start: 0, 1 for an empty section, or -E_CORRUPT.
 */
static int
scan_blocks(struct rt_iter *it, const void *key, size_t len)
{
	struct rt_block next;
	uint64_t off = it->blk.next;
	int loaded = 0, ret;

	memset(&next, 0, sizeof(next));
	strbuf_init(&next.buf, 0);
	for (;;) {
		const unsigned char *k;
		size_t klen;
		int after;

		ret = block_read(&next, it->t, off, it->type);
		if (ret > 0 && loaded)
			block_ends_section(&it->blk, it->t);
		if (ret)
			break;
		ret = first_key(&k, &klen, it->t, &next);
		if (ret < 0)
			break;
		after = key_cmp((const char *)k, klen, key, len) > 0;
		if (after && loaded)
			break;
		block_swap(&it->blk, &next);
		loaded = 1;
		if (after)
			break;
		off = it->blk.next;
	}
	block_release(&next);
	return ret < 0 ? ret : !loaded;
}

int
rt_iter_seek(struct rt_iter *it, const void *key, size_t len)
{
	uint64_t top = it->type == RT_BLOCK_REF ? it->t->ref_index_off
						: it->t->log_index_off;
	int ret;

	if (it->done)
		return 1;
	if (top && it->type == RT_BLOCK_REF && it->t->hint_len &&
	    hint_load(it, key, len)) {
		ret = 0;
	} else if (top) {
		/* the hint is a cache, not part of the table's contents */
		struct rt_table *hint = it->type == RT_BLOCK_REF ?
					(struct rt_table *)it->t : NULL;

		ret = index_lookup(it, top, key, len, hint);
	} else {
		ret = scan_blocks(it, key, len);
	}
	if (!ret)
		ret = seek_loaded(it, key, len);
	if (ret) {
		it->done = 1;
		return ret;
	}
	while ((ret = iter_step(it)) == 0)
		if (key_cmp(it->key.buf, it->key.len, key, len) >= 0)
			return decode_value(it);
	return ret;
}

/*
 * Writing.  Mirrors the order of operations of git's writer so that the
 * same records give the same bytes: a block is filled until the next
 * record (with the restart table) would not fit, then flushed; padding
 * is written only when something follows it in the same run of padded
 * blocks; an index is written over a section of more than 3 blocks
 * (again over the index while its level has more than 3 blocks); the
 * obj section only when the ref section got an index.
 */

struct idx_entry {
	struct strbuf key;
	uint64_t off;
};

struct obj_entry {
	struct object_id oid;
	uint64_t off;
};

struct section_stats {
	uint64_t blocks;
	uint64_t offset;		/* of the first block */
	uint64_t index_offset;		/* of the index's top level */
};

struct rt_writer {
	struct strbuf *out;
	size_t pending_pad;
	const struct hash_algo *algo;
	int version;
	size_t hdr_len;
	uint32_t block_size;
	unsigned restart_interval;
	int index_objects;
	int exact_messages;
	uint64_t min, max;

	/* the block being filled */
	unsigned char *blk;		/* owned; block_size bytes */
	unsigned char blk_type;		/* 0: none */
	size_t blk_hdr, blk_next;
	size_t entries;
	uint32_t *restarts;		/* owned */
	size_t nrestart, restart_alloc;
	struct strbuf blk_last;		/* last key in the block */

	struct strbuf last_key;		/* last ref or log key (order) */
	struct idx_entry *idx;		/* owned; of the current section */
	size_t nidx, idx_alloc;
	struct obj_entry *objs;		/* owned */
	size_t nobj, obj_alloc;
	unsigned obj_id_len;
	struct section_stats ref, obj, log, index;
	struct strbuf scratch;
	z_stream z;			/* for log blocks, once z_live */
	int z_live;
	int in_logs;			/* a log was added: no more refs */
	struct strbuf key, val;		/* the record being added */
};

static uint64_t
w_next(const struct rt_writer *w)
{
	return w->out->len + w->pending_pad;
}

static void
block_start(struct rt_writer *w, unsigned char type)
{
	w->blk_hdr = w_next(w) ? 0 : w->hdr_len;
	w->blk_type = type;
	w->blk[w->blk_hdr] = type;
	w->blk_next = w->blk_hdr + 4;
	w->entries = 0;
	w->nrestart = 0;
	strbuf_reset(&w->blk_last);
}

static void
put_header(const struct rt_writer *w, unsigned char *p)
{
	memcpy(p, "REFT", 4);
	p[4] = w->version;
	put_be24(p + 5, w->block_size);
	put_be64(p + 8, w->min);
	put_be64(p + 16, w->max);
	if (w->version == 2)
		put_be32(p + 24, w->algo->format_id);
}

static size_t
varint_put(unsigned char *buf, uint64_t v)
{
	unsigned char tmp[16];
	int pos = sizeof(tmp) - 1;

	tmp[pos] = v & 127;
	while (v >>= 7)
		tmp[--pos] = 128 | (--v & 127);
	memcpy(buf, tmp + pos, sizeof(tmp) - pos);
	return sizeof(tmp) - pos;
}

static void
sb_varint(struct strbuf *sb, uint64_t v)
{
	unsigned char buf[16];

	strbuf_add(sb, buf, varint_put(buf, v));
}

static void
sb_string(struct strbuf *sb, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	sb_varint(sb, n);
	strbuf_add(sb, s, n);
}

/*
 * Add a record (key, value type, encoded value) to the current block.
 * 0, or 1 if it does not fit.
 */
static int
block_add(struct rt_writer *w, const struct strbuf *key, unsigned type,
	  const struct strbuf *val)
{
	unsigned char head[32];
	size_t prefix = 0, n, h, nres = w->nrestart;
	int restart;

	if (w->entries % w->restart_interval) {
		size_t max = MIN(w->blk_last.len, key->len);

		while (prefix < max && w->blk_last.buf[prefix] == key->buf[prefix])
			prefix++;
	}
	restart = !prefix && nres < RT_MAX_RESTARTS;
	h = varint_put(head, prefix);
	h += varint_put(head + h, (uint64_t)(key->len - prefix) << 3 | type);
	n = h + key->len - prefix + val->len;
	if (restart)
		nres++;
	if (2 + 3 * nres + n > w->block_size - w->blk_next)
		return 1;
	if (restart) {
		ALLOC_GROW(w->restarts, w->nrestart + 1, w->restart_alloc);
		w->restarts[w->nrestart++] = w->blk_next;
	}
	memcpy(w->blk + w->blk_next, head, h);
	memcpy(w->blk + w->blk_next + h, key->buf + prefix, key->len - prefix);
	memcpy(w->blk + w->blk_next + h + key->len - prefix, val->buf, val->len);
	w->blk_next += n;
	strbuf_reset(&w->blk_last);
	strbuf_addbuf(&w->blk_last, key);
	w->entries++;
	return 0;
}

static struct section_stats *
stats_of(struct rt_writer *w, unsigned char type)
{
	switch (type) {
	case RT_BLOCK_REF:
		return &w->ref;
	case RT_BLOCK_OBJ:
		return &w->obj;
	case RT_BLOCK_LOG:
		return &w->log;
	default:
		return &w->index;
	}
}

/*
 * Room for n more bytes of output: the table doubles as it grows, and
 * its new pages are faulted in at once (a table of 10,000 refs and
 * their logs is a few hundred kilobytes, a fault per 4 KB otherwise).
 */
static void
out_reserve(struct rt_writer *w, size_t n)
{
	struct strbuf *out = w->out;
	size_t old = out->alloc;

	if (st_add(st_add(out->len, n), 1) <= old)
		return;
	strbuf_grow(out, MAX(n, out->len));
	mem_populate(out->buf + old, out->alloc - old);
}

static int
block_flush(struct rt_writer *w)
{
	struct section_stats *st;
	size_t raw, pad = 0;
	struct idx_entry *e;

	if (!w->blk_type || !w->entries) {
		w->blk_type = 0;
		return 0;
	}
	for (size_t i = 0; i < w->nrestart; i++) {
		put_be24(w->blk + w->blk_next, w->restarts[i]);
		w->blk_next += 3;
	}
	put_be16(w->blk + w->blk_next, w->nrestart);
	w->blk_next += 2;
	put_be24(w->blk + w->blk_hdr + 1, w->blk_next);
	raw = w->blk_next;
	if (w->blk_type == RT_BLOCK_LOG) {
		size_t skip = w->blk_hdr + 4;
		z_stream *z = &w->z;
		uLong bound;

		/* one stream for every block, reset: the same bytes */
		if (!w->z_live) {
			memset(z, 0, sizeof(*z));
			if (deflateInit(z, 9) != Z_OK)
				return error_set(E_IO, "zlib: deflateInit "
						 "failed");
			w->z_live = 1;
		} else if (deflateReset(z) != Z_OK) {
			return error_set(E_IO, "zlib: deflateReset failed");
		}
		bound = deflateBound(z, raw - skip);
		strbuf_reset(&w->scratch);
		strbuf_grow(&w->scratch, bound);
		z->next_in = w->blk + skip;
		z->avail_in = raw - skip;
		z->next_out = (unsigned char *)w->scratch.buf;
		z->avail_out = bound;
		if (deflate(z, Z_FINISH) != Z_STREAM_END)
			return error_set(E_IO, "zlib: deflate failed");
		raw = skip + z->total_out;
		memcpy(w->blk + skip, w->scratch.buf, z->total_out);
	} else {
		pad = w->block_size - raw;
	}
	st = stats_of(w, w->blk_type);
	if (!st->blocks && w_next(w))
		st->offset = w_next(w);
	st->blocks++;
	if (!w_next(w))
		put_header(w, w->blk);
	if (w->pending_pad) {
		strbuf_grow(w->out, w->pending_pad);
		memset(w->out->buf + w->out->len, 0, w->pending_pad);
		strbuf_setlen(w->out, w->out->len + w->pending_pad);
		w->pending_pad = 0;
	}
	ALLOC_GROW(w->idx, w->nidx + 1, w->idx_alloc);
	e = &w->idx[w->nidx++];
	strbuf_init(&e->key, 0);
	strbuf_addbuf(&e->key, &w->blk_last);
	e->off = w_next(w);
	out_reserve(w, raw + w->block_size);
	strbuf_add(w->out, w->blk, raw);
	w->pending_pad = pad;
	w->blk_type = 0;
	return 0;
}

static void
idx_clear(struct rt_writer *w)
{
	for (size_t i = 0; i < w->nidx; i++)
		strbuf_release(&w->idx[i].key);
	w->nidx = 0;
}

/* Add to a block of type, flushing the full one first. */
static int
add_record(struct rt_writer *w, unsigned char type, const struct strbuf *key,
	   unsigned vtype, const struct strbuf *val)
{
	int ret;

	if (!w->blk_type)
		block_start(w, type);
	if (!block_add(w, key, vtype, val))
		return 0;
	ret = block_flush(w);
	if (ret < 0)
		return ret;
	block_start(w, type);
	if (!block_add(w, key, vtype, val))
		return 0;
	return error_set(E_INVALID, "reftable: a record of %zu bytes does "
			 "not fit in a block of %u", key->len + val->len,
			 (unsigned)w->block_size);
}

static int
section_finish(struct rt_writer *w, unsigned char type)
{
	struct section_stats *st = stats_of(w, type);
	uint64_t index_start = 0;
	int ret = block_flush(w);

	if (ret < 0)
		return ret;
	while (w->nidx > 3) {
		struct idx_entry *old = w->idx;
		size_t nold = w->nidx;
		struct strbuf val = STRBUF_INIT;

		index_start = w_next(w);
		w->idx = NULL;
		w->nidx = w->idx_alloc = 0;
		block_start(w, RT_BLOCK_INDEX);
		for (size_t i = 0; i < nold && ret >= 0; i++) {
			strbuf_reset(&val);
			sb_varint(&val, old[i].off);
			ret = add_record(w, RT_BLOCK_INDEX, &old[i].key, 0,
					 &val);
		}
		if (ret >= 0)
			ret = block_flush(w);
		for (size_t i = 0; i < nold; i++)
			strbuf_release(&old[i].key);
		free(old);
		strbuf_release(&val);
		if (ret < 0)
			return ret;
	}
	idx_clear(w);
	st->index_offset = index_start;
	strbuf_reset(&w->last_key);
	return 0;
}

static int
obj_cmp(const void *va, const void *vb)
{
	const struct obj_entry *a = va, *b = vb;
	int c = memcmp(a->oid.hash, b->oid.hash, HASH_MAX_RAWSZ);

	if (c)
		return c;
	return a->off < b->off ? -1 : a->off > b->off;
}

static int
obj_section(struct rt_writer *w)
{
	size_t raw = w->algo->rawsz, common = 1;
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	int ret = 0;

	if (w->nobj)
		qsort(w->objs, w->nobj, sizeof(*w->objs), obj_cmp);
	for (size_t i = 1; i < w->nobj; i++) {
		size_t n = 0;

		while (n < raw && w->objs[i - 1].oid.hash[n] ==
				  w->objs[i].oid.hash[n])
			n++;
		if (n == raw)
			continue;	/* the same id */
		if (n > common)
			common = n;
	}
	w->obj_id_len = common + 1;
	block_start(w, RT_BLOCK_OBJ);
	for (size_t i = 0; i < w->nobj && ret >= 0;) {
		size_t j = i, count = 0;
		uint64_t last = 0;

		while (j < w->nobj && !memcmp(w->objs[j].oid.hash,
					     w->objs[i].oid.hash, raw))
			j++;
		strbuf_reset(&key);
		strbuf_add(&key, w->objs[i].oid.hash, w->obj_id_len);
		/* offsets, without repeats */
		strbuf_reset(&w->scratch);
		for (size_t k = i; k < j; k++) {
			if (k > i && w->objs[k].off == w->objs[k - 1].off)
				continue;
			sb_varint(&w->scratch, w->objs[k].off - last);
			last = w->objs[k].off;
			count++;
		}
		strbuf_reset(&val);
		if (count >= 8)
			sb_varint(&val, count);
		strbuf_addbuf(&val, &w->scratch);
		if (!w->blk_type)
			block_start(w, RT_BLOCK_OBJ);
		if (block_add(w, &key, count < 8 ? count : 0, &val)) {
			ret = block_flush(w);
			if (ret < 0)
				break;
			block_start(w, RT_BLOCK_OBJ);
			if (block_add(w, &key, count < 8 ? count : 0, &val)) {
				/* too many offsets: store none */
				strbuf_reset(&val);
				sb_varint(&val, 0);
				if (block_add(w, &key, 0, &val))
					BUG("an obj record does not fit in "
					    "an empty block");
			}
		}
		i = j;
	}
	strbuf_release(&key);
	strbuf_release(&val);
	if (ret < 0)
		return ret;
	return section_finish(w, RT_BLOCK_OBJ);
}

/* End the ref section (and write the obj section if git would). */
static int
refs_finish(struct rt_writer *w)
{
	int ret = section_finish(w, RT_BLOCK_REF);

	if (ret < 0)
		return ret;
	if (w->index_objects && w->ref.index_offset)
		ret = obj_section(w);
	free(w->objs);
	w->objs = NULL;
	w->nobj = w->obj_alloc = 0;
	return ret;
}

static void
note_obj(struct rt_writer *w, const struct object_id *oid)
{
	/*
	 * The same id again in the same block (refs of one commit, side
	 * by side): its offset is already noted.
	 */
	if (w->nobj && w->objs[w->nobj - 1].off == w_next(w) &&
	    !memcmp(w->objs[w->nobj - 1].oid.hash, oid->hash,
		    w->algo->rawsz))
		return;
	ALLOC_GROW(w->objs, w->nobj + 1, w->obj_alloc);
	memset(&w->objs[w->nobj].oid, 0, sizeof(struct object_id));
	memcpy(w->objs[w->nobj].oid.hash, oid->hash, w->algo->rawsz);
	w->objs[w->nobj++].off = w_next(w);
}

static int
add_ref(struct rt_writer *w, const struct reftable_ref *r)
{
	struct strbuf *key = &w->key, *val = &w->val;
	size_t raw = w->algo->rawsz;
	int ret;

	if (!r->name || !*r->name || r->update_index < w->min ||
	    r->update_index > w->max)
		return error_set(E_INVALID, "reftable: ref '%s' has update "
				 "index %llu outside [%llu, %llu]",
				 r->name ? r->name : "",
				 (unsigned long long)r->update_index,
				 (unsigned long long)w->min,
				 (unsigned long long)w->max);
	strbuf_reset(key);
	strbuf_addstr(key, r->name);
	if (key_cmp(w->last_key.buf, w->last_key.len, key->buf,
		    key->len) >= 0)
		return error_set(E_INVALID, "reftable: ref '%s' out of order "
				 "or given twice", r->name);
	strbuf_reset(val);
	sb_varint(val, r->update_index - w->min);
	switch (r->type) {
	case REFTABLE_REF_DELETION:
		break;
	case REFTABLE_REF_VAL2:
		strbuf_add(val, r->value.hash, raw);
		strbuf_add(val, r->peeled.hash, raw);
		break;
	case REFTABLE_REF_VAL1:
		strbuf_add(val, r->value.hash, raw);
		break;
	case REFTABLE_REF_SYMREF:
		sb_string(val, r->target);
		break;
	default:
		return error_set(E_INVALID, "reftable: bad ref type %d",
				 (int)r->type);
	}
	ret = add_record(w, RT_BLOCK_REF, key, r->type, val);
	if (ret < 0)
		return ret;
	strbuf_swap(&w->last_key, key);
	if (w->index_objects && (r->type == REFTABLE_REF_VAL1 ||
				 r->type == REFTABLE_REF_VAL2))
		note_obj(w, &r->value);
	if (w->index_objects && r->type == REFTABLE_REF_VAL2)
		note_obj(w, &r->peeled);
	return 0;
}

static int
add_log(struct rt_writer *w, const struct reftable_log *l)
{
	struct strbuf *key = &w->key, *val = &w->val;
	size_t raw = w->algo->rawsz;
	unsigned char tz[2];
	int ret = 0;

	if (!l->name || !*l->name || (!l->deletion &&
				      l->update_index > w->max))
		return error_set(E_INVALID, "reftable: log of '%s' has "
				 "update index %llu past %llu",
				 l->name ? l->name : "",
				 (unsigned long long)l->update_index,
				 (unsigned long long)w->max);
	if (w->blk_type == RT_BLOCK_REF) {
		ret = refs_finish(w);
		if (ret < 0)
			return ret;
		w->blk_type = 0;
		w->pending_pad = 0;
	}
	rt_log_key(key, l->name, l->update_index);
	if (key_cmp(w->last_key.buf, w->last_key.len, key->buf, key->len) >= 0) {
		return error_set(E_INVALID, "reftable: log of '%s' out of "
				 "order or given twice", l->name);
	}
	strbuf_reset(val);
	if (!l->deletion) {
		strbuf_add(val, l->old_oid.hash, raw);
		strbuf_add(val, l->new_oid.hash, raw);
		sb_string(val, l->who);
		sb_string(val, l->email);
		sb_varint(val, l->time);
		put_be16(tz, (uint16_t)(int16_t)l->tz);
		strbuf_add(val, tz, 2);
		if (l->message && w->exact_messages) {
			sb_string(val, l->message);
		} else if (l->message) {
			/* git's normal form: one line ending in "\n" */
			size_t n = strlen(l->message);

			while (n && l->message[n - 1] == '\n')
				n--;
			if (memchr(l->message, '\n', n)) {
				return error_set(E_INVALID, "reftable: log "
						 "message of '%s' has several "
						 "lines", l->name);
			}
			sb_varint(val, n + 1);
			strbuf_add(val, l->message, n);
			strbuf_addch(val, '\n');
		} else {
			sb_varint(val, 0);
		}
	}
	ret = add_record(w, RT_BLOCK_LOG, key, !l->deletion, val);
	if (ret >= 0)
		strbuf_swap(&w->last_key, key);
	return ret;
}

int
rt_writer_new(struct rt_writer **wp, struct strbuf *out,
	      const struct hash_algo *algo,
	      const struct reftable_write_options *opts, unsigned flags,
	      uint64_t min, uint64_t max)
{
	struct rt_writer *w;
	uint32_t block_size = opts && opts->block_size ? opts->block_size
						       : RT_DEFAULT_BLOCK_SIZE;

	*wp = NULL;
	if (block_size >= 1u << 24 || block_size < 256)
		return error_set(E_INVALID, "reftable: bad block size %u",
				 (unsigned)block_size);
	w = xcalloc(1, sizeof(*w));
	strbuf_reset(out);
	w->out = out;
	w->algo = algo;
	w->version = algo->id == HASH_ALGO_SHA1 ? 1 : 2;
	w->hdr_len = w->version == 1 ? 24 : 28;
	w->block_size = block_size;
	w->restart_interval = opts && opts->restart_interval
			      ? opts->restart_interval
			      : RT_DEFAULT_RESTART_INTERVAL;
	w->index_objects = !(opts && opts->skip_index_objects);
	w->exact_messages = !!(flags & RT_WRITE_EXACT_MESSAGES);
	w->min = min;
	w->max = max;
	w->blk = xcalloc(1, w->block_size);
	strbuf_init(&w->blk_last, 0);
	strbuf_init(&w->last_key, 0);
	strbuf_init(&w->scratch, 0);
	strbuf_init(&w->key, 0);
	strbuf_init(&w->val, 0);
	block_start(w, RT_BLOCK_REF);
	*wp = w;
	return 0;
}

int
rt_writer_add_ref(struct rt_writer *w, const struct reftable_ref *ref)
{
	if (w->in_logs)
		return error_set(E_INVALID, "reftable: ref '%s' after the "
				 "logs", ref->name ? ref->name : "");
	return add_ref(w, ref);
}

int
rt_writer_add_log(struct rt_writer *w, const struct reftable_log *log)
{
	w->in_logs = 1;
	return add_log(w, log);
}

int
rt_writer_finish(struct rt_writer *w)
{
	unsigned char footer[72], *f;
	size_t flen;
	int ret = 0;

	if (w->blk_type == RT_BLOCK_LOG)
		ret = section_finish(w, RT_BLOCK_LOG);
	else if (w->blk_type == RT_BLOCK_REF)
		ret = refs_finish(w);
	w->blk_type = 0;
	if (ret < 0)
		return ret;
	w->pending_pad = 0;
	if (!w->out->len)
		return 1;
	put_header(w, footer);
	f = footer + w->hdr_len;
	put_be64(f, w->ref.index_offset);
	put_be64(f + 8, w->obj.offset << 5 | w->obj_id_len);
	put_be64(f + 16, w->obj.index_offset);
	put_be64(f + 24, w->log.offset);
	put_be64(f + 32, w->log.index_offset);
	flen = w->hdr_len + 40;
	put_be32(footer + flen, crc32(0, footer, flen));
	strbuf_add(w->out, footer, flen + 4);
	return 0;
}

void
rt_writer_free(struct rt_writer *w)
{
	if (!w)
		return;
	if (w->z_live)
		deflateEnd(&w->z);
	free(w->blk);
	free(w->restarts);
	idx_clear(w);
	free(w->idx);
	free(w->objs);
	strbuf_release(&w->blk_last);
	strbuf_release(&w->last_key);
	strbuf_release(&w->scratch);
	strbuf_release(&w->key);
	strbuf_release(&w->val);
	free(w);
}

int
rt_write_table(struct strbuf *out, const struct hash_algo *algo,
	       const struct reftable_write_options *opts, unsigned flags,
	       uint64_t min, uint64_t max, const struct reftable_ref *refs,
	       size_t nref, const struct reftable_log *logs, size_t nlog)
{
	struct rt_writer *w;
	int ret = rt_writer_new(&w, out, algo, opts, flags, min, max);

	for (size_t i = 0; i < nref && ret >= 0; i++)
		ret = rt_writer_add_ref(w, &refs[i]);
	for (size_t i = 0; i < nlog && ret >= 0; i++)
		ret = rt_writer_add_log(w, &logs[i]);
	if (ret >= 0)
		ret = rt_writer_finish(w);
	rt_writer_free(w);
	return ret;
}
