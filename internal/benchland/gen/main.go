package main

import (
	"os"
	"strconv"

	"github.com/lscli/lscli/internal/benchland"
)

func main() {
	n, _ := strconv.Atoi(os.Args[2])
	shape := benchland.Chained
	switch os.Args[3] {
	case "flat":
		shape = benchland.Flat
	case "deployers":
		shape = benchland.Deployers
	}
	if err := shape.Write(os.Args[1], n); err != nil {
		panic(err)
	}
}
