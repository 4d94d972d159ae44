package heldframes

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// Each answer's frames are numbered on their own, [DONE] last, and a request not made by
// Answer is not held.
func TestEachAnswerNumbersItsFrames(t *testing.T) {
	h, err := fixtures.NewHandler(fixtures.Options{BeforeFrame: BeforeFrame})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		held [][]Frame
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("held") {
			mu.Lock()
			held = append(held, nil)
			i := len(held) - 1
			mu.Unlock()
			r = Answer(r, func(f Frame) {
				mu.Lock()
				defer mu.Unlock()
				held[i] = append(held[i], f)
			})
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, query := range []string{"?held", "", "?held"} {
		resp, err := http.Post(srv.URL+"/v1/chat/completions"+query, "application/json", strings.NewReader(`{"model":"text","stream":true}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(held) != 2 || !reflect.DeepEqual(held[0], held[1]) || len(held[0]) < 2 {
		t.Fatalf("held %v, want the same frames twice", held)
	}
	for i, f := range held[0] {
		if last := i == len(held[0])-1; f.N != int32(i+1) || f.Done != last {
			t.Fatalf("frames %v: frame %d is %+v", held[0], i, f)
		}
	}
}

func TestWaitHalfPatienceSaysWhetherTheConditionCame(t *testing.T) {
	if !WaitHalfPatience(t, func() bool { return true }) {
		t.Fatal("a condition that holds was not seen")
	}
}
