package linemode

import (
	"errors"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// lineFiles attaches a one-line text file of each name in have.
type lineFiles map[string]bool

func (f lineFiles) Read(paths []string) ([]wire.Attachment, []string, error) {
	var files []wire.Attachment
	var notes []string
	for _, p := range paths {
		if !f[p] {
			return nil, nil, errors.New("cannot attach " + p + ": there is no such file")
		}
		a := wire.Attachment{Name: p, Kind: wire.AttachText, Lines: 1, Size: 1, Data: []byte("x")}
		files, notes = append(files, a), append(notes, "attached "+a.Chip())
	}
	return files, notes, nil
}

func (f lineFiles) Mentioned(text string) ([]wire.Attachment, []string, error) {
	var paths []string
	for _, w := range strings.Fields(text) {
		if strings.HasPrefix(w, "@") && f[w[1:]] {
			paths = append(paths, w[1:])
		}
	}
	return f.Read(paths)
}

// TestLineModeAttachesFilesInWords: /attach says what it attached, a mention too, a file
// that cannot be read is said and the message is not sent, and the next message carries
// both files.
func TestLineModeAttachesFilesInWords(t *testing.T) {
	var out syncBuffer
	o := sessionOptions(t, fixtureURL(t), "text", t.TempDir(), false,
		pipeWith(t, "/attach notes.txt\n/attach gone.txt\nread @b.md\n"), &out)
	o.Files = lineFiles{"notes.txt": true, "b.md": true}
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Note: attached: notes.txt (1 line); sent with your next message.",
		"Note: cannot attach gone.txt: there is no such file.",
		"Note: attached: b.md (1 line).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	var sent []string
	for _, m := range o.Chat.History {
		for _, a := range m.Attachments {
			sent = append(sent, a.Name)
		}
	}
	if strings.Join(sent, ",") != "notes.txt,b.md" {
		t.Errorf("the message carried %v", sent)
	}
}

// A note's words beyond the chip (where a link led, secrets removed) are kept.
func TestSpokenNotesKeepWhatFollowsTheChip(t *testing.T) {
	files := []wire.Attachment{{Name: "link.txt", Kind: wire.AttachText, Lines: 2}}
	notes := []string{"attached " + files[0].Chip() + " (the link leads to /tmp/real.txt); 1 secret was removed from it"}
	want := "attached: link.txt (2 lines) (the link leads to /tmp/real.txt); 1 secret was removed from it"
	if got := spokenNotes(files, notes); len(got) != 1 || got[0] != want {
		t.Errorf("%q, want %q", got, want)
	}
}
