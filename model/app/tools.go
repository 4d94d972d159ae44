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
			fmt.Fprintln(warn, "phasechat:", safe.Line(notice))
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

// MCPStatus starts the MCP servers of path, else those of the config file (configPath, else
// the default place), waits until each is ready or has failed, stops them, and returns their
// states and where they are configured. status is nil when none are.
func MCPStatus(path, configPath string, env Lookup, warn io.Writer) (status []mcp.ServerStatus, where string, err error) {
	reg, err := tools.NewRegistry("")
	if err != nil {
		return nil, "", err
	}
	reg.Clean, reg.Secrets = safe.Text, EnvSecrets()
	var file *config.File
	where = path
	if path == "" {
		if file, err = LoadConfig(configPath, env, warn); err != nil {
			return nil, "", err
		}
		if file != nil {
			where, reg.HiddenEnv = file.Path, keyVariables(file)
		}
	}
	m, err := StartMCP(path, file, reg)
	if m == nil || err != nil {
		return nil, where, err
	}
	<-m.Settled()
	status = m.Status()
	m.Close()
	return status, where, nil
}
