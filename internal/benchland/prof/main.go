package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/lscli/lscli/cmd"
	"github.com/lscli/lscli/cmd/iostreams"
)

func main() {
	f, _ := os.Create(os.Getenv("CPUPROF"))
	pprof.StartCPUProfile(f)
	streams, _, _, errOut := iostreams.Test()
	start := time.Now()
	code := cmd.Run(streams, os.Args[1:], nil)
	pprof.StopCPUProfile()
	fmt.Fprintln(os.Stderr, "exit", code, time.Since(start), errOut.String()[:min(300, errOut.Len())])
	if m := os.Getenv("MEMPROF"); m != "" {
		mf, _ := os.Create(m)
		pprof.Lookup("allocs").WriteTo(mf, 0)
	}
}
