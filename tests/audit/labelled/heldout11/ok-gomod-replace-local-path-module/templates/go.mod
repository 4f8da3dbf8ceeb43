module example.com/service

go 1.22

require example.com/shared v0.3.0

// local development only: remove before tagging a release
replace example.com/shared => ../shared
