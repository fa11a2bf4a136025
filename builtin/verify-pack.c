/*
 * verify-pack: check packs completely — both trailers, every object
 * inflates and hashes to its name, every CRC.
 */
#include "builtin.h"
#include "hash.h"
#include "odb.h"
#include "pack.h"
#include "parse-options.h"
#include "repo.h"
#include "strbuf.h"

const char *const verify_pack_usage[] = {
	"dirc verify-pack [-v | --verbose] [-s | --stat-only] "
	"[--object-format=<hash>] [--] <pack>.idx...",
	NULL,
};

int
cmd_verify_pack(int argc, const char **argv)
{
	struct repo repo;
	struct odb *odb, scratch;
	const char *format = NULL;
	const struct hash_algo *algo = NULL;
	int verbose = 0, stat_only = 0, err = 0, ret;
	struct option opts[] = {
		OPT_BOOL('v', "verbose", &verbose, "verbose"),
		OPT_BOOL('s', "stat-only", &stat_only,
			 "show statistics only"),
		OPT_STRING(0, "object-format", &format, "hash",
			   "specify the hash algorithm to use"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, verify_pack_usage, 0);
	if (!argc)
		usage_with_options(verify_pack_usage, opts);
	/* A pack does not say its hash: the repository's, or this one. */
	if (format && !(algo = hash_algo_by_name(format))) {
		/* git's message; its exit code is 1, as for a bad pack */
		fprintf(stderr, "fatal: unknown hash algorithm '%s'\n",
			format);
		return 1;
	}
	/* inside a repository, reference deltas may use its objects */
	ret = repo_open(&repo, REPO_NO_CHDIR | REPO_GENTLY);
	if (ret < 0)
		die_lib(ret);
	if (algo && algo != hash_algo) {
		/* the packs are not of the repository's objects */
		repo_release(&repo);	/* leaves it as outside one */
		hash_algo_set(algo);
	}
	if (repo.objdir) {
		ret = repo_odb(&odb, &repo);
		if (ret < 0)
			die_lib(ret);
	} else {
		odb_init(&scratch, ".", NULL);
		odb = &scratch;
	}
	for (int i = 0; i < argc; i++) {
		struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
		struct pack *p;

		strbuf_addstr(&path, argv[i]);
		if (ends_with(path.buf, ".pack")) {
			strbuf_setlen(&path, path.len - 5);
			strbuf_addstr(&path, ".idx");
		} else if (!ends_with(path.buf, ".idx")) {
			strbuf_addstr(&path, ".idx");
		}
		ret = pack_open(&p, path.buf);
		if (!ret) {
			ret = pack_verify(&odb->env, p, &out,
					  verbose ? 1 : stat_only ? 2 : 0);
			fwrite(out.buf, 1, out.len, stdout);
		}
		if (ret < 0) {
			error_lib(ret);
			err = 1;
		} else if (verbose) {
			printf("%s: ok\n", p->pack_path);
		}
		pack_close(p);
		strbuf_release(&path);
		strbuf_release(&out);
	}
	if (!repo.objdir)
		odb_release(&scratch);
	repo_release(&repo);
	return err;
}
