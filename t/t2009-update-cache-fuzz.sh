#!/bin/sh
test_description='update-cache --stdin, -z --stdin and --index-info on random input

Random lines (seeded, so a failure replays): paths good and bad (.git,
.., absolute, empty components, trailing slashes, C-quoted, badly
quoted, long, with spaces and high bytes), modes, ids, stages, the
three --index-info line formats and their mangled forms (T2009_SEED,
T2009_ROUNDS).  Every round:
no crash (exit 0, 1, 128 or 129 only), an index that fails is left
byte for byte as it was with no lock behind, an index that succeeds is
one git reads; and every round runs git update-index on the same input
from the same state: the same exit code, output, messages and index.
The number of rounds of each kind is asserted.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# T2009_ROUNDS and T2009_SEED override (the harness clears DIRC_*);
# "make test-long" runs ten times as many rounds.
ROUNDS=${T2009_ROUNDS:-50}
if test_have_prereq LONG
then
	ROUNDS=$((ROUNDS * 10))
fi
SEED=${T2009_SEED:-20261201}
echo "# seed $SEED, $ROUNDS rounds of each kind"

test_expect_success GIT 'setup: files, a directory, a symlink, objects' '
	mkdir -p d/e &&
	echo 1 >f1 &&
	echo 2 >f2 &&
	echo 3 >"sp ace" &&
	echo 4 >d/g &&
	echo 5 >d/e/h &&
	printf "\\351t\\351\\n" >"$(printf "\\303\\251t\\303\\251")" &&
	ln -s f1 lnk &&
	echo x | git hash-object -w --stdin >blob &&
	git update-index --add f1 d/g &&
	cp .git/index start.index
'

# gen KIND N: N rounds of random input of KIND (stdin, zstdin, info),
# written to in.KIND.<i>; the lines come from a seeded generator.
gen () {
	perl -e '
		my ($kind, $n, $seed, $blob, $hexsz) = @ARGV;
		srand($seed + length($kind) * 7919);
		my @paths = ("f1", "f2", "sp ace", "d/g", "d/e/h", "lnk", "nosuch",
			"d/nosuch", ".git/config", "../out", "/tmp/x", "$ENV{PWD}/f2",
			"$ENV{PWD}/d/../f1", "a//b",
			"d/", "d", "", ".", "./f2", "d/../f1", "d/e", ".GIT/x",
			"x/.git/y", "git~1/x", "f1/x", "lnk/x", "\303\251t\303\251",
			"x" x 300, "a" . ("/b" x 60), "\"f2\"", "\"d\\/g\"",
			"\"bad\\q\"", "\"unterminated", "\"sp ace\"", "\"\\303\\251\"",
			"\"tab\\there\"", "\"nl\\nx\"", "\"\\777\"", "new1", "new2",
			"d/new3", "-", "--", "*", "f?", "\x01ctl", "\xff\xfe");
		# (040000, which git takes as a gitlink and dirc refuses on
		# purpose, is t2003'"'"'s)
		my @modes = ("100644", "100755", "120000", "160000", "0",
			"644", "10x644", "777777", "", "0100644", "100664");
		# ids of the right length: the null id, a missing object, a
		# non-hex one
		my @ids = ($blob, "0" x $hexsz, substr("1234" x 16, 0, $hexsz),
			"abc", "g" x $hexsz,
			$blob . "0", substr($blob, 1), uc($blob));
		sub pick { $_[int(rand(@_))] }
		for my $i (1 .. $n) {
			open my $o, ">", "in.$kind.$i" or die; binmode $o;
			for (1 .. 1 + int(rand(6))) {
				my $p = pick(@paths);
				if ($kind eq "info") {
					my $f = int(rand(4));
					my $line = pick(@modes) . " ";
					$line .= pick("blob ", "tree ", "commit ", "") if $f == 1;
					$line .= pick(@ids);
					$line .= " " . int(rand(5)) if $f == 2;
					$line .= pick("\t", "\t", " ", "") . $p;
					$line = substr($line, 0, int(rand(length $line)))
						if $f == 3;
					print $o "$line\n";
				} elsif ($kind eq "zstdin") {
					$p =~ s/^"//;
					print $o "$p\0";
				} else {
					$p =~ s/\n//g;
					print $o "$p\n";
				}
			}
			close $o;
		}' "$1" "$2" "$SEED" "$(cat blob)" "$OID_HEXSZ"
}

# round KIND I ARGS...: one round against git; appends to rounds.KIND.
round () {
	rd_kind=$1 &&
	rd_i=$2 &&
	shift 2 &&
	cp start.index .git/index &&
	run_both -i in.$rd_kind.$rd_i "$@" &&
	code=$(cat dirc.code) &&
	case $code in
	0|1|128|129) ;;
	*) echo "dirc died ($code) on in.$rd_kind.$rd_i" >&2 && return 1 ;;
	esac &&
	test_path_is_missing .git/index.lock &&
	if test $code != 0
	then
		index_unchanged
	else
		git ls-files -s >/dev/null
	fi &&
	same_result &&
	echo $rd_i >>rounds.$rd_kind &&
	echo $code >>codes.$rd_kind
}

test_expect_success GIT "--add --remove --stdin: $ROUNDS random rounds, as git, no crash" '
	gen stdin $ROUNDS &&
	: >rounds.stdin &&
	for i in $(test_seq $ROUNDS)
	do
		round stdin $i --verbose --add --remove --stdin || {
			echo "^^^ replay: in.stdin.$i" >&2
			return 1
		}
	done &&
	test_line_count = $ROUNDS rounds.stdin
'

test_expect_success GIT "-z --stdin (with --replace): $ROUNDS random rounds, as git, no crash" '
	gen zstdin $ROUNDS &&
	: >rounds.zstdin &&
	for i in $(test_seq $ROUNDS)
	do
		round zstdin $i --add --replace -z --stdin || {
			echo "^^^ replay: in.zstdin.$i" >&2
			return 1
		}
	done &&
	test_line_count = $ROUNDS rounds.zstdin
'

test_expect_success GIT "--index-info: $ROUNDS random rounds, as git, no crash" '
	gen info $ROUNDS &&
	: >rounds.info &&
	for i in $(test_seq $ROUNDS)
	do
		round info $i --verbose --index-info || {
			echo "^^^ replay: in.info.$i" >&2
			return 1
		}
	done &&
	test_line_count = $ROUNDS rounds.info
'

# An absolute path is resolved as git resolves it: a leading directory
# that does not exist is git's "Invalid path" fatal.
test_expect_success GIT 'an absolute path under a missing directory: git'"'"'s message' '
	cp start.index .git/index &&
	run_both --add /nonexistent-dir/x &&
	same_result
'

test_expect_success GIT 'the generators produced every kind of line (the rounds were not all alike)' '
	cat in.info.* >all.info &&
	test_grep "^100644 [0-9a-f]\{$OID_HEXSZ\} [0-3]	" all.info &&
	test_grep "^[0-7]* blob " all.info &&
	test_grep "^0 " all.info &&
	cat in.stdin.* >all.stdin &&
	test_grep "^\"bad" all.stdin &&
	test_grep "^\.git/config$" all.stdin &&
	for k in stdin zstdin info
	do
		sort -u rounds.$k >seen &&
		test_line_count = $ROUNDS seen &&
		# some rounds succeeded, some failed
		test_grep "^0$" codes.$k &&
		test_grep "^128$" codes.$k || return 1
	done
'

test_done
