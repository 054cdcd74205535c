package engine_test

import (
	"encoding/json"
	"strings"
)

func splitLines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}
