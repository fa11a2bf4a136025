/*
 * fuzz-path: command-line path normalisation (path_normalize) and the
 * rules for paths entering the index (path_verify with NTFS and HFS
 * protection, for files and symlinks), and path_in_dir.
 *
 * Input: up to three NUL-separated strings — the argument, the prefix
 * ("" or "dir/"; "" when it is not of that form, as path.h asks of
 * callers) and the work tree (absolute; "/wt" if absent or not
 * absolute).
 *
 * Invariants checked:
 *   - a normalised path has no "", "." or ".." component (but may end
 *     in a slash, as its argument did), and normalises to itself;
 *   - a path path_verify accepts has no empty, ".", ".." or ".git"
 *     (any case) component, no leading or trailing slash; protections
 *     only ever refuse more; a symlink is refused at least as often as
 *     a file;
 *   - path_in_dir agrees with a plain prefix test.
 */
#include "fuzz.h"

#include <strings.h>
#include <sys/stat.h>

#include "error.h"
#include "path.h"

static void
check_normalized(const char *p, const char *arg)
{
	struct strbuf again = STRBUF_INIT;
	size_t len = strlen(p);

	for (const char *c = p; *c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);

		if (!n)
			BUG("'%s' (from '%s') has an empty component", p, arg);
		if ((n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			BUG("'%s' (from '%s') has a dot component", p, arg);
		if (!slash)
			break;
		c = slash + 1;
	}
	if (len && p[0] == '/')
		BUG("'%s' (from '%s') is absolute", p, arg);
	if (path_normalize(&again, "", p, "/wt") < 0)
		BUG("'%s' (from '%s') does not normalise", p, arg);
	if (strcmp(again.buf, p))
		BUG("'%s' normalises to '%s'", p, again.buf);
	strbuf_release(&again);
}

static void
check_verified(const char *p)
{
	size_t len = strlen(p);

	if (!len || p[0] == '/' || p[len - 1] == '/')
		BUG("'%s' accepted with an empty component", p);
	for (const char *c = p; *c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);

		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.') ||
		    (n == 4 && !strncasecmp(c, ".git", 4)))
			BUG("'%s' accepted with a bad component", p);
		if (!slash)
			break;
		c = slash + 1;
	}
}

/* Is p a prefix as path.h's callers give one: "" or "a/b/", normalised? */
static int
valid_prefix(const char *p)
{
	size_t len = strlen(p);

	if (!len)
		return 1;
	if (p[len - 1] != '/')
		return 0;
	for (const char *c = p; *c;) {
		const char *slash = strchr(c, '/');
		size_t n = (size_t)(slash - c);

		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		c = slash + 1;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const char *arg, *prefix = "", *worktree = "/wt", *end;
	static const unsigned modes[] = { S_IFREG | 0644, S_IFLNK };

	strbuf_add(&in, data, size);
	end = in.buf + in.len;
	arg = in.buf;
	if (arg + strlen(arg) < end) {
		prefix = arg + strlen(arg) + 1;
		if (prefix + strlen(prefix) < end) {
			worktree = prefix + strlen(prefix) + 1;
			if (worktree[0] != '/')
				worktree = "/wt";
		}
		if (!valid_prefix(prefix))
			prefix = "";
	}

	if (!path_normalize(&out, prefix, arg, worktree))
		check_normalized(out.buf, arg);
	error_clear();

	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		int plain = path_verify(arg, modes[m], 0);
		int ntfs = path_verify(arg, modes[m], PATH_PROTECT_NTFS);
		int hfs = path_verify(arg, modes[m], PATH_PROTECT_HFS);
		int both = path_verify(arg, modes[m],
				       PATH_PROTECT_NTFS | PATH_PROTECT_HFS);

		if ((ntfs && !plain) || (hfs && !plain) ||
		    (both && !(ntfs && hfs)))
			BUG("a protection accepted '%s'", arg);
		if (both)
			check_verified(arg);
		if (m && both &&
		    !path_verify(arg, modes[0], PATH_PROTECT_NTFS |
				 PATH_PROTECT_HFS))
			BUG("'%s' is refused as a file, accepted as a link",
			    arg);
		if (plain)
			check_verified(arg);
	}

	{
		size_t alen = strlen(arg), plen = strlen(prefix);
		int in_dir = path_in_dir(arg, alen, prefix, plen);
		int expect = !plen || (alen > plen && arg[plen] == '/' &&
				       !memcmp(arg, prefix, plen));

		if (in_dir != expect)
			BUG("path_in_dir('%s', '%s') is %d", arg, prefix,
			    in_dir);
	}
	strbuf_release(&in);
	strbuf_release(&out);
	return 0;
}
