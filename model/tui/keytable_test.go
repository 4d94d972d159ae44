package tui

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
)

// pressOf is the key press Bubble Tea reports as s ("ctrl+s", "pgdown", "?", "A").
func pressOf(s string) tea.KeyPressMsg {
	mods := map[string]tea.KeyMod{"ctrl": tea.ModCtrl, "alt": tea.ModAlt, "shift": tea.ModShift}
	codes := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"f1": tea.KeyF1, "backspace": tea.KeyBackspace}
	parts := strings.Split(s, "+")
	var k tea.KeyPressMsg
	for _, p := range parts[:len(parts)-1] {
		k.Mod |= mods[p]
	}
	last := parts[len(parts)-1]
	if code, ok := codes[last]; ok {
		k.Code = code
		return k
	}
	k.Code = []rune(last)[0]
	if k.Mod == 0 {
		k.Text = last
	}
	return k
}

// allBindings is every binding the handlers match: the chat's and the picker's.
func allBindings() []key.Binding {
	var out []key.Binding
	for _, b := range keyList {
		out = append(out, b.Binding)
	}
	return append(out, pickerKeys.Up, pickerKeys.Down, pickerKeys.Choose, pickerKeys.Cancel, pickerKeys.Erase, pickerKeys.ClearFilter)
}

// Every key the table names is one Bubble Tea reports (a misspelt "pgdn" would never match),
// and every binding has keys.
func TestKeyTableNamesRealKeys(t *testing.T) {
	for _, b := range allBindings() {
		if len(b.Keys()) == 0 {
			t.Errorf("a binding without keys: %+v", b.Help())
		}
		for _, s := range b.Keys() {
			if got := pressOf(s).String(); got != s {
				t.Errorf("the table's %q is reported as %q", s, got)
			}
		}
	}
}

// spelledKey finds a key spelled out in a handler instead of matched against the table: a
// comparison or switch of a key's String(), Keystroke() or Text with a non-empty literal.
func spelledKey(file *ast.File) []ast.Node {
	isKey := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.CallExpr:
			sel, ok := e.Fun.(*ast.SelectorExpr)
			return ok && (sel.Sel.Name == "String" || sel.Sel.Name == "Keystroke")
		case *ast.SelectorExpr:
			return e.Sel.Name == "Text"
		}
		return false
	}
	literal := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		return ok && lit.Kind == token.STRING && lit.Value != `""`
	}
	var found []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			compares := n.Op == token.EQL || n.Op == token.NEQ
			if compares && (isKey(n.X) && literal(n.Y) || isKey(n.Y) && literal(n.X)) {
				found = append(found, n)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isKey(n.Tag) {
				found = append(found, n)
			}
		case *ast.IndexExpr:
			if isKey(n.Index) {
				found = append(found, n)
			}
		}
		return true
	})
	return found
}

// Every key a handler matches is in the key table: the handlers match presses only with
// key.Matches against the table's bindings, never by spelling a key out.
func TestHandlersMatchOnlyTheTable(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range spelledKey(f) {
			t.Errorf("%s: a key spelled out rather than matched against the table", fset.Position(n.Pos()))
		}
	}
	// The check itself sees a spelled key.
	probe, err := parser.ParseFile(fset, "probe.go", `package p
func f(k K) { if k.String() == "ctrl+c" {}; switch k.String() { case "x": } }`, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(spelledKey(probe)); n != 2 {
		t.Fatalf("the check finds %d of 2 spelled keys", n)
	}
}

// The approval keys the table lists are the ones the engine takes as those answers.
func TestApprovalBindingsAreTheEnginesAnswers(t *testing.T) {
	for _, c := range []struct {
		b    binding
		want chat.Decision
	}{{keys.Approve, chat.Allow}, {keys.Decline, chat.Deny}, {keys.Always, chat.AllowAlways}} {
		for _, s := range c.b.Keys() {
			var g chat.ApprovalKeys
			_, gen := g.Arm("1/call")
			g.Quiet(gen)
			if v := g.Key(pressOf(s).String()); !v.Answer || v.Decision != c.want {
				t.Errorf("%q: the engine answers %+v, the table says %s", s, v, c.b.Help().Desc)
			}
		}
	}
}

// In every phase, each key the help line offers does what it says: pressed, it never answers
// that it cannot act now (as Ctrl+S did while a reply streamed: "can be opened once the reply
// has finished").
func TestHelpLineKeysWorkNow(t *testing.T) {
	setups := map[string]struct {
		scenario string
		set      func(h *harness)
	}{
		"idle":           {"text", func(h *harness) {}},
		"streaming-text": {"text", func(h *harness) { h.submit("hello"); h.feedStream(); h.feedStream() }},
		"streaming-tool": {"seed", func(h *harness) { h.submit("hello"); h.feedStream() }},
		"asking":         {"note", func(h *harness) { h.submit("hello"); feedUntilQuiet(h) }},
		"error":          {"http-500", func(h *harness) { h.submit("hello"); h.feedAll() }},
		"complete":       {"seed", func(h *harness) { h.submit("hello"); h.feedAll() }},
		"long":           {"long", func(h *harness) { h.submit("count"); drain(h) }},
	}
	for name, s := range setups {
		start := func(t *testing.T) *harness {
			h := newHarness(t, s.scenario, 80, 24)
			h.m.ed.convs = &fakeConversations{}
			h.m.models = func(ctx context.Context) ([]ModelItem, []string) { return nil, nil }
			s.set(h)
			return h
		}
		for _, k := range start(t).m.help(true) {
			t.Run(name+"/"+k.Keys, func(t *testing.T) {
				h := start(t)
				var b *binding
				for _, c := range keyList {
					if c.Help().Key == k.Keys && c.Help().Desc == k.Does {
						b = c
					}
				}
				h.send(pressOf(b.Keys()[0]))
				if h.m.ed.noteError {
					t.Fatalf("the help line offers %s (%s), which answers %q", k.Keys, k.Does, h.m.ed.note)
				}
			})
		}
	}
}

// drain feeds every pending message, however many.
func drain(h *harness) {
	for len(h.pending) > 0 {
		msg := h.pending[0]
		h.pending = h.pending[1:]
		h.send(msg)
	}
}

// The key list scrolls no further than the page that ends with its last key: PgDn past the
// end leaves that page whole, not the last key alone on a blank screen, and one PgUp from
// there moves at once.
func TestKeyListStopsAtItsLastPage(t *testing.T) {
	h := newHarness(t, "text", 80, 16)
	h.send(keyF1)
	for range 3 {
		h.send(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	rows := strings.Split(h.transcriptRows(), "\n")
	if !strings.Contains(h.transcriptRows(), "  f1 ") || strings.Contains(h.transcriptRows(), "more keys") {
		t.Fatalf("PgDn did not reach the last key:\n%s", h.transcriptRows())
	}
	if blank := strings.TrimSpace(rows[len(rows)-2]) == ""; blank {
		t.Fatalf("the last page is not full:\n%s", h.transcriptRows())
	}
	last := h.transcriptRows()
	h.send(tea.KeyPressMsg{Code: tea.KeyUp})
	if h.transcriptRows() == last {
		t.Fatalf("↑ from the last page did not move the list:\n%s", last)
	}
}

// While the key list is open, typing goes nowhere: not into the composer underneath, not to
// an approval question; Ctrl+C still quits.
func TestKeyListTakesTheKeys(t *testing.T) {
	h := newHarness(t, "note", 120, 24)
	h.typeText("draft")
	h.send(keyF1)
	h.typeText("hello")
	h.send(keyEnter)
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	h.send(keyF1)
	if got := h.m.composer.Value(); got != "draft" || len(h.server.requests()) != 0 || h.m.ed.picker.open {
		t.Fatalf("keys typed under the key list acted: composer %q, %d requests", got, len(h.server.requests()))
	}
	h.m.composer.Reset()
	h.submit("note: buy milk")
	feedUntilQuiet(h)
	h.quiet()
	h.send(keyRune('?'))
	h.send(keyRune('y'))
	if !h.m.Chat().Asking() || h.m.composer.Value() != "" {
		t.Fatalf("y under the key list answered the question (asking %v, composer %q)", h.m.Chat().Asking(), h.m.composer.Value())
	}
	h.send(keyEsc)
	if !h.m.Chat().Asking() || h.m.keysOpen {
		t.Fatal("Esc closing the key list stopped the turn, or did not close it")
	}
	h.send(keyRune('?'))
	quit := false
	next, cmd := h.m.Update(keyCtrlC)
	h.m = next.(*Model)
	runCmd(cmd, func(msg tea.Msg) { _, quit = msg.(tea.QuitMsg) })
	if !quit || h.m.keysOpen {
		t.Fatal("Ctrl+C under the key list did not quit")
	}
}

// The README's key table names every key of the table (the keys a binding's help names, and
// the keys of those named in another's help), so what users read is what the chat takes.
func TestREADMEKeyTableNamesEveryKey(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n### Keys\n")
	section, _, _ = strings.Cut(section, "\n\n### ")
	var table strings.Builder
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| ") {
			table.WriteString(strings.ToLower(strings.ReplaceAll(line, " / ", "/")) + "\n")
		}
	}
	words := map[string]string{"pgdown": "pgdn", "alt+up": "alt+↑", "alt+down": "↓", "ctrl+up": "ctrl+↑", "ctrl+down": "↓"}
	for _, b := range keyList {
		for _, k := range b.Keys() {
			if k == "Y" || k == "N" || k == "shift+a" {
				continue // the same answers as y, n and A, which the table names
			}
			name := strings.ToLower(k)
			alias, ok := words[name]
			if !strings.Contains(table.String(), name) && !(ok && strings.Contains(table.String(), alias)) {
				t.Errorf("the README's key table does not name %s (%s)", k, b.long)
			}
		}
	}
}

// The key list names /copy's code-block form as the README and the usage message do:
// "/copy code [N]", the word the command needs included.
func TestKeyListNamesCopyCodeAsTheCommandTakesIt(t *testing.T) {
	if !strings.Contains(keys.Copy.long, "/copy code [N]") {
		t.Fatalf("the key list says %q", keys.Copy.long)
	}
}
