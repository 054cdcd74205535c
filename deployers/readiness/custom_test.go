package readiness_test

import (
	"context"
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/readinesschecks"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/readiness"
)

const customObj = `apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ns, labels: {app: web}}
status:
  readyReplicas: 2
  phase: Running
  selector: {a: "1", b: [x, z]}
`

func req(path string, op selection.Operator, values ...string) readinesschecks.RequirementSpec {
	r := readinesschecks.RequirementSpec{JsonPath: path, Operator: op}
	for _, v := range values {
		r.Value = append(r.Value, runtime.RawExtension{Raw: []byte(`{"value": ` + v + `}`)})
	}
	return r
}

func TestRequirements(t *testing.T) {
	tests := []struct {
		name    string
		req     readinesschecks.RequirementSpec
		wantErr string
	}{
		{name: "equals number", req: req(".status.readyReplicas", selection.Equals, "2")},
		{name: "double equals float", req: req("status.readyReplicas", selection.DoubleEquals, "2.0")},
		{name: "equals mismatch", req: req(".status.readyReplicas", selection.Equals, "3"), wantErr: "resource requirement is not fulfiled for field .status.readyReplicas"},
		{name: "not equals", req: req(".status.phase", selection.NotEquals, `"Pending"`)},
		{name: "not equals mismatch", req: req(".status.phase", selection.NotEquals, `"Running"`), wantErr: "not fulfiled"},
		{name: "in", req: req(".status.readyReplicas", selection.In, "1", "2", "3")},
		{name: "in mismatch", req: req(".status.readyReplicas", selection.In, "5"), wantErr: "not fulfiled"},
		{name: "notin", req: req(".status.phase", selection.NotIn, `"Failed"`, `"Pending"`)},
		{name: "notin mismatch", req: req(".status.phase", selection.NotIn, `"Running"`), wantErr: "not fulfiled"},
		{name: "exists", req: req(".status.phase", selection.Exists)},
		{name: "exists missing", req: req(".status.nope", selection.Exists), wantErr: "field with JSON path .status.nope does not exist"},
		{name: "does not exist", req: req(".status.nope", selection.DoesNotExist)},
		{name: "does not exist but does", req: req(".status.phase", selection.DoesNotExist), wantErr: "not fulfiled"},
		{name: "complex value", req: req(".status.selector", selection.Equals, `{"b": ["x", "z"], "a": "1"}`)},
		{name: "bad path", req: req(".status[", selection.Exists), wantErr: "cannot parse fieldPath"},
		{name: "value without key", req: readinesschecks.RequirementSpec{JsonPath: ".status.phase", Operator: selection.Equals,
			Value: []runtime.RawExtension{{Raw: []byte(`{"v": 1}`)}}}, wantErr: "does not contain the value key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readiness.Requirements(kubetest.Object(customObj), []readinesschecks.RequirementSpec{tt.req})
			checkErr(t, err, tt.wantErr)
		})
	}
}

func TestCheckCustom(t *testing.T) {
	primary := kubetest.NewClient(kubetest.Objects(customObj))
	other := kubetest.NewClient(kubetest.Objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: remote, namespace: ns}\ndata: {ready: 'yes'}"))
	secondary := func(_ context.Context, name string) (client.Client, error) {
		if name != "other" {
			return nil, errors.New("no target " + name)
		}
		return other, nil
	}
	ready := req(".status.readyReplicas", selection.Equals, "2")
	tests := []struct {
		name        string
		check       readinesschecks.CustomReadinessCheckConfiguration
		wantErr     string
		wantNoReady bool
	}{
		{name: "resource selector", check: custom([]lsv1alpha1.TypedObjectReference{ref("apps/v1", "Deployment", "ns", "d")}, nil, ready)},
		{name: "missing resource", check: custom([]lsv1alpha1.TypedObjectReference{ref("apps/v1", "Deployment", "ns", "x")}, nil, ready),
			wantErr: "apps/v1, Kind=Deployment x/ns is not ready", wantNoReady: true},
		{name: "label selector", check: custom(nil, &readinesschecks.LabelSelectorSpec{APIVersion: "apps/v1", Kind: "Deployment", Labels: map[string]string{"app": "web"}}, ready)},
		{name: "empty label selection", check: custom(nil, &readinesschecks.LabelSelectorSpec{APIVersion: "apps/v1", Kind: "Deployment", Labels: map[string]string{"app": "db"}}, ready),
			wantErr: "object list by label selector is empty", wantNoReady: true},
		{name: "requirement fails", check: custom([]lsv1alpha1.TypedObjectReference{ref("apps/v1", "Deployment", "ns", "d")}, nil, req(".status.readyReplicas", selection.Equals, "3")),
			wantErr: "not fulfiled", wantNoReady: true},
		{name: "disabled", check: disabled(custom([]lsv1alpha1.TypedObjectReference{ref("apps/v1", "Deployment", "ns", "x")}, nil, ready))},
		{name: "secondary target", check: onTarget("other", custom([]lsv1alpha1.TypedObjectReference{ref("v1", "ConfigMap", "ns", "remote")}, nil, req("data.ready", selection.Equals, `"yes"`)))},
		{name: "unknown secondary target", check: onTarget("nope", custom(nil, nil, ready)), wantErr: "no target nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := readinesschecks.ReadinessCheckConfiguration{DisableDefault: true,
				CustomReadinessChecks: []readinesschecks.CustomReadinessCheckConfiguration{tt.check}}
			err := readiness.Check(context.Background(), cfg, readiness.Options{Client: primary, Secondary: secondary})
			checkErr(t, err, tt.wantErr)
			if got := readiness.IsNotReady(err); got != tt.wantNoReady {
				t.Errorf("IsNotReady = %v, want %v", got, tt.wantNoReady)
			}
		})
	}
}

func custom(refs []lsv1alpha1.TypedObjectReference, sel *readinesschecks.LabelSelectorSpec, reqs ...readinesschecks.RequirementSpec) readinesschecks.CustomReadinessCheckConfiguration {
	return readinesschecks.CustomReadinessCheckConfiguration{Name: "c", Resource: refs, LabelSelector: sel, Requirements: reqs}
}

func disabled(c readinesschecks.CustomReadinessCheckConfiguration) readinesschecks.CustomReadinessCheckConfiguration {
	c.Disabled = true
	return c
}

func onTarget(name string, c readinesschecks.CustomReadinessCheckConfiguration) readinesschecks.CustomReadinessCheckConfiguration {
	c.TargetName = &name
	return c
}
