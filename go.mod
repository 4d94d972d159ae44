module github.com/phasechat/phasechat

go 1.26

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	go.uber.org/goleak v1.3.0
	golang.org/x/text v0.14.0
)
