#!/usr/bin/env ruby
# Installs a pinned shellcheck release after verifying its checksum.
require "net/http"
require "digest"
require "fileutils"

VERSION = "0.10.0"
URL = URI("https://github.com/koalaman/shellcheck/releases/download/v#{VERSION}/shellcheck-v#{VERSION}.linux.x86_64.tar.xz")
SHA256 = "6c881ab0698e4e6ea235245f22832860544f17ba386442fe7e9d629f8cbedf87"

body = Net::HTTP.get(URL)
abort "checksum mismatch" unless Digest::SHA256.hexdigest(body) == SHA256
dir = File.expand_path("~/.local/bin")
FileUtils.mkdir_p(dir)
IO.popen(["tar", "-xJ", "-C", dir, "--strip-components=1", "shellcheck-v#{VERSION}/shellcheck"], "w") { |io| io.write(body) }
puts "shellcheck #{VERSION} installed in #{dir}"
