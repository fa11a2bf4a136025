# lib-catalogue.sh: helpers for the bad-input catalogue scripts (t60xx),
# sourced after test-lib.sh.  Documentation/technical/errors.md lists
# every case and the test that checks it.

# craft [-n] IN OUT 'PERL': OUT is the index IN with the perl code applied
# to $d (IN without its trailing checksum), followed by the hash (SHA-1 or
# SHA-256, the tests' object format: OID_ALGO) of the result; with -n the
# old checksum is kept instead.
craft () {
	cr_keep=0
	if test "$1" = -n
	then
		cr_keep=1
		shift
	fi
	perl -MDigest::SHA -e '
		my ($in, $out, $keep, $code, $algo, $rawsz) = @ARGV;
		open my $f, "<", $in or die "$in: $!"; binmode $f;
		local $/; my $all = <$f>; close $f;
		my $d = substr($all, 0, length($all) - $rawsz);
		my $sum = substr($all, -$rawsz);
		eval $code; die $@ if $@;
		open my $o, ">", $out or die "$out: $!"; binmode $o;
		print $o $d, ($keep ? $sum :
			Digest::SHA->new($algo eq "sha256" ? 256 : 1)->add($d)->digest);
		close $o;' \
		"$1" "$2" $cr_keep "$3" "$OID_ALGO" "$OID_RAWSZ"
}

# mkindex OUT <LINES: a version 2 index of the entries on stdin, one per
# line "MODE ID STAGE<TAB>NAME" (octal mode, hex id), written in the order
# given (sorted or not), stat data zero, with a valid checksum (in the
# tests' object format, as the ids must be).  For entries no dirc or git
# command would write.
mkindex () {
	perl -MDigest::SHA -e '
		my @e;
		while (my $l = <STDIN>) {
			chomp $l;
			my ($meta, $name) = split /\t/, $l, 2;
			my ($mode, $id, $stage) = split / /, $meta;
			push @e, [oct($mode), pack("H*", $id), $stage, $name];
		}
		my $d = "DIRC" . pack("NN", 2, scalar @e);
		for my $x (@e) {
			my ($mode, $id, $stage, $name) = @$x;
			my $len = length($name);
			my $flags = ($stage << 12) | ($len < 0xfff ? $len : 0xfff);
			my $ent = pack("N10", 0, 0, 0, 0, 0, 0, $mode, 0, 0, 0) .
				$id . pack("n", $flags) . $name;
			$ent .= "\0" x (8 - (length($ent) % 8));
			$d .= $ent;
		}
		open my $o, ">", $ARGV[0] or die "$ARGV[0]: $!"; binmode $o;
		print $o $d,
			Digest::SHA->new($ARGV[1] eq "sha256" ? 256 : 1)->add($d)->digest;
		close $o;' "$1" "$OID_ALGO"
}

# object_path ID: the loose object file of ID in .git/objects.
object_path () {
	echo .git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-)
}

# Every file under .git/objects, sorted.
snapshot_objects () {
	(cd .git/objects && find . -type f -print) | sort
}

# state_save: remember the index bytes and the object store;
# state_unchanged: they are as saved, and no index.lock is left.
state_save () {
	if test -f .git/index
	then
		cp .git/index "$TRASH_DIRECTORY/.state-index"
	else
		rm -f "$TRASH_DIRECTORY/.state-index"
	fi &&
	snapshot_objects >"$TRASH_DIRECTORY/.state-objects"
}

state_unchanged () {
	if test -f "$TRASH_DIRECTORY/.state-index"
	then
		test_cmp "$TRASH_DIRECTORY/.state-index" .git/index
	else
		test_path_is_missing .git/index
	fi &&
	test_path_is_missing .git/index.lock &&
	snapshot_objects >"$TRASH_DIRECTORY/.state-objects-now" &&
	test_cmp "$TRASH_DIRECTORY/.state-objects" \
		"$TRASH_DIRECTORY/.state-objects-now"
}

# git_code CMD...: run git, record its exit code in git.code, its
# stdout and stderr in git.out and git.err; never fails.
git_code () {
	git "$@" >git.out 2>git.err
	echo $? >git.code
}

# code_is N: git.code holds N; N may list alternatives ("128|signal"),
# "signal" meaning git died of one (a code above 128, the shell's report).
code_is () {
	ci_got=$(cat git.code) &&
	for ci_want in $(echo "$1" | tr "|" " ")
	do
		case $ci_want in
		signal) test "$ci_got" -gt 128 && return 0 ;;
		*) test "$ci_got" = "$ci_want" && return 0 ;;
		esac
	done
	echo "$1" >expect.code &&
	test_cmp expect.code git.code
}
