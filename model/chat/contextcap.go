package chat

import "fmt"

// contextCaps are context sizes servers cut prompts to without saying so: Ollama's /v1
// endpoint truncates the prompt to the model's num_ctx, 2048 in older releases and 4096 now.
var contextCaps = []int{2048, 4096}

// contextCapHint is the notice for a request whose prompt used exactly a known cap: the start
// of the conversation was probably dropped. "" otherwise.
func contextCapHint(promptTokens int) string {
	for _, cap := range contextCaps {
		if promptTokens == cap {
			return fmt.Sprintf("The prompt used exactly %d tokens, a common default context size (Ollama's is %d): "+
				"the server may have cut off the start of the conversation. For Ollama, raise it with "+
				"OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or PARAMETER num_ctx in a Modelfile.", cap, contextCaps[len(contextCaps)-1])
		}
	}
	return ""
}
