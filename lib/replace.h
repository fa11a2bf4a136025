/*
 * replace: git's replace refs.  A ref refs/replace/<id> names an object
 * that stands in for object <id> whenever an object is read ("git
 * replace"); the object store asks this module on each read (see odb.h,
 * odb_replacement()).  The refs are read once, on the first lookup, from
 * the loose and the packed refs; GIT_REPLACE_REF_BASE moves the
 * namespace.  A chain of replacements is followed at most 4 steps, as
 * git does: a longer chain (a loop) is an error.
 */
#ifndef DIRC_REPLACE_H
#define DIRC_REPLACE_H

#include "config.h"
#include "hash.h"

struct replace_map;

/*
 * Does this process read replacements?  0 if GIT_NO_REPLACE_OBJECTS is
 * set (to any value, as git checks it; "dirc --no-replace-objects" sets
 * it) or core.useReplaceRefs is false, else 1; -E_INVALID for a
 * core.useReplaceRefs that is not a boolean (git's message).
 */
int replace_enabled(const struct config *cfg);

/*
 * A map for the repository whose common directory is commondir
 * (absolute).  Nothing is read until the first lookup.
 */
struct replace_map *replace_map_new(const char *commondir);
void replace_map_free(struct replace_map *map);

/*
 * What stands in for oid: *out is oid itself when nothing replaces it.
 * 0, or -E_INVALID: "replace depth too high for object <id>" (a chain
 * longer than git follows, a loop), or "duplicate replace ref: <ref>".
 * A ref whose name is not an object id is skipped with git's warning
 * through diag_emit ("bad replace ref name: <name>"), once; a ref whose
 * value cannot be read stands for the null id (the object is then
 * missing), as in git.  Thread-safe.
 */
int replace_map_lookup(struct object_id *out, struct replace_map *map,
		       const struct object_id *oid);

#endif
