/*
 * ref-list: collect names from the loose directories and packed-refs,
 * sort, drop the packed duplicates of loose refs, then resolve each
 * through refs.c as any reader would.
 */
#include "ref-list.h"

#include <dirent.h>
#include <sys/stat.h>

#include "error.h"
#include "strbuf.h"

struct name_list {
	char **names;	/* owned */
	size_t nr, alloc;
};

static int
is_worktree_dir(const char *name)
{
	return !strcmp(name, "refs/bisect") || !strcmp(name, "refs/worktree")
	       || !strcmp(name, "refs/rewritten");
}

/*
 * Walk dir (the file system path of ref directory name, "refs/...")
 * adding every file below it.  skip_worktree: leave out the per-worktree
 * subdirectories (they come from the worktree's own git directory).
 */
static int
walk(struct name_list *out, struct strbuf *dir, struct strbuf *name,
     int skip_worktree)
{
	size_t dlen = dir->len, nlen = name->len;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(dir->buf);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 :
			error_errno(errno, "cannot open directory '%s'",
				    dir->buf);
	while (!ret && (de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		strbuf_setlen(dir, dlen);
		strbuf_setlen(name, nlen);
		strbuf_addf(dir, "/%s", de->d_name);
		strbuf_addf(name, "/%s", de->d_name);
		if (stat(dir->buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (skip_worktree && is_worktree_dir(name->buf))
				continue;
			ret = walk(out, dir, name, skip_worktree);
		} else if (S_ISREG(st.st_mode) &&
			   refname_is_valid(name->buf, 0)) {
			ALLOC_GROW(out->names, out->nr + 1, out->alloc);
			out->names[out->nr++] = xstrdup(name->buf);
		}
	}
	closedir(d);
	strbuf_setlen(dir, dlen);
	strbuf_setlen(name, nlen);
	return ret;
}

static int
walk_from(struct name_list *out, const char *base, const char *top,
	  int skip_worktree)
{
	struct strbuf dir = STRBUF_INIT, name = STRBUF_INIT;
	int ret;

	strbuf_addf(&dir, "%s/%s", base, top);
	strbuf_addstr(&name, top);
	ret = walk(out, &dir, &name, skip_worktree);
	strbuf_release(&dir);
	strbuf_release(&name);
	return ret;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
ref_list_collect(struct ref_list *out, struct ref_store *rs,
		 const char *prefix)
{
	struct name_list names = { NULL, 0, 0 };
	int linked = strcmp(rs->gitdir, rs->commondir) != 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = walk_from(&names, rs->commondir, "refs", linked);
	if (!ret && linked) {
		static const char *const own[] = {
			"refs/bisect", "refs/worktree", "refs/rewritten",
		};

		for (size_t i = 0; !ret && i < ARRAY_SIZE(own); i++)
			ret = walk_from(&names, rs->gitdir, own[i], 0);
	}
	if (!ret)
		ret = refs_load_packed(rs);
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < rs->packed_nr; i++) {
		ALLOC_GROW(names.names, names.nr + 1, names.alloc);
		names.names[names.nr++] = xstrdup(rs->packed[i].name);
	}
	sort_array(names.names, names.nr, sizeof(*names.names), cmp_str);
	for (size_t i = 0; i < names.nr; i++) {
		const char *n = names.names[i];
		struct object_id oid;

		if (i && !strcmp(n, names.names[i - 1]))
			continue;	/* loose and packed: one ref */
		if (!starts_with(n, prefix))
			continue;
		if (refs_resolve(rs, n, &oid, NULL) < 0) {
			error_clear();
			continue;
		}
		ALLOC_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr].name = xstrdup(n);
		out->items[out->nr].oid = oid;
		out->nr++;
	}
out:
	for (size_t i = 0; i < names.nr; i++)
		free(names.names[i]);
	free(names.names);
	if (ret < 0)
		ref_list_release(out);
	return ret;
}

void
ref_list_release(struct ref_list *list)
{
	for (size_t i = 0; i < list->nr; i++)
		free(list->items[i].name);
	free(list->items);
	memset(list, 0, sizeof(*list));
}
