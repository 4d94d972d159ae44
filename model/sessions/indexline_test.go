package sessions

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// agreesWithJSON checks that where decodeIndexLine accepts a line, json.Unmarshal accepts it
// too and reads the same entry.
func agreesWithJSON(t *testing.T, line []byte) (accepted bool) {
	t.Helper()
	got, ok := decodeIndexLine(line, string(line))
	if !ok {
		return false
	}
	var want Meta
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatalf("decodeIndexLine accepted %q, which json.Unmarshal refuses: %v", line, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decodeIndexLine read %+v, json.Unmarshal %+v", line, got, want)
	}
	return true
}

// Every field of an entry, as writeIndex writes it, is read by the fast path: a field added to
// Meta and not to decodeIndexLine fails here instead of making every listing slow or wrong.
func TestIndexLineReadsEveryFieldWritten(t *testing.T) {
	var m Meta
	v := reflect.ValueOf(&m).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("value-" + v.Type().Field(i).Name)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(1000 + i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Float64:
			f.SetFloat(0.0123 + float64(i))
		default:
			if f.Type() == reflect.TypeFor[time.Time]() {
				f.Set(reflect.ValueOf(time.Date(2026, 3, 4, 5, 6, 7, 8000+i, time.UTC)))
				continue
			}
			t.Fatalf("Meta.%s is a %s, which the test does not fill", v.Type().Field(i).Name, f.Type())
		}
	}
	line, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !agreesWithJSON(t, line) {
		t.Fatalf("the fast path refused a line writeIndex writes: %s", line)
	}
}

// Lines written by hand or by another version fall back to json.Unmarshal, never to a different
// reading.
func TestIndexLineOddLines(t *testing.T) {
	for _, line := range []string{
		`{"id":"a-1","title":"x","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00+02:00","turns":3,"size":0}`,
		`{"id":"a-1","title":"with \"quote\" and \u003c","turns":3}`,
		`{"id":"a-1", "title":"space"}`,
		`{"id":"a-1","turns":3.0}`,
		`{"id":"a-1","turns":03}`,
		`{"id":"a-1","turns":-0}`,
		`{"id":"a-1","turns":1e3}`,
		`{"id":"a-1","size":99999999999999999999}`,
		`{"id":"a-1","cost_usd":5e-07}`,
		`{"id":"a-1","cost_usd":0.0054,"tokens_in":1200,"tokens_out":340}`,
		`{"id":"a-1","cost_usd":+1}`,
		`{"id":"a-1","cost_usd":01.5}`,
		`{"id":"a-1","cost_usd":"0.1"}`,
		`{"id":"a-1","cost_usd":1e999}`,
		`{"ID":"a-1"}`,
		`{"id":"a-1","unknown":true}`,
		`{"id":"a-1","title":"` + "\xff" + `"}`,
		`{"id":"a-1","title":"tab	in"}`,
		`{"id":"a-1","created":"2026-13-01T00:00:00Z"}`,
		`{"id":"a-1","created":"yesterday"}`,
		`{"id":"a-1",}`,
		`{"id":"a-1","id":"b-2"}`,
		`{}`, `{`, ``, `[]`, `{"id":1}`, `{"id":"a-1","turns":"3"}`,
	} {
		agreesWithJSON(t, []byte(line))
	}
}

func FuzzIndexLine(f *testing.F) {
	f.Add([]byte(`{"id":"20260101-000000-000001","title":"A conversation","provider":"api.openai.com","model":"gpt-4o-mini","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T01:00:00.5Z","turns":1,"size":100,"parent":"x"}`))
	f.Add([]byte(`{"id":"a-1","turns":-12,"size":0}`))
	f.Fuzz(func(t *testing.T, line []byte) { agreesWithJSON(t, line) })
}

// Random damage to a written line never makes the fast path read something else.
func TestIndexLineDamaged(t *testing.T) {
	base := []byte(`{"id":"20260101-000000-000001","title":"A conversation","provider":"p","model":"m","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T01:00:00Z","turns":12,"size":100}`)
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte(`{}[]":,.-+0123456789eEtrufalsn \\ZT` + "\xff\x01")
	for range 20000 {
		line := append([]byte(nil), base...)
		for range 1 + r.IntN(3) {
			line[r.IntN(len(line))] = alphabet[r.IntN(len(alphabet))]
		}
		agreesWithJSON(t, line)
	}
}
