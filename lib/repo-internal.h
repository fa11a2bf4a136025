/*
 * repo-internal: what repo.c and repo-settings.c share, and no one else.
 */
#ifndef DIRC_REPO_INTERNAL_H
#define DIRC_REPO_INTERNAL_H

#include "repo.h"

/*
 * Fill repo->settings from repo->config (already loaded): 0, or a
 * negative E_* with git's message for a value that does not parse.
 */
int repo_load_settings(struct repo *repo);

#endif
