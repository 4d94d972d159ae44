package wire

import "testing"

func TestAttachmentSpokenSaysNameAndSize(t *testing.T) {
	for _, tc := range []struct {
		a    Attachment
		want string
	}{
		{Attachment{Name: "docs/notes.txt", Kind: AttachText, Lines: 37}, "notes.txt (37 lines)"},
		{Attachment{Name: "one.txt", Kind: AttachText, Lines: 1}, "one.txt (1 line)"},
		{Attachment{Name: "red.png", Kind: AttachImage, Width: 8, Height: 8, Size: 1024}, "red.png (image, 8×8 pixels, 1 KB)"},
		{Attachment{Name: "r.pdf", Kind: AttachPDF, Size: 2048}, "r.pdf (PDF, 2 KB)"},
	} {
		if got := tc.a.Spoken(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.a.Name, got, tc.want)
		}
	}
}
