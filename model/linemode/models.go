package linemode

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/view/safe"
)

// chooseModel handles /model, which lists the models to switch between, numbered, and the
// line that answers its list: a number picks one, anything else keeps the current model.
func (s *session) chooseModel(line string) {
	defer func() {
		s.write("You: ")
		s.prompted = true
	}()
	if s.choosing != nil {
		list := s.choosing
		s.choosing = nil
		n, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil || n < 1 || n > len(list) {
			provider, model := s.chat.Model()
			s.say(Note("Kept " + provider + "/" + model + "."))
			return
		}
		choice := list[n-1]
		s.driver.Apply(s.chat.Switch(choice))
		s.say(Note(chat.Switched(choice)))
		return
	}
	if s.models == nil {
		s.say(Note("No providers to switch between: name them in the config file (see docs/config.md)."))
		return
	}
	choices, problems := s.models(context.Background())
	provider, model := s.chat.Model()
	lines := []string{fmt.Sprintf("Models: %d. Type a number and Enter to switch; anything else keeps the current one.", len(choices))}
	for i, c := range choices {
		line := fmt.Sprintf("%d. %s", i+1, safe.Line(c.Label())) + modelFacts(c.Budget)
		if c.Provider == provider && c.Model == model {
			line += " (current)"
		}
		lines = append(lines, line)
	}
	for _, p := range problems {
		lines = append(lines, Note("Not listed: "+p))
	}
	s.say(lines...)
	if len(choices) > 0 {
		s.choosing = choices
	}
}

// modelFacts says a model's context window and price per million tokens in words, after a
// comma; "" when neither is known.
func modelFacts(m budget.Model) string {
	var facts []string
	if m.Window > 0 {
		facts = append(facts, budget.Tokens(m.Window)+" context")
	}
	if p := m.Price; p != nil {
		facts = append(facts, fmt.Sprintf("$%s in and $%s out per million tokens", budget.PerMillion(p.In), budget.PerMillion(p.Out)))
	}
	if len(facts) == 0 {
		return ""
	}
	return ", " + strings.Join(facts, ", ")
}
