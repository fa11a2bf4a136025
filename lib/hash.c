/*
 * hash: hex conversion and the digests over libcrypto's SHA1_* and
 * SHA256_* functions.
 *
 * Not EVP: an EVP digest needs the provider machinery set up (an
 * EVP_MD_fetch, about a millisecond and a half at every start, and all of
 * libcrypto linked in); SHA1_* and SHA256_* are the same assembly (SHA
 * extensions where the CPU has them) with a plain context and nothing to
 * set up.  OpenSSL 3 marks these functions deprecated, hence the define;
 * they remain in every OpenSSL 3 build that keeps the 3.0 API (Debian's
 * does).  Each thread owns one context, reset per digest by
 * hasher_begin().
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "hash.h"

#include <openssl/sha.h>
#include <pthread.h>

const struct hash_algo hash_algos[HASH_ALGO_NR] = {
	[HASH_ALGO_SHA1] = {
		"sha1", HASH_ALGO_SHA1, 0x73686131, 20, 40,
		{ {
		0x4b, 0x82, 0x5d, 0xc6, 0x42, 0xcb, 0x6e, 0xb9, 0xa0, 0x60,
		0xe5, 0x4b, 0xf8, 0xd6, 0x92, 0x88, 0xfb, 0xee, 0x49, 0x04,
		} },
		{ {
		0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b,
		0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4, 0x8c, 0x53, 0x91,
		} },
	},
	[HASH_ALGO_SHA256] = {
		"sha256", HASH_ALGO_SHA256, 0x73323536, 32, 64,
		{ {
		0x6e, 0xf1, 0x9b, 0x41, 0x22, 0x5c, 0x53, 0x69, 0xf1, 0xc1,
		0x04, 0xd4, 0x5d, 0x8d, 0x85, 0xef, 0xa9, 0xb0, 0x57, 0xb5,
		0x3b, 0x14, 0xb4, 0xb9, 0xb9, 0x39, 0xdd, 0x74, 0xde, 0xcc,
		0x53, 0x21,
		} },
		{ {
		0x47, 0x3a, 0x0f, 0x4c, 0x3b, 0xe8, 0xa9, 0x36, 0x81, 0xa2,
		0x67, 0xe3, 0xb1, 0xe9, 0xa7, 0xdc, 0xda, 0x11, 0x85, 0x43,
		0x6f, 0xe1, 0x41, 0xf7, 0x74, 0x91, 0x20, 0xa3, 0x03, 0x72,
		0x18, 0x13,
		} },
	},
};

const struct hash_algo *hash_algo = &hash_algos[HASH_ALGO_SHA1];

void
hash_algo_set(const struct hash_algo *a)
{
	hash_algo = a;
}

const struct hash_algo *
hash_algo_by_name(const char *name)
{
	for (int i = 0; i < HASH_ALGO_NR; i++)
		if (!strcmp(hash_algos[i].name, name))
			return &hash_algos[i];
	return NULL;
}

const struct object_id null_oid;

static const char hexdigits[] = "0123456789abcdef";

/* n raw bytes as 2n hex digits and a NUL (n a constant where inlined) */
static inline char *
to_hex(char *out, const unsigned char *raw, int n)
{
	for (int i = 0; i < n; i++) {
		out[2 * i] = hexdigits[raw[i] >> 4];
		out[2 * i + 1] = hexdigits[raw[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

char *
oid_to_hex_r(char *out, const struct object_id *oid)
{
	if (HASH_RAWSZ == 20)
		return to_hex(out, oid->hash, 20);
	return to_hex(out, oid->hash, 32);
}

const char *
oid_to_hex(const struct object_id *oid)
{
	static _Thread_local char bufs[4][HASH_MAX_HEXSZ + 1];
	static _Thread_local unsigned next;

	return oid_to_hex_r(bufs[next++ & 3], oid);
}

/* Each byte's value as a hex digit, -1 if it is not one. */
static const signed char hex_table[256] = {
#define R16 -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
	R16, R16, R16,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,		/* 0x30 */
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,	/* 0x40 */
	R16,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,	/* 0x60 */
	R16, R16, R16, R16, R16, R16, R16, R16, R16,			/* 0x70- */
#undef R16
};

int
hexval(int c)
{
	return c >= 0 && c < 256 ? hex_table[c] : -1;
}

int
hex_to_oid(struct object_id *out, const char *hex)
{
	const unsigned char *h = (const unsigned char *)hex;

	/* a digit at a time: a short string stops at its NUL */
	for (int i = 0; i < HASH_RAWSZ; i++) {
		int hi = hex_table[h[2 * i]], lo;

		if (hi < 0)
			return -1;
		lo = hex_table[h[2 * i + 1]];
		if (lo < 0)
			return -1;
		out->hash[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

int
loose_name_to_oid(struct object_id *out, int fanout, const char *name)
{
	char hex[HASH_MAX_HEXSZ + 1];

	if (fanout < 0 || fanout > 255 ||
	    strlen(name) != (size_t)HASH_HEXSZ - 2)
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
	size_t sz = sizeof(SHA_CTX) > sizeof(SHA256_CTX) ? sizeof(SHA_CTX) :
		    sizeof(SHA256_CTX);

	h->ctx = xmalloc(sz);
	h->algo = hash_algo;
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
	int ok;

	h->algo = hash_algo;
	if (h->algo->id == HASH_ALGO_SHA1)
		ok = SHA1_Init(h->ctx);
	else
		ok = SHA256_Init(h->ctx);
	if (!ok)
		BUG("%s init failed", h->algo->name);
}

void
hasher_update(struct hasher *h, const void *data, size_t len)
{
	int ok;

	if (!len)
		return;
	if (h->algo->id == HASH_ALGO_SHA1)
		ok = SHA1_Update(h->ctx, data, len);
	else
		ok = SHA256_Update(h->ctx, data, len);
	if (!ok)
		BUG("%s update failed", h->algo->name);
}

void
hasher_final(struct hasher *h, unsigned char *out)
{
	int ok;

	if (h->algo->id == HASH_ALGO_SHA1)
		ok = SHA1_Final(out, h->ctx);
	else
		ok = SHA256_Final(out, h->ctx);
	if (!ok)
		BUG("%s final failed", h->algo->name);
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
hash_buffer(unsigned char *out, const void *data, size_t len)
{
	struct hasher *h = hasher_thread();

	hasher_begin(h);
	hasher_update(h, data, len);
	hasher_final(h, out);
}
