/*
 * t-hash: hex conversion of object ids, SHA-1 against known vectors (FIPS
 * 180 and git's well-known ids), and one hasher reused across many
 * digests.
 */
#include "tap.h"
#include "hash.h"

static const struct {
	const char *data;
	size_t len;
	const char *hex;
} vectors[] = {
	{ "", 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ "blob 0\0", 7, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" },
	{ "blob 6\0hello\n", 13, "ce013625030ba8dba906f756967f9e9ca394464a" },
	{ "blob 1\0x", 8, "c1b0730e0133447badcfd47fd144e254807b06e1" },
	{ "tree 0\0", 7, "4b825dc642cb6eb9a060e54bf8d69288fbee4904" },
};

static const char *
hex_of(const unsigned char raw[HASH_MAX_RAWSZ])
{
	struct object_id oid;

	memcpy(oid.hash, raw, HASH_RAWSZ);
	return oid_to_hex(&oid);
}

static void
test_hex(void)
{
	struct object_id oid, back;
	char hex[HASH_MAX_HEXSZ + 1], upper[HASH_MAX_HEXSZ + 1];
	int bad = 0;

	/* every byte value, in every position */
	for (int round = 0; round < 256; round++) {
		for (int i = 0; i < HASH_RAWSZ; i++)
			oid.hash[i] = (unsigned char)(round * 7 + i * 13);
		oid_to_hex_r(hex, &oid);
		if (strlen(hex) != (size_t)HASH_HEXSZ ||
		    hex_to_oid(&back, hex) ||
		    !oideq(&oid, &back))
			bad++;
		for (int i = 0; i < HASH_HEXSZ; i++)
			if (!strchr("0123456789abcdef", hex[i]))
				bad++;
	}
	is_int(bad, 0, "hex round trip, lowercase, 256 ids");

	ok(hex_to_oid(&oid, "CE013625030BA8DBA906F756967F9E9CA394464A") == 0,
	   "hex_to_oid accepts upper case");
	is_str(oid_to_hex_r(upper, &oid),
	       "ce013625030ba8dba906f756967f9e9ca394464a",
	       "... and oid_to_hex writes lower case");
	ok(hex_to_oid(&oid, "ce013625030ba8dba906f756967f9e9ca394464g") < 0,
	   "hex_to_oid rejects a non-hex digit at the end");
	ok(hex_to_oid(&oid, "xe013625030ba8dba906f756967f9e9ca394464a") < 0,
	   "hex_to_oid rejects a non-hex digit at the start");
	ok(hex_to_oid(&oid, "ce0136") < 0, "hex_to_oid rejects a short string");
	ok(hex_to_oid(&oid, "ce01362") < 0,
	   "hex_to_oid rejects a string ending in half a byte");
	ok(hex_to_oid(&oid, "ce013625030ba8dba906f756967f9e9ca39446" "\xff" "a") < 0,
	   "hex_to_oid rejects a byte above 127");
	ok(hex_to_oid(&oid, "") < 0, "hex_to_oid rejects the empty string");
	ok(hex_to_oid(&oid, "ce013625030ba8dba906f756967f9e9ca394464a00") == 0,
	   "hex_to_oid reads exactly 40 digits");

	for (int c = 0; c < 256; c++) {
		int want = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (hexval(c) != want)
			bad++;
	}
	is_int(bad, 0, "hexval of all 256 byte values");
}

static void
test_constants(void)
{
	struct object_id zero;

	memset(&zero, 0, sizeof(zero));
	ok(oideq(&null_oid, &zero), "null_oid is all zeros");
	ok(oid_is_null(&null_oid), "oid_is_null(null_oid)");
	ok(!oid_is_null(&empty_blob_oid), "!oid_is_null(empty_blob_oid)");
	is_str(oid_to_hex(&null_oid), "0000000000000000000000000000000000000000",
	       "null_oid in hex");
	is_str(oid_to_hex(&empty_blob_oid),
	       "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "empty_blob_oid");
	is_str(oid_to_hex(&empty_tree_oid),
	       "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "empty_tree_oid");
	ok(oidcmp(&null_oid, &empty_tree_oid) < 0 &&
	   oidcmp(&empty_tree_oid, &empty_blob_oid) < 0 &&
	   oidcmp(&empty_blob_oid, &empty_blob_oid) == 0,
	   "oidcmp orders by bytes");
}

static void
test_rotating_buffers(void)
{
	const char *a = oid_to_hex(&null_oid);
	const char *b = oid_to_hex(&empty_blob_oid);
	const char *c = oid_to_hex(&empty_tree_oid);

	ok(!strcmp(a, "0000000000000000000000000000000000000000") &&
	   !strcmp(b, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391") &&
	   !strcmp(c, "4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
	   "three oid_to_hex results can be used together");
}

static void
test_vectors(void)
{
	struct hasher h;
	unsigned char out[HASH_MAX_RAWSZ];

	for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
		hash_buffer(out, vectors[i].data, vectors[i].len);
		is_str(hex_of(out), vectors[i].hex, "hash_buffer(vector %zu)", i);
	}

	hasher_init(&h);
	for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
		hasher_begin(&h);
		for (size_t j = 0; j < vectors[i].len; j++)
			hasher_update(&h, vectors[i].data + j, 1);
		hasher_final(&h, out);
		is_str(hex_of(out), vectors[i].hex, "byte by byte (vector %zu)",
		       i);
	}

	{
		char *million = malloc(1000000);

		memset(million, 'a', 1000000);
		hasher_begin(&h);
		for (int k = 0; k < 1000; k++)
			hasher_update(&h, million + k * 1000, 1000);
		hasher_final(&h, out);
		is_str(hex_of(out), "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
		       "a million 'a', in 1000 updates");
		hash_buffer(out, million, 1000000);
		is_str(hex_of(out), "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
		       "a million 'a', in one hash_buffer");
		free(million);
	}
	hasher_release(&h);
}

/* One context, reused for many digests: each must start afresh. */
static void
test_reuse(void)
{
	struct hasher h, *t = hasher_thread();
	unsigned char out[HASH_MAX_RAWSZ], again[HASH_MAX_RAWSZ];
	int bad = 0;

	ok(t != NULL && t == hasher_thread(), "hasher_thread is one context "
	   "per thread");

	/* iterated: h(i+1) = sha1(h(i)), from sha1("") */
	hasher_init(&h);
	hasher_begin(&h);
	hasher_final(&h, out);
	for (int i = 1; i < 1000; i++) {
		hasher_begin(&h);
		hasher_update(&h, out, HASH_RAWSZ);
		hasher_final(&h, out);
	}
	is_str(hex_of(out), "f4497f0692d04edf4704d3b3ff79e68d2ee8e5c2",
	       "1000 chained digests with one hasher");

	/* a digest abandoned half-way does not leak into the next one */
	for (int i = 0; i < 10000; i++) {
		char buf[32];
		int n = snprintf(buf, sizeof(buf), "blob %d", i);

		hasher_begin(&h);
		hasher_update(&h, "garbage", 7);
		hasher_begin(&h);
		hasher_update(&h, buf, n);
		hasher_final(&h, out);
		hash_buffer(again, buf, n);
		if (memcmp(out, again, HASH_RAWSZ))
			bad++;
	}
	is_int(bad, 0, "10000 digests: begin resets, hasher and "
	       "hash_buffer agree");

	/* one long digest over many updates, interleaved with others */
	hasher_begin(t);
	for (int i = 0; i < 10000; i++) {
		char buf[32];
		int n = snprintf(buf, sizeof(buf), "blob %d", i);

		hasher_update(t, buf, n + 1);
		hasher_begin(&h);
		hasher_update(&h, buf, n);
		hasher_final(&h, again);
	}
	hasher_final(t, out);
	is_str(hex_of(out), "6df95155768fe380e52be69374435a3cc7ec0524",
	       "a long digest is not disturbed by another context");
	hasher_release(&h);
}

/* SHA-256 once set: FIPS 180-2 vectors, git's empty ids, 64 hex digits. */
static void
test_sha256(void)
{
	static const struct {
		const char *data, *hex;
	} v256[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb924"
		      "27ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223"
			 "b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039"
		  "a33ce45964ff2167f6ecedd419db06c1" },
	};
	unsigned char out[HASH_MAX_RAWSZ];
	struct object_id oid, back;
	char hex[HASH_MAX_HEXSZ + 1];

	ok(hash_algo_by_name("sha256") == &hash_algos[HASH_ALGO_SHA256] &&
	   hash_algo_by_name("sha1") == &hash_algos[HASH_ALGO_SHA1] &&
	   !hash_algo_by_name("sha512") && !hash_algo_by_name("SHA1"),
	   "hash_algo_by_name knows sha1 and sha256 only");
	hash_algo_set(hash_algo_by_name("sha256"));
	is_int(HASH_RAWSZ, 32, "sha256: 32 raw bytes");
	is_int(HASH_HEXSZ, 64, "sha256: 64 hex digits");
	for (size_t i = 0; i < ARRAY_SIZE(v256); i++) {
		hash_buffer(out, v256[i].data, strlen(v256[i].data));
		memcpy(oid.hash, out, HASH_RAWSZ);
		is_str(oid_to_hex(&oid), v256[i].hex, "sha256 vector %zu", i);
	}
	is_str(oid_to_hex(&empty_tree_oid), "6ef19b41225c5369f1c104d45d8d85ef"
	       "a9b057b53b14b4b9b939dd74decc5321", "sha256 empty tree");
	is_str(oid_to_hex(&empty_blob_oid), "473a0f4c3be8a93681a267e3b1e9a7dc"
	       "da1185436fe141f7749120a303721813", "sha256 empty blob");
	hash_buffer(out, "tree 0", 7);
	memcpy(oid.hash, out, HASH_RAWSZ);
	ok(oideq(&oid, &empty_tree_oid), "the empty tree is sha256(\"tree 0\\0\")");
	oid_to_hex_r(hex, &oid);
	ok(strlen(hex) == 64 && !hex_to_oid(&back, hex) && oideq(&back, &oid),
	   "sha256 hex round trip");
	ok(hex_to_oid(&back, "4b825dc642cb6eb9a060e54bf8d69288fbee4904") < 0,
	   "a sha1 id is too short for sha256");
	hash_algo_set(hash_algo_by_name("sha1"));
	is_int(HASH_RAWSZ, 20, "back to sha1");
	is_str(oid_to_hex(&empty_tree_oid),
	       "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "sha1 empty tree again");
}

int
main(void)
{
	test_hex();
	test_constants();
	test_rotating_buffers();
	test_vectors();
	test_reuse();
	test_sha256();
	return done_testing();
}
