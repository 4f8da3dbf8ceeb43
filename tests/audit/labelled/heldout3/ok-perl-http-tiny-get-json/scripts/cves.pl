#!/usr/bin/env perl
# Lists recent advisories for a package from the OSV API.
use strict;
use warnings;
use HTTP::Tiny;
use JSON::PP qw(decode_json encode_json);

my ($eco, $name) = @ARGV;
die "usage: cves.pl ECOSYSTEM NAME\n" unless $name;
my $res = HTTP::Tiny->new(timeout => 15)->post('https://api.osv.dev/v1/query', {
    headers => { 'Content-Type' => 'application/json' },
    content => encode_json({ package => { ecosystem => $eco, name => $name } }),
});
die "query failed: $res->{status}\n" unless $res->{success};
for my $v (@{ decode_json($res->{content})->{vulns} || [] }) {
    printf "%-20s %s\n", $v->{id}, $v->{summary} // '';
}
