package engine

import (
	"encoding/json"
	"strings"
)

func splitNonEmpty(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, strings.TrimLeft(line, "\t"))
		}
	}
	return out
}

func quoteJSON(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}
