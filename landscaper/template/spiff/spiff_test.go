package spiff

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

func TestMap(t *testing.T) {
	values := map[string]any{"config": map[string]any{"name": "web", "replicas": 2}, "exports": map[string]any{"url": "u"}}
	tests := []struct {
		name, tmpl string
		want       any
		err        string
	}{
		{name: "expression", tmpl: `"(( config.name \".example.com\" ))"`, want: "web.example.com"},
		{name: "arithmetic", tmpl: `"(( config.replicas * 2 ))"`, want: float64(4)},
		{name: "structure", tmpl: `{"host": "(( config.name ))", "static": true}`, want: map[string]any{"host": "web", "static": true}},
		{name: "nested values", tmpl: `"(( exports.url ))"`, want: "u"},
		{name: "unresolved", tmpl: `"(( nope ))"`, err: "'nope' not found"},
		{name: "not yaml", tmpl: `{`, err: "parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Map(tt.name, []byte(tt.tmpl), values, limits.Limits{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := toString(got), toString(tt.want); got != want {
				t.Errorf("Map = %s, want %s", got, want)
			}
		})
	}
}

// toString prints v as JSON, so numbers compare by value.
func toString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func TestExecuteWithFilesAndFunctions(t *testing.T) {
	files, err := FileSystem(fstest.MapFS{"data/values.yaml": {Data: []byte("size: 3\n")}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(Request{
		Name: "main", FS: files, Functions: NewFunctions(&funcs.Components{}, nil),
		Template: []byte(`{"size": "(( read(\"/data/values.yaml\").size ))", "repo": "(( ociRefRepo(\"r.io/app:1\") ))"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "repo: r.io/app\nsize: 3\n"; string(res.Output) != want {
		t.Errorf("output = %q, want %q", res.Output, want)
	}
}

func TestUnavailableFunction(t *testing.T) {
	_, err := Execute(Request{Name: "main", Functions: NewFunctions(nil, nil),
		Template: []byte(`{"x": "(( getResource(\"name\", \"a\") ))"}`)})
	if err == nil || !strings.Contains(err.Error(), "has no component descriptor (spec.componentDescriptor)") {
		t.Fatalf("err = %v", err)
	}
}

func TestNoOSAccess(t *testing.T) {
	_, err := Execute(Request{Name: "main", Template: []byte(`{"x": "(( exec(\"echo\", \"hi\") ))"}`)})
	if err == nil {
		t.Fatal("exec ran, want no OS access")
	}
}
