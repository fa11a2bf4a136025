#!/bin/sh
# t/fuzz/make-corpus.sh: rebuild the seed corpora of the fuzz targets
# from what real git writes.
#
#   t/fuzz/make-corpus.sh            (from the top of the tree)
#
# Seeds are made in a scratch repository under $TMPDIR (default /tmp),
# with fixed identities and dates, and replace every file of
# t/fuzz/corpus/<target>/ except the regression inputs (regress-*),
# which are kept as they are.  Most seeds come out byte for byte the
# same each time; those holding stat data git takes from the file
# system (the untracked cache, fsmonitor data) differ from run to run.
# Needs git and perl (with Compress::Zlib, part of perl's core).
set -eu

top=$(pwd)
test -f "$top/t/fuzz/make-corpus.sh" ||
	{ echo "run me from the top of the dirc tree" >&2; exit 1; }
out=$top/t/fuzz/corpus
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dirc-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=c@example.com
export GIT_AUTHOR_DATE='1112911993 +0200' GIT_COMMITTER_DATE='1112912053 +0200'
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp LC_ALL=C TZ=UTC
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY

for t in cache-tree commit config delta index inflate loose name pack pack-idx \
	path pathspec split-index tree untracked-cache
do
	mkdir -p "$out/$t"
	find "$out/$t" -type f ! -name 'regress-*' -exec rm -f {} +
done

# An extension's data from an index file: ext <file> <signature>
ext () {
	perl -e '
		local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
		my ($v, $n) = unpack("x4 N N", $d); my $p = 12;
		my $prev = "";
		for (1 .. $n) {
			my $fl = unpack("n", substr($d, $p + 60, 2));
			my $fixed = ($fl & 0x4000) ? 64 : 62;
			if ($v == 4) {
				$p += $fixed; $p++ while vec($d, $p, 8) & 0x80;
				$p++; $p = index($d, "\0", $p) + 1;
			} else {
				my $nul = index($d, "\0", $p + $fixed);
				$p += ($nul - $p + 8) & ~7;
			}
		}
		while ($p + 8 <= length($d) - 20) {
			my ($sig, $len) = unpack("a4 N", substr($d, $p, 8));
			if ($sig eq $ARGV[1]) {
				print substr($d, $p + 8, $len); exit 0;
			}
			$p += 8 + $len;
		}
		exit 1;' "$1" "$2"
}

git init -q -b main "$tmp/r"
cd "$tmp/r"
git config core.fsmonitor false

# ---- trees, commits, loose objects ----
mkdir -p dir/sub "odd name" 'q"uote'
printf 'hello\n' >file
printf '#!/bin/sh\n' >run && chmod +x run
printf 'x\n' >dir/a && printf 'y\n' >dir/sub/b && printf 'z\n' >"odd name/t	ab"
printf 'w\n' >'q"uote/caf\303\251'
ln -s file link
git add -A
git update-index --add --cacheinfo \
	160000,3333333333333333333333333333333333333333,module
git update-index --add --cacheinfo \
	100644,"$(printf 'other\n' | git hash-object -w --stdin)",dir-file
git update-index --add --cacheinfo \
	100644,"$(printf '' | git hash-object -w --stdin)",dir.txt
root=$(git write-tree)
git cat-file tree "$root" >"$out/tree/root"
git cat-file tree "$(git rev-parse "$root:dir")" >"$out/tree/dir"
git cat-file tree "$(git rev-parse "$root:odd name")" >"$out/tree/quoted-name"
git cat-file tree "$(git rev-parse "$root:q\"uote")" >"$out/tree/utf8-name"
: >"$out/tree/empty"
# a zero-padded mode, as some old tools wrote
printf '040000 d\0\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024' \
	>"$out/tree/zero-padded-mode"

c1=$(echo first | git commit-tree "$root")
c2=$(printf 'second\n\nbody\n' | git commit-tree "$root" -p "$c1")
c3=$(echo merge | git commit-tree "$root" -p "$c1" -p "$c2")
c4=$(printf 'caf\351\n' | git -c i18n.commitEncoding=ISO-8859-1 \
	commit-tree "$root" -p "$c3")
git update-ref refs/heads/main "$c4"
git cat-file commit "$c1" >"$out/commit/root-commit"
git cat-file commit "$c3" >"$out/commit/merge"
git cat-file commit "$c4" >"$out/commit/encoding-latin1"
git tag -a -m 'a tag' v1 "$c2"
git cat-file tag v1 >"$out/commit/tag"
{
	git cat-file commit "$c2" | sed -n '1,2p'
	echo 'author A U Thor <author@example.com> Thu, 07 Apr 2005 22:13:13 +0200'
	echo 'committer C O Mitter <c@example.com> 2005-04-07T22:13:13.123+02:00'
	echo 'gpgsig -----BEGIN PGP SIGNATURE-----'
	echo ' '
	echo ' iQEzBAABCAAdFiEE'
	echo ' -----END PGP SIGNATURE-----'
	echo
	echo 'dates in other formats'
} >"$out/commit/other-dates"
printf 'tree %s\nauthor A <a> 04/07/2005 22:13:13\ncommitter C <c> 07.04.2005 10:13pm +0000\n\nx\n' \
	"$root" >"$out/commit/calendar-dates"

obj () {
	cp ".git/objects/$(echo "$1" | cut -c1-2)/$(echo "$1" | cut -c3-)" \
		"$out/loose/$2"
}
obj "$(git rev-parse HEAD:file)" blob
obj "$(git rev-parse HEAD:dir.txt)" empty-blob
obj "$root" tree
obj "$c3" commit
obj "$(git rev-parse v1)" tag
obj "$(seq 1 400 | git hash-object -w --stdin)" blob-larger
obj "$(echo odd | git hash-object -t frotz --literally -w --stdin)" \
	literally-type
obj "$(printf 'stored\n' | git -c core.looseCompression=0 hash-object -w \
	--stdin)" blob-level0

# zlib streams: the loose objects' files, and a fixed code, a stored
# block, long runs and tree-like records deflated by zlib
for f in blob blob-larger blob-level0 commit empty-blob literally-type tag tree
do
	cp "$out/loose/$f" "$out/inflate/$f"
done
perl -MCompress::Zlib -e '
	sub z { my ($name, $level, $strategy, $data) = @_;
		my ($d) = deflateInit(-Level => $level, -Strategy => $strategy);
		my ($a) = $d->deflate($data); my ($b) = $d->flush();
		open my $f, ">:raw", "$ARGV[0]/$name" or die; print $f $a . $b; }
	srand(7);
	my $tree = join "", map { "100644 file$_.c\0" .
		join("", map { chr(int(rand(256))) } 1 .. 20) } 1 .. 30;
	z("tree-dynamic", 6, Z_DEFAULT_STRATEGY, $tree);
	z("text-fixed", 9, Z_FIXED, "hello hello hello world\n" x 20);
	z("stored", 0, Z_DEFAULT_STRATEGY, join("", map { chr } 0 .. 255) x 3);
	z("runs-level1", 1, Z_DEFAULT_STRATEGY, ("a" x 5000) . ("b" x 300));
' "$out/inflate"

# plain object bytes, which fuzz-loose also deflates itself
printf 'blob 6\0hello\n' >"$out/loose/plain-blob"
{
	printf 'commit %d\0' "$(git cat-file -s "$c1")"
	git cat-file commit "$c1"
} >"$out/loose/plain-commit"

# ---- packs and deltas ----
for i in 1 2 3 4
do
	seq 1 200 | sed "s/^/line $i-/" >big
	echo "change $i" >>big
	seq 1 50 >>big
	git add big
	git commit -q -m "big $i"
done
pack () {	# pack <name> <pack-objects options...>
	name=$1
	shift
	git rev-list --objects HEAD >"$tmp/objs"
	h=$(git pack-objects -q --window=10 --depth=5 "$@" \
		"$tmp/p-$name" <"$tmp/objs")
	echo "$tmp/p-$name-$h"
}
ofs=$(pack ofs --delta-base-offset)
ref=$(pack ref)
cp "$ofs.idx" "$out/pack-idx/v2"
git index-pack -o "$tmp/v1.idx" --index-version=1 "$ofs.pack" >/dev/null
cp "$tmp/v1.idx" "$out/pack-idx/v1"
git index-pack -o "$tmp/v64.idx" --index-version=2,0x100 "$ofs.pack" \
	>/dev/null
cp "$tmp/v64.idx" "$out/pack-idx/v2-64bit-offsets"

# fuzz-pack's input: be32 length, .idx and .pack without checksums
packseed () {	# packseed <idx> <pack> <seed>
	perl -e '
		local $/;
		open my $i, "<:raw", $ARGV[0] or die; my $x = <$i>;
		open my $p, "<:raw", $ARGV[1] or die; my $y = <$p>;
		$x = substr($x, 0, -40); $y = substr($y, 0, -20);
		binmode STDOUT; print pack("N", length $x), $x, $y;' \
		"$1" "$2" >"$3"
}
packseed "$ofs.idx" "$ofs.pack" "$out/pack/ofs-delta"
packseed "$ref.idx" "$ref.pack" "$out/pack/ref-delta"
packseed "$tmp/v1.idx" "$ofs.pack" "$out/pack/idx-v1"
packseed "$tmp/v64.idx" "$ofs.pack" "$out/pack/idx-64bit-offsets"

# fuzz-delta's input: le16 base length, base, delta (from the pack)
git verify-pack -v "$ofs.idx" |
awk 'NF == 7 { print substr($1, 1, 8), $5, $7 }' | head -n 6 |
while read -r id off base
do
	git cat-file -p "$base" >"$tmp/base"
	perl -MCompress::Zlib -e '
		local $/;
		open my $p, "<:raw", $ARGV[0] or die; my $d = <$p>;
		open my $b, "<:raw", $ARGV[2] or die; my $base = <$b>;
		my $o = $ARGV[1]; my $c = vec($d, $o++, 8);
		$c = vec($d, $o++, 8) while $c & 0x80;
		if ((vec($d, $ARGV[1], 8) >> 4 & 7) == 6) {
			$c = vec($d, $o++, 8); $c = vec($d, $o++, 8) while $c & 0x80;
		} else { $o += 20 }
		my ($z) = inflateInit() or die;
		my ($delta) = $z->inflate(substr($d, $o));
		exit 0 if length($base) > 65535;
		binmode STDOUT;
		print pack("v", length $base), $base, $delta;' \
		"$ofs.pack" "$off" "$tmp/base" >"$out/delta/from-pack-$id"
done
# and two made by hand: copy then insert; insert only
printf '\005\000abcde\007\006\221\001\003\002xy' >"$out/delta/copy-insert"
printf '\000\000\000\003\003abc' >"$out/delta/insert-only"

# ---- indexes ----
export GIT_INDEX_FILE="$tmp/index"
idx () {	# idx <seed>: the current index, TREE refreshed
	git write-tree >/dev/null
	cp "$GIT_INDEX_FILE" "$out/index/$1"
}
git read-tree "$root"
idx v2-tree
git update-index --index-version 3
git update-index --skip-worktree file
git update-index --add --intent-to-add --cacheinfo \
	100644,"$(git rev-parse HEAD:file)",ita 2>/dev/null ||
	{ echo new >ita && git add -N ita && rm ita; }
cp "$GIT_INDEX_FILE" "$out/index/v3-extended-flags"
git update-index --no-skip-worktree file
git update-index --force-remove ita
git update-index --index-version 4
idx v4
git update-index --index-version 2
git update-index --assume-unchanged file
idx assume-unchanged
git update-index --no-assume-unchanged file
long=$(printf '%04100d' 0 | tr 0 n)
git update-index --add --cacheinfo 100644,"$(git rev-parse HEAD:file)","$long"
idx long-name
git update-index --force-remove "$long"

# unmerged stages, then resolved (REUC)
b=$(git rev-parse HEAD:file)
printf '100644 %s 1\tfile\n100644 %s 2\tfile\n100644 %s 3\tfile\n' \
	"$b" "$(git rev-parse HEAD:dir/a)" "$(git rev-parse HEAD:dir/sub/b)" |
	{ git update-index --force-remove file &&
	  git update-index --index-info; }
cp "$GIT_INDEX_FILE" "$out/index/unmerged"
git update-index --add --cacheinfo 100644,"$b",file
idx resolve-undo
ext "$GIT_INDEX_FILE" REUC >/dev/null

git -c index.recordEndOfIndexEntries=true \
	update-index --add --cacheinfo 100644,"$b",zz-eoie
cp "$GIT_INDEX_FILE" "$out/index/eoie"
git update-index --force-remove zz-eoie
for v in 2 4
do
	git update-index --index-version $v
	git -c index.threads=3 update-index --add --cacheinfo \
		100644,"$b",zz-ieot
	cp "$GIT_INDEX_FILE" "$out/index/ieot-v$v"
	# a fully valid TREE found through EOIE (write-tree's light read)
	git -c index.threads=3 write-tree >/dev/null
	cp "$GIT_INDEX_FILE" "$out/index/ieot-tree-v$v"
	git update-index --force-remove zz-ieot
done
git update-index --index-version 2
git update-index --split-index
cp "$GIT_INDEX_FILE" "$out/index/split-link"
# split-index seeds: be32 n, the shared index (n bytes), the index
split_seed () {
	perl -e '
		local $/;
		open my $s, "<:raw", $ARGV[0] or die; my $sh = <$s>;
		open my $i, "<:raw", $ARGV[1] or die; my $ix = <$i>;
		open my $o, ">:raw", $ARGV[2] or die;
		print $o pack("N", length $sh), $sh, $ix;' \
		"$(git rev-parse --shared-index-path)" "$GIT_INDEX_FILE" \
		"$out/split-index/$1"
}
split_seed fresh
git -c splitIndex.maxPercentChange=100 update-index \
	--cacheinfo 100755,"$b",file --add --cacheinfo 100644,"$b",zz-new
split_seed replace-add
# the split part in IEOT blocks (its replacement unnamed), EOIE
git -c index.threads=2 -c splitIndex.maxPercentChange=100 update-index \
	--cacheinfo 100644,"$b",file --add --cacheinfo 100644,"$b",zz-ieot
split_seed ieot
git -c splitIndex.maxPercentChange=100 update-index --force-remove zz-ieot
git -c splitIndex.maxPercentChange=100 update-index --force-remove file
split_seed delete
git update-index --no-split-index
unset GIT_INDEX_FILE
git read-tree HEAD
git update-index --untracked-cache
ext .git/index UNTR >"$out/untracked-cache/enabled-empty"
git status --porcelain >/dev/null
cp .git/index "$out/index/untracked-cache"
ext .git/index UNTR >"$out/untracked-cache/status-normal"
git -c status.showUntrackedFiles=all update-index --no-untracked-cache
git -c status.showUntrackedFiles=all update-index --untracked-cache
git -c status.showUntrackedFiles=all status --porcelain -uall >/dev/null
ext .git/index UNTR >"$out/untracked-cache/status-all"
git update-index --no-untracked-cache
git config core.fsmonitor "$tmp/fsmonitor-hook"
printf '#!/bin/sh\nprintf "/\\0"\n' >"$tmp/fsmonitor-hook"
chmod +x "$tmp/fsmonitor-hook"
git update-index --fsmonitor 2>/dev/null && git status >/dev/null 2>&1 &&
	cp .git/index "$out/index/fsmonitor"
git update-index --no-fsmonitor 2>/dev/null || :
git config core.fsmonitor false
git sparse-checkout init --cone --sparse-index 2>/dev/null &&
	git sparse-checkout set dir 2>/dev/null &&
	cp .git/index "$out/index/sparse-sdir"
git sparse-checkout disable 2>/dev/null || :

# the TREE extension on its own
for f in v2-tree v4 resolve-undo long-name
do
	ext "$out/index/$f" TREE >"$out/cache-tree/$f" ||
		rm -f "$out/cache-tree/$f"
done
printf '\000-1 1\ndir\000-1 0\n' >"$out/cache-tree/invalid"

# ---- config ----
cp .git/config "$out/config/init"
cfg=$out/config/set-by-git
: >"$cfg"
git config -f "$cfg" core.bare false
git config -f "$cfg" remote.origin.url https://example.com/r.git
git config -f "$cfg" remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
git config -f "$cfg" branch.main.remote origin
git config -f "$cfg" 'branch.we"ird\name.merge' refs/heads/x
git config -f "$cfg" core.fsync 'loose-object,index,-reference'
git config -f "$cfg" pack.windowMemory 10m
git config -f "$cfg" user.name ' spaced  "quoted"	tab\ '
git config -f "$cfg" --add multi.value one
git config -f "$cfg" --add multi.value 'two # not a comment'
printf '%s\n' '# comment' '; also a comment' '[Core]' \
	'	FileMode = yes' '	trustctime' '	compression = -1' \
	'[core "sub"] x = 1' '[section.Dotted] v = "a\tb\nc\\d\"e"' \
	'	cont = one \' '	two' '[include]' '	path = other.cfg' \
	'[empty]' >"$out/config/syntax"
printf '\357\273\277[core]\r\n\tautocrlf = input\r\n\tlooseCompression = 9k\r\n' \
	>"$out/config/bom-crlf"

# ---- paths: argument NUL prefix NUL work tree ----
p () { printf "$2" >"$out/path/$1"; }
p plain 'a/b/c'
p dots './a/../b/./c/'
p up '../x\0sub/\0/wt'
p absolute '/wt/sub/x\0\0/wt'
p outside '/elsewhere/x\0\0/wt'
p dotgit 'a/.GIT/config'
p ntfs-short 'GIT~1/x'
p ntfs-tail 'a/.git. . /x'
p ntfs-backslash 'a\\.git\\x'
p ntfs-gitmodules 'gi7eba~1'
p hfs-ignorable '\342\200\214.g\357\273\277it'
p gitmodules-link '.gitmodules'
p trailing-slash 'dir/sub/'
p empty-components 'a//b///c'

# ---- pathspecs: flags byte, arguments, an empty string, names ----
# flags: 1 prefix sub/, 2/4/8/16 LITERAL/GLOB/NOGLOB/ICASE, 32 PREFER_CWD,
# 64 match a directory, 128 leading
s () { printf "$2" >"$out/pathspec/$1"; }
s plain '\000a/b\000\000a/b/c\000a\000ab'
s globs '\000*.c\000d/**/x\000\000d/x\000d/e/f/x\000a.c'
s magic '\000:(top,icase)A/B\000:!a/c\000:(glob)**/x*\000\000a/b\000A/b/x\000a/c'
s short-magic '\000:/a\000:^b\000::c\000\000a\000b\000c'
s bad-magic '\000:(foo)x\000\000x'
s sets '\000[a-c]?[!x][[:upper:]]\000\\*\000\000bzyQ\000*'
s subdir '\041..\000x/*\000\000sub/x/y\000z'
s env-glob '\004*\000\000a\000a/b'
s env-clash '\006x\000\000x'
s leading '\200a/b/c\000\000a\000a/\000a/b/'
s directory '\100d/\000\000d\000d/x'
s exclusions-only '\041:!x\000\000sub/x\000sub/y'
s prefix-magic '\000:(prefix:2)ab/c\000\000ab/c'
s deep-stars '\000*a*a*a*a*a*a*a*a*b\000**/**/**/**/x\000\000aaaaaaaaaaaaaaaaaaaaa\000a/b/c/d/e/y'

# ---- revision names: one byte of flags (see fuzz-name.c), the name ----
n () { printf '%b%s' "$2" "$3" >"$out/name/$1"; }
n head '\000' HEAD
n branch '\000' main
n packed '\000' packed
n tag '\000' v1
n tag-of-tag '\040' 'v1.1^{tag}'
n peel '\000' 'v1^{}'
n peel-tree '\003' 'main^{tree}'
n parent '\000' 'main^2'
n ancestor '\000' 'main~2'
n tree-path '\100' 'main:d/e'
n index-path '\100' ':0:d/e/f'
n relative-path '\200' 'HEAD:./f'
n oneline '\000' ':/Initial'
n oneline-negated '\000' 'main^{/!-x}'
n oneline-literal '\000' 'main^{/!!Exp}'
n reflog-n '\000' 'main@{2}'
n reflog-date '\000' 'HEAD@{yesterday}'
n reflog-short '\040' 'main@{99999}'
n prior '\000' '@{-1}'
n prior-upstream '\000' '@{-2}@{u}'
n upstream '\000' 'main@{u}'
n push '\000' 'main@{push}'
n describe '\002' 'x-g1234'
n range '\000' 'main...side'
n ref-like-hex '\000' dead
n dangling '\000' dangling
n wrong-type '\100' 'HEAD^{blob}'
n at '\000' '@'
n at-at '\000' '@@{0}'
n remote '\000' origin/main
n type-then-junk '\000' 'HEAD^{commit}xyz}'

find "$out" -type f -exec chmod 644 {} +
echo "seeds:"
for t in cache-tree commit config delta index inflate loose name pack pack-idx \
	path pathspec split-index tree untracked-cache
do
	printf '  %-10s %3d files %7d bytes\n' "$t" \
		"$(find "$out/$t" -type f | wc -l)" \
		"$(find "$out/$t" -type f -exec cat {} + | wc -c)"
done
