package tui

import (
	"context"
	"net/http"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
)

func keyCtrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

var (
	keyUp        = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown      = tea.KeyPressMsg{Code: tea.KeyDown}
	keyBackspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
)

func TestPickerFiltersAndChooses(t *testing.T) {
	items := []string{"openai/gpt-4o", "openai/gpt-4o-mini", "ollama/llama3.2", "openrouter/moonshotai/kimi-k2"}
	p := NewPicker("Pick", items)
	press := func(keys ...tea.KeyPressMsg) PickerOutcome {
		var out PickerOutcome
		for _, k := range keys {
			p, out = p.Key(k)
		}
		return out
	}
	cases := []struct {
		keys   []tea.KeyPressMsg
		chosen int
		out    PickerOutcome
	}{
		{nil, 0, PickerOpen},
		{[]tea.KeyPressMsg{keyDown, keyDown}, 2, PickerOpen},
		{[]tea.KeyPressMsg{keyDown, keyDown, keyDown, keyDown, keyDown}, 3, PickerOpen}, // stops at the end
		{[]tea.KeyPressMsg{keyUp}, 2, PickerOpen},
		{[]tea.KeyPressMsg{keyRune('M'), keyRune('I'), keyRune('n')}, 1, PickerOpen},                                           // case-insensitive
		{[]tea.KeyPressMsg{keyBackspace, keyBackspace, keyBackspace, keyRune('o'), keyRune(' '), keyRune('k')}, 3, PickerOpen}, // every word
		{[]tea.KeyPressMsg{keyEnter}, 3, PickerChosen},
	}
	for i, c := range cases {
		if out := press(c.keys...); out != c.out || p.Chosen() != c.chosen {
			t.Fatalf("step %d (filter %q): chosen %d outcome %d, want %d %d", i, p.Filter(), p.Chosen(), out, c.chosen, c.out)
		}
	}
	p.SetItems(items)
	press(keyCtrl('u'), keyRune('z'), keyRune('z'))
	if p.Chosen() != -1 || press(keyEnter) != PickerOpen || !strings.Contains(p.View(40, 8), `nothing matches "zz"`) {
		t.Errorf("nothing matches: chosen %d\n%s", p.Chosen(), p.View(40, 8))
	}
	if press(keyEsc) != PickerCancelled {
		t.Error("Esc does not cancel")
	}
	hostile := NewPicker("Pick", []string{"evil/\x1b]0;pwned\x07model"})
	if v := hostile.View(40, 6); strings.ContainsRune(v, '\x1b') || strings.ContainsRune(v, '\a') {
		t.Errorf("an item's escape reached the screen: %q", v)
	}
}

func TestPickerScrollsToThePointer(t *testing.T) {
	var items []string
	for _, s := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		items = append(items, "p/"+s)
	}
	p := NewPicker("Pick", items)
	for range 8 {
		p, _ = p.Key(keyDown)
	}
	v := p.View(30, 6) // title, filter, 3 items, help
	if !strings.Contains(v, "› p/i") || strings.Contains(v, "p/a") {
		t.Errorf("the pointer is not in view:\n%s", v)
	}
	if n := strings.Count(v, "\n") + 1; n != 6 {
		t.Errorf("%d rows, want 6", n)
	}
}

// TestModelPickerSwitchesMidSession: Ctrl+P lists every provider's models; choosing one sends
// the next request there with the history so far, and the footer names it.
func TestModelPickerSwitchesMidSession(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	handler, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	second := &inProcess{h: handler}
	secondClient := stream.NewClient("http://second.test/v1", "")
	secondClient.HTTP, secondClient.StallTimeout = &http.Client{Transport: second}, 0
	first := h.m.perform.Client
	h.m.perform.Route = func(_ context.Context, name string) (*stream.Client, error) {
		if name == "second" {
			return secondClient, nil
		}
		return first, nil
	}
	h.m.models = func(context.Context) ([]ModelItem, []string) {
		return []ModelItem{
			{Provider: "first", Model: "text", Endpoint: "http://fixtures.test/v1"},
			{Provider: "second", Model: "text", Endpoint: "http://second.test/v1"},
			{Provider: "second", Model: "reasoning", Endpoint: "http://second.test/v1"},
		}, []string{"third: HTTP 401 from third.test: invalid key"}
	}
	h.m.chat.SetModel("first", "text")
	h.m.footer.Model = "first/text"

	h.submit("hello")
	h.feedAll()
	if n := len(h.server.requests()); n != 1 {
		t.Fatalf("%d requests to the first server", n)
	}
	h.send(keyCtrl('p'))
	if !strings.Contains(h.m.View().Content, "Loading the models…") {
		t.Errorf("no loading line:\n%s", h.m.View().Content)
	}
	h.feedAll() // the model list arrives
	golden.RequireEqual(t, []byte(h.m.View().Content))
	h.typeText("reas")
	if v := h.m.View().Content; !strings.Contains(v, "› second/reasoning") || strings.Contains(v, "first/text") {
		t.Errorf("the filter did not narrow the list:\n%s", v)
	}
	h.send(keyEnter)
	if p, m := h.m.chat.Model(); p != "second" || m != "reasoning" {
		t.Fatalf("the engine's model is %s/%s", p, m)
	}
	screen := h.m.View().Content
	if !strings.Contains(screen, "second.test · second/reasoning") || !strings.Contains(screen, "Switched to second/reasoning") {
		t.Errorf("the footer or the transcript does not say what was chosen:\n%s", screen)
	}
	h.submit("and you?")
	h.feedAll()
	if h.m.chat.State.Phase != phase.Complete {
		t.Fatalf("phase %s: %s", h.m.chat.State.Phase, phase.Status(h.m.chat.State))
	}
	sent := second.requests()
	if len(sent) != 1 || len(h.server.requests()) != 1 {
		t.Fatalf("requests: %d to the second server, %d to the first", len(sent), len(h.server.requests()))
	}
	got := sent[0]
	if got.Model != "reasoning" || len(got.Messages) != 3 || got.Messages[0].Text() != "hello" ||
		got.Messages[1].Role != "assistant" || got.Messages[2].Text() != "and you?" {
		t.Errorf("the second server got %+v", got)
	}
	h.send(keyCtrl('p'))
	h.feedAll()
	h.send(keyEsc)
	if p, m := h.m.chat.Model(); h.m.picker != nil || p != "second" || m != "reasoning" {
		t.Errorf("Esc should close the picker and change nothing: open %v, %s/%s", h.m.picker != nil, p, m)
	}
}

func TestCtrlPWithoutProvidersSaysWhy(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.send(keyCtrl('p'))
	if h.m.picker != nil || !strings.Contains(h.m.View().Content, "No providers to switch between") {
		t.Errorf("Ctrl+P without providers:\n%s", h.m.View().Content)
	}
}

// TestModelSwitchNamesTheNewWireFormat: choosing a provider that speaks another wire format
// changes the format the footer names, so the footer never shows the old provider's.
func TestModelSwitchNamesTheNewWireFormat(t *testing.T) {
	h := newHarness(t, "text", 100, 24)
	h.m.footer.Wire = "Chat Completions"
	h.m, _ = h.m.switchModel(ModelItem{Provider: "claude", Model: "sonnet", Endpoint: "api.anthropic.com", Wire: "Anthropic Messages"})
	footer := h.m.View().Content
	if !strings.Contains(footer, "claude/sonnet · Anthropic Messages") || strings.Contains(footer, "Chat Completions") {
		t.Errorf("the footer after switching to an Anthropic provider:\n%s", footer)
	}
}
