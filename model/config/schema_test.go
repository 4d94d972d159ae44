package config

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/phasechat/phasechat/model/mcp"
)

const schemaPath = "../../docs/config.schema.json"

func loadSchema(t *testing.T) (map[string]any, *jsonschema.Resolved) {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(data, &sch); err != nil {
		t.Fatal(err)
	}
	resolved, err := sch.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return decodeJSON(t, data).(map[string]any), resolved
}

// decodeJSON decodes a JSON document with its numbers as float64, as the schema library types
// them.
func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// tomlKeys are the keys a struct decodes, by its toml tags.
func tomlKeys(v any) []string {
	var keys []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		tag := strings.Split(rt.Field(i).Tag.Get("toml"), ",")[0]
		if tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	sort.Strings(keys)
	return keys
}

func propertyNames(obj map[string]any) []string {
	var keys []string
	for k := range obj["properties"].(map[string]any) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestSchemaMatchesTheGoTypes(t *testing.T) {
	doc, _ := loadSchema(t)
	if got, want := propertyNames(doc), tomlKeys(File{}); !reflect.DeepEqual(got, want) {
		t.Errorf("schema top-level keys %v, Go File keys %v", got, want)
	}
	prov := doc["$defs"].(map[string]any)["provider"].(map[string]any)
	if got, want := propertyNames(prov), tomlKeys(Provider{}); !reflect.DeepEqual(got, want) {
		t.Errorf("schema provider keys %v, Go Provider keys %v", got, want)
	}
	if got, want := propertyNames(prov), providerKeysSorted(); !reflect.DeepEqual(got, want) {
		t.Errorf("schema provider keys %v, suggested keys %v", got, want)
	}
	server := doc["$defs"].(map[string]any)["mcpServer"].(map[string]any)
	if got, want := propertyNames(server), tomlKeys(mcp.Server{}); !reflect.DeepEqual(got, want) {
		t.Errorf("schema MCP server keys %v, Go mcp.Server keys %v", got, want)
	}
	for _, obj := range []map[string]any{doc, prov, server} {
		if obj["additionalProperties"] != false {
			t.Error("the schema must reject unknown keys, as the parser does")
		}
	}
}

func providerKeysSorted() []string {
	k := append([]string(nil), providerKeys...)
	sort.Strings(k)
	return k
}

// TestSchemaAgreesWithTheParser: the example validates against the schema, and files the
// parser rejects for a key's value or an unknown key are rejected by the schema too.
func TestSchemaAgreesWithTheParser(t *testing.T) {
	_, sch := loadSchema(t)
	validate := func(text string) error {
		var v map[string]any
		if _, err := toml.Decode(text, &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		return sch.Validate(decodeJSON(t, b))
	}
	example, _ := os.ReadFile("testdata/example-config.toml")
	if err := validate(string(example)); err != nil {
		t.Errorf("the example does not validate: %v", err)
	}
	if err := validate(fullFile); err != nil {
		t.Errorf("the full test file does not validate: %v", err)
	}
	base := "[provider.p]\nbase_url = \"http://h/v1\"\n"
	for _, bad := range []string{
		"colour = 1\n", "theme = \"blue\"\n", "max_steps = 0\n", "stall_timeout = \"soon\"\n",
		base + "bogus = 1\n", base + "stream_options = \"yes\"\n", base + "max_tokens = 0\n",
		base + "temperature = 3.0\n", base + "reasoning_effort = \"max\"\n", base + "extra_body = { model = \"x\" }\n",
		"[provider.p]\nmodels = [\"a\"]\n", "[provider.p]\nbase_url = \"ftp://h\"\n",
	} {
		if _, perr := Parse([]byte(bad), "c.toml"); perr == nil {
			t.Errorf("the parser accepts %q", bad)
		}
		if err := validate(bad); err == nil {
			t.Errorf("the schema accepts %q, which the parser rejects", bad)
		}
	}
}
