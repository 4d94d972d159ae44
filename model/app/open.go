package app

import (
	"fmt"
	"io"
	"os"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/reaper"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/catalog"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view"
)

// Session is everything a front end drives: the engine and what performs its effects, the
// tools, the MCP servers, and the conversation's recording. Close it when the front end
// returns.
type Session struct {
	Settings     Settings // as resolved, the model a provider's server chose filled in
	Chat         *chat.Chat
	Performer    *perform.Performer
	Registry     *tools.Registry
	MCP          *mcp.Manager // nil: no MCP servers
	Conversation *Conversation
	Footer       view.Footer
	Models       chat.ModelLister // the providers' models to switch between; nil without providers
	Secrets      *secret.Set      // every secret of the run; providers add theirs as they are resolved

	stopDemo func()
}

// Open assembles a session from s: it starts the built-in demo when s.Demo, resolves the
// chosen provider's key (which may run its key command) and model, loads the tools, starts
// the MCP servers, and opens the conversation (loading the one continued, beginning its
// recording). warn gets what the user should know before the front end starts. The error
// holds none of the run's secrets.
func Open(s Settings, warn io.Writer) (*Session, error) {
	sess := &Session{Settings: s, Secrets: EnvSecrets(), stopDemo: func() {}}
	err := sess.open(warn)
	if err != nil {
		sess.Close()
		return nil, sess.Secrets.Error(err)
	}
	return sess, nil
}

func (sess *Session) open(warn io.Writer) error {
	s := &sess.Settings
	catalog.Preload()
	for _, left := range reaper.Sweep() {
		fmt.Fprintf(warn, "phasechat: ended %d %s left running by phasechat (pid %d), which did not end normally\n",
			left.Ended, format.Plural(left.Ended, "process", "processes"), left.PID)
	}
	if s.Env == nil {
		s.Env = os.LookupEnv
	}
	var client *stream.Client
	var provs *providers
	if s.Provider != "" {
		provs = newProviders(s, sess.Secrets)
		var err error
		if client, err = provs.start(); err != nil {
			return err
		}
		sess.Models = provs.models
	} else {
		if s.Demo {
			base, stop, err := fixtures.StartDemo(fixtures.Options{Pace: 1})
			if err != nil {
				return err
			}
			s.BaseURL, sess.stopDemo = base, stop
		}
		key, _ := s.Env(s.Key.Env)
		client = stream.NewClient(s.BaseURL, key)
		client.Wire, client.StallTimeout, client.MaxReply = s.Wire, s.StallTimeout, s.MaxReply
		sess.Secrets.Add(key)
		sess.Secrets.AddURL(s.BaseURL)
		client.Secrets = sess.Secrets
	}
	getenv := func(k string) string { v, _ := s.Env(k); return v }
	reg, err := loadTools(s.Tools, getenv, warn)
	if err != nil {
		return err
	}
	sess.Registry = reg
	reg.Secrets, reg.MaxParallel = sess.Secrets, s.MaxTools
	if provs != nil {
		reg.HiddenEnv = keyVariables(s.File)
	}
	if sess.MCP, err = StartMCP(s.MCP, s.File, reg); err != nil {
		return err
	}
	s.Title = sess.Secrets.Redact(s.Title) // a key in a -p prompt is no session's title
	head := sessionlog.Header{Model: s.ModelLabel(), Endpoint: format.Endpoint(s.BaseURL), System: s.System}
	if sess.Conversation, err = openConversation(s, head, format.Host(s.BaseURL)); err != nil {
		return err
	}
	sess.Conversation.secrets = sess.Secrets
	sess.Chat = chat.New(chat.Config{
		Provider: s.Provider, Model: s.Model, System: s.System, MaxSteps: s.MaxSteps, NoStream: s.NoStream,
		Tools: perform.Toolbox(reg), AutoApprove: s.Yes, CanAsk: s.CanAsk, MaxTools: s.MaxTools, LiveOutput: s.LiveOutput,
		Budget: s.ModelBudget(s.Provider, s.Model), CompactAt: s.chatCompactAt(),
	}, sess.Conversation.History())
	sess.Chat.SetCompactions(sess.Conversation.Compactions())
	sess.Chat.SetTallies(sess.Conversation.Tallies())
	sess.Performer = &perform.Performer{Client: client, Tools: reg}
	if provs != nil {
		sess.Performer.Route = provs.client
	}
	sess.Footer = view.Footer{Endpoint: format.Endpoint(s.BaseURL), Model: s.ModelLabel(), Demo: s.Demo, Wire: client.Wire.Label()}
	return nil
}

// Close waits for the tools still stopping, ends the conversation's recording, stops the MCP
// servers and the demo, and returns the recording's error (without the run's secrets).
func (sess *Session) Close() error {
	var err error
	if sess.Registry != nil {
		sess.Registry.Wait()
	}
	if sess.Conversation != nil {
		err = sess.Conversation.Close()
	}
	if sess.MCP != nil {
		sess.MCP.Close() // no server process outlives the session
	}
	sess.stopDemo()
	return sess.Secrets.Error(err)
}

// Redact is err without the run's secrets.
func (sess *Session) Redact(err error) error { return sess.Secrets.Error(err) }

// EnvSecrets is the secrets a command that talks to no endpoint still hides: the keys and the
// base URL's credentials from the environment.
func EnvSecrets() *secret.Set {
	set := secret.New(os.Getenv(DefaultKeyEnv), os.Getenv(AnthropicKeyEnv))
	set.AddURL(os.Getenv("OPENAI_BASE_URL"))
	return set
}

// SettleMCP waits until every MCP server is ready or has failed (each within its
// startup_timeout), for a front end no one watches for a server arriving later, and returns
// what the servers said meanwhile (what failed). settled is false when stop came first.
func (sess *Session) SettleMCP(stop <-chan os.Signal) (notices []string, settled bool) {
	if sess.MCP == nil {
		return nil, true
	}
	select {
	case <-sess.MCP.Settled():
	case <-stop:
		return nil, false
	}
	if u, ok := sess.MCP.Next(); ok {
		notices = u.Notices
	}
	return notices, true
}
