/*
 * rev-parse: the answers scripts ask git's plumbing for — object ids of
 * names (--verify, -q), symbolic names, and where the repository is.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "config.h"
#include "object-name.h"
#include "odb.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"

const char *const rev_parse_usage[] = {
	"dirc rev-parse [<options>] <args>...",
	"dirc rev-parse --verify [-q | --quiet] <name>",
	NULL,
};

/* The shortest prefix (at least len digits) naming only oid. */
static void
unique_abbrev(char *out, struct repo *repo, const struct object_id *oid,
	      int len)
{
	char hex[HASH_HEXSZ + 1];

	oid_to_hex_r(hex, oid);
	if (len < 4)
		len = 4;
	for (; len < HASH_HEXSZ; len++) {
		struct object_id found;

		if (!get_oid_prefix(&found, repo, hex, len))
			break;
		error_clear();
	}
	memcpy(out, hex, len);
	out[len] = '\0';
}

/* refs/heads/master -> master, when that name resolves back to it */
static void
abbrev_ref(struct strbuf *out, struct repo *repo, const char *full)
{
	static const char *const prefixes[] = {
		"refs/heads/", "refs/tags/", "refs/remotes/", "refs/",
	};
	struct strbuf found = STRBUF_INIT;
	struct object_id oid;

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		const char *p;

		if (!skip_prefix(full, prefixes[i], &p))
			continue;
		if (dwim_ref(&found, &oid, repo, p, strlen(p)) &&
		    !strcmp(found.buf, full)) {
			strbuf_addstr(out, p);
			strbuf_release(&found);
			return;
		}
	}
	strbuf_addstr(out, full);
	strbuf_release(&found);
}

enum show { SHOW_HEX, SHOW_FULL_NAME, SHOW_ABBREV_REF, SHOW_SHORT };

static int
show_rev(struct repo *repo, const char *arg, enum show show, int abbrev)
{
	struct object_id oid;
	struct strbuf name = STRBUF_INIT;
	char buf[HASH_HEXSZ + 1];

	if (get_oid(&oid, repo, arg) < 0)
		return -1;
	switch (show) {
	case SHOW_HEX:
		printf("%s\n", oid_to_hex(&oid));
		break;
	case SHOW_SHORT:
		unique_abbrev(buf, repo, &oid, abbrev);
		printf("%s\n", buf);
		break;
	case SHOW_FULL_NAME:
	case SHOW_ABBREV_REF: {
		struct ref_store rs;
		struct object_id tmp;
		int found;

		ref_store_init(&rs, repo->gitdir, repo->commondir);
		if (!strcmp(arg, "HEAD") || !strcmp(arg, "@")) {
			found = !refs_resolve(&rs, "HEAD", &tmp, &name);
		} else {
			found = dwim_ref(&name, &tmp, repo, arg, strlen(arg));
			if (found) {
				struct strbuf fin = STRBUF_INIT;

				if (!refs_resolve(&rs, name.buf, &tmp, &fin)) {
					strbuf_reset(&name);
					strbuf_addbuf(&name, &fin);
				}
				strbuf_release(&fin);
			}
		}
		error_clear();
		ref_store_release(&rs);
		if (found) {
			if (show == SHOW_ABBREV_REF) {
				struct strbuf ab = STRBUF_INIT;

				abbrev_ref(&ab, repo, name.buf);
				printf("%s\n", ab.buf);
				strbuf_release(&ab);
			} else {
				printf("%s\n", name.buf);
			}
		} else if (show == SHOW_ABBREV_REF && !strcmp(arg, "HEAD")) {
			printf("HEAD\n");
		}
		break;
	}
	}
	strbuf_release(&name);
	return 0;
}

NORETURN static void
ambiguous(const char *arg)
{
	die("ambiguous argument '%s': unknown revision or path not in the "
	    "working tree.\nUse '--' to separate paths from revisions, like "
	    "this:\n'git <command> [<revision>...] -- [<file>...]'", arg);
}

/*
 * --git-dir as git prints it: GIT_DIR as given, "." inside the git
 * directory, ".git" at the top of the work tree, else the absolute path.
 */
static void
print_gitdir(const struct repo *repo, const char *cwd, int absolute)
{
	const char *env = getenv("GIT_DIR");
	char *real = realpath(cwd, NULL);
	const char *c = real ? real : cwd;

	if (absolute)
		printf("%s\n", repo->gitdir);
	else if (env && *env)
		printf("%s\n", env);
	else if (!strcmp(c, repo->gitdir))
		printf(".\n");
	else if (repo->worktree && !strcmp(c, repo->worktree) &&
		 ends_with(repo->gitdir, "/.git") &&
		 !strncmp(repo->gitdir, c, strlen(c)) &&
		 strlen(repo->gitdir) == strlen(c) + 5)
		printf(".git\n");
	else
		printf("%s\n", repo->gitdir);
	free(real);
}

int
cmd_rev_parse(int argc, const char **argv)
{
	struct repo repo;
	struct strbuf cwd = STRBUF_INIT;
	enum show show = SHOW_HEX;
	int verify = 0, quiet = 0, abbrev = 7, ret, nrevs = 0, dashdash = 0;
	int in_gitdir = 0;
	const char *verify_arg = NULL;

	if (strbuf_getcwd(&cwd) < 0)
		die_lib(-1);
	if (argc == 2 && !strcmp(argv[1], "-h")) {
		printf("usage: %s\n   or: %s\n", rev_parse_usage[0],
		       rev_parse_usage[1]);
		exit(129);
	}
	ret = repo_open(&repo, REPO_NO_CHDIR | REPO_GENTLY);
	if (ret < 0)
		die_lib(ret);
	if (repo.gitdir) {
		char *real = realpath(cwd.buf, NULL);
		const char *c = real ? real : cwd.buf;
		size_t glen = strlen(repo.gitdir);

		in_gitdir = !strncmp(c, repo.gitdir, glen) &&
			    (c[glen] == '/' || !c[glen]);
		free(real);
	}
	/* first pass: modes that apply to every argument */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--verify"))
			verify = 1;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			quiet = 1;
		else if (!strcmp(a, "--symbolic-full-name"))
			show = SHOW_FULL_NAME;
		else if (!strcmp(a, "--abbrev-ref"))
			show = SHOW_ABBREV_REF;
		else if (!strcmp(a, "--short"))
			show = SHOW_SHORT;
		else if (skip_prefix(a, "--short=", &v)) {
			show = SHOW_SHORT;
			abbrev = atoi(v);
		}
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (dashdash) {
			printf("%s\n", a);
			continue;
		}
		if (!strcmp(a, "--")) {
			if (verify)
				die("Needed a single revision");
			printf("--\n");
			dashdash = 1;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			int need_repo = 1;

			if (!strcmp(a, "--verify") || !strcmp(a, "-q") ||
			    !strcmp(a, "--quiet") ||
			    !strcmp(a, "--symbolic-full-name") ||
			    !strcmp(a, "--abbrev-ref") ||
			    starts_with(a, "--short")) {
				continue;
			}
			if (!strcmp(a, "--is-inside-work-tree")) {
				if (!repo.gitdir)
					die("not a git repository (or any of "
					    "the parent directories): .git");
				printf("%s\n", repo.worktree && !in_gitdir ?
				       "true" : "false");
				continue;
			}
			if (!repo.gitdir && need_repo)
				die("not a git repository (or any of the parent "
				    "directories): .git");
			if (!strcmp(a, "--git-dir")) {
				print_gitdir(&repo, cwd.buf, 0);
			} else if (!strcmp(a, "--absolute-git-dir")) {
				print_gitdir(&repo, cwd.buf, 1);
			} else if (!strcmp(a, "--git-common-dir")) {
				printf("%s\n", repo.commondir);
			} else if (!strcmp(a, "--show-toplevel")) {
				if (!repo.worktree)
					die("this operation must be run in a "
					    "work tree");
				printf("%s\n", repo.worktree);
			} else if (!strcmp(a, "--show-prefix")) {
				printf("%s\n", repo.prefix);
			} else if (!strcmp(a, "--show-cdup")) {
				if (in_gitdir)
					continue;	/* no work tree here */
				for (const char *p = repo.prefix; *p; p++)
					if (*p == '/')
						printf("../");
				printf("\n");
			} else if (!strcmp(a, "--is-bare-repository")) {
				int bare = repo.bare;

				/* inside .git, core.bare decides */
				if (in_gitdir && config_get_bool(&repo.config,
						"core.bare", &bare) <= 0)
					bare = repo.bare && !ends_with(
						repo.gitdir, "/.git");
				printf("%s\n", bare ? "true" : "false");
			} else if (!strcmp(a, "--is-inside-git-dir")) {
				printf("%s\n", in_gitdir ? "true" : "false");
			} else {
				die("unknown option '%s'", a);
			}
			continue;
		}
		if (!repo.gitdir)
			die("not a git repository (or any of the parent "
			    "directories): .git");
		nrevs++;
		if (verify) {
			if (verify_arg)
				die("Needed a single revision");
			verify_arg = a;
			continue;
		}
		if (show_rev(&repo, a, show, abbrev) < 0) {
			struct stat st;
			int code = error_code();
			char *msg = xstrdup(error_msg());

			if (code == E_AMBIGUOUS && error_pre()) {
				fflush(stdout);
				fprintf(stderr, "error: %s\n", error_pre());
			}
			/* git prints a non-revision as a path first */
			printf("%s\n", a);
			if (code == E_INVALID)
				die("%s", msg);	/* a path that is not there */
			if (!lstat(a, &st)) {
				free(msg);
				continue;
			}
			/* git looks the name up a second time, saying so */
			if (code != E_AMBIGUOUS)
				show_rev(&repo, a, show, abbrev);
			ambiguous(a);
		}
	}
	if (verify) {
		if (!verify_arg || show_rev(&repo, verify_arg, show, abbrev) < 0) {
			if (quiet)
				exit(1);
			if (verify_arg && error_code() == E_AMBIGUOUS &&
			    error_pre()) {
				fflush(stdout);
				fprintf(stderr, "error: %s\n", error_pre());
			}
			die("Needed a single revision");
		}
	}
	(void)nrevs;
	strbuf_release(&cwd);
	repo_release(&repo);
	return 0;
}
