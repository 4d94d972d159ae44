//go:build unix

package tui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
)

// cpuTime is the CPU the process has used so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// longServer serves the fixtures over loopback HTTP and returns a client for it.
func longServer(b *testing.B) *stream.Client {
	handler, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	transport := &http.Transport{}
	b.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	client := stream.NewClient(srv.URL+"/v1", "")
	client.HTTP = &http.Client{Transport: transport}
	return client
}

// BenchmarkLongStream is the whole-process cost of the 10,000-frame "long" reply over loopback
// HTTP at full speed (the fixture server's share included in every row): cpu-ms/op is the
// process's CPU per reply, views/op the Views drawn. "tui" runs the model as the program does
// (pulls paced to the frame, every message folded, then a View of the 120x40 screen in the
// default styles); "tui unpaced" takes only what the stream had buffered per pull; "one per
// pull" has every update in a message of its own; "no UI" is the headless driver on the same
// stream, the floor the ratio is to. max-batch is the most updates one message carried and
// longest-fold-ms the longest Update of one (what a key pressed meanwhile, Esc, waits for).
func BenchmarkLongStream(b *testing.B) {
	b.Run("no UI", func(b *testing.B) {
		client := longServer(b)
		var cpu time.Duration
		for b.Loop() {
			start := cpuTime(b)
			d := perform.NewDriver(chat.New(chat.Config{Model: "long"}, nil), &perform.Performer{Client: client}, nil)
			d.Apply(d.Chat.Submit("go"))
			d.Wait()
			cpu += cpuTime(b) - start
			if d.Chat.State.Phase.Streaming() || len(d.Chat.History) != 2 {
				b.Fatalf("phase %s, %d messages", d.Chat.State.Phase, len(d.Chat.History))
			}
		}
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	for _, c := range []struct {
		name     string
		maxBatch int
		frame    time.Duration
	}{{"tui", 0, FrameInterval}, {"tui unpaced", 0, 0}, {"tui one per pull", 1, 0}} {
		b.Run(c.name, func(b *testing.B) {
			client := longServer(b)
			var cpu, longest time.Duration
			views, biggest := 0, 0
			for b.Loop() {
				start := cpuTime(b)
				m := New(Options{
					Chat:      chat.New(chat.Config{Model: "long"}, nil),
					Performer: &perform.Performer{Client: client, MaxBatch: c.maxBatch, Frame: c.frame},
					Styles:    view.DefaultStyles(),
					Tick:      func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
				})
				l := &loop{t: b, m: m, msgs: make(chan tea.Msg, 1024), wake: make(chan struct{}, 1)}
				l.draw = func() { _ = l.m.View(); views++ }
				l.folded = func(msg tea.Msg, took time.Duration) {
					if sm, ok := msg.(chat.StreamMsg); ok {
						biggest, longest = max(biggest, 1+len(sm.Rest)), max(longest, took)
					}
				}
				l.send(tea.WindowSizeMsg{Width: 120, Height: 40})
				l.submit("go")
				l.settle()
				cpu += cpuTime(b) - start
				if p := l.m.Chat().State.Phase; p.Streaming() {
					b.Fatalf("phase %s after the stream", p)
				}
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(views)/float64(b.N), "views/op")
			b.ReportMetric(float64(biggest), "max-batch")
			b.ReportMetric(float64(longest.Microseconds())/1000, "longest-fold-ms")
		})
	}
}

// BenchmarkResumeToFirstFrame is resuming a 1,000-turn session log of about 10 MB up to the
// first frame: reading the log, the engine on its history, the model and the View of the
// 120x40 screen in the default styles. cpu-ms/op is the process's CPU for it.
func BenchmarkResumeToFirstFrame(b *testing.B) {
	path := filepath.Join(b.TempDir(), "long.jsonl")
	w := sessionlog.Later(path, nil)
	para := strings.Repeat("The renderer keeps every complete block — “quoted” text, `code` and \"escapes\"\tand tabs. ", 9)
	reply := strings.Repeat(para+"\n\n", 10)
	for n := range 1000 {
		for _, m := range []wire.Message{
			{Role: "user", Parts: wire.TextParts(fmt.Sprintf("Question %d: how does the cache work?", n))},
			{Role: "assistant", Parts: wire.ReplyParts("", reply, []wire.ToolCall{{ID: fmt.Sprintf("call_%d", n), Name: "read_file", Arguments: `{"path":"src/main.go"}`}})},
			{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", n), Name: "read_file", Parts: wire.TextParts("package main\n\nfunc main() {}\n")},
		} {
			w.Add(chat.Record{Message: &m})
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	for b.Loop() {
		start := cpuTime(b)
		log, err := sessionlog.Read(path)
		if err != nil || len(log.Messages) != 3000 {
			b.Fatal(len(log.Messages), err)
		}
		m := New(Options{
			Chat:   chat.New(chat.Config{Model: "m"}, log.Messages),
			Styles: view.DefaultStyles(),
			Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if v := m.View(); !strings.Contains(v.Content, "renderer keeps") {
			b.Fatalf("the first frame does not show the last reply:\n%s", v.Content)
		}
		cpu += cpuTime(b) - start
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
