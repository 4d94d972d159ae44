package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/stream/wire"
)

var (
	keyCtrlY = tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl}
	keyCtrlS = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
)

func (h *harness) composer() string { return h.m.composer.Value() }

func (h *harness) status() string {
	note, _ := h.m.statusNote()
	return note
}

// TestPromptHistory: Up in an empty composer recalls the prompts, newest first; Down walks back
// to the draft; an edited recall is not replaced; a sent prompt is kept once, as the newest,
// and handed to Remember.
func TestPromptHistory(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	var kept []string
	h.m.ed.history = []string{"first", "second"}
	h.m.ed.histPos = 2
	h.m.ed.remember = func(s string) error { kept = append(kept, s); return nil }

	h.send(keyUp)
	if h.composer() != "second" {
		t.Fatalf("Up recalled %q", h.composer())
	}
	h.send(keyUp)
	h.send(keyUp) // the oldest stays
	if h.composer() != "first" {
		t.Fatalf("Up Up recalled %q", h.composer())
	}
	h.send(keyDown)
	h.send(keyDown)
	if h.composer() != "" {
		t.Fatalf("Down past the newest gave %q, want the empty draft", h.composer())
	}
	h.typeText("draft")
	h.send(keyUp)
	if h.composer() != "draft" {
		t.Fatalf("Up in a composer holding a draft changed it to %q", h.composer())
	}
	h.send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}) // clear the line
	for h.composer() != "" {
		h.send(keyBackspace)
	}
	h.send(keyUp)
	h.typeText("!")
	h.send(keyUp)
	if h.composer() != "second!" {
		t.Fatalf("an edited recall was replaced: %q", h.composer())
	}
	h.send(keyEnter)
	h.feedAll()
	if !slices.Equal(h.m.ed.history, []string{"first", "second", "second!"}) || !slices.Equal(kept, []string{"second!"}) {
		t.Fatalf("history %q, remembered %q", h.m.ed.history, kept)
	}
	h.send(keyUp)
	h.send(keyEnter)
	h.feedAll()
	if !slices.Equal(h.m.ed.history, []string{"first", "second", "second!"}) {
		t.Fatalf("sending a recalled prompt again duplicated it: %q", h.m.ed.history)
	}
}

// TestSlashCommands: /help lists every command and key without sending anything; an unknown
// command is an error on the status line and stays in the composer; // sends a slash; Tab
// completes.
func TestSlashCommands(t *testing.T) {
	h := newHarness(t, "text", 100, 40)
	h.submit("/help")
	if len(h.server.requests()) != 0 || len(h.m.Chat().History) != 0 {
		t.Fatal("/help was sent to the model")
	}
	help := h.m.Chat().Entries()[len(h.m.Chat().Entries())-1].Text()
	for _, c := range chat.Commands {
		if !strings.Contains(help, c.Name) {
			t.Errorf("/help lacks %s", c.Name)
		}
	}
	for _, k := range h.m.allKeys() {
		if !strings.Contains(help, "  "+k.Keys+" — "+k.Does) {
			t.Errorf("/help lacks the key %s", k.Keys)
		}
	}
	for _, want := range []string{"ctrl+x ctrl+e", "ctrl+y", "ctrl+s", "up/down", "  y — ", "  n — ", "  A — "} {
		if !strings.Contains(help, want) {
			t.Errorf("/help lacks the key %s", want)
		}
	}
	if strings.Contains(help, "  a — ") {
		t.Errorf("/help names a lowercase a for always allow, a key that only explains itself:\n%s", help)
	}

	h.submit("/frobnicate now")
	if len(h.server.requests()) != 0 || h.composer() != "/frobnicate now" || !h.m.ed.noteError || !strings.Contains(h.status(), "Unknown command /frobnicate") {
		t.Fatalf("an unknown command: composer %q, status %q", h.composer(), h.status())
	}
	if !strings.Contains(h.m.View().Content, "Unknown command /frobnicate") {
		t.Fatalf("the error is not on the screen:\n%s", h.m.View().Content)
	}
	h.m.composer.Reset()

	h.typeText("/he")
	if !strings.Contains(h.status(), "/help") {
		t.Fatalf("typing /he shows %q", h.status())
	}
	h.send(keyTab)
	if h.composer() != "/help " {
		t.Fatalf("Tab completed /he to %q", h.composer())
	}
	h.m.composer.Reset()
	h.typeText("/s")
	h.send(keyTab)
	if h.composer() != "/s" || !strings.Contains(h.status(), "/sessions") || !strings.Contains(h.status(), "/system") {
		t.Fatalf("an ambiguous Tab: %q, status %q", h.composer(), h.status())
	}
	h.m.composer.Reset()

	h.submit("//etc/hosts is a file")
	h.feedAll()
	if got := h.m.Chat().History[0].Text(); got != "/etc/hosts is a file" {
		t.Fatalf("// sent %q", got)
	}
}

// TestSystemClearNewRetry: /system changes the next request's system prompt; /clear empties
// the screen and keeps the history; /new starts afresh with a new recording; /retry asks again.
func TestSystemClearNewRetry(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	convs := &fakeConversations{}
	h.m.ed.convs = convs
	h.submit("/system be brief")
	h.submit("hello")
	h.feedAll()
	reqs := h.server.requests()
	if len(reqs) != 1 || reqs[0].Messages[0].Role != "system" || reqs[0].Messages[0].Text() != "be brief" {
		t.Fatalf("the system prompt was not sent: %+v", reqs)
	}
	h.submit("/clear")
	if len(h.m.Chat().Entries()) != 0 || len(h.m.Chat().History) != 2 {
		t.Fatalf("/clear: %d entries, %d messages", len(h.m.Chat().Entries()), len(h.m.Chat().History))
	}
	h.submit("/retry")
	h.feedAll()
	if n := len(h.server.requests()); n != 2 {
		t.Fatalf("/retry sent %d requests in all, want 2", n)
	}
	h.submit("/new")
	if len(h.m.Chat().History) != 0 || convs.news != 1 || h.m.log != convs.rec {
		t.Fatalf("/new: %d messages, %d new recordings", len(h.m.Chat().History), convs.news)
	}
}

// TestCtrlCClearsTheDraftFirst: Ctrl+C with a draft clears it and says so; a second quits.
func TestCtrlCClearsTheDraftFirst(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.typeText("half a thought")
	if out := h.send(keyCtrlC); slices.ContainsFunc(out, isQuit) {
		t.Fatal("Ctrl+C with a draft quit")
	}
	if h.composer() != "" || !strings.Contains(h.status(), "Draft cleared") {
		t.Fatalf("composer %q, status %q", h.composer(), h.status())
	}
	if out := h.send(keyCtrlC); !slices.ContainsFunc(out, isQuit) {
		t.Fatal("the second Ctrl+C did not quit")
	}
}

func isQuit(m tea.Msg) bool { _, ok := m.(tea.QuitMsg); return ok }

// TestCopy: Ctrl+Y and /copy copy the last reply through OSC 52 (and the system tool); /copy
// code N copies a code block; nothing is copied before there is a reply.
func TestCopy(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	var tool []string
	h.m.ed.clipboard = func(s string) error { tool = append(tool, s); return nil }
	if out := h.send(keyCtrlY); len(clipboardWrites(out)) != 0 || !h.m.ed.noteError {
		t.Fatal("Ctrl+Y with no reply copied something")
	}
	h.submit("hi")
	h.feedAll()
	reply := "Hello! This is a plain streamed reply, sent one word at a time."
	if out := h.send(keyCtrlY); !slices.Equal(clipboardWrites(out), []string{reply}) || !slices.Equal(tool, []string{reply}) {
		t.Fatalf("Ctrl+Y wrote %q (tool %q)", clipboardWrites(h.pending), tool)
	}
	if !strings.Contains(h.status(), "Copied the last reply") {
		t.Fatalf("status %q", h.status())
	}
	c := h.m.Chat()
	c.Restart(append(slices.Clone(c.History), wire.Message{Role: "user", Parts: wire.TextParts("code please")},
		wire.Message{Role: "assistant", Parts: wire.TextParts("a\n```go\none()\n```\nb\n~~~\ntwo\n~~~\n")}))
	h.typeText("/copy code 1")
	if out := h.send(keyEnter); !slices.Equal(clipboardWrites(out), []string{"one()"}) {
		t.Fatalf("/copy code 1 wrote %q", clipboardWrites(out))
	}
	h.typeText("/copy code")
	if out := h.send(keyEnter); !slices.Equal(clipboardWrites(out), []string{"two"}) {
		t.Fatalf("/copy code wrote %q", clipboardWrites(out))
	}
	h.typeText("/copy code 3")
	if out := h.send(keyEnter); len(clipboardWrites(out)) != 0 || !strings.Contains(h.status(), "has 2 code blocks") {
		t.Fatalf("/copy code 3: %q", h.status())
	}
}

// TestCopyLeavesOutTerminalControls: a reply that ends a bracketed paste and runs a command
// is copied without the controls, in Ctrl+Y and /copy code alike, and the note says so.
func TestCopyLeavesOutTerminalControls(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.m.ed.clipboard = func(string) error { return nil }
	c := h.m.Chat()
	c.Restart([]wire.Message{{Role: "user", Parts: wire.TextParts("hi")},
		{Role: "assistant", Parts: wire.TextParts("echo ok\x1b[201~\rrm -rf ~\n```sh\nls\x1b[201~ -la\u009b\n```\n")}})
	if out := h.send(keyCtrlY); !slices.Equal(clipboardWrites(out), []string{"echo okrm -rf ~\n```sh\nls -la\n```\n"}) {
		t.Fatalf("Ctrl+Y wrote %q", clipboardWrites(out))
	}
	if !strings.Contains(h.status(), "4 terminal controls left out") {
		t.Errorf("status %q", h.status())
	}
	h.typeText("/copy code")
	if out := h.send(keyEnter); !slices.Equal(clipboardWrites(out), []string{"ls -la"}) {
		t.Fatalf("/copy code wrote %q", clipboardWrites(out))
	}
}

// clipboardWrites are the texts of the OSC 52 writes among msgs.
func clipboardWrites(msgs []tea.Msg) []string {
	var out []string
	for _, m := range msgs {
		if v := reflect.ValueOf(m); v.Kind() == reflect.String && strings.Contains(fmt.Sprintf("%T", m), "lipboard") {
			out = append(out, v.String())
		}
	}
	return out
}

// fakeConversations records the switches.
type fakeConversations struct {
	news    int
	rec     perform.Recorder
	resumed string
	all     []sessions.Meta
}

type nopRecorder struct{ n *int }

func (r nopRecorder) Add(chat.Record) { *r.n++ }

func (f *fakeConversations) New() perform.Recorder {
	f.news++
	f.rec = nopRecorder{n: new(int)}
	return f.rec
}

func (f *fakeConversations) List() ([]sessions.Meta, error) { return f.all, nil }

func (f *fakeConversations) Resume(id string) (sessions.Continued, error) {
	f.resumed = id
	f.rec = nopRecorder{n: new(int)}
	return sessions.Continued{History: []wire.Message{{Role: "user", Parts: wire.TextParts("old " + id)}, {Role: "assistant", Parts: wire.TextParts("old answer")}}, Log: f.rec, Notice: "Resumed " + id}, nil
}

// TestSessionPicker: Ctrl+S lists the saved conversations, typing filters them, Enter brings
// the chosen one back on screen with its own recording; Esc closes.
func TestSessionPicker(t *testing.T) {
	h := newHarness(t, "text", 100, 20)
	convs := &fakeConversations{all: []sessions.Meta{{ID: "20260101-000000-aaaaaa", Title: "Penguins", Turns: 2}, {ID: "20260101-000000-bbbbbb", Title: "Walruses", Turns: 1}}}
	h.m.ed.convs = convs
	h.send(keyCtrlS)
	h.feedAll()
	screen := h.m.View().Content
	if !strings.Contains(screen, "Penguins") || !strings.Contains(screen, "Walruses") {
		t.Fatalf("the picker does not list the sessions:\n%s", screen)
	}
	h.typeText("wal")
	screen = h.m.View().Content
	if strings.Contains(screen, "Penguins") || !strings.Contains(screen, "› ") || !strings.Contains(screen, "Walruses") {
		t.Fatalf("the filter does not filter:\n%s", screen)
	}
	h.send(keyEnter)
	h.feedAll()
	if convs.resumed != "20260101-000000-bbbbbb" || h.m.ed.picker.open || h.m.log != convs.rec || len(h.m.Chat().History) != 2 {
		t.Fatalf("resumed %q, picker open %v, history %+v", convs.resumed, h.m.ed.picker.open, h.m.Chat().History)
	}
	if !strings.Contains(h.m.View().Content, "old 20260101-000000-bbbbbb") {
		t.Fatalf("the resumed conversation is not on screen:\n%s", h.m.View().Content)
	}
	h.typeText("/sessions")
	h.send(keyEnter)
	h.feedAll()
	if !h.m.ed.picker.open {
		t.Fatal("/sessions did not open the picker")
	}
	h.send(keyEsc)
	if h.m.ed.picker.open {
		t.Fatal("Esc did not close the picker")
	}
	h.m.ed.convs = nil
	h.send(keyCtrlS)
	if h.m.ed.picker.open || !strings.Contains(h.status(), "--no-save") {
		t.Fatalf("without saving: %q", h.status())
	}
}
