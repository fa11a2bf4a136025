/*
 * reftable: git's reftable reference store format, read and written
 * (Documentation/technical/reftable.adoc in git's sources is the format;
 * git 2.55's writer is the reference for the bytes).
 *
 * A stack is a directory ("<gitdir>/reftable") holding "tables.list" —
 * one table file name per line, oldest first — and the tables it names.
 * Each table holds ref records (name, update index, value) and log
 * records (reflog entries), sorted, in prefix-compressed blocks with
 * restart points, optionally indexed, behind a 24-byte (SHA-1, version 1)
 * or 28-byte (SHA-256, version 2) header and a footer carrying a CRC-32.
 * A newer table's record for a name hides every older one; a deletion
 * record hides the name.
 *
 * Reading is lock-free: tables are immutable and opened by name from
 * the list read last.  Writing appends one table under
 * "tables.list.lock" and then compacts the stack as git does (a
 * geometric sequence, factor 2), so git and dirc may write one
 * repository in turn.  Every function returns 0 (or the documented
 * positive value) or a negative E_* with the message set (error.h);
 * a damaged table is -E_CORRUPT naming the file.  The rules dirc keeps
 * (layout, names, locks, compaction) are in
 * Documentation/technical/reftable.md; one table's bytes are
 * reftable-format.h's.  A stack is used by one thread at a time.
 */
#ifndef DIRC_REFTABLE_H
#define DIRC_REFTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"
#include "reftable-format.h"

/*
 * struct reftable_ref, struct reftable_log (the records), their release
 * functions and struct reftable_write_options are in reftable-format.h,
 * the layer below.
 */

struct reftable_stack;

/*
 * Open the stack in dir for a repository hashing with algo: read
 * tables.list and open (map) every table, checking magic, version, hash
 * id and footer CRC.  A missing tables.list is an empty stack.  A table
 * named in the list but missing is retried once (another writer may have
 * compacted under us), then -E_CORRUPT.
 */
int reftable_stack_open(struct reftable_stack **out, const char *dir,
			const struct hash_algo *algo);
/* Read tables.list again if it changed. */
int reftable_stack_reload(struct reftable_stack *st);
void reftable_stack_close(struct reftable_stack *st);	/* NULL is fine */

/* The update index the next table must use (max of the newest + 1). */
uint64_t reftable_stack_next_update_index(const struct reftable_stack *st);

/*
 * The newest record of name across the stack.  0 with *out filled (never
 * a deletion), 1 if there is none or the newest is a deletion.
 */
int reftable_stack_read_ref(struct reftable_stack *st, const char *name,
			    struct reftable_ref *out);

/*
 * Every live ref whose name starts with prefix ("" for all), in name
 * order, each once (the newest record).  fn's non-zero return stops the
 * walk and is returned.  The record passed is only valid during the call.
 */
typedef int (*reftable_ref_fn)(const struct reftable_ref *ref, void *ctx);
int reftable_stack_for_each_ref(struct reftable_stack *st,
				const char *prefix, reftable_ref_fn fn,
				void *ctx);

/*
 * The reflog of name, newest first (update index descending), or of
 * every ref when name is NULL (by name, then newest first).  Entries
 * hidden by a newer log tombstone for the same key are skipped; a
 * tombstone itself is not passed.  The entry git leaves in an emptied
 * reflog (null old and new ids, empty message) is passed as it is:
 * git's reflog does not show it.
 */
typedef int (*reftable_log_fn)(const struct reftable_log *log, void *ctx);
int reftable_stack_for_each_log(struct reftable_stack *st, const char *name,
				reftable_log_fn fn, void *ctx);

/*
 * Writing.  An addition holds "tables.list.lock" (retrying for
 * timeout_ms as git's core.filesRefLockTimeout does; -E_LOCKED after)
 * and fails with -E_CONFLICT if the stack changed since it was read
 * (reload, check again, retry).
 *
 *	reftable_addition_begin(&add, st, timeout_ms)
 *	reftable_addition_add(add, refs, nref, logs, nlog)
 *	reftable_addition_commit(add)	write tables.list, then compact
 *	reftable_addition_free(add)	unlocks if not committed
 *
 * add: one new table at update index reftable_stack_next_update_index()
 * (the records' own update_index is ignored and set, except a log
 * tombstone's, which names the entry it deletes), refs and logs in
 * any order (sorted here, in place; a ref given twice, or two log
 * records with one name and update index, is -E_INVALID); one call per
 * addition, and none at all writes nothing.  A log message is stored
 * as git stores it: trailing newlines dropped, one "\n" added (NULL is
 * stored empty); a message of several lines is -E_INVALID.  Nothing is
 * visible to readers before commit.  Commit compacts afterwards as
 * git's auto-compaction does; a compaction that cannot take its locks
 * is skipped silently, as in git.  When begin returns -E_CONFLICT the
 * stack has already been reloaded: check again and retry.
 */
struct reftable_addition;
int reftable_addition_begin(struct reftable_addition **out,
			    struct reftable_stack *st, long timeout_ms);
int reftable_addition_add(struct reftable_addition *add,
			  struct reftable_ref *refs, size_t nref,
			  struct reftable_log *logs, size_t nlog);
/*
 * The same as add for records made as they go: fill(w, update_index,
 * ctx) adds every ref, then every log, in order (rt_writer_add_ref(),
 * rt_writer_add_log() of reftable-format.h), each with update_index
 * set to the one passed (a log tombstone's excepted) and messages as
 * add stores them; 0 or a negative E_* from it or the writer.
 */
struct rt_writer;
typedef int (*reftable_fill_fn)(struct rt_writer *w, uint64_t update_index,
				void *ctx);
int reftable_addition_write(struct reftable_addition *add,
			    reftable_fill_fn fill, void *ctx);
int reftable_addition_commit(struct reftable_addition *add);
void reftable_addition_free(struct reftable_addition *add);

/* Compact the whole stack into one table (git pack-refs). */
int reftable_stack_compact_all(struct reftable_stack *st, long timeout_ms);

/*
 * Write settings a repository may give (reftable.blockSize,
 * reftable.restartInterval, reftable.indexObjects,
 * reftable.geometricFactor); zero fields mean git's defaults (4096, 16,
 * true, 2).  Applies to the stack's later writes.
 */
void reftable_stack_set_options(struct reftable_stack *st,
				const struct reftable_write_options *opts);

/*
 * Make an empty stack in dir (git init --ref-format=reftable): the
 * directory and an empty tables.list.
 */
int reftable_stack_create(const char *dir, unsigned file_mode);

#endif
