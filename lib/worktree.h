/*
 * worktree: linked worktrees, as seen from their repository.
 */
#ifndef DIRC_WORKTREE_H
#define DIRC_WORKTREE_H

/*
 * Point every linked worktree of the common directory commondir back at
 * it: each worktree's ".git" file is rewritten to name
 * commondir/worktrees/<id> (after a move of the common directory), as
 * git's repair_worktrees().  A worktree that is gone, or whose ".git"
 * is not a file, is left alone.  0, or a negative E_*.
 */
int worktree_repair(const char *commondir);

#endif
