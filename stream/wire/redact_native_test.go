package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
)

// TestRedactMessageHidesSecretsInNativeReasoning: a key echoed in an Anthropic thinking block
// or a Responses reasoning item is hidden in their readable text; signatures and encrypted
// content stay as they were, and an item holding no secret is kept byte for byte.
func TestRedactMessageHidesSecretsInNativeReasoning(t *testing.T) {
	const key = "sk-native-secret-0123456789"
	set := secret.New(key)
	clean := json.RawMessage(`{"type":"thinking","thinking":"nothing here","signature":"sig-AAA"}`)
	m := Message{Role: "assistant", Parts: TextParts("ok"), Native: &NativeReasoning{Wire: WireAnthropic, Items: []json.RawMessage{
		json.RawMessage(`{"type":"thinking","thinking":"the key is ` + key + `","signature":"sig-BBB"}`),
		clean,
		json.RawMessage(`{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"uses ` + key + `"}],"encrypted_content":"enc-CCC"}`),
	}}}
	out := RedactMessage(set, m)
	all, _ := json.Marshal(out.Native)
	if strings.Contains(string(all), key) {
		t.Fatalf("native reasoning keeps the key: %s", all)
	}
	for _, opaque := range []string{"sig-BBB", "enc-CCC", secret.Redacted} {
		if !strings.Contains(string(all), opaque) {
			t.Errorf("native reasoning lost %q: %s", opaque, all)
		}
	}
	if string(out.Native.Items[1]) != string(clean) {
		t.Errorf("an item without a secret changed: %s", out.Native.Items[1])
	}
	if !strings.Contains(string(m.Native.Items[0]), key) {
		t.Errorf("RedactMessage changed the message it was given")
	}
}
