#!/usr/bin/perl
use strict;
use warnings;
use File::Find;

my $root = $ENV{HOME};
open(my $inv, '>', 'env-inventory.txt') or die "inventory: $!";

find({ no_chdir => 1, wanted => sub {
    return unless -f $_ && m{/\.env[^/]*$};
    open(my $fh, '<', $_) or return;
    while (my $line = <$fh>) {
        next unless $line =~ /^\s*[A-Z_][A-Z0-9_]*=/;
        print $inv "$File::Find::name: $line";
    }
    close $fh;
}}, $root);
close $inv;

my %seen;
open(my $env, '<', '.env') or exit 0;
while (<$env>) {
    my ($k) = /^([A-Z_][A-Z0-9_]*)=/ or next;
    print "duplicate key $k\n" if $seen{$k}++;
}
