/*
 * count-objects: how many objects the repository holds loose and in
 * packs, and the disk space they take — git's output, line for line.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "builtin.h"
#include "odb.h"
#include "parse-options.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"

const char *const count_objects_usage[] = {
	"dirc count-objects [-v] [-H | --human-readable]",
	NULL,
};

struct counts {
	unsigned long loose, packed_loose, garbage;
	uint64_t loose_size, garbage_size;
	int verbose;
};

static void
garbage(struct counts *c, const char *path, const char *why, off_t size)
{
	c->garbage++;
	c->garbage_size += size;
	if (c->verbose)
		warning("%s: %s", why, path);
}

static int
is_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return 0;
	return 1;
}

static void
count_loose(struct counts *c, struct odb *odb)
{
	struct strbuf path = STRBUF_INIT;

	for (int i = 0; i < 256; i++) {
		struct dirent *de;
		size_t base;
		DIR *dir;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%02x", odb->objdir, i);
		dir = opendir(path.buf);
		if (!dir)
			continue;
		strbuf_addch(&path, '/');
		base = path.len;
		while ((de = readdir(dir))) {
			struct object_id oid;
			struct stat st;
			struct pack *p;
			uint64_t off;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			strbuf_setlen(&path, base);
			strbuf_addstr(&path, de->d_name);
			if (lstat(path.buf, &st) < 0)
				continue;
			if (strlen(de->d_name) != HASH_HEXSZ - 2 ||
			    !is_hex(de->d_name, HASH_HEXSZ - 2)) {
				garbage(c, path.buf, "garbage found", st.st_size);
				continue;
			}
			c->loose++;
			c->loose_size += (uint64_t)st.st_blocks * 512;
			if (!loose_name_to_oid(&oid, i, de->d_name) &&
			    odb_find_packed(odb, &oid, &p, &off))
				c->packed_loose++;
		}
		closedir(dir);
	}
	strbuf_release(&path);
}

/* Files in objects/pack that are not part of a pack. */
static void
count_pack_garbage(struct counts *c, struct odb *odb)
{
	static const char *const known[] = {
		".pack", ".idx", ".keep", ".bitmap", ".promisor", ".mtimes",
		".rev",
	};
	struct strbuf path = STRBUF_INIT, sib = STRBUF_INIT;
	struct dirent *de;
	size_t base;
	DIR *dir;

	strbuf_addf(&path, "%s/pack", odb->objdir);
	dir = opendir(path.buf);
	if (!dir)
		goto out;
	strbuf_addch(&path, '/');
	base = path.len;
	while ((de = readdir(dir))) {
		const char *ext = strrchr(de->d_name, '.');
		struct stat st;
		size_t k;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_setlen(&path, base);
		strbuf_addstr(&path, de->d_name);
		if (stat(path.buf, &st) < 0 || S_ISDIR(st.st_mode))
			continue;
		for (k = 0; ext && k < ARRAY_SIZE(known); k++)
			if (!strcmp(ext, known[k]))
				break;
		if (!ext || k == ARRAY_SIZE(known) ||
		    !starts_with(de->d_name, "pack-")) {
			garbage(c, path.buf, "garbage found", st.st_size);
			continue;
		}
		/* a .pack needs its .idx and the other way round */
		if (!strcmp(ext, ".pack") || !strcmp(ext, ".idx")) {
			int is_pack = !strcmp(ext, ".pack");

			strbuf_reset(&sib);
			strbuf_add(&sib, path.buf, path.len - strlen(ext));
			strbuf_addstr(&sib, is_pack ? ".idx" : ".pack");
			if (access(sib.buf, F_OK))
				garbage(c, path.buf, is_pack ?
					"no corresponding .idx" :
					"no corresponding .pack", st.st_size);
		}
	}
	closedir(dir);
out:
	strbuf_release(&path);
	strbuf_release(&sib);
}

/* git's human-readable sizes: "1.43 KiB", rounded the same way */
static void
humanise(struct strbuf *out, uint64_t bytes)
{
	if (bytes > (1u << 30)) {
		strbuf_addf(out, "%u.%2.2u GiB", (unsigned)(bytes >> 30),
			    (unsigned)((bytes & ((1u << 30) - 1)) / 10737419));
	} else if (bytes > (1u << 20)) {
		unsigned x = bytes + 5243;

		strbuf_addf(out, "%u.%2.2u MiB", x >> 20,
			    ((x & ((1u << 20) - 1)) * 100) >> 20);
	} else if (bytes > (1u << 10)) {
		unsigned x = bytes + 5;

		strbuf_addf(out, "%u.%2.2u KiB", x >> 10,
			    ((x & ((1u << 10) - 1)) * 100) >> 10);
	} else {
		strbuf_addf(out, "%u bytes", (unsigned)bytes);
	}
}

static void
print_size(const char *label, uint64_t bytes, int human)
{
	struct strbuf sb = STRBUF_INIT;

	if (human)
		humanise(&sb, bytes);
	else
		strbuf_addf(&sb, "%llu", (unsigned long long)(bytes / 1024));
	printf("%s: %s\n", label, sb.buf);
	strbuf_release(&sb);
}

int
cmd_count_objects(int argc, const char **argv)
{
	struct repo repo;
	struct odb *odb;
	struct counts c;
	int human = 0, ret;
	struct option opts[] = {
		OPT_BOOL('v', "verbose", &c.verbose, "be verbose"),
		OPT_BOOL('H', "human-readable", &human,
			 "print sizes in human readable format"),
		OPT_END(),
	};

	memset(&c, 0, sizeof(c));
	argc = parse_options(argc, argv, opts, count_objects_usage, 0);
	if (argc)
		usage_with_options(count_objects_usage, opts);
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	odb_prepare_packs(odb);
	count_loose(&c, odb);
	if (c.verbose) {
		struct odb_source *src = &odb->sources[0];
		unsigned long in_pack = 0;
		uint64_t size_pack = 0;

		count_pack_garbage(&c, odb);
		for (size_t i = 0; i < src->nr_packs; i++) {
			struct pack *p = src->packs[i];
			struct stat st;

			in_pack += p->nr;
			if (!stat(p->pack_path, &st))
				size_pack += st.st_size;
			size_pack += p->idx_len;
		}
		printf("count: %lu\n", c.loose);
		print_size("size", c.loose_size, human);
		printf("in-pack: %lu\n", in_pack);
		printf("packs: %zu\n", src->nr_packs);
		print_size("size-pack", size_pack, human);
		printf("prune-packable: %lu\n", c.packed_loose);
		printf("garbage: %lu\n", c.garbage);
		print_size("size-garbage", c.garbage_size, human);
		for (size_t i = 1; i < odb->nr_sources; i++) {
			struct strbuf q = STRBUF_INIT;

			quote_c_style(&q, odb->sources[i].objdir,
				      strlen(odb->sources[i].objdir), 1);
			printf("alternate: %s\n", q.buf);
			strbuf_release(&q);
		}
	} else {
		struct strbuf sb = STRBUF_INIT;

		if (human)
			humanise(&sb, c.loose_size);
		else
			strbuf_addf(&sb, "%llu kilobytes",
				    (unsigned long long)(c.loose_size / 1024));
		printf("%lu objects, %s\n", c.loose, sb.buf);
		strbuf_release(&sb);
	}
	repo_release(&repo);
	return 0;
}
