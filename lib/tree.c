/*
 * tree: decoding and checking tree objects (and hash-object's commit and
 * tag checks).  Every read is bounded by the buffer's end.
 */
#include "tree.h"

#include <sys/stat.h>

#include "error.h"
#include "odb.h"

void
tree_iter_init(struct tree_iter *it, const void *buf, size_t len)
{
	it->p = buf;
	it->end = it->p + len;
}

unsigned
tree_canon_mode(unsigned mode)
{
	if (S_ISREG(mode))
		return S_IFREG | ((mode & 0100) ? 0755 : 0644);
	if (S_ISLNK(mode))
		return S_IFLNK;
	if (S_ISDIR(mode))
		return S_IFDIR;
	return S_IFGITLINK;
}

int
tree_iter_next(struct tree_iter *it, struct tree_entry *out)
{
	const unsigned char *p = it->p, *nul;
	size_t left = it->end - p;
	unsigned mode = 0;

	if (!left)
		return 0;
	/* the shortest entry is "0 x\0" plus the id */
	if (left < 3 + (size_t)HASH_RAWSZ)
		return error_set(E_CORRUPT, "too-short tree object");
	nul = memchr(p, '\0', left - HASH_RAWSZ);
	if (!nul)	/* no NUL that leaves room for the id */
		return error_set(E_CORRUPT, "too-short tree object");
	if (*p == ' ')
		return error_set(E_CORRUPT, "malformed mode in tree entry");
	out->zero_padded = *p == '0';
	for (; p < nul && *p != ' '; p++) {
		if (*p < '0' || *p > '7')
			return error_set(E_CORRUPT, "malformed mode in tree "
					 "entry");
		mode = (mode << 3) | (*p - '0');
		if (mode > 07777777)
			return error_set(E_CORRUPT, "malformed mode in tree "
					 "entry");
	}
	if (p == it->p || p >= nul)
		return error_set(E_CORRUPT, "malformed mode in tree entry");
	p++;	/* the space */
	if (p == nul)
		return error_set(E_CORRUPT, "empty filename in tree entry");
	out->name = (const char *)p;
	out->namelen = nul - p;
	out->raw_mode = mode;
	out->mode = tree_canon_mode(mode);
	out->oid = (const struct object_id *)(nul + 1);
	it->p = nul + 1 + HASH_RAWSZ;
	return 1;
}

int
tree_check(const void *buf, size_t len)
{
	struct tree_iter it;
	struct tree_entry e;
	int ret;

	tree_iter_init(&it, buf, len);
	while ((ret = tree_iter_next(&it, &e)) > 0)
		;
	return ret;
}

int
tree_name_cmp(const char *a, size_t alen, unsigned amode,
	      const char *b, size_t blen, unsigned bmode)
{
	size_t len = MIN(alen, blen);
	int cmp = memcmp(a, b, len);
	unsigned ca, cb;

	if (cmp)
		return cmp;
	ca = alen > len ? (unsigned char)a[len] : S_ISDIR(amode) ? '/' : 0;
	cb = blen > len ? (unsigned char)b[len] : S_ISDIR(bmode) ? '/' : 0;
	return (int)ca - (int)cb;
}

/* "<key> <40 hex>\n" at *p; advances *p.  1 if found and well-formed. */
static int
hex_line(const char **p, const char *end, const char *key)
{
	size_t klen = strlen(key);
	struct object_id oid;

	if ((size_t)(end - *p) < klen + 1 + HASH_HEXSZ + 1 ||
	    memcmp(*p, key, klen) || (*p)[klen] != ' ' ||
	    hex_to_oid(&oid, *p + klen + 1) ||
	    (*p)[klen + 1 + HASH_HEXSZ] != '\n')
		return 0;
	*p += klen + 1 + HASH_HEXSZ + 1;
	return 1;
}

int
commit_check(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len;

	if (!hex_line(&p, end, "tree"))
		goto bogus;
	while ((size_t)(end - p) >= 7 && !memcmp(p, "parent ", 7))
		if (!hex_line(&p, end, "parent"))
			goto bogus;
	return 0;
bogus: {
	/* git names the null id, of the repository's length */
	char pre[sizeof("bogus commit object ") + HASH_MAX_HEXSZ];

	snprintf(pre, sizeof(pre), "bogus commit object %s",
		 oid_to_hex(&null_oid));
	return error_set_pre(E_CORRUPT, pre, "corrupt commit");
	}
}

int
tag_check(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len, *nl;

	if (!hex_line(&p, end, "object") || (size_t)(end - p) < 5 ||
	    memcmp(p, "type ", 5))
		return error_set(E_CORRUPT, "corrupt tag");
	p += 5;
	nl = memchr(p, '\n', end - p);
	if (!nl)
		return error_set(E_CORRUPT, "corrupt tag");
	if (type_from_name(p, nl - p) == OBJ_BAD) {
		char pre[128];

		snprintf(pre, sizeof(pre), "unknown tag type '%.*s' in "
			 "0000000000000000000000000000000000000000",
			 (int)MIN(nl - p, 64), p);
		return error_set_pre(E_CORRUPT, pre, "corrupt tag");
	}
	p = nl + 1;
	if ((size_t)(end - p) < 4 || memcmp(p, "tag ", 4) ||
	    !memchr(p, '\n', end - p))
		return error_set(E_CORRUPT, "corrupt tag");
	return 0;
}
