// Package tools is the registry and runner of the tools a model may call (docs/architecture.md, Running tools): four
// read-only built-ins and user-defined commands, argument validation against JSON Schema,
// timeouts that kill whole process groups, capped and sanitised output, and one-line call
// summaries for approval prompts. It knows nothing of the screen; the chat decides when to
// ask, what to show and when to cancel.
//
// # Using it
//
//	reg, err := tools.NewRegistry("")         // built-ins confined to the working directory
//	reg.Clean = safe.Text                     // required: sanitises every text Run and Describe return
//	user, err := tools.LoadFile(path)         // --tools FILE, or config.ToolsPath(…)
//	err = reg.Add(user...)
//	defs := reg.Definitions()                 // for the request's "tools"
//	if reg.SideEffects(call.Name) { ask, showing reg.Describe(call) }
//	res := reg.Run(ctx, call)                 // ctx: Esc cancels; safe to call in parallel
//
// The default config file may be absent: treat errors.Is(err, fs.ErrNotExist) from LoadFile as
// "no user tools" for it, and as an error for a file named by --tools.
//
// # Built-ins
//
// now, list_dir, read_file and search_files only read, never write, and only inside the
// registry's root: a path that is absolute outside it, climbs out with .., or leads out
// through a symbolic link is refused, and files are opened through os.Root so a link swapped in
// meanwhile cannot lead out either. Their output is bounded: 500 directory entries, 64 KiB of a
// file, 200 matching lines. Binary files (a NUL byte in the first 8000 bytes) are not returned
// or searched.
//
// # User-defined tools
//
// A tools file is TOML holding one [[tool]] table per tool (testdata/example-tools.toml is a
// commented example):
//
//	[[tool]]
//	name = "git_log"                      # required: 1-64 of a-z A-Z 0-9 _ -, not a built-in's name
//	description = "Recent commits"        # required: what the model reads to decide to call it
//	argv = ["git", "log", "--oneline"]    # required: the program and its fixed arguments
//	side_effects = false                  # required: true means the chat asks before each run
//	timeout = "10s"                       # optional: a Go duration; default 30s
//	parameters = '''{"type": "object", "properties": {}}'''   # optional; this is the default
//
// parameters is the JSON Schema of the arguments object, written either as a string of JSON,
// as above, or as a TOML table:
//
//	[tool.parameters]
//	type = "object"
//	required = ["text"]
//	properties.text = { type = "string", description = "The note" }
//
// Its top-level type must be "object"; $ref may point only inside the schema itself ("#/$defs/x",
// "#anchor"), and only the top may carry an $id. Every problem is reported on load as a
// *ConfigError naming the file, the tool and the key, and the place in the schema.
//
// Schemas are checked and arguments validated by github.com/google/jsonschema-go (the library
// the MCP SDK already links), which knows drafts 2020-12 and 07. $schema picks the draft: none
// or 2020-12 is 2020-12; draft-07 is draft-07; draft-06 is read as draft-07 (what it has means
// the same there; draft-07 adds if/then/else) and 2019-09 as 2020-12. Where a keyword changed
// meaning the schema is refused, saying what to write instead: draft-04's boolean
// exclusiveMinimum/exclusiveMaximum, 2019-09's tuple "items", "additionalItems",
// "$recursiveRef" and "$recursiveAnchor". "format" is not asserted. Before the library
// validates, the evaluations it will make are counted (at most 100,000, a value at most 256
// levels deep), and a schema is refused if it nests more than 64 schemas deep or has a $ref
// loop that never descends into the value, since the library itself has no such bounds.
//
// How a command runs: argv[0] is started directly — no shell ever sees the arguments — in the
// registry's root, with our environment minus OPENAI_API_KEY. The call's arguments, validated,
// arrive on stdin as one JSON object followed by EOF: the model's text byte for byte when it is
// an object, {} for blank arguments, {"value": v} for any other JSON value v. stdin is never
// the terminal: it is the arguments, then EOF. stdout and stderr are captured together, capped at MaxOutput (head and
// tail kept). A non-zero exit is a failed result carrying the output and the exit status. The
// command leads its own process group; on timeout or cancel the whole group is killed with
// SIGKILL, and when the command exits anything it left running in its group is killed too.
// Every process of one run inherits PHASECHAT_TOOL_RUN=<a value of its own> (RunMarkerEnv): on
// Linux the run's end also kills every process of ours whose environment holds it, so one that
// left the group and the tree (setsid, a double fork) is ended too. Should this process die
// while a run is going, its group and marked processes are ended by the supervisor of
// internal/reaper.
//
// # External tools
//
// Tools served elsewhere (MCP servers, see model/mcp) are made with NewExternal and put in
// by group with SetGroup, replacing that group's previous tools; ExpectGroup marks a group
// whose tools are still coming, and Pending names such groups. They take the same path as
// every other tool: arguments validated against their schema first, a timeout and the
// caller's context bounding the call, output capped (head and tail kept) and sanitised. An
// "allow for the session" answer is remembered by ApprovalKey, which changes when what an
// external tool declares about itself changes.
package tools
