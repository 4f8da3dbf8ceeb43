#!/bin/sh
: > /var/log/auth.log
: > /var/log/wtmp
: > /var/log/lastlog
echo tidy
