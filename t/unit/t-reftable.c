/*
 * t-reftable: the reftable format and stack (reftable.h,
 * reftable-format.h): varints, records written and read back, the
 * layout of a table with several blocks and indexes, the merged view
 * of a stack (newest wins, deletions hide), additions, a stale stack,
 * a held lock, compaction and its tombstones, and damaged tables
 * (every truncation and every flipped byte of a table: an error or a
 * result, never a crash — the sanitizer build checks the "never"); the
 * record, layout and damage tests again with the table read through a
 * source (struct rt_source), and a source whose reads fail.
 * t3090 compares the bytes with git's.
 */
#include "tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "error.h"
#include "hash.h"
#include "reftable-format.h"
#include "reftable.h"
#include "strbuf.h"
#include "util.h"
#include "varint.h"

static char dir[] = "/tmp/t-reftable-XXXXXX";
static const struct hash_algo *sha1;

static void
test_varints(void)
{
	static const struct {
		uint64_t v;
		const char *bytes;
		size_t len;
	} cases[] = {
		{ 0, "\x00", 1 },
		{ 127, "\x7f", 1 },
		{ 128, "\x80\x00", 2 },
		{ 16511, "\xff\x7f", 2 },
		{ 16512, "\x80\x80\x00", 3 },
		{ UINT64_MAX, "\x80\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\x7f", 10 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;
		const unsigned char *p;
		uint64_t back = 1;

		varint_encode(&sb, cases[i].v);
		is_mem(sb.buf, sb.len, cases[i].bytes, cases[i].len,
		       "varint %llu encodes", (unsigned long long)cases[i].v);
		p = (const unsigned char *)sb.buf;
		ok(!rt_varint_decode(&p, p + sb.len, &back) &&
		   back == cases[i].v, "varint %llu decodes",
		   (unsigned long long)cases[i].v);
		p = (const unsigned char *)sb.buf;
		ok(rt_varint_decode(&p, p + sb.len - 1, &back) < 0,
		   "varint %llu truncated fails",
		   (unsigned long long)cases[i].v);
		strbuf_release(&sb);
	}
	{
		static const unsigned char over[] = {
			0x81, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe,
			0x7f,
		};
		const unsigned char *p = over;
		uint64_t back;

		ok(rt_varint_decode(&p, over + sizeof(over), &back) < 0,
		   "a varint past 64 bits fails");
	}
}

static void
fake_oid(struct object_id *oid, unsigned n)
{
	memset(oid, 0, sizeof(*oid));
	for (unsigned i = 0; i < 20; i++)
		oid->hash[i] = (unsigned char)(n * 37 + i * (n | 1));
}

static struct reftable_ref
mkref(const char *name, uint64_t ui, enum reftable_ref_type type,
      unsigned n, const char *target)
{
	struct reftable_ref r;

	memset(&r, 0, sizeof(r));
	r.name = xstrdup(name);
	r.update_index = ui;
	r.type = type;
	if (type == REFTABLE_REF_VAL1 || type == REFTABLE_REF_VAL2)
		fake_oid(&r.value, n);
	if (type == REFTABLE_REF_VAL2)
		fake_oid(&r.peeled, n + 1);
	if (target)
		r.target = xstrdup(target);
	return r;
}

static struct reftable_log
mklog(const char *name, uint64_t ui, const char *msg, int tz)
{
	struct reftable_log l;

	memset(&l, 0, sizeof(l));
	l.name = xstrdup(name);
	l.update_index = ui;
	if (!msg) {
		l.deletion = 1;
		return l;
	}
	fake_oid(&l.old_oid, 1);
	fake_oid(&l.new_oid, 2);
	l.who = xstrdup("C O Mitter");
	l.email = xstrdup("c@example.com");
	l.time = 1112354055;
	l.tz = tz;
	l.message = xstrdup(msg);
	return l;
}

/*
 * How parse() gives a table its bytes: 0 in memory; 1 through a
 * memory source that copies every read; 2 through one that copies the
 * first three and then hands out pointers.
 */
static int via_source;
static unsigned fail_at;

/* Parse bytes as a table; the copy is the table's. */
static int
parse(struct rt_table *t, const void *bytes, size_t len)
{
	unsigned char *copy = xmalloc(len ? len : 1);
	struct rt_mem_source *m;

	memcpy(copy, bytes, len);
	if (!via_source)
		return rt_table_parse(t, "test.ref", copy, len, sha1);
	m = rt_mem_source_new(copy, len, via_source == 1 ? ~0U : 3, fail_at);
	return rt_table_parse_source(t, "test.ref", &m->src, len, sha1);
}

/* Walk every record; -E_* on error, else the number of records. */
static int
walk(const struct rt_table *t)
{
	int n = 0, ret;

	for (int s = 0; s < 2; s++) {
		struct rt_iter it;

		rt_iter_init(&it, t, s ? RT_BLOCK_LOG : RT_BLOCK_REF);
		while (!(ret = rt_iter_next(&it)))
			n++;
		rt_iter_release(&it);
		if (ret < 0)
			return ret;
	}
	return n;
}

static void
test_records(void)
{
	struct reftable_ref refs[4];
	struct reftable_log logs[3];
	struct strbuf out = STRBUF_INIT;
	struct rt_table t;
	struct rt_iter it;
	int ret;

	refs[0] = mkref("HEAD", 5, REFTABLE_REF_SYMREF, 0, "refs/heads/main");
	refs[1] = mkref("refs/heads/gone", 6, REFTABLE_REF_DELETION, 0, NULL);
	refs[2] = mkref("refs/heads/main", 7, REFTABLE_REF_VAL1, 3, NULL);
	refs[3] = mkref("refs/tags/v1", 5, REFTABLE_REF_VAL2, 5, NULL);
	logs[0] = mklog("refs/heads/main", 7, "two\n\n", -700);
	logs[1] = mklog("refs/heads/main", 6, NULL, 0);
	logs[2] = mklog("refs/heads/main", 2, "one", 130);
	ret = rt_write_table(&out, sha1, NULL, 0, 5, 7, refs, 4, logs, 3);
	is_int(ret, 0, "a small table is written");
	is_mem(out.buf, 8, "REFT\x01\x00\x10\x00", 8,
	       "header: magic, version 1, block size 4096");
	ok(out.buf[24] == 'r', "the first block holds refs");
	is_int(parse(&t, out.buf, out.len), 0, "and parses");
	is_int((long)t.min_index, 5, "min update index");
	is_int((long)t.max_index, 7, "max update index");

	rt_iter_init(&it, &t, RT_BLOCK_REF);
	for (int i = 0; i < 4; i++) {
		const struct reftable_ref *r = &it.ref;

		if (!ok(!rt_iter_next(&it), "ref %d read back", i))
			break;
		is_str(r->name, refs[i].name, "ref %d name", i);
		ok(r->update_index == refs[i].update_index &&
		   r->type == refs[i].type, "ref %d index and type", i);
		ok(!memcmp(&r->value, &refs[i].value, 20) &&
		   !memcmp(&r->peeled, &refs[i].peeled, 20),
		   "ref %d values", i);
		is_str(r->target, refs[i].target, "ref %d target", i);
	}
	is_int(rt_iter_next(&it), 1, "then the end of the refs");
	rt_iter_release(&it);

	rt_iter_init(&it, &t, RT_BLOCK_LOG);
	ok(!rt_iter_next(&it) && it.log.update_index == 7 &&
	   it.log.tz == -700 && !strcmp(it.log.message, "two\n") &&
	   !strcmp(it.log.who, "C O Mitter") && it.log.time == 1112354055,
	   "log: newest first, negative tz, message normalised");
	ok(!rt_iter_next(&it) && it.log.deletion &&
	   it.log.update_index == 6, "log tombstone");
	ok(!rt_iter_next(&it) && it.log.tz == 130 &&
	   !strcmp(it.log.message, "one\n"), "log: newline added");
	is_int(rt_iter_next(&it), 1, "then the end of the logs");
	rt_iter_release(&it);

	rt_iter_init(&it, &t, RT_BLOCK_REF);
	ok(!rt_iter_seek(&it, "refs/heads/m", 12) &&
	   !strcmp(it.ref.name, "refs/heads/main"), "seek lands on the next");
	rt_iter_release(&it);
	rt_table_release(&t);

	/* writer refusals */
	{
		struct reftable_ref two[2];
		struct reftable_log bad = mklog("refs/heads/x", 7, "a\nb", 0);
		struct reftable_write_options small = { .block_size = 256 };
		struct reftable_ref big;
		char target[400];

		two[0] = refs[2];
		two[1] = refs[0];
		is_int(rt_write_table(&out, sha1, NULL, 0, 5, 7, two, 2, NULL,
				      0), -E_INVALID, "refs out of order");
		is_int(rt_write_table(&out, sha1, NULL, 0, 5, 7, refs, 1,
				      &bad, 1), -E_INVALID,
		       "a multi-line message");
		is_int(rt_write_table(&out, sha1, NULL, 0, 6, 7, refs, 1,
				      NULL, 0), -E_INVALID,
		       "an update index below the table's");
		memset(target, 'x', sizeof(target) - 1);
		target[sizeof(target) - 1] = '\0';
		big = mkref("refs/heads/big", 5, REFTABLE_REF_SYMREF, 0,
			    target);
		is_int(rt_write_table(&out, sha1, &small, 0, 5, 7, &big, 1,
				      NULL, 0), -E_INVALID,
		       "a record larger than a block");
		is_int(rt_write_table(&out, sha1, NULL, 0, 5, 7, NULL, 0,
				      NULL, 0), 1, "nothing to write");
		{
			struct rt_writer *w;
			struct reftable_write_options tiny = {
				.block_size = 100 };

			is_int(rt_writer_new(&w, &out, sha1, &tiny, 0, 5, 7),
			       -E_INVALID, "a block size below 256");
			ok(!w, "no writer for a bad block size");
			is_int(rt_writer_new(&w, &out, sha1, NULL, 0, 5, 7), 0,
			       "a writer");
			is_int(rt_writer_add_log(w, &logs[0]), 0, "a log");
			is_int(rt_writer_add_ref(w, &refs[0]), -E_INVALID,
			       "a ref after a log");
			rt_writer_free(w);
		}
		reftable_ref_release(&big);
		reftable_log_release(&bad);
		error_clear();
	}
	for (int i = 0; i < 4; i++)
		reftable_ref_release(&refs[i]);
	for (int i = 0; i < 3; i++)
		reftable_log_release(&logs[i]);
	strbuf_release(&out);
}

#define MANY 1000

static void
many_refs(struct reftable_ref *refs, uint64_t ui)
{
	for (int i = 0; i < MANY; i++) {
		char name[64];

		snprintf(name, sizeof(name), "refs/heads/branch-%04d", i);
		refs[i] = mkref(name, ui, REFTABLE_REF_VAL1, i % 50, NULL);
	}
}

/* Seek every name, and just after each: the right record, or the end. */
static void
seek_all(const struct rt_table *t, const struct reftable_ref *refs, int n,
	 const char *how)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		struct strbuf after = STRBUF_INIT;
		struct rt_iter it;
		int ret;

		rt_iter_init(&it, t, RT_BLOCK_REF);
		ret = rt_iter_seek(&it, refs[i].name, strlen(refs[i].name));
		if (ret || strcmp(it.ref.name, refs[i].name))
			bad++;
		rt_iter_release(&it);
		strbuf_addf(&after, "%s!", refs[i].name);
		rt_iter_init(&it, t, RT_BLOCK_REF);
		ret = rt_iter_seek(&it, after.buf, after.len);
		if (i + 1 < n ? ret || strcmp(it.ref.name, refs[i + 1].name)
			      : ret != 1)
			bad++;
		rt_iter_release(&it);
		strbuf_release(&after);
	}
	is_int(bad, 0, "seek each of %d refs and past it (%s)", n, how);
}

static void
test_layout(void)
{
	struct reftable_ref *refs = xcalloc(MANY, sizeof(*refs));
	struct strbuf out = STRBUF_INIT;
	const unsigned char *f;
	struct rt_table t;
	int ret;

	many_refs(refs, 1);
	ret = rt_write_table(&out, sha1, NULL, 0, 1, 1, refs, MANY, NULL, 0);
	is_int(ret, 0, "%d refs written", MANY);
	f = (const unsigned char *)out.buf + out.len - 68 + 24;
	ok(get_be64(f) > 0, "a ref index (more than three blocks)");
	ok(get_be64(f + 8) >> 5 > 0 && (get_be64(f + 8) & 31) >= 2,
	   "and an obj section with ids of 2 or more bytes");
	ok(out.len > 4 * 4096 && out.buf[4096] == 'r',
	   "ref blocks padded to the block size");
	is_int(parse(&t, out.buf, out.len), 0, "parses");
	is_int(walk(&t), MANY, "every ref read back");
	seek_all(&t, refs, MANY, "through the index");
	rt_table_release(&t);

	ret = rt_write_table(&out, sha1, &(struct reftable_write_options){
				     .block_size = 256 },
			     0, 1, 1, refs, MANY, NULL, 0);
	is_int(ret, 0, "%d refs in 256-byte blocks", MANY);
	parse(&t, out.buf, out.len);
	{
		struct rt_iter it;

		/* the top level of the index points to index blocks */
		rt_iter_init(&it, &t, RT_BLOCK_INDEX);
		it.blk.next = t.ref_index_off;
		ok(t.ref_index_off && !rt_iter_next(&it) &&
		   out.buf[it.index_off] == 'i', "a multi-level index");
		rt_iter_release(&it);
	}
	rt_table_release(&t);
	parse(&t, out.buf, out.len);
	seek_all(&t, refs, MANY, "a multi-level index");
	rt_table_release(&t);

	ret = rt_write_table(&out, sha1, NULL, 0, 1, 1, refs, 250, NULL, 0);
	f = (const unsigned char *)out.buf + out.len - 68 + 24;
	ok(!ret && !get_be64(f) && out.len > 4096,
	   "250 refs: several blocks, no index");
	parse(&t, out.buf, out.len);
	seek_all(&t, refs, 250, "block by block");
	rt_table_release(&t);

	ret = rt_write_table(&out, sha1, &(struct reftable_write_options){
				     .skip_index_objects = 1 },
			     0, 1, 1, refs, MANY, NULL, 0);
	f = (const unsigned char *)out.buf + out.len - 68 + 24;
	ok(!ret && get_be64(f + 8) == 0, "no obj section when skipped");

	/* a footer whose ref index offset names a ref block: corrupt */
	{
		unsigned char *foot = (unsigned char *)out.buf + out.len - 68;
		struct rt_iter it;

		put_be32(foot + 24, 0);
		put_be32(foot + 28, 4096);
		put_be32(foot + 64, (uint32_t)crc32(0, foot, 64));
		is_int(parse(&t, out.buf, out.len), 0, "a table whose ref "
		       "index offset names a ref block parses");
		rt_iter_init(&it, &t, RT_BLOCK_REF);
		is_int(rt_iter_seek(&it, refs[9].name, strlen(refs[9].name)),
		       -E_CORRUPT, "and a seek through it is an error");
		rt_iter_release(&it);
		rt_table_release(&t);
		error_clear();
	}

	for (int i = 0; i < MANY; i++)
		reftable_ref_release(&refs[i]);
	free(refs);
	strbuf_release(&out);
}

static void
test_damage(void)
{
	struct reftable_ref refs[3];
	struct reftable_log logs[2];
	struct strbuf out = STRBUF_INIT;
	int crashes = 0, errors = 0;
	size_t n;

	refs[0] = mkref("HEAD", 1, REFTABLE_REF_SYMREF, 0, "refs/heads/main");
	refs[1] = mkref("refs/heads/main", 1, REFTABLE_REF_VAL1, 3, NULL);
	refs[2] = mkref("refs/tags/v1", 1, REFTABLE_REF_VAL2, 5, NULL);
	logs[0] = mklog("refs/heads/main", 1, "one", 0);
	logs[1] = mklog("refs/heads/x", 1, "two", 0);
	rt_write_table(&out, sha1, NULL, 0, 1, 1, refs, 3, logs, 2);
	n = out.len;
	for (size_t len = 0; len < n; len++) {
		struct rt_table t;
		int ret = parse(&t, out.buf, len);

		if (ret >= 0)
			ret = walk(&t);
		if (ret < 0)
			errors++;
		else
			crashes++;	/* a cut table that reads is wrong */
		rt_table_release(&t);
	}
	is_int(crashes, 0, "every truncation of a table fails");
	is_int(errors, (long)n, "with an error");
	for (size_t i = 0; i < n; i++) {
		struct rt_table t;
		int ret;

		out.buf[i] ^= 0x41;
		ret = parse(&t, out.buf, n);
		if (ret >= 0)
			walk(&t);
		rt_table_release(&t);
		out.buf[i] ^= 0x41;
	}
	ok(1, "every flipped byte: an error or a result");
	error_clear();
	for (int i = 0; i < 3; i++)
		reftable_ref_release(&refs[i]);
	for (int i = 0; i < 2; i++)
		reftable_log_release(&logs[i]);
	strbuf_release(&out);
}

/*
 * A source whose read fails, at each read in turn, under a walk of
 * both sections and seeks through a multi-level index: every call
 * gives an error or the right answer (a failed read of the seek cache
 * is passed over: the index answers), never a wrong one.
 */
static void
test_failed_reads(void)
{
	struct reftable_ref *refs = xcalloc(MANY, sizeof(*refs));
	struct reftable_log logs[2];
	struct strbuf out = STRBUF_INIT;
	unsigned total, wrong = 0, failed = 0;
	struct rt_table t;

	many_refs(refs, 1);
	logs[0] = mklog("refs/heads/main", 1, "one", 0);
	logs[1] = mklog("refs/heads/x", 1, "two", 0);
	rt_write_table(&out, sha1, &(struct reftable_write_options){
			       .block_size = 256 },
		       0, 1, 1, refs, MANY, logs, 2);
	via_source = 1;
	total = 0;
	/* fail_at 0: no read fails, and the reads are counted */
	for (fail_at = 0; fail_at <= total; fail_at++) {
		int ret = parse(&t, out.buf, out.len), n;

		if (ret >= 0) {
			n = walk(&t);
			if (n < 0)
				ret = n;
			else if (n != MANY + 2)
				wrong++;
		}
		for (int i = 0; ret >= 0 && i < 40; i++) {
			const char *name = refs[i * (MANY / 40)].name;
			struct rt_iter it;

			rt_iter_init(&it, &t, RT_BLOCK_REF);
			ret = rt_iter_seek(&it, name, strlen(name));
			if (!ret && strcmp(it.ref.name, name))
				wrong++;
			rt_iter_release(&it);
		}
		if (!fail_at) {
			is_int(ret, 0, "a walk and 40 seeks through a source");
			total = ((struct rt_mem_source *)t.src)->reads;
		} else if (ret < 0) {
			failed++;
		}
		rt_table_release(&t);
		error_clear();
	}
	ok(total > 40, "which read %u times", total);
	is_int(wrong, 0, "a failed read never gives a wrong answer");
	ok(failed >= total - total / 4,
	   "and is reported as an error (%u of %u)", failed, total);
	via_source = 0;
	fail_at = 0;
	for (int i = 0; i < MANY; i++)
		reftable_ref_release(&refs[i]);
	free(refs);
	for (int i = 0; i < 2; i++)
		reftable_log_release(&logs[i]);
	strbuf_release(&out);
}

static void
test_segments(void)
{
	static const struct {
		uint64_t sizes[10];
		size_t n, start, end;
	} cases[] = {
		{ { 512, 64, 17, 16, 9, 9, 9, 16, 2, 16 }, 10, 1, 10 },
		{ { 64, 32, 16, 8, 4, 2 }, 6, 0, 0 },
		{ { 64, 32, 16, 8, 4, 3, 1 }, 7, 0, 6 },
		{ { 128, 32, 16, 8, 4, 3, 1 }, 7, 1, 6 },
		{ { 100, 1, 1 }, 3, 1, 3 },
		{ { 5 }, 1, 0, 0 },
		{ { 10, 10 }, 2, 0, 2 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t start, end;

		rt_compaction_segment(&start, &end, cases[i].sizes,
				      cases[i].n, 2);
		ok(start == cases[i].start && end == cases[i].end,
		   "compaction segment %zu: [%zu, %zu)", i, start, end);
	}
}

/* Stacks */

struct seen {
	struct strbuf names;
	int n;
};

static int
collect_ref(const struct reftable_ref *r, void *ctx)
{
	struct seen *s = ctx;

	strbuf_addf(&s->names, "%s ", r->name);
	s->n++;
	return 0;
}

static int
collect_log(const struct reftable_log *l, void *ctx)
{
	struct seen *s = ctx;

	strbuf_addf(&s->names, "%s@%llu ", l->name,
		    (unsigned long long)l->update_index);
	s->n++;
	return 0;
}

static int
add(struct reftable_stack *st, struct reftable_ref *refs, size_t nref,
    struct reftable_log *logs, size_t nlog)
{
	struct reftable_addition *a;
	int ret = reftable_addition_begin(&a, st, 0);

	if (ret < 0)
		return ret;
	ret = reftable_addition_add(a, refs, nref, logs, nlog);
	if (!ret)
		ret = reftable_addition_commit(a);
	reftable_addition_free(a);
	return ret;
}

static size_t
count_lines(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	if (strbuf_read_file(&sb, path) >= 0)
		for (size_t i = 0; i < sb.len; i++)
			n += sb.buf[i] == '\n';
	strbuf_release(&sb);
	return n;
}

static void
test_stack(void)
{
	char sdir[128], list[160], lock[170];
	struct reftable_stack *st, *other;
	struct reftable_ref r, *refs;
	struct reftable_log l;
	struct seen s = { STRBUF_INIT, 0 };

	snprintf(sdir, sizeof(sdir), "%s/reftable", dir);
	snprintf(list, sizeof(list), "%s/tables.list", sdir);
	snprintf(lock, sizeof(lock), "%s.lock", list);
	is_int(reftable_stack_create(sdir, 0), 0, "create a stack");
	is_int(reftable_stack_open(&st, sdir, sha1), 0, "open it");
	is_int((long)reftable_stack_next_update_index(st), 1,
	       "an empty stack starts at update index 1");

	refs = xcalloc(MANY, sizeof(*refs));
	many_refs(refs, 0);
	is_int(add(st, refs, MANY, NULL, 0), 0, "add %d refs", MANY);
	for (int i = 0; i < MANY; i++)
		reftable_ref_release(&refs[i]);

	r = mkref("refs/heads/branch-0001", 0, REFTABLE_REF_DELETION, 0, NULL);
	l = mklog("refs/heads/branch-0002", 0, "moved", 0);
	refs[0] = mkref("refs/heads/branch-0002", 0, REFTABLE_REF_VAL1, 99,
			NULL);
	refs[1] = r;
	is_int(add(st, refs, 2, &l, 1), 0, "a deletion and an update");
	is_int((long)count_lines(list), 2, "two tables (geometric)");
	reftable_ref_release(&refs[0]);
	reftable_ref_release(&refs[1]);
	reftable_log_release(&l);

	is_int(reftable_stack_read_ref(st, "refs/heads/branch-0001", &r), 1,
	       "the deletion hides the older ref");
	ok(!reftable_stack_read_ref(st, "refs/heads/branch-0002", &r) &&
	   r.update_index == 2, "the newer table wins");
	reftable_ref_release(&r);
	ok(!reftable_stack_read_ref(st, "refs/heads/branch-0003", &r) &&
	   r.update_index == 1, "the older table still answers");
	reftable_ref_release(&r);

	reftable_stack_for_each_ref(st, "refs/heads/branch-000", collect_ref,
				    &s);
	is_str(s.names.buf, "refs/heads/branch-0000 refs/heads/branch-0002 "
	       "refs/heads/branch-0003 refs/heads/branch-0004 "
	       "refs/heads/branch-0005 refs/heads/branch-0006 "
	       "refs/heads/branch-0007 refs/heads/branch-0008 "
	       "refs/heads/branch-0009 ", "for_each_ref: prefix, order, "
	       "deletions hidden");
	strbuf_reset(&s.names);
	s.n = 0;
	reftable_stack_for_each_ref(st, "", collect_ref, &s);
	is_int(s.n, MANY - 1, "every live ref once");

	/* another writer: our addition is stale */
	is_int(reftable_stack_open(&other, sdir, sha1), 0, "a second reader");
	l = mklog("refs/heads/x", 0, "x", 0);
	is_int(add(other, NULL, 0, &l, 1), 0, "it adds a log");
	reftable_log_release(&l);
	l = mklog("refs/heads/x", 0, "y", 0);
	is_int(add(st, NULL, 0, &l, 1), -E_CONFLICT, "ours is stale");
	is_int(add(st, NULL, 0, &l, 1), 0, "after the reload it goes in");
	reftable_log_release(&l);
	strbuf_reset(&s.names);
	reftable_stack_for_each_log(st, "refs/heads/x", collect_log, &s);
	is_str(s.names.buf, "refs/heads/x@4 refs/heads/x@3 ",
	       "for_each_log: one ref, newest first");

	/* a held lock */
	close(open(lock, O_CREAT | O_WRONLY, 0666));
	l = mklog("refs/heads/x", 0, "z", 0);
	is_int(add(st, NULL, 0, &l, 1), -E_LOCKED, "a held lock: -E_LOCKED");
	unlink(lock);
	reftable_log_release(&l);

	/* compaction to one table drops the tombstones */
	is_int(reftable_stack_compact_all(st, 0), 0, "compact all");
	is_int((long)count_lines(list), 1, "one table");
	is_int(reftable_stack_read_ref(st, "refs/heads/branch-0001", &r), 1,
	       "the deleted ref stays deleted");
	{
		char path[300];
		struct strbuf sb = STRBUF_INIT;
		struct rt_table t;
		struct rt_iter it;
		int dels = 0, n = 0;

		strbuf_read_file(&sb, list);
		strbuf_rtrim(&sb);
		snprintf(path, sizeof(path), "%s/%s", sdir, sb.buf);
		ok(!strncmp(sb.buf, "0x000000000001-0x000000000004-", 30),
		   "named after its update index range");
		strbuf_read_file(&sb, path);
		parse(&t, sb.buf, sb.len);
		rt_iter_init(&it, &t, RT_BLOCK_REF);
		while (!rt_iter_next(&it)) {
			n++;
			dels += it.ref.type == REFTABLE_REF_DELETION;
		}
		rt_iter_release(&it);
		rt_table_release(&t);
		ok(n == MANY - 1 && !dels, "no tombstone left");
		strbuf_release(&sb);
	}
	reftable_stack_close(other);
	is_int(reftable_stack_reload(st), 0, "reload");
	reftable_stack_close(st);
	free(refs);
	strbuf_release(&s.names);
}

static void
remove_tree(const char *path)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd))
		diag("could not remove %s", path);
}

int
main(void)
{
	sha1 = &hash_algos[HASH_ALGO_SHA1];
	hash_algo_set(sha1);
	if (!mkdtemp(dir))
		skip_all("mkdtemp failed");
	test_varints();
	for (via_source = 0; via_source <= 2; via_source++) {
		if (via_source)
			diag("again, the table read through a source (%s)",
			     via_source == 1 ? "copies"
					     : "copies, then in place");
		test_records();
		test_layout();
		test_damage();
	}
	via_source = 0;
	test_failed_reads();
	test_segments();
	test_stack();
	remove_tree(dir);
	return done_testing();
}
