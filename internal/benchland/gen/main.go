package main

import (
	"os"
	"strconv"

	"github.com/lscli/lscli/internal/benchland"
)

func main() {
	n, _ := strconv.Atoi(os.Args[2])
	shape := benchland.Chained
	if os.Args[3] == "flat" {
		shape = benchland.Flat
	}
	if err := shape.Write(os.Args[1], n); err != nil {
		panic(err)
	}
}
