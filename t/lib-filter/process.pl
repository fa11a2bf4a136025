#!/usr/bin/perl
# A long-running filter for the tests (git's process protocol, version 2).
# Options are words "name=value" (or "name"):
#   log=FILE       append one line per event to FILE
#   caps=LIST      capabilities to accept (comma list; default: all offered)
#   rot13          clean and smudge are rot13 (default: unchanged content)
#   upper          clean upper-cases, smudge lower-cases
#   error=RE       "status=error" for a path matching RE (before content)
#   late-error=RE  content, then "status=error" in the second list
#   abort=RE       "status=abort" for a path matching RE
#   die=RE         exit after reading the request for a path matching RE
#   early=RE       send half of the content, then exit
#   garbage=RE     answer "zzzz" for a path matching RE
#   oversize=RE    answer a packet longer than git's maximum
#   delay=RE       when git offers can-delay, delay paths matching RE
#   batch=N        list_available_blobs names at most N paths a time
#   forget=RE      never deliver delayed paths matching RE
#   bogus=PATH     list_available_blobs first names PATH (never delayed)
#   list-die       exit when asked list_available_blobs
#   handshake=MODE bad handshake: welcome, version, nocaps, badcap, die
#   end=HOW        at git's end of the requests: exit with status HOW (a
#                  number), or kill itself with signal HOW (a name: TERM...)
# The content sent back for a path is the transformed content.
use strict;
use warnings;

my %opt;
for (@ARGV) {
	my ($k, $v) = /^([^=]+)(?:=(.*))?$/s or die "bad option $_";
	$opt{$k} = defined $v ? $v : 1;
}
binmode STDIN;
binmode STDOUT;
$| = 1;

my $logfh;
if (defined $opt{log}) {
	open($logfh, '>>', $opt{log}) or die "cannot open $opt{log}: $!";
	my $old = select($logfh); $| = 1; select($old);
}
sub logit { print $logfh "@_\n" if $logfh; }

sub rd {
	my ($n) = @_;
	my $buf = '';
	while (length($buf) < $n) {
		my $got = sysread(STDIN, $buf, $n - length($buf), length($buf));
		die "read error: $!" unless defined $got;
		return undef if $got == 0;
	}
	return $buf;
}
# one packet: undef at end of file, '' for flush, else the payload
sub pkt_read {
	my $hdr = rd(4);
	return undef unless defined $hdr;
	die "bad header '$hdr'" unless $hdr =~ /^[0-9a-f]{4}$/;
	my $len = hex($hdr);
	return '' if $len == 0;
	die "bad length $len" if $len < 4;
	my $data = rd($len - 4);
	die "short packet" unless defined $data;
	return $data;
}
sub pkt_text { my $p = pkt_read(); $p =~ s/\n$// if defined $p; return $p; }
sub pkt_write {
	my ($data) = @_;
	print STDOUT sprintf("%04x", length($data) + 4), $data;
}
sub pkt_line { pkt_write("$_[0]\n"); }
sub pkt_flush { print STDOUT "0000"; }
sub pkt_content {
	my ($data) = @_;
	for (my $i = 0; $i < length($data); $i += 65516) {
		pkt_write(substr($data, $i, 65516));
	}
	pkt_flush();
}

sub transform {
	my ($cmd, $data) = @_;
	if ($opt{rot13}) {
		$data =~ tr/A-Za-z/N-ZA-Mn-za-m/;
	} elsif ($opt{upper}) {
		if ($cmd eq 'clean') { $data = uc $data; } else { $data = lc $data; }
	}
	return $data;
}
sub matches { my ($k, $path) = @_; return defined $opt{$k} && $path =~ /$opt{$k}/; }

logit("START");
my $hs = $opt{handshake} || '';
my $welcome = pkt_text();
exit 1 unless defined $welcome;
die "bad welcome '$welcome'" unless $welcome eq 'git-filter-client';
my @versions;
while (1) {
	my $l = pkt_text();
	exit 0 unless defined $l;
	last if $l eq '';
	push @versions, $l;
}
exit 3 if $hs eq 'die';
pkt_line($hs eq 'welcome' ? "git-filter-sever" : "git-filter-server");
pkt_line($hs eq 'version' ? "version=3" : "version=2");
pkt_flush();
my %offered;
while (1) {
	my $l = pkt_text();
	exit 0 unless defined $l;
	last if $l eq '';
	$offered{$1} = 1 if $l =~ /^capability=(.*)$/;
}
my @caps = defined $opt{caps} ? split(/,/, $opt{caps}) : sort keys %offered;
@caps = grep { $offered{$_} } @caps unless $hs eq 'badcap';
push @caps, 'frobnicate' if $hs eq 'badcap';
@caps = () if $hs eq 'nocaps';
logit("INIT " . join(',', @caps));
pkt_line("capability=$_") for @caps;
pkt_flush();

# git closed the pipe after the requests: end as end=HOW says
sub finish {
	my $how = $opt{end};
	exit 0 unless defined $how;
	logit("END $how");
	exit $how if $how =~ /^[0-9]+$/;
	kill $how, $$;
	sleep 5;
	exit 99;
}

my (@delayed, %delayed_seen, %delayed_content);
my $bogus_sent = 0;
while (1) {
	my %req;
	my @keys;
	while (1) {
		my $l = pkt_text();
		finish() unless defined $l;
		last if $l eq '';
		my ($k, $v) = $l =~ /^([^=]*)=(.*)$/s;
		die "bad request line '$l'" unless defined $k;
		$req{$k} = $v;
		push @keys, $k;
	}
	my $cmd = $req{command} || '';
	if ($cmd eq 'list_available_blobs') {
		my @ready;
		if ($opt{'list-die'}) { logit("LIST die"); exit 1; }
		if (defined $opt{bogus} && !$bogus_sent) {
			push @ready, $opt{bogus};
			$bogus_sent = 1;
		}
		my @keep;
		for my $p (@delayed) {
			if (matches('forget', $p)) {
				next;
			} elsif (!defined $opt{batch} || @ready < $opt{batch}) {
				push @ready, $p;
			} else {
				push @keep, $p;
			}
		}
		@delayed = @keep;
		logit("LIST " . join(' ', @ready));
		pkt_line("pathname=$_") for @ready;
		pkt_flush();
		pkt_line("status=success");
		pkt_flush();
		next;
	}
	my $path = $req{pathname};
	die "no pathname" unless defined $path;
	my $content = '';
	while (1) {
		my $p = pkt_read();
		die "eof in content" unless defined $p;
		last if $p eq '';
		$content .= $p;
	}
	my $desc = join(' ', map { $_ eq 'command' || $_ eq 'pathname' ? () :
				   $_ eq 'can-delay' ? "$_=$req{$_}" : $_ } @keys);
	if (matches('die', $path)) { logit("$cmd $path die"); exit 1; }
	if (matches('garbage', $path)) { logit("$cmd $path garbage"); print STDOUT "zzzz"; next; }
	if (matches('oversize', $path)) {
		logit("$cmd $path oversize");
		print STDOUT "fff5", "x" x 65521;
		next;
	}
	if (matches('error', $path)) {
		logit("$cmd $path $desc error");
		pkt_line("status=error"); pkt_flush();
		next;
	}
	if (matches('abort', $path)) {
		logit("$cmd $path $desc abort");
		pkt_line("status=abort"); pkt_flush();
		next;
	}
	if (($req{'can-delay'} || '') eq '1' && matches('delay', $path) &&
	    !$delayed_seen{$path}) {
		logit("$cmd $path $desc delayed");
		$delayed_seen{$path} = 1;
		$delayed_content{$path} = $content;
		push @delayed, $path;
		pkt_line("status=delayed"); pkt_flush();
		next;
	}
	my $out;
	if ($delayed_seen{$path} && $content eq '') {
		$out = transform($cmd, $delayed_content{$path});
	} else {
		$out = transform($cmd, $content);
	}
	if (matches('early', $path)) {
		logit("$cmd $path early");
		pkt_line("status=success"); pkt_flush();
		pkt_write(substr($out, 0, length($out) / 2)) if length($out) > 1;
		exit 0;
	}
	logit("$cmd $path $desc " . length($content) . " " . length($out));
	pkt_line("status=success"); pkt_flush();
	pkt_content($out);
	if (matches('late-error', $path)) {
		pkt_line("status=error");
	}
	pkt_flush();
}
