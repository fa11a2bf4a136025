/*
 * repo-settings: the settings a command reads from the configuration
 * (struct repo_settings), parsed once when the repository is opened:
 * core.*, index.* and feature.* as git reads them, fsync, threads.
 */
#include "repo.h"

#include <limits.h>
#include <strings.h>
#include <zlib.h>

#include "error.h"
#include "path.h"
#include "repo-internal.h"
#include "strbuf.h"

unsigned
repo_parse_fsync(const char *value)
{
	static const struct {
		const char *name;
		unsigned bits;
	} names[] = {
		{ "loose-object", FSYNC_LOOSE_OBJECT },
		{ "pack", FSYNC_PACK },
		{ "pack-metadata", FSYNC_PACK_METADATA },
		{ "commit-graph", FSYNC_COMMIT_GRAPH },
		{ "index", FSYNC_INDEX },
		{ "reference", FSYNC_REFERENCE },
		{ "objects", FSYNC_LOOSE_OBJECT | FSYNC_PACK },
		{ "derived-metadata", FSYNC_PACK_METADATA | FSYNC_COMMIT_GRAPH },
		{ "committed", FSYNC_LOOSE_OBJECT | FSYNC_PACK },
		{ "added", FSYNC_LOOSE_OBJECT | FSYNC_PACK | FSYNC_INDEX },
		{ "all", FSYNC_LOOSE_OBJECT | FSYNC_PACK | FSYNC_PACK_METADATA |
			 FSYNC_COMMIT_GRAPH | FSYNC_INDEX | FSYNC_REFERENCE },
	};
	unsigned start = FSYNC_PACK | FSYNC_PACK_METADATA | FSYNC_COMMIT_GRAPH;
	unsigned add = 0, remove = 0;
	const char *p = value ? value : "";

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int neg = 0, found = 0;

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len && *p == '-') {
			neg = 1;
			p++;
			len--;
		}
		if (len == 4 && !strncmp(p, "none", 4) && !neg) {
			start = 0;
			found = 1;
		}
		for (size_t i = 0; !found && i < ARRAY_SIZE(names); i++) {
			if (strlen(names[i].name) == len &&
			    !strncmp(p, names[i].name, len)) {
				if (neg)
					remove |= names[i].bits;
				else
					add |= names[i].bits;
				found = 1;
			}
		}
		if (!found && len)
			diag_emit(DIAG_WARNING, "ignoring unknown core.fsync "
				  "component '%.*s'", (int)len, p);
		if (!comma)
			break;
		p = comma + 1;
	}
	return (start & ~remove) | add;
}

enum sync_mode
repo_sync_mode(const struct repo_settings *s, unsigned component)
{
	if (!(s->fsync & component))
		return SYNC_NONE;
	if (s->fsync_method == FSYNC_METHOD_WRITEOUT_ONLY)
		return SYNC_WRITEOUT;
	return SYNC_FULL;
}

static int
get_bool(const struct config *cfg, const char *key, int *out, int def)
{
	int ret = config_get_bool(cfg, key, out);

	if (ret == 0)
		*out = def;
	return ret < 0 ? ret : 0;
}

/*
 * git's bool-or-int: a boolean word (or no value) is a boolean, anything
 * else an int (k/m/g suffixes allowed).  1 found, 0 not, or -E_INVALID
 * with git's message.
 */
static int
get_bool_or_int(const struct config *cfg, const char *key, int *is_bool,
		int *out)
{
	const char *v;
	long n;

	if (!config_get(cfg, key, &v))
		return 0;
	*is_bool = 1;
	if (!v || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on")) {
		*out = 1;
		return 1;
	}
	if (!*v || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off")) {
		*out = 0;
		return 1;
	}
	*is_bool = 0;
	if (config_get_long(cfg, key, &n) < 0)
		return -E_INVALID;
	if (n < INT_MIN || n > INT_MAX)
		return error_set(E_INVALID, "bad numeric config value '%s' "
				 "for '%s': out of range", v, key);
	*out = (int)n;
	return 1;
}

/*
 * What decides whether an index is written with EOIE and IEOT, as git
 * 2.39 reads it: index.threads (GIT_TEST_INDEX_THREADS, when a positive
 * number, first; true is 0, automatic, and false is 1),
 * index.recordEndOfIndexEntries and index.recordOffsetTable.  git reads
 * index.threads when it reads an existing index or writes one, the other
 * two when it writes one and needs them: a bad value is kept here and
 * refused then (index_threads_check(), index_write()), as git 2.55 does,
 * never at the start of a command that has no index to read.
 */
static int
load_index_ext_settings(struct repo_settings *s, const struct config *cfg)
{
	const char *env = getenv("GIT_TEST_INDEX_THREADS"), *v;
	int is_bool = 0, n = 0, ret;
	long e;

	s->index_threads_set = 0;
	s->index_threads = 1;
	s->index_threads_bad = s->index_threads_why = NULL;
	if (env && !config_parse_long(env, &e) && e > 0 && e <= INT_MAX) {
		s->index_threads_set = 1;
		s->index_threads = (int)e;
	} else {
		ret = get_bool_or_int(cfg, "index.threads", &is_bool, &n);
		if (ret < 0) {
			/* the value is there: get_bool_or_int() found it */
			(void)config_get(cfg, "index.threads",
					 &s->index_threads_bad);
			s->index_threads_why = strstr(error_msg(),
						      "out of range") ?
				"out of range" : "invalid unit";
			error_clear();
		} else if (ret) {
			s->index_threads_set = 1;
			s->index_threads = is_bool ? !n : n;
		}
	}
	s->record_eoie = s->record_ieot = -1;
	s->record_eoie_bad = s->record_ieot_bad = NULL;
	if (config_get(cfg, "index.recordendofindexentries", &v)) {
		s->record_eoie = config_parse_bool(v);
		if (s->record_eoie < 0) {
			s->record_eoie = -2;
			s->record_eoie_bad = v;
		}
	}
	if (config_get(cfg, "index.recordoffsettable", &v)) {
		s->record_ieot = config_parse_bool(v);
		if (s->record_ieot < 0) {
			s->record_ieot = -2;
			s->record_ieot_bad = v;
		}
	}
	return 0;
}

/* A zlib level (-1 to 9) into *out if key is set; 0 or -E_INVALID. */
static int
get_level(const struct config *cfg, const char *key, int *out)
{
	long level;
	int ret = config_get_long(cfg, key, &level);

	if (ret <= 0)
		return ret;
	if (level < -1 || level > 9)
		return error_set(E_INVALID, "bad zlib compression level %ld",
				 level);
	*out = (int)level;
	return 0;
}

int
repo_load_settings(struct repo *repo)
{
	struct repo_settings *s = &repo->settings;
	const struct config *cfg = &repo->config;
	const char *v;
	int b, many_files, ret;

	if ((ret = get_bool(cfg, "core.filemode", &s->filemode, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.trustctime", &s->trustctime, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.symlinks", &s->symlinks, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.ignorecase", &s->ignorecase, 0)) < 0 ||
	    (ret = get_bool(cfg, "core.quotepath", &s->quotepath, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.sparsecheckout", &s->sparse_checkout,
			    0)) < 0 ||
	    (ret = get_bool(cfg, "core.sparsecheckoutcone",
			    &s->sparse_checkout_cone, 0)) < 0 ||
	    (ret = get_bool(cfg, "sparse.expectfilesoutsideofpatterns",
			    &s->sparse_expect_outside, 0)) < 0)
		return ret;
	if ((ret = get_bool(cfg, "core.protectntfs", &b, 1)) < 0)
		return ret;
	s->protect = b ? PATH_PROTECT_NTFS : 0;
	if ((ret = get_bool(cfg, "core.protecthfs", &b, 0)) < 0)
		return ret;
	if (b)
		s->protect |= PATH_PROTECT_HFS;
	if (config_get(cfg, "core.checkstat", &v) && v)
		s->checkstat_minimal = !strcmp(v, "minimal");

	s->loose_level = Z_BEST_SPEED;
	if ((ret = get_level(cfg, "core.compression", &s->loose_level)) < 0 ||
	    (ret = get_level(cfg, "core.loosecompression",
			     &s->loose_level)) < 0)
		return ret;

	s->fsync = repo_parse_fsync(NULL);
	if (config_get(cfg, "core.fsync", &v))
		s->fsync = repo_parse_fsync(v);
	ret = config_get_bool(cfg, "core.fsyncobjectfiles", &b);
	if (ret < 0)
		return ret;
	if (ret) {
		diag_emit(DIAG_WARNING, "core.fsyncObjectFiles is deprecated; "
			  "use core.fsync instead");
		if (b)
			s->fsync |= FSYNC_LOOSE_OBJECT;
	}
	v = getenv("GIT_TEST_FSYNC");
	if (v && config_parse_bool(v) == 0)
		s->fsync = 0;
	s->fsync_method = FSYNC_METHOD_FSYNC;
	if (config_get(cfg, "core.fsyncmethod", &v) && v) {
		if (!strcmp(v, "fsync"))
			s->fsync_method = FSYNC_METHOD_FSYNC;
		else if (!strcmp(v, "writeout-only"))
			s->fsync_method = FSYNC_METHOD_WRITEOUT_ONLY;
		else if (!strcmp(v, "batch"))
			s->fsync_method = FSYNC_METHOD_BATCH;
		else
			diag_emit(DIAG_WARNING, "ignoring unknown "
				  "core.fsyncMethod value '%s'", v);
	}

	s->log_all_ref_updates = !repo->bare;
	if (config_get(cfg, "core.logallrefupdates", &v)) {
		if (v && !strcasecmp(v, "always")) {
			s->log_all_ref_updates = 2;
		} else {
			b = config_parse_bool(v);
			if (b < 0)
				return error_set(E_INVALID, "bad boolean "
						 "config value '%s' for '%s'",
						 v, "core.logallrefupdates");
			s->log_all_ref_updates = b;
		}
	}

	ret = get_bool(cfg, "feature.manyfiles", &many_files, 0);
	if (ret < 0)
		return ret;
	v = getenv("GIT_INDEX_VERSION");
	if (v && *v) {
		long ver;

		if (config_parse_long(v, &ver) < 0 || ver < 2 || ver > 4) {
			diag_emit(DIAG_WARNING, "GIT_INDEX_VERSION set, but "
				  "the value is invalid.\nUsing version 3");
			ver = 3;
		}
		s->index_version = ver;
	} else {
		long ver;

		ret = config_get_long(cfg, "index.version", &ver);
		if (ret > 0 && (ver < 2 || ver > 4)) {
			diag_emit(DIAG_WARNING, "index.version set, but the "
				  "value is invalid.\nUsing version 3");
			ver = 3;
		}
		if (ret > 0)
			s->index_version = ver;
		else if (many_files)
			s->index_version = 4;
	}
	ret = get_bool(cfg, "index.skiphash", &s->index_skip_hash, many_files);
	if (ret < 0)
		return ret;
	s->untracked_cache = many_files ? 1 : -1;
	if (config_get(cfg, "core.untrackedcache", &v) &&
	    (b = config_parse_bool(v)) >= 0)
		s->untracked_cache = b;	/* "keep" or anything else: as is */

	ret = load_index_ext_settings(s, cfg);
	if (ret < 0)
		return ret;
	{
		long threads;

		ret = config_get_long(cfg, "dirc.threads", &threads);
		if (ret < 0)
			return ret;
		s->threads = ret && threads > 0 ? (int)MIN(threads, 1024) : 0;
	}

	return 0;
}
