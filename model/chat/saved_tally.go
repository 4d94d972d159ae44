package chat

import (
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// SavedTally is what a finished turn used, as a session log keeps it. Reply is the place of
// the reply that ended the turn among the history's user and assistant messages (tool results
// not counted), so it survives the repair of the history; Usage is what the turn's requests
// reported, summed; Model the model it was held with ("" not known); Took how long the turn
// took, 0 when not known. Price is Model's price when the log was read (nil: not known): a
// turn held with another model than the one in use is priced at it.
type SavedTally struct {
	Reply int
	Usage wire.Usage
	Model string
	Took  time.Duration
	Price *budget.Price
}

// cost is what the turn cost at its Price; 0 when that is not known.
func (t SavedTally) cost() float64 {
	if t.Price == nil {
		return 0
	}
	return t.Price.Cost(t.Usage)
}

// SetTallies puts each finished turn's tally under the reply that ended it, as the live
// session showed it; a turn held with the model in use is priced as a live turn is, one held
// with another at its own Price. tallies
// are in the order of their replies. Call it after New or Restart (and SetCompactions).
func (c *Chat) SetTallies(tallies []SavedTally) {
	entries := c.tr.Entries()
	k, said := 0, -1
	for _, m := range c.History {
		var role transcript.Role
		switch m.Role {
		case "user":
			role = transcript.RoleUser
		case "assistant":
			role = transcript.RoleAssistant
		default:
			continue
		}
		said++
		for k < len(entries) && entries[k].Role() != role { // passes over a compaction's summary
			k++
		}
		for len(tallies) > 0 && tallies[0].Reply < said {
			tallies = tallies[1:]
		}
		if k == len(entries) || len(tallies) == 0 {
			return
		}
		if tallies[0].Reply == said && role == transcript.RoleAssistant {
			c.tr.SetTally(entries[k], c.savedTally(tallies[0]))
		}
		k++
	}
}

// savedTally is t as a transcript shows it.
func (c *Chat) savedTally(t SavedTally) transcript.Tally {
	u := t.Usage
	out := transcript.Tally{Model: t.Model, Duration: t.Took, Prompt: u.PromptTokens, Cached: u.CachedTokens,
		Completion: u.CompletionTokens, Reasoning: u.ReasoningTokens}
	switch {
	case t.Model == "" || t.Model == c.modelLabel():
		out.Model = c.modelLabel()
		out.Cost, out.Priced = c.cfg.Budget.Cost(u)
	case t.Price != nil:
		out.Cost, out.Priced = t.cost(), true
	}
	return out
}
