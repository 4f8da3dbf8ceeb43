require "pty"
require "expect"

PTY.spawn(*ARGV) do |r, w, pid|
  r.expect(/Project name:/, 5) or abort "no name prompt"
  w.puts "demo"
  r.expect(/Use TypeScript\? \(y\/n\)/, 5) or abort "no ts prompt"
  w.puts "y"
  Process.wait(pid)
end
abort "config missing" unless File.exist?("demo/config.json")
puts "prompts ok"
