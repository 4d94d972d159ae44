package config

import (
	"errors"
	"os"
	"path/filepath"
)

// Getenv reads the environment; tests pass their own.
type Getenv func(string) string

// Dir is phasechat's config directory: $XDG_CONFIG_HOME/phasechat when that is an absolute
// path, else ~/.config/phasechat — on every system, macOS included, since that is where
// terminal users look.
func Dir(getenv Getenv) (string, error) {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "phasechat"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("config: neither $XDG_CONFIG_HOME nor $HOME is set")
	}
	return filepath.Join(home, ".config", "phasechat"), nil
}

// DefaultPath is the config file read when --config is not given: Dir()/config.toml.
func DefaultPath(getenv Getenv) (string, error) {
	dir, err := Dir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config.toml"), nil
}

// ToolsPath is the user tools file read when --tools is not given: tools.toml in Dir(), else
// in the place older versions used (os.UserConfigDir()/phasechat, which on macOS is
// ~/Library/Application Support) when a file is there and not in Dir(). notice is then a
// one-line hint to move it; otherwise "".
func ToolsPath(getenv Getenv, userConfigDir func() (string, error)) (path, notice string, err error) {
	dir, err := Dir(getenv)
	if err != nil {
		return "", "", err
	}
	path = filepath.Join(dir, "tools.toml")
	if _, err := os.Stat(path); err == nil {
		return path, "", nil
	}
	old, oerr := userConfigDir()
	if oerr != nil {
		return path, "", nil
	}
	oldPath := filepath.Join(old, "phasechat", "tools.toml")
	if oldPath == path {
		return path, "", nil
	}
	if _, err := os.Stat(oldPath); err == nil {
		return oldPath, "Reading tools from " + oldPath + "; phasechat now looks in " + path + ", so move the file there.", nil
	}
	return path, "", nil
}
