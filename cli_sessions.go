package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

const sessionsUsage = `Usage:
  phasechat sessions list [--json]                      saved conversations, the latest first
  phasechat sessions show ID                            one conversation, as text
  phasechat sessions search TEXT                        conversations whose messages hold TEXT
  phasechat sessions rename ID TITLE
  phasechat sessions rm ID
  phasechat sessions export ID [--format markdown|json]

ID may be any unique start of a session's id. Sessions are kept in
$XDG_DATA_HOME/phasechat/sessions (else ~/.local/share/phasechat/sessions).
`

func openSessions() (*sessions.Store, error) {
	dir, err := sessions.DefaultDir()
	if err != nil {
		return nil, err
	}
	return sessions.Open(dir)
}

func runSessions(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		out := stderr
		if len(args) > 0 {
			out = stdout
		}
		fmt.Fprint(out, sessionsUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, rest := args[0], args[1:]
	fs := flag.NewFlagSet("phasechat sessions "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), sessionsUsage) }
	asJSON := fs.Bool("json", false, "print the list as JSON")
	format := fs.String("format", "markdown", "export as markdown or json")
	if err := parseInterleaved(fs, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	pos := fs.Args()
	want := map[string]int{"list": 0, "show": 1, "search": 1, "rename": 2, "rm": 1, "export": 1}
	n, known := want[cmd]
	switch {
	case !known:
		fmt.Fprintf(stderr, "phasechat sessions: unknown command %q\n%s", cmd, sessionsUsage)
		return 2
	case cmd == "rename" && len(pos) > 2:
		pos = []string{pos[0], strings.Join(pos[1:], " ")}
	case cmd == "search" && len(pos) > 1:
		pos = []string{strings.Join(pos, " ")}
	}
	if len(pos) != n {
		fmt.Fprintf(stderr, "phasechat sessions %s: expected %d argument(s), got %d\n%s", cmd, n, len(pos), sessionsUsage)
		return 2
	}
	if cmd == "export" && *format != "markdown" && *format != "json" {
		fmt.Fprintf(stderr, "phasechat sessions export: --format is markdown or json, not %q\n", *format)
		return 2
	}
	store, err := openSessions()
	if err == nil {
		err = sessionsCommand(store, cmd, pos, *asJSON, *format, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return 1
	}
	return 0
}

func sessionsCommand(store *sessions.Store, cmd string, pos []string, asJSON bool, format string, stdout io.Writer) error {
	switch cmd {
	case "list":
		all, err := store.List()
		if err != nil {
			return err
		}
		if asJSON {
			if all == nil {
				all = []sessions.Meta{}
			}
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(all)
		}
		if len(all) == 0 {
			_, err := fmt.Fprintf(stdout, "No saved sessions yet in %s.\n", store.Dir())
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tUPDATED\tTURNS\tMODEL\tTITLE")
		for _, m := range all {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", m.ID, m.Updated.Local().Format("2006-01-02 15:04"), m.Turns, safe.Line(m.Model), safe.Line(m.Title))
		}
		return tw.Flush()
	case "search":
		hits, err := store.Search(pos[0])
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			return fmt.Errorf("no session mentions %q", pos[0])
		}
		for _, h := range hits {
			fmt.Fprintf(stdout, "%s  %s\n    %s: %s\n", h.Meta.ID, safe.Line(h.Meta.Title), h.Role, h.Snippet)
		}
		return nil
	case "rename":
		m, err := store.Rename(pos[0], pos[1])
		if err == nil {
			fmt.Fprintf(stdout, "Renamed %s to %q.\n", m.ID, m.Title)
		}
		return err
	case "rm":
		m, err := store.Remove(pos[0])
		if err == nil {
			fmt.Fprintf(stdout, "Deleted %s (%s).\n", m.ID, safe.Line(m.Title))
		}
		return err
	}
	m, err := store.Find(pos[0])
	if err != nil {
		return err
	}
	r, err := store.Load(m)
	if err != nil {
		return err
	}
	if cmd == "export" && format == "json" {
		return sessions.JSON(stdout, m, r.Log)
	}
	return sessions.Markdown(stdout, m, r.Log)
}

// parseInterleaved parses flags that may come after positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// conversation is what a chat continues and where it is recorded. In the full-screen chat it
// also switches conversations (/new, the session picker): session is always the current one,
// and every one begun is closed at the end.
type conversation struct {
	history []wire.Message
	notice  string
	session *sessions.Session // nil: not saved in the store
	log     *sessionlog.Writer

	store   *sessions.Store
	start   sessions.Start // how a new conversation is begun
	mu      sync.Mutex     // guards session and ended, from commands
	ended   []*sessions.Session
	secrets *secret.Set // hidden from every record
}

// sessionFlags are the flags that choose which conversation to continue and where to keep it.
type sessionFlags struct {
	noSave      bool
	continueAll bool
	resume      string
	logPath     string
	title       string // the title of a new session; empty: the first prompt's words
}

// openConversation loads the conversation to continue (--continue, --resume ID|FILE) and opens
// its recording (the store unless --no-save, and --log FILE).
func openConversation(f sessionFlags, head sessionlog.Header, provider string) (*conversation, error) {
	c := &conversation{}
	var store *sessions.Store
	fromStore := f.continueAll || (f.resume != "" && !isFile(f.resume))
	unsaved := "" // why the conversation will not be kept although saving is on
	if !f.noSave || fromStore {
		var err error
		if store, err = openSessions(); err != nil {
			if fromStore {
				return nil, err
			}
			// Saving is a convenience: the chat goes on without it, and says so.
			store, unsaved = nil, "This conversation is not being saved: "+err.Error()
		}
	}
	var resumed *sessions.Resumed
	switch {
	case f.continueAll || (f.resume != "" && !isFile(f.resume)):
		var m sessions.Meta
		var err error
		if f.continueAll {
			m, err = store.Latest()
		} else {
			m, err = store.Find(f.resume)
			if errors.Is(err, sessions.ErrNotFound) || errors.Is(err, sessions.ErrAmbiguous) {
				err = usageError{fmt.Errorf("--resume %s: %w", f.resume, err)}
			}
		}
		if err != nil {
			return nil, err
		}
		r, err := store.Load(m)
		if err != nil {
			return nil, err
		}
		resumed = &r
		c.notice = fmt.Sprintf("Resumed session %s: %s (%d messages).", m.ID, safe.Line(m.Title), len(r.Messages))
	case f.resume != "":
		log, err := sessionlog.Read(f.resume)
		if err != nil {
			return nil, err
		}
		resumed = &sessions.Resumed{Path: f.resume, Log: log, Messages: log.Messages}
		c.notice = fmt.Sprintf("Resumed %d messages from %s.", len(log.Messages), f.resume)
	}
	if resumed != nil {
		c.history = resumed.Messages
		if resumed.Log.CutOff {
			c.notice += " Its last line was cut off and was skipped."
		}
	}
	if unsaved != "" {
		c.notice = strings.TrimSpace(c.notice + " " + unsaved)
	}
	if store != nil && !f.noSave {
		st := sessions.Start{Header: head, Provider: provider, Title: f.title}
		switch {
		case resumed != nil && resumed.Meta != nil:
			st.Resume = resumed.Meta
		case resumed != nil:
			st.Seed = resumed.Messages
		}
		c.session = store.Begin(st)
		c.store, c.start = store, sessions.Start{Header: head, Provider: provider}
	}
	if f.logPath != "" {
		var err error
		if c.log, err = sessionlog.Create(f.logPath); err != nil {
			c.close()
			return nil, err
		}
		c.log.Head(head)
	}
	return c, nil
}

// isFile reports whether a --resume argument names a log file rather than a session id.
func isFile(arg string) bool {
	if strings.ContainsRune(arg, os.PathSeparator) || strings.HasSuffix(arg, ".jsonl") {
		return true
	}
	fi, err := os.Stat(arg)
	return err == nil && fi.Mode().IsRegular()
}

// recorder is where the chat's records go: the session, the --log file, both or neither,
// with the run's secrets hidden.
func (c *conversation) recorder() perform.Recorder {
	if r := c.recorders(); r != nil {
		return redactingRecorder{c.secrets, r}
	}
	return nil
}

func (c *conversation) recorders() perform.Recorder {
	var rs multiRecorder
	if c.session != nil {
		rs = append(rs, c.session)
	}
	if c.log != nil {
		rs = append(rs, c.log)
	}
	switch len(rs) {
	case 0:
		return nil
	case 1:
		return rs[0]
	}
	return rs
}

// onLogTrouble has f told at once of each failed write of the --log file (and, nil, of its
// recovery).
func (c *conversation) onLogTrouble(f func(error)) {
	if c.log != nil {
		c.log.OnError(f)
	}
}

// redactingRecorder hides the secrets in a record before passing it on.
type redactingRecorder struct {
	secrets *secret.Set
	next    perform.Recorder
}

func (r redactingRecorder) Add(rec chat.Record) {
	if rec.Message != nil && !r.secrets.Empty() {
		m := wire.RedactMessage(r.secrets, *rec.Message)
		rec.Message = &m
	}
	r.next.Add(rec)
}

type multiRecorder []perform.Recorder

func (m multiRecorder) Add(r chat.Record) {
	for _, rec := range m {
		rec.Add(r)
	}
}

// switchTo makes next the current session, continuing history; the one before is closed in
// the background (and waited for by close). The --log file goes on with the conversation on
// screen: it gets a header that begins another conversation, then history.
func (c *conversation) switchTo(next *sessions.Session, history []wire.Message) perform.Recorder {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.session; old != nil {
		c.ended = append(c.ended, old)
		go old.Close()
	}
	c.session = next
	if c.log != nil {
		head := c.start.Header
		head.New = true
		c.log.Head(head)
		log := redactingRecorder{c.secrets, c.log}
		for i := range history {
			log.Add(chat.Record{Message: &history[i]})
		}
	}
	return c.recorder()
}

// New begins a new conversation's recording (tui.Conversations).
func (c *conversation) New() perform.Recorder { return c.switchTo(c.store.Begin(c.start), nil) }

// List returns the saved conversations (tui.Conversations).
func (c *conversation) List() ([]sessions.Meta, error) { return c.store.List() }

// Resume continues a saved conversation (tui.Conversations).
func (c *conversation) Resume(id string) (sessions.Continued, error) {
	m, err := c.store.Find(id)
	if err != nil {
		return sessions.Continued{}, err
	}
	c.mu.Lock()
	current := c.session != nil && c.session.ID() == m.ID
	c.mu.Unlock()
	if current {
		return sessions.Continued{}, fmt.Errorf("session %s is the conversation on screen", m.ID)
	}
	r, err := c.store.Load(m)
	if err != nil {
		return sessions.Continued{}, err
	}
	st := c.start
	st.Resume = r.Meta
	notice := fmt.Sprintf("Resumed session %s: %s (%d messages).", m.ID, safe.Line(m.Title), len(r.Messages))
	if r.Log.CutOff {
		notice += " Its last line was cut off and was skipped."
	}
	return sessions.Continued{History: r.Messages, Log: c.switchTo(c.store.Begin(st), r.Messages), Notice: notice}, nil
}

// close ends the recordings and returns the first error.
func (c *conversation) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, s := range c.ended {
		errs = append(errs, s.Close())
	}
	if c.session != nil {
		errs = append(errs, c.session.Close())
	}
	if c.log != nil {
		errs = append(errs, c.log.Close())
	}
	return errors.Join(errs...)
}

// savedLine is the line left on the terminal after a chat: where it was saved and how to come
// back to it; "" when nothing was saved.
func (c *conversation) savedLine() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == nil || !c.session.Saved() {
		return ""
	}
	return fmt.Sprintf("Conversation saved to %s — resume it with: phasechat --resume %s", c.session.Path(), c.session.ID())
}

// everydayOptions wires the full-screen chat's prompt history, clipboard and conversation
// switching. With --no-save the history is read (Up still recalls) but nothing is added.
func (c *conversation) everydayOptions(o *tui.Options, noSave bool) {
	if prompts, err := sessions.DefaultPrompts(); err == nil {
		o.History, _ = prompts.Load()
		if !noSave {
			o.Remember = prompts.Add
		}
	}
	o.Clipboard = systemClipboard()
	if c.session != nil {
		o.Conversations = c
	}
}

// lineConversations is conv for line mode, nil when conversations are not saved.
func (c *conversation) lineConversations() linemode.Conversations {
	if c.session == nil {
		return nil
	}
	return c
}

// systemClipboard returns a function that copies text with the system's clipboard tool, or nil
// when there is none to use (OSC 52 still copies through the terminal).
func systemClipboard() func(string) error {
	var argv []string
	switch {
	case os.Getenv("WAYLAND_DISPLAY") != "":
		argv = []string{"wl-copy"}
	case os.Getenv("DISPLAY") != "":
		argv = []string{"xclip", "-selection", "clipboard"}
	case runtime.GOOS == "darwin":
		argv = []string{"pbcopy"}
	default:
		return nil
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil
	}
	return func(text string) error {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Stdin = strings.NewReader(text)
		// No pipes for its output: xclip stays in the background to serve the selection, and
		// waiting for its output to close would wait for that.
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v", argv[0], err)
		}
		return nil
	}
}
