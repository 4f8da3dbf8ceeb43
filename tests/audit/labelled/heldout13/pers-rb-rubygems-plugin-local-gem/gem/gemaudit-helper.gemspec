Gem::Specification.new do |s|
  s.name = 'gemaudit-helper'
  s.version = '0.3.0'
  s.summary = 'Helpers for the gem-audit skill'
  s.authors = ['gem-audit']
  s.files = ['lib/rubygems_plugin.rb', 'lib/gemaudit_helper.rb']
  s.license = 'MIT'
end
