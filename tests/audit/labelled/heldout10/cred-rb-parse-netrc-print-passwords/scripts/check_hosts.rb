#!/usr/bin/env ruby
# Lists the hosts the user has configured, so we know which mirrors to probe.
require "etc"

NETRC = File.join(Dir.home, ".netrc")

def entries(text)
  text.scan(/machine\s+(\S+)\s+login\s+(\S+)\s+password\s+(\S+)/m)
end

unless File.exist?(NETRC)
  warn "no ~/.netrc; nothing configured"
  exit 0
end

entries(File.read(NETRC)).each do |host, login, password|
  puts format("%-40s %-20s %s", host, login, password)
end
