# dirc — build, test, install, perf, fuzz.
#
#   make                      build ./dirc (and the perf tools)
#   make test                 unit and shell tests through prove
#   make test-long            the same, plus the tests marked LONG
#   make test-hostile         only the damaged/random/killed-input scripts
#   make demo                 the main job on a generated tree
#   make demo-valgrind        the same, small, under valgrind (CI)
#   make analyze              clang --analyze and cppcheck over lib/
#   make perf / perf-quick    the performance suite against git
#   make install              the binary, the git-dirc link, man pages,
#                             completion, examples (PREFIX, DESTDIR, ...:
#                             see "Installing" below); make uninstall
#   make perf-clean           remove perf/'s cache of generated inputs
#   make SANITIZE=address,undefined test     everything sanitized
#   make fuzz / fuzz-replay / fuzz-smoke / fuzz-long   libFuzzer targets
#                             (clang; see t/fuzz/README)
#   make DEVELOPER=1          warnings are errors
#   V=1                       show full commands

all::

# Where make install puts things (DESTDIR is prepended to each, for a
# staged install).  The binary finds its man pages from its own location
# (BINDIR to MANDIR, compiled in as a relative path: builtin/doc-paths.c),
# so an installed tree can be moved, and installing with another PREFIX
# does not rebuild; SOURCE_DOCDIR is the fallback, the pages of this
# source tree.
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
DOCDIR = $(DATADIR)/doc/dirc
BASH_COMPLETION_DIR = $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR = $(DATADIR)/zsh/site-functions
SOURCE_DOCDIR = $(CURDIR)/Documentation
DESTDIR ?=
CC ?= cc
PROVE ?= prove
INSTALL ?= install
PKG_CONFIG ?= pkg-config

CFLAGS ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
# _FORTIFY_SOURCE is a default only: left out when CPPFLAGS or CFLAGS
# name it (-D_FORTIFY_SOURCE=3, or -U_FORTIFY_SOURCE to drop it, as
# dpkg-buildflags may), with FORTIFY= and in sanitized builds.
FORTIFY = -D_FORTIFY_SOURCE=2
ifneq ($(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS)),)
FORTIFY =
endif

BASIC = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-D_FILE_OFFSET_BITS=64 -Ilib -Ibuiltin
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2 -Wpointer-arith -fno-common
ifdef DEVELOPER
WARN += -Werror
endif

ifdef SANITIZE
CFLAGS += -O1 -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
BASIC += -DDIRC_SANITIZE
export DIRC_SANITIZE = $(SANITIZE)
FORTIFY =
endif
# What every compile of dirc's own code gets before CFLAGS.
ALL_CPPFLAGS = $(CPPFLAGS) $(BASIC) $(FORTIFY)

DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags zlib libcrypto 2>/dev/null)
DEP_LIBS := $(shell $(PKG_CONFIG) --libs zlib libcrypto 2>/dev/null)
ifeq ($(strip $(DEP_LIBS)),)
DEP_LIBS = -lz -lcrypto
endif
# libcrypto is linked statically when its archive is there (libssl-dev
# has it): dirc takes only SHA-1 from it, a few kilobytes, where loading
# the shared library costs every process about 3.5 ms of relocations.
# CRYPTO_STATIC= (empty) links it dynamically.
CRYPTO_STATIC ?= $(shell f=`$(CC) -print-file-name=libcrypto.a` && \
	test -f "$$f" && echo "$$f")
ifneq ($(strip $(CRYPTO_STATIC)),)
DEP_LIBS := $(filter-out -lcrypto,$(DEP_LIBS)) $(CRYPTO_STATIC)
endif
LIBS = $(DEP_LIBS) -lpthread

# dirc itself is linked statically, as a static PIE, where the C
# library's and zlib's archives are there (libc6-dev and zlib1g-dev have
# them): a script runs dirc dozens of times, and loading libc.so and
# libz.so, relocating them and copying their writable pages cost each
# process more than most commands' own work (perf/README.md, P0).
# STATIC= (empty) links dynamically; sanitized builds always do.  Only
# the dirc binary: the unit tests, the fuzz targets and the helpers are
# linked as before.  Static glibc warns at the link that getpwuid (the
# identity dirc falls back on, as git) loads the system's NSS modules at
# run time; they are, and the built-in "files" source needs none, so
# that one warning is dropped from the link's output.
ifdef SANITIZE
STATIC =
endif
ifeq ($(origin STATIC),undefined)
STATIC := $(shell for f in libc.a libz.a rcrt1.o; do \
	p=`$(CC) -print-file-name=$$f` && test -f "$$p" || exit 0; \
	done; echo -static-pie)
endif
ifneq ($(strip $(STATIC)),)
BASIC += -fPIE
endif

# On x86-64 Linux the binary's entry point is a stub in builtin/main.c
# that maps all of the code in with one system call before the C
# library starts, instead of a dozen page faults (perf/README.md,
# "Start-up").  ENTRY_STUB= (empty) leaves the C library's _start.
ifeq ($(origin ENTRY_STUB),undefined)
ENTRY_STUB := $(shell $(CC) -dumpmachine 2>/dev/null | \
	grep -q '^x86_64-.*linux' && echo -Wl,-e,dirc_start)
endif
ifneq ($(strip $(ENTRY_STUB)),)
builtin/main.o builtin/main.warnings: private BASIC += -DDIRC_ENTRY_STUB
endif

# Where lld is there (ld.lld), a static dirc is linked with it and the
# functions the small commands run (perf/hot-functions, written by
# perf/hot-order) laid out together at the start of the text; the entry
# stub then maps only them in (perf/README.md, "The code a small
# command runs").  HOT_ORDER= (empty) links with the default linker.
ifneq ($(strip $(STATIC)),)
ifneq ($(strip $(ENTRY_STUB)),)
ifeq ($(origin HOT_ORDER),undefined)
HOT_ORDER := $(shell $(CC) -fuse-ld=lld -Wl,--version 2>/dev/null | \
	grep -q LLD && echo -fuse-ld=lld \
	-Wl,--symbol-ordering-file=perf/hot-functions \
	-Wl,--no-warn-symbol-ordering)
endif
endif
endif
ifneq ($(strip $(HOT_ORDER)),)
BASIC += -ffunction-sections
builtin/main.o builtin/main.warnings: private BASIC += -DDIRC_HOT_ORDER
endif

ifndef V
QUIET_CC = @echo '   ' CC $@;
QUIET_LINK = @echo '   ' LINK $@;
QUIET_AR = @echo '   ' AR $@;
QUIET_GEN = @echo '   ' GEN $@;
endif

LIB_OBJS += lib/attr.o
LIB_OBJS += lib/bufwrite.o
LIB_OBJS += lib/cache-tree-update.o
LIB_OBJS += lib/cache-tree.o
LIB_OBJS += lib/checkout.o
LIB_OBJS += lib/color.o
LIB_OBJS += lib/commit.o
LIB_OBJS += lib/config-write.o
LIB_OBJS += lib/config.o
LIB_OBJS += lib/convert.o
LIB_OBJS += lib/date.o
LIB_OBJS += lib/diff.o
LIB_OBJS += lib/dir.o
LIB_OBJS += lib/eol.o
LIB_OBJS += lib/exclude.o
LIB_OBJS += lib/error.o
LIB_OBJS += lib/ewah.o
LIB_OBJS += lib/fileio.o
LIB_OBJS += lib/filter.o
LIB_OBJS += lib/fsck.o
LIB_OBJS += lib/hash.o
LIB_OBJS += lib/index-ext.o
LIB_OBJS += lib/index.o
LIB_OBJS += lib/inflate.o
LIB_OBJS += lib/levenshtein.o
LIB_OBJS += lib/lockfile.o
LIB_OBJS += lib/mailmap.o
LIB_OBJS += lib/mempool.o
LIB_OBJS += lib/mktree.o
LIB_OBJS += lib/modified.o
LIB_OBJS += lib/object-filter.o
LIB_OBJS += lib/object-name.o
LIB_OBJS += lib/object.o
LIB_OBJS += lib/odb-many.o
LIB_OBJS += lib/odb.o
LIB_OBJS += lib/pack.o
LIB_OBJS += lib/path.o
LIB_OBJS += lib/pathspec.o
LIB_OBJS += lib/perm.o
LIB_OBJS += lib/pkt-line.o
LIB_OBJS += lib/quote.o
LIB_OBJS += lib/ref-list.o
LIB_OBJS += lib/reflog.o
LIB_OBJS += lib/refresh.o
LIB_OBJS += lib/refs-reftable.o
LIB_OBJS += lib/refs-txn-reftable.o
LIB_OBJS += lib/refs-txn.o
LIB_OBJS += lib/refs.o
LIB_OBJS += lib/reftable-format.o
LIB_OBJS += lib/reftable.o
LIB_OBJS += lib/replace.o
LIB_OBJS += lib/repo.o
LIB_OBJS += lib/repo-settings.o
LIB_OBJS += lib/run-command.o
LIB_OBJS += lib/sparse-index.o
LIB_OBJS += lib/sparse.o
LIB_OBJS += lib/split-index.o
LIB_OBJS += lib/strbuf.o
LIB_OBJS += lib/strmap.o
LIB_OBJS += lib/trace.o
LIB_OBJS += lib/trace2.o
LIB_OBJS += lib/tree-path.o
LIB_OBJS += lib/tree-walk.o
LIB_OBJS += lib/tree.o
LIB_OBJS += lib/unpack-merge.o
LIB_OBJS += lib/unpack-sparse.o
LIB_OBJS += lib/unpack.o
LIB_OBJS += lib/untracked.o
LIB_OBJS += lib/untracked-cache.o
LIB_OBJS += lib/update.o
LIB_OBJS += lib/util.o
LIB_OBJS += lib/wildmatch.o
LIB_OBJS += lib/workers.o
LIB_OBJS += lib/worktree.o

BUILTIN_OBJS += builtin/cat-file.o
BUILTIN_OBJS += builtin/check-attr.o
BUILTIN_OBJS += builtin/check-ignore.o
BUILTIN_OBJS += builtin/checkout-index.o
BUILTIN_OBJS += builtin/commit-tree.o
BUILTIN_OBJS += builtin/count-objects.o
BUILTIN_OBJS += builtin/diff-common.o
BUILTIN_OBJS += builtin/diff-files.o
BUILTIN_OBJS += builtin/diff-index.o
BUILTIN_OBJS += builtin/diff-tree.o
BUILTIN_OBJS += builtin/doc-paths.o
BUILTIN_OBJS += builtin/hash-object.o
BUILTIN_OBJS += builtin/help.o
BUILTIN_OBJS += builtin/init.o
BUILTIN_OBJS += builtin/ls-files.o
BUILTIN_OBJS += builtin/ls-tree.o
BUILTIN_OBJS += builtin/main.o
BUILTIN_OBJS += builtin/merge-index.o
BUILTIN_OBJS += builtin/mktree.o
BUILTIN_OBJS += builtin/parse-options.o
BUILTIN_OBJS += builtin/progress.o
BUILTIN_OBJS += builtin/read-tree.o
BUILTIN_OBJS += builtin/rev-parse.o
BUILTIN_OBJS += builtin/rev-parse-parseopt.o
BUILTIN_OBJS += builtin/symbolic-ref.o
BUILTIN_OBJS += builtin/test-reftable.o
BUILTIN_OBJS += builtin/test-tool.o
BUILTIN_OBJS += builtin/update-cache.o
BUILTIN_OBJS += builtin/update-ref.o
BUILTIN_OBJS += builtin/usage.o
BUILTIN_OBJS += builtin/verify-pack.o
BUILTIN_OBJS += builtin/write-tree.o

UNIT_PROGS += t/unit/t-color
UNIT_PROGS += t/unit/t-config
UNIT_PROGS += t/unit/t-config-write
UNIT_PROGS += t/unit/t-error
UNIT_PROGS += t/unit/t-ewah
UNIT_PROGS += t/unit/t-hash
UNIT_PROGS += t/unit/t-inflate
UNIT_PROGS += t/unit/t-levenshtein
UNIT_PROGS += t/unit/t-mailmap
UNIT_PROGS += t/unit/t-mempool
UNIT_PROGS += t/unit/t-path
UNIT_PROGS += t/unit/t-quote
UNIT_PROGS += t/unit/t-read
UNIT_PROGS += t/unit/t-reftable
UNIT_PROGS += t/unit/t-strbuf
UNIT_PROGS += t/unit/t-wildmatch

FUZZ_TARGETS += cache-tree
FUZZ_TARGETS += commit
FUZZ_TARGETS += config
FUZZ_TARGETS += config-write
FUZZ_TARGETS += delta
FUZZ_TARGETS += exclude
FUZZ_TARGETS += index
FUZZ_TARGETS += inflate
FUZZ_TARGETS += loose
FUZZ_TARGETS += mktree
FUZZ_TARGETS += name
FUZZ_TARGETS += pack
FUZZ_TARGETS += pack-idx
FUZZ_TARGETS += path
FUZZ_TARGETS += pathspec
FUZZ_TARGETS += reftable
FUZZ_TARGETS += sparse
FUZZ_TARGETS += split-index
FUZZ_TARGETS += tree
FUZZ_TARGETS += untracked-cache

PERF_PROGS += perf/evict
PERF_PROGS += perf/gen-tree
PERF_PROGS += perf/runcmd
PERF_PROGS += perf/probe

# Helpers for the test scripts: self-contained C programs (libc only).
TEST_PROGS += t/helper/snapshot

LIB = lib/libdirc.a
OBJS = $(LIB_OBJS) $(BUILTIN_OBJS) $(UNIT_PROGS:=.o) t/unit/tap.o

all:: dirc $(PERF_PROGS) $(TEST_PROGS)

# Rebuild everything when the flags change.
DIRC-CFLAGS: FORCE
	@flags='$(CC) $(ALL_CPPFLAGS) $(WARN) $(CFLAGS) $(DEP_CFLAGS) $(LDFLAGS) $(LIBS) $(STATIC) $(ENTRY_STUB) $(HOT_ORDER)'; \
	if test x"$$flags" != x"`cat DIRC-CFLAGS 2>/dev/null`"; then \
		echo "$$flags" >DIRC-CFLAGS; \
	fi

# The paths builtin/doc-paths.o holds, apart: a change rebuilds only it.
# MANDIR relative to BINDIR: the same for every PREFIX in the usual
# layout, so that make install PREFIX=... reuses the binary.
MANDIR_RELATIVE = $(shell realpath -m --relative-to='$(BINDIR)' '$(MANDIR)' 2>/dev/null || echo '$(MANDIR)')
DOC_PATHS = -DDIRC_MANDIR_RELATIVE='"$(MANDIR_RELATIVE)"' \
	-DDIRC_SOURCE_DOCDIR='"$(SOURCE_DOCDIR)"'
DIRC-PATHS: FORCE
	@paths='$(DOC_PATHS)'; \
	if test x"$$paths" != x"`cat DIRC-PATHS 2>/dev/null`"; then \
		echo "$$paths" >DIRC-PATHS; \
	fi
builtin/doc-paths.o: DIRC-PATHS
builtin/doc-paths.o: EXTRA_CPPFLAGS = $(DOC_PATHS)

%.o: %.c DIRC-CFLAGS
	$(QUIET_CC)$(CC) $(ALL_CPPFLAGS) $(EXTRA_CPPFLAGS) $(WARN) $(CFLAGS) $(DEP_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

ifneq ($(strip $(STATIC)),)
dirc: $(BUILTIN_OBJS) $(LIB) $(if $(strip $(HOT_ORDER)),perf/hot-functions)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) $(STATIC) $(ENTRY_STUB) \
		$(HOT_ORDER) -o $@ \
		$(BUILTIN_OBJS) $(LIB) $(LIBS) 2>$@.link-out; \
	st=$$?; awk '/: in function /{ held = $$0; next } \
		/warning: Using .getpwuid. in statically linked/{ held = ""; next } \
		{ if (held != "") print held; held = ""; print } \
		END { if (held != "") print held }' $@.link-out >&2; \
	rm -f $@.link-out; exit $$st
else
dirc: $(BUILTIN_OBJS) $(LIB)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) $(ENTRY_STUB) -o $@ \
		$(BUILTIN_OBJS) $(LIB) $(LIBS)
endif

# The same, linked dynamically: valgrind (demo-valgrind) replaces malloc
# and checks the heap only in a dynamically linked program.
dirc-dynamic: $(BUILTIN_OBJS) $(LIB)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) $(ENTRY_STUB) $(HOT_ORDER) -o $@ \
		$(BUILTIN_OBJS) $(LIB) $(LIBS)

t/unit/%: t/unit/%.o t/unit/tap.o $(LIB)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< t/unit/tap.o $(LIB) $(LIBS)

# The perf tools are self-contained C programs (libc only); the probe of
# the floors also hashes and deflates, with dirc's libraries.
perf/%: perf/%.c DIRC-CFLAGS
	$(QUIET_CC)$(CC) $(ALL_CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

perf/probe: perf/probe.c DIRC-CFLAGS
	$(QUIET_CC)$(CC) $(ALL_CPPFLAGS) $(WARN) $(CFLAGS) $(DEP_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)

t/helper/%: t/helper/%.c DIRC-CFLAGS
	$(QUIET_CC)$(CC) $(ALL_CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

-include $(OBJS:.o=.d)

# builtin/help.c: what "dirc version --build-options" reports (where
# the manual is: builtin/doc-paths.c, DIRC-PATHS).  DIRC-HELP-DEFINES
# rebuilds it when they change.
HELP_DEFINES = -DDIRC_LINK='"$(if $(strip $(STATIC)),static,dynamic)"' \
	-DDIRC_CRYPTO_LINK='"$(if $(strip $(CRYPTO_STATIC)),static,dynamic)"' \
	-DDIRC_SANITIZERS='"$(SANITIZE)"' \
	-DDIRC_HOST_CPU='"$(shell uname -m 2>/dev/null)"'
DIRC-HELP-DEFINES: FORCE
	@flags='$(HELP_DEFINES)'; \
	if test x"$$flags" != x"`cat DIRC-HELP-DEFINES 2>/dev/null`"; then \
		echo "$$flags" >DIRC-HELP-DEFINES; \
	fi
builtin/help.o: DIRC-HELP-DEFINES
builtin/help.o builtin/help.warnings: private BASIC += $(HELP_DEFINES)

# T: the scripts to run (globs, from t/), e.g. make test T='t3010*'.
# TESTS_HOSTILE: the scripts that feed dirc damaged indexes, objects,
# packs and paths, and random --stdin input, for a quick sanitized run
# (make test-hostile SANITIZE=address,undefined); make test SANITIZE=...
# runs every script.
T = t[0-9]*.sh
TESTS_HOSTILE = t1002* t1008* t1010* t2003* t2009* t2016* t2017* t3008* \
	t3014* t3053* t3056* t3063* t3064* t3090* t4001* t6000* t6001* t6002* \
	t6003*
# TESTS_FIRST: the slowest scripts, slowest first; prove -j2 starts them
# before the others (in the order given), so that the run does not end
# with one core idle while the other finishes a long script.  Order only:
# every script T names runs, once.
TESTS_FIRST = t3041-read-tree-3way.sh t5000-crash-kill.sh \
	t3021-rev-parse-options.sh t3037-checkout-conversions.sh \
	t2015-path-resolve.sh t0008-repo-discovery-matrix.sh \
	t3001-cache-tree-random.sh t3013-update-ref-random.sh \
	t3083-examples-merge-random.sh t3080-examples-merge.sh \
	t3042-read-tree-merge-df.sh t3040-read-tree-2way.sh \
	t3054-ls-tree-random.sh t0007-repo-bare-and-linked.sh \
	t4000-pack-read.sh t2004-ls-files.sh t4001-pack-bad-input.sh \
	t0005-init-shared.sh t3024-rev-parse-random.sh \
	t3036-read-tree-random.sh t5001-concurrency.sh \
	t3051-ls-tree-pathspec.sh t2011-ls-files-pathspec-random.sh \
	t3065-diff-random.sh t3060-diff-tree.sh t3102-ignore-random.sh \
	t3092-update-ref-symref.sh t1011-hash-object-fsck.sh
T_FILES = $(notdir $(wildcard $(addprefix t/,$(T))))
T_ORDERED = $(filter $(T_FILES),$(TESTS_FIRST)) \
	$(filter-out $(TESTS_FIRST),$(T_FILES))

test: all $(UNIT_PROGS)
	cd t && $(PROVE) $(PROVE_OPTS) -j2 $(UNIT_PROGS:t/%=%) $(T_ORDERED)

test-hostile: all $(UNIT_PROGS)
	cd t && $(PROVE) $(PROVE_OPTS) -j2 $(UNIT_PROGS:t/%=%) $(TESTS_HOSTILE)

# Every script again in SHA-256 repositories (DIRC_TEST_DEFAULT_HASH,
# git's GIT_TEST_DEFAULT_HASH): dirc and git both make them so.
test-sha256: all $(UNIT_PROGS)
	cd t && DIRC_TEST_DEFAULT_HASH=sha256 $(PROVE) $(PROVE_OPTS) -j2 $(T_ORDERED)

# TESTS_SHA256_CI: CI's SHA-256 pass, a quarter of test-sha256's time,
# so that CI stays under twenty minutes.  The scripts whose code under
# test reads, writes, parses or prints ids in a way that depends on
# their length or algorithm: hashing (t1000), the object store, loose
# and packed (t1001-t1007, t4000, t4001, t4003, t6001), the index's
# entries and extensions (t2000, t2003, t2005, t2007, t6000), the
# split index, EOIE and IEOT, the sparse index (t2016, t2017, t3133), trees
# and their parsing (t3000, t3052, t3053, t3055), commits (t3003),
# name resolution and its languages (t3006, t3020, t3022, t3023,
# t3025), update-ref's --stdin (t3010), read-tree's merges (t3035,
# t3040), the diff family's raw output and --stdin (t3061-t3064), and
# init's object formats (t0001).  Left out: scripts in which no id is
# written or compared (discovery, permissions, locks, ref names, ignore
# and attribute rules, crash loops), and those whose ids go through the
# code above (ls-files and ls-tree listings, the random siblings of
# fixed-case scripts, content conversion, sparse checkout, checkout's
# file writing, merge-index, the examples).  make test-sha256 runs them
# all: run it before resolving anything that touches ids or formats.
# Slowest first, as TESTS_FIRST, and in this order.
TESTS_SHA256_CI = t3010-update-ref-stdin.sh t6000-catalogue-index.sh \
	t3023-rev-parse-syntax.sh t4001-pack-bad-input.sh \
	t3022-rev-parse-reflog.sh t1004-cat-file-batch.sh \
	t3003-commit-tree.sh t3025-rev-parse-replace.sh \
	t3063-diff-tree-stdin.sh t4000-pack-read.sh t3006-rev-parse.sh \
	t6001-catalogue-objects.sh t2005-index-versions-extensions.sh \
	t2003-index-bad-input.sh t2001-update-cache-options.sh \
	t3000-write-tree.sh t3064-diff-bad-input.sh t3040-read-tree-2way.sh \
	t3020-rev-parse-disambiguation.sh t3052-ls-tree-format.sh \
	t4003-count-objects.sh t3061-diff-index.sh t1000-hash-object.sh \
	t3062-diff-files.sh t1002-odb-bad-input.sh t3055-mktree.sh \
	t3053-ls-tree-bad-trees.sh t2000-update-cache-interop.sh \
	t1006-cat-file-replace.sh t2007-update-cache-again-unresolve.sh \
	t1007-cat-file-unknown-type.sh t3035-read-tree-reset.sh t0001-init.sh \
	t1001-cat-file.sh t3007-porcelain-roundtrip.sh t2016-update-cache-split-index.sh \
	t2017-index-eoie-ieot.sh t3133-sparse-index.sh
TESTS_SHA256_CI_MISSING = $(filter-out $(notdir $(wildcard t/t*.sh)),$(TESTS_SHA256_CI))
test-sha256-ci: all
	@if test -n "$(TESTS_SHA256_CI_MISSING)"; then \
		echo "TESTS_SHA256_CI names no such script: $(TESTS_SHA256_CI_MISSING)" >&2; \
		exit 1; fi
	cd t && DIRC_TEST_DEFAULT_HASH=sha256 $(PROVE) $(PROVE_OPTS) -j2 \
		$(TESTS_SHA256_CI)

# Every script again, with the LONG prerequisite set (DIRC_TEST_LONG=1):
# huge files, huge indexes, crash loops.  Minutes, not seconds.
test-long: all $(UNIT_PROGS)
	cd t && DIRC_TEST_LONG=1 $(PROVE) $(PROVE_OPTS) -j2 $(UNIT_PROGS:t/%=%) $(T_ORDERED)

unit: $(UNIT_PROGS)
	cd t && $(PROVE) $(UNIT_PROGS:t/%=%)

prove: all
	cd t && $(PROVE) $(PROVE_OPTS) t[0-9]*.sh

# Each header must compile on its own.
# Every C file through the compiler's front end with the warnings (no
# code generated): make CC=clang DEVELOPER=1 check-warnings is CI's clang
# check, in a fifth of a clang build's time, beside the gcc build that
# make test uses.
WARN_SRCS = $(LIB_OBJS:.o=.c) $(BUILTIN_OBJS:.o=.c) $(UNIT_PROGS:=.c) \
	t/unit/tap.c $(PERF_PROGS:=.c) $(TEST_PROGS:=.c)
check-warnings: $(WARN_SRCS:.c=.warnings)
%.warnings: %.c FORCE
	@$(CC) $(ALL_CPPFLAGS) $(EXTRA_CPPFLAGS) $(WARN) $(CFLAGS) $(DEP_CFLAGS) -fsyntax-only $<
builtin/doc-paths.warnings: EXTRA_CPPFLAGS = $(DOC_PATHS)

check-headers:
	@for h in lib/*.h builtin/*.h; do \
		echo "#include \"$$h\"" | $(CC) $(CPPFLAGS) $(BASIC) $(WARN) $(DEP_CFLAGS) \
			-I. -x c -fsyntax-only - || exit 1; \
	done

# libFuzzer targets: clang, ASan and UBSan, in their own object
# directory so the normal build's objects are left alone.
FUZZ_CC = clang
FUZZ_DIR = t/fuzz/build
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_BASIC = $(CPPFLAGS) $(BASIC) -DDIRC_SANITIZE
FUZZ_LIB_OBJS = $(addprefix $(FUZZ_DIR)/,$(LIB_OBJS))
FUZZ_PROGS = $(addprefix $(FUZZ_DIR)/fuzz-,$(FUZZ_TARGETS))

$(FUZZ_DIR)/FUZZ-CFLAGS: FORCE
	@mkdir -p $(FUZZ_DIR)/lib; \
	flags='$(FUZZ_CC) $(FUZZ_BASIC) $(WARN) $(FUZZ_CFLAGS) $(DEP_CFLAGS) $(LIBS)'; \
	if test x"$$flags" != x"`cat $@ 2>/dev/null`"; then \
		echo "$$flags" >$@; \
	fi

$(FUZZ_DIR)/lib/%.o: lib/%.c $(FUZZ_DIR)/FUZZ-CFLAGS
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_BASIC) $(WARN) $(FUZZ_CFLAGS) \
		-fsanitize=fuzzer-no-link $(DEP_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/fuzz-%: t/fuzz/fuzz-%.c $(FUZZ_LIB_OBJS) $(FUZZ_DIR)/FUZZ-CFLAGS
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_BASIC) $(WARN) $(FUZZ_CFLAGS) \
		-fsanitize=fuzzer $(DEP_CFLAGS) -MMD -MP -o $@ $< \
		$(FUZZ_LIB_OBJS) $(LIBS)

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_PROGS:=.d)

fuzz: $(FUZZ_LIB_OBJS) $(FUZZ_PROGS)

# Every committed input once (deterministic).
fuzz-replay: fuzz
	@t/fuzz/run replay $(FUZZ_TARGETS)

# The replay, then FUZZ_TIME seconds of fuzzing per target.
FUZZ_TIME = 5
fuzz-smoke: fuzz-replay
	@FUZZ_TIME=$(FUZZ_TIME) t/fuzz/run smoke $(FUZZ_TARGETS)

# FUZZ_RUNS executions per target, with the counts at the end.
FUZZ_RUNS = 10000000
fuzz-long: fuzz
	@FUZZ_RUNS=$(FUZZ_RUNS) t/fuzz/run long $(FUZZ_TARGETS)

# The demo works in a new directory under DIRC_SCRATCH (default
# ${TMPDIR:-/tmp}/dirc-scratch-<uid>) and removes it at the end.
demo: all
	./Documentation/demo.sh

# Static analysis of lib/: clang --analyze (one file per job) and
# cppcheck; any report fails.  Reports are fixed, or justified in a
# comment at the line (cppcheck-suppress) — see lib/error.h for how the
# analyzer is told that error_set() and friends return negative.
# ANALYZE_SHALLOW=1 (CI's time): the analyzer's shallow mode, less
# inlining across functions, a third of the time; the deep run is one of
# the checks before an issue is resolved (t/README).
ANALYZE_FLAGS = $(CPPFLAGS) $(BASIC) -Ilib -std=c11
ifdef ANALYZE_SHALLOW
ANALYZE_FLAGS += -Xanalyzer -analyzer-config -Xanalyzer mode=shallow
endif
analyze: $(LIB_OBJS:.o=.analyze) cppcheck
lib/%.analyze: FORCE
	@out=$$(clang --analyze -Xanalyzer -analyzer-output=text \
		$(ANALYZE_FLAGS) lib/$*.c -o /dev/null 2>&1); \
	if test -n "$$out"; then echo "$$out"; exit 1; fi
cppcheck:
	cppcheck --enable=warning,portability,performance --std=c11 \
		--inline-suppr -q --error-exitcode=1 \
		-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Ilib lib/*.c

# The demo at a small scale under valgrind (CI): any memory error or
# leak fails it.
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect
demo-valgrind: all dirc-dynamic
	DEMO_SCALE=$${DEMO_SCALE:-0.005} DIRC_WRAP="$(VALGRIND)" \
		DIRC_BIN=$(CURDIR)/dirc-dynamic ./Documentation/demo.sh

# The full suite publishes its table and plot in perf/README.md and
# perf/sweeps.svg; the quick one only prints.
perf: all
	perf/run --update-readme

perf-quick: all
	perf/run --quick

# perf/run's scratch: its cache of generated inputs (made once, kept
# between runs), scratch repositories and raw results, in PERF_SCRATCH
# (default $DIRC_SCRATCH/perf, outside the checkout).  Refused while a
# run holds it.
perf-clean:
	@s='$(DIRC_SCRATCH)'; d='$(PERF_SCRATCH)'; \
	test -n "$$s" || s="$${TMPDIR:-/tmp}/dirc-scratch-`id -u`"; \
	test -n "$$d" || d="$$s/perf"; \
	if test -d "$$d/.lock"; then \
		echo "perf-clean: a perf/run is using $$d ($$d/.lock)" >&2; \
		exit 1; \
	fi; \
	echo "rm -rf $$d"; rm -rf "$$d"; \
	rmdir "$$s" 2>/dev/null || :

# Installing.  make install [PREFIX=/usr/local] [DESTDIR=/staging]:
#   $(BINDIR)/dirc, and $(BINDIR)/git-dirc, a link to it, so that
#     "git dirc <command>" runs it (git runs git-<name> from PATH);
#   $(MANDIR)/man1/dirc*.1, $(MANDIR)/man7/dirc*.7;
#   $(BASH_COMPLETION_DIR)/dirc and git-dirc (the name git's completion
#     loads for "git dirc"), $(ZSH_COMPLETION_DIR)/_dirc: those of
#     Documentation/completion/ that exist;
#   $(DOCDIR)/examples/: the scripts the tutorial copies.
# Only the binary is built for it (not the perf tools or test helpers),
# and nothing is rebuilt when it is up to date.  make uninstall removes
# exactly these files, and $(DOCDIR) if it is left empty.
INSTALL_MAN1 = $(notdir $(wildcard Documentation/*.1))
INSTALL_MAN7 = $(notdir $(wildcard Documentation/*.7))
INSTALL_EXAMPLES = $(notdir $(wildcard Documentation/examples/*))
BASH_COMPLETION = Documentation/completion/dirc.bash
ZSH_COMPLETION = Documentation/completion/_dirc

install: dirc
	$(INSTALL) -d -m 755 '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' \
		'$(DESTDIR)$(MANDIR)/man7' '$(DESTDIR)$(DOCDIR)/examples'
	$(INSTALL) -m 755 dirc '$(DESTDIR)$(BINDIR)/dirc'
	rm -f '$(DESTDIR)$(BINDIR)/git-dirc'
	ln -s dirc '$(DESTDIR)$(BINDIR)/git-dirc'
	$(INSTALL) -m 644 $(addprefix Documentation/,$(INSTALL_MAN1)) \
		'$(DESTDIR)$(MANDIR)/man1/'
	$(INSTALL) -m 644 $(addprefix Documentation/,$(INSTALL_MAN7)) \
		'$(DESTDIR)$(MANDIR)/man7/'
	$(INSTALL) -m 755 $(addprefix Documentation/examples/,$(INSTALL_EXAMPLES)) \
		'$(DESTDIR)$(DOCDIR)/examples/'
	@if test -f $(BASH_COMPLETION); then \
		echo $(INSTALL) -d -m 755 '$(DESTDIR)$(BASH_COMPLETION_DIR)' && \
		$(INSTALL) -d -m 755 '$(DESTDIR)$(BASH_COMPLETION_DIR)' && \
		echo $(INSTALL) -m 644 $(BASH_COMPLETION) '$(DESTDIR)$(BASH_COMPLETION_DIR)/dirc' && \
		$(INSTALL) -m 644 $(BASH_COMPLETION) '$(DESTDIR)$(BASH_COMPLETION_DIR)/dirc' && \
		rm -f '$(DESTDIR)$(BASH_COMPLETION_DIR)/git-dirc' && \
		echo ln -s dirc '$(DESTDIR)$(BASH_COMPLETION_DIR)/git-dirc' && \
		ln -s dirc '$(DESTDIR)$(BASH_COMPLETION_DIR)/git-dirc'; \
	else \
		echo "install: no $(BASH_COMPLETION): bash completion not installed"; \
	fi
	@if test -f $(ZSH_COMPLETION); then \
		echo $(INSTALL) -d -m 755 '$(DESTDIR)$(ZSH_COMPLETION_DIR)' && \
		$(INSTALL) -d -m 755 '$(DESTDIR)$(ZSH_COMPLETION_DIR)' && \
		echo $(INSTALL) -m 644 $(ZSH_COMPLETION) '$(DESTDIR)$(ZSH_COMPLETION_DIR)/_dirc' && \
		$(INSTALL) -m 644 $(ZSH_COMPLETION) '$(DESTDIR)$(ZSH_COMPLETION_DIR)/_dirc'; \
	else \
		echo "install: no $(ZSH_COMPLETION): zsh completion not installed"; \
	fi

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/dirc' '$(DESTDIR)$(BINDIR)/git-dirc'
	rm -f $(addprefix '$(DESTDIR)$(MANDIR)/man1/,$(addsuffix ',$(INSTALL_MAN1)))
	rm -f $(addprefix '$(DESTDIR)$(MANDIR)/man7/,$(addsuffix ',$(INSTALL_MAN7)))
	rm -f $(addprefix '$(DESTDIR)$(DOCDIR)/examples/,$(addsuffix ',$(INSTALL_EXAMPLES)))
	rm -f '$(DESTDIR)$(BASH_COMPLETION_DIR)/dirc' \
		'$(DESTDIR)$(BASH_COMPLETION_DIR)/git-dirc' \
		'$(DESTDIR)$(ZSH_COMPLETION_DIR)/_dirc'
	@rmdir '$(DESTDIR)$(DOCDIR)/examples' '$(DESTDIR)$(DOCDIR)' 2>/dev/null || :

clean:
	rm -f dirc dirc-dynamic $(LIB) $(OBJS) $(OBJS:.o=.d) $(UNIT_PROGS) $(PERF_PROGS) $(TEST_PROGS) DIRC-CFLAGS DIRC-PATHS DIRC-HELP-DEFINES
	rm -rf t/trash\ directory.* t/trash\ home.* t/test-results $(FUZZ_DIR)
	@# what make demo left in the checkout before it used DIRC_SCRATCH
	rm -rf perf/scratch/demo
	@if test -d perf/scratch; then \
		echo "clean: perf/scratch (perf/run's old scratch) left alone:" \
			"rm -rf perf/scratch to remove it"; \
	fi

.PHONY: all test test-hostile test-sha256 test-sha256-ci test-long unit prove check-headers check-warnings demo demo-valgrind analyze cppcheck perf perf-quick perf-clean install uninstall clean FORCE
.PHONY: fuzz fuzz-replay fuzz-smoke fuzz-long
