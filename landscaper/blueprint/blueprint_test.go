package blueprint

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/reconcile"
)

const minimal = "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports:\n- {name: a, schema: {type: string}}\n"

func TestReadFilesystem(t *testing.T) {
	tests := []struct {
		name  string
		input string
		files map[string]string // path → content; "/" marks a folder
		err   string
	}{
		{name: "files and folders", input: `{"blueprint.yaml": "x", "templates": {"a.tpl": "a"}}`,
			files: map[string]string{"blueprint.yaml": "x", "templates": "/", "templates/a.tpl": "a"}},
		{name: "typed file", input: `{"f": {"$type": "file", "value": "v"}}`, files: map[string]string{"f": "v"}},
		{name: "binary file", input: `{"f": {"$type": "file", "binary": "aGk="}}`, files: map[string]string{"f": "hi"}},
		{name: "typed directory", input: `{"d": {"$type": "directory", "value": {"f": "v"}}}`, files: map[string]string{"d": "/", "d/f": "v"}},
		{name: "yaml value", input: `{"v.yaml": {"$type": "yaml", "value": {"a": 1}}}`, files: map[string]string{"v.yaml": "a: 1\n"}},
		{name: "json value", input: `{"v.json": {"$type": "json", "value": {"a": 1}}}`, files: map[string]string{"v.json": `{"a":1}`}},
		{name: "legacy binary", input: `{"f": "---Start Binary---\naGk=\n---End Binary---"}`, files: map[string]string{"f": "hi"}},
		{name: "not a map", input: `["a"]`, err: "want a map of file and folder names to contents"},
		{name: "number", input: `{"f": 1}`, err: "f: want a string (a file) or a map (a folder), got a number"},
		{name: "bad name", input: `{"a/b": "x"}`, err: `"a/b" is not a valid file name`},
		{name: "unknown type", input: `{"l": {"$type": "symlink", "value": "x"}}`, err: "l: unsupported $type symlink"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := ReadFilesystem(json.RawMessage(tt.input))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != len(tt.files) {
				t.Errorf("got %d entries, want %d: %v", len(files), len(tt.files), files)
			}
			for p, want := range tt.files {
				f, ok := files[p]
				switch {
				case !ok:
					t.Errorf("%s is missing", p)
				case want == "/" && !f.Mode.IsDir():
					t.Errorf("%s is not a folder", p)
				case want != "/" && string(f.Data) != want:
					t.Errorf("%s = %q, want %q", p, f.Data, want)
				}
			}
		})
	}
}

func TestFromInline(t *testing.T) {
	raw, _ := json.Marshal(map[string]any{"blueprint.yaml": minimal, "data": map[string]any{"x.txt": "x"}})
	bp, err := FromInline(lsv1alpha1.NewAnyJSON(raw))
	if err != nil {
		t.Fatal(err)
	}
	if bp.Source != "inline" || len(bp.Info.Imports) != 1 {
		t.Fatalf("bp = %+v", bp)
	}
	imp := bp.Info.Imports[0]
	if imp.Type != lsv1alpha1.ImportTypeData || imp.Required == nil || !*imp.Required {
		t.Errorf("import a is not defaulted as Landscaper does: %+v", imp)
	}
	if data, err := fs.ReadFile(bp.FS, "data/x.txt"); err != nil || string(data) != "x" {
		t.Errorf("data/x.txt = %q, %v", data, err)
	}
	if _, err := FromInline(lsv1alpha1.NewAnyJSON([]byte(`{"other.yaml": "x"}`))); err == nil ||
		err.Error() != "unable to read blueprint file from inline defined blueprint: no such file" {
		t.Errorf("without blueprint.yaml: err = %v", err)
	}
}

func TestInlineRoundTrip(t *testing.T) {
	src := fstest.MapFS{
		"sub/blueprint.yaml":    {Data: []byte(minimal)},
		"sub/templates/a.tpl":   {Data: []byte("a")},
		"sub/bin/data":          {Data: []byte{0xff, 0x00}},
		"other/not-copied.yaml": {Data: []byte("x")},
	}
	raw, err := Inline(src, "sub")
	if err != nil {
		t.Fatal(err)
	}
	files, err := ReadFilesystem(raw.RawMessage)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"blueprint.yaml", "templates/a.tpl", "bin/data"} {
		if string(files[p].Data) != string(src["sub/"+p].Data) {
			t.Errorf("%s = %q, want %q", p, files[p].Data, src["sub/"+p].Data)
		}
	}
	if _, ok := files["not-copied.yaml"]; ok {
		t.Error("a file outside the folder was copied")
	}
}

func TestFolders(t *testing.T) {
	fsys := fstest.MapFS{
		"bp/app/blueprint.yaml": {Data: []byte(minimal)},
		"bp/empty/README.md":    {Data: []byte("x")},
	}
	f := &Folders{FS: fsys, Origin: "lscli.yaml", Paths: map[string]string{
		"example.com/app/blueprint": "bp/app", "generic": "bp/app", "empty": "bp/empty"}}
	tests := []struct {
		name   string
		ref    Reference
		source string
		err    string
	}{
		{name: "by component and resource", ref: Reference{ResourceName: "blueprint", ComponentName: "example.com/app"}, source: "bp/app"},
		{name: "by resource", ref: Reference{ResourceName: "generic", ComponentName: "example.com/other"}, source: "bp/app"},
		{name: "unknown", ref: Reference{ResourceName: "x"},
			err: `blueprint not found: lscli.yaml has no entry for "x" in its blueprints map (known: "empty", "example.com/app/blueprint", "generic")`},
		{name: "no blueprint.yaml", ref: Reference{ResourceName: "empty"},
			err: `folder bp/empty (blueprints["empty"] of lscli.yaml): read blueprint.yaml: no such file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bp, err := f.Resolve(tt.ref)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v\nwant %s", err, tt.err)
				}
				return
			}
			if err != nil || bp.Source != tt.source {
				t.Fatalf("Resolve = %+v, %v", bp, err)
			}
		})
	}
}

func TestForInstallation(t *testing.T) {
	inline, _ := json.Marshal(map[string]any{"blueprint.yaml": minimal})
	resolver := &Folders{FS: fstest.MapFS{"app/blueprint.yaml": {Data: []byte(minimal)}}, Paths: map[string]string{"app": "app"}}
	inst := func(def lsv1alpha1.BlueprintDefinition) *lsv1alpha1.Installation {
		return &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "i", Namespace: "ns"}, Spec: lsv1alpha1.InstallationSpec{Blueprint: def}}
	}
	ref := func(name string) lsv1alpha1.BlueprintDefinition {
		return lsv1alpha1.BlueprintDefinition{Reference: &lsv1alpha1.RemoteBlueprintReference{ResourceName: name}}
	}
	tests := []struct {
		name     string
		def      lsv1alpha1.BlueprintDefinition
		resolver Resolver
		reason   string
		err      string
	}{
		{name: "inline", def: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON(inline)}}},
		{name: "resolved", def: ref("app"), resolver: resolver},
		{name: "bad inline", def: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON([]byte(`{}`))}},
			reason: "BlueprintInvalid", err: "unable to read blueprint file from inline defined blueprint: no such file"},
		// the guided tour's error-handling/immediate-error: Landscaper's
		// lastError message (pkg/landscaper/blueprints/resolve.go).
		{name: "inline not YAML", def: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON(
			[]byte(`{"blueprint.yaml": "kind: Blueprint\nimports\n  - name: cluster\n    type: target\n"}`))}},
			reason: "BlueprintInvalid", err: "unable to decode blueprint definition from inline defined blueprint. yaml: line 3: could not find expected ':'"},
		{name: "no resolver", def: ref("app"), reason: "BlueprintNotFound",
			err: `installation ns/i: blueprint ref.resourceName "app": lscli reads no registry; map the resource to a local folder in the blueprints map of the config file (lscli.yaml)`},
		{name: "unknown", def: ref("x"), resolver: resolver, reason: "BlueprintNotFound",
			err: `installation ns/i: blueprint ref.resourceName "x": blueprint not found: the config file has no entry for "x" in its blueprints map (known: "app")`},
		{name: "neither", reason: "BlueprintNotFound", err: "installation ns/i: spec.blueprint has neither inline nor ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bp, err := ForInstallation(inst(tt.def), tt.resolver)
			if tt.err == "" {
				if err != nil || bp == nil {
					t.Fatalf("ForInstallation = %v, %v", bp, err)
				}
				return
			}
			te := reconcile.AsTerminal(err)
			if te == nil || te.Reason != tt.reason || err.Error() != tt.err {
				t.Fatalf("err = %v (terminal %v)\nwant %s: %s", err, te != nil, tt.reason, tt.err)
			}
		})
	}
	if !errors.Is(func() error { _, err := resolver.Resolve(Reference{ResourceName: "x"}); return err }(), ErrNotFound) {
		t.Error("an unknown reference does not wrap ErrNotFound")
	}
}

func TestFilePath(t *testing.T) {
	for in, want := range map[string]string{
		"": ".", "/": ".", ".": ".", "a.txt": "a.txt", "/a.txt": "a.txt", "./a.txt": "a.txt",
		"data/../data/b.txt": "data/b.txt", "../data/b.txt": "data/b.txt", "data/./b.txt": "data/b.txt",
		"data//b.txt": "data/b.txt", "../../etc/hostname": "etc/hostname", "data/..": ".", " x ": "x",
	} {
		if got := FilePath(in); got != want {
			t.Errorf("FilePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// worded is a Resolver whose error has a status text of its own, as the
// components registry's for a resource the component does not have.
type worded struct{}

func (worded) Resolve(Reference) (*Blueprint, error) {
	return nil, reconcile.WithStatusText(errors.New("failed to get resource with name x (lscli took component a:1 from a.yaml, which has resources y)"),
		"failed to get resource with name x")
}

// TestForInstallationStatusText: where the resolver's error has Landscaper's
// words for the status, the installation's status has them alone, as
// Landscaper's InitPrerequisites writes ResolveBlueprint's error
// (pkg/landscaper/controllers/installations/controller.go); lscli's text
// still names the installation and the reference.
func TestForInstallationStatusText(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "i", Namespace: "ns"},
		Spec: lsv1alpha1.InstallationSpec{Blueprint: lsv1alpha1.BlueprintDefinition{Reference: &lsv1alpha1.RemoteBlueprintReference{ResourceName: "x"}}}}
	_, err := ForInstallation(inst, worded{})
	if got := reconcile.StatusText(err); got != "failed to get resource with name x" {
		t.Errorf("status text %q", got)
	}
	if want := `installation ns/i: blueprint ref.resourceName "x": failed to get resource with name x (lscli took`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Error() = %q, want it to start with %q", err.Error(), want)
	}
}
