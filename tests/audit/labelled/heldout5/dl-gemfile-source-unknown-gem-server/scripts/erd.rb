require "rails_erd/diagram/graphviz"
root = ARGV.fetch(0)
Dir.chdir(root) { require File.expand_path("config/environment", root) }
RailsERD::Diagram::Graphviz.create(filename: "erd", filetype: :svg)
puts "erd.svg"
