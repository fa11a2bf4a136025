/*
 * strmap: open addressing with linear probing, kept at most half full.
 */
#include "strmap.h"

uint32_t
strmap_hash(const char *key, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 16777619u;
	}
	return h;
}

void
strmap_release(struct strmap *map)
{
	free(map->slots);
	map->slots = NULL;
	map->cap = map->nr = 0;
}

static struct strmap_slot *
find(const struct strmap *map, const char *key, size_t len, uint32_t h)
{
	size_t mask = map->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &map->slots[i];

		if (!s->key || (s->hash == h && s->len == len &&
				!memcmp(s->key, key, len)))
			return s;
	}
}

void *
strmap_get(const struct strmap *map, const char *key, size_t len)
{
	struct strmap_slot *s;

	if (!map->cap)
		return NULL;
	s = find(map, key, len, strmap_hash(key, len));
	return s->key ? s->value : NULL;
}

static void
grow(struct strmap *map)
{
	struct strmap old = *map;

	map->cap = old.cap ? old.cap * 2 : 64;
	map->slots = xcalloc(map->cap, sizeof(*map->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*find(map, old.slots[i].key, old.slots[i].len,
			      old.slots[i].hash) = old.slots[i];
	free(old.slots);
}

void
strmap_put(struct strmap *map, const char *key, size_t len, void *value)
{
	uint32_t h = strmap_hash(key, len);
	struct strmap_slot *s;

	if (len > UINT32_MAX)
		BUG("strmap key of %zu bytes", len);
	if ((map->nr + 1) * 2 > map->cap)
		grow(map);
	s = find(map, key, len, h);
	if (!s->key) {
		s->key = key;
		s->len = len;
		s->hash = h;
		map->nr++;
	}
	s->value = value;
}
