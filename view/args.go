package view

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// prettyJSON decodes text as one JSON value and lays it out for reading: objects as
// "key: value" lines in their original key order, arrays as "- value" lines, nested members
// indented two spaces, strings unquoted (a multi-line string indented under its key). ok is
// false when text is not exactly one JSON value.
//
// The result holds the decoded strings raw: a "\u001b" in the JSON is a real ESC here, so
// the caller must sanitise the result (never the JSON text before decoding).
func prettyJSON(text string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if d, ok := tok.(json.Delim); ok {
		err = writeMembers(dec, &b, d, "")
	} else {
		b.WriteString(scalar(tok))
	}
	if err != nil {
		return "", false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// writeMembers writes the members of the container opened by d, one per line at indent, and
// consumes its closing delimiter.
func writeMembers(dec *json.Decoder, b *strings.Builder, d json.Delim, indent string) error {
	for dec.More() {
		lead := "-"
		if d == '{' {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := key.(string)
			lead = k + ":"
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if err := writeMember(dec, b, lead, tok, indent); err != nil {
			return err
		}
	}
	_, err := dec.Token() // the closing delimiter
	return err
}

// writeMember writes one member led by "key:" or "-" whose value starts with tok.
func writeMember(dec *json.Decoder, b *strings.Builder, lead string, tok json.Token, indent string) error {
	b.WriteString(indent)
	b.WriteString(lead)
	d, isContainer := tok.(json.Delim)
	switch {
	case isContainer && !dec.More():
		if d == '{' {
			b.WriteString(" {}\n")
		} else {
			b.WriteString(" []\n")
		}
		_, err := dec.Token()
		return err
	case isContainer:
		b.WriteString("\n")
		return writeMembers(dec, b, d, indent+"  ")
	}
	s := scalar(tok)
	if !strings.Contains(s, "\n") {
		b.WriteString(" ")
		b.WriteString(s)
		b.WriteString("\n")
		return nil
	}
	b.WriteString("\n")
	for line := range strings.SplitSeq(s, "\n") {
		b.WriteString(indent + "  " + line + "\n")
	}
	return nil
}

func scalar(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		if v {
			return "true"
		}
		return "false"
	default:
		return "null"
	}
}
