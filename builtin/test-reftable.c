/*
 * test-reftable: "dirc test-tool reftable ...", the reftable library
 * (lib/reftable.h) reachable from shell tests before any command uses
 * it.  Records are lines of tab-separated fields, the same in and out:
 *
 *   ref <name> <update-index> val1 <id>
 *   ref <name> <update-index> val2 <id> <peeled>
 *   ref <name> <update-index> symref <target>
 *   ref <name> <update-index> deletion
 *   log <name> <update-index> <old> <new> <name> <email> <time> <tz>
 *       <message, with \n, \t and \\ escaped; empty in: NULL>
 *   log <name> <update-index> deletion
 *
 * Subcommands (--sha256 first for a SHA-256 stack):
 *   create <dir>            an empty stack
 *   dump <dir>              the merged view: live refs by name, then
 *                           every reflog entry (by name, newest first)
 *   read <dir> <ref>        one ref (exit 1 if there is none)
 *   table <file>            every record of one table, in its order,
 *                           after a line "table <min> <max> <block size>"
 *   write-table <file> [<restart-interval> [<no-obj>]]
 *                           write one table of the records on stdin
 *                           (first line "table <min> <max> [<block
 *                           size>]"), as git would, to file
 *   write <dir>             append one table of the records on stdin
 *                           (their update indexes are the stack's)
 *   compact <dir>           compact the whole stack
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "fileio.h"
#include "hash.h"
#include "reftable-format.h"
#include "reftable.h"
#include "strbuf.h"

static const struct hash_algo *algo;

static void
put_escaped(const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else if (*s == '\\')
			fputs("\\\\", stdout);
		else
			putchar(*s);
	}
}

static void
print_ref(const struct reftable_ref *r)
{
	printf("ref\t%s\t%llu\t", r->name, (unsigned long long)r->update_index);
	switch (r->type) {
	case REFTABLE_REF_DELETION:
		printf("deletion\n");
		break;
	case REFTABLE_REF_VAL1:
		printf("val1\t%s\n", oid_to_hex(&r->value));
		break;
	case REFTABLE_REF_VAL2:
		printf("val2\t%s\t", oid_to_hex(&r->value));
		printf("%s\n", oid_to_hex(&r->peeled));
		break;
	case REFTABLE_REF_SYMREF:
		printf("symref\t%s\n", r->target);
		break;
	}
}

static void
print_log(const struct reftable_log *l)
{
	printf("log\t%s\t%llu\t", l->name, (unsigned long long)l->update_index);
	if (l->deletion) {
		printf("deletion\n");
		return;
	}
	printf("%s\t", oid_to_hex(&l->old_oid));
	printf("%s\t%s\t%s\t%llu\t%c%04d\t", oid_to_hex(&l->new_oid),
	       l->who ? l->who : "", l->email ? l->email : "",
	       (unsigned long long)l->time, l->tz < 0 ? '-' : '+',
	       l->tz < 0 ? -l->tz : l->tz);
	put_escaped(l->message);
	putchar('\n');
}

static int
ref_cb(const struct reftable_ref *r, void *ctx UNUSED)
{
	print_ref(r);
	return 0;
}

static int
log_cb(const struct reftable_log *l, void *ctx UNUSED)
{
	print_log(l);
	return 0;
}

static char *
unescape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			strbuf_addch(&sb, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s);
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb, NULL);
}

struct records {
	struct reftable_ref *refs;
	size_t nref, aref;
	struct reftable_log *logs;
	size_t nlog, alog;
	uint64_t min, max;
	uint32_t block_size;	/* from the "table" line; 0 if none */
};

static void
get_oid(struct object_id *oid, const char *hex)
{
	if (hex_to_oid(oid, hex) < 0)
		die("bad object id '%s'", hex);
}

static void
parse_line(struct records *rs, char *line)
{
	char *f[12];
	size_t n = 0;

	for (char *p = line; n < ARRAY_SIZE(f);) {
		char *tab = strchr(p, '\t');

		f[n++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n >= 3 && !strcmp(f[0], "table")) {
		rs->min = strtoull(f[1], NULL, 10);
		rs->max = strtoull(f[2], NULL, 10);
		if (n >= 4)
			rs->block_size = strtoul(f[3], NULL, 10);
		return;
	}
	if (n >= 4 && !strcmp(f[0], "ref")) {
		struct reftable_ref *r;

		ALLOC_GROW(rs->refs, rs->nref + 1, rs->aref);
		r = &rs->refs[rs->nref++];
		memset(r, 0, sizeof(*r));
		r->name = xstrdup(f[1]);
		r->update_index = strtoull(f[2], NULL, 10);
		if (!strcmp(f[3], "deletion")) {
			r->type = REFTABLE_REF_DELETION;
		} else if (!strcmp(f[3], "val1") && n == 5) {
			r->type = REFTABLE_REF_VAL1;
			get_oid(&r->value, f[4]);
		} else if (!strcmp(f[3], "val2") && n == 6) {
			r->type = REFTABLE_REF_VAL2;
			get_oid(&r->value, f[4]);
			get_oid(&r->peeled, f[5]);
		} else if (!strcmp(f[3], "symref") && n == 5) {
			r->type = REFTABLE_REF_SYMREF;
			r->target = xstrdup(f[4]);
		} else {
			die("bad ref line");
		}
		return;
	}
	if (n >= 4 && !strcmp(f[0], "log")) {
		struct reftable_log *l;

		ALLOC_GROW(rs->logs, rs->nlog + 1, rs->alog);
		l = &rs->logs[rs->nlog++];
		memset(l, 0, sizeof(*l));
		l->name = xstrdup(f[1]);
		l->update_index = strtoull(f[2], NULL, 10);
		if (!strcmp(f[3], "deletion")) {
			l->deletion = 1;
			return;
		}
		if (n != 10)
			die("bad log line");
		get_oid(&l->old_oid, f[3]);
		get_oid(&l->new_oid, f[4]);
		l->who = xstrdup(f[5]);
		l->email = xstrdup(f[6]);
		l->time = strtoull(f[7], NULL, 10);
		l->tz = atoi(f[8]);
		/* empty: NULL, as git's reflog expiry leaves one */
		l->message = *f[9] ? unescape(f[9]) : NULL;
		return;
	}
	die("bad record line '%s'", f[0]);
}

static void
read_records(struct records *rs)
{
	struct strbuf line = STRBUF_INIT;

	memset(rs, 0, sizeof(*rs));
	while (strbuf_getdelim(&line, stdin, '\n') != EOF) {
		if (line.len && line.buf[line.len - 1] == '\n')
			strbuf_setlen(&line, line.len - 1);
		if (line.len)
			parse_line(rs, line.buf);
	}
	strbuf_release(&line);
}

static void
records_release(struct records *rs)
{
	for (size_t i = 0; i < rs->nref; i++)
		reftable_ref_release(&rs->refs[i]);
	for (size_t i = 0; i < rs->nlog; i++)
		reftable_log_release(&rs->logs[i]);
	free(rs->refs);
	free(rs->logs);
}

static int
dump_table(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct rt_table t;
	struct rt_iter it;
	size_t len;
	char *data;
	int ret;

	ret = strbuf_read_file(&sb, path);
	if (ret < 0)
		die_lib(ret);
	data = strbuf_detach(&sb, &len);
	ret = rt_table_parse(&t, path, (unsigned char *)data, len, algo);
	if (ret < 0)
		die_lib(ret);
	printf("table\t%llu\t%llu\t%u\n", (unsigned long long)t.min_index,
	       (unsigned long long)t.max_index, (unsigned)t.block_size);
	rt_iter_init(&it, &t, RT_BLOCK_REF);
	while (!(ret = rt_iter_next(&it)))
		print_ref(&it.ref);
	rt_iter_release(&it);
	if (ret < 0)
		die_lib(ret);
	rt_iter_init(&it, &t, RT_BLOCK_LOG);
	while (!(ret = rt_iter_next(&it)))
		print_log(&it.log);
	rt_iter_release(&it);
	if (ret < 0)
		die_lib(ret);
	rt_table_release(&t);
	return 0;
}

static int
write_table(int argc, const char **argv)
{
	struct reftable_write_options opts = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct records rs;
	int ret, fd;

	read_records(&rs);
	opts.block_size = rs.block_size;
	if (argc > 3)
		opts.restart_interval = strtoul(argv[3], NULL, 10);
	if (argc > 4)
		opts.skip_index_objects = atoi(argv[4]);
	ret = rt_write_table(&out, algo, &opts, RT_WRITE_EXACT_MESSAGES, rs.min, rs.max, rs.refs,
			     rs.nref, rs.logs, rs.nlog);
	if (ret < 0)
		die_lib(ret);
	if (ret == 1)
		die("nothing to write");
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_full(fd, out.buf, out.len) < 0 || close(fd) < 0)
		die("cannot write '%s': %s", argv[2], strerror(errno));
	strbuf_release(&out);
	records_release(&rs);
	return 0;
}

static long
lock_timeout(void)
{
	const char *v = getenv("DIRC_TEST_REFTABLE_TIMEOUT");

	return v ? atol(v) : 100;
}

int
test_tool_reftable(int argc, const char **argv)
{
	struct reftable_stack *st = NULL;
	const char *cmd;
	int ret = 0;

	argc--;
	argv++;
	algo = &hash_algos[HASH_ALGO_SHA1];
	if (argc > 1 && !strcmp(argv[1], "--sha256")) {
		algo = &hash_algos[HASH_ALGO_SHA256];
		argc--;
		argv++;
	}
	hash_algo_set(algo);
	if (argc < 3)
		die("usage: dirc test-tool reftable [--sha256] <cmd> <path>");
	cmd = argv[1];
	if (!strcmp(cmd, "create")) {
		ret = reftable_stack_create(argv[2], 0);
		if (ret < 0)
			die_lib(ret);
		return 0;
	}
	if (!strcmp(cmd, "table"))
		return dump_table(argv[2]);
	if (!strcmp(cmd, "write-table"))
		return write_table(argc, argv);

	ret = reftable_stack_open(&st, argv[2], algo);
	if (ret < 0)
		die_lib(ret);
	if (!strcmp(cmd, "dump")) {
		ret = reftable_stack_for_each_ref(st, "", ref_cb, NULL);
		if (!ret)
			ret = reftable_stack_for_each_log(st, NULL, log_cb,
							  NULL);
	} else if (!strcmp(cmd, "read") && argc > 3) {
		struct reftable_ref r;

		ret = reftable_stack_read_ref(st, argv[3], &r);
		if (!ret) {
			print_ref(&r);
			reftable_ref_release(&r);
		}
	} else if (!strcmp(cmd, "write")) {
		struct reftable_addition *add;
		struct records rs;

		read_records(&rs);
		ret = reftable_addition_begin(&add, st, lock_timeout());
		if (!ret)
			ret = reftable_addition_add(add, rs.refs, rs.nref,
						    rs.logs, rs.nlog);
		if (!ret)
			ret = reftable_addition_commit(add);
		if (add)
			reftable_addition_free(add);
		records_release(&rs);
	} else if (!strcmp(cmd, "compact")) {
		ret = reftable_stack_compact_all(st, lock_timeout());
	} else {
		die("unknown reftable subcommand '%s'", cmd);
	}
	reftable_stack_close(st);
	if (ret < 0)
		die_lib(ret);
	return ret;
}
