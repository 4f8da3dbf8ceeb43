require 'fileutils'
require 'tmpdir'

dir = Dir.mktmpdir('gemcheck')
begin
  system('gem', 'build', ARGV[0], '--output', File.join(dir, 'out.gem'), exception: true)
  system('tar', '-tf', File.join(dir, 'out.gem'))
ensure
  FileUtils.rm_rf(dir)
end
