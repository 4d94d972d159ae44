package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// FileReader reads the files the user attaches. It reads files: the model calls it only
// from a command.
type FileReader interface {
	// Read reads each path as an attachment; notes say what was attached.
	Read(paths []string) (files []wire.Attachment, notes []string, err error)
	// Mentioned reads the files text's @path mentions name.
	Mentioned(text string) (files []wire.Attachment, notes []string, err error)
	// List is what an @mention may complete to (see attach.List).
	List() ([]string, error)
	// Pasted is data, pasted from the clipboard, as the attachment named name.
	Pasted(name string, data []byte) (files []wire.Attachment, notes []string, err error)
}

// filesListed is FileReader.List's answer.
type filesListed struct{ paths []string }

// completions are how many of the best matches the status line shows while a mention is
// typed.
const completions = 5

// mentionOpen reports whether the composer ends in an @mention being typed, and what of it.
func (m *Model) mentionOpen() (at int, query string, ok bool) {
	if m.files == nil {
		return 0, "", false
	}
	return attach.OpenMention(m.composerText)
}

// listFiles reads what mentions may complete to, once, when the first one is typed.
func (m *Model) listFiles() tea.Cmd {
	if m.listing {
		return nil
	}
	m.listing = true
	list := m.files
	return func() tea.Msg {
		paths, _ := list.List() // an unreadable folder lists nothing; mentions still work
		if paths == nil {
			paths = []string{}
		}
		return filesListed{paths}
	}
}

// mentionRank is the best completions of query among the files listed, once ranked.
type mentionRank struct {
	query  string
	best   []string
	ranked bool
}

// rankMention ranks the files listed for query, unless they are ranked for it already: in
// Update, when the mention changes or the files are listed, so that drawing costs nothing.
func (m *Model) rankMention(query string) {
	if m.fileList == nil || m.mention.ranked && m.mention.query == query {
		return
	}
	m.mention = mentionRank{query: query, best: attach.Rank(m.fileList, query, completions), ranked: true}
}

// mentionNote is the status line while a mention is typed: its best completions.
func (m *Model) mentionNote(query string) (string, bool) {
	if m.fileList == nil || !m.mention.ranked {
		return "Reading the file names…", false
	}
	best := m.mention.best
	if len(best) == 0 {
		return "No file or folder here matches @" + query + " (it stays text).", false
	}
	return strings.Join(best, "  ") + "   (Tab completes)", false
}

// completeMention replaces the mention being typed with its best completion: a file is then
// done (a space follows), a folder stays open for the next name.
func (m *Model) completeMention(at int, query string) {
	if m.fileList == nil {
		return
	}
	m.rankMention(query)
	best := m.mention.best
	if len(best) == 0 {
		m.warn("No file or folder here matches @" + query + ".")
		return
	}
	path := best[0]
	text := m.composerText[:at] + attach.Quote(path)
	if strings.HasSuffix(path, "/") {
		text = strings.TrimSuffix(text, `"`) // a quoted folder stays open too
	} else {
		text += " "
	}
	m.composer.SetValue(text)
	m.composer.MoveToEnd()
}

// attachCommand runs /attach: "clear" drops the files attached, paths are read in a command
// (held.go).
func (m *Model) attachCommand(arg string) (*Model, tea.Cmd) {
	if m.files == nil {
		m.warn("Files cannot be attached here.")
		return m, nil
	}
	if arg == "clear" {
		m.composer.Reset()
		return m.holdDetach()
	}
	paths := attach.SplitPaths(arg)
	if len(paths) == 0 {
		m.warn("Usage: /attach PATH… (quote a path with spaces), or /attach clear.")
		return m, nil
	}
	m.composer.Reset()
	read := m.files
	return m.holdFiles(func() ([]wire.Attachment, []string, error) { return read.Read(paths) })
}
