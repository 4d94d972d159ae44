package chat

import (
	"context"

	"github.com/phasechat/phasechat/internal/budget"
)

// ModelChoice is one model a session can switch to: a configured provider's model, the
// endpoint and wire format label ("Anthropic Messages") the footer shows for it, and its
// context window and price as far as they are known.
type ModelChoice struct {
	Provider, Model, Endpoint, Wire string
	Budget                          budget.Model
}

// Switch makes the choice the model of the next request, with its window and price (see
// SetModel).
func (c *Chat) Switch(choice ModelChoice) []Effect {
	effects := c.SetModel(choice.Provider, choice.Model)
	if effects != nil {
		c.cfg.Budget = choice.Budget
	}
	return effects
}

// Label is "provider/model".
func (c ModelChoice) Label() string { return c.Provider + "/" + c.Model }

// ModelLister lists every configured provider's models, asking servers when it must, so it
// does I/O: a front end calls it from a command or a worker, never from its update. problems
// name the providers that could not be asked.
type ModelLister func(ctx context.Context) (choices []ModelChoice, problems []string)

// Switched is the notice a front end shows when the user chose c.
func Switched(c ModelChoice) string {
	return "Switched to " + c.Label() + ": the next request goes there, with the conversation so far."
}
