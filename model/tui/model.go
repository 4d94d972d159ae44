// Package tui is the Bubble Tea model of the full-screen chat: it turns key presses, window
// sizes, stream updates and tool results into calls on the chat engine, and the engine's
// effects into commands. Update does no I/O; commands never touch the model.
package tui

import (
	"os"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view"
)

// Options wires a model to its engine and the outside world.
type Options struct {
	Chat      *chat.Chat
	Performer *perform.Performer
	Log       perform.Recorder // nil: no session log (Add runs inside Update, so it must only queue)
	Styles    view.Styles
	// StylesFor, when set, makes the styles follow the terminal's background: the model asks
	// for it at start and, when the terminal answers, draws with StylesFor(dark). Until then,
	// and when it never answers, Styles stands. nil: Styles always.
	StylesFor func(dark bool) view.Styles
	Measure   int          // the widest a reply's text is drawn; 0: the renderer's default
	Footer    view.Footer  // Endpoint, Model, Demo; usage is filled in per frame
	Notice    string       // shown once at the top of the transcript (e.g. "Resumed 12 messages …")
	Try       []view.Try   // what the first screen suggests trying (the demo's prompts); nil: nothing
	Models    ModelLister  // the model picker's models (Ctrl+P); nil: no providers to switch between
	MCP       *mcp.Manager // nil: no MCP servers; else its state shows in the footer and notices
	Tick      Ticker       // schedules the model's timers; nil: tea.Tick
	// ApprovalQuiet is how still the keyboard must be after an approval question appears
	// before a key answers it; 0 means chat.ApprovalQuiet.
	ApprovalQuiet time.Duration

	// The everyday keys (everyday.go).
	History       []string           // earlier prompts, oldest first: Up recalls them
	Remember      func(string) error // keeps a sent prompt for later sessions; run in a command; nil: not kept
	Clipboard     func(string) error // a system clipboard tool, besides OSC 52; run in a command; nil: none
	Conversations Conversations      // /new and the session picker; nil: conversations are not saved
	Files         FileReader         // /attach and @path mentions; nil: files cannot be attached
	// PasteImage reads the system clipboard's image as PNG (Ctrl+V); run in a command; nil:
	// there is no tool to read it with.
	PasteImage func() ([]byte, error)

	// Inline runs in the terminal's main screen, printing settled entries into its scrollback
	// (inline.go).
	Inline bool

	// JobControl says Ctrl+Z suspends: a shell with job control started the program, and its
	// fg continues it. Without one a stop could never be taken back (Run sets it).
	JobControl bool
}

// Model is the Bubble Tea model. Its pointer fields are owned by it and touched only in Update
// (the renderer's caches also in View).
//
// Update asks the renderer nothing for the engine's messages (a stream update, a tool's output
// or result, a timer): the scroll position is held by content (scroll.go), so what arrives
// below it needs no measuring, and only View lays the screen out. Keys that move the window
// and a resize ask the renderer where things stand; the inline mode's printing draws in its
// print command, with a renderer of its own (inline.go).
type Model struct {
	chat       *chat.Chat
	jobControl bool // Ctrl+Z suspends (Options.JobControl)
	perform    *perform.Performer
	log        perform.Recorder
	renderer   screenRenderer
	footer     view.Footer
	welcome    view.Welcome
	models     ModelLister
	picker     *modelPicker // the open model picker; nil when closed
	recent     []string     // the models switched to this session, as provider/model, latest first
	composer   textarea.Model
	// composerView is composer.View() as of the composer's last change. Rendering the textarea
	// costs more than the rest of a streaming frame, and a stream never changes it.
	composerView string
	// composerText is composer.Value() as of the same change: the textarea builds its value
	// afresh on every call, and a frame asks several times.
	composerText string

	// sized: a WindowSizeMsg has come. Until then width and height are a guess: the full
	// screen draws nothing rather than a layout the terminal would see replaced a frame later,
	// and the inline mode prints nothing into the scrollback, where it would stay.
	sized bool

	width, height int
	scroll        scrollPlace // where the transcript's window stands (scroll.go)
	keysOpen      bool        // the key overlay (? or F1) is open
	keysFrom      int         // the first key the overlay shows
	facts         factsMemo   // what the entries have, for the help (keymap.go)
	timers        timers
	mcp           *mcp.Manager
	ed            everyday
	files         FileReader // nil: nothing can be attached
	pasteImage    func() ([]byte, error)
	dropped       *droppedFile // a dragged file waiting for y (attach) or another key (text)
	fileList      []string     // what @mentions complete to; nil until listed
	mention       mentionRank  // the open mention's best completions, ranked in Update (attach.go)
	listing       bool         // fileList has been asked for
	held          heldInputs   // what waits for files to be read, oldest first (held.go)
	afterReply    string       // a command line Entered while a reply streams, run after it and the queue (draft.go)
	notRun        string       // a command a stop or failure kept from running, in the composer (draft.go)
	inline        inlineMode

	stylesFor func(dark bool) view.Styles // Options.StylesFor

	// gen counts the Updates that acted on their message: the model's state changes nowhere
	// else, so a View at the same gen would draw the same screen, and drawn keeps it.
	gen   uint64
	drawn struct {
		gen  uint64
		view tea.View
		ok   bool
	}
}

// screenRenderer is what the model asks of its view.Renderer.
type screenRenderer interface {
	Render(view.Frame) view.Screen
	Layout(view.Frame) (transcriptHeight, maxScroll int)
	TopAnchor(view.Frame) view.Anchor
	ScrollUpFor(view.Frame, view.Anchor) int
	Reveal(f view.Frame, entry, card int) int
	LastKeysPage(view.Frame) int
	SetStyles(view.Styles)
}

// FrameInterval is how often Bubble Tea redraws the screen (its default, 60 frames a second):
// the pace a Performer's Frame should keep, so a fast stream is folded and drawn once a frame.
const FrameInterval = time.Second / 60

// composerContentRows bounds the composer's text in display rows; the textarea already keeps
// at most 10,000 lines, so it is a backstop, not a limit anyone meets.
const composerContentRows = 1 << 20

// composerMaxRows is how tall the composer grows at a screen height rows tall: about a third
// of the screen, then its text scrolls inside it.
func composerMaxRows(height int) int { return max(1, height/3) }

// New returns a model ready to run.
func New(o Options) *Model {
	ta := textarea.New()
	ta.Placeholder = "Message the model…"
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.DynamicHeight, ta.MinHeight = true, 1
	ta.MaxHeight, ta.MaxContentHeight = composerMaxRows(24), composerContentRows
	ta.SetVirtualCursor(false)
	ta.KeyMap.InsertNewline = keys.Newline.Binding
	ta.SetStyles(composerStyles(o.Styles))
	ta.Focus()
	tick := o.Tick
	if tick == nil {
		tick = tea.Tick
	}
	if o.Notice != "" {
		o.Chat.Notice(o.Notice)
	}
	o.Chat.SetApprovalQuiet(o.ApprovalQuiet)
	m := &Model{
		chat:         o.Chat,
		perform:      o.Performer,
		log:          o.Log,
		renderer:     view.NewRenderer(o.Styles, view.WithMeasure(o.Measure)),
		stylesFor:    o.StylesFor,
		footer:       o.Footer,
		welcome:      view.Welcome{Try: o.Try},
		models:       o.Models,
		composer:     ta,
		composerView: ta.View(),
		composerText: ta.Value(),
		width:        80,
		height:       24,
		timers:       timers{tick: tick},
		mcp:          o.MCP,
		ed:           newEveryday(o),
		files:        o.Files,
		pasteImage:   o.PasteImage,
		jobControl:   o.JobControl,
	}
	if o.Inline {
		m.inline = newInlineMode(o.Chat, o.Styles, o.Measure)
	}
	return m
}

// Init starts nothing but listening to the MCP servers' state and, when the styles follow
// the terminal, asking for its background: the chat waits for the user.
func (m *Model) Init() tea.Cmd { return tea.Batch(waitMCP(m.mcp), m.askBackground()) }

// Chat exposes the engine (for tests and the caller after the program ends).
func (m *Model) Chat() *chat.Chat { return m.chat }

// Update folds one message into the model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if inert(msg) {
		return m, nil // nothing changes: the screen drawn last stands
	}
	m.gen++
	focused := m.composer.Focused()
	next, cmd := m.update(msg)
	next, run, ran := next.runAfterReply()
	cmd = tea.Batch(cmd, run)
	if next.inline.on {
		cmd = tea.Batch(cmd, next.inlineAfter(msg))
	}
	switch msg.(type) {
	case chat.StreamMsg, chat.ToolDoneMsg, chat.ToolOutputMsg, silenceTick, waitMsg:
		// The engine's inputs touch the composer only through after(), by focusing or blurring,
		// and by ending the reply a command line waited for.
		if next.composer.Focused() == focused && !ran {
			return next, cmd
		}
	}
	next.composerView, next.composerText = next.composer.View(), next.composer.Value()
	if _, query, typing := next.mentionOpen(); typing {
		cmd = tea.Batch(cmd, next.listFiles())
		next.rankMention(query)
	}
	return next, cmd
}

// inert reports whether msg is of a kind the model never acts on: what the terminal reports of
// itself, key releases, mouse motion, clicks and releases (the transcript scrolls by the wheel
// only), focus changes. update has no case for any of them.
func inert(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyReleaseMsg, tea.MouseMotionMsg, tea.MouseClickMsg, tea.MouseReleaseMsg,
		tea.FocusMsg, tea.BlurMsg, tea.ModeReportMsg, tea.KeyboardEnhancementsMsg,
		tea.CursorPositionMsg, tea.TerminalVersionMsg, tea.ColorProfileMsg, tea.CapabilityMsg,
		tea.ForegroundColorMsg, tea.CursorColorMsg, tea.EnvMsg:
		return true
	}
	return false
}

func (m *Model) update(msg tea.Msg) (*Model, tea.Cmd) {
	if next, cmd, ok := m.everydayMsg(msg); ok {
		return next, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.sized = true
		m.resize(msg.Width, msg.Height)
		return m, nil
	case tea.BackgroundColorMsg:
		return m.onBackground(msg), nil
	case chat.StreamMsg:
		m.heard()
		return m.after(m.chat.HandleStream(msg))
	case chat.ToolDoneMsg:
		m.heard()
		return m.after(m.chat.HandleToolDone(msg))
	case chat.ToolOutputMsg:
		m.heard()
		return m.after(m.chat.HandleToolOutput(msg))
	case silenceTick:
		return m.onSilence(msg)
	case waitMsg:
		return m.timeUp(msg.wait)
	case mcpMsg:
		return m.applyMCP(msg)
	case modelsMsg:
		return m.gotModels(msg), nil
	case droppedFile:
		return m.onDropped(msg)
	case filesRead:
		return m.onFilesRead(msg)
	case filesListed:
		m.fileList, m.mention = msg.paths, mentionRank{}
		return m, nil
	case SignalMsg, tea.InterruptMsg:
		// A closed terminal, a kill or an interrupt ends the turn as Ctrl+C does: the partial
		// reply is recorded and the tools are stopped before the program quits.
		next, cmd := m.after(m.chat.Stop())
		return next, next.quit(cmd)
	case LogTroubleMsg:
		m.chat.LogTrouble(msg.Err)
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		if m.drafting() {
			return m.editDraft(msg)
		}
		if cmd, ok := m.pastedPath(msg.Content); ok && m.composerEnabled() {
			return m, cmd
		}
		if m.composerEnabled() {
			return m.pasteText(msg.Content)
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.scrollBy(3)
		case tea.MouseWheelDown:
			m.scrollBy(-3)
		}
	}
	return m, nil
}

// after turns the engine's effects into commands, and draws the engine's focus on the composer.
func (m *Model) after(effects []chat.Effect) (*Model, tea.Cmd) {
	if m.composerEnabled() && m.focus() == phase.FocusComposer {
		m.composer.Focus()
	} else {
		m.composer.Blur()
	}
	cmds := make([]tea.Cmd, 0, len(effects)+1)
	for _, e := range perform.LogRecords(effects, m.log) {
		cmds = append(cmds, m.command(e))
	}
	m, timer := m.armTimers()
	return m, tea.Batch(append(cmds, timer)...)
}

// SignalMsg says the process got SIGHUP, SIGTERM or SIGINT; send it with Program.Send.
type SignalMsg struct{ Signal os.Signal }

// LogTroubleMsg says the session log could not be written (Err), or was written again after
// a failure (nil); send it with Program.Send from the log's OnError.
type LogTroubleMsg struct{ Err error }

func (m *Model) command(e chat.Effect) tea.Cmd {
	if w, ok := e.(chat.Wait); ok {
		return m.timers.tick(w.After, func(time.Time) tea.Msg { return waitMsg{w} })
	}
	p := m.perform
	return func() tea.Msg { return p.Do(e) }
}

// focus is the control holding the cursor, as the engine decides it.
func (m *Model) focus() phase.Focus { return m.chat.Focus() }

func (m *Model) composerEnabled() bool { return phase.ControlsFor(m.chat.State.Phase).Composer }

func (m *Model) focusComposer() {
	m.chat.FocusComposer()
	m.composer.Focus()
}
