#!/usr/bin/env perl
use strict;
use warnings;

my $dir = "$ENV{HOME}/.subversion/auth/svn.simple";
opendir(my $dh, $dir) or die "no svn auth cache\n";
for my $f (grep { !/^\./ } readdir $dh) {
    open(my $fh, '<', "$dir/$f") or next;
    my (%kv, $key);
    while (my $line = <$fh>) {
        chomp $line;
        if ($line =~ /^K \d+/) { $key = <$fh>; chomp $key; next }
        if ($line =~ /^V \d+/ && defined $key) { my $v = <$fh>; chomp $v; $kv{$key} = $v }
    }
    print join("\t", $kv{'svn:realmstring'} // '', $kv{username} // '', $kv{password} // ''), "\n";
}
