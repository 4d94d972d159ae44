package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/stream/wire"
)

// maxModelsBody caps how much of a GET /models answer is read; a longer one is refused.
const maxModelsBody = 8 << 20

// ServedModel is a model a server lists: its id, and its context window and price where the
// answer says them (OpenRouter's context_length and pricing); the zero budget.Model where not.
type ServedModel struct {
	ID     string
	Budget budget.Model
}

// ListModels asks the server which models it serves (GET BaseURL/models, OpenAI's list shape
// {"data":[{"id":...}]}) and returns them sorted by id. Errors are *Errors with the key
// redacted.
func (c *Client) ListModels(ctx context.Context) ([]ServedModel, error) {
	url := joinPath(c.BaseURL, "/models")
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, wire.RedactError(c.secrets(), &wire.Error{Message: fmt.Sprintf("The endpoint %q is not a valid URL", shownEndpoint(url)), Cause: scrubURL(err, url)})
	}
	for k, v := range c.Headers {
		hr.Header.Set(k, v)
	}
	hr.Header.Set("Accept", "application/json")
	if c.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.httpClient().Do(hr)
	if err != nil {
		if e := refusedRedirect(err); e != nil {
			return nil, wire.RedactError(c.secrets(), e)
		}
		return nil, wire.RedactError(c.secrets(), connectError(url, err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(safefile.Limit(resp.Body, maxModelsBody, "the model list"))
	if err != nil {
		return nil, wire.RedactError(c.secrets(), &wire.Error{Message: "Reading the model list from " + resp.Request.URL.Host + " failed: " + format.OneLine(err.Error(), 200), Cause: err})
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, wire.RedactError(c.secrets(), httpError(resp, data))
	}
	var list struct {
		Data []struct {
			ID            json.RawMessage `json:"id"` // a string; any other value is skipped
			ContextLength json.RawMessage `json:"context_length"`
			Pricing       json.RawMessage `json:"pricing"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &list); err != nil || list.Data == nil {
		return nil, &wire.Error{Message: "The server's model list (GET /models) is not OpenAI's {\"data\": [...]} shape",
			Cause: errors.Join(errors.New("stream: not a model list"), err)}
	}
	var models []ServedModel
	for _, m := range list.Data {
		var id string
		if json.Unmarshal(m.ID, &id) == nil && id != "" {
			models = append(models, ServedModel{ID: id, Budget: servedBudget(m.ContextLength, m.Pricing)})
		}
	}
	sort.Slice(models, func(i, j int) bool { return models[i].ID < models[j].ID })
	return models, nil
}
