package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/sessions"
)

// Load reads the sources the command line points to — the config file, and the model a
// conversation continued from the store was saved with — and resolves the settings from
// them. Warnings about the file go to warn.
func Load(f Flags, env Lookup, warn io.Writer) (Settings, error) {
	file, err := LoadConfig(f.Config, env, warn)
	if err != nil {
		return Settings{}, err
	}
	src := Sources{Flags: f, File: file, Env: env}
	probe := Settings{Continue: f.Continue, Resume: f.Resume}
	if usesProviders(f, file) && probe.fromStore() {
		src.Saved = savedModel(probe)
	}
	return Resolve(src)
}

// LoadConfig reads the config file: path, else the default place (which may be absent: then
// nil). Warnings go to warn.
func LoadConfig(path string, env Lookup, warn io.Writer) (*config.File, error) {
	explicit := path != ""
	if !explicit {
		p, err := config.DefaultPath(func(k string) string { v, _ := env(k); return v })
		if err != nil {
			return nil, nil
		}
		path = p
	}
	f, err := config.Load(path)
	if err != nil {
		switch {
		case !explicit && errors.Is(err, fs.ErrNotExist):
			return nil, nil
		case errors.Is(err, fs.ErrNotExist):
			return nil, UsageError{fmt.Errorf("the config file %s given with --config does not exist: check the path, or leave out --config to read the default one", path)}
		}
		return nil, err
	}
	for _, w := range f.Warnings {
		fmt.Fprintln(warn, "phasechat: warning:", w)
	}
	return f, nil
}

// savedModel is the provider/model the conversation s continues from the store was saved
// with; "" when it has none or cannot be found (opening it says why).
func savedModel(s Settings) string {
	store, err := OpenStore()
	if err != nil {
		return ""
	}
	var m sessions.Meta
	if s.Continue {
		m, err = store.Latest()
	} else {
		m, err = store.Find(s.Resume)
	}
	if err != nil || !strings.Contains(m.Model, "/") {
		return ""
	}
	return m.Model
}
