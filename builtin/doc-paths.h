/*
 * doc-paths: where this binary's manual is.  make install puts the man
 * pages in MANDIR; the binary finds them from its own location
 * (BINDIR), through MANDIR's path relative to BINDIR compiled in, so
 * that installing elsewhere (PREFIX, DESTDIR) needs no rebuild.  The
 * source tree's Documentation/ it was built from is the fallback.
 */
#ifndef DIRC_DOC_PATHS_H
#define DIRC_DOC_PATHS_H

/*
 * The installed man directory (holding man1/ and man7/): MANDIR as seen
 * from the running binary, e.g. "/usr/local/bin/../share/man"; NULL if
 * the binary's location cannot be read.  Whether it exists is the
 * caller's question.  Computed once; static storage.
 */
const char *doc_installed_mandir(void);

/* The Documentation/ directory of the source tree built from. */
const char *doc_source_dir(void);

#endif
