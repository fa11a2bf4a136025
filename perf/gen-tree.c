/*
 * gen-tree: deterministic, linux-shaped trees for the perf suite.
 *
 * This file owns the shape model of a linux-sized tree (directories and
 * entries per depth, the file-size histogram, the extension mix, name
 * lengths, symlinks, executables and empty files, all taken from
 * linux-shape.md), the synthetic C-like text that fills the files, and the
 * modes that write them:
 *
 *   tree       gen-tree [--scale F] [--size-scale F] [--seed N] [--list] <dir>
 *   files      gen-tree --files N --size S [--seed N] [--list] <dir>
 *   one file   gen-tree --one-file SIZE [--seed N] <path>
 *   patch      gen-tree --patch K [--seed N] <dir>
 *
 * Invariants:
 *
 * - The output depends only on the arguments.  Every random choice comes
 *   from our own xoshiro256** generator seeded through splitmix64, and the
 *   shape arithmetic is integer-only (no floating point, no libm), so two
 *   machines write byte-identical trees: paths, contents, modes (the umask
 *   is forced to 022) and symlink targets.  No expression draws twice from
 *   a generator: C leaves the order of evaluation of arguments and operands
 *   unspecified, and gcc and clang do differ.
 * - A file's content depends only on the seed and its content id, never on
 *   the order in which files are written.
 * - Every non-empty file is unique: its first bytes spell its content id in
 *   base 36, least significant digit first (see write_content()).
 * - Every mtime (files, symlinks, directories) is 2020-01-01 00:00:00 UTC;
 *   patch K stamps what it touches with that time plus K hours.  Nothing is
 *   ever "racy" for an index written after generation.
 * - Symlinks are relative and resolve.  A directory symlink points at a
 *   leaf directory that holds no directory symlink and is not its own
 *   directory, so a walk that follows links cannot loop.
 * - No directory is empty (git could not record it).
 *
 * Text is made fast by precomputing a pool of about 8 MiB of C-like source
 * (modules with their own identifiers, includes, structs, functions and
 * comments) and stitching every file from runs of that pool taken at
 * random offsets, separated by freshly generated statements, behind a
 * unique first line.  Copying from the pool runs at memcpy speed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define EPOCH_2020 1577836800	/* 2020-01-01 00:00:00 UTC: every mtime */
#define PATCH_STEP 3600		/* patch K stamps EPOCH_2020 + K hours */
#define POOL_BYTES (8u << 20)	/* the text pool: 23 ms to generate */
#define REUSE_PERCENT 59	/* zlib -1 of the tree: 58: 4.17, 61: 4.29 */
#define WRITE_BUF (1u << 20)	/* files are written in pieces this big */
#define ID_DIGITS 10		/* base-36 digits of the content id */
#define HEADER_MIN 14		/* opener, ID_DIGITS, newline: id survives */
#define PATCH_UID_BASE 0x10000000000ULL	/* content ids of patch files */
#define DIR_FANOUT 1000		/* --files: files per directory */

/* Generator streams: one per purpose, so choices never interfere. */
enum stream {
	STREAM_PLAN = 1,
	STREAM_POOL = 2,
	STREAM_FILE = 3,
	STREAM_PATCH = 4,
};

static const char *progname = "gen-tree";
static int verbose;
/* --size-scale, in millionths: every non-empty file's size scaled */
static uint64_t size_ppm = 1000000;

static _Noreturn void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static _Noreturn void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

static void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

/*
 * Random numbers: xoshiro256** seeded through splitmix64.  A generator is
 * seeded from (seed, stream, id) so that each file, the plan and the pool
 * draw from independent sequences.
 */
struct rng {
	uint64_t s[4];
};

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
rng_init(struct rng *r, uint64_t seed, enum stream stream, uint64_t id)
{
	uint64_t x = seed;
	uint64_t k = splitmix64(&x);

	x = k ^ ((uint64_t)stream << 56) ^ (id * 0xd1342543de82ef95ULL);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t
rotl64(uint64_t v, int k)
{
	return (v << k) | (v >> (64 - k));
}

static uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return out;
}

/* Uniform in [0, n); n > 0.  The modulo bias is below n / 2^64. */
static uint64_t
rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

/* Uniform in [lo, hi], inclusive. */
static uint64_t
rng_range(struct rng *r, uint64_t lo, uint64_t hi)
{
	return lo + rng_below(r, hi - lo + 1);
}

/* True with probability 1 / n. */
static int
rng_one_in(struct rng *r, uint64_t n)
{
	return rng_below(r, n) == 0;
}

static void
shuffle_u64(struct rng *r, uint64_t *v, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(r, i);
		uint64_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void
shuffle_u32(struct rng *r, uint32_t *v, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(r, i);
		uint32_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* A growable byte string. */
struct sb {
	char *buf;	/* owned; not NUL-terminated */
	size_t len;
	size_t cap;
};

static void
sb_grow(struct sb *sb, size_t more)
{
	if (sb->len + more <= sb->cap)
		return;
	while (sb->len + more > sb->cap)
		sb->cap = sb->cap ? sb->cap * 2 : 256;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

static void
sb_add(struct sb *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
}

static void
sb_str(struct sb *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

static void
sb_ch(struct sb *sb, char c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
}

static void
sb_tabs(struct sb *sb, int n)
{
	while (n-- > 0)
		sb_ch(sb, '\t');
}

static void
sb_dec(struct sb *sb, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sb_grow(sb, (size_t)n);
	while (n)
		sb->buf[sb->len++] = tmp[--n];
}

static void
sb_hex(struct sb *sb, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";

	sb_str(sb, "0x");
	sb_grow(sb, (size_t)width);
	for (int i = width - 1; i >= 0; i--)
		sb->buf[sb->len++] = digits[(v >> (4 * i)) & 0xf];
}

/*
 * The vocabulary.  Identifiers, file and directory names are built from
 * these fragments; comments are built from the prose words.
 */
static const char *const words[] = {
	"addr", "adc", "alloc", "async", "atomic", "attr", "audio", "base",
	"begin", "bio", "bit", "bits", "block", "buf", "buffer", "bus",
	"cache", "channel", "check", "chip", "class", "clear", "clk", "cmd",
	"cnt", "codec", "commit", "config", "core", "count", "cpu", "crtc",
	"ctrl", "ctx", "data", "debug", "delay", "desc", "dev", "device",
	"disable", "disk", "dma", "drm", "driver", "dst", "enable", "end",
	"entry", "err", "error", "event", "exit", "fault", "fb", "field",
	"file", "first", "flags", "flush", "frame", "free", "freq", "get",
	"gpio", "group", "hash", "head", "host", "hw", "i2c", "id", "idx",
	"index", "info", "init", "inode", "irq", "kernel", "key", "kobj",
	"last", "len", "limit", "link", "list", "lock", "mac", "map", "mask",
	"max", "mem", "min", "mode", "module", "mount", "mutex", "name",
	"net", "next", "node", "nr", "num", "offset", "old", "ops", "page",
	"param", "part", "pci", "percpu", "phy", "pin", "pixel", "plane",
	"pm", "pool", "port", "pos", "power", "prev", "priv", "probe", "proc",
	"ptr", "pwm", "queue", "rate", "rcu", "read", "ref", "reg", "regs",
	"remove", "req", "res", "reset", "resp", "resume", "retry", "ring",
	"rx", "sector", "set", "shift", "size", "skb", "slab", "smp", "sock",
	"spi", "spin", "src", "start", "stat", "state", "status", "stop",
	"stream", "suspend", "sync", "sys", "table", "tail", "task", "timer",
	"timeout", "tlb", "trace", "tx", "type", "update", "usb", "user",
	"val", "value", "verify", "video", "vm", "wait", "width", "work",
	"write", "zone",
};

static const char *const prose[] = {
	"the", "a", "of", "to", "is", "and", "in", "for", "this", "that",
	"we", "it", "be", "not", "if", "on", "with", "when", "must", "can",
	"will", "should", "may", "all", "any", "from", "by", "are", "as",
	"hardware", "driver", "device", "buffer", "register", "interrupt",
	"controller", "firmware", "memory", "queue", "request", "value",
	"before", "after", "until", "only", "already", "still", "again",
	"enable", "disable", "clear", "reset", "wait", "read", "write",
	"set", "check", "handle", "update", "release", "allocate", "free",
	"lock", "held", "caller", "context", "state", "mode", "error",
	"timeout", "pending", "complete", "valid", "invalid", "first",
	"next", "last", "entry", "table", "list", "page", "bits", "mask",
	"power", "clock", "link", "port", "channel", "frame", "packet",
	"bus", "host", "slave", "master", "used", "unused", "otherwise",
	"returns", "zero", "success", "negative", "errno", "failure",
	"note", "also", "there", "no", "need", "so", "here", "because",
};

static const char *const ctypes[] = {
	"int", "unsigned int", "u8", "u16", "u32", "u64", "unsigned long",
	"size_t", "bool", "long", "s32", "dma_addr_t", "loff_t", "u32",
	"int", "int",
};

static const char *const people[] = {
	"Ada Park", "Ben Ortiz", "Chen Wei", "Dana Holt", "Eli Novak",
	"Femi Ade", "Gita Rao", "Hugo Lind", "Ines Roca", "Jan Smit",
	"Kai Moreau", "Lena Berg", "Marek Nowak", "Nina Sato", "Omar Haddad",
	"Pia Kunz",
};

static const char *
pick(struct rng *r, const char *const *list, size_t n)
{
	return list[rng_below(r, n)];
}

#define WORD(r) pick(r, words, ARRAY_SIZE(words))
#define PROSE(r) pick(r, prose, ARRAY_SIZE(prose))
#define CTYPE(r) pick(r, ctypes, ARRAY_SIZE(ctypes))

#define VOCAB_MAX 24

/* The identifiers of one synthetic module (one "source file" of the pool). */
struct vocab {
	char prefix[16];
	char func[VOCAB_MAX][64];
	char macro[VOCAB_MAX][64];
	char type[VOCAB_MAX][48];
	char field[VOCAB_MAX][32];
	char var[VOCAB_MAX][24];
	int nfunc, nmacro, ntype, nfield, nvar;
};

/* Join 1..maxw fragments with '_' after a prefix into out[size]. */
static void
make_ident(char *out, size_t size, struct rng *r, const char *prefix,
	   int maxw)
{
	int n = (int)rng_range(r, 1, (uint64_t)maxw);
	size_t len = 0;

	out[0] = '\0';
	if (prefix && *prefix)
		len = (size_t)snprintf(out, size, "%s", prefix);
	for (int i = 0; i < n && len + 16 < size; i++) {
		const char *w = WORD(r);

		if (len)
			out[len++] = '_';
		memcpy(out + len, w, strlen(w) + 1);
		len += strlen(w);
	}
}

static void
vocab_init(struct vocab *v, struct rng *r)
{
	const char *w = WORD(r);
	size_t n = strlen(w) < 6 ? strlen(w) : 6;

	memcpy(v->prefix, w, n);
	v->prefix[n] = '\0';
	if (rng_one_in(r, 2)) {
		v->prefix[n++] = (char)('0' + rng_below(r, 10));
		v->prefix[n] = '\0';
	}
	v->nfunc = (int)rng_range(r, 6, VOCAB_MAX);
	v->nmacro = (int)rng_range(r, 4, VOCAB_MAX);
	v->ntype = (int)rng_range(r, 2, 6);
	v->nfield = (int)rng_range(r, 8, VOCAB_MAX);
	v->nvar = (int)rng_range(r, 5, 12);
	for (int i = 0; i < v->nfunc; i++)
		make_ident(v->func[i], sizeof(v->func[i]), r, v->prefix, 2);
	for (int i = 0; i < v->nmacro; i++) {
		char tmp[64];
		size_t k;

		make_ident(tmp, sizeof(tmp), r, v->prefix, 3);
		for (k = 0; tmp[k]; k++)
			if (tmp[k] >= 'a' && tmp[k] <= 'z')
				tmp[k] = (char)(tmp[k] - 'a' + 'A');
		memcpy(v->macro[i], tmp, k + 1);
	}
	for (int i = 0; i < v->ntype; i++)
		make_ident(v->type[i], sizeof(v->type[i]), r, v->prefix, 1);
	for (int i = 0; i < v->nfield; i++)
		make_ident(v->field[i], sizeof(v->field[i]), r, NULL, 2);
	for (int i = 0; i < v->nvar; i++)
		make_ident(v->var[i], sizeof(v->var[i]), r, NULL, 1);
}

#define V_FUNC(v, r) ((v)->func[rng_below(r, (uint64_t)(v)->nfunc)])
#define V_MACRO(v, r) ((v)->macro[rng_below(r, (uint64_t)(v)->nmacro)])
#define V_TYPE(v, r) ((v)->type[rng_below(r, (uint64_t)(v)->ntype)])
#define V_FIELD(v, r) ((v)->field[rng_below(r, (uint64_t)(v)->nfield)])
#define V_VAR(v, r) ((v)->var[rng_below(r, (uint64_t)(v)->nvar)])

static void
emit_number(struct sb *sb, struct rng *r)
{
	uint64_t v;

	switch (rng_below(r, 6)) {
	case 0:
		sb_hex(sb, rng_next(r), 8);
		break;
	case 1:
		sb_hex(sb, rng_below(r, 0x10000), 4);
		break;
	case 2:
		sb_hex(sb, rng_below(r, 0x100), 2);
		break;
	default:
		/* two draws: sequence them, argument order is unspecified */
		v = rng_below(r, 64);
		sb_dec(sb, v << rng_below(r, 5));
		break;
	}
}

static void
emit_prose(struct sb *sb, struct rng *r, int min, int max)
{
	int n = (int)rng_range(r, (uint64_t)min, (uint64_t)max);

	for (int i = 0; i < n; i++) {
		if (i)
			sb_ch(sb, ' ');
		sb_str(sb, PROSE(r));
	}
}

static void
emit_expr(struct sb *sb, struct rng *r, const struct vocab *v)
{
	switch (rng_below(r, 7)) {
	case 0:
		emit_number(sb, r);
		break;
	case 1:
		sb_str(sb, V_MACRO(v, r));
		break;
	case 2:
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->");
		sb_str(sb, V_FIELD(v, r));
		break;
	case 3:
		sb_str(sb, V_FUNC(v, r));
		sb_ch(sb, '(');
		sb_str(sb, V_VAR(v, r));
		sb_ch(sb, ')');
		break;
	case 4:
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->");
		sb_str(sb, V_FIELD(v, r));
		sb_str(sb, " + ");
		emit_number(sb, r);
		break;
	case 5:
		sb_str(sb, "BIT(");
		sb_dec(sb, rng_below(r, 32));
		sb_ch(sb, ')');
		break;
	default:
		sb_str(sb, V_VAR(v, r));
		break;
	}
}

/*
 * Real source repeats itself: the same call, check or unlock shows up
 * again a few lines later.  While the pool is generated, statements are
 * remembered per indentation depth and repeated with a given chance; this
 * is the knob that sets how well the text compresses.
 */
#define REUSE_SLOTS 32
struct reuse {
	size_t off[4][REUSE_SLOTS];	/* statement offsets in the pool sb */
	size_t len[4][REUSE_SLOTS];
	int n[4];
	unsigned percent;		/* chance of repeating, in % */
};

static void emit_block(struct sb *sb, struct rng *r, const struct vocab *v,
		       int depth, int n, struct reuse *ru);

/* One statement (sometimes a small compound one) at indentation depth. */
static void
emit_stmt(struct sb *sb, struct rng *r, const struct vocab *v, int depth,
	  struct reuse *ru)
{
	int kind = (int)rng_below(r, 17);

	if (depth >= 3 && (kind == 5 || kind == 6))
		kind = 0;
	sb_tabs(sb, depth);
	switch (kind) {
	case 0:
	case 1:
	case 2:
		sb_str(sb, rng_one_in(r, 2) ? "ret" : V_VAR(v, r));
		sb_str(sb, " = ");
		sb_str(sb, V_FUNC(v, r));
		sb_ch(sb, '(');
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, ", ");
		emit_expr(sb, r, v);
		sb_str(sb, ");\n");
		break;
	case 3:
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->");
		sb_str(sb, V_FIELD(v, r));
		sb_str(sb, " = ");
		emit_expr(sb, r, v);
		sb_str(sb, ";\n");
		break;
	case 4:
		sb_str(sb, "if (ret)\n");
		sb_tabs(sb, depth + 1);
		if (rng_one_in(r, 2)) {
			sb_str(sb, "return ret;\n");
		} else {
			sb_str(sb, "goto err_");
			sb_str(sb, WORD(r));
			sb_str(sb, ";\n");
		}
		break;
	case 5:
		sb_str(sb, "if (!");
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, ") {\n");
		emit_block(sb, r, v, depth + 1, (int)rng_range(r, 1, 4), ru);
		sb_tabs(sb, depth);
		sb_str(sb, "}\n");
		break;
	case 6:
		sb_str(sb, "for (i = 0; i < ");
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->");
		sb_str(sb, V_FIELD(v, r));
		sb_str(sb, "; i++) {\n");
		emit_block(sb, r, v, depth + 1, (int)rng_range(r, 1, 5), ru);
		sb_tabs(sb, depth);
		sb_str(sb, "}\n");
		break;
	case 7:
		sb_str(sb, "val ");
		sb_str(sb, rng_one_in(r, 2) ? "|= " : "&= ~");
		sb_str(sb, V_MACRO(v, r));
		sb_str(sb, ";\n");
		break;
	case 8:
		sb_str(sb, rng_one_in(r, 2) ? "writel(" : "regmap_write(");
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->base + ");
		sb_str(sb, V_MACRO(v, r));
		sb_str(sb, ", ");
		emit_expr(sb, r, v);
		sb_str(sb, ");\n");
		break;
	case 9:
		sb_str(sb, rng_one_in(r, 2) ? "dev_err(" : "dev_dbg(");
		sb_ch(sb, '&');
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->dev, \"");
		emit_prose(sb, r, 2, 6);
		sb_str(sb, ": %d\\n\", ret);\n");
		break;
	case 10:
		sb_str(sb, "/* ");
		emit_prose(sb, r, 3, 10);
		sb_str(sb, " */\n");
		break;
	case 11:
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, " = ");
		sb_str(sb, V_FUNC(v, r));
		sb_ch(sb, '(');
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, ");\n");
		break;
	case 12:
		sb_str(sb, rng_one_in(r, 2) ? "spin_lock(&" : "mutex_lock(&");
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->lock);\n");
		break;
	case 13:
		sb_str(sb, "if (");
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->");
		sb_str(sb, V_FIELD(v, r));
		sb_str(sb, " & ");
		sb_str(sb, V_MACRO(v, r));
		sb_str(sb, ")\n");
		sb_tabs(sb, depth + 1);
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->");
		sb_str(sb, V_FIELD(v, r));
		sb_str(sb, " = ");
		emit_number(sb, r);
		sb_str(sb, ";\n");
		break;
	case 14:
		sb_str(sb, rng_one_in(r, 2) ? "spin_unlock(&"
					    : "mutex_unlock(&");
		sb_str(sb, V_VAR(v, r));
		sb_str(sb, "->lock);\n");
		break;
	default:
		/* a blank line: undo the indentation */
		sb->len -= (size_t)depth;
		sb_ch(sb, '\n');
		break;
	}
}

static void
emit_block(struct sb *sb, struct rng *r, const struct vocab *v, int depth,
	   int n, struct reuse *ru)
{
	for (int i = 0; i < n; i++) {
		size_t start = sb->len;
		int d = depth < 4 ? depth : 3, slot;

		if (!ru) {
			emit_stmt(sb, r, v, depth, NULL);
			continue;
		}
		if (ru->n[d] && rng_below(r, 100) < ru->percent) {
			slot = (int)rng_below(r, (uint64_t)ru->n[d]);
			sb_grow(sb, ru->len[d][slot]);
			memcpy(sb->buf + sb->len, sb->buf + ru->off[d][slot],
			       ru->len[d][slot]);
			sb->len += ru->len[d][slot];
			continue;
		}
		emit_stmt(sb, r, v, depth, ru);
		if (ru->n[d] < REUSE_SLOTS)
			slot = ru->n[d]++;
		else
			slot = (int)rng_below(r, REUSE_SLOTS);
		ru->off[d][slot] = start;
		ru->len[d][slot] = sb->len - start;
	}
}

/* One synthetic module: header, includes, macros, structs, functions. */
static void
emit_module(struct sb *sb, struct rng *r, unsigned reuse_percent)
{
	struct vocab v;
	struct reuse ru = { .percent = reuse_percent };
	int n;

	vocab_init(&v, r);
	sb_str(sb, rng_one_in(r, 4) ? "/* SPDX-License-Identifier: GPL-2.0 */\n"
				    : "// SPDX-License-Identifier: GPL-2.0\n");
	sb_str(sb, "/*\n * ");
	emit_prose(sb, r, 4, 10);
	sb_str(sb, "\n *\n * Copyright (C) ");
	sb_dec(sb, rng_range(r, 1995, 2022));
	sb_ch(sb, ' ');
	sb_str(sb, pick(r, people, ARRAY_SIZE(people)));
	sb_str(sb, "\n */\n\n");

	n = (int)rng_range(r, 3, 12);
	for (int i = 0; i < n; i++) {
		sb_str(sb, "#include <linux/");
		sb_str(sb, WORD(r));
		sb_str(sb, ".h>\n");
	}
	if (rng_one_in(r, 2)) {
		sb_str(sb, "\n#include \"");
		sb_str(sb, v.prefix);
		sb_str(sb, ".h\"\n");
	}
	sb_ch(sb, '\n');

	for (int i = 0; i < v.nmacro; i++) {
		sb_str(sb, "#define ");
		sb_str(sb, v.macro[i]);
		sb_str(sb, "\t\t");
		emit_number(sb, r);
		sb_ch(sb, '\n');
	}
	sb_ch(sb, '\n');

	for (int i = 0; i < v.ntype; i++) {
		sb_str(sb, "struct ");
		sb_str(sb, v.type[i]);
		sb_str(sb, " {\n");
		n = (int)rng_range(r, 3, 12);
		for (int j = 0; j < n; j++) {
			sb_ch(sb, '\t');
			sb_str(sb, CTYPE(r));
			sb_ch(sb, ' ');
			sb_str(sb, V_FIELD(&v, r));
			sb_str(sb, ";\n");
		}
		sb_str(sb, "};\n\n");
	}

	n = (int)rng_range(r, 2, 24);
	for (int i = 0; i < n; i++) {
		const char *fn = V_FUNC(&v, r);

		if (rng_one_in(r, 3)) {
			sb_str(sb, "/**\n * ");
			sb_str(sb, fn);
			sb_str(sb, "() - ");
			emit_prose(sb, r, 3, 8);
			sb_str(sb, "\n * @");
			sb_str(sb, v.var[0]);
			sb_str(sb, ": ");
			emit_prose(sb, r, 2, 6);
			sb_str(sb, "\n *\n * ");
			emit_prose(sb, r, 6, 14);
			sb_str(sb, "\n */\n");
		}
		sb_str(sb, rng_one_in(r, 3) ? "int " : "static int ");
		sb_str(sb, fn);
		sb_str(sb, "(struct ");
		sb_str(sb, V_TYPE(&v, r));
		sb_str(sb, " *");
		sb_str(sb, v.var[0]);
		sb_str(sb, ", ");
		sb_str(sb, CTYPE(r));
		sb_ch(sb, ' ');
		sb_str(sb, V_VAR(&v, r));
		sb_str(sb, ")\n{\n");
		sb_str(sb, "\tstruct ");
		sb_str(sb, V_TYPE(&v, r));
		sb_str(sb, " *");
		sb_str(sb, V_VAR(&v, r));
		sb_str(sb, " = ");
		sb_str(sb, v.var[0]);
		sb_str(sb, "->priv;\n\tint ret, i;\n\tu32 val;\n\n");
		emit_block(sb, r, &v, 1, (int)rng_range(r, 4, 30), &ru);
		if (rng_one_in(r, 2)) {
			sb_str(sb, "\treturn 0;\n\nerr_");
			sb_str(sb, WORD(r));
			sb_str(sb, ":\n\t");
			sb_str(sb, V_FUNC(&v, r));
			sb_ch(sb, '(');
			sb_str(sb, v.var[0]);
			sb_str(sb, ");\n\treturn ret;\n}\n\n");
		} else {
			sb_str(sb, "\treturn 0;\n}\n\n");
		}
		if (rng_one_in(r, 3)) {
			sb_str(sb, "EXPORT_SYMBOL_GPL(");
			sb_str(sb, fn);
			sb_str(sb, ");\n\n");
		}
	}
	if (rng_one_in(r, 2)) {
		sb_str(sb, "MODULE_AUTHOR(\"");
		sb_str(sb, pick(r, people, ARRAY_SIZE(people)));
		sb_str(sb, "\");\nMODULE_LICENSE(\"GPL\");\n");
	}
}

/* The text every file is stitched from, and the words of fresh lines. */
struct pool {
	char *text;		/* owned; whole lines */
	size_t len;
	struct vocab fresh;	/* identifiers for fresh statements */
};

static void
pool_init(struct pool *pool, uint64_t seed)
{
	struct rng r;
	struct sb sb = { 0 };

	rng_init(&r, seed, STREAM_POOL, 0);
	sb_grow(&sb, POOL_BYTES + (1u << 20));
	while (sb.len < POOL_BYTES)
		emit_module(&sb, &r, REUSE_PERCENT);
	pool->text = sb.buf;
	pool->len = sb.len;
	vocab_init(&pool->fresh, &r);
}

static void
pool_release(struct pool *pool)
{
	free(pool->text);
	pool->text = NULL;
	pool->len = 0;
}

/* The offset just past the line that holds off; 0 past the end. */
static size_t
pool_next_line(const struct pool *pool, size_t off)
{
	const char *nl;

	if (off >= pool->len)
		return 0;
	nl = memchr(pool->text + off, '\n', pool->len - off);
	if (!nl || (size_t)(nl + 1 - pool->text) >= pool->len)
		return 0;
	return (size_t)(nl + 1 - pool->text);
}

/*
 * A stream of one file's text: the id line, then alternately a run of
 * 0.5-8 KiB of pool lines and one fresh statement.  Runs mostly continue
 * where the previous one stopped, skipping a few lines, so a file reads as
 * one coherent module with edits in it.
 */
struct textgen {
	const struct pool *pool;	/* borrowed */
	struct rng rng;
	struct sb fresh;		/* owned; id line or fresh statement */
	const char *seg;		/* the rest of the current segment */
	size_t seg_left;
	size_t pos;			/* pool offset of the next run */
	int want_fresh;
};

/* Write the content id in base 36, least significant digit first. */
static void
put_id(char *out, uint64_t uid, int ndigits)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	for (int i = 0; i < ndigits; i++) {
		out[i] = digits[uid % 36];
		uid /= 36;
	}
}

static void
textgen_init(struct textgen *tg, const struct pool *pool, uint64_t seed,
	     uint64_t uid)
{
	char id[ID_DIGITS];

	tg->pool = pool;
	rng_init(&tg->rng, seed, STREAM_FILE, uid);
	tg->fresh.len = 0;
	put_id(id, uid, ID_DIGITS);
	sb_str(&tg->fresh, "/* ");
	sb_add(&tg->fresh, id, ID_DIGITS);
	sb_str(&tg->fresh, " */\n");
	tg->seg = tg->fresh.buf;
	tg->seg_left = tg->fresh.len;
	tg->pos = pool_next_line(pool, rng_below(&tg->rng, pool->len));
	tg->want_fresh = 0;
}

static void
textgen_release(struct textgen *tg)
{
	free(tg->fresh.buf);
	tg->fresh.buf = NULL;
	tg->fresh.len = tg->fresh.cap = 0;
}

/* A fresh statement, flat (no blocks), from the pool's fresh vocabulary. */
static void
fresh_line(struct sb *sb, struct rng *r, const struct vocab *v)
{
	int depth = (int)rng_range(r, 1, 2);
	size_t start0 = sb->len;

	do {
		size_t start = sb->len = start0;

		emit_stmt(sb, r, v, 3, NULL);
		/* reindent: emit_stmt was asked for depth 3 to stay flat */
		if (sb->len - start > 3 && sb->buf[start] == '\t') {
			memmove(sb->buf + start + depth, sb->buf + start + 3,
				sb->len - start - 3);
			memset(sb->buf + start, '\t', (size_t)depth);
			sb->len -= (size_t)(3 - depth);
		}
	} while (sb->len - start0 < 2);	/* not a blank line */
}

static void
textgen_next(struct textgen *tg)
{
	const struct pool *pool = tg->pool;
	size_t end;

	if (tg->want_fresh) {
		tg->fresh.len = 0;
		fresh_line(&tg->fresh, &tg->rng, &pool->fresh);
		tg->seg = tg->fresh.buf;
		tg->seg_left = tg->fresh.len;
		tg->want_fresh = 0;
		return;
	}
	end = tg->pos + (size_t)rng_range(&tg->rng, 512, 8192);
	end = end >= pool->len ? pool->len : pool_next_line(pool, end);
	if (end == 0)
		end = pool->len;
	tg->seg = pool->text + tg->pos;
	tg->seg_left = end - tg->pos;
	if (end >= pool->len || rng_one_in(&tg->rng, 16)) {
		tg->pos = pool_next_line(pool, rng_below(&tg->rng, pool->len));
	} else {
		int skip = (int)rng_below(&tg->rng, 3);

		tg->pos = end;
		while (skip-- > 0 && tg->pos)
			tg->pos = pool_next_line(pool, tg->pos);
	}
	tg->want_fresh = 1;
}

static void
textgen_fill(struct textgen *tg, char *dst, size_t n)
{
	while (n) {
		size_t k;

		if (!tg->seg_left)
			textgen_next(tg);
		k = n < tg->seg_left ? n : tg->seg_left;
		memcpy(dst, tg->seg, k);
		dst += k;
		n -= k;
		tg->seg += k;
		tg->seg_left -= k;
	}
}

static int
write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static char *write_buf;	/* WRITE_BUF bytes, allocated once */

/*
 * Write size bytes of content id uid to fd.  Files shorter than HEADER_MIN
 * hold only their id digits and a newline; the rest start with the id line.
 * The last byte is always a newline.
 */
static void
write_content(int fd, const char *path, const struct pool *pool,
	      uint64_t seed, uint64_t uid, uint64_t size)
{
	struct textgen tg = { 0 };

	if (!size)
		return;
	if (!write_buf)
		write_buf = xmalloc(WRITE_BUF);
	if (size < HEADER_MIN) {
		put_id(write_buf, uid, (int)size - 1);
		write_buf[size - 1] = '\n';
		if (write_all(fd, write_buf, size) < 0)
			die("cannot write '%s': %s", path, strerror(errno));
		return;
	}
	textgen_init(&tg, pool, seed, uid);
	while (size) {
		size_t n = size < WRITE_BUF ? (size_t)size : WRITE_BUF;

		textgen_fill(&tg, write_buf, n);
		if (n == size)
			write_buf[n - 1] = '\n';
		if (write_all(fd, write_buf, n) < 0)
			die("cannot write '%s': %s", path, strerror(errno));
		size -= n;
	}
	textgen_release(&tg);
}

/*
 * The shape of linux v6.1 (linux-shape.md).  Counts scale with --scale;
 * distributions do not.
 */
#define NDEPTH 10
static const uint32_t dirs_per_depth[NDEPTH] = {
	1, 24, 608, 1505, 1383, 835, 287, 233, 164, 56,
};
static const uint32_t entries_per_depth[NDEPTH] = {
	14, 1102, 13743, 24947, 20830, 11680, 3068, 2510, 510, 231,
};
#define N_LINK_FILE 45
#define N_LINK_DIR 11
#define N_EXEC 814
#define N_EMPTY 30

/* Bin b holds sizes in [2^(b/8), 2^((b+1)/8)); see size_bin_edge(). */
static const struct {
	uint8_t bin;
	uint16_t count;
} size_hist[] = {
	{ 18, 1 }, { 20, 1 }, { 24, 2 }, { 25, 1 }, { 26, 11 }, { 27, 8 },
	{ 28, 16 }, { 29, 2 }, { 30, 9 }, { 31, 2 }, { 32, 20 }, { 33, 11 },
	{ 34, 2 }, { 35, 13 }, { 36, 13 }, { 37, 27 }, { 38, 32 }, { 39, 22 },
	{ 40, 35 }, { 41, 54 }, { 42, 18 }, { 43, 32 }, { 44, 55 }, { 45, 69 },
	{ 46, 66 }, { 47, 64 }, { 48, 91 }, { 49, 139 }, { 50, 107 },
	{ 51, 151 }, { 52, 108 }, { 53, 110 }, { 54, 129 }, { 55, 150 },
	{ 56, 230 }, { 57, 213 }, { 58, 209 }, { 59, 287 }, { 60, 300 },
	{ 61, 341 }, { 62, 367 }, { 63, 419 }, { 64, 470 }, { 65, 528 },
	{ 66, 581 }, { 67, 611 }, { 68, 658 }, { 69, 737 }, { 70, 759 },
	{ 71, 744 }, { 72, 804 }, { 73, 778 }, { 74, 816 }, { 75, 890 },
	{ 76, 952 }, { 77, 1040 }, { 78, 1126 }, { 79, 1097 }, { 80, 1170 },
	{ 81, 1160 }, { 82, 1404 }, { 83, 1416 }, { 84, 1416 }, { 85, 1458 },
	{ 86, 1490 }, { 87, 1508 }, { 88, 1586 }, { 89, 1587 }, { 90, 1608 },
	{ 91, 1624 }, { 92, 1562 }, { 93, 1636 }, { 94, 1542 }, { 95, 1633 },
	{ 96, 1605 }, { 97, 1582 }, { 98, 1599 }, { 99, 1638 }, { 100, 1662 },
	{ 101, 1683 }, { 102, 1574 }, { 103, 1543 }, { 104, 1536 },
	{ 105, 1506 }, { 106, 1460 }, { 107, 1391 }, { 108, 1326 },
	{ 109, 1303 }, { 110, 1303 }, { 111, 1189 }, { 112, 1145 },
	{ 113, 1114 }, { 114, 1016 }, { 115, 952 }, { 116, 953 }, { 117, 884 },
	{ 118, 799 }, { 119, 792 }, { 120, 712 }, { 121, 625 }, { 122, 600 },
	{ 123, 570 }, { 124, 514 }, { 125, 438 }, { 126, 399 }, { 127, 371 },
	{ 128, 347 }, { 129, 307 }, { 130, 248 }, { 131, 226 }, { 132, 180 },
	{ 133, 165 }, { 134, 133 }, { 135, 117 }, { 136, 97 }, { 137, 77 },
	{ 138, 72 }, { 139, 53 }, { 140, 53 }, { 141, 44 }, { 142, 28 },
	{ 143, 26 }, { 144, 25 }, { 145, 26 }, { 146, 22 }, { 147, 17 },
	{ 148, 17 }, { 149, 7 }, { 150, 8 }, { 151, 7 }, { 152, 6 }, { 153, 3 },
	{ 154, 6 }, { 155, 8 }, { 156, 10 }, { 157, 13 }, { 158, 2 },
	{ 159, 3 }, { 160, 7 }, { 161, 7 }, { 162, 8 }, { 163, 6 }, { 164, 8 },
	{ 165, 3 }, { 166, 4 }, { 167, 1 }, { 168, 1 }, { 169, 2 }, { 172, 2 },
	{ 173, 4 }, { 174, 2 }, { 176, 1 }, { 177, 3 }, { 178, 2 }, { 179, 3 },
	{ 180, 2 }, { 181, 6 }, { 182, 2 }, { 184, 1 }, { 187, 2 }, { 188, 2 },
	{ 190, 2 }, { 191, 2 }, { 196, 1 },
};

/*
 * Extensions and their counts among 78,579 regular files.  The tail
 * ("the rest under 150 each", 1,199 files) is spread over plausible ones.
 */
enum { EXT_NONE = 2 };
static const struct {
	const char *ext;
	uint32_t count;
} exts[] = {
	{ ".c", 32004 }, { ".h", 23401 }, { "", 6468 }, { ".rst", 3249 },
	{ ".yaml", 2984 }, { ".dts", 2618 }, { ".txt", 2082 },
	{ ".dtsi", 1897 }, { ".S", 1322 }, { ".sh", 757 }, { ".json", 598 },
	{ ".py", 145 }, { ".pl", 130 }, { ".tc", 125 }, { ".cocci", 120 },
	{ ".rs", 115 }, { ".svg", 110 }, { ".bc", 100 }, { ".xml", 95 },
	{ ".lds", 90 }, { ".tbl", 85 }, { ".in", 84 },
};

/* Names files without an extension take first, as linux's do. */
static const char *const plain_names[] = {
	"Makefile", "Kconfig", "Kbuild", "README",
};

/*
 * Name lengths: cumulative share (in 1/10000) at given lengths, linearly
 * interpolated in between (linux-shape.md).
 */
struct cdf_point {
	uint32_t len;
	uint32_t share;
};
static const struct cdf_point dir_name_cdf[] = {
	{ 1, 0 }, { 3, 1000 }, { 5, 5000 }, { 10, 9000 }, { 16, 9900 },
	{ 23, 10000 },
};
static const struct cdf_point stem_cdf[] = {
	{ 0, 0 }, { 4, 1000 }, { 9, 5000 }, { 18, 9000 }, { 28, 9900 },
	{ 56, 10000 },
};

static uint32_t
sample_len(struct rng *r, const struct cdf_point *cdf, size_t n)
{
	uint32_t u = (uint32_t)rng_below(r, 10000);

	for (size_t i = 1; i < n; i++) {
		const struct cdf_point *a = &cdf[i - 1], *b = &cdf[i];

		for (uint32_t len = a->len + 1; len <= b->len; len++) {
			uint32_t share = a->share + (b->share - a->share) *
				(len - a->len) / (b->len - a->len);

			if (u < share)
				return len;
		}
	}
	return cdf[n - 1].len;
}

static uint32_t
dir_name_len(struct rng *r)
{
	return sample_len(r, dir_name_cdf, ARRAY_SIZE(dir_name_cdf));
}

static uint32_t
stem_len(struct rng *r)
{
	return sample_len(r, stem_cdf, ARRAY_SIZE(stem_cdf));
}

/*
 * ceil(2^(b/8)), the first size of histogram bin b, computed exactly:
 * a fixed-point estimate, then corrected by comparing n^8 with 2^b in
 * multi-word integers.
 */
static int
pow8_at_least_pow2(uint64_t n, unsigned b)
{
	uint32_t limb[10] = { 1 };	/* n^8 as base-2^32 limbs */

	for (int k = 0; k < 8; k++) {
		uint64_t carry = 0;

		for (int i = 0; i < 10; i++) {
			uint64_t t = (uint64_t)limb[i] * n + carry;

			limb[i] = (uint32_t)t;
			carry = t >> 32;
		}
	}
	/* compare with 2^b: limb b / 32 holds bit b % 32 */
	for (int i = 9; i >= 0; i--) {
		uint32_t p = 0;

		if ((unsigned)i == b / 32)
			p = (uint32_t)1 << (b % 32);

		if (limb[i] != p)
			return limb[i] > p;
	}
	return 1;
}

static uint64_t
size_bin_edge(unsigned b)
{
	/* 2^(r/8) in 32.32 fixed point, r = 0..7 */
	static const uint64_t root8[8] = {
		0x100000000ULL, 0x1172b83c7ULL, 0x1306fe0a3ULL, 0x14bfdad53ULL,
		0x16a09e667ULL, 0x18ace5422ULL, 0x1ae89f996ULL, 0x1d5818dcfULL,
	};
	uint64_t n = ((root8[b % 8] << (b / 8)) >> 32) + 1;

	while (n > 1 && pow8_at_least_pow2(n - 1, b))
		n--;
	while (!pow8_at_least_pow2(n, b))
		n++;
	return n;
}

/*
 * Split total into counts proportional to weights[] exactly (largest
 * remainder; ties to the lower index).  Integer-only.
 */
static void
apportion(uint64_t *out, const uint64_t *weights, size_t n, uint64_t total)
{
	uint64_t wsum = 0, given = 0;
	uint64_t *rem = xcalloc(n, sizeof(*rem));

	for (size_t i = 0; i < n; i++)
		wsum += weights[i];
	for (size_t i = 0; i < n; i++) {
		out[i] = weights[i] * total / wsum;
		rem[i] = weights[i] * total % wsum;
		given += out[i];
	}
	while (given < total) {
		size_t best = 0;

		for (size_t i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		out[best]++;
		rem[best] = 0;
		given++;
	}
	free(rem);
}

/*
 * Names and paths live for the whole run in an append-only arena: blocks
 * of 1 MiB (or one string), chained through their first bytes.
 */
struct arena_block {
	struct arena_block *prev;
	char data[];
};
static struct arena_block *arena_head;
static size_t arena_used, arena_cap;

static const char *
arena_strndup(const char *s, size_t n)
{
	char *p;

	if (!arena_head || arena_used + n + 1 > arena_cap) {
		struct arena_block *b;

		arena_cap = n + 1 > (1u << 20) ? n + 1 : (1u << 20);
		b = xmalloc(sizeof(*b) + arena_cap);
		b->prev = arena_head;
		arena_head = b;
		arena_used = 0;
	}
	p = arena_head->data + arena_used;
	memcpy(p, s, n);
	p[n] = '\0';
	arena_used += n + 1;
	return p;
}

/* Free every arena string at once; at exit only. */
static void
arena_release(void)
{
	while (arena_head) {
		struct arena_block *prev = arena_head->prev;

		free(arena_head);
		arena_head = prev;
	}
	arena_used = arena_cap = 0;
}

/*
 * Names unique within a directory, compared without case so that a tree
 * also checks out on case-insensitive filesystems.
 */
struct name_set {
	struct name_slot {
		const char *name;	/* arena; NULL when free */
		uint32_t dir;
	} *slot;			/* owned */
	size_t mask;
	size_t used;
};

static uint64_t
name_hash(uint32_t dir, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ dir;

	for (; *name; name++) {
		unsigned char c = (unsigned char)*name;

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = (h ^ c) * 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

static int
name_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = (unsigned char)*a, cb = (unsigned char)*b;

		if (ca >= 'A' && ca <= 'Z')
			ca += 'a' - 'A';
		if (cb >= 'A' && cb <= 'Z')
			cb += 'a' - 'A';
		if (ca != cb)
			return 0;
		if (!ca)
			return 1;
	}
}

static void
name_set_init(struct name_set *set, size_t expect)
{
	size_t n = 1024;

	while (n < expect * 2)
		n *= 2;
	set->slot = xcalloc(n, sizeof(*set->slot));
	set->mask = n - 1;
	set->used = 0;
}

/* 1 if name was added, 0 if the directory already has it. */
static int
name_set_add(struct name_set *set, uint32_t dir, const char *name)
{
	size_t i = (size_t)name_hash(dir, name) & set->mask;

	if (set->used * 2 >= set->mask)
		die("internal error: name table full");
	for (;; i = (i + 1) & set->mask) {
		struct name_slot *s = &set->slot[i];

		if (!s->name) {
			s->name = name;
			s->dir = dir;
			set->used++;
			return 1;
		}
		if (s->dir == dir && name_eq(s->name, name))
			return 0;
	}
}

/*
 * A name of exactly len characters: fragments joined by sep, a digit to
 * fill a last odd character.  Always starts with a letter, so never "." or
 * ".." or ".git".
 */
static void
gen_name(char *out, struct rng *r, uint32_t len, char sep)
{
	uint32_t p = 0;

	while (p < len) {
		const char *w = WORD(r);
		uint32_t wl = (uint32_t)strlen(w);

		if (p) {
			if (len - p < 2) {
				out[p++] = (char)('0' + rng_below(r, 10));
				continue;
			}
			out[p++] = sep;
		}
		if (wl > len - p)
			wl = len - p;
		memcpy(out + p, w, wl);
		p += wl;
	}
	out[p] = '\0';
}

/* Random letters and digits, starting with a letter. */
static void
gen_random_name(char *out, struct rng *r, uint32_t len)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	for (uint32_t i = 0; i < len; i++)
		out[i] = alnum[rng_below(r, i ? 36 : 26)];
	out[len] = '\0';
}

#define NAME_MAX_GEN 80

/*
 * Give a unique name in dir: stem of length len (retrying with other
 * fragments, then random letters, then one character longer) + suffix.
 */
static const char *
unique_name(struct name_set *set, struct rng *r, uint32_t dir, uint32_t len,
	    char sep, const char *suffix)
{
	char buf[NAME_MAX_GEN + 16];
	size_t sl = strlen(suffix);

	for (int attempt = 0;; attempt++) {
		const char *name;

		if (attempt > 0 && attempt % 24 == 0 && len < NAME_MAX_GEN)
			len++;
		if (attempt % 24 < 12)
			gen_name(buf, r, len, sep);
		else
			gen_random_name(buf, r, len);
		memcpy(buf + len, suffix, sl + 1);
		name = arena_strndup(buf, len + sl);
		if (name_set_add(set, dir, name))
			return name;
	}
}

/* The planned tree. */
enum ent_kind { ENT_FILE, ENT_LINK_FILE, ENT_LINK_DIR };

struct gdir {
	uint32_t parent;	/* the root is its own parent */
	uint32_t depth;
	uint32_t nsub;		/* subdirectories */
	uint32_t nent;		/* entries directly inside */
	int has_dirlink;	/* holds a directory symlink */
	int created;
	const char *name;	/* arena */
	const char *path;	/* arena; "" for the root */
};

struct gent {
	uint32_t dir;
	uint8_t kind;		/* enum ent_kind */
	uint8_t ext;		/* index into exts[] */
	uint8_t exec;
	uint64_t size;
	uint32_t target;	/* entry (file link) or directory (dir link) */
	const char *name;	/* arena */
	const char *path;	/* arena */
};

struct plan {
	struct gdir *dirs;	/* owned; parents before children */
	uint32_t ndirs;
	struct gent *ents;	/* owned; content id = index */
	uint32_t nents;
	uint32_t *order;	/* owned; entry indices sorted by path */
};

static uint64_t
scaled(uint64_t count, uint64_t ppm)
{
	return (count * ppm + 500000) / 1000000;
}

static uint64_t
scaled_min1(uint64_t count, uint64_t ppm)
{
	uint64_t n = scaled(count, ppm);

	return n ? n : 1;
}

/* Lay out directories and entries per depth; no names yet. */
static void
plan_layout(struct plan *p, struct rng *r, uint64_t ppm)
{
	uint32_t ndir[NDEPTH], nent[NDEPTH], first[NDEPTH];
	uint32_t total_dirs = 0, total_ents = 0;

	for (int d = 0; d < NDEPTH; d++) {
		ndir[d] = d ? (uint32_t)scaled_min1(dirs_per_depth[d], ppm) : 1;
		first[d] = total_dirs;
		total_dirs += ndir[d];
	}
	p->dirs = xcalloc(total_dirs, sizeof(*p->dirs));
	p->ndirs = total_dirs;

	/*
	 * Each directory picks its parent one level up: half the time
	 * uniformly, half the time the parent of an earlier sibling-level
	 * directory (preferential attachment), which gives the heavy tail of
	 * arch/ and drivers/.
	 */
	for (int d = 1; d < NDEPTH; d++) {
		for (uint32_t j = 0; j < ndir[d]; j++) {
			struct gdir *g = &p->dirs[first[d] + j];

			if (j && rng_one_in(r, 2))
				g->parent = p->dirs[first[d] +
						    rng_below(r, j)].parent;
			else
				g->parent = first[d - 1] +
					    (uint32_t)rng_below(r, ndir[d - 1]);
			g->depth = (uint32_t)d;
			p->dirs[g->parent].nsub++;
		}
	}

	/* Every leaf directory gets one entry; no directory is empty. */
	for (int d = 0; d < NDEPTH; d++) {
		uint32_t leaves = 0;

		for (uint32_t j = 0; j < ndir[d]; j++)
			leaves += !p->dirs[first[d] + j].nsub;
		nent[d] = (uint32_t)scaled(entries_per_depth[d], ppm);
		if (nent[d] < leaves)
			nent[d] = leaves;
		total_ents += nent[d];
	}
	p->ents = xcalloc(total_ents, sizeof(*p->ents));
	p->nents = total_ents;

	/* Then entries attach to directories the same way. */
	for (int d = 0, e = 0; d < NDEPTH; d++) {
		uint32_t base = (uint32_t)e;

		for (uint32_t j = 0; j < ndir[d]; j++)
			if (!p->dirs[first[d] + j].nsub)
				p->ents[e++].dir = first[d] + j;
		while ((uint32_t)e < base + nent[d]) {
			uint32_t placed = (uint32_t)e - base, k;

			if (placed && rng_one_in(r, 2)) {
				k = base + (uint32_t)rng_below(r, placed);
				p->ents[e].dir = p->ents[k].dir;
			} else {
				k = (uint32_t)rng_below(r, ndir[d]);
				p->ents[e].dir = first[d] + k;
			}
			e++;
		}
	}
	for (uint32_t i = 0; i < p->nents; i++)
		p->dirs[p->ents[i].dir].nent++;
}

/* Pick a random entry of kind ENT_FILE, or UINT32_MAX if there is none. */
static uint32_t
random_file(const struct plan *p, struct rng *r)
{
	for (int tries = 0; tries < 1000; tries++) {
		uint32_t i = (uint32_t)rng_below(r, p->nents);

		if (p->ents[i].kind == ENT_FILE)
			return i;
	}
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].kind == ENT_FILE)
			return i;
	return UINT32_MAX;
}

/* Symlinks, then sizes, extensions and executable bits of regular files. */
static void
plan_kinds(struct plan *p, struct rng *r, uint64_t ppm)
{
	uint64_t nlinkdir = scaled_min1(N_LINK_DIR, ppm);
	uint64_t nlinkfile = scaled_min1(N_LINK_FILE, ppm);
	uint32_t *cand, ncand = 0, *files, nfiles = 0;
	uint64_t *sizes, nempty, nexec;
	uint64_t w[ARRAY_SIZE(size_hist) > ARRAY_SIZE(exts) ?
		   ARRAY_SIZE(size_hist) : ARRAY_SIZE(exts)];
	uint64_t cnt[ARRAY_SIZE(w)];

	/* directory symlinks: to leaf directories without one */
	if (nlinkdir > p->nents / 4)
		nlinkdir = p->nents / 4;
	for (uint64_t k = 0; k < nlinkdir; k++) {
		uint32_t i = random_file(p, r);

		p->ents[i].kind = ENT_LINK_DIR;
		p->dirs[p->ents[i].dir].has_dirlink = 1;
	}
	cand = xmalloc(sizeof(*cand) * p->ndirs);
	for (uint32_t d = 0; d < p->ndirs; d++)
		if (!p->dirs[d].nsub && !p->dirs[d].has_dirlink)
			cand[ncand++] = d;
	for (uint32_t i = 0; i < p->nents; i++) {
		if (p->ents[i].kind != ENT_LINK_DIR)
			continue;
		if (ncand)
			p->ents[i].target = cand[rng_below(r, ncand)];
		else
			p->ents[i].kind = ENT_FILE;	/* tiny scales */
	}
	free(cand);

	/* file symlinks: chosen now, targets once all files are known */
	if (nlinkfile > p->nents / 4)
		nlinkfile = p->nents / 4;
	for (uint64_t k = 0; k < nlinkfile; k++)
		p->ents[random_file(p, r)].kind = ENT_LINK_FILE;

	files = xmalloc(sizeof(*files) * p->nents);
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].kind == ENT_FILE)
			files[nfiles++] = i;
	if (!nfiles)
		die("--scale is too small: no regular file left");
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].kind == ENT_LINK_FILE)
			p->ents[i].target = files[rng_below(r, nfiles)];

	/* sizes: the empty files, then the histogram apportioned exactly */
	nempty = scaled_min1(N_EMPTY, ppm);
	if (nempty > nfiles)
		nempty = nfiles;
	for (size_t b = 0; b < ARRAY_SIZE(size_hist); b++)
		w[b] = size_hist[b].count;
	apportion(cnt, w, ARRAY_SIZE(size_hist), nfiles - nempty);
	sizes = xmalloc(sizeof(*sizes) * nfiles);
	for (uint64_t k = 0; k < nempty; k++)
		sizes[k] = 0;
	for (size_t b = 0, k = nempty; b < ARRAY_SIZE(size_hist); b++) {
		uint64_t lo = size_bin_edge(size_hist[b].bin);
		uint64_t hi = size_bin_edge(size_hist[b].bin + 1u);

		for (uint64_t c = 0; c < cnt[b]; c++)
			sizes[k++] = hi > lo ? rng_range(r, lo, hi - 1) : lo;
	}
	if (size_ppm != 1000000)
		for (uint64_t k = nempty; k < nfiles; k++) {
			sizes[k] = sizes[k] * size_ppm / 1000000;
			if (!sizes[k])
				sizes[k] = 1;
		}
	shuffle_u64(r, sizes, nfiles);
	for (uint32_t k = 0; k < nfiles; k++)
		p->ents[files[k]].size = sizes[k];

	/* extensions: apportioned exactly, shuffled */
	for (size_t x = 0; x < ARRAY_SIZE(exts); x++)
		w[x] = exts[x].count;
	apportion(cnt, w, ARRAY_SIZE(exts), nfiles);
	for (size_t x = 0, k = 0; x < ARRAY_SIZE(exts); x++)
		for (uint64_t c = 0; c < cnt[x]; c++)
			sizes[k++] = x;	/* reuse the array for indices */
	shuffle_u64(r, sizes, nfiles);
	for (uint32_t k = 0; k < nfiles; k++)
		p->ents[files[k]].ext = (uint8_t)sizes[k];
	free(sizes);

	/*
	 * Executables: shell scripts first, then other scripts, then files
	 * without extension, then anything (linux's 814 are mostly scripts).
	 */
	nexec = scaled_min1(N_EXEC, ppm);
	shuffle_u32(r, files, nfiles);
	for (int tier = 0; tier < 4 && nexec; tier++) {
		for (uint32_t k = 0; k < nfiles && nexec; k++) {
			struct gent *e = &p->ents[files[k]];
			const char *x = exts[e->ext].ext;
			int t = !strcmp(x, ".sh") ? 0 :
				(!strcmp(x, ".py") || !strcmp(x, ".pl")) ? 1 :
				e->ext == EXT_NONE ? 2 : 3;

			if (t == tier && !e->exec) {
				e->exec = 1;
				nexec--;
			}
		}
	}
	free(files);
}

static void
plan_names(struct plan *p, struct rng *r)
{
	struct name_set set;

	name_set_init(&set, (size_t)p->ndirs + p->nents);
	p->dirs[0].name = "";
	p->dirs[0].path = "";
	for (uint32_t d = 1; d < p->ndirs; d++) {
		struct gdir *g = &p->dirs[d];
		const struct gdir *par = &p->dirs[g->parent];
		uint32_t len = dir_name_len(r);

		g->name = unique_name(&set, r, g->parent, len,
				      rng_one_in(r, 2) ? '-' : '_', "");
		if (*par->path) {
			size_t pl = strlen(par->path), nl = strlen(g->name);
			char *tmp = xmalloc(pl + nl + 2);

			memcpy(tmp, par->path, pl);
			tmp[pl] = '/';
			memcpy(tmp + pl + 1, g->name, nl);
			g->path = arena_strndup(tmp, pl + nl + 1);
			free(tmp);
		} else {
			g->path = g->name;
		}
	}
	for (uint32_t i = 0; i < p->nents; i++) {
		struct gent *e = &p->ents[i];
		const struct gdir *g = &p->dirs[e->dir];
		const char *suffix;
		size_t pl, nl;
		char *tmp;

		switch (e->kind) {
		case ENT_LINK_DIR:
			e->name = unique_name(&set, r, e->dir,
					      dir_name_len(r), '-', "");
			break;
		case ENT_LINK_FILE:
			suffix = exts[p->ents[e->target].ext].ext;
			e->name = unique_name(&set, r, e->dir, stem_len(r),
					      '_', suffix);
			break;
		default:
			e->name = NULL;
			if (e->ext == EXT_NONE && !rng_one_in(r, 8)) {
				const char *const *pn = plain_names;

				for (size_t k = 0; k < ARRAY_SIZE(plain_names);
				     k++) {
					if (name_set_add(&set, e->dir, pn[k])) {
						e->name = pn[k];
						break;
					}
				}
			}
			if (!e->name) {
				/* sequenced: argument order is unspecified */
				char sep = rng_one_in(r, 8) ? '-' : '_';

				e->name = unique_name(&set, r, e->dir,
						      stem_len(r), sep,
						      exts[e->ext].ext);
			}
			break;
		}
		pl = strlen(g->path);
		nl = strlen(e->name);
		tmp = xmalloc(pl + nl + 2);
		memcpy(tmp, g->path, pl);
		if (pl)
			tmp[pl++] = '/';
		memcpy(tmp + pl, e->name, nl);
		e->path = arena_strndup(tmp, pl + nl);
		free(tmp);
	}
	free(set.slot);
}

static void
plan_release(struct plan *p)
{
	free(p->dirs);
	free(p->ents);
	free(p->order);
	memset(p, 0, sizeof(*p));
}

static const struct plan *sort_plan;	/* for cmp_ent_path() only */

static int
cmp_ent_path(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return strcmp(sort_plan->ents[*x].path, sort_plan->ents[*y].path);
}

static void
plan_build(struct plan *p, uint64_t seed, uint64_t ppm)
{
	struct rng r;

	memset(p, 0, sizeof(*p));
	rng_init(&r, seed, STREAM_PLAN, 0);
	plan_layout(p, &r, ppm);
	plan_kinds(p, &r, ppm);
	plan_names(p, &r);
	p->order = xmalloc(sizeof(*p->order) * p->nents);
	for (uint32_t i = 0; i < p->nents; i++)
		p->order[i] = i;
	sort_plan = p;
	qsort(p->order, p->nents, sizeof(*p->order), cmp_ent_path);
	sort_plan = NULL;
}

/*
 * The relative path from directory `from` to `to`, both relative to the
 * tree's root ("" is the root).  Returns a malloc'ed string.
 */
static char *
relative_path(const char *from, const char *to)
{
	size_t cf = 0, ct = 0, up = 0;	/* where the unshared parts start */
	struct sb out = { 0 };

	for (size_t i = 0; *from; i++) {
		int end_from = from[i] == '\0' || from[i] == '/';
		int end_to = to[i] == '\0' || to[i] == '/';

		if (!end_from || !end_to) {
			if (end_from || end_to || from[i] != to[i])
				break;
			continue;
		}
		cf = from[i] ? i + 1 : i;
		ct = to[i] ? i + 1 : i;
		if (!from[i] || !to[i])
			break;
	}
	/* one ".." per component of from past the shared ones */
	for (const char *s = from + cf; *s; s++)
		if (s == from + cf || s[-1] == '/')
			up++;
	for (size_t k = 0; k < up; k++)
		sb_str(&out, "../");
	sb_str(&out, to + ct);
	if (out.len && out.buf[out.len - 1] == '/')
		out.len--;
	if (!out.len)
		sb_ch(&out, '.');
	sb_ch(&out, '\0');
	return out.buf;
}

static const struct timespec fixed_times[2] = {
	{ EPOCH_2020, 0 }, { EPOCH_2020, 0 },
};

static void
ensure_dir(struct plan *p, int rootfd, uint32_t d)
{
	struct gdir *g = &p->dirs[d];

	if (g->created)
		return;
	ensure_dir(p, rootfd, g->parent);
	if (mkdirat(rootfd, g->path, 0777) < 0)
		die("cannot create directory '%s': %s", g->path,
		    strerror(errno));
	g->created = 1;
}

struct totals {
	uint64_t files, links, dirs, bytes, exec, empty;
};

static void
plan_write(struct plan *p, int rootfd, const struct pool *pool,
	   uint64_t seed, struct totals *t)
{
	p->dirs[0].created = 1;
	for (uint32_t k = 0; k < p->nents; k++) {
		uint32_t i = p->order[k];
		struct gent *e = &p->ents[i];
		char *target;
		int fd;

		ensure_dir(p, rootfd, e->dir);
		switch (e->kind) {
		case ENT_FILE:
			fd = openat(rootfd, e->path,
				    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				    e->exec ? 0777 : 0666);
			if (fd < 0)
				die("cannot create '%s': %s", e->path,
				    strerror(errno));
			write_content(fd, e->path, pool, seed, i, e->size);
			if (futimens(fd, fixed_times) < 0)
				die("cannot set mtime of '%s': %s", e->path,
				    strerror(errno));
			if (close(fd) < 0)
				die("cannot write '%s': %s", e->path,
				    strerror(errno));
			t->files++;
			t->bytes += e->size;
			t->exec += e->exec;
			t->empty += !e->size;
			break;
		default:
			target = relative_path(p->dirs[e->dir].path,
					       e->kind == ENT_LINK_DIR ?
					       p->dirs[e->target].path :
					       p->ents[e->target].path);
			if (symlinkat(target, rootfd, e->path) < 0)
				die("cannot create symlink '%s': %s", e->path,
				    strerror(errno));
			if (utimensat(rootfd, e->path, fixed_times,
				      AT_SYMLINK_NOFOLLOW) < 0)
				die("cannot set mtime of '%s': %s", e->path,
				    strerror(errno));
			free(target);
			t->links++;
			break;
		}
	}
	for (uint32_t d = 0; d < p->ndirs; d++)
		ensure_dir(p, rootfd, d);
	/* directory mtimes last: creating entries above changed them */
	for (uint32_t d = 0; d < p->ndirs; d++) {
		const char *path = d ? p->dirs[d].path : ".";

		if (utimensat(rootfd, path, fixed_times, 0) < 0)
			die("cannot set mtime of '%s': %s", path,
			    strerror(errno));
	}
	t->dirs = p->ndirs;
}

/* mkdir -p, then require the directory to be empty; returns an fd on it. */
static int
open_empty_dir(const char *dir)
{
	char *tmp = xmalloc(strlen(dir) + 1);
	DIR *dp;
	struct dirent *de;
	int fd;

	strcpy(tmp, dir);
	for (char *s = tmp + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(tmp, 0777) < 0 && errno != EEXIST)
			die("cannot create directory '%s': %s", tmp,
			    strerror(errno));
		*s = '/';
	}
	if (mkdir(tmp, 0777) < 0 && errno != EEXIST)
		die("cannot create directory '%s': %s", tmp, strerror(errno));
	free(tmp);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open directory '%s': %s", dir, strerror(errno));
	dp = opendir(dir);
	if (!dp)
		die("cannot open directory '%s': %s", dir, strerror(errno));
	while ((de = readdir(dp)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			die("'%s' is not empty", dir);
	closedir(dp);
	return fd;
}

static double
elapsed_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void
report(const char *what, const struct totals *t, const struct timespec *t0)
{
	double s = elapsed_since(t0);

	if (!verbose)
		return;
	fprintf(stderr, "%s: %s: %" PRIu64 " files (%" PRIu64 " executable, %"
		PRIu64 " empty), %" PRIu64 " symlinks, %" PRIu64
		" directories, %" PRIu64 " bytes in %.2f s (%.0f MB/s)\n",
		progname, what, t->files, t->exec, t->empty, t->links, t->dirs,
		t->bytes, s, s > 0 ? (double)t->bytes / s / 1e6 : 0.0);
}

static int
cmd_tree(const char *dir, uint64_t seed, uint64_t ppm, int list)
{
	struct plan plan;
	struct pool pool;
	struct totals t = { 0 };
	struct timespec t0;
	int rootfd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	plan_build(&plan, seed, ppm);
	if (list) {
		for (uint32_t k = 0; k < plan.nents; k++)
			puts(plan.ents[plan.order[k]].path);
		plan_release(&plan);
		return 0;
	}
	rootfd = open_empty_dir(dir);
	pool_init(&pool, seed);
	plan_write(&plan, rootfd, &pool, seed, &t);
	close(rootfd);
	report(dir, &t, &t0);
	pool_release(&pool);
	plan_release(&plan);
	return 0;
}

static int
digits_for(uint64_t n, int min)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d < min ? min : d;
}

/* Append v in decimal, zero-padded to width, at out; return the end. */
static char *
put_padded(char *out, uint64_t v, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		out[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return out + width;
}

/* "d<dir>" or "d<dir>/f<index>" of file i in --files mode. */
static void
files_path(char *out, uint64_t i, int dw, int fw, int with_file)
{
	*out++ = 'd';
	out = put_padded(out, i / DIR_FANOUT, dw);
	if (with_file) {
		*out++ = '/';
		*out++ = 'f';
		out = put_padded(out, i, fw);
	}
	*out = '\0';
}

static int
cmd_files(const char *dir, uint64_t seed, uint64_t nfiles, uint64_t size,
	  int list)
{
	struct pool pool;
	struct totals t = { 0 };
	struct timespec t0;
	int dw = digits_for(nfiles ? (nfiles - 1) / DIR_FANOUT : 0, 3);
	int fw = digits_for(nfiles ? nfiles - 1 : 0, 5);
	char path[64];
	int rootfd = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!list) {
		rootfd = open_empty_dir(dir);
		pool_init(&pool, seed);
	}
	for (uint64_t i = 0; i < nfiles; i++) {
		int fd;

		if (i % DIR_FANOUT == 0 && !list) {
			files_path(path, i, dw, fw, 0);
			if (mkdirat(rootfd, path, 0777) < 0)
				die("cannot create directory '%s': %s", path,
				    strerror(errno));
			t.dirs++;
		}
		files_path(path, i, dw, fw, 1);
		if (list) {
			puts(path);
			continue;
		}
		fd = openat(rootfd, path,
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			die("cannot create '%s': %s", path, strerror(errno));
		write_content(fd, path, &pool, seed, i, size);
		if (futimens(fd, fixed_times) < 0 || close(fd) < 0)
			die("cannot write '%s': %s", path, strerror(errno));
		t.files++;
		t.bytes += size;
	}
	if (list)
		return 0;
	/* directory mtimes last: creating files changed them */
	for (uint64_t d = 0; d < t.dirs; d++) {
		files_path(path, d * DIR_FANOUT, dw, fw, 0);
		if (utimensat(rootfd, path, fixed_times, 0) < 0)
			die("cannot set mtime of '%s': %s", path,
			    strerror(errno));
	}
	if (utimensat(rootfd, ".", fixed_times, 0) < 0)
		die("cannot set mtime of '%s': %s", dir, strerror(errno));
	close(rootfd);
	report(dir, &t, &t0);
	pool_release(&pool);
	return 0;
}

static int
cmd_one_file(const char *path, uint64_t seed, uint64_t size)
{
	struct pool pool;
	struct totals t = { 0 };
	struct timespec t0;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pool_init(&pool, seed);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		die("cannot create '%s': %s", path, strerror(errno));
	write_content(fd, path, &pool, seed, 0, size);
	if (futimens(fd, fixed_times) < 0 || close(fd) < 0)
		die("cannot write '%s': %s", path, strerror(errno));
	t.files = 1;
	t.bytes = size;
	report(path, &t, &t0);
	pool_release(&pool);
	return 0;
}

/*
 * Patch mode.  The tree is listed in sorted order (skipping any ".git"),
 * and every choice is drawn from that listing with a generator seeded by
 * (seed, K): the same tree and K always give the same patch.
 */
struct wentry {
	const char *path;	/* arena; relative to the tree */
	mode_t type;		/* S_IFREG, S_IFLNK or S_IFDIR */
	uint64_t size;
	int protected;		/* a symlink points at it */
	uint32_t nchildren;	/* directories: entries directly inside */
};

struct walk {
	struct wentry *e;	/* owned */
	size_t n, alloc;
};

static void
walk_add(struct walk *w, const char *path, mode_t type, uint64_t size)
{
	if (w->n == w->alloc) {
		w->alloc = w->alloc ? w->alloc * 2 : 4096;
		w->e = xrealloc(w->e, w->alloc * sizeof(*w->e));
	}
	w->e[w->n].path = arena_strndup(path, strlen(path));
	w->e[w->n].type = type;
	w->e[w->n].size = size;
	w->e[w->n].protected = 0;
	w->e[w->n].nchildren = 0;
	w->n++;
}

static void
walk_dir(struct walk *w, int rootfd, const char *rel)
{
	int fd = openat(rootfd, *rel ? rel : ".",
			O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dp;
	struct dirent *de;

	if (fd < 0 || !(dp = fdopendir(fd)))
		die("cannot open directory '%s': %s", *rel ? rel : ".",
		    strerror(errno));
	while ((de = readdir(dp))) {
		struct stat st;
		char *path;
		size_t rl = strlen(rel), nl = strlen(de->d_name);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git"))
			continue;
		path = xmalloc(rl + nl + 2);
		memcpy(path, rel, rl);
		if (rl)
			path[rl++] = '/';
		memcpy(path + rl, de->d_name, nl + 1);
		if (fstatat(rootfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			die("cannot stat '%s': %s", path, strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			walk_add(w, path, S_IFDIR, 0);
			walk_dir(w, rootfd, path);
		} else if (S_ISREG(st.st_mode)) {
			walk_add(w, path, S_IFREG, (uint64_t)st.st_size);
		} else if (S_ISLNK(st.st_mode)) {
			walk_add(w, path, S_IFLNK, 0);
		}
		free(path);
	}
	closedir(dp);
}

static int
cmp_wentry(const void *a, const void *b)
{
	const struct wentry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

static struct wentry *
walk_find(struct walk *w, const char *path)
{
	struct wentry key = { .path = path };

	return bsearch(&key, w->e, w->n, sizeof(*w->e), cmp_wentry);
}

/* Lexically resolve target relative to the directory of link. */
static char *
resolve_link(const char *link, const char *target)
{
	size_t ll = strlen(link), tl = strlen(target);
	char *buf = xmalloc(ll + tl + 2), *out = xmalloc(ll + tl + 2);
	const char *slash = strrchr(link, '/');
	size_t dl = slash ? (size_t)(slash - link) : 0, o = 0;
	char *s, *save;

	memcpy(buf, link, dl);
	buf[dl] = '\0';
	if (dl)
		strcat(buf, "/");
	strcat(buf, target);
	out[0] = '\0';
	for (s = buf; s && *s; s = save) {
		save = strchr(s, '/');
		if (save)
			*save++ = '\0';
		if (!*s || !strcmp(s, "."))
			continue;
		if (!strcmp(s, "..")) {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
			out[o] = '\0';
			continue;
		}
		if (o)
			out[o++] = '/';
		strcpy(out + o, s);
		o += strlen(s);
	}
	free(buf);
	return out;
}

static void
walk_tree(struct walk *w, int rootfd)
{
	walk_dir(w, rootfd, "");
	qsort(w->e, w->n, sizeof(*w->e), cmp_wentry);
	for (size_t i = 0; i < w->n; i++) {
		const char *slash = strrchr(w->e[i].path, '/');
		char buf[4096];
		ssize_t n;

		if (slash) {
			size_t dl = (size_t)(slash - w->e[i].path);
			char *dir = xmalloc(dl + 1);
			struct wentry *d;

			memcpy(dir, w->e[i].path, dl);
			dir[dl] = '\0';
			d = walk_find(w, dir);
			if (d)
				d->nchildren++;
			free(dir);
		}
		if (w->e[i].type != S_IFLNK)
			continue;
		n = readlinkat(rootfd, w->e[i].path, buf, sizeof(buf) - 1);
		if (n >= 0) {
			char *res;
			struct wentry *t;

			buf[n] = '\0';
			res = resolve_link(w->e[i].path, buf);
			t = walk_find(w, res);
			if (t)
				t->protected = 1;
			free(res);
		}
	}
}

static uint64_t
random_hist_size(struct rng *r)
{
	uint64_t total = 0, u;

	for (size_t b = 0; b < ARRAY_SIZE(size_hist); b++)
		total += size_hist[b].count;
	u = rng_below(r, total);
	for (size_t b = 0; b < ARRAY_SIZE(size_hist); b++) {
		if (u < size_hist[b].count) {
			uint64_t lo = size_bin_edge(size_hist[b].bin);
			uint64_t hi = size_bin_edge(size_hist[b].bin + 1u);

			return hi > lo ? rng_range(r, lo, hi - 1) : lo;
		}
		u -= size_hist[b].count;
	}
	return 1024;
}

static char *
read_whole(int rootfd, const char *path, size_t *len)
{
	int fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0)
		die("cannot open '%s': %s", path, strerror(errno));
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("cannot read '%s': %s", path,
			    n ? strerror(errno) : "short read");
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return buf;
}

static void
write_whole(int rootfd, const char *path, const char *buf, size_t len,
	    const struct timespec *times)
{
	int fd = openat(rootfd, path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0 || write_all(fd, buf, len) < 0 ||
	    futimens(fd, times) < 0 || close(fd) < 0)
		die("cannot rewrite '%s': %s", path, strerror(errno));
}

static int
is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* Another character of the same class as c. */
static char
other_char(struct rng *r, char c)
{
	uint64_t k = rng_range(r, 1, 9);

	if (c >= '0' && c <= '9')
		return (char)('0' + (c - '0' + k) % 10);
	if (c >= 'a' && c <= 'z')
		return (char)('a' + (c - 'a' + k) % 26);
	return (char)('A' + (c - 'A' + k) % 26);
}

/*
 * Edit one file: either flip a few characters inside 1-3 lines (same
 * size) or replace, insert or delete 1-3 lines (size changes).  The first
 * line, which holds the content id, is never touched.
 */
static void
edit_file(int rootfd, const char *path, const struct pool *pool,
	  struct rng *r, const struct timespec *times)
{
	size_t len, nlines = 0, *starts;
	char *buf = read_whole(rootfd, path, &len);
	int changed = 0;

	starts = xmalloc(sizeof(*starts) * (len + 2));
	for (size_t i = 0; i < len; i++)
		if (i == 0 || buf[i - 1] == '\n')
			starts[nlines++] = i;
	starts[nlines] = len;

	if (nlines >= 3 && rng_one_in(r, 2)) {
		int nedit = (int)rng_range(r, 1, 3);

		for (int k = 0; k < nedit * 8 && changed < nedit; k++) {
			size_t l = (size_t)rng_range(r, 1, nlines - 1);
			size_t a = starts[l], b = starts[l + 1];
			int flips = 0;

			for (size_t tries = 0; tries < 16 && b > a; tries++) {
				size_t at = a + (size_t)rng_below(r, b - a);

				if (is_alnum(buf[at])) {
					buf[at] = other_char(r, buf[at]);
					flips++;
				}
				if (flips >= 2)
					break;
			}
			changed += flips > 0;
		}
		if (changed) {
			write_whole(rootfd, path, buf, len, times);
			free(starts);
			free(buf);
			return;
		}
	}

	/* size-changing edit: rebuild the file around 1-3 edit points */
	{
		struct sb out = { 0 };
		int nedit = (int)rng_range(r, 1, 3);
		size_t at[3];
		int op[3];

		for (int k = 0; k < nedit; k++) {
			at[k] = nlines > 1 ? (size_t)rng_range(r, 1, nlines - 1)
					   : nlines;
			op[k] = (int)rng_below(r, 3);
		}
		sb_add(&out, buf, starts[nlines > 1 ? 1 : nlines]);
		for (size_t l = 1; l <= nlines; l++) {
			int keep = l < nlines;

			for (int k = 0; k < nedit; k++) {
				if (at[k] != l)
					continue;
				if (op[k] == 0 && l < nlines)
					keep = 0;	/* delete */
				else if (op[k] == 1 && l < nlines)
					keep = 0;	/* replace */
				if (op[k] != 0 || l == nlines)
					fresh_line(&out, r, &pool->fresh);
			}
			if (keep)
				sb_add(&out, buf + starts[l],
				       starts[l + 1] - starts[l]);
		}
		if (out.len == len && !memcmp(out.buf, buf, len))
			fresh_line(&out, r, &pool->fresh);
		write_whole(rootfd, path, out.buf, out.len, times);
		free(out.buf);
	}
	free(starts);
	free(buf);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

#define PATCH_EDITS 10
#define PATCH_ADDS 2

static int
cmd_patch(const char *dir, uint64_t seed, uint64_t k)
{
	struct walk w = { 0 };
	struct pool pool;
	struct rng r;
	struct timespec times[2];
	const char *touched[PATCH_EDITS + PATCH_ADDS + 1];
	size_t ntouched = 0, *files, nfiles = 0, *dirs, ndirs = 0;
	int rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char name[NAME_MAX_GEN + 16];

	if (rootfd < 0)
		die("cannot open directory '%s': %s", dir, strerror(errno));
	times[0].tv_sec = EPOCH_2020 + (time_t)(k * PATCH_STEP);
	times[1].tv_sec = times[0].tv_sec;
	times[0].tv_nsec = times[1].tv_nsec = 0;
	walk_tree(&w, rootfd);
	pool_init(&pool, seed);
	rng_init(&r, seed, STREAM_PATCH, k);

	files = xmalloc(sizeof(*files) * (w.n + 1));
	dirs = xmalloc(sizeof(*dirs) * (w.n + 1));
	for (size_t i = 0; i < w.n; i++) {
		if (w.e[i].type == S_IFREG && w.e[i].size >= 64)
			files[nfiles++] = i;
		else if (w.e[i].type == S_IFDIR)
			dirs[ndirs++] = i;
	}
	if (nfiles < PATCH_EDITS + 1)
		die("'%s' has too few files to patch", dir);

	/* edits: PATCH_EDITS distinct files of at least 64 bytes */
	for (int n = 0; n < PATCH_EDITS; n++) {
		size_t j = n + (size_t)rng_below(&r, nfiles - (size_t)n);
		size_t t = files[n];

		files[n] = files[j];
		files[j] = t;
		edit_file(rootfd, w.e[files[n]].path, &pool, &r, times);
		touched[ntouched++] = w.e[files[n]].path;
	}

	/* one deletion: not edited, no link's target, no dir's last entry */
	for (size_t tries = 0; tries < 4 * nfiles; tries++) {
		size_t j = PATCH_EDITS +
			   (size_t)rng_below(&r, nfiles - PATCH_EDITS);
		struct wentry *e = &w.e[files[j]];
		const char *slash = strrchr(e->path, '/');
		uint32_t siblings = 2;

		if (e->protected)
			continue;
		if (slash) {
			char *parent = xmalloc((size_t)(slash - e->path) + 1);
			struct wentry *pd;

			memcpy(parent, e->path, (size_t)(slash - e->path));
			parent[slash - e->path] = '\0';
			pd = walk_find(&w, parent);
			siblings = pd ? pd->nchildren : 0;
			free(parent);
		}
		if (siblings < 2)
			continue;
		if (unlinkat(rootfd, e->path, 0) < 0)
			die("cannot delete '%s': %s", e->path, strerror(errno));
		touched[ntouched++] = e->path;
		if (slash) {
			char *parent = xmalloc((size_t)(slash - e->path) + 1);

			memcpy(parent, e->path, (size_t)(slash - e->path));
			parent[slash - e->path] = '\0';
			utimensat(rootfd, parent, times, 0);
			free(parent);
		}
		break;
	}

	/* additions: next to an existing file, or in a new directory */
	for (int n = 0; n < PATCH_ADDS; n++) {
		const char *parent = w.e[files[rng_below(&r, nfiles)]].path;
		const char *slash = strrchr(parent, '/');
		size_t pl = slash ? (size_t)(slash - parent) : 0;
		struct sb path = { 0 };
		struct stat st;
		uint64_t size;
		int fd;

		if (rng_one_in(&r, 4) && ndirs) {
			const char *d = w.e[dirs[rng_below(&r, ndirs)]].path;

			/* a new directory under an existing one */
			do {
				path.len = 0;
				sb_str(&path, d);
				sb_ch(&path, '/');
				gen_name(name, &r, dir_name_len(&r), '_');
				sb_str(&path, name);
				sb_ch(&path, '\0');
			} while (fstatat(rootfd, path.buf, &st,
					 AT_SYMLINK_NOFOLLOW) == 0);
			if (mkdirat(rootfd, path.buf, 0777) < 0)
				die("cannot create directory '%s': %s",
				    path.buf, strerror(errno));
			path.len--;
		} else {
			sb_add(&path, parent, pl);
		}
		pl = path.len;
		do {
			path.len = pl;
			if (pl)
				sb_ch(&path, '/');
			gen_name(name, &r, stem_len(&r), '_');
			sb_str(&path, name);
			sb_str(&path, exts[rng_below(&r, EXT_NONE)].ext);
			sb_ch(&path, '\0');
		} while (!fstatat(rootfd, path.buf, &st, AT_SYMLINK_NOFOLLOW));
		do {
			size = random_hist_size(&r);
		} while (size < 64);
		fd = openat(rootfd, path.buf,
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			die("cannot create '%s': %s", path.buf,
			    strerror(errno));
		write_content(fd, path.buf, &pool, seed,
			      PATCH_UID_BASE + k * 16 + (uint64_t)n, size);
		if (futimens(fd, times) < 0 || close(fd) < 0)
			die("cannot write '%s': %s", path.buf, strerror(errno));
		if (pl) {
			path.buf[pl] = '\0';
			utimensat(rootfd, path.buf, times, 0);
			path.buf[pl] = '/';
		}
		touched[ntouched++] = arena_strndup(path.buf, path.len - 1);
		free(path.buf);
	}

	qsort(touched, ntouched, sizeof(*touched), cmp_str);
	for (size_t i = 0; i < ntouched; i++)
		if (!i || strcmp(touched[i], touched[i - 1]))
			puts(touched[i]);
	free(files);
	free(dirs);
	free(w.e);
	pool_release(&pool);
	close(rootfd);
	return 0;
}

static const char usage_text[] =
"usage: gen-tree [--scale F] [--size-scale F] [--seed N] [--list] [-v] <dir>\n"
"   or: gen-tree --files N --size S [--seed N] [--list] [-v] <dir>\n"
"   or: gen-tree --one-file SIZE [--seed N] [-v] <path>\n"
"   or: gen-tree --patch K [--seed N] <dir>\n"
"\n"
"Write a deterministic linux-shaped tree (78,635 entries, 5,096 directories,\n"
"about 1.3 GB at scale 1) into <dir>, which must be empty or absent.\n"
"Same seed and arguments give a byte-identical tree on any machine.\n"
"\n"
"  --scale F       scale entry and directory counts by F (default 1)\n"
"  --size-scale F  scale every non-empty file's size by F (at least 1\n"
"                  byte; default 1): many entries in a few GB\n"
"  --seed N        seed of every random choice (default 1)\n"
"  --files N       instead: N files d000/f00000.. of exactly --size bytes\n"
"  --size S        file size for --files (suffix k, M, G: powers of 1024)\n"
"  --one-file SIZE instead: one file of SIZE bytes at <path>\n"
"  --patch K       apply patch K of a series to a tree made with the same\n"
"                  seed: edit 10 files, add 2, delete 1; print the paths\n"
"  --list          print the paths that would be written, sorted; write\n"
"                  nothing (<dir> is then optional)\n"
"  -v, --verbose   print a summary with the time taken on stderr\n"
"\n"
"All mtimes are 2020-01-01 00:00:00 UTC (patch K: plus K hours).\n";

/* Print "gen-tree: <what>[ '<arg>']" and the usage; exit 1. */
static _Noreturn void
usage_error(const char *what, const char *arg)
{
	if (arg)
		fprintf(stderr, "%s: %s '%s'\n", progname, what, arg);
	else
		fprintf(stderr, "%s: %s\n", progname, what);
	fputs(usage_text, stderr);
	exit(1);
}

static uint64_t
parse_u64(const char *opt, const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	if (!s || !*s || *s == '-')
		die("%s: expected a number, got '%s'", opt, s ? s : "");
	v = strtoull(s, &end, 0);
	if (errno || *end)
		die("%s: expected a number, got '%s'", opt, s);
	return v;
}

/* A size with an optional k/M/G suffix (powers of 1024). */
static uint64_t
parse_size(const char *opt, const char *s)
{
	char *end;
	uint64_t v, mul = 1;

	errno = 0;
	if (!s || !*s || *s == '-')
		die("%s: expected a size, got '%s'", opt, s ? s : "");
	v = strtoull(s, &end, 10);
	if (*end == 'k' || *end == 'K')
		mul = 1ULL << 10, end++;
	else if (*end == 'm' || *end == 'M')
		mul = 1ULL << 20, end++;
	else if (*end == 'g' || *end == 'G')
		mul = 1ULL << 30, end++;
	if (*end == 'i' && mul > 1)
		end++;
	if (*end == 'B' && mul > 1)
		end++;
	if (errno || *end || end == s || v > UINT64_MAX / mul)
		die("%s: expected a size, got '%s'", opt, s);
	return v * mul;
}

/* A decimal scale factor, as millionths; integer parsing, no libm. */
static uint64_t
parse_scale(const char *opt, const char *s)
{
	uint64_t ppm = 0, unit = 1000000;
	const char *p;
	int digits = 0;

	for (p = s; *p >= '0' && *p <= '9'; p++, digits++) {
		ppm = ppm * 10 + (uint64_t)(*p - '0');
		if (ppm > 1000)
			die("%s: '%s' is too large (at most 1000)", opt, s);
	}
	ppm *= unit;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			unit /= 10;
			ppm += (uint64_t)(*p - '0') * unit;
		}
	}
	if (*p || !digits || !ppm)
		die("%s: expected a positive decimal number, got '%s'", opt,
		    s);
	return ppm;
}

int
main(int argc, char **argv)
{
	uint64_t seed = 1, ppm = 1000000, nfiles = 0, size = 0, patch = 0;
	uint64_t one_size = 0;
	int list = 0, have_files = 0, have_size = 0, have_one = 0;
	int have_scale = 0, ret;
	const char *dir = NULL;

	umask(022);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		char opt[32];

		if (a[0] != '-' || !strcmp(a, "-")) {
			if (dir)
				usage_error("too many arguments:", a);
			dir = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			if (i + 1 < argc)
				dir = argv[++i];
			if (i + 1 < argc)
				usage_error("too many arguments:",
					    argv[i + 1]);
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
			continue;
		}
		if (!strcmp(a, "--list")) {
			list = 1;
			continue;
		}
		eq = strchr(a, '=');
		if (eq && (size_t)(eq - a) < sizeof(opt)) {
			memcpy(opt, a, (size_t)(eq - a));
			opt[eq - a] = '\0';
			val = eq + 1;
		} else {
			snprintf(opt, sizeof(opt), "%s", a);
		}
		if (strcmp(opt, "--scale") && strcmp(opt, "--seed") &&
		    strcmp(opt, "--size-scale") &&
		    strcmp(opt, "--files") && strcmp(opt, "--size") &&
		    strcmp(opt, "--one-file") && strcmp(opt, "--patch"))
			usage_error("unknown option", a);
		if (!val) {
			if (i + 1 >= argc)
				usage_error("missing value of option", a);
			val = argv[++i];
		}
		if (!strcmp(opt, "--scale")) {
			ppm = parse_scale(opt, val);
			have_scale = 1;
		} else if (!strcmp(opt, "--size-scale")) {
			size_ppm = parse_scale(opt, val);
			have_scale = 1;
		} else if (!strcmp(opt, "--seed")) {
			seed = parse_u64(opt, val);
		} else if (!strcmp(opt, "--files")) {
			nfiles = parse_u64(opt, val);
			have_files = 1;
		} else if (!strcmp(opt, "--size")) {
			size = parse_size(opt, val);
			have_size = 1;
		} else if (!strcmp(opt, "--one-file")) {
			one_size = parse_size(opt, val);
			have_one = 1;
		} else {
			patch = parse_u64(opt, val);
			if (!patch)
				die("--patch: K starts at 1");
		}
	}
	if (have_files + have_one + !!patch > 1)
		usage_error("--files, --one-file and --patch exclude each "
			    "other", NULL);
	if (have_scale && (have_files || have_one || patch))
		usage_error("--scale and --size-scale apply to the tree mode "
			    "only", NULL);
	if (have_files != have_size)
		usage_error("--files and --size go together", NULL);
	if (list && (have_one || patch))
		usage_error("--list applies to the tree and --files modes",
			    NULL);
	if (!dir && !list)
		usage_error("missing <dir>", NULL);

	if (have_one)
		ret = cmd_one_file(dir, seed, one_size);
	else if (patch)
		ret = cmd_patch(dir, seed, patch);
	else if (have_files)
		ret = cmd_files(dir, seed, nfiles, size, list);
	else
		ret = cmd_tree(dir, seed, ppm, list);
	arena_release();
	free(write_buf);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write to stdout");
	return ret;
}
