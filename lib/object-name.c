/*
 * object-name: name resolution.  Abbreviations are looked up by reading
 * the one fan-out directory their first two digits name.
 */
#include "object-name.h"

#include <dirent.h>

#include "error.h"
#include "odb.h"
#include "repo.h"
#include "strbuf.h"

static int
is_hex_prefix(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return 0;
	return 1;
}

int
get_oid_prefix(struct object_id *out, struct repo *repo, const char *hex,
	       size_t len)
{
	struct strbuf path = STRBUF_INIT;
	char lower[HASH_HEXSZ + 1];
	struct odb *odb;
	struct dirent *de;
	DIR *dir;
	int found = 0, ret;

	for (size_t i = 0; i < len; i++)
		lower[i] = (hex[i] >= 'A' && hex[i] <= 'F') ? hex[i] + 32 :
			   hex[i];
	lower[len] = '\0';
	if (len == HASH_HEXSZ) {
		hex_to_oid(out, lower);
		return 0;
	}
	ret = repo_odb(&odb, repo);
	if (ret < 0)
		return ret;
	strbuf_addf(&path, "%s/%.2s", odb->objdir, lower);
	dir = opendir(path.buf);
	while (dir && (de = readdir(dir))) {
		char full[HASH_HEXSZ + 1];
		struct object_id oid;

		if (strlen(de->d_name) != HASH_HEXSZ - 2 ||
		    strncmp(de->d_name, lower + 2, len - 2))
			continue;
		snprintf(full, sizeof(full), "%.2s%s", lower, de->d_name);
		if (hex_to_oid(&oid, full))
			continue;
		if (found && !oideq(&oid, out)) {
			found = 2;
			break;
		}
		*out = oid;
		found = 1;
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	/* the virtual empty tree */
	if (!found && !strncmp("4b825dc642cb6eb9a060e54bf8d69288fbee4904",
			       lower, len)) {
		*out = empty_tree_oid;
		found = 1;
	}
	if (found == 2)
		return error_set(E_AMBIGUOUS, "short object ID %s is "
				 "ambiguous", lower);
	if (!found)
		return error_set(E_NOTFOUND, "Not a valid object name %.*s",
				 (int)len, hex);
	return 0;
}

int
get_oid(struct object_id *out, struct repo *repo, const char *name)
{
	size_t len = strlen(name);

	if (len >= 4 && len <= HASH_HEXSZ && is_hex_prefix(name, len)) {
		int ret = get_oid_prefix(out, repo, name, len);

		if (ret != -E_NOTFOUND)
			return ret;
	}
	return error_set(E_NOTFOUND, "Not a valid object name %s", name);
}
