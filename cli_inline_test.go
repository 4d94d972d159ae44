package main

import (
	"flag"
	"io"
	"testing"

	"github.com/phasechat/phasechat/model/config"
)

// TestInlineFromFlagAndConfig: config inline = true turns the inline mode on; --inline turns it
// on without it; --inline=false wins over the file.
func TestInlineFromFlagAndConfig(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		args []string
		file *bool
		want bool
	}{
		{nil, nil, false},
		{[]string{"--inline"}, nil, true},
		{nil, &yes, true},
		{nil, &no, false},
		{[]string{"--inline=false"}, &yes, false},
		{[]string{"--inline"}, &no, true},
	}
	for _, c := range cases {
		var o chatOptions
		fs := chatFlagSet(&o, io.Discard)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		o.set = map[string]bool{}
		fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
		applyConfig(&o, &config.File{Inline: c.file})
		if o.inline != c.want {
			t.Errorf("%v with inline = %v in the file: inline %v, want %v", c.args, c.file, o.inline, c.want)
		}
	}
}
