package wire

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateAttach = flag.Bool("update-attach", false, "rewrite testdata/attach/*.json from the current encoders")

// attachedRequest is a user message with a text file, an image and a PDF, then a reply.
func attachedRequest() Request {
	return Request{Model: "m", Messages: []Message{{
		Role: "user", Parts: TextParts("what is in these?"),
		Attachments: []Attachment{
			{Name: "notes.txt", Kind: AttachText, MediaType: "text/plain", Lines: 2, Size: 8, Data: []byte("one\ntwo\n")},
			{Name: "img/red.png", Kind: AttachImage, MediaType: "image/png", Width: 1, Height: 1, Size: 8, Data: []byte("\x89PNG\r\n\x1a\n")},
			{Name: "doc.pdf", Kind: AttachPDF, MediaType: "application/pdf", Size: 8, Data: []byte("%PDF-1.7")},
		},
	}, {Role: "assistant", Parts: TextParts("a list, a red dot and a document")}}}
}

// TestAttachmentsInEachFormat pins each format's request body with attachments: a golden
// of the whole body, and the shapes each API documents for its parts.
func TestAttachmentsInEachFormat(t *testing.T) {
	shapes := map[Wire][]string{
		WireChat: {`"image_url":{"url":"data:image/png;base64,iVBORw0KGgo="},"type":"image_url"`,
			`"file":{"file_data":"data:application/pdf;base64,JVBERi0xLjc=","filename":"doc.pdf"},"type":"file"`,
			`"text":"\u003cfile path=\"notes.txt\" lines=\"2\"\u003e\none\ntwo\n\u003c/file\u003e","type":"text"`},
		WireAnthropic: {`"source":{"data":"iVBORw0KGgo=","media_type":"image/png","type":"base64"},"type":"image"`,
			`"source":{"data":"JVBERi0xLjc=","media_type":"application/pdf","type":"base64"},"title":"doc.pdf","type":"document"`},
		WireResponses: {`"image_url":"data:image/png;base64,iVBORw0KGgo=","type":"input_image"`,
			`"file_data":"data:application/pdf;base64,JVBERi0xLjc=","filename":"doc.pdf","type":"input_file"`,
			`"text":"what is in these?","type":"input_text"`},
	}
	for w, want := range shapes {
		body, err := Encode(w, attachedRequest(), true, false, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(body) {
			t.Fatalf("%s: invalid JSON", w)
		}
		for _, s := range want {
			if !bytes.Contains(body, []byte(s)) {
				t.Errorf("%s body lacks %s\n%s", w, s, body)
			}
		}
		var pretty bytes.Buffer
		json.Indent(&pretty, body, "", "  ")
		golden := filepath.Join("testdata", "attach", string(w)+".json")
		if *updateAttach {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, pretty.Bytes(), 0o644)
		}
		if old, err := os.ReadFile(golden); err != nil || !bytes.Equal(old, pretty.Bytes()) {
			t.Errorf("%s body differs from %s (go test -run Attachments -update-attach rewrites it):\n%s", w, golden, pretty.Bytes())
		}
	}
}

func TestAMessageWithoutAttachmentsIsSentAsBefore(t *testing.T) {
	req := Request{Model: "m", Messages: []Message{{Role: "user", Parts: TextParts("hi")}}}
	for w, want := range map[Wire]string{
		WireChat:      `"messages":[{"role":"user","content":"hi"}]`,
		WireAnthropic: `"messages":[{"role":"user","content":[{"text":"hi","type":"text"}]}]`,
		WireResponses: `"input":[{"content":"hi","role":"user","type":"message"}]`,
	} {
		body, _ := Encode(w, req, true, false, false, nil)
		if !strings.Contains(string(body), want) {
			t.Errorf("%s: %s lacks %s", w, body, want)
		}
	}
}

func TestTheLogKeepsAnAttachmentsHashNotItsBytes(t *testing.T) {
	m := attachedRequest().Messages[0]
	m.Attachments[1].Hash = "abc"
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("iVBORw0KGgo")) || !bytes.Contains(b, []byte(`"sha256":"abc"`)) {
		t.Errorf("log form %s", b)
	}
	var back Message
	if err := json.Unmarshal(b, &back); err != nil || len(back.Attachments) != 3 || back.Attachments[1].Width != 1 {
		t.Errorf("read back %+v, %v", back.Attachments, err)
	}
}

func TestCheckAttachmentsSaysWhatAFormatCannotTake(t *testing.T) {
	big := Message{Role: "user", Attachments: []Attachment{{Name: "big.png", Kind: AttachImage, Size: 6 << 20, Data: make([]byte, 6<<20)}}}
	if err := CheckAttachments(WireAnthropic, []Message{big}); err == nil || !strings.Contains(err.Error(), "5 MB") {
		t.Errorf("anthropic: %v", err)
	}
	if err := CheckAttachments(WireChat, []Message{big}); err != nil {
		t.Errorf("chat takes 6 MB: %v", err)
	}
	gone := Message{Role: "user", Attachments: []Attachment{{Name: "gone.txt", Kind: AttachText, Size: 4}}}
	if err := CheckAttachments(WireChat, []Message{gone}); err == nil || !strings.Contains(err.Error(), "no longer") {
		t.Errorf("gone: %v", err)
	}
}
