package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
)

// holdScript leaves a child in the group, a child in a session of its own (where setsid
// exists), and sleeps: processes that only end when something kills them.
func holdScript() string {
	script := "sleep 3600 & exec sleep 3600"
	if _, err := exec.LookPath("setsid"); err == nil {
		script = "setsid sleep 3600 < /dev/null > /dev/null 2>&1 & " + script
	}
	return script
}

// Whatever phasechat started (a command tool, an MCP stdio server, a key command) ends when
// phasechat is killed with SIGKILL, with the children they started, those gone to a session
// of their own included.
func TestNothingPhasechatStartedOutlivesItsSIGKILL(t *testing.T) {
	bin := buildPhasechat(t)
	srv := newServer(t, fixtures.Options{}, map[string]string{"slow": oneCall("slow", "hold", "{}")})
	script := strconv.Quote(holdScript())

	t.Run("a command tool", func(t *testing.T) {
		dir := t.TempDir()
		toolsFile := filepath.Join(dir, "tools.toml")
		writeFile(t, toolsFile, "[[tool]]\nname = \"hold\"\ndescription = \"Never finishes.\"\n"+
			"argv = [\"/bin/sh\", \"-c\", "+script+"]\nside_effects = false\ntimeout = \"10m\"\n")
		killedWhileRunning(t, bin, dir, "-p", "run hold", "--base-url", srv.URL, "--model", "slow", "--tools", toolsFile)
	})
	t.Run("an MCP stdio server", func(t *testing.T) {
		dir := t.TempDir()
		mcpFile := filepath.Join(dir, "mcp.toml")
		writeFile(t, mcpFile, "[mcp.hold]\ncommand = \"/bin/sh\"\nargs = [\"-c\", "+script+"]\n"+
			"startup_timeout = \"10m\"\nenv = { "+orphanTagEnv+" = \"${"+orphanTagEnv+"}\" }\n")
		killedWhileRunning(t, bin, dir, "-p", "wait", "--base-url", srv.URL, "--model", "stall", "--mcp", mcpFile)
	})
	t.Run("a key command", func(t *testing.T) {
		dir := t.TempDir()
		configFile := filepath.Join(dir, "config.toml")
		writeFile(t, configFile, "[provider.p]\nbase_url = "+strconv.Quote(srv.URL)+"\ndefault_model = \"slow\"\n"+
			"api_key_cmd = [\"/bin/sh\", \"-c\", "+script+"]\n")
		killedWhileRunning(t, bin, dir, "-p", "hello", "--config", configFile)
	})
}

// orphanTagEnv is the variable by which a test knows the processes of the phasechat it runs.
const orphanTagEnv = "PHASECHAT_E2E_TAG"

// killedWhileRunning runs phasechat with args in dir, waits until it has started the three
// processes of holdScript (or two, without setsid), kills it with SIGKILL and waits until no
// process it started is left.
func killedWhileRunning(t *testing.T, bin, dir string, args ...string) {
	t.Helper()
	tag := fmt.Sprintf("%s=%d-%s", orphanTagEnv, os.Getpid(), t.Name())
	cmd := exec.Command(bin, append(args, "--no-save")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), tag, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir,
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		for _, p := range carrying(tag, 0) {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	want := 2
	if _, err := exec.LookPath("setsid"); err == nil {
		want = 3
	}
	testwait.Until(t, func() bool { return len(carrying(tag, cmd.Process.Pid)) >= want },
		"phasechat did not start the %d processes (stderr: %s)", want, &stderr)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	testwait.Until(t, func() bool { return len(carrying(tag, 0)) == 0 },
		"processes phasechat started outlived it: %v", carrying(tag, 0))
}

// carrying lists the live processes but except whose environment holds entry.
func carrying(entry string, except int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == except {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for v := range bytes.SplitSeq(env, []byte{0}) {
			if string(v) == entry {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}
