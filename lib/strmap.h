/*
 * strmap: a hash map from byte strings to pointers (open addressing,
 * linear probing).  Keys are borrowed: they must outlive the map.
 */
#ifndef DIRC_STRMAP_H
#define DIRC_STRMAP_H

#include "util.h"

struct strmap_slot {		/* 24 bytes */
	const char *key;	/* borrowed; NULL: empty slot */
	void *value;
	uint32_t len;		/* keys are shorter than 4 GiB */
	uint32_t hash;
};

struct strmap {
	struct strmap_slot *slots;	/* owned */
	size_t cap;			/* a power of two, or 0 */
	size_t nr;
};
#define STRMAP_INIT { NULL, 0, 0 }

void strmap_release(struct strmap *map);
/* The value stored for key, or NULL. */
void *strmap_get(const struct strmap *map, const char *key, size_t len);
/* Store value for key, replacing any earlier one. */
void strmap_put(struct strmap *map, const char *key, size_t len, void *value);
/* FNV-1a of len bytes. */
uint32_t strmap_hash(const char *key, size_t len);

#endif
