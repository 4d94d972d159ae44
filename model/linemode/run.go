package linemode

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/phase"
)

// Options wires line mode to the engine and the outside world.
type Options struct {
	Chat      *chat.Chat // the engine; Run owns it until it returns
	Performer *perform.Performer
	Log       perform.Recorder // nil: no session log
	To        Destination      // the first line names the model and the endpoint's host
	Notice    string           // announced once, as a Note line, before the first prompt
	Models    chat.ModelLister // what "/model" lists to switch between; nil: no providers
	In        *os.File         // a terminal gets single-key mode while a reply streams; anything else is read as lines
	Out       io.Writer        // everything printed; it never receives an escape sequence
	MCP       *mcp.Manager     // nil: no MCP servers; else their notices are announced
	// LogTrouble carries the session log's write failures (and, nil, its recoveries); each is
	// announced at once. nil: none are.
	LogTrouble <-chan error
	// ApprovalQuiet is how still the keyboard must be after an approval question appears
	// before a key answers it; 0 means chat.ApprovalQuiet.
	ApprovalQuiet time.Duration

	Clipboard func(string) error // a system clipboard tool for /copy; nil: none
	// CodeBlocks splits a reply into its code blocks as the screen draws and numbers them,
	// for /copy code N; nil: no reply has code blocks.
	CodeBlocks    func(reply string) []string
	Conversations Conversations // /new and /sessions; nil: conversations are not saved
	Files         FileReader    // /attach and @path mentions; nil: files cannot be attached
}

// Run chats in line mode until the user quits: Ctrl+D on an empty line, Ctrl+C, SIGTERM or
// SIGHUP, or the end of a piped input. A reply still streaming is stopped and every effect in
// flight is waited for before Run returns; a terminal is put back as Run found it on every
// way out, panics included. Run returns an error only when reading the input or writing the
// output failed.
func Run(o Options) (err error) {
	// The line mode speaks after every update: a batch of several would fold phase changes
	// (a tool starting, then asking) into one Status line.
	stepwise := *o.Performer
	stepwise.MaxBatch = 1
	s := &session{
		chat:       o.Chat,
		driver:     perform.NewDriver(o.Chat, &stepwise, o.Log),
		ann:        NewAnnouncer(o.Chat.State, o.Chat.Follow()),
		term:       openTerminal(o.In),
		out:        o.Out,
		models:     o.Models,
		clip:       o.Clipboard,
		codeBlocks: o.CodeBlocks,
		convs:      o.Conversations,
		files:      o.Files,
		logTrouble: o.LogTrouble,
	}
	if s.term == nil {
		s.chat.NoRetryKey() // no single keys from a pipe: there, the next line is a new message
	}
	s.chat.SetApprovalQuiet(o.ApprovalQuiet)
	s.driver.Timer = s.arm
	if s.term != nil {
		defer func() {
			if rerr := s.term.restore(); rerr != nil && err == nil {
				err = fmt.Errorf("putting the terminal back as it was: %w", rerr)
			}
		}()
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, quitSignals()...)
	defer signal.Stop(sigs)
	in, mode := o.In, (func() inputMode)(nil)
	if s.term != nil {
		var opened bool
		if in, opened = pollableInput(o.In); opened {
			defer in.Close()
		}
		mode = s.term.mode
	}
	s.input = startReader(in, mode)
	defer s.input.close()

	s.say(header(o.To, s.term != nil)...)
	if o.Notice != "" {
		s.say(Note(o.Notice))
	}
	done := make(chan struct{})
	defer close(done)
	s.mcp = watchMCP(o.MCP, done)
	s.sync()
	s.loop(sigs)
	s.shutdown()
	if s.err == nil && s.term == nil && s.chat.State.Phase == phase.Error {
		// Nobody can press Retry on a pipe: the exit status says the reply did not finish.
		s.err = fmt.Errorf("the reply did not finish: %s", s.chat.State.Reason)
	}
	return s.err
}

// session is Run's state; all of it belongs to Run's goroutine.
type session struct {
	chat   *chat.Chat
	driver *perform.Driver
	ann    *Announcer
	term   *terminal // nil: the input is not a terminal
	out    io.Writer
	input  *reader
	mcp    <-chan mcp.Update

	keys       keyDecoder
	quietTimer <-chan time.Time // fires when the approval wait is up; nil when none runs
	quietWait  chat.Wait        // that wait
	logTrouble <-chan error
	escTimer   <-chan time.Time // fires escWait after a possible lone ESC; nil when none
	retryTimer <-chan time.Time // fires at the next second of the automatic retry's countdown; nil when none runs
	retryWait  chat.Wait        // that second's wait
	retryNew   bool             // a countdown began and is not said yet
	line       []byte           // the line being read, up to its '\n'
	queued     []string         // whole lines not sent yet
	typed      []byte           // typed in single-key mode while a reply streams, before Enter (queue.go)
	queueSeen  []string         // the engine's queue as last said
	saidWaits  bool             // that the queue waits is said
	models     chat.ModelLister
	choosing   []chat.ModelChoice // the numbered list "/model" printed, until a line answers it
	clip       func(string) error
	codeBlocks func(string) []string
	convs      Conversations
	files      FileReader
	picking    []sessions.Meta // the numbered list "/sessions" printed, until a line answers it

	focus      phase.Focus
	focusSet   bool
	prompted   bool // "You: " is the last thing printed
	inputEnded bool
	quitting   bool
	outBroken  bool // a write failed: nothing more is written
	err        error
}

func (s *session) loop(sigs <-chan os.Signal) {
	for !s.quitting {
		select {
		case msg := <-s.driver.Results():
			s.driver.Handle(msg)
			s.sync()
		case c := <-s.input.chunks:
			s.read(c)
		case u := <-s.mcp:
			s.mcpUpdate(u)
		case err := <-s.logTrouble:
			s.chat.LogTrouble(err)
			s.sync()
		case <-s.quietTimer:
			s.quietTimer = nil
			if _, notTaken := s.chat.TimeUp(s.quietWait); notTaken {
				s.say(chat.ApprovalNotTaken)
			}
		case <-s.retryTimer:
			s.retryTimer = nil
			effects, _ := s.chat.TimeUp(s.retryWait)
			s.apply(effects)
		case <-s.escTimer:
			s.escTimer = nil
			for _, k := range s.keys.Expire() {
				s.key(k)
			}
		case sig := <-sigs:
			if resumeSignal != nil && sig == resumeSignal {
				if s.term != nil {
					s.check(s.term.reapply())
				}
				continue
			}
			s.quitting = true
		}
		s.sendQueued()
	}
}

// shutdown stops a reply still streaming and waits for every effect in flight, announcing
// how things ended.
func (s *session) shutdown() {
	s.quitting = true
	s.apply(s.chat.Stop())
	s.driver.Wait()
	s.sync()
	if s.prompted {
		s.write("\n")
	}
}

// apply performs the engine's effects and announces what the call changed.
func (s *session) apply(effects []chat.Effect) {
	s.driver.Apply(effects)
	s.sync()
}

// sync announces what changed and moves the focus (and the terminal's mode) with the phase:
// the composer reads lines; Stop and Retry read single keys. Entering the composer prints
// the prompt.
func (s *session) sync() {
	note := s.sentNote()
	s.say(withSentNote(s.ann.Announce(s.chat.State), note)...)
	if s.quitting {
		return
	}
	s.sayQueue()
	if s.chat.State.Phase != phase.Error {
		s.retryTimer = nil
	}
	s.sayRetry()
	f := s.chat.Focus()
	if s.focusSet && f == s.focus {
		return
	}
	s.focus, s.focusSet = f, true
	if s.term != nil {
		mode := keyInput
		if f == phase.FocusComposer {
			mode = lineInput
		}
		s.check(s.term.set(mode))
	}
	if f == phase.FocusComposer {
		s.write("You: ")
		s.prompted = true
	}
}

// arm starts the timer of one of the engine's Waits. A later Wait of a kind replaces the one
// pending: the engine expects only its latest.
func (s *session) arm(w chat.Wait) {
	switch w.For {
	case chat.WaitApproval:
		s.quietTimer, s.quietWait = time.After(w.After), w
	case chat.WaitRetry:
		s.retryNew = s.retryNew || w.Tag != s.retryWait.Tag
		s.retryTimer, s.retryWait = time.After(w.After), w
	}
}

// sayRetry says, once a countdown, that the failed request is retried on its own (after a
// 429's or 503's Retry-After, or quickly after a failure before the first byte), as the
// full-screen chat shows; Enter still retries at once.
func (s *session) sayRetry() {
	wait, quick := s.chat.RetryIn()
	if !s.retryNew || wait == 0 {
		return
	}
	s.retryNew = false
	if quick {
		s.say(Note("Retrying once…"))
		return
	}
	s.say(Note(fmt.Sprintf("Retrying once in %d seconds…", int(wait/time.Second))))
}

// say prints whole lines, starting a new line first if the prompt is showing.
func (s *session) say(lines ...string) {
	if len(lines) == 0 {
		return
	}
	var b strings.Builder
	if s.prompted {
		b.WriteByte('\n')
		s.prompted = false
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "Status: ") && s.chat.Focus() == phase.FocusComposer {
			// The composer, not Retry, has the focus: say what a line does instead of the keys.
			l = strings.Replace(l, phase.RetryHint, s.composerHint(), 1)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	s.write(b.String())
}

// composerHint replaces phase.RetryHint while the composer has the focus in the error phase.
func (s *session) composerHint() string {
	if s.term == nil { // no keys can be read from a pipe: do not advise them
		return "The next line is sent as a new message."
	}
	return composerFirst
}

func (s *session) write(text string) {
	if s.outBroken {
		return
	}
	if _, err := io.WriteString(s.out, text); err != nil {
		s.outBroken = true
		s.check(fmt.Errorf("writing the output: %w", err))
	}
}

// check ends the session on the first error.
func (s *session) check(err error) {
	if err != nil && s.err == nil {
		s.err, s.quitting = err, true
	}
}

func quitSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	if resumeSignal != nil {
		sigs = append(sigs, resumeSignal)
	}
	return sigs
}
