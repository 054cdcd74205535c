package deployers

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lscli/lscli/deployers/deployer"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

func TestSetupBuild(t *testing.T) {
	realHelm := deployer.Func(nil)
	registry := Registry{
		MockType: MockBuilder,
		HelmType: func(deployer.ClusterClients) (deployer.Deployer, error) {
			return deployer.WithTraits(realHelm, fullTraits), nil
		},
	}
	tests := []struct {
		name    string
		modes   map[lsv1alpha1.DeployItemType]Mode
		want    map[lsv1alpha1.DeployItemType]string // type → "mock", "real", "fake", "none"
		wantErr string
	}{
		{name: "defaults: real where available, else fake",
			want: map[lsv1alpha1.DeployItemType]string{MockType: "mock", HelmType: "real", ManifestType: "fake", "example.com/x": "fake"}},
		{name: "mock fake is the mock", modes: map[lsv1alpha1.DeployItemType]Mode{MockType: ModeFake},
			want: map[lsv1alpha1.DeployItemType]string{MockType: "mock"}},
		{name: "none", modes: map[lsv1alpha1.DeployItemType]Mode{MockType: ModeNone, "example.com/x": ModeNone},
			want: map[lsv1alpha1.DeployItemType]string{MockType: "none", "example.com/x": "none", "example.com/y": "fake"}},
		{name: "helm fake", modes: map[lsv1alpha1.DeployItemType]Mode{HelmType: ModeFake},
			want: map[lsv1alpha1.DeployItemType]string{HelmType: "fake"}},
		{name: "real without a real deployer", modes: map[lsv1alpha1.DeployItemType]Mode{ManifestType: ModeReal},
			wantErr: "the real deployer for landscaper.gardener.cloud/kubernetes-manifest is not available (real deployers: landscaper.gardener.cloud/helm, landscaper.gardener.cloud/mock)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, fallback, err := Setup{Modes: tt.modes, Real: registry}.Build()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f := &Framework{Deployers: table, Fallback: fallback}
			for typ, want := range tt.want {
				if got := kindOfDeployer(f.deployerFor(typ)); got != want {
					t.Errorf("%s: %s deployer, want %s", typ, got, want)
				}
			}
		})
	}
}

// kindOfDeployer names what serves a type.
func kindOfDeployer(d deployer.Deployer) string {
	if w, ok := d.(withPickup); ok {
		d = w.Deployer
	}
	switch d.(type) {
	case nil:
		return "none"
	case Mock:
		return "mock"
	case Fake:
		return "fake"
	}
	if reflect.DeepEqual(deployer.TraitsOf(d), fullTraits) {
		return "real"
	}
	return "unknown"
}
