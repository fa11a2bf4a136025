/*
 * dir: visit the entries of one directory.  The walks that look below a
 * directory (loose refs, a tree to remove, untracked files in the way)
 * share this loop: open, skip "." and "..", put "/<entry>" on the path,
 * act, cut the path back, close.  The caller recurses from its callback.
 */
#ifndef DIRC_DIR_H
#define DIRC_DIR_H

#include "strbuf.h"

/*
 * Called for one entry: path holds "<dir>/<name>" (the callback may
 * extend it; it is cut back to "<dir>" afterwards).  0 goes on to the
 * next entry; any other value stops the walk and is its result.
 */
typedef int (*dir_entry_fn)(struct strbuf *path, const char *name,
			    void *data);

/*
 * Call fn for every entry of the directory path->buf but "." and "..",
 * in readdir() order.  Returns the first nonzero value fn returns, 0
 * when every entry was visited, or the error of error_errno() ("cannot
 * open directory '<path>'", errno left as opendir() set it) when the
 * directory cannot be opened.  path is as it was on return.
 */
int dir_for_each(struct strbuf *path, dir_entry_fn fn, void *data);

#endif
