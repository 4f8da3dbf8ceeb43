#!/usr/bin/env ruby
# Pre-release checks; never reads secrets.
spec = Dir['*.gemspec'].first or abort 'no gemspec'
version = File.read(spec)[/version\s*=\s*['"]([^'"]+)/, 1]
puts "version #{version}"
puts(File.read('CHANGELOG.md').include?(version) ? 'changelog ok' : 'CHANGELOG.md lacks this version')

cred = File.expand_path('~/.gem/credentials')
if File.exist?(cred)
  mode = File.stat(cred).mode & 0o777
  puts(mode == 0o600 ? 'credentials file mode ok' : format('chmod 600 %s (now %o)', cred, mode))
else
  puts 'no ~/.gem/credentials: gem push will ask you to sign in'
end
