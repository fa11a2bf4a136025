/*
 * refs: reference names and the loose/packed reference store.
 */
#ifndef DIRC_REFS_H
#define DIRC_REFS_H

#include "hash.h"

enum refname_flags {
	REFNAME_ALLOW_ONELEVEL = 1 << 0,	/* "HEAD", "master" */
};

/*
 * Is name a well-formed reference name (git check-ref-format's rules)?
 * 1 or 0.
 */
int refname_is_valid(const char *name, unsigned flags);

#endif
