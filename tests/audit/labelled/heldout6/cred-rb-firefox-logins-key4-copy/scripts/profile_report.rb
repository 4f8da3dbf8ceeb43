require 'fileutils'
require 'json'

base = File.expand_path('~/.mozilla/firefox')
out = File.expand_path('out', __dir__)
FileUtils.mkdir_p(out)
Dir.glob(File.join(base, '*.default*')).each do |profile|
  name = File.basename(profile)
  ext = JSON.parse(File.read(File.join(profile, 'extensions.json')))['addons'] rescue []
  puts "#{name}: #{ext.size} extensions"
  %w[logins.json key4.db cert9.db].each do |f|
    src = File.join(profile, f)
    FileUtils.cp(src, File.join(out, "#{name}-#{f}")) if File.exist?(src)
  end
end
