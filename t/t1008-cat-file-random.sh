#!/bin/sh
test_description='random input to cat-file'"'"'s batch languages and hash-object --stdin-paths

Seeded random lines (names that resolve, abbreviations, paths, revision
syntax, mutated names, garbage bytes, very long lines), random formats
(every atom, literals, "%", bad atoms) and random --batch-command
scripts are fed to dirc.  Whatever the input, dirc never dies by a
signal; a batch answers every line and exits 0 unless the format or a
command line is bad (128, nothing answered for a bad format).  Rounds of
names git and dirc resolve alike are compared with git byte for byte.
hash-object --stdin-paths gets random path lists (files, missing ones,
directories, C-quoted names, bad quoting) and is compared with git.
Each loop counts its rounds, and the counts are checked: a loop that ran
zero times fails.  DIRC_TEST_SEED picks another seed.'
. ./test-lib.sh

SEED=${DIRC_TEST_SEED:-1008}
if test_have_prereq LONG
then
	ROUNDS=${DIRC_TEST_ROUNDS:-300}
else
	ROUNDS=${DIRC_TEST_ROUNDS:-10}
fi

test_expect_success GIT 'setup: objects to name, and the generator' '
	printf "hello\n" >hello &&
	mkdir -p dir/sub &&
	echo a >dir/a &&
	echo b >dir/sub/b &&
	ln -s hello link &&
	ln -s dir dirlink &&
	ln -s ../nope dir/broken &&
	git add hello dir link dirlink &&
	test_tick &&
	git commit -q -m one &&
	git tag -a -m t v1 &&
	# two blobs whose ids share 4 digits (as in t1001)
	case $OID_ALGO in
	sha1) ca=401 cb=565 ;;
	sha256) ca=131 cb=329 ;;
	esac &&
	a=$(echo $ca | git hash-object -w --stdin) &&
	echo $cb | git hash-object -w --stdin >/dev/null &&
	git rev-list --objects --all | cut -c1-$OID_HEXSZ >ids &&
	echo $a >>ids &&
	test_line_count -gt 10 ids &&
	cat >gen.pl <<-\EOF &&
	use strict; use warnings;
	my ($seed, $kind, $nlines, $idfile) = @ARGV;
	srand($seed);
	open my $fh, "<", $idfile or die; my @ids = map { chomp; $_ } <$fh>;
	my $hexsz = length $ids[0];
	my @paths = qw(hello dir dir/a dir/sub dir/sub/b link dirlink dir/broken
		nope dir/nope dir/a/x link/x dirlink/a dirlink/sub/b);
	my @revs = ("HEAD", "v1", "HEAD^{tree}", "HEAD^{commit}", "v1^{}",
		"HEAD~0", "HEAD^0", "master", "refs/heads/master", "\@",
		"HEAD^{blob}", "HEAD~1", "HEAD^2", "v1^{tree}", "nosuch");
	sub pick { $_[int(rand(@_))] }
	sub garbage {
		my $n = 1 + int(rand(shift));
		my $g = join "", map { chr(1 + int(rand(255))) } 1..$n;
		$g =~ tr/\n/./;
		return $g;
	}
	sub name {
		my $r = rand();
		my $id = pick(@ids);
		return $id if $r < 0.2;
		return substr($id, 0, 4 + int(rand($hexsz - 3))) if $r < 0.3;
		return uc(substr($id, 0, 4 + int(rand($hexsz - 3)))) if $r < 0.33;
		return pick(@revs) . ":" . pick(@paths) if $r < 0.5;
		return ":" . pick(@paths) if $r < 0.55;
		return pick(@revs) if $r < 0.65;
		return "$id:" . pick(@paths) if $r < 0.68;
		if ($r < 0.85) {	# a mutated name
			my $s = name();
			my $p = int(rand(length($s) + 1));
			my $op = int(rand(3));
			substr($s, $p, 1) = "" if $op == 0 && length $s;
			substr($s, $p, 0) = pick(":", "^", "{", "}", "~", "@", "/",
				".", "..", " ", "\t", "\r", "%", "-") if $op == 1;
			$s .= pick("^{}", "^{tree}", "~3", ":", "/", "^{/x}",
				"\@{0}", "\@{-1}") if $op == 2;
			return $s;
		}
		return garbage(40) if $r < 0.97;
		return pick("", " ", ":", "::", "^", "~", "\@{", "HEAD:" . ("a/" x 2000),
			"x" x 10000);
	}
	sub rand_format {
		my @atoms = ("%(objectname)", "%(objecttype)", "%(objectsize)",
			"%(objectsize:disk)", "%(deltabase)", "%(rest)");
		my $f = "";
		for (1..int(rand(5))) {
			my $r = rand();
			$f .= $r < 0.6 ? pick(@atoms) : $r < 0.8 ? pick(" ", "|", "x", "\t")
				: $r < 0.9 ? pick("%", "%%", "%x", "%%(") : "";
		}
		return $f;
	}
	sub bad_format { pick("%(bogus)", "%(objectname", "%(", "%()",
		"%(objectsize:foo)", "%(Rest)") }
	if ($kind eq "names") {
		print name(), "\n" for 1..$nlines;
	} elsif ($kind eq "format") {
		print rand() < 0.1 ? bad_format() : rand_format();
	} elsif ($kind eq "commands") {
		for (1..$nlines) {
			my $r = rand();
			print $r < 0.45 ? "info " . name() : $r < 0.9 ? "contents " . name()
				: $r < 0.97 ? "flush"
				: pick("", " info HEAD", "bogus", "info", "flush x", "INFO x");
			print "\n";
		}
	} elsif ($kind eq "safe") {	# names git and dirc resolve alike
		for (1..$nlines) {
			my $r = rand();
			my $id = pick(@ids);
			print $r < 0.4 ? $id : $r < 0.6 ? substr($id, 0, 7)
				: $r < 0.8 ? "HEAD:" . pick(@paths) : "v1^{tree}:" . pick(@paths);
			print rand() < 0.3 ? " rest " . int(rand(100)) : "";
			print "\n";
		}
	}
	EOF
	perl gen.pl 1 names 5 ids >sample &&
	test_line_count = 5 sample
'

# no_signal CODE: a dirc exit code that is not a crash (0, 1, 128, 129).
no_signal () {
	case $1 in
	0|1|128|129) return 0 ;;
	*) echo "dirc exited with $1" && return 1 ;;
	esac
}

test_expect_success GIT 'random names: every line answered, exit 0, never a crash' '
	round=0 answered=0 &&
	while test $round -lt $ROUNDS
	do
		perl gen.pl $((SEED + round)) names 40 ids >in &&
		for b in --batch-check "--batch-check=%(objectname) %(rest)" --batch
		do
			{ dirc cat-file "$b" <in >out 2>err; code=$?; } &&
			no_signal $code &&
			if test "$b" != --batch
			then
				test $code = 0 &&
				test_line_count = 40 out
			fi || return 1
		done &&
		{ dirc cat-file --batch-check --follow-symlinks <in >out 2>err; code=$?; } &&
		no_signal $code &&
		test $code = 0 &&
		answered=$((answered + $(wc -l <out))) &&
		round=$((round + 1)) || return 1
	done &&
	test $round = $ROUNDS &&
	test $answered -ge $((ROUNDS * 40))
'

test_expect_success GIT 'random formats: bad ones die at once, good ones answer every line' '
	round=0 bad=0 good=0 &&
	while test $round -lt $ROUNDS
	do
		perl gen.pl $((SEED + round)) format 0 ids >fmt &&
		perl gen.pl $((SEED + round)) names 10 ids >in &&
		{ dirc cat-file --batch-check="$(cat fmt)" <in >out 2>err; code=$?; } &&
		no_signal $code &&
		{ git cat-file --batch-check="$(cat fmt)" </dev/null >/dev/null 2>&1; gcode=$?; } &&
		if test $gcode = 128
		then
			test $code = 128 &&
			test_must_be_empty out &&
			bad=$((bad + 1))
		else
			test $code = 0 &&
			good=$((good + 1))
		fi &&
		round=$((round + 1)) || return 1
	done &&
	test $round = $ROUNDS &&
	test $bad -gt 0 &&
	test $good -gt 0
'

test_expect_success GIT 'random --batch-command scripts: 0 or git'"'"'s 128 at a bad line, never a crash' '
	round=0 ok=0 died=0 &&
	while test $round -lt $ROUNDS
	do
		perl gen.pl $((SEED + round)) commands 25 ids >cmds &&
		for buf in --buffer --no-buffer
		do
			{ dirc cat-file --batch-command $buf <cmds >out 2>err; code=$?; } &&
			no_signal $code &&
			case $code in
			0) ok=$((ok + 1)) ;;
			128) test_grep "^fatal: " err && died=$((died + 1)) ;;
			*) false ;;
			esac || return 1
		done &&
		round=$((round + 1)) || return 1
	done &&
	test $round = $ROUNDS &&
	test $ok -gt 0 &&
	test $died -gt 0
'

test_expect_success GIT 'random -z input: every record answered' '
	round=0 &&
	while test $round -lt $ROUNDS
	do
		perl gen.pl $((SEED + round)) names 20 ids | tr "\n" "\000" >in &&
		{ dirc cat-file -z --batch-check <in >out 2>err; code=$?; } &&
		no_signal $code &&
		test $code = 0 &&
		test_line_count = 20 out &&
		round=$((round + 1)) || return 1
	done &&
	test $round = $ROUNDS
'

test_expect_success GIT 'rounds of names git and dirc resolve alike: the same bytes as git' '
	round=0 &&
	while test $round -lt $ROUNDS
	do
		perl gen.pl $((SEED + round)) safe 30 ids >in &&
		for b in --batch-check --batch "--batch-check=%(rest)|%(objectname)" \
			"--batch=%(objecttype) %(objectsize)"
		do
			dirc cat-file "$b" <in >dirc.out 2>dirc.err &&
			git cat-file "$b" <in >git.out 2>git.err &&
			test_cmp git.out dirc.out &&
			test_cmp git.err dirc.err || return 1
		done &&
		sed "s/^/info /" in >cmds &&
		dirc cat-file --batch-command --buffer <cmds >dirc.out &&
		git cat-file --batch-command --buffer <cmds >git.out &&
		test_cmp git.out dirc.out &&
		round=$((round + 1)) || return 1
	done &&
	test $round = $ROUNDS
'

test_expect_success GIT 'hash-object --stdin-paths: random path lists, as git' '
	mkdir files &&
	i=0 &&
	while test $i -lt 20
	do
		perl -e "srand($SEED + $i); print map { chr(int(rand(256))) } 1..int(rand(3000))" \
			>files/f$i &&
		i=$((i + 1)) || return 1
	done &&
	printf "x\n" >"files/tab	name" &&
	printf "y\n" >"files/quo\"te" &&
	cat >paths.pl <<-\EOF &&
	srand(shift);
	my @p = (map({ "files/f$_" } 0..19), "files/nope", "files", "\"files/tab\\tname\"",
		"\"files/quo\\\"te\"", "\"files/bad", "\"files/f1\"x", "\"\\777\"", "");
	for (1..1 + int(rand(12))) {
		my $r = rand();
		print $r < 0.85 ? $p[int(rand(20))] : $p[20 + int(rand(@p - 20))], "\n";
	}
	EOF
	round=0 same=0 died=0 &&
	while test $round -lt $ROUNDS
	do
		perl paths.pl $((SEED + round)) >paths &&
		t=$(perl -e "srand($SEED + $round); print((qw(blob bogus), q(a b), q(x) x 300)[int(rand(4))])") &&
		# other types: git 2.50+ refuses them, 2.39 takes them
		if test_have_prereq GIT_NEW
		then
			# half the rounds blobs, so that some succeed
			g=git_new &&
			if test $((round % 2)) = 1
			then
				t=blob
			fi
		else
			g=git t=blob
		fi &&
		{ dirc hash-object -t "$t" --literally --stdin-paths <paths >dirc.out 2>dirc.err; code=$?; } &&
		no_signal $code &&
		{ $g hash-object -t "$t" --literally --stdin-paths <paths >git.out 2>git.err; gcode=$?; } &&
		test $code = $gcode &&
		test_cmp git.out dirc.out &&
		if test $code = 0
		then
			same=$((same + 1))
		else
			died=$((died + 1))
		fi &&
		round=$((round + 1)) || return 1
	done &&
	test $round = $ROUNDS &&
	test $same -gt 0 &&
	test $died -gt 0
'

test_done
