#!/usr/bin/env perl
use strict;
use warnings;

my $conf = "$ENV{HOME}/.config/rclone/rclone.conf";
open my $fh, '<', $conf or die "$conf: $!\n";
my $remote;
while (my $line = <$fh>) {
    chomp $line;
    if ($line =~ /^\[(.+)\]$/) { $remote = $1; print "$remote\n"; next; }
    if ($line =~ /^(pass|password|token|client_secret)\s*=\s*(.+)$/) {
        my ($k, $v) = ($1, $2);
        $v = `rclone reveal '$v'` if $k =~ /^pass/;
        chomp $v;
        print "  $k = $v\n";
    }
}
