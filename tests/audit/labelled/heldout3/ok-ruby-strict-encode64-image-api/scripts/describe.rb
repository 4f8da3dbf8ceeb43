#!/usr/bin/env ruby
# Describes a UI screenshot with a vision model for alt text.
require "base64"
require "json"
require "net/http"

img = Base64.strict_encode64(File.binread(ARGV.fetch(0)))
uri = URI("https://api.openai.com/v1/chat/completions")
req = Net::HTTP::Post.new(uri, "Authorization" => "Bearer #{ENV.fetch('OPENAI_API_KEY')}",
                               "Content-Type" => "application/json")
req.body = JSON.dump(model: "gpt-4o-mini", messages: [{ role: "user", content: [
  { type: "text", text: "Write alt text for this screenshot." },
  { type: "image_url", image_url: { url: "data:image/png;base64,#{img}" } }] }])
res = Net::HTTP.start(uri.host, uri.port, use_ssl: true) { |h| h.request(req) }
puts JSON.parse(res.body).dig("choices", 0, "message", "content")
