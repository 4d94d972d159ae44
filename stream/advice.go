package stream

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/stream/wire"
)

// advise rewrites an HTTP error's message into words that say what to do about it, and says
// whether a retry can help. body is the error answer's body.
func (c *Client) advise(e *wire.Error, body []byte) {
	switch {
	case e.Status == http.StatusUnauthorized:
		e.Helps = wire.RetryUseless
		if c.APIKey == "" {
			e.Message = strings.TrimRight(e.Message, ". ") + ". No API key is set: " + c.keyHint()
		} else {
			e.Message = strings.TrimRight(e.Message, ". ") + ". " + format.Sentence(c.keySource()) + " is set but " +
				strings.TrimRight(c.BaseURL, "/") + " rejected it"
		}
	case c.NoSuchModel != "" && (e.Status == http.StatusNotFound || errorCode(body) == "model_not_found"):
		e.Helps = wire.RetryUseless
		e.Message = c.NoSuchModel + " (the server answered HTTP " + strconv.Itoa(e.Status) + ")"
	case e.Status == http.StatusBadRequest && contextTooLong(body):
		e.Helps = wire.RetryUseless
		e.Message = "The conversation is too long for this model (" + strings.TrimRight(e.Message, ". ") +
			"). Retrying will not help: /compact summarises the older turns, /new starts a new conversation, or send a shorter message"
	case e.RetryAfter > 0:
	case e.Status == http.StatusBadGateway, e.Status == http.StatusServiceUnavailable, e.Status == http.StatusGatewayTimeout,
		e.Status == http.StatusInternalServerError && len(strings.TrimSpace(string(body))) == 0:
		e.Helps = wire.RetrySoon
	}
}

// keySource names where the key came from: KeySource, else OPENAI_API_KEY.
func (c *Client) keySource() string {
	if c.KeySource != "" {
		return c.KeySource
	}
	return "OPENAI_API_KEY"
}

func (c *Client) keyHint() string {
	if c.KeySource != "" {
		return "set " + c.KeySource
	}
	return "export OPENAI_API_KEY, or name the provider's key in the config file"
}

// refused reports whether a request got no connection at all: worth one quick retry.
func refused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// contextTooLong reports whether an HTTP 400's body says the prompt does not fit the model's
// context window: code context_length_exceeded (Chat Completions and Responses), or
// Anthropic's invalid_request_error "prompt is too long: N tokens > M maximum".
func contextTooLong(body []byte) bool {
	if errorCode(body) == "context_length_exceeded" {
		return true
	}
	var v struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &v) == nil && v.Error.Type == "invalid_request_error" &&
		strings.HasPrefix(strings.ToLower(v.Error.Message), "prompt is too long")
}

// errorCode returns the error object's code ("context_length_exceeded"), or "".
func errorCode(body []byte) string {
	var v struct {
		Error struct {
			Code json.RawMessage `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(v.Error.Code, &s) == nil {
		return s
	}
	return ""
}
