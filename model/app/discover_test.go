package app

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/internal/testwait"
)

// silentServer accepts connections on 127.0.0.1 port 0 and never answers; accepted says how
// many it has accepted.
func silentServer(t *testing.T) (url string, accepted chan struct{}) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = make(chan struct{}, 16)
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			accepted <- struct{}{}
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + l.Addr().String() + "/v1", accepted
}

// A provider that names no model asks its server at start-up; a server that never answers is
// given up on after the listing's own bound (injected here), and the error says so.
func TestStartUpGivesUpOnAModelListThatNeverComes(t *testing.T) {
	url, accepted := silentServer(t)
	s := &Settings{Provider: "quiet", BaseURL: url, Env: envOf(nil),
		File: mustParse(t, "[provider.quiet]\nbase_url = \""+url+"\"\n")}
	p := newProviders(s, secret.New())
	p.discover = 50 * time.Millisecond
	done := make(chan error, 1)
	go func() {
		_, err := p.start()
		done <- err
	}()
	select {
	case <-accepted:
	case <-testwait.After(t):
		t.Fatal("the model list was never asked for")
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "did not answer GET /models within 50ms") {
			t.Fatalf("start-up ended with %v", err)
		}
	case <-testwait.After(t):
		t.Fatal("start-up still waits for a server that never answers")
	}
}
