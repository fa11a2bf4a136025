/*
 * convert: git's content conversions between the work tree and the
 * object store, as its plumbing applies them.
 *
 * Clean (work tree -> object; update-cache, hash-object, the content
 * check of a racy or stat-dirty entry): the filter driver's clean
 * command, then end-of-line conversion to LF, then "$Id: ...$" back to
 * "$Id$".  Smudge (object -> work tree; checkout-index, read-tree -u,
 * cat-file --filters): "$Id$" expanded to "$Id: <blob id> $", LF to
 * CRLF, then the driver's smudge command.
 *
 * What applies to a path is decided once from its attributes (attr.h)
 * and the configuration (struct convert_plan): text/crlf/eol with
 * core.autocrlf and core.eol as git 2.39 combines them, ident,
 * filter=<driver> (a driver exists when any of filter.<d>.clean, smudge,
 * process or required is configured).  working-tree-encoding other than
 * UTF-8 is refused (E_UNSUPPORTED): dirc does not re-encode.
 *
 * Text detection is git's (eol.h): "auto" leaves alone what looks
 * binary (a NUL, a lone CR, too many control characters) and a file
 * whose index blob already has CRLF; LF becomes CRLF on the way out
 * only where there is no CR at all (auto) or for every lone LF (text).
 */
#ifndef DIRC_CONVERT_H
#define DIRC_CONVERT_H

#include "eol.h"
#include "odb.h"
#include "strbuf.h"

struct index;
struct object_id;
struct odb;
struct read_buf;
struct repo;

enum convert_flags {
	/*
	 * Read each directory's .gitattributes from the index before the
	 * work tree (git's order when it checks files out of a new index:
	 * read-tree -u); by default the work tree's comes first.
	 */
	CONVERT_INDEX_FIRST = 1 << 0,
	/* read-tree -u: a filter process may answer "delayed" (filter.h) */
	CONVERT_CAN_DELAY = 1 << 1,
};

/* git's end-of-line decision for a path. */
enum convert_crlf {
	CONVERT_CRLF_BINARY,	/* nothing */
	CONVERT_CRLF_TEXT_INPUT,	/* text: CRLF -> LF in, LF out */
	CONVERT_CRLF_TEXT_CRLF,	/* text: CRLF -> LF in, CRLF out */
	CONVERT_CRLF_AUTO,	/* text=auto; out per core.eol/autocrlf */
	CONVERT_CRLF_AUTO_INPUT,	/* text=auto eol=lf, autocrlf=input */
	CONVERT_CRLF_AUTO_CRLF,	/* text=auto eol=crlf, autocrlf=true */
};

/* What applies to one path. */
struct convert_plan {
	enum convert_crlf crlf;
	int ident;		/* the ident attribute is set */
	const char *driver;	/* filter=<driver> with a driver configured;
				 * borrowed from the conversion; or NULL */
	int required;		/* filter.<driver>.required */
	const char *encoding;	/* working-tree-encoding (not UTF-8);
				 * borrowed; or NULL */
	const struct object_id *blob;	/* the blob smudged, for a filter
					 * process ("blob=<id>", as git
					 * tells it); NULL (the default)
					 * when not known; borrowed */
};

struct convert;

/*
 * The conversions of one command for repo: attributes of idx (may be
 * NULL) read through odb (may be NULL), the configuration, the filter
 * session (started on first need).  Never fails.  Thread-safe for
 * lookups and conversions (a filter driver is run by one thread at a
 * time).
 */
struct convert *convert_new(struct repo *repo, struct index *idx,
			    struct odb *odb, unsigned flags);
/*
 * Stop the filter processes and free cv (NULL allowed).  0: a process
 * dying at its end is reported, not a failure (filter_session_end()).
 */
int convert_free(struct convert *cv);

/* Decide what applies to path (from the top of the work tree). */
void convert_plan_for(struct convert_plan *out, struct convert *cv,
		      const char *path);

/*
 * The end-of-line attributes of path as ls-files --eol shows them
 * ("attr/" column, %(eolattr)): "", "-text", "text", "text eol=lf",
 * "text eol=crlf", "text=auto", "text=auto eol=lf" or "text=auto
 * eol=crlf" (a static string).
 */
const char *convert_attr_ascii(struct convert *cv, const char *path);

/*
 * Might cleaning change the content (git's would_convert_to_git)?  When
 * not, the bytes are hashed as they are, streamed; when so, the whole
 * file is read and converted in memory.
 */
int convert_plan_cleans(const struct convert *cv,
			const struct convert_plan *p);
/* Might smudging change the content? */
int convert_plan_smudges(const struct convert *cv,
			 const struct convert_plan *p);

enum convert_clean_flags {
	/*
	 * The object is being written (update-cache --add, hash-object
	 * -w): core.safecrlf applies — "warn" (the default) warns when a
	 * round trip would change the line endings, "true" refuses.
	 */
	CONVERT_SAFECRLF = 1 << 0,
};

/*
 * Clean len bytes at in, the content of the file path, into out (reset
 * first) under plan p.  index_blob: the id of path's blob in the index
 * (whose CRLF keeps text=auto from normalising), or NULL for none.
 * Warnings are appended to warn as NUL-terminated messages (to be given
 * as "warning: <msg>" in the caller's order), or given at once through
 * diag_emit when warn is NULL.  0: out holds the result; 1: nothing
 * changed (out reset); -E_*: the filter failed ("<path>: clean filter
 * '<d>' failed"), safecrlf refused ("CRLF would be replaced by LF in
 * <path>", E_REFUSED), working-tree-encoding (E_UNSUPPORTED).
 */
int convert_to_git(struct strbuf *out, struct convert *cv,
		   const struct convert_plan *p, const char *path,
		   const void *in, size_t len,
		   const struct object_id *index_blob, unsigned flags,
		   struct strbuf *warn);

/*
 * Smudge the blob content in (len bytes) for the file path into out
 * (reset first) under plan p.  0: out holds the result; 1: nothing
 * changed (out reset); FILTER_DELAYED (filter.h) with a delaying
 * process; -E_*: the smudge filter failed ("<path>: smudge filter <d>
 * failed"), working-tree-encoding (E_UNSUPPORTED).
 */
int convert_to_worktree(struct strbuf *out, struct convert *cv,
			const struct convert_plan *p, const char *path,
			const void *in, size_t len);

/*
 * The id a file's content gets as a blob, cleaned as git cleans it for
 * comparing with the index (no safecrlf): for index_content_matches()
 * (index.h's content hook; ctx is the struct convert).  0 or -E_*.
 */
int convert_hash_fd(void *ctx, struct object_id *out, const char *path,
		    int fd, uint64_t size, const struct object_id *index_blob,
		    struct read_buf *rb);

/*
 * Cleaning a big file without holding it.  A file of fileio_stream_min()
 * bytes (2 MiB) or more whose plan only changes line endings (no filter
 * driver, ident or working-tree-encoding: convert_can_stream) is read
 * twice in bounded windows, once to count its line endings
 * (convert_stream_count, which rewinds fd), once as it is hashed or
 * stored through the odb_xform *x that convert_stream_decide gives: the
 * same decision, warnings and refusals as convert_to_git() on the whole
 * content (its index_blob, flags and warn), the same blob.  Memory does
 * not grow with the file.  The second read is counted again: a file
 * whose counts or size differ from the first read's changed in between
 * and is refused as changed while being read (E_CORRUPT), so what is
 * stored is always the cleaning git would give the bytes stored.  cs is
 * big (a 64 KiB buffer): allocate it; path must outlive its use.  Both
 * return 0 or -E_* (a read error; a safecrlf refusal).
 */
struct convert_stream {
	struct odb_xform x;	/* first: strip_cr finds cs from it */
	struct eol_stats st;	/* the first read's counts */
	struct eol_stats again;	/* the second read's */
	uint64_t file_size;
	const char *path;	/* borrowed, for messages */
	int strip;		/* CRs before LF go */
	int held_cr;		/* the last window ended in a CR */
	size_t buf_len;
	unsigned char buf[64 * 1024];
};

int convert_can_stream(const struct convert_plan *p, uint64_t size);
int convert_stream_count(struct convert_stream *cs, int fd, uint64_t size,
			 struct read_buf *rb, const char *path);
int convert_stream_decide(struct odb_xform **x, struct convert_stream *cs,
			  struct convert *cv, const struct convert_plan *p,
			  const char *path,
			  const struct object_id *index_blob, unsigned flags,
			  struct strbuf *warn);

/*
 * With CONVERT_CAN_DELAY: the next path a filter process delayed that
 * is now ready (filter_delayed_next(): 1 with path set, to be smudged
 * again; 0 when nothing more will come, *errors counting what failed,
 * reported; -E_*).  0 at once when no filter ran.
 */
int convert_delayed_next(struct convert *cv, struct strbuf *path,
			 size_t *errors);

/* attr_set_quiet() for cv's attributes. */
void convert_quiet(struct convert *cv, int quiet);

/* Make idx's content checks (modified.h) clean content through cv. */
void convert_attach_index(struct convert *cv, struct index *idx);

#endif
