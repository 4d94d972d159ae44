package app

import (
	"sync"

	"github.com/phasechat/phasechat/internal/budget"
)

// servedBudgets is what providers' GET /models answers said of their models' windows and
// prices, by provider and model. Safe for concurrent use; a nil one holds nothing.
type servedBudgets struct {
	mu sync.Mutex
	m  map[[2]string]budget.Model
}

// put keeps what the provider's list said of model, when it said anything.
func (s *servedBudgets) put(provider, model string, b budget.Model) {
	if !b.Known() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[[2]string]budget.Model{}
	}
	s.m[[2]string{provider, model}] = b
}

// get is what the provider's list said of model; ok is false when it said nothing.
func (s *servedBudgets) get(provider, model string) (budget.Model, bool) {
	if s == nil {
		return budget.Model{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[[2]string{provider, model}]
	return b, ok
}
