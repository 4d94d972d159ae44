package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// DefaultTimeout bounds a tool's run when its definition sets none.
const DefaultTimeout = 30 * time.Second

// Tool is one compiled tool definition: a built-in, or a command from a tools file. Its schema
// is compiled once, when it is made. Make one with LoadFile or Parse; built-ins come with
// NewRegistry. The zero Tool is not usable.
type Tool struct {
	name        string
	description string
	parameters  json.RawMessage // compact JSON Schema of the arguments object
	schema      *argSchema
	sideEffects bool
	timeout     time.Duration
	argv        []string     // a command tool's program and fixed arguments; nil for a built-in
	builtin     builtinFunc  // a built-in's implementation; nil for a command tool
	external    ExternalFunc // an external tool's remote call; nil otherwise
	approvalKey string       // see External.ApprovalKey
	group       string       // the group an external tool belongs to
}

// builtinFunc runs a built-in with validated arguments. It returns what the model is told, or
// an error whose text the model is told instead. It honours ctx.
type builtinFunc func(ctx context.Context, r *Registry, args map[string]any) (string, error)

// Name is the name the model calls the tool by.
func (t Tool) Name() string { return t.name }

// Definition is one tool as an OpenAI chat request's `tools` list carries it. It marshals to
// that entry: {"type": "function", "function": {"name", "description", "parameters"}}.
type Definition struct {
	Name        string
	Description string
	Parameters  json.RawMessage // a JSON Schema whose top-level type is "object"
}

// MarshalJSON writes d as an entry of the request's `tools` list, as wire.Tool does: the one
// wire encoding of a tool definition.
func (d Definition) MarshalJSON() ([]byte, error) {
	return json.Marshal(wire.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
}

// Registry holds the tools the model may call and runs them. Only registered tools run (T1).
//
// Set Clean (required) and, if wanted, Now and MaxOutput before the first Run, and do not
// change them afterwards. Add, Run, Describe and the other methods are safe for concurrent use.
type Registry struct {
	// Clean sanitises text for the screen and the model (view/safe.Text in the chat). Run
	// applies it to every output and error text, and Describe to its summary, before they
	// return (docs/architecture.md, Running tools and Safety). Required: Run and Describe panic when it is nil.
	Clean func(string) string
	// Now is the clock of the built-in `now`; nil means time.Now.
	Now func() time.Time
	// MaxOutput caps a command tool's output in bytes, head and tail kept; 0 means
	// DefaultMaxOutput.
	MaxOutput int
	// Secrets are hidden from a tool's arguments before it runs and from its output and
	// errors, and no environment variable holding one reaches a command; nil hides nothing.
	Secrets *secret.Set
	// MaxParallel bounds how many tools run at once; the others wait, in no set order, for a
	// slot (their timeout starts then). 0 means DefaultMaxParallel.
	MaxParallel int
	// HiddenEnv names environment variables a command never gets (the provider key variables
	// of the configuration), on top of those in ProviderEnv.
	HiddenEnv []string

	root string // absolute, symlinks resolved; built-ins never reach outside it

	running   sync.WaitGroup // Runs in progress
	slotsOnce sync.Once
	slots     chan struct{} // one token per running tool

	mu      sync.RWMutex
	tools   map[string]*Tool   // every tool by name, group tools included
	order   []*Tool            // tools added with Add, in that order: built-ins first
	groups  map[string][]*Tool // external tools by group (SetGroup)
	pending map[string]bool    // groups whose tools are still coming (ExpectGroup)
}

// NewRegistry returns a registry holding the built-ins, confined to root ("" means the working
// directory), which must be a directory. Command tools also run in root.
func NewRegistry(root string) (*Registry, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("tools: finding the working directory: %w", err)
		}
		root = wd
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("tools: root %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("tools: root %q: %w", root, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("tools: root %q is not a directory", root)
	}
	r := &Registry{root: real, tools: make(map[string]*Tool)}
	for _, t := range builtins() {
		if err := r.Add(t); err != nil {
			return nil, err // a defect in a built-in's definition
		}
	}
	return r, nil
}

// Root is the directory the built-ins are confined to, absolute and with symlinks resolved.
func (r *Registry) Root() string { return r.root }

// Add registers tools. It adds none of them if any name is already taken.
func (r *Registry) Add(tools ...Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[string]bool)
	for _, t := range tools {
		if t.schema == nil {
			return fmt.Errorf("tools: tool %q was not made by LoadFile or Parse", t.name)
		}
		if old, ok := r.tools[t.name]; ok || seen[t.name] {
			if ok && old.builtin != nil {
				return fmt.Errorf("tools: tool %q has the name of a built-in tool; rename it", t.name)
			}
			return fmt.Errorf("tools: tool %q is defined twice", t.name)
		}
		seen[t.name] = true
	}
	for _, t := range tools {
		t.argv = slices.Clone(t.argv)
		r.tools[t.name] = &t
		r.order = append(r.order, &t)
	}
	return nil
}

// Definitions returns every tool for the request's `tools` list: built-ins first, then in the
// order they were added, then each group's tools (groups sorted by name).
func (r *Registry) Definitions() []Definition {
	r.mu.RLock()
	defer r.mu.RUnlock()
	all := r.all()
	defs := make([]Definition, len(all))
	for i, t := range all {
		defs[i] = Definition{Name: t.name, Description: t.description, Parameters: slices.Clone(t.parameters)}
	}
	return defs
}

// Names returns the tool names in the order of Definitions.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	all := r.all()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.name
	}
	return names
}

// SideEffects reports whether running the named tool may change something, so the chat asks
// before running it (T2). Built-ins have none; unknown names report false (Run refuses them).
func (r *Registry) SideEffects(name string) bool {
	t := r.lookup(name)
	return t != nil && t.sideEffects
}

func (r *Registry) lookup(name string) *Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.tools[name]
}

func (r *Registry) clean(s string) string {
	if r.Clean == nil {
		panic("tools: Registry.Clean is nil; set it to the screen sanitiser (view/safe.Text) before Run or Describe")
	}
	return r.Clean(r.Secrets.Redact(s))
}

func (r *Registry) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Registry) maxOutput() int {
	if r.MaxOutput > 0 {
		return r.MaxOutput
	}
	return DefaultMaxOutput
}
