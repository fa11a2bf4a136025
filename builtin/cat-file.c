/*
 * cat-file: show an object's type, size or contents; answer batches of
 * names on standard input in git's formats.
 */
#include <sys/stat.h>

#include "builtin.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"
#include "tree.h"

const char *const cat_file_usage[] = {
	"dirc cat-file <type> <object>",
	"dirc cat-file (-e | -p) <object>",
	"dirc cat-file (-t | -s) [--allow-unknown-type] <object>",
	"dirc cat-file (--batch | --batch-check | --batch-command) "
	"[--batch-all-objects]\n"
	"                    [--buffer] [-z]",
	NULL,
};

static struct odb *
open_odb(struct repo *repo)
{
	struct odb *odb;
	int ret = repo_odb(&odb, repo);

	if (ret < 0)
		die_lib(ret);
	return odb;
}

static void
resolve_or_die(struct object_id *oid, struct repo *repo, const char *name)
{
	int ret = get_oid(oid, repo, name);

	if (ret < 0)
		die_lib(ret);
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
 * git's "cat-file <type> <object>" does.
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
		if (obj->type == OBJ_TAG && obj->size > 7 + HASH_HEXSZ &&
		    skip_prefix(p, "object ", &p) && !hex_to_oid(&oid, p)) {
			odb_object_release(obj);
			continue;
		}
		if (obj->type == OBJ_COMMIT && want == OBJ_TREE &&
		    obj->size > 5 + HASH_HEXSZ &&
		    skip_prefix(p, "tree ", &p) && !hex_to_oid(&oid, p)) {
			odb_object_release(obj);
			continue;
		}
		odb_object_release(obj);
		return -1;
	}
	return -1;
}

struct batch {
	struct repo *repo;
	struct odb *odb;
	const char *format;	/* NULL: the default */
	int contents;		/* --batch: print the contents too */
	int buffer;		/* --buffer: do not flush per object */
	int has_rest;		/* the format uses %(rest) */
	int cmd_mode;		/* --batch-command */
	struct strbuf out;
};

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
	if (odb_find_packed(odb, oid, &p, &off))
		pack_object_info(&odb->env, p, off, &type, &size, out);
}

static void
expand_format(struct batch *b, const char *fmt, const struct object_id *oid,
	      const char *type, size_t size, const char *rest)
{
	const char *p = fmt;

	while (*p) {
		const char *end;
		size_t len;

		if (*p != '%' || p[1] != '(') {
			strbuf_addch(&b->out, *p++);
			continue;
		}
		end = strchr(p, ')');
		if (!end)
			die("format element '%s' does not end in ')'", p);
		p += 2;
		len = end - p;
#define ATOM(s) (len == sizeof(s) - 1 && !memcmp(p, s, len))
		if (ATOM("objectname"))
			strbuf_addstr(&b->out, oid_to_hex(oid));
		else if (ATOM("objecttype"))
			strbuf_addstr(&b->out, type);
		else if (ATOM("objectsize"))
			strbuf_addf(&b->out, "%zu", size);
		else if (ATOM("objectsize:disk"))
			strbuf_addf(&b->out, "%lld",
				    (long long)disk_size(b->odb, oid));
		else if (ATOM("deltabase")) {
			struct object_id base;

			delta_base(&base, b->odb, oid);
			strbuf_addstr(&b->out, oid_to_hex(&base));
		}
		else if (ATOM("rest"))
			strbuf_addstr(&b->out, rest ? rest : "");
		else
			die("unknown format element: %.*s", (int)len, p);
#undef ATOM
		p = end + 1;
	}
}

static void
flush_out(struct batch *b, int force)
{
	fwrite(b->out.buf, 1, b->out.len, stdout);
	strbuf_reset(&b->out);
	if (force || !b->buffer)
		fflush(stdout);
}

static void batch_oid(struct batch *b, const struct object_id *oid,
		      const char *rest, int contents);

static void
batch_one(struct batch *b, const char *name, const char *rest,
	  int contents)
{
	struct object_id oid;
	int ret;

	ret = get_oid(&oid, b->repo, name);
	if (ret == -E_AMBIGUOUS && error_pre()) {
		fflush(stdout);
		fprintf(stderr, "error: %s\n", error_pre());
	}
	if (ret == -E_AMBIGUOUS || ret == -E_NOTFOUND ||
	    (ret == 0 && !odb_has(b->odb, &oid))) {
		strbuf_addf(&b->out, "%s %s\n", name,
			    ret == -E_AMBIGUOUS ? "ambiguous" : "missing");
		flush_out(b, 0);
		return;
	}
	if (ret < 0)
		die_lib(ret);
	batch_oid(b, &oid, rest, contents);
}

/* The output for an object known to be stored. */
static void
batch_oid(struct batch *b, const struct object_id *oid, const char *rest,
	  int contents)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	enum object_type type;
	size_t size;
	int ret;

	if (contents) {
		ret = odb_read(&obj, b->odb, oid, 0);
		type = obj.type;
		size = obj.size;
	} else {
		ret = odb_read_info(&type, &size, NULL, 0, b->odb, oid, 0);
	}
	if (ret < 0)
		die_lib(ret);
	expand_format(b, b->format ? b->format :
		      "%(objectname) %(objecttype) %(objectsize)", oid,
		      type_name(type), size, rest);
	strbuf_addch(&b->out, '\n');
	if (contents) {
		/* the object's bytes go out as they are, not via a copy */
		fwrite(b->out.buf, 1, b->out.len, stdout);
		fwrite(obj.data, 1, obj.size, stdout);
		odb_object_release(&obj);
		strbuf_reset(&b->out);
		strbuf_addch(&b->out, '\n');
	}
	flush_out(b, 0);
}

/* Split a batch line into the name and, when the format wants it, rest. */
static void
batch_line(struct batch *b, char *line, int contents)
{
	char *rest = NULL;

	if (b->has_rest) {
		char *sp = strpbrk(line, " \t");

		if (sp) {
			*sp = '\0';
			rest = sp + 1;
			while (*rest == ' ' || *rest == '\t')
				rest++;
		}
	}
	batch_one(b, line, rest, contents);
}

static int
cmp_oid(const void *a, const void *b)
{
	return oidcmp(a, b);
}

struct oid_list {
	struct object_id *oids;
	size_t nr, alloc;
};

static int
collect_oid(const struct object_id *oid, void *ctx)
{
	struct oid_list *l = ctx;

	ALLOC_GROW(l->oids, l->nr + 1, l->alloc);
	l->oids[l->nr++] = *oid;
	return 0;
}

static void
batch_all_objects(struct batch *b)
{
	struct oid_list l = { NULL, 0, 0 };

	odb_for_each_object(b->odb, 0, collect_oid, &l);
	sort_array(l.oids, l.nr, sizeof(*l.oids), cmp_oid);
	/* no reader waits on a pipe for each answer here: buffer it all */
	b->buffer = 1;
	for (size_t i = 0; i < l.nr; i++) {
		if (i && oideq(&l.oids[i], &l.oids[i - 1]))
			continue;
		batch_oid(b, &l.oids[i], NULL, b->contents);
	}
	free(l.oids);
}

static void
batch_command_line(struct batch *b, char *line)
{
	char *arg;

	if (!strcmp(line, "flush")) {
		if (!b->buffer)
			die("flush is only for --buffer mode");
		flush_out(b, 1);
		return;
	}
	arg = strchr(line, ' ');
	if (!arg)
		die("%s requires arguments", line);
	*arg++ = '\0';
	if (!strcmp(line, "contents"))
		batch_line(b, arg, 1);
	else if (!strcmp(line, "info"))
		batch_line(b, arg, 0);
	else
		die("unknown command: '%s'", line);
}

static int
run_batch(struct batch *b, int all, int nul)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_init(&b->out, 0);
	b->has_rest = b->format && strstr(b->format, "%(rest)") != NULL;
	if (all) {
		batch_all_objects(b);
	} else {
		while (strbuf_getdelim(&line, stdin, nul ? '\0' : '\n') != EOF) {
			if (b->cmd_mode)
				batch_command_line(b, line.buf);
			else
				batch_line(b, line.buf, b->contents);
		}
	}
	flush_out(b, 1);
	strbuf_release(&line);
	strbuf_release(&b->out);
	return 0;
}

static int
opt_batch(const struct option *opt, const char *arg, int unset)
{
	const char **fmt = opt->value;

	if (unset)
		return -1;
	*fmt = arg ? arg : "";
	return 0;
}

int
cmd_cat_file(int argc, const char **argv)
{
	struct repo repo;
	struct odb *odb;
	struct odb_object obj = ODB_OBJECT_INIT;
	struct object_id oid;
	const char *batch_fmt = NULL, *check_fmt = NULL, *cmd_fmt = NULL;
	int mode = 0, unknown_type = 0, all = 0, buffer = 0, nul = 0;
	int ret, flags;
	struct option opts[] = {
		OPT_GROUP("Check object existence or emit object contents"),
		OPT_SET_INT('e', NULL, &mode, "check if <object> exists", 'e'),
		OPT_SET_INT('p', NULL, &mode, "pretty-print <object> content",
			    'p'),
		OPT_GROUP("Emit [broken] object attributes"),
		OPT_SET_INT('t', NULL, &mode, "show object type", 't'),
		OPT_SET_INT('s', NULL, &mode, "show object size", 's'),
		OPT_BOOL(0, "allow-unknown-type", &unknown_type,
			 "allow -s and -t to work with broken/corrupt objects"),
		OPT_GROUP("Batch objects requested on stdin "
			  "(or --batch-all-objects)"),
		OPT_CALLBACK_F(0, "batch", &batch_fmt, "format",
			       "show full <object> or <rev> contents",
			       OPT_OPTARG | OPT_NONEG, opt_batch),
		OPT_CALLBACK_F(0, "batch-check", &check_fmt, "format",
			       "like --batch, but don't emit <contents>",
			       OPT_OPTARG | OPT_NONEG, opt_batch),
		OPT_BOOL('z', NULL, &nul, "stdin is NUL-terminated"),
		OPT_CALLBACK_F(0, "batch-command", &cmd_fmt, "format",
			       "read commands from stdin",
			       OPT_OPTARG | OPT_NONEG, opt_batch),
		OPT_BOOL(0, "batch-all-objects", &all,
			 "with --batch[-check]: ignores stdin, batches all "
			 "known objects"),
		OPT_BOOL(0, "buffer", &buffer, "buffer --batch output"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, cat_file_usage, 0);
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	odb = open_odb(&repo);

	if (batch_fmt || check_fmt || cmd_fmt) {
		struct batch b = { .repo = &repo, .odb = odb, .buffer = buffer };
		const char *fmt = batch_fmt ? batch_fmt : check_fmt ?
			check_fmt : cmd_fmt;

		if (argc || mode)
			usage_msg_opt("batch modes take no arguments",
				      cat_file_usage, opts);
		if (!!batch_fmt + !!check_fmt + !!cmd_fmt > 1)
			usage_msg_opt("only one batch option may be specified",
				      cat_file_usage, opts);
		if (all && cmd_fmt)
			usage_msg_opt("'--batch-command' and "
				      "'--batch-all-objects' cannot be used "
				      "together", cat_file_usage, opts);
		b.format = *fmt ? fmt : NULL;
		b.contents = batch_fmt != NULL;
		b.cmd_mode = cmd_fmt != NULL;
		ret = run_batch(&b, all, nul);
		repo_release(&repo);
		return ret;
	}
	if (all || buffer || nul)
		usage_msg_opt("--batch-all-objects, --buffer and -z need a "
			      "batch mode", cat_file_usage, opts);

	if (!mode) {
		enum object_type want;

		if (argc != 2)
			usage_with_options(cat_file_usage, opts);
		want = type_from_name(argv[0], strlen(argv[0]));
		if (want == OBJ_BAD)
			die("invalid object type \"%s\"", argv[0]);
		resolve_or_die(&oid, &repo, argv[1]);
		if (read_as_type(&obj, odb, oid, want) < 0) {
			if (error_code() && error_code() != E_NOTFOUND)
				die_lib(-1);
			die("git cat-file %s: bad file", argv[1]);
		}
		fwrite(obj.data, 1, obj.size, stdout);
		odb_object_release(&obj);
		repo_release(&repo);
		return 0;
	}
	if (argc != 1) {
		if (argc == 0)
			fprintf(stderr, "fatal: <object> required with '-%c'\n",
				mode);
		else
			fprintf(stderr, "fatal: only one object may be given "
				"with '-%c'\n", mode);
		usage_with_options(cat_file_usage, opts);
	}
	if (unknown_type && mode != 't' && mode != 's')
		usage_msg_opt("--allow-unknown-type works with -t and -s only",
			      cat_file_usage, opts);
	resolve_or_die(&oid, &repo, argv[0]);
	flags = unknown_type ? ODB_READ_ANY_TYPE : 0;

	switch (mode) {
	case 'e':
		ret = odb_has(odb, &oid) ? 0 : 1;
		break;
	case 't':
	case 's': {
		enum object_type type;
		char tbuf[64];
		size_t size;

		ret = odb_read_info(&type, &size, tbuf, sizeof(tbuf), odb,
				    &oid, flags);
		if (ret == -E_NOTFOUND)
			die("git cat-file: could not get object info");
		if (ret < 0)
			die_lib(ret);
		if (mode == 't')
			printf("%s\n", tbuf);
		else
			printf("%zu\n", size);
		break;
	}
	case 'p':
		ret = odb_read(&obj, odb, &oid, 0);
		if (ret == -E_NOTFOUND)
			die("Not a valid object name %s", argv[0]);
		if (ret < 0)
			die_lib(ret);
		if (obj.type == OBJ_TREE) {
			struct object_id check;

			/* git parses a tree to print it, checking its id */
			odb_hash(&check, "tree", obj.data, obj.size);
			if (!oideq(&check, &oid)) {
				error("hash mismatch %s", oid_to_hex(&oid));
				die("not a tree object");
			}
			pretty_tree(&obj, repo.settings.quotepath);
		}
		else
			fwrite(obj.data, 1, obj.size, stdout);
		odb_object_release(&obj);
		break;
	}
	repo_release(&repo);
	return ret;
}
