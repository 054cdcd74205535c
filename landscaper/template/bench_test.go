package template

import "testing"

// BenchmarkExecuteTypical renders a deploy template that calls functions in a
// range, as blueprints do: what the step and size checks of every call
// cost (see gowrap.go).
func BenchmarkExecuteTypical(b *testing.B) {
	text := `deployItems:
{{- range $i, $n := .imports.names }}
- name: {{ $n | lower | trunc 20 }}-{{ $i }}
  type: landscaper.gardener.cloud/mock
  config:
    labels: {{ dict "app" $n "idx" (toString $i) | toJson }}
    image: {{ printf "%s:%s" $n "1.0" | quote }}
{{- end }}
`
	names := []any{}
	for i := 0; i < 20; i++ {
		names = append(names, "App-Name-Number")
	}
	values := map[string]any{"imports": map[string]any{"names": names}}
	e := &Executor{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Execute(Request{Execution: goExec(text), Values: values}); err != nil {
			b.Fatal(err)
		}
	}
}
