/*
 * doc-paths: the man directory found from the binary's location, and
 * the source tree's Documentation/ (see doc-paths.h).  The Makefile
 * passes DIRC_MANDIR_RELATIVE and DIRC_SOURCE_DOCDIR to this file only.
 */
#include "doc-paths.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "strbuf.h"

#ifndef DIRC_MANDIR_RELATIVE
#define DIRC_MANDIR_RELATIVE "../share/man"
#endif
#ifndef DIRC_SOURCE_DOCDIR
#define DIRC_SOURCE_DOCDIR "Documentation"
#endif

const char *
doc_installed_mandir(void)
{
	static struct strbuf dir = STRBUF_INIT;
	static int done;
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (done)
		return dir.len ? dir.buf : NULL;
	done = 1;
	if (DIRC_MANDIR_RELATIVE[0] == '/') {
		strbuf_addstr(&dir, DIRC_MANDIR_RELATIVE);
		return dir.buf;
	}
	/* the binary itself, through any git-dirc link */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	strbuf_add(&dir, exe, slash - exe + 1);
	strbuf_addstr(&dir, DIRC_MANDIR_RELATIVE);
	return dir.buf;
}

const char *
doc_source_dir(void)
{
	return DIRC_SOURCE_DOCDIR;
}
