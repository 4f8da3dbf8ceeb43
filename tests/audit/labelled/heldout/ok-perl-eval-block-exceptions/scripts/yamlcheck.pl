#!/usr/bin/perl
use strict;
use warnings;
use YAML::XS qw(LoadFile);

my $bad = 0;
for my $f (@ARGV) {
    eval { LoadFile($f); 1 } or do {
        print "$f: $@";
        $bad++;
    };
}
exit($bad ? 1 : 0);
