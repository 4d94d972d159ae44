package jsonschema

import "testing"

// mcpToolSchema is a tool's input schema as zod-to-json-schema writes it for a TypeScript MCP
// server (draft-07, additionalProperties false, enums, a nested object, a nullable field, an
// internal $ref).
const mcpToolSchema = `{
	"type": "object",
	"properties": {
		"query": {"type": "string", "minLength": 1, "description": "What to search for"},
		"limit": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100, "default": 10},
		"sort": {"type": "string", "enum": ["relevance", "date", "stars"], "default": "relevance"},
		"filters": {
			"type": "object",
			"properties": {
				"language": {"type": "string"},
				"since": {"type": "string", "format": "date-time"},
				"tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "maxItems": 20}
			},
			"additionalProperties": false
		},
		"cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
		"include": {"type": "array", "items": {"$ref": "#/definitions/field"}, "uniqueItems": true},
		"mode": {"oneOf": [
			{"type": "object", "properties": {"kind": {"type": "string", "const": "fast"}}, "required": ["kind"], "additionalProperties": false},
			{"type": "object", "properties": {"kind": {"type": "string", "const": "deep"}, "depth": {"type": "number"}}, "required": ["kind", "depth"], "additionalProperties": false}
		]}
	},
	"required": ["query"],
	"additionalProperties": false,
	"definitions": {"field": {"type": "string", "enum": ["title", "body", "author", "url"]}},
	"$schema": "http://json-schema.org/draft-07/schema#"
}`

const mcpToolArgs = `{"query": "frame pacing", "limit": 20, "sort": "date", "filters": {"language": "go", "tags": ["tui", "perf"]},
	"cursor": null, "include": ["title", "url"], "mode": {"kind": "deep", "depth": 2}}`

func BenchmarkCompileMCPTool(b *testing.B) {
	doc := decode(b, []byte(mcpToolSchema))
	for b.Loop() {
		if _, err := Compile(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateMCPTool(b *testing.B) {
	sch, err := Compile(decode(b, []byte(mcpToolSchema)))
	if err != nil {
		b.Fatal(err)
	}
	args := decode(b, []byte(mcpToolArgs))
	for b.Loop() {
		if err := sch.Validate(args); err != nil {
			b.Fatal(err)
		}
	}
}
