/*
 * commit-tree: create a commit object from a tree, parents and a message,
 * byte for byte as git commit-tree makes it.
 */
#include <fcntl.h>
#include <strings.h>
#include <unistd.h>

#include "builtin.h"
#include "commit.h"
#include "config.h"
#include "fileio.h"
#include "object-name.h"
#include "odb.h"
#include "repo.h"
#include "strbuf.h"

const char *const commit_tree_usage[] = {
	"dirc commit-tree [(-p <parent>)...] [-S[<keyid>]] [(-m <message>)...]\n"
	"                 [(-F <file>)...] <tree>",
	NULL,
};

static void
read_message_file(struct strbuf *msg, const char *file)
{
	struct strbuf data = STRBUF_INIT;
	int fd = 0;

	if (strcmp(file, "-")) {
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("could not open '%s' for reading: %s", file,
			    strerror(errno));
	}
	if (strbuf_read_fd(&data, fd, 0) < 0)
		die("could not read log from '%s': %s", file, strerror(errno));
	if (fd)
		close(fd);
	/* a paragraph of its own, taken as it is (no newline added) */
	if (msg->len)
		strbuf_addch(msg, '\n');
	strbuf_addbuf(msg, &data);
	strbuf_release(&data);
}

/* git takes these as they are: a tag is not peeled to its commit */
static void
assert_type(struct odb *odb, const struct object_id *oid,
	    enum object_type want)
{
	enum object_type type;
	size_t size;

	if (odb_read_info(&type, &size, NULL, 0, odb, oid, 0) < 0)
		die("%s is not a valid object", oid_to_hex(oid));
	if (type != want)
		die("%s is not a valid '%s' object", oid_to_hex(oid),
		    type_name(want));
}

/*
 * name as git's commit-tree takes it: flags (ONAME_TREE or ONAME_COMMIT)
 * choose among the objects an ambiguous abbreviation names; a failure
 * says why (the ambiguity report) and stops.
 */
static void
resolve_arg(struct object_id *out, struct repo *repo, const char *name,
	    unsigned flags)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;

	ctx.flags = flags;
	if (oname_get(out, repo, name, &ctx) < 0) {
		if (error_pre())
			fprintf(stderr, "error: %s\n", error_pre());
		die("not a valid object name %s", name);
	}
}

/* -h: the usage on stdout, exit 129 */
NORETURN static void
print_usage_and_exit(void)
{
	printf("usage: %s\n", commit_tree_usage[0]);
	exit(129);
}

NORETURN static void
usage_error(const char *msg)
{
	if (msg)
		fprintf(stderr, "error: %s\n", msg);
	fprintf(stderr, "usage: %s\n", commit_tree_usage[0]);
	exit(129);
}

int
cmd_commit_tree(int argc, const char **argv)
{
	struct repo repo;
	struct odb *odb;
	struct strbuf msg = STRBUF_INIT, buf = STRBUF_INIT;
	struct strbuf author = STRBUF_INIT, committer = STRBUF_INIT;
	struct object_id tree, *parents = NULL, oid;
	size_t nr_parents = 0, alloc = 0;
	const char *tree_arg = NULL, *encoding = NULL;
	int ret;

	/* as git: "-h" alone is answered without looking for a repository */
	if (argc == 2 && !strcmp(argv[1], "-h"))
		print_usage_and_exit();
	if (argc == 2 && !strcmp(argv[1], "--git-completion-helper")) {
		/* the long options taken below, in git's format */
		printf(" --message= --file= --no-gpg-sign\n");
		return 0;
	}
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	/* as git: no argument at all is a usage error (no tree is not) */
	if (argc < 2)
		usage_error(NULL);

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;

		if (!strcmp(arg, "-h")) {
			print_usage_and_exit();
		} else if (!strcmp(arg, "-p") || skip_prefix(arg, "-p", &v)) {
			struct object_id p;
			size_t k;

			if (!strcmp(arg, "-p")) {
				if (++i >= argc)
					usage_error("switch `p' requires a "
						    "value");
				v = argv[i];
			}
			resolve_arg(&p, &repo, v, ONAME_COMMIT);
			assert_type(odb, &p, OBJ_COMMIT);
			for (k = 0; k < nr_parents; k++)
				if (oideq(&parents[k], &p))
					break;
			if (k < nr_parents) {
				error("duplicate parent %s ignored",
				      oid_to_hex(&p));
				continue;
			}
			ALLOC_GROW(parents, nr_parents + 1, alloc);
			parents[nr_parents++] = p;
		} else if (!strcmp(arg, "-m") || skip_prefix(arg, "-m", &v) ||
			   skip_prefix(arg, "--message=", &v)) {
			if (!strcmp(arg, "-m")) {
				if (++i >= argc)
					usage_error("switch `m' requires a "
						    "value");
				v = argv[i];
			}
			if (msg.len)
				strbuf_addch(&msg, '\n');
			strbuf_addstr(&msg, v);
			if (msg.len && msg.buf[msg.len - 1] != '\n')
				strbuf_addch(&msg, '\n');
		} else if (!strcmp(arg, "-F") || skip_prefix(arg, "-F", &v) ||
			   skip_prefix(arg, "--file=", &v)) {
			if (!strcmp(arg, "-F")) {
				if (++i >= argc)
					usage_error("switch `F' requires a "
						    "value");
				v = argv[i];
			}
			read_message_file(&msg, v);
		} else if (!strcmp(arg, "--no-gpg-sign")) {
			/* nothing to sign */
		} else if (starts_with(arg, "-S") ||
			   starts_with(arg, "--gpg-sign")) {
			die("dirc commit-tree does not sign commits (%s)", arg);
		} else if (!strcmp(arg, "--")) {
			continue;
		} else if (arg[0] == '-' && arg[1]) {
			char m[128];

			snprintf(m, sizeof(m), "unknown %s `%s'",
				 arg[1] == '-' ? "option" : "switch",
				 arg + (arg[1] == '-' ? 2 : 1));
			usage_error(m);
		} else {
			if (tree_arg)
				die("must give exactly one tree");
			tree_arg = arg;
		}
	}
	if (!tree_arg)
		die("must give exactly one tree");
	resolve_arg(&tree, &repo, tree_arg, ONAME_TREE);
	assert_type(odb, &tree, OBJ_TREE);
	/* no message from -m or -F (or only empty ones): standard input */
	if (!msg.len && strbuf_read_fd(&msg, 0, 0) < 0)
		die("could not read log from standard input: %s",
		    strerror(errno));

	ret = ident_get(&author, &repo, IDENT_AUTHOR, IDENT_STRICT);
	if (!ret)
		ret = ident_get(&committer, &repo, IDENT_COMMITTER,
				IDENT_STRICT);
	if (ret < 0)
		die_lib(ret);
	if (memchr(msg.buf, '\0', msg.len)) {
		error("a NUL byte in commit log message not allowed.");
		ret = 1;
		goto out;
	}
	config_get_string(&repo.config, "i18n.commitencoding", &encoding);
	if (encoding && (!strcasecmp(encoding, "utf-8") ||
			 !strcasecmp(encoding, "utf8")))
		encoding = NULL;

	strbuf_addf(&buf, "tree %s\n", oid_to_hex(&tree));
	for (size_t k = 0; k < nr_parents; k++)
		strbuf_addf(&buf, "parent %s\n", oid_to_hex(&parents[k]));
	strbuf_addf(&buf, "author %s\ncommitter %s\n", author.buf,
		    committer.buf);
	if (encoding)
		strbuf_addf(&buf, "encoding %s\n", encoding);
	strbuf_addch(&buf, '\n');
	strbuf_addbuf(&buf, &msg);
	if (!encoding && !utf8_is_valid(buf.buf, buf.len)) {
		fprintf(stderr, "Warning: commit message did not conform to "
			"UTF-8.\nYou may want to amend it after fixing the "
			"message, or set the config\nvariable "
			"i18n.commitEncoding to the encoding your project "
			"uses.\n");
		utf8_repair(&buf);
	}
	ret = odb_write(odb, &odb->writer, "commit", buf.buf, buf.len, &oid);
	if (ret < 0)
		die_lib(ret);
	ret = odb_flush(odb);
	if (ret < 0)
		die_lib(ret);
	printf("%s\n", oid_to_hex(&oid));
	ret = 0;
out:
	free(parents);
	strbuf_release(&msg);
	strbuf_release(&buf);
	strbuf_release(&author);
	strbuf_release(&committer);
	repo_release(&repo);
	return ret;
}
