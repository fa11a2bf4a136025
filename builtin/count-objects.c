/*
 * count-objects: how many objects the repository holds loose and in
 * packs, and the disk space they take — git's output, line for line.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "builtin.h"
#include "odb.h"
#include "pack.h"
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
	int pack_garbage_done;	/* pack directory reported */
	struct odb *odb;
	struct strbuf shown;	/* the store as git names it */
};

static void
garbage(struct counts *c, const char *path, const char *why, off_t size)
{
	c->garbage++;
	c->garbage_size += size;
	if (c->verbose)
		warning("%s: %s%s", why, c->shown.buf, path);
}

struct pack_file {
	char *name;	/* "pack-XXX.ext" */
	off_t size;
	int pack_and_idx;	/* the first of its name, with both */
};

static int
cmp_pack_file(const void *a, const void *b)
{
	return strcmp(((const struct pack_file *)a)->name,
		      ((const struct pack_file *)b)->name);
}

static size_t
base_len(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

/*
 * The pack "<name up to blen>.pack" and its .idx are there: if the odb
 * could not open it (it said nothing, see quiet_bad_packs), say why as
 * git does when it opens the .idx, an error: "index file <path> is too
 * small" (git repeats it for every loose object it looks up; once here).
 */
static void
check_pack(struct counts *c, const char *name, size_t blen)
{
	struct odb_source *src = &c->odb->sources[0];
	struct strbuf path = STRBUF_INIT;
	struct pack *p;
	struct stat st;

	strbuf_addf(&path, "%s/pack/%.*s.idx", src->objdir, (int)blen, name);
	for (size_t i = 0; i < src->nr_packs; i++)
		if (!strcmp(src->packs[i]->idx_path, path.buf))
			goto out;
	if (!stat(path.buf, &st) &&
	    st.st_size < 256 * 4 + 2 * (off_t)HASH_RAWSZ) {
		error("index file %spack/%.*s.idx is too small", c->shown.buf,
		      (int)blen, name);
	} else if (pack_open(&p, path.buf) < 0) {
		error_lib(-1);
		error_clear();
	} else {
		pack_close(p);	/* it came meanwhile */
	}
out:
	strbuf_release(&path);
}

/*
 * objects/pack as git judges it: files git does not know are "garbage
 * found" (in directory order); pack files whose .pack or .idx is missing
 * are reported afterwards, sorted, with what they lack.
 */
static void
count_pack_garbage(struct counts *c)
{
	static const char *const known[] = {
		".pack", ".idx", ".keep", ".bitmap", ".promisor", ".mtimes",
		".rev",
	};
	struct strbuf path = STRBUF_INIT;
	struct pack_file *files = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *de;
	DIR *dir;

	if (c->pack_garbage_done)
		return;
	c->pack_garbage_done = 1;
	strbuf_addf(&path, "%s/pack/", c->odb->objdir);
	dir = opendir(path.buf);
	while (dir && (de = readdir(dir))) {
		const char *ext = strrchr(de->d_name, '.');
		size_t base = path.len, k;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addstr(&path, de->d_name);
		if (stat(path.buf, &st) < 0 || S_ISDIR(st.st_mode)) {
			strbuf_setlen(&path, base);
			continue;
		}
		strbuf_setlen(&path, base);
		for (k = 0; ext && k < ARRAY_SIZE(known); k++)
			if (!strcmp(ext, known[k]))
				break;
		if (!ext || k == ARRAY_SIZE(known)) {
			struct strbuf rel = STRBUF_INIT;

			strbuf_addf(&rel, "pack/%s", de->d_name);
			garbage(c, rel.buf, "garbage found", st.st_size);
			strbuf_release(&rel);
			continue;
		}
		ALLOC_GROW(files, nr + 1, alloc);
		files[nr].name = xstrdup(de->d_name);
		files[nr].pack_and_idx = 0;
		files[nr++].size = st.st_size;
	}
	if (dir)
		closedir(dir);
	sort_array(files, nr, sizeof(*files), cmp_pack_file);
	for (size_t i = 0; i < nr;) {
		size_t blen = base_len(files[i].name), j;
		int has_pack = 0, has_idx = 0;

		for (j = i; j < nr && base_len(files[j].name) == blen &&
		     !strncmp(files[j].name, files[i].name, blen); j++) {
			has_pack |= !strcmp(files[j].name + blen, ".pack");
			has_idx |= !strcmp(files[j].name + blen, ".idx");
		}
		files[i].pack_and_idx = has_pack && has_idx;
		if (!(has_pack && has_idx)) {
			const char *why = has_idx ? "no corresponding .pack" :
				has_pack ? "no corresponding .idx" :
				"no corresponding .idx or .pack";

			for (size_t k = i; k < j; k++) {
				struct strbuf rel = STRBUF_INIT;

				strbuf_addf(&rel, "pack/%s", files[k].name);
				garbage(c, rel.buf, why, files[k].size);
				strbuf_release(&rel);
			}
		}
		i = j;
	}
	/* then, as git opens them, the packs that would not open */
	for (size_t i = 0; i < nr; i++)
		if (files[i].pack_and_idx)
			check_pack(c, files[i].name, base_len(files[i].name));
	for (size_t i = 0; i < nr; i++)
		free(files[i].name);
	free(files);
	strbuf_release(&path);
}

static void
count_loose(struct counts *c)
{
	struct strbuf path = STRBUF_INIT;
	struct odb *odb = c->odb;

	for (int i = 0; i < 256; i++) {
		struct dirent *de;
		DIR *dir;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%02x", odb->objdir, i);
		dir = opendir(path.buf);
		if (!dir)
			continue;
		strbuf_addch(&path, '/');
		while ((de = readdir(dir))) {
			struct object_id oid;
			struct stat st;
			struct pack *p;
			uint64_t off;
			size_t base = path.len;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			strbuf_addstr(&path, de->d_name);
			if (lstat(path.buf, &st) < 0) {
				strbuf_setlen(&path, base);
				continue;
			}
			strbuf_setlen(&path, base);
			if (loose_name_to_oid(&oid, i, de->d_name)) {
				struct strbuf rel = STRBUF_INIT;

				strbuf_addf(&rel, "%02x/%s", i, de->d_name);
				garbage(c, rel.buf, "garbage found", st.st_size);
				strbuf_release(&rel);
				continue;
			}
			/* git reads the pack directory at the first object */
			if (c->verbose)
				count_pack_garbage(c);
			c->loose++;
			c->loose_size += (uint64_t)st.st_blocks * 512;
			if (odb_find_packed(odb, &oid, &p, &off))
				c->packed_loose++;
		}
		closedir(dir);
	}
	strbuf_release(&path);
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
		strbuf_addf(out, "%u byte%s", (unsigned)bytes,
			    bytes == 1 ? "" : "s");
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
	/* git speaks of a pack that will not open only with -v: below */
	for (size_t i = 0; i < odb->nr_sources; i++)
		odb->sources[i].quiet_bad_packs = 1;
	odb_prepare_packs(odb);
	c.odb = odb;
	strbuf_init(&c.shown, 0);
	if (getenv("GIT_OBJECT_DIRECTORY") && *getenv("GIT_OBJECT_DIRECTORY")) {
		/* git names the store as it was given... */
		strbuf_addf(&c.shown, "%s/", getenv("GIT_OBJECT_DIRECTORY"));
	} else if (strcmp(repo.gitdir, repo.commondir)) {
		/* ...a linked worktree's by its real path... */
		strbuf_addf(&c.shown, "%s/", odb->objdir);
	} else {
		/*
		 * ...or under the git directory as its setup leaves it:
		 * ".git" at the top of the work tree (where git works from
		 * a subdirectory too), "." in the git directory, absolute
		 * deeper in it, GIT_DIR as given.
		 */
		strbuf_addf(&c.shown, "%s/objects/", repo.gitdir_env ?
			    repo.gitdir_env : ".git");
	}
	count_loose(&c);
	if (c.verbose) {
		struct odb_source *src = &odb->sources[0];
		unsigned long in_pack = 0;
		uint64_t size_pack = 0;

		count_pack_garbage(&c);
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
	strbuf_release(&c.shown);
	repo_release(&repo);
	return 0;
}
