/*
 * config: git's configuration files, read into one ordered list of
 * key/value pairs in the order git layers them (system, global, local,
 * worktree, command line), so "last one wins" is a scan from the end.
 * Keys are canonical: section and variable lowercased, subsection kept.
 * Only reading is supported; dirc writes config only at init, as text.
 */
#ifndef DIRC_CONFIG_H
#define DIRC_CONFIG_H

#include "util.h"

struct strbuf;

struct config_entry {
	char *key;	/* owned; "section.sub.name" canonical */
	char *value;	/* owned; NULL for a bare "name" (implicit true) */
	/*
	 * An includeIf.<condition>.path whose condition is not tested
	 * yet (config_resolve_includes() does): pending is set, origin
	 * is the file it came from (owned; NULL from the environment),
	 * line its line there and depth its include nesting.  Otherwise
	 * 0 and NULL.
	 */
	char *origin;
	int line;
	int depth;
	int pending;
};

struct config {
	struct config_entry *entries;	/* owned */
	size_t nr, alloc;
	size_t pending;		/* entries with pending set */
	/*
	 * Set by the caller before loading (config_release() forgets
	 * it): called for each variable as it is read, before it is
	 * kept, as git calls a config callback while it parses.  A
	 * negative return (error set: the reason) stops the load: from a
	 * file "bad config line N in file F" (-E_CORRUPT) with the reason
	 * before it, from the environment the reason itself.  NULL: none.
	 */
	int (*check)(const char *key, const char *value);
};
#define CONFIG_INIT { NULL, 0, 0, 0, NULL }

void config_init(struct config *cfg);
void config_release(struct config *cfg);

#define CONFIG_MAX_INCLUDE_DEPTH 10	/* include.path nesting, as git */

/*
 * Parse config text (origin names it in messages and anchors relative
 * include.path values; NULL for text with no file).  0, or -E_CORRUPT
 * ("bad config line N in file F").  depth counts include nesting: at
 * CONFIG_MAX_INCLUDE_DEPTH an include.path is an error (-E_INVALID)
 * and no file is read; CONFIG_NO_INCLUDES (what git does when it checks
 * a repository's format) keeps include.path as a plain variable.
 * An includeIf.<condition>.path with a condition git knows (gitdir:,
 * gitdir/i:, onbranch:, hasconfig:remote.*.url:) is kept as a variable
 * marked pending, for config_resolve_includes(); other conditions
 * never hold, as for git: plain variables.
 */
#define CONFIG_NO_INCLUDES (-1)
int config_parse_buffer(struct config *cfg, const char *buf, size_t len,
			const char *origin, int depth);

/* A section header or a variable in config text, and where it is. */
struct config_event {
	enum { CONFIG_EVENT_SECTION, CONFIG_EVENT_ENTRY } type;
	size_t begin;	/* offset of '[' or of the variable name */
	size_t end;	/* after ']', or after the variable's line */
	const char *key; /* canonical "section[.sub]" or "section[.sub].name";
			  * valid during the call */
	const char *value; /* a variable's value, NULL for implicit true */
	int line;	/* where the header or the variable's line ends */
};
typedef int (*config_event_fn)(const struct config_event *ev, void *data);

/*
 * Parse config text as config_parse_buffer() does, without following
 * include.path, calling fn for every section header and variable (a
 * variable before any section is skipped).  0, a parse error, or what
 * fn returned if negative (which stops the scan).
 */
int config_scan_buffer(const char *buf, size_t len, const char *origin,
		       config_event_fn fn, void *data);

/*
 * Parse the file at path.  A missing file is not an error (returns 0);
 * an unreadable one is reported through diag_emit and skipped, as git
 * does.
 */
int config_load_file(struct config *cfg, const char *path, int depth);

/*
 * Add what the environment sets for this process: GIT_CONFIG_PARAMETERS
 * (what "-c key=value" passes down) and GIT_CONFIG_COUNT with
 * GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>.  An include.path there is
 * followed when absolute (or "~/"), as git: a relative one is an error
 * (includeIf ones: pending, as in files).  0, -E_INVALID, or what
 * reading an included file gives.
 */
int config_load_env(struct config *cfg);
/*
 * ret of reading the command line's configuration (-c, GIT_CONFIG_*):
 * an error becomes git's "unable to parse command-line config" under its
 * own message, except a file it included that does not parse (that
 * alone, as git).
 */
int config_cmdline_error(int ret);

/*
 * Load system, global and XDG files as git does (GIT_CONFIG_NOSYSTEM,
 * GIT_CONFIG_SYSTEM, GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME, HOME).
 */
int config_load_user(struct config *cfg);

/*
 * What includeIf conditions are tested against.  Set the public fields;
 * the rest is computed when a condition first needs it, at most once
 * (no realpath() for configuration without a gitdir: condition).
 */
struct config_cond {
	/*
	 * The git directory as git names it: absolute, or relative to
	 * base (the directory git works in, absolute and physical; then
	 * $PWD is used for it when it names the same directory, as git
	 * does).  gitdir NULL: no repository, no gitdir: condition holds.
	 */
	const char *gitdir;
	const char *base;
	const char *onbranch;	/* the branch HEAD is on ("main"), or NULL */
	/*
	 * Or, onbranch NULL, how to learn it: called at most once, when an
	 * onbranch: condition is first tested; 1 with the branch in out,
	 * 0 if HEAD is on none.  NULL: no onbranch: condition holds.
	 */
	int (*head_branch)(struct strbuf *out, void *data);
	void *head_data;

	char *branch;		/* private: what head_branch gave */
	int branch_done;	/* private */

	char *gitdir_real;	/* private */
	char *gitdir_logical;	/* private */
	int gitdir_done;	/* private */
	char **urls;		/* private: remote.*.url values */
	size_t urls_nr, urls_alloc; /* private */
	int url_included;	/* private: an includeIf file sets one */
};
#define CONFIG_COND_INIT { 0 }
void config_cond_release(struct config_cond *cond);

/*
 * Follow the pending includeIf.<condition>.path entries of cfg whose
 * condition holds (git's rules: gitdir: and gitdir/i: patterns against
 * cond->gitdir, resolved and as named; onbranch: against cond->onbranch;
 * hasconfig:remote.*.url: against every remote.<name>.url in cfg that
 * came through no such include), the included entries going right
 * after the including one, recursively; afterwards none is pending.
 * 0; -E_INVALID when a hasconfig: condition is to be tested and a
 * file an includeIf brings in (a hasconfig: one whether it holds or
 * not, as git) sets a remote URL (git's message),
 * for a relative include with no file to anchor it, or too deep an
 * include; -E_CORRUPT for an included file that does not parse.
 * Costs nothing when no entry is pending.
 */
int config_resolve_includes(struct config *cfg, struct config_cond *cond);

/*
 * Canonicalise "Section.Sub.Name" into out (owned by the caller).
 * 0, or -E_INVALID ("invalid key: ...", or "key does not contain a
 * section: ...").
 */
int config_canon_key(char **out, const char *key, size_t len);

/* Move every entry of src to the end of dst; src is left empty. */
void config_append(struct config *dst, struct config *src);

/* Append one pair, key canonicalised.  value NULL means implicit true. */
int config_add(struct config *cfg, const char *key, const char *value);

/*
 * Look up the last value of key (canonical).  1 if found (*value set; it
 * may be NULL for implicit true), 0 if not.
 */
int config_get(const struct config *cfg, const char *key, const char **value);

/*
 * Typed lookups: 1 found and *out set, 0 not found (*out untouched), or
 * -E_INVALID with git's message for a bad value.
 */
int config_get_bool(const struct config *cfg, const char *key, int *out);
int config_get_long(const struct config *cfg, const char *key, long *out);
int config_get_string(const struct config *cfg, const char *key,
		      const char **out);

/* Parse a boolean as git does: 1, 0, or -1 if not a boolean. */
int config_parse_bool(const char *value);
/* Parse an integer with optional k/m/g suffix: 0 or -1. */
int config_parse_long(const char *value, long *out);

#endif
