package linemode

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
)

// Conversations lets line mode start a new conversation and go back to a saved one; the
// recorder returned last is where records go.
type Conversations interface {
	New() perform.Recorder
	List() ([]sessions.Meta, error)
	Resume(id string) (sessions.Continued, error)
}

// command runs one command line; it is never sent to the model.
func (s *session) command(line string) {
	name, arg, c, _ := chat.ParseCommand(line)
	prompt := true
	defer func() {
		if prompt && !s.quitting && s.focus == phase.FocusComposer && !s.chat.State.Phase.Streaming() {
			s.write("You: ")
			s.prompted = true
		}
	}()
	switch c.ID {
	case chat.CommandHelp:
		s.say(append([]string{"Commands:"}, chat.CommandsHelp()...)...)
	case chat.CommandQuit:
		s.quitting = true
	case chat.CommandModel:
		prompt = false
		s.chooseModel(line)
	case chat.CommandRetry:
		prompt = false
		if s.chat.State.Phase == phase.Error {
			s.apply(s.chat.Retry())
		} else if s.chat.CanRegenerate() {
			s.apply(s.chat.Regenerate())
		} else {
			prompt = true
			s.say(Note("Nothing to retry yet."))
		}
	case chat.CommandUsage:
		s.say(s.chat.UsageReport()...)
	case chat.CommandQueue:
		lines, effects := s.chat.QueueCommand(arg)
		if len(lines) > 0 {
			said := []string{Note(lines[0])}
			for _, l := range lines[1:] {
				said = append(said, safe.Line(l))
			}
			s.say(said...)
		}
		if len(effects) > 0 {
			prompt = false
			s.apply(effects)
		}
	case chat.CommandCompact:
		if s.chat.State.Phase.Streaming() {
			s.say(Note("/compact waits for the reply to end."))
			break
		}
		effects := s.chat.Compact(arg)
		prompt = len(effects) == 0
		s.apply(effects)
	case chat.CommandSystem:
		s.chat.SetSystem(arg)
		if arg == "" {
			s.say(Note("No system prompt from now on."))
		} else {
			s.say(Note("System prompt set for the next requests."))
		}
	case chat.CommandCopy:
		s.copyReply(arg)
	case chat.CommandAttach:
		s.attachCommand(arg)
	case chat.CommandNew:
		if s.convs != nil {
			s.driver.Log = s.convs.New()
		}
		s.chat.Restart(nil)
		s.freshAnnouncer()
		s.say(Note("A new conversation."))
	case chat.CommandSessions:
		s.listSessions()
	case chat.CommandClear:
		s.chat.ClearTranscript()
		s.freshAnnouncer()
		s.say(Note("Transcript cleared. The conversation is kept: the next message still sends it."))
	default:
		s.say(Note("Unknown command " + safe.Line(name) + ": it was not sent. /help lists the commands; // sends a line starting with a slash."))
	}
}

func (s *session) copyReply(arg string) {
	var reply string
	entries := s.chat.Entries()
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.Role() == transcript.RoleAssistant && strings.TrimSpace(e.Text()) != "" {
			reply = e.Text()
			break
		}
	}
	what := "the last reply"
	switch {
	case reply == "":
		s.say(Note("There is no reply to copy yet."))
		return
	case s.clip == nil:
		s.say(Note("No system clipboard tool was found (wl-copy, xclip or pbcopy); line mode never sends terminal escapes, so nothing was copied."))
		return
	case arg != "":
		word, num, _ := strings.Cut(arg, " ")
		var blocks []string
		if s.codeBlocks != nil {
			blocks = s.codeBlocks(reply)
		}
		n := len(blocks)
		if num = strings.TrimSpace(num); num != "" {
			var err error
			if n, err = strconv.Atoi(num); err != nil || n < 1 {
				n = -1
			}
		}
		switch {
		case word != "code" || n < 0:
			s.say(Note("Usage: /copy, or /copy code [N] for the last (or Nth) code block of the last reply."))
			return
		case len(blocks) == 0:
			s.say(Note("The last reply has no code block."))
			return
		case n > len(blocks):
			s.say(Note(fmt.Sprintf("The last reply has %d code blocks.", len(blocks))))
			return
		}
		reply, what = blocks[n-1], fmt.Sprintf("code block %d of %d", n, len(blocks))
	}
	if err := s.clip(reply); err != nil {
		s.say(Note("Copying failed: " + err.Error()))
		return
	}
	s.say(Note(fmt.Sprintf("Copied %s (%d characters).", what, utf8.RuneCountInString(reply))))
}

// listSessions prints the saved conversations, numbered; the next line picks one.
func (s *session) listSessions() {
	if s.convs == nil {
		s.say(Note("Conversations are not being saved in this session (--no-save)."))
		return
	}
	all, err := s.convs.List()
	if err != nil {
		s.say(Note("The saved conversations could not be listed: " + err.Error()))
		return
	}
	all = sessions.Interactive(all) // one-shot runs are kept, but not offered here
	if len(all) == 0 {
		s.say(Note("No saved conversations yet."))
		return
	}
	all = all[:min(len(all), 20)]
	lines := []string{fmt.Sprintf("Saved conversations, the latest first (%d shown). Type a number and Enter to continue one; anything else keeps this one.", len(all))}
	for i, m := range all {
		turns := "turns"
		if m.Turns == 1 {
			turns = "turn"
		}
		lines = append(lines, fmt.Sprintf("%d. %s, %d %s: %s", i+1, m.Updated.Local().Format("2006-01-02 15:04"), m.Turns, turns, safe.Line(m.Title)))
	}
	s.say(lines...)
	s.picking = all
}

// pickSession answers the list /sessions printed.
func (s *session) pickSession(line string) {
	defer func() {
		s.write("You: ")
		s.prompted = true
	}()
	list := s.picking
	s.picking = nil
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || n < 1 || n > len(list) {
		s.say(Note("Kept this conversation."))
		return
	}
	res, err := s.convs.Resume(list[n-1].ID)
	if err != nil {
		s.say(Note("The conversation could not be opened: " + err.Error()))
		return
	}
	s.driver.Log = res.Log
	s.chat.Restart(res.History)
	s.chat.SetCompactions(res.Compactions)
	s.chat.SetTallies(res.Tallies)
	s.freshAnnouncer()
	s.say(Note(res.Notice))
}

// freshAnnouncer takes the transcript as it is now as read: a new, cleared or resumed
// conversation is not read out again.
func (s *session) freshAnnouncer() {
	s.ann.Close()
	s.ann = NewAnnouncer(s.chat.State, s.chat.Follow())
}
