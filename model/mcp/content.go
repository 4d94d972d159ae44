package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // image sizes for summaries
	_ "image/jpeg"
	_ "image/png"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/phasechat/phasechat/internal/format"
)

// What a server names (a tool, a resource, a type) and what its errors say are shown on one
// line, cut to these many runes.
const (
	maxServerName  = 200
	maxServerWords = 500
)

// resultText is what the model is told of a tool's result: the text parts joined by
// newlines, every other part summarised on a line of its own ("[image 640x480 png]",
// "[resource file:///notes.txt]"), and the structured content as JSON when there is no
// other content.
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return imageSummary(c.Data, c.MIMEType)
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s]", sizeAndType(len(c.Data), c.MIMEType))
	case *sdk.ResourceLink:
		return "[resource " + format.OneLine(c.URI, maxServerName) + "]"
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "[resource]"
		}
		r := c.Resource
		size := len(r.Blob) + len(r.Text)
		return fmt.Sprintf("[resource %s %s]", format.OneLine(r.URI, maxServerName), sizeAndType(size, r.MIMEType))
	case nil:
		return ""
	}
	return fmt.Sprintf("[%T content]", c)
}

// imageSummary names an image's size and format when its header can be read.
func imageSummary(data []byte, mime string) string {
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		return fmt.Sprintf("[image %dx%d %s]", cfg.Width, cfg.Height, format)
	}
	return "[image " + sizeAndType(len(data), mime) + "]"
}

func sizeAndType(n int, mime string) string {
	s := fmt.Sprintf("%d bytes", n)
	if mime != "" {
		s = format.OneLine(mime, maxServerName) + " " + s
	}
	return s
}
