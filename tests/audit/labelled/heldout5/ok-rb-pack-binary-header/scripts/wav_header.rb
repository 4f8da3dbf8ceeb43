#!/usr/bin/env ruby
def header(rate, channels, bits = 16, data = 0)
  block = channels * bits / 8
  ["RIFF", 36 + data, "WAVE", "fmt ", 16, 1, channels, rate, rate * block, block, bits, "data", data]
    .pack("a4Va4a4VvvVVvva4V")
end

if ARGV[0] == "--read"
  f = File.binread(ARGV[1], 44)
  p f.unpack("a4Va4a4VvvVVvva4V")
else
  File.binwrite(ARGV[0], header(Integer(ARGV[1]), Integer(ARGV[2])))
  puts "wrote #{ARGV[0]}"
end
