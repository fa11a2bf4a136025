/*
 * tree-path: the walk keeps the directories from the top down to the
 * current one (dirs[0] is the top), and the path still to walk in a
 * buffer; following a link replaces what is left of the path with the
 * link's target followed by the rest, so that the target is resolved
 * from the directory that holds the link and ".." in it climbs the
 * directories really walked through, as git resolves them.
 */
#include "tree-path.h"

#include <sys/stat.h>

#include "error.h"
#include "odb.h"
#include "tree.h"

struct walk {
	struct odb *odb;
	struct object_id *dirs;		/* owned; the last is current */
	size_t nr, alloc;
	int links;			/* links followed so far */
};

/*
 * Look name up in the current directory.  1 with *oid and *mode set,
 * 0 if there is no such entry (or the directory cannot be found), or a
 * negative E_*.
 */
static int
lookup(struct walk *w, const char *name, size_t len, struct object_id *oid,
       unsigned *mode)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct tree_iter it;
	struct tree_entry e;
	int ret = odb_read(&obj, w->odb, &w->dirs[w->nr - 1], 0);

	if (ret == -E_NOTFOUND) {
		error_clear();
		return 0;
	}
	if (ret < 0)
		return ret;
	ret = 0;
	if (obj.type == OBJ_TREE) {
		tree_iter_init(&it, obj.data, obj.size);
		while ((ret = tree_iter_next(&it, &e)) > 0)
			if (e.namelen == len && !memcmp(e.name, name, len)) {
				oidcpy(oid, e.oid);
				*mode = e.mode;
				break;
			}
	}
	odb_object_release(&obj);
	return ret;
}

/* The target of the link oid, replacing out.  0 or a negative E_*. */
static int
read_link(struct strbuf *out, struct odb *odb, const struct object_id *oid)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	int ret = odb_read(&obj, odb, oid, 0);

	if (ret < 0)
		return ret;
	strbuf_reset(out);
	strbuf_add(out, obj.data, obj.size);
	odb_object_release(&obj);
	return 0;
}

int
tree_path_follow(struct object_id *oid, unsigned *mode,
		 struct strbuf *outside, struct odb *odb,
		 const struct object_id *tree, const char *path)
{
	struct walk w = { odb, NULL, 0, 0, 0 };
	struct strbuf rest = STRBUF_INIT, target = STRBUF_INIT;
	size_t pos = 0;			/* rest.buf before pos is walked */
	int ret;

	ALLOC_GROW(w.dirs, 1, w.alloc);
	w.dirs[w.nr++] = *tree;
	strbuf_addstr(&rest, path);
	for (;;) {
		const char *name = rest.buf + pos, *slash;
		size_t len;
		struct object_id eoid;
		unsigned emode;

		while (*name == '/')
			name++;
		if (!*name) {
			*oid = w.dirs[w.nr - 1];
			*mode = S_IFDIR;
			ret = TREE_PATH_FOUND;
			goto out;
		}
		slash = strchr(name, '/');
		len = slash ? (size_t)(slash - name) : strlen(name);
		if (len == 2 && !memcmp(name, "..", 2)) {
			if (w.nr == 1) {
				strbuf_reset(outside);
				strbuf_addstr(outside, name);
				ret = TREE_PATH_OUTSIDE;
				goto out;
			}
			w.nr--;
			pos = name + len - rest.buf;
			continue;
		}
		ret = lookup(&w, name, len, &eoid, &emode);
		if (ret < 0)
			goto out;
		if (!ret || S_ISGITLINK(emode)) {
			ret = w.links ? TREE_PATH_DANGLING : TREE_PATH_MISSING;
			goto out;
		}
		if (S_ISDIR(emode)) {
			ALLOC_GROW(w.dirs, w.nr + 1, w.alloc);
			w.dirs[w.nr++] = eoid;
			pos = name + len - rest.buf;
			continue;
		}
		if (S_ISLNK(emode)) {
			if (++w.links > TREE_PATH_MAX_LINKS) {
				ret = TREE_PATH_LOOP;
				goto out;
			}
			ret = read_link(&target, odb, &eoid);
			if (ret == -E_NOTFOUND) {
				error_clear();
				ret = TREE_PATH_DANGLING;
				goto out;
			}
			if (ret < 0)
				goto out;
			if (target.buf[0] == '/') {
				strbuf_reset(outside);
				strbuf_addbuf(outside, &target);
				ret = TREE_PATH_OUTSIDE;
				goto out;
			}
			/* the target, then what followed the link */
			if (slash)
				strbuf_addstr(&target, slash);
			{
				struct strbuf tmp = rest;

				rest = target;
				target = tmp;
			}
			pos = 0;
			continue;
		}
		if (slash) {
			ret = TREE_PATH_NOTDIR;
			goto out;
		}
		*oid = eoid;
		*mode = emode;
		ret = TREE_PATH_FOUND;
		goto out;
	}
out:
	free(w.dirs);
	strbuf_release(&rest);
	strbuf_release(&target);
	return ret;
}
