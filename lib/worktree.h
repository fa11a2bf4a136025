/*
 * worktree: linked worktrees, as seen from their repository.
 */
#ifndef DIRC_WORKTREE_H
#define DIRC_WORKTREE_H

/*
 * Point every linked worktree of the common directory commondir back at
 * it after a move from old_commondir (absolute; where relative links
 * were made from), as git 2.55's repair after a gitdir move: both
 * worktrees/<id>/gitdir and the worktree's ".git" file are rewritten,
 * relative if the first one was (then extensions.relativeWorktrees and
 * version 1 are set in commondir/config where missing), else absolute
 * with symbolic links resolved.  A worktree whose ".git" is gone is left
 * alone.  0, or a negative E_*.
 */
int worktree_repair(const char *commondir, const char *old_commondir);

#endif
