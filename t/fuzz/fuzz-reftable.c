/*
 * fuzz-reftable: one reftable file through rt_table_parse() and a walk
 * of its ref and log sections (every block: padded or not, inflated log
 * blocks, restart tables, record keys and values).  The first input
 * byte picks the hash (bit 0: SHA-256); the rest is the table.
 *
 * The same bytes read through a source (struct rt_source, as a large
 * file is read) give the same records or the same error, and the same
 * seeks.  Invariants checked on a table that reads to the end:
 *   - its records, written again (its block size and update index
 *     range, messages as they are), read back as the same records;
 *   - writing what was read back gives the same bytes again (the
 *     writer's output is a fixed point);
 *   - in that table every ref and log record is found by a seek to
 *     its key (index, block by block, restart points).
 * Records a writer would refuse (out of order, an update index outside
 * the range, a record larger than a block) end the check, not the run.
 */
#include "fuzz.h"

#include "error.h"
#include "reftable-format.h"

struct records {
	struct reftable_ref *refs;
	size_t nref, aref;
	struct reftable_log *logs;
	size_t nlog, alog;
};

static void
records_release(struct records *rs)
{
	for (size_t i = 0; i < rs->nref; i++)
		reftable_ref_release(&rs->refs[i]);
	for (size_t i = 0; i < rs->nlog; i++)
		reftable_log_release(&rs->logs[i]);
	free(rs->refs);
	free(rs->logs);
	memset(rs, 0, sizeof(*rs));
}

/* Read every record of t into rs: 0, or a negative E_*. */
static int
read_all(struct records *rs, const struct rt_table *t)
{
	struct rt_iter it;
	int ret;

	rt_iter_init(&it, t, RT_BLOCK_REF);
	while (!(ret = rt_iter_next(&it))) {
		ALLOC_GROW(rs->refs, rs->nref + 1, rs->aref);
		rs->refs[rs->nref++] = it.ref;
		memset(&it.ref, 0, sizeof(it.ref));
	}
	rt_iter_release(&it);
	if (ret < 0)
		return ret;
	rt_iter_init(&it, t, RT_BLOCK_LOG);
	while (!(ret = rt_iter_next(&it))) {
		ALLOC_GROW(rs->logs, rs->nlog + 1, rs->alog);
		rs->logs[rs->nlog++] = it.log;
		memset(&it.log, 0, sizeof(it.log));
	}
	rt_iter_release(&it);
	return ret < 0 ? ret : 0;
}

static int
same_ref(const struct reftable_ref *a, const struct reftable_ref *b,
	 size_t raw)
{
	return !strcmp(a->name, b->name) && a->update_index == b->update_index &&
	       a->type == b->type && !memcmp(&a->value, &b->value, raw) &&
	       !memcmp(&a->peeled, &b->peeled, raw) &&
	       !strcmp(a->target ? a->target : "", b->target ? b->target : "");
}

static int
same_log(const struct reftable_log *a, const struct reftable_log *b,
	 size_t raw)
{
	if (strcmp(a->name, b->name) || a->update_index != b->update_index ||
	    a->deletion != b->deletion)
		return 0;
	if (a->deletion)
		return 1;
	return !memcmp(&a->old_oid, &b->old_oid, raw) &&
	       !memcmp(&a->new_oid, &b->new_oid, raw) &&
	       !strcmp(a->who, b->who) && !strcmp(a->email, b->email) &&
	       a->time == b->time && a->tz == b->tz &&
	       !strcmp(a->message, b->message);
}

static void
seek_each(const struct rt_table *t, const struct records *rs)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < rs->nref; i++) {
		struct rt_iter it;

		rt_iter_init(&it, t, RT_BLOCK_REF);
		if (rt_iter_seek(&it, rs->refs[i].name,
				 strlen(rs->refs[i].name)) ||
		    strcmp(it.ref.name, rs->refs[i].name))
			BUG("seeking ref %zu finds another", i);
		rt_iter_release(&it);
	}
	for (size_t i = 0; i < rs->nlog; i++) {
		struct rt_iter it;

		rt_log_key(&key, rs->logs[i].name, rs->logs[i].update_index);
		rt_iter_init(&it, t, RT_BLOCK_LOG);
		if (rt_iter_seek(&it, key.buf, key.len) ||
		    strcmp(it.log.name, rs->logs[i].name) ||
		    it.log.update_index != rs->logs[i].update_index)
			BUG("seeking log %zu finds another", i);
		rt_iter_release(&it);
	}
	strbuf_release(&key);
}

static int
parse_source(struct rt_table *t, const uint8_t *data, size_t size,
	     const struct hash_algo *algo, unsigned copies)
{
	unsigned char *copy = xmalloc(size ? size : 1);

	memcpy(copy, data, size);
	return rt_table_parse_source(t, "fuzz.ref",
				     &rt_mem_source_new(copy, size, copies,
							0)->src,
				     size, algo);
}

/*
 * The table read through a source must read as it does in memory: the
 * same records or the same error, and every seek to a key of the
 * records read (mem) lands on the same record or fails the same way.
 */
static void
same_through_source(const struct rt_table *mem, int mem_ret,
		    const char *mem_err, const struct records *rs,
		    const uint8_t *data, size_t size,
		    const struct hash_algo *algo)
{
	struct records got = { 0 };
	struct rt_table t;
	int ret;

	/* the number of copied reads before the in-place ones: any */
	ret = parse_source(&t, data, size, algo, size ? data[size - 1] : 0);
	if (ret >= 0)
		ret = read_all(&got, &t);
	if ((ret < 0) != (mem_ret < 0) ||
	    (ret < 0 && strcmp(error_msg(), mem_err)))
		BUG("through a source: %d \"%s\", in memory: %d \"%s\"", ret,
		    ret < 0 ? error_msg() : "", mem_ret, mem_err);
	if (ret >= 0) {
		if (got.nref != rs->nref || got.nlog != rs->nlog)
			BUG("through a source: other records");
		for (size_t i = 0; i < rs->nref; i++)
			if (!same_ref(&got.refs[i], &rs->refs[i],
				      algo->rawsz))
				BUG("through a source: ref %zu differs", i);
		for (size_t i = 0; i < rs->nlog; i++)
			if (!same_log(&got.logs[i], &rs->logs[i],
				      algo->rawsz))
				BUG("through a source: log %zu differs", i);
		for (size_t i = 0; i < rs->nref; i++) {
			const char *name = rs->refs[i].name;
			struct rt_iter a, b;
			int ra, rb;

			rt_iter_init(&a, mem, RT_BLOCK_REF);
			rt_iter_init(&b, &t, RT_BLOCK_REF);
			ra = rt_iter_seek(&a, name, strlen(name));
			rb = rt_iter_seek(&b, name, strlen(name));
			if (ra != rb || (!ra && strcmp(a.ref.name, b.ref.name)))
				BUG("seeking ref %zu: %d in memory, %d "
				    "through a source", i, ra, rb);
			rt_iter_release(&a);
			rt_iter_release(&b);
		}
	}
	error_clear();
	rt_table_release(&t);
	records_release(&got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct hash_algo *algo;
	struct records one = { 0 }, two = { 0 };
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct reftable_write_options opts = { 0 };
	struct rt_table t, back;
	unsigned char *copy;
	int ret;

	if (!size)
		return 0;
	algo = &hash_algos[data[0] & 1 ? HASH_ALGO_SHA256 : HASH_ALGO_SHA1];
	hash_algo_set(algo);
	copy = xmalloc(size);
	memcpy(copy, data + 1, size - 1);
	ret = rt_table_parse(&t, "fuzz.ref", copy, size - 1, algo);
	if (ret >= 0)
		ret = read_all(&one, &t);
	{
		char *err = xstrdup(ret < 0 ? error_msg() : "");

		same_through_source(&t, ret, err, &one, data + 1, size - 1,
				    algo);
		free(err);
	}
	if (ret < 0 || t.block_size > 65536)
		goto out;
	opts.block_size = t.block_size;
	ret = rt_write_table(&out, algo, &opts, RT_WRITE_EXACT_MESSAGES,
			     t.min_index, t.max_index, one.refs, one.nref,
			     one.logs, one.nlog);
	if (ret)
		goto out;
	copy = xmalloc(out.len);
	memcpy(copy, out.buf, out.len);
	if (rt_table_parse(&back, "again.ref", copy, out.len, algo) < 0 ||
	    read_all(&two, &back) < 0)
		BUG("a table dirc wrote does not read back: %s", error_msg());
	if (two.nref != one.nref || two.nlog != one.nlog)
		BUG("a table read back has other records");
	for (size_t i = 0; i < one.nref; i++)
		if (!same_ref(&one.refs[i], &two.refs[i], algo->rawsz))
			BUG("ref %zu differs when read back", i);
	for (size_t i = 0; i < one.nlog; i++)
		if (!same_log(&one.logs[i], &two.logs[i], algo->rawsz))
			BUG("log %zu differs when read back", i);
	if (rt_write_table(&again, algo, &opts, RT_WRITE_EXACT_MESSAGES,
			   back.min_index, back.max_index, two.refs, two.nref,
			   two.logs, two.nlog) ||
	    again.len != out.len || memcmp(again.buf, out.buf, out.len))
		BUG("writing a table read back gives other bytes");
	seek_each(&back, &two);
	rt_table_release(&back);
out:
	rt_table_release(&t);
	records_release(&one);
	records_release(&two);
	strbuf_release(&out);
	strbuf_release(&again);
	error_clear();
	return 0;
}
