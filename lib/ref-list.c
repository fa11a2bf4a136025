/*
 * ref-list: collect names from the loose directories and packed-refs,
 * sort, drop the packed duplicates of loose refs, then resolve each
 * through refs.c as any reader would.
 */
#include "ref-list.h"

#include <sys/stat.h>

#include "dir.h"
#include "error.h"
#include "refs-internal.h"
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

/* What walk() carries down the directories. */
struct walk {
	struct name_list *out;
	struct strbuf *name;	/* the ref name of the directory walked */
	int skip_worktree;	/* leave out the per-worktree directories
				 * (they come from the worktree's own git
				 * directory) */
};

/*
 * Walk dir (the file system path of ref directory w->name, "refs/...")
 * adding every file below it.
 */
static int walk(struct walk *w, struct strbuf *dir);

/* dir_for_each() callback: one entry of walk() */
static int
walk_entry(struct strbuf *path, const char *entry, void *data)
{
	struct walk *w = data;
	size_t nlen = w->name->len;
	struct stat st;
	int ret = 0;

	if (entry[0] == '.')
		return 0;
	strbuf_addf(w->name, "/%s", entry);
	if (stat(path->buf, &st) < 0)
		goto out;
	if (S_ISDIR(st.st_mode)) {
		if (!w->skip_worktree || !is_worktree_dir(w->name->buf))
			ret = walk(w, path);
	} else if (S_ISREG(st.st_mode) &&
		   refname_is_valid(w->name->buf, 0)) {
		ALLOC_GROW(w->out->names, w->out->nr + 1, w->out->alloc);
		w->out->names[w->out->nr++] = xstrdup(w->name->buf);
	}
out:
	strbuf_setlen(w->name, nlen);
	return ret;
}

static int
walk(struct walk *w, struct strbuf *dir)
{
	int ret = dir_for_each(dir, walk_entry, w);

	if (ret < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		error_clear();
		ret = 0;
	}
	return ret;
}

static int
walk_from(struct name_list *out, const char *base, const char *top,
	  int skip_worktree)
{
	struct strbuf dir = STRBUF_INIT, name = STRBUF_INIT;
	struct walk w = { out, &name, skip_worktree };
	int ret;

	strbuf_addf(&dir, "%s/%s", base, top);
	strbuf_addstr(&name, top);
	ret = walk(&w, &dir);
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
	if (rs->reftable)
		ret = refs_rt_names(rs, "refs/", &names.names, &names.nr,
				    &names.alloc);
	else
		ret = walk_from(&names, rs->commondir, "refs", linked);
	if (!ret && linked && !rs->reftable) {
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
