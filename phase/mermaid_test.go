package phase

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/phases.md from the transition table")

const diagramBegin, diagramEnd = "```mermaid\n", "```\n"

// docs/phases.md holds the diagram mermaid draws from Transitions; this test fails when the
// two disagree. Regenerate with: go test ./phase -run TestDiagramMatchesDocs -update
func TestDiagramMatchesDocs(t *testing.T) {
	path := filepath.Join("..", "docs", "phases.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	text := string(doc)
	i := strings.Index(text, diagramBegin)
	j := strings.Index(text[i+len(diagramBegin):], diagramEnd)
	if i < 0 || j < 0 {
		t.Fatalf("%s has no ```mermaid block", path)
	}
	j += i + len(diagramBegin)
	inDoc, want := text[i+len(diagramBegin):j], mermaid()
	if inDoc == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(text[:i+len(diagramBegin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s disagrees with phase.Transitions; run: go test ./phase -run TestDiagramMatchesDocs -update\nin the doc:\n%s\nfrom the table:\n%s", path, inDoc, want)
}

func TestMermaidDrawsEveryTransition(t *testing.T) {
	m := mermaid()
	if !strings.HasPrefix(m, "stateDiagram-v2\n") || !strings.Contains(m, "[*] --> idle") {
		t.Fatalf("not a state diagram starting at idle:\n%s", m)
	}
	for _, tr := range Transitions {
		prefix := mermaidID(tr.From) + " --> " + mermaidID(tr.To) + ": "
		found := false
		for _, line := range strings.Split(m, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, prefix) && strings.Contains(", "+line[len(prefix):]+",", " "+tr.On.String()+",") {
				found = true
			}
		}
		if !found {
			t.Errorf("diagram lacks %s --%s--> %s", tr.From, tr.On, tr.To)
		}
	}
	if strings.Contains(m, "error --> complete") {
		t.Error("diagram shows error --> complete, which the reducer never does (done after error stays error)")
	}
}
