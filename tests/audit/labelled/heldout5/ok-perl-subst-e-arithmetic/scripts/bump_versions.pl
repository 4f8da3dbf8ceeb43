#!/usr/bin/env perl
use strict;
use warnings;
use File::Find;

find(sub {
    return unless /\.pm$/;
    local @ARGV = ($_);
    local $^I = '';
    while (<>) {
        s/(\$VERSION\s*=\s*'\d+\.)(\d+)(')/$1 . sprintf('%02d', $2 + 1) . $3/e;
        print;
    }
}, shift // 'lib');
