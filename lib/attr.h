/*
 * attr: git's attributes — which attributes a path has, and with what
 * value, as git 2.39 decides them.
 *
 * The files, lowest precedence first: the built-in "[attr]binary -diff
 * -merge -text"; /etc/gitattributes (unless GIT_ATTR_NOSYSTEM is true);
 * core.attributesFile (default $XDG_CONFIG_HOME/git/attributes or
 * ~/.config/git/attributes); each directory's .gitattributes from the
 * top down to the path's directory (from the work tree, the index, or
 * both, see enum attr_source; none in a bare repository unless
 * ATTR_INDEX); $GIT_DIR/info/attributes.  A later line wins over an
 * earlier one.  A line is "<pattern> <state>...", a state "a" (set),
 * "-a" (unset), "!a" (back to unspecified), "a=v" (a value); a pattern
 * without '/' matches the base name, one with '/' the path from the
 * file's directory; "dir/" only directories (a path given with a
 * trailing '/'); "!pattern" is refused with git's warning.
 * "[attr]<name> <state>..." defines a macro (only outside the tree and
 * in the top .gitattributes); a path given a macro (set) also gets its
 * states, unless something of higher precedence decided them.
 *
 * Files are read lazily, each once; the messages a file's bad lines give
 * (git's words, through diag_emit) are repeated whenever git would read
 * that file again (it forgets a directory's file when a path outside the
 * directory is looked at), so one thread asking in path order prints
 * what git prints.  A repository without attribute files costs one
 * lstat per directory.
 */
#ifndef DIRC_ATTR_H
#define DIRC_ATTR_H

#include <stddef.h>

struct index;
struct odb;
struct repo;

/* The states an attribute can have besides a value (NULL: unspecified). */
extern const char attr_value_true[], attr_value_false[];
#define ATTR_TRUE attr_value_true
#define ATTR_FALSE attr_value_false
/* Is v a value ("a=v"), not set/unset/unspecified? */
#define ATTR_HAS_VALUE(v) ((v) && (v) != ATTR_TRUE && (v) != ATTR_FALSE)

/* Where each directory's .gitattributes comes from. */
enum attr_source {
	ATTR_CHECKIN,	/* the work tree's, else the index's (git add) */
	ATTR_CHECKOUT,	/* the index's, else the work tree's (read-tree -u) */
	ATTR_INDEX,	/* the index's only (check-attr --cached) */
};

struct attr_set;

/*
 * The attributes of repo, the .gitattributes of the index from idx and
 * odb (either may be NULL: no index).  Reads nothing yet; never fails.
 * All borrowed pointers must outlive the set.
 */
struct attr_set *attr_set_new(struct repo *repo, struct index *idx,
			      struct odb *odb, enum attr_source src);
void attr_set_free(struct attr_set *as);

/*
 * The number of an attribute name, interned (git's order of first
 * sight: the numbers order check-attr --all).  -1 if name (len bytes) is
 * not a valid attribute name ([-._0-9A-Za-z], not starting with '-').
 */
int attr_intern(struct attr_set *as, const char *name, size_t len);
/* The name of attribute number id (< attr_count()). */
const char *attr_name(struct attr_set *as, int id);
size_t attr_count(struct attr_set *as);

/*
 * The values of one path: values[id] for every attribute number id <
 * nr, each ATTR_TRUE, ATTR_FALSE, a value string (borrowed from the
 * set), or NULL (unspecified).  Reusable across attr_get() calls.
 */
struct attr_values {
	const char **values;	/* owned array */
	size_t nr, alloc;
};
#define ATTR_VALUES_INIT { NULL, 0, 0 }
void attr_values_release(struct attr_values *v);
/* values[id], NULL when id is beyond what was filled. */
const char *attr_value(const struct attr_values *v, int id);

/*
 * Fill out with the attributes of path (from the top of the work tree;
 * a trailing '/' says it is a directory).  Reads the files it needs for
 * the first time.  Thread-safe (the reading is serialised).
 */
void attr_get(struct attr_values *out, struct attr_set *as, const char *path);

/*
 * Look-ups that only plan (checkout-index's first pass, which looks at
 * every path before it writes one): while quiet is set, a directory's
 * attribute file shows no message when a look-up reaches it again.
 * Clearing it puts the set back where git, which looks each path up
 * once, stands before its first look-up: the top's files read and
 * shown, nothing below, so the next look-ups show each directory's
 * messages once more, where git shows them.
 */
void attr_set_quiet(struct attr_set *as, int quiet);

/*
 * Could any path have an attribute?  0 when no attribute file exists
 * outside the tree and none has been found in the tree so far (cheap).
 */
int attr_any_outside(struct attr_set *as);

#endif
