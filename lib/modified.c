/*
 * modified: whether an index entry still describes its file.  The rules
 * and their order are in modified.h; the stat comparison and the content
 * check themselves are index_match_stat() and index_content_matches().
 */
#include "modified.h"

#include "error.h"
#include "refs.h"
#include "tree.h"

/*
 * A gitlink: the HEAD of the repository in the directory, against the
 * entry's id.  No repository there (never cloned, or emptied) matches.
 */
static unsigned
gitlink_changed(const struct index_entry *e, const struct stat *st)
{
	struct object_id head;

	if (!S_ISDIR(st->st_mode))
		return TYPE_CHANGED;
	if (refs_resolve_gitlink(&head, e->name) < 0) {
		error_clear();
		return 0;
	}
	return oideq(&head, &e->oid) ? 0 : DATA_CHANGED;
}

/* Does the content differ?  Unreadable counts as differing. */
static int
content_differs(const struct repo *repo, const struct index *idx,
		const struct index_entry *e, const struct stat *st,
		struct read_buf *rb)
{
	int same;

	if (S_ISGITLINK(e->mode))
		return gitlink_changed(e, st) != 0;
	if (!S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode))
		return 1;
	same = index_content_matches(repo, idx, e, st, rb);
	if (same < 0)
		error_clear();
	return same != 1;
}

enum entry_state
modified_check(unsigned *changed_out, const struct repo *repo,
	       const struct index *idx, const struct index_entry *e,
	       const struct stat *st, unsigned flags, struct read_buf *rb)
{
	unsigned changed;
	enum entry_state state = ENTRY_MODIFIED;

	if ((!(flags & MODIFIED_IGNORE_SKIP_WORKTREE) &&
	     e->ext_flags & CE_SKIP_WORKTREE) ||
	    (!(flags & MODIFIED_IGNORE_VALID) && e->flags & CE_VALID)) {
		changed = 0;
		state = ENTRY_CLEAN;
		goto out;
	}
	if (e->ext_flags & CE_INTENT_TO_ADD || e->state & CE_REMOVE) {
		changed = DATA_CHANGED | TYPE_CHANGED | MODE_CHANGED;
		goto out;
	}
	if (S_ISGITLINK(e->mode)) {
		changed = gitlink_changed(e, st);
		state = changed ? ENTRY_MODIFIED : ENTRY_CLEAN;
		goto out;
	}
	changed = index_match_stat(repo, e, st);
	if (!changed) {
		if (index_entry_is_racy(idx, e) &&
		    (flags & MODIFIED_RACY_IS_DIRTY ||
		     content_differs(repo, idx, e, st, rb)))
			changed = DATA_CHANGED;
		else
			state = ENTRY_CLEAN;
		goto out;
	}
	if (flags & MODIFIED_STAT_ONLY)
		goto out;
	/* a type or mode change, or a known size that changed, is believed */
	if (changed & (TYPE_CHANGED | MODE_CHANGED))
		goto out;
	if (changed & DATA_CHANGED && e->sd.size)
		goto out;
	if (!content_differs(repo, idx, e, st, rb))
		state = ENTRY_RESTAT;
out:
	if (changed_out)
		*changed_out = changed;
	return state;
}
