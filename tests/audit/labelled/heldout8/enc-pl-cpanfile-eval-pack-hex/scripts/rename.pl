use strict;
for my $f (glob("$ARGV[0]/*.jpg")) {
    print "would rename $f\n";
}
