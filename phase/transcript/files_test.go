package transcript

import "testing"

// A prompt that carried files is focusable, however short, and expanding it does not fold or
// unfold its text: the files' details show under it. Other entries keep no files.
func TestPromptWithFilesExpands(t *testing.T) {
	var tr Transcript
	plain := tr.Add(Spec{Role: RoleUser, Text: "hi"})
	files := []File{{Chip: "[file notes.txt · 2 lines]", Details: "one\ntwo\n"}}
	with := tr.Add(Spec{Role: RoleUser, Text: "look\n[file notes.txt · 2 lines]", Files: files})
	notice := tr.Add(Spec{Role: RoleNotice, Text: "n", Files: files})
	files[0].Details = "changed by the caller"
	if plain.Expandable() || notice.Expandable() || notice.Files() != nil {
		t.Fatalf("expandable: plain %v, notice %v with files %v", plain.Expandable(), notice.Expandable(), notice.Files())
	}
	if !with.Expandable() || with.Folded() || len(with.Files()) != 1 || with.Files()[0].Details != "one\ntwo\n" {
		t.Fatalf("the prompt with files: expandable %v folded %v files %q", with.Expandable(), with.Folded(), with.Files())
	}
	v := with.Version()
	if !tr.MoveFocus(-1) || !with.Focused() || !tr.ToggleFocused() || !with.Expanded() || with.Folded() || with.Version() <= v {
		t.Fatalf("focus and expand: focused %v expanded %v", with.Focused(), with.Expanded())
	}
	if tr.MoveFocus(-1) {
		t.Fatal("the plain prompt took the focus")
	}
}
