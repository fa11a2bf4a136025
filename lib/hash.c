/*
 * hash: hex conversion and SHA-1 over libcrypto's SHA1_* functions.
 *
 * Not EVP: an EVP digest needs the provider machinery set up (an
 * EVP_MD_fetch, about a millisecond and a half at every start, and all of
 * libcrypto linked in); SHA1_* is the same assembly (SHA extensions where
 * the CPU has them) with a plain context and nothing to set up.  OpenSSL 3
 * marks these functions deprecated, hence the define; they remain in
 * every OpenSSL 3 build that keeps the 3.0 API (Debian's does).  Each
 * thread owns one context, reset per digest by hasher_begin().
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "hash.h"

#include <openssl/sha.h>
#include <pthread.h>

const struct object_id null_oid;
const struct object_id empty_tree_oid = { {
	0x4b, 0x82, 0x5d, 0xc6, 0x42, 0xcb, 0x6e, 0xb9, 0xa0, 0x60,
	0xe5, 0x4b, 0xf8, 0xd6, 0x92, 0x88, 0xfb, 0xee, 0x49, 0x04,
} };
const struct object_id empty_blob_oid = { {
	0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b,
	0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4, 0x8c, 0x53, 0x91,
} };

static const char hexdigits[] = "0123456789abcdef";

char *
oid_to_hex_r(char *out, const struct object_id *oid)
{
	for (int i = 0; i < HASH_RAWSZ; i++) {
		out[2 * i] = hexdigits[oid->hash[i] >> 4];
		out[2 * i + 1] = hexdigits[oid->hash[i] & 15];
	}
	out[HASH_HEXSZ] = '\0';
	return out;
}

const char *
oid_to_hex(const struct object_id *oid)
{
	static _Thread_local char bufs[4][HASH_HEXSZ + 1];
	static _Thread_local unsigned next;

	return oid_to_hex_r(bufs[next++ & 3], oid);
}

int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
hex_to_oid(struct object_id *out, const char *hex)
{
	for (int i = 0; i < HASH_RAWSZ; i++) {
		int hi = hexval((unsigned char)hex[2 * i]);
		int lo = hi < 0 ? -1 : hexval((unsigned char)hex[2 * i + 1]);

		if (lo < 0)
			return -1;
		out->hash[i] = hi << 4 | lo;
	}
	return 0;
}

int
loose_name_to_oid(struct object_id *out, int fanout, const char *name)
{
	char hex[HASH_HEXSZ + 1];

	if (fanout < 0 || fanout > 255 || strlen(name) != HASH_HEXSZ - 2)
		return -1;
	hex[0] = hexdigits[fanout >> 4];
	hex[1] = hexdigits[fanout & 15];
	memcpy(hex + 2, name, HASH_HEXSZ - 2);
	hex[HASH_HEXSZ] = '\0';
	return hex_to_oid(out, hex);
}

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;

static void
free_thread_hasher(void *p)
{
	struct hasher *h = p;

	hasher_release(h);
	free(h);
}

static void
release_main_hasher(void)
{
	struct hasher *h = pthread_getspecific(thread_key);

	if (h) {
		pthread_setspecific(thread_key, NULL);
		free_thread_hasher(h);
	}
}

static void
key_setup(void)
{
	if (pthread_key_create(&thread_key, free_thread_hasher))
		die_oom(sizeof(thread_key));
	atexit(release_main_hasher);
}

void
hasher_init(struct hasher *h)
{
	h->ctx = xmalloc(sizeof(SHA_CTX));
}

void
hasher_release(struct hasher *h)
{
	free(h->ctx);
	h->ctx = NULL;
}

void
hasher_begin(struct hasher *h)
{
	if (!SHA1_Init(h->ctx))
		BUG("SHA1_Init failed");
}

void
hasher_update(struct hasher *h, const void *data, size_t len)
{
	if (len && !SHA1_Update(h->ctx, data, len))
		BUG("SHA1_Update failed");
}

void
hasher_final(struct hasher *h, unsigned char out[HASH_RAWSZ])
{
	if (!SHA1_Final(out, h->ctx))
		BUG("SHA1_Final failed");
}

struct hasher *
hasher_thread(void)
{
	struct hasher *h;

	pthread_once(&key_once, key_setup);
	h = pthread_getspecific(thread_key);
	if (!h) {
		h = xmalloc(sizeof(*h));
		hasher_init(h);
		if (pthread_setspecific(thread_key, h))
			die_oom(sizeof(*h));
	}
	return h;
}

void
hash_buffer(unsigned char out[HASH_RAWSZ], const void *data, size_t len)
{
	struct hasher *h = hasher_thread();

	hasher_begin(h);
	hasher_update(h, data, len);
	hasher_final(h, out);
}
