package app

import (
	"flag"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
)

// Define adds the chat's flags to fs, each writing its field of f: a setting's flag name,
// help and field are kept together here, and Resolve is what gives them precedence.
func (f *Flags) Define(fs *flag.FlagSet) {
	fs.StringVar(&f.BaseURL, "base-url", "", "API root, e.g. http://127.0.0.1:8080/v1, or demo for the built-in demo (default: $OPENAI_BASE_URL, else OpenAI when $OPENAI_API_KEY is set, else the built-in demo; -p never falls back to it)")
	fs.StringVar(&f.Model, "model", "", "model name, or PROVIDER/MODEL for a provider of the config file (default: the config's, else $OPENAI_MODEL, else "+OpenAIModel+"; \"demo\" on the built-in demo)")
	fs.StringVar(&f.Model, "m", "", "short for --model")
	fs.StringVar(&f.Provider, "provider", "", "a provider of the config file (default: the config's default)")
	fs.StringVar(&f.Config, "config", "", "the config file (default: $XDG_CONFIG_HOME/phasechat/config.toml, else ~/.config/phasechat/config.toml)")
	fs.StringVar(&f.Wire, "wire", "", "the API's wire format: chat (Chat Completions, the default), anthropic (Messages; $ANTHROPIC_API_KEY, "+AnthropicBaseURL+") or responses (OpenAI Responses)")
	fs.StringVar(&f.System, "system", "", "system prompt sent first with every request")
	fs.BoolVar(&f.NoStream, "no-stream", false, "ask for whole answers (stream: false) instead of streams")
	fs.DurationVar(&f.StallTimeout, "stall-timeout", stream.DefaultStallTimeout, "end a stream that sends nothing for this long (0: never)")
	fs.IntVar(&f.MaxSteps, "max-steps", chat.DefaultMaxSteps, "requests per turn before the tool loop stops and asks you to continue")
	fs.IntVar(&f.MaxReplyMiB, "max-reply", stream.DefaultMaxReply>>20, "MiB one reply may have; a longer one is stopped, keeping what arrived")
	fs.IntVar(&f.MaxTools, "max-tools", tools.DefaultMaxParallel(), "tools run at once; the others wait their turn")
	fs.BoolVar(&f.Yes, "yes", false, "run tools with side effects without asking")
	fs.BoolVar(&f.Accessible, "accessible", false, "line mode for screen readers: output is only appended (also ACCESSIBLE=1)")
	fs.BoolVar(&f.Inline, "inline", false, "run in the terminal's own screen: finished messages go to its scrollback and stay after quitting; no mouse capture")
	fs.StringVar(&f.LogPath, "log", "", "append every message and the usage to this file as JSON lines (mode 0600)")
	fs.StringVar(&f.Resume, "resume", "", "continue a saved conversation: a session `ID` (see phasechat sessions list) or a session log FILE")
	fs.BoolVar(&f.Continue, "continue", false, "continue the most recent saved conversation")
	fs.BoolVar(&f.Fork, "fork", false, "with --continue or --resume ID: continue the conversation in a copy, a new session that records its parent (for one open in another phasechat)")
	fs.BoolVar(&f.NoSave, "no-save", false, "do not keep this conversation in the sessions folder")
	fs.StringVar(&f.Tools, "tools", "", "user-defined tools (TOML); default: tools.toml in the phasechat config directory")
	fs.StringVar(&f.MCP, "mcp", "", "MCP servers to start: a file of [mcp.NAME] tables (see the README)")
	fs.StringVar(&f.Theme, "theme", "auto", "the full-screen chat's colours: auto (follow the terminal's background), dark or light; NO_COLOR turns colour off")
}
