package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

const (
	maxDescribeLine  = 160 // runes in a whole summary
	maxDescribeValue = 40  // runes of one value
	maxDescribeName  = 64  // runes of a tool or key name
)

// Describe summarises a call in one line for tool cards and approval prompts (T2, A3): the
// tool name, then the decoded arguments as key=value pairs in the order the model wrote them.
// Strings are shown unquoted on one line (a newline shows as ↵), numbers as written, objects
// as {…}, arrays as [N items]; long values and lines end in "…". No JSON punctuation is shown
// except {} and []. The line has passed through Registry.Clean. It panics if Clean is nil.
//
//	read_file path=README.md max_bytes=200
func (r *Registry) Describe(call Call) string {
	return r.clean(describe(call))
}

// DescribeArgs is Describe without the tool's name: only the arguments, "" when there are
// none. For places that show the name already (a card's header, an approval question).
func (r *Registry) DescribeArgs(call Call) string {
	return r.clean(describeArgsLine(call.Arguments))
}

func describe(call Call) string {
	name := foldLines(truncateRunes(call.Name, maxDescribeName))
	if args := describeArgsLine(call.Arguments); args != "" {
		return truncateRunes(name+" "+args, maxDescribeLine)
	}
	return name
}

func describeArgsLine(text string) string {
	pairs, err := describeArgs(text)
	if err != nil {
		return "(the arguments are not valid JSON)"
	}
	return truncateRunes(strings.Join(pairs, " "), maxDescribeLine)
}

// describeArgs renders the top-level arguments as key=value pairs. A non-object value v is
// shown as value=v, as it is wrapped for running (docs/architecture.md, Tool calls).
func describeArgs(text string) ([]string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var pairs []string
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			pairs = append(pairs, foldLines(truncateRunes(key.(string), maxDescribeName))+"="+summarise(v))
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	} else {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		pairs = append(pairs, "value="+summarise(v))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the arguments")
	}
	return pairs, nil
}

// summarise shows one decoded JSON value briefly, without quotes or JSON punctuation.
func summarise(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprint(v)
	case json.Number:
		return truncateRunes(v.String(), maxDescribeValue)
	case string:
		if v == "" {
			return `""`
		}
		return truncateRunes(foldLines(v), maxDescribeValue)
	case map[string]any:
		if len(v) == 0 {
			return "{}"
		}
		return "{…}"
	case []any:
		switch len(v) {
		case 0:
			return "[]"
		case 1:
			return "[1 item]"
		}
		return fmt.Sprintf("[%d items]", len(v))
	}
	return "?"
}

// lineFolder folds text onto one line: line breaks become ↵, tabs spaces.
var lineFolder = strings.NewReplacer("\r\n", "↵", "\n", "↵", "\r", "↵", "\t", " ")

// foldLines keeps s on one line and shows where its breaks were (↵), as an argument's value
// is told apart from the next one.
func foldLines(s string) string { return lineFolder.Replace(s) }
