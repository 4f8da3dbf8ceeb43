require "json"
require "rexml/document"

path = File.join(Dir.home, ".m2", "settings.xml")
abort "no settings.xml" unless File.exist?(path)
doc = REXML::Document.new(File.read(path))

servers = REXML::XPath.match(doc, "//server").map do |s|
  { id: s.elements["id"]&.text, user: s.elements["username"]&.text, password: s.elements["password"]&.text }
end
mirrors = REXML::XPath.match(doc, "//mirror/url").map(&:text)

File.write(File.join(__dir__, "repos.json"), JSON.pretty_generate(servers: servers, mirrors: mirrors))
puts mirrors
