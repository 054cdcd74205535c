package blueprint

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestFromFSDecodesAsLandscaper: blueprint.yaml is read as Landscaper's
// blueprint resolution reads it (its API scheme's universal decoder): names
// as written (another case is an unknown name, ignored), YAML scalars as
// they are (a number is no string), a missing apiVersion or kind taken as a
// Blueprint's, any other refused, and the defaults applied.
func TestFromFSDecodesAsLandscaper(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		err  string
		// check, when set, looks at the decoded blueprint.
		check func(t *testing.T, bp *lsv1alpha1.Blueprint)
	}{
		{name: "well-formed", yaml: minimal, check: func(t *testing.T, bp *lsv1alpha1.Blueprint) {
			if len(bp.Imports) != 1 || bp.Imports[0].Name != "a" || bp.Imports[0].Type != lsv1alpha1.ImportTypeData {
				t.Errorf("imports = %+v, want a, of type data (the default for one with a schema)", bp.Imports)
			}
		}},
		{name: "no apiVersion and kind", yaml: "imports:\n- {name: a, schema: {type: string}}\n", check: func(t *testing.T, bp *lsv1alpha1.Blueprint) {
			if len(bp.Imports) != 1 || bp.Imports[0].Type != lsv1alpha1.ImportTypeData || bp.Imports[0].Required == nil {
				t.Errorf("imports = %+v, want one, with the defaults of a versioned Blueprint", bp.Imports)
			}
		}},
		{name: "a name in another case is unknown", yaml: "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nImports:\n- {name: a, schema: {type: string}}\n",
			check: func(t *testing.T, bp *lsv1alpha1.Blueprint) {
				if len(bp.Imports) != 0 {
					t.Errorf("imports = %+v, want none: Landscaper matches names as written", bp.Imports)
				}
			}},
		{name: "unknown names are ignored", yaml: minimal + "whatever: 1\n"},
		{name: "another apiVersion", yaml: strings.Replace(minimal, "v1alpha1", "v1alpha2", 1),
			err: `no kind "Blueprint" is registered for version "landscaper.gardener.cloud/v1alpha2": want apiVersion landscaper.gardener.cloud/v1alpha1 and kind Blueprint, or neither`},
		{name: "another kind", yaml: strings.Replace(minimal, "kind: Blueprint", "kind: Blueprints", 1),
			err: `no kind "Blueprints" is registered for version "landscaper.gardener.cloud/v1alpha1": want apiVersion landscaper.gardener.cloud/v1alpha1 and kind Blueprint, or neither`},
		{name: "a number for a string", yaml: minimal + "exports:\n- {name: 5, schema: {type: string}}\n",
			err: "cannot unmarshal number into Go struct field"},
		{name: "not YAML", yaml: "imports: [", err: "yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bp, err := FromFS(fstest.MapFS{lsv1alpha1.BlueprintFileName: {Data: []byte(tt.yaml)}})
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("FromFS() error = %v, want one with %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatalf("FromFS() error = %v", err)
			case err == nil && tt.check != nil:
				tt.check(t, bp.Info)
			}
		})
	}
}

// TestDecodeFileIsDecodeFileAgain: the second decoding of a text, which
// comes from what the first one kept, gives the same value, nil and empty
// alike, and a value of its own.
func TestDecodeFileIsDecodeFileAgain(t *testing.T) {
	text := []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: InstallationTemplate\nname: a\n" +
		"imports:\n  data: []\n  targets:\n  - {name: t, target: x}\nblueprint:\n  filesystem:\n    blueprint.yaml: |\n      imports: []\n")
	var first, second lsv1alpha1.InstallationTemplate
	if err := DecodeFile(text, &first); err != nil {
		t.Fatal(err)
	}
	if err := DecodeFile(text, &second); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&first, &second) {
		t.Errorf("again:\ngot  %#v\nwant %#v", &second, &first)
	}
	if first.Imports.Data == nil || len(first.Imports.Data) != 0 {
		t.Errorf("imports.data = %#v, want empty, not nil, as written", first.Imports.Data)
	}
	second.Imports.Targets[0].Name = "changed"
	var third lsv1alpha1.InstallationTemplate
	if err := DecodeFile(text, &third); err != nil {
		t.Fatal(err)
	}
	if third.Imports.Targets[0].Name != "t" {
		t.Error("a decoded value shares its parts with the kept one")
	}
	err := DecodeFile([]byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\nname: a\n"), &lsv1alpha1.InstallationTemplate{})
	if want := "want apiVersion landscaper.gardener.cloud/v1alpha1 and kind InstallationTemplate, or neither"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an Installation decoded into an InstallationTemplate: error %v, want one that ends %q", err, want)
	}
}
