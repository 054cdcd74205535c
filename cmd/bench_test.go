package cmd_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/internal/benchland"
)

// benchChildEnv makes the test binary run lscli itself (see TestMain), so a
// benchmark can measure one command's peak RSS in a process of its own.
const benchChildEnv = "LSCLI_BENCH_CHILD"

// benchRSSFileEnv names the file in which such a child writes its peak RSS
// in KiB, read from /proc/self/status (VmHWM). The child's rusage is no
// measure on Linux: a child started with CLONE_VM, as os/exec starts it,
// inherits the peak RSS of the benchmark process that forked it.
const benchRSSFileEnv = "LSCLI_BENCH_RSS_FILE"

// writePeakRSS writes this process's peak RSS in KiB to path, if both are
// known.
func writePeakRSS(path string) {
	status, err := os.ReadFile("/proc/self/status")
	if path == "" || err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			_ = os.WriteFile(path, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o600)
		}
	}
}

// lscliCommand is one measured command: its arguments after "lscli", given
// the landscape folder and the state folder.
type lscliCommand struct {
	name string
	args func(dir, state string) []string
	// prepared says the command runs on the state of a reconciled landscape.
	prepared bool
	// change edits the landscape before each run (after the preparation).
	change func(b *testing.B, dir string)
}

var benchCommands = []lscliCommand{
	{name: "reconcile", args: func(dir, state string) []string { return []string{"reconcile", dir, "--state", state, "-o", "json"} }},
	{name: "validate", args: func(dir, state string) []string { return []string{"validate", dir} }},
	{name: "render", args: func(dir, state string) []string { return []string{"render", dir, "-o", "json"} }},
	// render's default output, a tree per root with every value as YAML.
	{name: "render-tree", args: func(dir, state string) []string { return []string{"render", dir} }},
	{name: "reconcile-one-changed", prepared: true, change: changeOneRoot,
		args: func(dir, state string) []string { return []string{"reconcile", dir, "--state", state, "-o", "json"} }},
	{name: "get", prepared: true, args: func(dir, state string) []string { return []string{"get", "--state", state, "-o", "json"} }},
	{name: "get-yaml", prepared: true, args: func(dir, state string) []string { return []string{"get", "--state", state, "-o", "yaml"} }},
	{name: "tree", prepared: true, args: func(dir, state string) []string { return []string{"tree", benchland.RootName(0), "--state", state} }},
	{name: "events", prepared: true, args: func(dir, state string) []string { return []string{"events", "--state", state} }},
	{name: "events-json", prepared: true, args: func(dir, state string) []string { return []string{"events", "--state", state, "-o", "json"} }},
}

// BenchmarkCommands runs lscli's commands on generated landscapes (package
// internal/benchland) of both shapes at 1,000 and 10,000 installations:
// reconcile into a new state, validate, render (-o json and the tree),
// re-reconcile with one root changed, and get, tree and events on the reconciled state. It reports
// allocations of an in-process run and, from one run in a child process,
// its wall time and peak RSS. Figures are in docs/performance.md.
//
//	go test ./cmd -run XXX -bench BenchmarkCommands -benchtime 1x
func BenchmarkCommands(b *testing.B) {
	for _, shape := range []benchland.Shape{benchland.Flat, benchland.Chained} {
		for _, n := range []int{1000, 10000} {
			for _, c := range benchCommands {
				b.Run(fmt.Sprintf("%s/installations=%d/%s", shape.Name, n, c.name), func(b *testing.B) {
					benchCommand(b, shape, n, c)
				})
			}
		}
	}
}

// deployerCommands are measured on the deployers shape.
var deployerCommands = []lscliCommand{
	benchCommands[0], // reconcile
	{name: "trigger-one", prepared: true, args: func(dir, state string) []string {
		return []string{"trigger", benchland.RootName(0), "--state", state, "-o", "json"}
	}},
	{name: "get-target", prepared: true, args: func(dir, state string) []string {
		return []string{"get", "--target", "cluster", "--state", state}
	}},
}

// BenchmarkDeployers runs lscli with its real deployers on the simulated
// cluster: the deployers shape (package internal/benchland), each root a
// helm release and a CRD with a ConfigMap, all on one cluster and in one
// namespace, at 100, 300 and 600 roots. Figures are in
// docs/performance.md.
//
//	go test ./cmd -run XXX -bench BenchmarkDeployers -benchtime 1x
func BenchmarkDeployers(b *testing.B) {
	for _, n := range []int{100, 300, 600} {
		for _, c := range deployerCommands {
			b.Run(fmt.Sprintf("installations=%d/%s", n, c.name), func(b *testing.B) {
				benchCommand(b, benchland.Deployers, n, c)
			})
		}
	}
}

func benchCommand(b *testing.B, shape benchland.Shape, n int, c lscliCommand) {
	dir := b.TempDir()
	if err := shape.Write(dir, shape.RootsFor(n)); err != nil {
		b.Fatal(err)
	}
	prepared := ""
	if c.prepared {
		prepared = filepath.Join(b.TempDir(), "prepared")
		runLscli(b, []string{"reconcile", dir, "--state", prepared, "-o", "json"})
	}
	stateFor := func(i int) string {
		state := filepath.Join(b.TempDir(), fmt.Sprintf("state-%d", i))
		if prepared != "" {
			copyDir(b, prepared, state)
		}
		if c.change != nil {
			c.change(b, dir)
		}
		return state
	}
	childState := stateFor(-1)
	// This process's heap (the landscape, the prepared run) is collected
	// and given back first, so that its collector and scavenger do not
	// run beside the child.
	runtime.GC()
	debug.FreeOSMemory()
	wall, rss := runChild(b, c.args(dir, childState))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		state := stateFor(i)
		b.StartTimer()
		runLscli(b, c.args(dir, state))
	}
	b.ReportMetric(wall.Seconds(), "child-wall-s")
	b.ReportMetric(float64(rss)/(1<<20), "child-peak-RSS-MiB")
}

// runLscli runs lscli in this process and fails b unless it exits 0.
func runLscli(b *testing.B, args []string) {
	b.Helper()
	streams, _, _, errOut := iostreams.Test()
	if code := cmd.Run(streams, args, nil); code != action.ExitOK {
		b.Fatalf("lscli %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
}

// copyOfSelf copies the test binary into a temporary folder of b and
// returns the copy's path. A child runs the copy: a binary the Go linker has
// just written has a peak RSS about 25 MiB higher than a copy of it (the
// page cache keeps the linker's output in large pages, which mapping the
// binary's text then counts whole), and a user runs a binary that is not
// fresh from the linker.
func copyOfSelf(b *testing.B) string {
	b.Helper()
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	path := filepath.Join(b.TempDir(), filepath.Base(self))
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// runChild runs lscli in a child process and returns its wall time and peak
// RSS in bytes.
func runChild(b *testing.B, args []string) (time.Duration, int64) {
	b.Helper()
	self := copyOfSelf(b)
	rssFile := filepath.Join(b.TempDir(), "peak-rss")
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	var errOut strings.Builder
	c := exec.Command(self, args...)
	c.Env = append(os.Environ(), benchChildEnv+"=1", benchRSSFileEnv+"="+rssFile)
	// The output goes straight to /dev/null, as in `lscli ... > /dev/null`:
	// collecting hundreds of MB in this process would slow the child down.
	c.Stdout, c.Stderr = devNull, &errOut
	start := time.Now()
	err = c.Run()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("child lscli %s: %v: %s", strings.Join(args, " "), err, lastLines([]byte(errOut.String())))
	}
	if data, err := os.ReadFile(rssFile); err == nil {
		if kib, err := strconv.ParseInt(string(data), 10, 64); err == nil {
			return wall, kib * 1024
		}
	}
	ru := c.ProcessState.SysUsage().(*syscall.Rusage) // without /proc: an upper bound
	return wall, ru.Maxrss * 1024
}

func lastLines(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.Join(lines[max(0, len(lines)-5):], "\n")
}

// changeOneRoot changes the spec of root 0 (a comment in its blueprint),
// so that it gets a new generation and a new job; the others stay as they
// are. It changes the file once: every run compares it with the same state.
func changeOneRoot(b *testing.B, dir string) {
	b.Helper()
	name := filepath.Join(dir, "part-0000.yaml")
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	const changed = "# changed for the benchmark\n"
	text := string(data)
	if strings.Contains(text, changed) {
		return
	}
	marker := "blueprint.yaml: |\n"
	i := strings.Index(text, marker)
	if i < 0 {
		b.Fatalf("%s has no blueprint.yaml", name)
	}
	lineStart := strings.LastIndex(text[:i], "\n") + 1
	pad := strings.Repeat(" ", i-lineStart+2)
	at := i + len(marker)
	text = text[:at] + pad + changed + text[at:]
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}

// copyDir copies the files of folder from into folder to.
func copyDir(b *testing.B, from, to string) {
	b.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		b.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "lock" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
