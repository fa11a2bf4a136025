/*
 * object-name: turn what a user or script passes to git's plumbing into
 * an object id, by git's rules (gitrevisions(7)):
 *
 *   <hex>            all 40 digits, or an abbreviation of 4 or more that
 *                    names one object (type hints break ties)
 *   <refname>        HEAD, @, and names as git expands them (name,
 *                    refs/name, refs/tags/name, refs/heads/name,
 *                    refs/remotes/name, refs/remotes/name/HEAD)
 *   <describe>       "<anything>-g<hex>": the commit the hex abbreviates
 *   <ref>@{<n>}, <ref>@{<date>}, @{<n>}   from the ref's reflog
 *   @{-<n>}          the n-th branch checked out before this one
 *   <branch>@{upstream}, @{u}             its upstream's remote-tracking ref
 *   <rev>^<n>, <rev>~<n>, <rev>^{<type>}, <rev>^{}, <rev>^{/<regex>}
 *   <rev>:<path>, :<path>, :<n>:<path>    tree and index entries
 *   :/<regex>        the newest commit reachable from any ref whose message
 *                    matches ("!-" negates, "!!" quotes a leading "!")
 *
 * How a lookup fails, by error kind:
 *   -E_NOTFOUND   it names nothing (the caller may read it otherwise,
 *                 e.g. as a path)
 *   -E_AMBIGUOUS  an abbreviation names several objects
 *   anything else git stops at (a reflog too short, a relative path
 *                 outside the work tree, an object of unknown type, ...)
 * The message is "Not a valid object name <name>" for the first two.  When
 * an abbreviation was ambiguous and ONAME_QUIET is not given, error_pre()
 * holds git's report for it ("short object ID <x> is ambiguous" and the
 * "hint:" lines listing the candidates) whatever the final kind, to be
 * printed as "error: <report>".  Warnings git prints while resolving
 * ("refname '<x>' is ambiguous.", "<x>: expected commit type, but ...")
 * go through diag_emit.
 */
#ifndef DIRC_OBJECT_NAME_H
#define DIRC_OBJECT_NAME_H

#include "hash.h"
#include "odb.h"

struct repo;
struct strbuf;

enum oname_flags {
	/* what an ambiguous abbreviation should name, to break ties */
	ONAME_COMMIT = 1 << 0,
	ONAME_COMMITTISH = 1 << 1,	/* a commit, or a tag of one */
	ONAME_TREE = 1 << 2,
	ONAME_TREEISH = 1 << 3,		/* a tree, commit, or tag of one */
	ONAME_BLOB = 1 << 4,
	/* no ambiguity report, no warnings that git keeps quiet (-q) */
	ONAME_QUIET = 1 << 5,
	/*
	 * On failure, explain it as git does before giving up on an
	 * argument: -E_INVALID with "path '<p>' does not exist in
	 * '<rev>'", "invalid object name '<rev>'.", "path '<p>' exists
	 * on disk, but not in the index", the "Did you mean" hints, ...
	 * Without it those cases are -E_NOTFOUND.
	 */
	ONAME_DIAGNOSE = 1 << 6,
	/*
	 * A full hex id is that object, without looking for a ref of the
	 * same name to warn about ("refname '<x>' is ambiguous"): git's
	 * batch modes, which resolve many ids and never warn there.
	 */
	ONAME_HEX_NO_REFS = 1 << 7,
};

struct oname_ctx {
	unsigned flags;		/* ONAME_* */
	const char *prefix;	/* where "./" and "../" paths start, as
				 * "sub/dir/"; NULL for repo->prefix */
	int silent;		/* out: the failure is one git reports
				 * under -q by exit code 128 alone */
	unsigned mode;		/* out: mode of the tree or index entry a
				 * path named; 0 when no path was given */
};
#define ONAME_CTX_INIT { 0, NULL, 0, 0 }

/* Resolve name as described above.  0 or a negative E_*. */
int oname_get(struct object_id *out, struct repo *repo, const char *name,
	      struct oname_ctx *ctx);

/*
 * oname_get() with ONAME_DIAGNOSE: what cat-file, update-ref,
 * commit-tree and read-tree take.
 */
int get_oid(struct object_id *out, struct repo *repo, const char *name);

/*
 * Peel oid to an object of type want: tags to what they point at,
 * commits to their trees (for OBJ_TREE).  OBJ_NONE peels tags only.
 * 0, or -E_INVALID ("<id> is not a valid '<type>' object"); an object
 * on the way that cannot be read (corrupt, a replace loop) gives the
 * odb's error instead (-E_CORRUPT, -E_INVALID), as git dies on it (with
 * OBJ_NONE, a replace loop only: a corrupt object is "not valid").
 */
int peel_to_type(struct object_id *out, struct repo *repo,
		 const struct object_id *oid, enum object_type want);

/*
 * The ref name resolves to under git's rules, as a script asks for it
 * with --symbolic-full-name: @{-n}, @{upstream} and @ are interpreted
 * first.  Returns how many rules matched (0: none; more than 1:
 * ambiguous), with the full name of the first match in out (its value
 * in *oid); or a negative E_* when interpreting failed (e.g. "no
 * upstream configured for branch '<b>'").
 */
int oname_dwim_ref(struct strbuf *out, struct object_id *oid,
		   struct repo *repo, const char *name, size_t len);

/*
 * The shortest abbreviation of oid, at least len digits (len < 0: git's
 * default, from core.abbrev or the size of the object store), that no
 * other stored object shares, into out (HASH_HEXSZ + 1 bytes).
 */
void oname_abbrev(char *out, struct repo *repo, const struct object_id *oid,
		  int len);

/*
 * The abbreviation length git uses by default: core.abbrev, else 7 or
 * more as the store grows.  Returns -1 with a message for a bad
 * core.abbrev ("abbrev length out of range: <n>").
 */
int oname_default_abbrev(struct repo *repo, int *out);

/*
 * Check the settings name resolution reads (core.warnAmbiguousRefs,
 * core.disambiguate, core.abbrev) as git does when it starts: 0, or
 * -E_INVALID with git's messages (the first line in error_pre()).
 */
int oname_check_config(struct repo *repo);

/*
 * Every stored object whose id starts with hex (4 to 40 digits), once
 * each, in id order.  0 (nothing listed for a prefix that is too short
 * or not hexadecimal), or a negative E_*.
 */
typedef void (*oname_each_fn)(const struct object_id *oid, void *ctx);
int oname_for_each_abbrev(struct repo *repo, const char *hex,
			  oname_each_fn fn, void *ctx);

/*
 * The upstream or push mark lengths git recognises at the start of s
 * ("@{upstream}", "@{u}", "@{push}", any case): the length, or 0.
 */
size_t oname_upstream_mark(const char *s, size_t len);
size_t oname_push_mark(const char *s, size_t len);

/*
 * Where "<rev>:<path>" splits: the first ':' of name outside braces
 * opened by "@{" or "^{" (so "HEAD^{/a:b}:c" splits before "c", and
 * "foo{bar:c" before "c", as in git 2.55), or NULL when there is none.
 */
const char *oname_path_colon(const char *name);

#endif
