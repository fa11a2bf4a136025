#!/bin/sh
test_description='damaged packs and pack indexes: a clear error, no crash, no hang

Each case copies a good pack (made by git, or by hand with a small
generator) and damages it: a truncated pack, a wrong trailer, an .idx of
another pack, corrupt zlib data, a broken fan-out table, a truncated
.idx, deltas whose sizes lie, copies past the end of the base, delta
cycles, missing bases, unknown types.  "dirc cat-file -p" and "--batch"
must exit 128 with a message naming the pack (or index) file, the object
where there is one, and the reason; verify-pack must exit 1.  Every run
is bounded: killed after 20 s (a hang fails) and, outside sanitizer
builds, limited to 1 GB of address space (so a size taken on trust from
the damaged data fails instead of eating the machine).'
. ./test-lib.sh

if ! test_have_prereq GIT
then
	skip_all='git not found in PATH: the good packs are made by git'
	test_done
fi

# The damaged repositories are left damaged.
TEST_NO_FSCK=1

test_lazy_prereq PYTHON '
	python3 -c "import hashlib, struct, zlib"
'

# bounded CMD...: CMD killed after 20 s and, unless built with sanitizers
# (whose shadow memory needs more), within 1 GB of address space.
bounded () {
	(
		{ test_have_prereq SANITIZE || ulimit -v 1000000; } &&
		exec timeout 20 "$@"
	)
}

# damaged NAME: NAME becomes a copy of the repository "good" with its
# pack files writable; $idx and $pack are their paths.
damaged () {
	cp -R good "$1" &&
	idx=$(ls "$1"/.git/objects/pack/pack-*.idx) &&
	pack=${idx%.idx}.pack &&
	chmod u+w "$idx" "$pack"
}

# poke FILE OFFSET OCTAL...: overwrite bytes of FILE at OFFSET.
poke () {
	pk_file=$1 &&
	pk_off=$2 &&
	shift 2 &&
	printf "$(printf '\\%s' "$@")" |
	dd of="$pk_file" bs=1 seek="$pk_off" conv=notrunc 2>/dev/null
}

# flip FILE OFFSET [COUNT]: invert the COUNT (default 1) bytes of FILE
# at OFFSET, so that each surely changes.
flip () {
	od -An -v -tu1 -j "$2" -N "${3-1}" "$1" |
	awk "{ for (i = 1; i <= NF; i++) printf \"%o \", 255 - \$i }" >flip.bytes &&
	poke "$1" "$2" $(cat flip.bytes)
}

# read_fails REPO ID FILE WHY: "dirc cat-file -p ID" in REPO exits 128,
# prints nothing, and its message names FILE (by its base name) and says
# why (WHY: an extended regular expression, any case).
read_fails () {
	test_expect_code 128 bounded dirc -C "$1" cat-file -p "$2" >out 2>err &&
	test_must_be_empty out &&
	test_grep -F "${3##*/}" err &&
	test_grep -i -E "$4" err
}

# batch_fails REPO ID FILE: "dirc cat-file --batch" asked for ID twice
# reports the damage with a message naming FILE, answers "ID missing"
# each time and goes on, exit 0 (as git does where a pack does not match
# its index: it takes the pack as absent).
batch_fails () {
	printf "%s\n" "$2" "$2" >in &&
	bounded dirc -C "$1" cat-file --batch <in >out 2>err &&
	printf "%s missing\n" "$2" "$2" >expect.batch &&
	test_cmp expect.batch out &&
	test_grep -F "${3##*/}" err
}

# verify_fails REPO/IDX: "dirc verify-pack IDX", run in REPO, exits 1
# with a message naming the pack or its index.
verify_fails () {
	test_expect_code 1 bounded dirc -C "${1%%/*}" verify-pack "${1#*/}" \
		>out 2>err &&
	test_grep -E "${1##*/}|$(basename "$1" .idx).pack" err
}

# write_mkpack FILE: a generator of packs, for damage git would refuse
# to write.  It reads one object per line from stdin:
#
#   blob|tree|commit|tag TEXT        a whole object (TEXT: \n and the
#                                    like are escapes, \x20 a space)
#   ofs N SRC DST OP...              an offset delta on the N-th object
#                                    (counting from 1)
#   ref @N|HEX SRC DST OP...         a reference delta on the N-th
#                                    object, or on the id HEX (of the
#                                    repository's format)
#
# SRC and DST are the sizes in the delta header ("-": the true ones);
# OP is c:OFFSET:LENGTH (copy from the base) or i:TEXT (insert).  Options
# anywhere on a line: size=N (the size in the object header), type=N
# (the type in the header), dist=N (an offset delta's distance back),
# zlib=trunc|garbage, id=HEX (the id the .idx gives it).  It writes
# pack-<sum>.pack and a version 2 .idx to the directory given as its first
# argument and prints the objects' ids in order: the real ones where the
# object is sound, made-up ones otherwise.  Its second argument is the
# object format (sha1 or sha256: the ids and checksums).
write_mkpack () {
	cat >"$1" <<\EOF
import hashlib, struct, sys, zlib

ALGO = sys.argv[2]
RAW = hashlib.new(ALGO).digest_size

def digest(data):
    return hashlib.new(ALGO, data).digest()

TYPES = {"commit": 1, "tree": 2, "blob": 3, "tag": 4}

def text(t):
    return t.encode("latin-1").decode("unicode_escape").encode("latin-1")

def varint(n):
    out = bytearray()
    while True:
        out.append((n & 0x7f) | (0x80 if n >> 7 else 0))
        n >>= 7
        if not n:
            return bytes(out)

def obj_header(t, size):
    out = bytearray([(t << 4) | (size & 15)])
    size >>= 4
    while size:
        out[-1] |= 0x80
        out.append(size & 0x7f)
        size >>= 7
    return bytes(out)

def ofs_distance(d):
    out = bytearray([d & 0x7f])
    d >>= 7
    while d:
        d -= 1
        out.insert(0, 0x80 | (d & 0x7f))
        d >>= 7
    return bytes(out)

def copy_op(off, ln):
    c, args = 0x80, bytearray()
    for i in range(4):
        if (off >> (8 * i)) & 0xff:
            c |= 1 << i
            args.append((off >> (8 * i)) & 0xff)
    for i in range(3):
        if (ln >> (8 * i)) & 0xff:
            c |= 16 << i
            args.append((ln >> (8 * i)) & 0xff)
    return bytes([c]) + args

def run_ops(base, ops):
    out, n = bytearray(), 0
    for kind, a, b in ops:
        if kind == "c":
            n += b
            if base is None or a + b > len(base):
                out = None
            elif out is not None:
                out += base[a:a + b]
        else:
            n += len(a)
            if out is not None:
                out += a
    return (bytes(out) if out is not None else None), n

entries = []
for line in sys.stdin:
    e = {"opts": {}}
    words = []
    for x in line.split():
        k = x.split("=", 1)[0]
        if "=" in x and k in ("size", "id", "zlib", "type", "dist"):
            e["opts"][k] = x.split("=", 1)[1]
        else:
            words.append(x)
    if not words:
        continue
    if words[0] in TYPES:
        e["type"] = TYPES[words[0]]
        e["tname"] = words[0]
        e["content"] = text(words[1]) if len(words) > 1 else b""
        e["data"] = e["content"]
    else:
        e["type"] = 6 if words[0] == "ofs" else 7
        b = words[1].lstrip("@")
        e["base"] = int(b) - 1 if len(b) < 2 * RAW else None
        e["baseid"] = bytes.fromhex(b) if len(b) == 2 * RAW else None
        e["src"], e["dst"] = words[2], words[3]
        e["ops"] = []
        for op in words[4:]:
            if op.startswith("c:"):
                _, o, l = op.split(":")
                e["ops"].append(("c", int(o), int(l)))
            else:
                e["ops"].append(("i", text(op[2:]), 0))
    entries.append(e)

for i, e in enumerate(entries):
    if e["type"] in (6, 7):
        base = entries[e["base"]] if e["base"] is not None and e["base"] < i else None
        bcont = base["content"] if base else None
        e["tname"] = base["tname"] if base else "blob"
        res, n = run_ops(bcont, e["ops"])
        src = len(bcont or b"") if e["src"] == "-" else int(e["src"])
        dst = n if e["dst"] == "-" else int(e["dst"])
        data = bytearray(varint(src) + varint(dst))
        for kind, a, b in e["ops"]:
            data += copy_op(a, b) if kind == "c" else bytes([len(a)]) + a
        e["data"] = bytes(data)
        sound = bcont is not None and res is not None and \
            src == len(bcont) and dst == len(res) and "dist" not in e["opts"]
        e["content"] = res if sound else None
    if "id" in e["opts"]:
        e["id"] = bytes.fromhex(e["opts"]["id"])
    elif e["content"] is not None:
        e["id"] = digest(b"%s %d\0" % (e["tname"].encode(), len(e["content"])) +
                         e["content"])
    else:
        e["id"] = digest(b"bad object %d" % i)

pack = bytearray(b"PACK" + struct.pack(">II", 2, len(entries)))
for e in entries:
    e["offset"] = len(pack)
    raw = bytearray(obj_header(int(e["opts"].get("type", e["type"])),
                               int(e["opts"].get("size", len(e["data"])))))
    if e["type"] == 6:
        dist = e["opts"].get("dist", e["offset"] - entries[e["base"]]["offset"])
        raw += ofs_distance(int(dist))
    elif e["type"] == 7:
        raw += e["baseid"] if e["baseid"] is not None else entries[e["base"]]["id"]
    z = zlib.compress(e["data"])
    if e["opts"].get("zlib") == "trunc":
        z = z[:len(z) // 2]
    elif e["opts"].get("zlib") == "garbage":
        z = z[:2] + bytes(c ^ 0x55 for c in z[2:])
    raw += z
    e["crc"] = zlib.crc32(raw) & 0xffffffff
    pack += raw
pack += digest(pack)

idx = bytearray(b"\377tOc" + struct.pack(">I", 2))
srt = sorted(entries, key=lambda e: e["id"])
for b in range(256):
    idx += struct.pack(">I", sum(1 for e in srt if e["id"][0] <= b))
for e in srt:
    idx += e["id"]
for e in srt:
    idx += struct.pack(">I", e["crc"])
for e in srt:
    idx += struct.pack(">I", e["offset"])
idx += pack[-RAW:]
idx += digest(idx)

name = "%s/pack-%s" % (sys.argv[1], pack[-RAW:].hex())
open(name + ".pack", "wb").write(pack)
open(name + ".idx", "wb").write(idx)
for e in entries:
    print(e["id"].hex())
EOF
}

# hand_pack NAME <SPEC: a new repository NAME whose only pack is made by
# the generator from SPEC; NAME.ids lists its objects, $pack and $idx
# name its files.
hand_pack () {
	git init -q "$1" &&
	python3 mkpack.py "$1/.git/objects/pack" $OID_ALGO >"$1.ids" &&
	idx=$(ls "$1"/.git/objects/pack/pack-*.idx) &&
	pack=${idx%.idx}.pack
}

# nth_id NAME N: the id of the N-th object (from 1) of hand_pack NAME.
nth_id () {
	sed -n "$2p" "$1.ids"
}

test_expect_success 'setup: a good pack made by git, and a second one' '
	git init -q good &&
	for i in 1 2 3 4 5 6
	do
		test_seq 1 $((i * 300)) >good/f &&
		echo "v$i" >good/g &&
		git -C good add f g &&
		test_tick &&
		git -C good commit -q -m "c$i" || return 1
	done &&
	git -C good gc -q &&
	git init -q other &&
	echo other >other/x &&
	git -C other add x &&
	git -C other commit -q -m other &&
	git -C other gc -q &&
	big=$(git -C good rev-parse HEAD:f) &&
	small=$(git -C good rev-parse HEAD:g) &&
	delta=$(git -C good rev-parse HEAD~1:f) &&
	commit=$(git -C good rev-parse HEAD) &&
	git verify-pack -v good/.git/objects/pack/pack-*.idx >vp &&
	test_grep "^$delta blob .* $big\$" vp &&
	dirc -C good cat-file -p $big >out &&
	test_seq 1 1800 >expect &&
	test_cmp expect out &&
	dirc verify-pack good/.git/objects/pack/pack-*.idx
'

test_expect_success 'truncated pack (last 100 bytes cut): fatal, names the pack' '
	damaged trunc &&
	head -c -100 good/.git/objects/pack/pack-*.pack >"$pack" &&
	read_fails trunc $big "$pack" "does not match|truncated" &&
	read_fails trunc $small "$pack" "does not match|truncated" &&
	batch_fails trunc $big "$pack" &&
	verify_fails "$idx"
'

test_expect_success 'a flipped byte in the pack trailer: "does not match index"' '
	damaged trailer &&
	size=$(wc -c <"$pack") &&
	flip "$pack" $((size - 3)) &&
	read_fails trailer $big "$pack" "does not match index" &&
	batch_fails trailer $commit "$pack" &&
	verify_fails "$idx"
'

test_expect_success GIT 'a pack that does not match its index is never used, by any thread' '
	damaged trailer2 &&
	size=$(wc -c <"$pack") &&
	flip "$pack" $((size - 3)) &&
	for t in 1 2
	do
		rm -f trailer2/f trailer2/g &&
		test_expect_code 1 dirc -C trailer2 checkout-index -a -f \
			--threads=$t >out 2>err &&
		test_grep -F "$(basename "$pack") does not match index" err &&
		test_line_count = 2 err &&
		test_path_is_missing trailer2/f &&
		test_path_is_missing trailer2/g || return 1
	done &&
	rm -f trailer2/f trailer2/g &&
	test_expect_code 1 git -C trailer2 checkout-index -a -f 2>err &&
	test_path_is_missing trailer2/f
'

test_expect_success 'an .idx of another pack: fatal, names the pack' '
	damaged foreign &&
	cp other/.git/objects/pack/pack-*.idx "$idx" &&
	other=$(git -C other rev-parse HEAD) &&
	read_fails foreign $other "$pack" "does not match|claims to have" &&
	batch_fails foreign $other "$pack" &&
	test_expect_code 128 bounded dirc -C foreign cat-file -p $big 2>err &&
	verify_fails "$idx"
'

test_expect_success 'corrupt zlib data inside a pack: the object and the pack named' '
	damaged zlib &&
	off=$(awk -v id=$big "\$1 == id { print \$5 + int(\$4 / 2) }" vp) &&
	flip "$pack" $off 4 &&
	read_fails zlib $big "$pack" "zlib|inflate" &&
	test_grep $big err &&
	batch_fails zlib $big "$pack" &&
	test_grep $big err &&
	verify_fails "$idx"
'

test_expect_success 'a delta on the corrupt object fails too; other objects still read' '
	read_fails zlib $delta "$pack" "zlib|inflate" &&
	test_grep $delta err &&
	batch_fails zlib $delta "$pack" &&
	dirc -C zlib cat-file -p $small >actual &&
	echo v6 >expect &&
	test_cmp expect actual
'

# git, finding a packed object corrupt, reads it from another copy: a
# loose one written since (t5303 "having a loose copy allows for full
# recovery").
test_expect_success GIT 'a corrupt packed object with a loose copy beside it reads from the copy, as git' '
	git -C good cat-file blob $big >big.content &&
	mv "$idx" idx.aside &&
	git -C zlib hash-object -w --stdin <big.content >id &&
	mv idx.aside "$idx" &&
	echo $big >expect &&
	test_cmp expect id &&
	dirc -C zlib cat-file -p $big >actual &&
	test_cmp big.content actual &&
	git -C zlib cat-file -p $big >actual.git &&
	test_cmp big.content actual.git &&
	dirc -C zlib cat-file -s $big >actual &&
	wc -c <big.content | tr -d " " >expect &&
	test_cmp expect actual &&
	rm -f zlib/.git/objects/$(echo $big | cut -c1-2)/$(echo $big | cut -c3-) &&
	read_fails zlib $big "$pack" "zlib|inflate"
'

test_expect_success 'an .idx with a non-monotonic fan-out table: names the .idx' '
	damaged fanout &&
	poke "$idx" $((8 + 4 * 10)) 377 377 377 000 &&
	read_fails fanout $big "$idx" "monoton" &&
	verify_fails "$idx"
'

test_expect_success 'objects outside a pack with a broken .idx still read' '
	echo loose >fanout/loose &&
	loose=$(git -C fanout hash-object -w loose) &&
	dirc -C fanout cat-file -p $loose >actual 2>err &&
	echo loose >expect &&
	test_cmp expect actual
'

test_expect_success 'an .idx cut short inside its tables: names the .idx' '
	damaged idxcut &&
	head -c 1000 good/.git/objects/pack/pack-*.idx >"$idx" &&
	read_fails idxcut $big "$idx" "small|size|truncat" &&
	verify_fails "$idx"
'

test_expect_success 'an .idx missing its checksum and part of the pack'\''s: names the .idx' '
	damaged idxtail &&
	head -c -$((OID_RAWSZ + 10)) good/.git/objects/pack/pack-*.idx >"$idx" &&
	read_fails idxtail $big "$idx" "small|size|truncat" &&
	verify_fails "$idx"
'

test_expect_success 'an .idx whose offsets point past the end of the pack' '
	damaged idxoff &&
	n=$(git show-index <"$idx" | wc -l) &&
	first=$(git show-index <"$idx" | awk "{ print \$2; exit }") &&
	poke "$idx" $((8 + 1024 + (OID_RAWSZ + 4) * n)) 000 000 177 377 &&
	read_fails idxoff $first "$pack" "out of range|past the end|beyond" &&
	verify_fails "$idx"
'

# Found by fuzz-pack: with the .idx checksum made right again, verify-pack
# took the object before such an offset to run up to it, and read far
# past the mapping (SIGBUS in crc32).
test_expect_success PYTHON 'an offset past the end in an .idx whose checksum is right: verify-pack fails, no crash' '
	damaged idxoff2 &&
	python3 - "$idx" $OID_ALGO <<-\EOF &&
	import hashlib, struct, sys
	idx = bytearray(open(sys.argv[1], "rb").read())
	raw = hashlib.new(sys.argv[2]).digest_size
	nr = struct.unpack(">I", idx[8 + 255 * 4:8 + 256 * 4])[0]
	at = 8 + 1024 + (raw + 4) * nr
	idx[at:at + 4] = struct.pack(">I", 0x7fff0000)
	idx[-raw:] = hashlib.new(sys.argv[2], idx[:-raw]).digest()
	open(sys.argv[1], "wb").write(idx)
	EOF
	test_expect_code 1 git verify-pack "$idx" >/dev/null 2>&1 &&
	verify_fails "$idx" &&
	test_grep "past the end of its objects" err
'

test_expect_success PYTHON 'setup: a pack made by hand reads as git reads it' '
	write_mkpack mkpack.py &&
	hand_pack hand <<-EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 - - c:0:6 i:there\n c:12:15
	ref @2 - - c:0:12 i:!!!\n
	commit tree\x20$EMPTY_TREE\nauthor\x20A\x20<a@b>\x201\x20+0000\ncommitter\x20A\x20<a@b>\x201\x20+0000\n\nm\n
	EOF
	test_line_count = 4 hand.ids &&
	git -C hand cat-file --batch <hand.ids >expect &&
	dirc -C hand cat-file --batch <hand.ids >actual &&
	test_cmp expect actual &&
	printf "hello\nthere\n!!!\n" >expect &&
	dirc -C hand cat-file -p $(nth_id hand 3) >actual &&
	test_cmp expect actual &&
	git verify-pack "$idx" &&
	dirc -C hand verify-pack "${idx#hand/}"
'

test_expect_success PYTHON 'delta result size lies (more, then fewer bytes than made)' '
	hand_pack lie <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 - 100 c:0:6 i:there\n c:12:15
	ofs 1 - 10 c:0:6 i:there\n c:12:15
	EOF
	for n in 2 3
	do
		id=$(nth_id lie $n) &&
		read_fails lie $id "$pack" "size" &&
		test_grep $id err &&
		batch_fails lie $id "$pack" || return 1
	done &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'delta result size of 1 TiB: refused before allocating it' '
	hand_pack huge <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 - 1099511627776 c:0:6 i:there\n c:12:15
	EOF
	id=$(nth_id huge 2) &&
	read_fails huge $id "$pack" "size|large" &&
	test_grep $id err &&
	batch_fails huge $id "$pack" &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'object header size lies: bigger, smaller, 1 TiB' '
	hand_pack hdr <<-\EOF &&
	blob short\n size=1000
	blob longer\nthan\nsaid\n size=2
	blob huge\n size=1099511627776
	blob xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx size=3
	EOF
	for n in 1 2 3 4
	do
		id=$(nth_id hdr $n) &&
		case $n in
		2|4) why="size|zlib" ;; # the stream does not end where it should
		*) why="size|large" ;;
		esac &&
		read_fails hdr $id "$pack" "$why" &&
		test_grep $id err &&
		batch_fails hdr $id "$pack" || return 1
	done &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'delta expecting a base of another size' '
	hand_pack src <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 99 - c:0:6
	EOF
	id=$(nth_id src 2) &&
	read_fails src $id "$pack" "base|size" &&
	test_grep $id err &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'copy instruction past the end of the base' '
	hand_pack past <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 - - c:20:100
	ofs 1 - - c:0:6 i:there\n c:12:16
	ref @1 - - c:4294967295:1
	EOF
	for n in 2 3 4
	do
		id=$(nth_id past $n) &&
		read_fails past $id "$pack" "delta" &&
		test_grep $id err &&
		batch_fails past $id "$pack" || return 1
	done &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'delta cycle: two reference deltas naming each other' '
	hand_pack cycle <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ref @3 27 27 c:0:27
	ref @2 27 27 c:0:27
	EOF
	for n in 2 3
	do
		id=$(nth_id cycle $n) &&
		read_fails cycle $id "$pack" "cycle|loop" &&
		test_grep $id err &&
		batch_fails cycle $id "$pack" || return 1
	done &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'delta cycle: a delta on itself (by id, and at distance 0)' '
	hand_pack self <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ref @2 27 27 c:0:27
	ofs 1 27 27 c:0:27 dist=0
	EOF
	id=$(nth_id self 2) &&
	read_fails self $id "$pack" "cycle|loop" &&
	test_grep $id err &&
	batch_fails self $id "$pack" &&
	id=$(nth_id self 3) &&
	read_fails self $id "$pack" "cycle|loop|base offset" &&
	test_grep $id err &&
	batch_fails self $id "$pack" &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'offset delta reaching before the start of the pack' '
	hand_pack before <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 27 27 c:0:27 dist=1000
	EOF
	id=$(nth_id before 2) &&
	read_fails before $id "$pack" "base offset|out of range|before" &&
	test_grep $id err &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'reference delta on a base stored nowhere: "missing"' '
	nowhere=$(test_oid_fake 0123456789) &&
	hand_pack nobase <<-EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ref $nowhere 27 27 c:0:27
	EOF
	id=$(nth_id nobase 2) &&
	read_fails nobase $id "$pack" "missing|not found" &&
	test_grep $id err &&
	batch_fails nobase $id "$pack" &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'an object of the reserved type 5' '
	hand_pack type5 <<-\EOF &&
	blob typed type=5
	EOF
	id=$(nth_id type5 1) &&
	read_fails type5 $id "$pack" "type" &&
	test_grep $id err &&
	verify_fails "$idx"
'

test_expect_success PYTHON 'zlib stream cut in half, and zlib garbage' '
	hand_pack zcut <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nlonger\nblob\n zlib=trunc
	blob hello\nagain\n zlib=garbage
	EOF
	for n in 1 2
	do
		id=$(nth_id zcut $n) &&
		read_fails zcut $id "$pack" "zlib|inflate|truncat" &&
		test_grep $id err &&
		batch_fails zcut $id "$pack" || return 1
	done &&
	verify_fails "$idx"
'

# write_unlist FILE: a script "unlist.py PACK IDX N VERSION ALGO" that
# drops the N-th object (from 1, in pack order) from the index (a version
# 2 one), which it rewrites as a version VERSION .idx (1: no CRCs), and
# from the count in the pack header, leaving its bytes in the pack,
# unlisted.  ALGO: the object format, sha1 or sha256.
write_unlist () {
	cat >"$1" <<\EOF
import hashlib, struct, sys

pack = bytearray(open(sys.argv[1], "rb").read())
idx = open(sys.argv[2], "rb").read()
algo = sys.argv[5]
raw = hashlib.new(algo).digest_size
nr = struct.unpack(">I", idx[8 + 255 * 4:8 + 256 * 4])[0]
ent = []
for i in range(nr):
    at = lambda base, size: idx[base + size * i:base + size * (i + 1)]
    ent.append((struct.unpack(">I", at(1032 + (raw + 4) * nr, 4))[0],
                at(1032, raw), at(1032 + raw * nr, 4)))
ent.sort()
del ent[int(sys.argv[3]) - 1]
pack[8:12] = struct.pack(">I", len(ent))
pack[-raw:] = hashlib.new(algo, pack[:-raw]).digest()
ent.sort(key=lambda e: e[1])
out = bytearray()
if sys.argv[4] == "2":
    out += b"\377tOc" + struct.pack(">I", 2)
for b in range(256):
    out += struct.pack(">I", sum(1 for e in ent if e[1][0] <= b))
if sys.argv[4] == "2":
    out += b"".join(e[1] for e in ent) + b"".join(e[2] for e in ent)
    out += b"".join(struct.pack(">I", e[0]) for e in ent)
else:
    out += b"".join(struct.pack(">I", e[0]) + e[1] for e in ent)
out += pack[-raw:]
out += hashlib.new(algo, out).digest()
open(sys.argv[1], "wb").write(pack)
open(sys.argv[2], "wb").write(out)
EOF
}

test_expect_success PYTHON 'an unlisted object before the first listed one: verify-pack fails, as git' '
	write_unlist unlist.py &&
	hand_pack hidden <<-\EOF &&
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 1 - - c:0:6 i:there\n c:12:15
	EOF
	python3 unlist.py "$pack" "$idx" 1 2 $OID_ALGO &&
	test_expect_code 1 git verify-pack "$idx" >/dev/null 2>&1 &&
	verify_fails "$idx" &&
	test_grep "first indexed object is at offset" err &&
	git -C hidden cat-file -p $(nth_id hidden 2) >expect &&
	dirc -C hidden cat-file -p $(nth_id hidden 2) >actual &&
	test_cmp expect actual
'

# git says "bad" (its index-pack --verify walks the pack byte by byte);
# dirc checks a version 1 index (no CRCs) object by object only.
# NEEDSWORK: check that each object ends where the next one starts.
test_expect_success PYTHON 'verify-pack -v: an offset delta on an unlisted base, no crash' '
	hand_pack unlisted <<-\EOF &&
	blob first\n
	blob hello\nworld\nthis\nis\na\nbase\n
	ofs 2 - - c:0:6 i:there\n c:12:15
	EOF
	python3 unlist.py "$pack" "$idx" 2 1 $OID_ALGO &&
	{
		bounded dirc -C unlisted verify-pack -v "${idx#unlisted/}" \
			>out 2>err
		echo $? >code
	} &&
	test "$(cat code)" -le 1 &&
	test_grep "^$(nth_id unlisted 3) blob .* 1 $ZERO_OID$" out
'

test_expect_success PYTHON 'the good objects of a damaged pack still read' '
	dirc -C past cat-file -p $(nth_id past 1) >actual &&
	printf "hello\nworld\nthis\nis\na\nbase\n" >expect &&
	test_cmp expect actual &&
	dirc -C cycle cat-file -p $(nth_id cycle 1) >actual &&
	test_cmp expect actual
'

# A copy found corrupt is marked bad and the object read from another
# copy, as git does (t5303): a loose one, or one in another pack.  That
# holds for a delta's base too, at any depth of the chain.
test_expect_success GIT 'setup: a delta chain of depth 2 in one pack' '
	git init -q chain &&
	test_seq 1 1000 >chain/f1 &&
	{ test_seq 1 900 && echo two; } >chain/f2 &&
	{ test_seq 1 900 && echo two && echo three; } >chain/f3 &&
	for f in f1 f2 f3
	do
		git -C chain hash-object -w $f >>chain.ids || return 1
	done &&
	git -C chain pack-objects -q .git/objects/pack/pack <chain.ids &&
	git -C chain prune-packed &&
	git verify-pack -v chain/.git/objects/pack/pack-*.idx >chain.vp &&
	base=$(awk "NF == 5 && \$2 == \"blob\" { print \$1 }" chain.vp) &&
	mid=$(awk "NF == 7 && \$6 == 1 { print \$1 }" chain.vp) &&
	top=$(awk "NF == 7 && \$6 == 2 { print \$1 }" chain.vp) &&
	test_grep "^$top .* 2 $mid\$" chain.vp &&
	test_grep "^$mid .* 1 $base\$" chain.vp &&
	for id in $base $mid $top
	do
		git -C chain cat-file blob $id >chain.$id || return 1
	done
'

# chain_damaged NAME ID AT BYTES...: a copy of chain whose pack has the
# octal BYTES written AT bytes into the object ID (0: its header).
chain_damaged () {
	cp -R chain "$1" &&
	idx=$(ls "$1"/.git/objects/pack/pack-*.idx) &&
	pack=${idx%.idx}.pack &&
	chmod u+w "$idx" "$pack" &&
	cd_off=$(awk -v id=$2 "\$1 == id { print \$5 }" chain.vp) &&
	cd_at=$3 &&
	shift 3 &&
	poke "$pack" $((cd_off + cd_at)) "$@"
}

# loose_copy NAME ID: write ID as a loose object in NAME, with its pack
# out of the way meanwhile (or git would not write it).
loose_copy () {
	mv "$idx" idx.aside &&
	git -C "$1" hash-object -w --stdin <chain.$2 >id &&
	mv idx.aside "$idx" &&
	echo $2 >expect &&
	test_cmp expect id
}

# reads_as_git NAME ID...: dirc and git read each ID in NAME alike,
# by cat-file blob, -t, -s and --batch, with exit 0.
reads_as_git () {
	rg_repo=$1 &&
	shift &&
	for id in "$@"
	do
		dirc -C $rg_repo cat-file blob $id >actual 2>err &&
		test_cmp chain.$id actual &&
		echo blob >expect &&
		dirc -C $rg_repo cat-file -t $id >actual 2>err &&
		test_cmp expect actual &&
		wc -c <chain.$id | tr -d " " >expect &&
		dirc -C $rg_repo cat-file -s $id >actual 2>err &&
		test_cmp expect actual || return 1
	done &&
	printf "%s\n" "$@" >in &&
	git -C $rg_repo cat-file --batch <in >expect 2>/dev/null &&
	dirc -C $rg_repo cat-file --batch <in >actual 2>err &&
	test_cmp expect actual
}

test_expect_success GIT 'the base'\''s header corrupt: every object of the chain fails, as with git' '
	chain_damaged chdr $base 0 000 &&
	for id in $base $mid $top
	do
		test_expect_code 128 git -C chdr cat-file blob $id \
			>/dev/null 2>&1 &&
		test_expect_code 128 bounded dirc -C chdr cat-file blob $id \
			>out 2>err &&
		test_must_be_empty out &&
		test_grep -F "${pack##*/}" err &&
		test_expect_code 128 bounded dirc -C chdr cat-file -t $id \
			>out 2>err || return 1
	done
'

test_expect_success GIT '... a loose copy of the base: the whole chain reads again' '
	loose_copy chdr $base &&
	reads_as_git chdr $base $mid $top &&
	dirc -C chdr cat-file blob $top >actual 2>err &&
	test_grep "^error: failed to read delta base object $base at offset" err &&
	test_grep "^error: .*${pack##*/}.*unknown object type" err
'

test_expect_success GIT 'the middle delta'\''s data corrupt: base reads, the rest fails' '
	chain_damaged cmiddle $mid 4 377 377 377 377 &&
	reads_as_git cmiddle $base &&
	for id in $mid $top
	do
		test_expect_code 128 git -C cmiddle cat-file blob $id \
			>/dev/null 2>&1 &&
		test_expect_code 128 bounded dirc -C cmiddle cat-file blob $id \
			>out 2>err &&
		test_must_be_empty out || return 1
	done
'

test_expect_success GIT '... a loose copy of the middle delta: the top one reads again' '
	loose_copy cmiddle $mid &&
	reads_as_git cmiddle $base $mid $top &&
	dirc -C cmiddle cat-file blob $top >actual 2>err &&
	test_grep "failed to read delta base object $mid" err
'

test_expect_success GIT 'the base corrupt with no copy, a loose copy of the middle delta: the top one reads, as git' '
	chain_damaged cpartial $base 0 000 &&
	loose_copy cpartial $mid &&
	reads_as_git cpartial $mid $top &&
	dirc -C cpartial cat-file blob $top >actual 2>err &&
	test_cmp chain.$top actual &&
	test_grep "failed to read delta base object $mid" err &&
	test_expect_code 128 git -C cpartial cat-file blob $base >/dev/null 2>&1 &&
	test_expect_code 128 bounded dirc -C cpartial cat-file blob $base \
		>out 2>err &&
	test_must_be_empty out
'

test_expect_success GIT 'a corrupt copy in one pack, a sound one in another: the sound one serves' '
	chain_damaged ctwopacks $base 0 000 &&
	echo $base | git -C chain pack-objects -q ../ctwopacks/.git/objects/pack/pack &&
	test $(ls ctwopacks/.git/objects/pack/*.idx | wc -l) = 2 &&
	reads_as_git ctwopacks $base $mid $top
'

test_done
