// Command prof runs one lscli command line in-process under the CPU
// profiler, as lscli itself would run it (same streams, same garbage
// collector settings), to find where a benchmark's time goes:
//
//	go build -o /tmp/prof ./internal/benchland/prof
//	CPUPROF=/tmp/cpu.prof /tmp/prof get -o json --state /tmp/st > /dev/null
//	go tool pprof -top /tmp/prof /tmp/cpu.prof
//
// MEMPROF=FILE also writes the allocation profile, TRACE=FILE an execution
// trace (go tool trace FILE: which goroutines ran when, to find the parts
// of a run that leave a core idle). The exit code goes to stderr; the
// profile has the run's duration.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"

	"github.com/lscli/lscli/cmd"
)

func main() {
	f, err := os.Create(os.Getenv("CPUPROF"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "prof: CPUPROF must name the CPU profile to write:", err)
		os.Exit(2)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "prof:", err)
		os.Exit(2)
	}
	if t := os.Getenv("TRACE"); t != "" {
		tf, err := os.Create(t)
		if err == nil {
			err = trace.Start(tf)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "prof: TRACE:", err)
			os.Exit(2)
		}
	}
	code := cmd.Main()
	trace.Stop()
	pprof.StopCPUProfile()
	fmt.Fprintln(os.Stderr, "prof: exit", code)
	if m := os.Getenv("MEMPROF"); m != "" {
		mf, err := os.Create(m)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(mf, 0)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "prof:", err)
		}
	}
	os.Exit(code)
}
