package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
)

// promptsAt is the history kept in the file at path.
func promptsAt(path string) *Prompts { return &Prompts{path: path, lockWait: LockWait} }

func TestPromptsAreKeptOnceNewestLast(t *testing.T) {
	p := promptsAt(filepath.Join(t.TempDir(), "prompts.jsonl"))
	for _, s := range []string{"a", "b", "a", "multi\nline", ""} {
		if err := p.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	got, err := p.Load()
	if err != nil || !slices.Equal(got, []string{"b", "a", "multi\nline"}) {
		t.Fatalf("history = %q, %v", got, err)
	}
	if fi, _ := os.Stat(p.path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestPromptsAreCapped(t *testing.T) {
	p := promptsAt(filepath.Join(t.TempDir(), "prompts.jsonl"))
	// Four writers take turns 1,200 times: on a loaded machine (or under -race) one of them may
	// lose the race for the lock for longer than a person ever waits, which is not what this
	// test is about.
	p.lockWait = time.Hour
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 300 {
				if err := p.Add(fmt.Sprintf("%d-%d", g, i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	got, _ := p.Load()
	if len(got) != MaxPrompts {
		t.Fatalf("%d prompts kept, want the newest %d of 1200", len(got), MaxPrompts)
	}
	for g := range 4 {
		// Each writer's last prompt is followed by at most 900 others: it must be kept.
		if !slices.Contains(got, fmt.Sprintf("%d-299", g)) {
			t.Errorf("writer %d's last prompt was lost to a concurrent writer", g)
		}
	}
}

func TestPromptsKeepNoSecret(t *testing.T) {
	p := promptsAt(filepath.Join(t.TempDir(), "prompts.jsonl"))
	p.Secrets = secret.New("sk-history-secret-42")
	if err := p.Add("use sk-history-secret-42 please"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p.path)
	if strings.Contains(string(data), "sk-history") || !strings.Contains(string(data), secret.Redacted) {
		t.Errorf("the history file holds %q", data)
	}
}
