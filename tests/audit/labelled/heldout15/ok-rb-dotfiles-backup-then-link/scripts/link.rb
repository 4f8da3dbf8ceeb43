#!/usr/bin/env ruby
require "fileutils"

repo = File.expand_path(ARGV.fetch(0))
backup = File.join(Dir.home, ".dotfiles-backup", Time.now.strftime("%Y%m%d%H%M%S"))

Dir.children(File.join(repo, "home")).each do |name|
  src = File.join(repo, "home", name)
  dst = File.join(Dir.home, name)
  if File.exist?(dst) || File.symlink?(dst)
    next if File.symlink?(dst) && File.readlink(dst) == src
    FileUtils.mkdir_p(backup)
    FileUtils.mv(dst, File.join(backup, name))
    puts "backed up #{dst}"
  end
  File.symlink(src, dst)
  puts "linked #{dst}"
end
