#!/bin/sh
test_description='lib/ modules include one another in one direction only

Each module (lib/<m>.c and lib/<m>.h) may include the headers of lower
modules; a cycle (repo.h and odb.h including each other, say) means two
modules that cannot be understood, built or tested apart.  The include
graph of lib/ is read from the sources and must have no cycle.'
. ./test-lib.sh

LIB=$TEST_DIRECTORY/../lib

# cycles DIR: every include cycle among the modules of DIR, one per line
# ("a -> b -> a"), nothing when there is none.  A module's private
# header, <m>-internal.h, is part of module <m>.
cycles () {
	perl -e '
		my $dir = shift;
		my %g;
		for my $f (glob("$dir/*.c"), glob("$dir/*.h")) {
			my ($m) = $f =~ m{([^/]+)\.[ch]$};
			$m =~ s/-internal$//;
			open my $fh, "<", $f or die "$f: $!";
			while (<$fh>) {
				next unless /^\s*#\s*include\s+"([^"\/]+)\.h"/;
				(my $d = $1) =~ s/-internal$//;
				$g{$m}{$d} = 1 if $d ne $m && -e "$dir/$1.h";
			}
		}
		my (%state, @stack, %seen);
		my $walk;
		$walk = sub {
			my ($n) = @_;
			$state{$n} = 1;
			push @stack, $n;
			for my $d (sort keys %{$g{$n} || {}}) {
				if (($state{$d} || 0) == 1) {
					my @c = @stack;
					shift @c while $c[0] ne $d;
					my $key = join " ", sort @c;
					print join(" -> ", @c, $d), "\n"
						unless $seen{$key}++;
				} elsif (!$state{$d}) {
					$walk->($d);
				}
			}
			pop @stack;
			$state{$n} = 2;
		};
		$walk->($_) for sort keys %g;' "$1"
}

test_expect_success 'the checker finds a cycle it is shown' '
	mkdir fake &&
	printf "#include \"b.h\"\n" >fake/a.h &&
	printf "#include \"c.h\"\n" >fake/b.c &&
	: >fake/b.h &&
	printf "#include \"a.h\"\n#include \"util.h\"\n" >fake/c.h &&
	cycles fake >found &&
	echo "a -> b -> c -> a" >expect &&
	test_cmp expect found
'

test_expect_success 'lib/ has no include cycle' '
	test -f "$LIB/index.h" &&
	cycles "$LIB" >found &&
	test_must_be_empty found
'

test_done
