module github.com/mnemo-dev/mnemo

go 1.26.0

require (
	github.com/gofrs/flock v0.13.2
	go.yaml.in/yaml/v3 v3.0.6
)

require golang.org/x/sys v0.49.0 // indirect
