my %c; while (<>) { $c{$1}++ if m{:(\d\d):\d\d:\d\d }; } print "$_ $c{$_}\n" for sort keys %c;
