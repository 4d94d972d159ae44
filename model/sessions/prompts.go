package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/internal/secret"
)

// MaxPrompts caps the prompt history.
const MaxPrompts = 1000

// maxPromptsSize bounds the prompt history file read.
const maxPromptsSize = 16 << 20

// Prompts is the prompt history shared by every phasechat of the user: the prompts sent,
// oldest first, each once (sending one again moves it to the end), at most MaxPrompts. The
// file is mode 0600, replaced whole under a lock like the index.
type Prompts struct {
	path     string
	lockWait time.Duration // how long Add waits for another process's lock: LockWait
	// Secrets are hidden from every prompt kept: a key pasted into a prompt is never written.
	Secrets *secret.Set
}

// DefaultPrompts is the history in phasechat's data folder (created 0700 if missing).
func DefaultPrompts() (*Prompts, error) {
	dir, err := DataDir()
	if err != nil {
		return nil, err
	}
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	return &Prompts{path: filepath.Join(dir, "prompts.jsonl"), lockWait: LockWait}, nil
}

// Load returns the history, oldest first. A missing file is an empty history; lines that are
// not prompts are skipped.
func (p *Prompts) Load() ([]string, error) {
	data, err := safefile.ReadFile(p.path, maxPromptsSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the prompt history: %w", err)
	}
	var out []string
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var s string
		if json.Unmarshal(line, &s) == nil && s != "" {
			out = append(out, s)
		}
	}
	return dedupe(out), nil
}

// Add appends prompt to the history (moving an earlier copy of it to the end).
func (p *Prompts) Add(prompt string) error {
	prompt = p.Secrets.Redact(prompt)
	if prompt == "" {
		return nil
	}
	unlock, err := lock(p.path+".lock", "the prompt history", p.lockWait, nil)
	if err != nil {
		return err
	}
	defer unlock()
	all, err := p.Load()
	if err != nil {
		return err
	}
	all = dedupe(append(all, prompt))
	tmp, err := os.CreateTemp(filepath.Dir(p.path), ".prompts-*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write the prompt history: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	for _, s := range all {
		_ = enc.Encode(s)
	}
	err = w.Flush()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p.path)
	}
	if err != nil {
		return fmt.Errorf("cannot write the prompt history: %w", err)
	}
	return nil
}

// dedupe keeps the last copy of each prompt, in order, and the newest MaxPrompts.
func dedupe(all []string) []string {
	seen := make(map[string]bool, len(all))
	out := make([]string, 0, len(all))
	for i := len(all) - 1; i >= 0 && len(out) < MaxPrompts; i-- {
		if !seen[all[i]] {
			seen[all[i]] = true
			out = append(out, all[i])
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
