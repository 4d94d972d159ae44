package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/tools/jsonschema"
	"github.com/phasechat/phasechat/phase"
)

// emptyObjectSchema is the schema of a tool that takes no arguments.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// compileSchema checks that src is a JSON Schema (draft 2020-12 unless it says otherwise) for
// an object and compiles it. It returns the schema re-encoded compactly, for Definitions.
// $ref may point only inside the schema itself: nothing is loaded from files or the network.
func compileSchema(src []byte) (*jsonschema.Schema, json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("not valid JSON: invalid character after top-level value")
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, errors.New(`must be a JSON object such as {"type": "object", "properties": {...}}`)
	}
	if obj["type"] != "object" {
		return nil, nil, errors.New(`the top-level "type" must be "object" (the arguments are always an object)`)
	}
	sch, err := jsonschema.Compile(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %v", err)
	}
	compact, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	return sch, compact, nil
}

// callArgs is the call's parsed arguments: the caller's, or (when it has none) Arguments parsed here.
func callArgs(call Call) (phase.Args, error) {
	if call.Args != nil && call.Args.Object != nil {
		return *call.Args, nil
	}
	a, err := phase.ParseArgs(call.Arguments)
	var bad *phase.ArgsError
	if errors.As(err, &bad) {
		return a, fmt.Errorf("the arguments are not valid JSON (%s)", bad.Detail)
	}
	return a, err
}

// redactArgs hides the secrets in a call's arguments: in every string, key and number of the
// decoded object (a key written with \u escapes is still a key) and in its JSON text. The
// arguments are shared with the call's other readers, so a change is made to a copy.
func redactArgs(set *secret.Set, a phase.Args) phase.Args {
	if set.Empty() {
		return a
	}
	changed := false
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			if r := set.Redact(v); r != v {
				changed = true
				return r
			}
		case json.Number:
			if r := set.Redact(string(v)); r != string(v) {
				changed = true
				return r
			}
		case []any:
			out := make([]any, len(v))
			for i := range v {
				out[i] = walk(v[i])
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				if rk := set.Redact(k); rk != k {
					changed = true
					k = rk
				}
				out[k] = walk(x)
			}
			return out
		}
		return v
	}
	obj := walk(a.Object).(map[string]any)
	if !changed {
		if r := set.Redact(a.JSON); r != a.JSON {
			return phase.Args{Object: obj, JSON: r} // a secret across tokens: hidden, whatever it breaks
		}
		return a
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return phase.Args{Object: obj, JSON: set.Redact(a.JSON)}
	}
	return phase.Args{Object: obj, JSON: set.Redact(string(b))}
}
