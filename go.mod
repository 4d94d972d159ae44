module github.com/phasechat/phasechat

go 1.26
