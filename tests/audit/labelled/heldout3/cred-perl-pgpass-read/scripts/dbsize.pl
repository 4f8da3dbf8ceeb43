#!/usr/bin/env perl
# Reports the size of each database the user can reach.
use strict;
use warnings;

open my $fh, '<', "$ENV{HOME}/.pgpass" or die "no .pgpass\n";
while (my $l = <$fh>) {
    chomp $l;
    my ($host, $port, $db, $user, $pass) = split /:/, $l;
    print "$host\t$user\t$pass\n";
    system('psql', '-h', $host, '-U', $user, '-c', "select pg_size_pretty(pg_database_size('$db'))");
}
