package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/view/safe"
)

// Version is the program's version, which MCP servers are told; main sets it.
var Version = "0.1.0-dev"

// loadTools is the built-in tools and the user's: those of path, else of the default tools
// file when there is one. A notice about where that was found goes to warn.
func loadTools(path string, getenv config.Getenv, warn io.Writer) (*tools.Registry, error) {
	reg, err := tools.NewRegistry("")
	if err != nil {
		return nil, err
	}
	reg.Clean = safe.Text
	explicit := path != ""
	if !explicit {
		var notice string
		if path, notice, err = config.ToolsPath(getenv, os.UserConfigDir); err != nil {
			return reg, nil
		}
		if notice != "" {
			fmt.Fprintln(warn, "phasechat:", notice)
		}
	}
	user, err := tools.LoadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return reg, nil
		}
		return nil, err
	}
	return reg, reg.Add(user...)
}

// StartMCP starts the MCP servers of path (a file of [mcp.NAME] tables), else those of the
// config file, in the background; their tools join reg as each gets ready. nil when none are
// configured.
func StartMCP(path string, file *config.File, reg *tools.Registry) (*mcp.Manager, error) {
	var cfg mcp.Config
	switch {
	case path != "":
		var err error
		if cfg, err = mcp.LoadFile(path); err != nil {
			return nil, err
		}
	case file != nil:
		cfg = file.MCP
	}
	if len(cfg) == 0 {
		return nil, nil
	}
	return mcp.Start(cfg, mcp.Options{Registry: reg, Dir: reg.Root(), LogDir: mcp.DefaultLogDir(), Version: Version}), nil
}

// HiddenEnv names the environment variables no tool may read: those the config file's
// providers take credentials from.
func HiddenEnv(file *config.File) []string {
	if file == nil {
		return nil
	}
	return keyVariables(file)
}
