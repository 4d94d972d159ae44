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

// normalizeArgs turns a call's raw argument text into the JSON a tool receives: blank text is
// {}; an object is kept byte for byte (surrounding space trimmed); any other JSON value v is
// wrapped as {"value": v} (docs/architecture.md, Tool calls). It also returns the decoded value, numbers as json.Number.
func normalizeArgs(text string) (string, map[string]any, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "{}", map[string]any{}, nil
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return "", nil, fmt.Errorf("the arguments are not valid JSON (%v)", err)
	}
	if obj, ok := v.(map[string]any); ok {
		return text, obj, nil
	}
	return `{"value":` + text + `}`, map[string]any{"value": v}, nil
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

// redactArgs hides the secrets in a call's arguments, in the JSON text and in every string of
// it once decoded (a key written with \u escapes is still a key): a string holding one is
// rewritten with it redacted.
func redactArgs(set *secret.Set, text string) string {
	if set.Empty() {
		return text
	}
	text = set.Redact(text)
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return text
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
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			for k, x := range v {
				if rk := set.Redact(k); rk != k {
					changed = true
					delete(v, k)
					k = rk
				}
				v[k] = walk(x)
			}
		}
		return v
	}
	v = walk(v)
	if !changed {
		return text
	}
	b, err := json.Marshal(v)
	if err != nil {
		return text
	}
	return string(b)
}
