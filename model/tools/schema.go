package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/format"
	"github.com/phasechat/phasechat/phase/secret"
)

// english prints the schema library's messages for the kinds leafProblem does not word itself.
var english = message.NewPrinter(language.English)

// emptyObjectSchema is the schema of a tool that takes no arguments.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// compileSchema checks that src is a JSON Schema (draft 2020-12 unless it says otherwise) for
// an object and compiles it. It returns the schema re-encoded compactly, for Definitions.
// $ref may point only inside the schema itself: nothing is loaded from files or the network.
func compileSchema(name string, src []byte) (*jsonschema.Schema, json.RawMessage, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		return nil, nil, fmt.Errorf("not valid JSON: %v", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, errors.New(`must be a JSON object such as {"type": "object", "properties": {...}}`)
	}
	if obj["type"] != "object" {
		return nil, nil, errors.New(`the top-level "type" must be "object" (the arguments are always an object)`)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	url := "mem:///tools/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %v", err)
	}
	sch, err := c.Compile(url)
	var invalid *jsonschema.SchemaValidationError
	if errors.As(err, &invalid) {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %s", validationProblem(invalid.Err))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %v", err)
	}
	compact, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	return sch, compact, nil
}

// noLoader refuses every external $ref.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external $ref %q is not allowed; keep the schema self-contained", url)
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

// validationProblem describes a failed validation in words, one problem per line, each
// naming where in the arguments it is: `missing property "path"`, `at "/max_bytes": want
// integer, got string`.
func validationProblem(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var lines []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			lines = append(lines, leafProblem(e))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(lines, "; ")
}

func leafProblem(e *jsonschema.ValidationError) string {
	var msg string
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		msg = "missing " + format.Plural(len(k.Missing), "property", "properties") + " " + quoteAll(k.Missing)
	case *kind.AdditionalProperties:
		msg = "unexpected " + format.Plural(len(k.Properties), "property", "properties") + " " + quoteAll(k.Properties)
	case *kind.Type:
		msg = fmt.Sprintf("want %s, got %s", strings.Join(k.Want, " or "), k.Got)
	default:
		msg = e.ErrorKind.LocalizedString(english)
	}
	if len(e.InstanceLocation) == 0 {
		return msg
	}
	return fmt.Sprintf("at %q: %s", "/"+strings.Join(e.InstanceLocation, "/"), msg)
}

// quoteAll lists names quoted, sorted: the library reports some of them in map order.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	slices.Sort(q)
	return strings.Join(q, ", ")
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
