// Package heldframes lets a test act while a fixture server's streamed answer is known to be
// under way: it numbers the data frames of each answer as the server is about to write them
// (fixtures.Options.BeforeFrame) and hands each to the answer's own hold, which may count it
// or wait before it goes out. Its functions are variables, as in internal/testwait: no program
// reaches them, only tests.
package heldframes

import (
	"bytes"
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
)

// Frame is a data frame an answer is about to write.
type Frame struct {
	N    int32 // its number in the answer, from 1; [DONE], always last, is numbered too
	Done bool  // it is [DONE]
}

type answerKey struct{}

type answer struct {
	frames atomic.Int32
	hold   func(Frame)
}

// Answer is r for an answer each of whose data frames is given to hold before it is written,
// one after another.
var Answer = func(r *http.Request, hold func(Frame)) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), answerKey{}, &answer{hold: hold}))
}

// BeforeFrame is fixtures.Options.BeforeFrame for a server whose answers' requests are made by
// Answer: it numbers the frame and gives it to its answer's hold. The frames of a request not
// made by Answer are not held.
var BeforeFrame = func(r *http.Request, frame []byte) {
	if a, ok := r.Context().Value(answerKey{}).(*answer); ok {
		data := bytes.TrimSpace(bytes.TrimPrefix(frame, []byte("data:")))
		a.hold(Frame{N: a.frames.Add(1), Done: string(data) == "[DONE]"})
	}
}

// WaitHalfPatience waits until ready holds, for half the test's patience at most, and reports
// whether it held: a hold whose condition never comes gives up while the test still has time
// to say so, and no loaded machine is that slow to meet one the test does meet.
var WaitHalfPatience = func(t testwait.TB, ready func() bool) bool {
	giveUp := time.Now().Add(testwait.Patience(t) / 2)
	testwait.For(t, func() bool { return ready() || time.Now().After(giveUp) })
	return ready()
}
