package transcript

// File is a file a prompt carried: its chip, the one line it is shown as, and what expanding
// the prompt shows of it. Both are untrusted (the file's name and contents).
type File struct {
	Chip    string // "[file notes.txt · 37 lines]", "[image red.png · 8×8 · 1 KB]"
	Details string // a text file's contents; an image's or PDF's facts
}

// Files are the files the prompt carried, in the order sent; nil for other entries. The
// slice is the entry's own: read it, do not keep it past the next change.
func (e *Entry) Files() []File { return e.files }

// Expandable reports whether the entry itself can be focused and expanded: a prompt long
// enough to fold, or one that carried files (expanding shows their details).
func (e *Entry) Expandable() bool { return e.Foldable() || e.role == RoleUser && len(e.files) > 0 }
