package fakecluster

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// unregistered is a valid object type that NewScheme does not know.
type unregistered struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (u *unregistered) DeepCopyObject() runtime.Object { c := *u; return &c }

func TestKindOf(t *testing.T) {
	tests := []struct {
		name    string
		obj     runtime.Object
		want    string
		wantErr bool
	}{
		{name: "installation", obj: &lsv1alpha1.Installation{}, want: "Installation"},
		{name: "execution", obj: &lsv1alpha1.Execution{}, want: "Execution"},
		{name: "deploy item", obj: &lsv1alpha1.DeployItem{}, want: "DeployItem"},
		{name: "data object", obj: &lsv1alpha1.DataObject{}, want: "DataObject"},
		{name: "target", obj: &lsv1alpha1.Target{}, want: "Target"},
		{name: "context", obj: &lsv1alpha1.Context{}, want: "Context"},
		{name: "secret", obj: &corev1.Secret{}, want: "Secret"},
		{name: "config map", obj: &corev1.ConfigMap{}, want: "ConfigMap"},
		{name: "namespace", obj: &corev1.Namespace{}, want: "Namespace"},
		{name: "list", obj: &lsv1alpha1.InstallationList{}, want: "InstallationList"},
		{name: "unregistered", obj: &unregistered{}, wantErr: true},
	}
	scheme := NewScheme()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := KindOf(scheme, tt.obj)
			if (err != nil) != tt.wantErr {
				t.Fatalf("KindOf() error = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("KindOf() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGroupResource(t *testing.T) {
	ls := lsv1alpha1.SchemeGroupVersion.Group
	tests := []struct {
		kind schema.GroupKind
		want string
	}{
		{kind: schema.GroupKind{Group: ls, Kind: "Installation"}, want: "installations.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "DeployItem"}, want: "deployitems.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "Execution"}, want: "executions.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "DataObject"}, want: "dataobjects.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "Target"}, want: "targets.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "Context"}, want: "contexts.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "TargetSync"}, want: "targetsyncs.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "CriticalProblems"}, want: "criticalproblems.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Group: ls, Kind: "ComponentVersionOverwrites"}, want: "componentversionoverwrites.landscaper.gardener.cloud"},
		{kind: schema.GroupKind{Kind: "Secret"}, want: "secrets"},
		{kind: schema.GroupKind{Kind: "Endpoints"}, want: "endpoints"},
		{kind: schema.GroupKind{Kind: "Namespace"}, want: "namespaces"},
	}
	for _, tt := range tests {
		t.Run(tt.kind.Kind, func(t *testing.T) {
			if got := groupResource(tt.kind).String(); got != tt.want {
				t.Errorf("groupResource(%v) = %q, want %q", tt.kind, got, tt.want)
			}
		})
	}
}
