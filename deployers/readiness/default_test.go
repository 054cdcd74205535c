package readiness_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/readinesschecks"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/readiness"
)

func TestObject(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		wantErr string
	}{
		{name: "configmap has no rules", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}"},
		{name: "pod ready", yaml: podYAML("True", "")},
		{name: "pod not ready", yaml: podYAML("False", "ContainersNotReady"), wantErr: `condition "Ready" has invalid status False`},
		{name: "pod completed", yaml: podYAML("False", "PodCompleted")},
		{name: "pod without conditions", yaml: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}", wantErr: `condition "Ready" is missing`},
		{name: "deployment ready", yaml: deploymentYAML(2, 2, 2, 2, 3, 3)},
		{name: "deployment old generation", yaml: deploymentYAML(2, 2, 2, 2, 3, 2), wantErr: "observed generation outdated (2/3)"},
		{name: "deployment unavailable", yaml: deploymentYAML(2, 2, 2, 1, 1, 1), wantErr: "not enough ready replicas (1/2)"},
		{name: "deployment without status", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1}", wantErr: "not enough ready replicas (0/1)"},
		{name: "statefulset default one replica", yaml: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nstatus: {updatedReplicas: 1, availableReplicas: 1}"},
		{name: "statefulset missing", yaml: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec: {replicas: 2}\nstatus: {updatedReplicas: 2, availableReplicas: 1}", wantErr: "not enough ready replicas (1/2)"},
		{name: "daemonset max unavailable", yaml: daemonSetYAML("1", 3, 2)},
		{name: "daemonset too few", yaml: daemonSetYAML("1", 3, 1), wantErr: "not enough ready replicas (1/2)"},
		{name: "daemonset percent", yaml: daemonSetYAML("50%", 4, 2)},
		{name: "replicaset ready", yaml: "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: r}\nstatus: {readyReplicas: 1}"},
		{name: "replicaset failure", yaml: "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: r}\nstatus:\n  readyReplicas: 1\n  conditions: [{type: ReplicaFailure, status: 'True', reason: Quota, message: full}]", wantErr: `condition "ReplicaFailure" has invalid status True (expected False) due to Quota: full`},
		{name: "replicationcontroller short", yaml: "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: r}\nspec: {replicas: 3}\nstatus: {readyReplicas: 2}", wantErr: "not enough ready replicas (2/3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readiness.Object(kubetest.Object(tt.yaml))
			checkErr(t, err, tt.wantErr)
		})
	}
}

func TestKStatus(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		wantErr string
	}{
		{name: "configmap current", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}"},
		{name: "deployment in progress", yaml: deploymentYAML(2, 0, 0, 0, 1, 1), wantErr: "status InProgress"},
		{name: "int64 generation decodes", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, generation: 1}\nspec: {replicas: 1}\nstatus: {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [{type: Available, status: 'True'}]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, readiness.KStatus(kubetest.Object(tt.yaml)), tt.wantErr)
		})
	}
}

func TestCheckDefault(t *testing.T) {
	stored := kubetest.Objects(
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: ns}",
		deploymentYAML(1, 1, 1, 1, 0, 0),
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: slow, namespace: ns}\nspec: {replicas: 1}",
	)
	cm := ref("v1", "ConfigMap", "ns", "cm")
	dep := ref("apps/v1", "Deployment", "ns", "d")
	slow := ref("apps/v1", "Deployment", "ns", "slow")
	missingCM := ref("v1", "ConfigMap", "ns", "missing")
	tests := []struct {
		name           string
		refs           []lsv1alpha1.TypedObjectReference
		failOnMissing  bool
		disableDefault bool
		wantErr        string
		wantCheckpoint string
	}{
		{name: "all ready", refs: []lsv1alpha1.TypedObjectReference{cm, dep}, failOnMissing: true},
		{name: "missing object", refs: []lsv1alpha1.TypedObjectReference{cm, missingCM}, failOnMissing: true,
			wantErr: "/v1, Kind=ConfigMap missing/ns is not ready: unable to get", wantCheckpoint: "deployer: during readiness check - resource ns/missing of type ConfigMap"},
		{name: "missing other kind ignored without failOnMissing", refs: []lsv1alpha1.TypedObjectReference{missingCM, dep}},
		{name: "not ready", refs: []lsv1alpha1.TypedObjectReference{cm, slow, dep}, failOnMissing: true,
			wantErr: "apps/v1, Kind=Deployment slow/ns is not ready: not enough ready replicas (0/1)", wantCheckpoint: "deployer: during readiness check - resource ns/slow of type Deployment"},
		{name: "disabled", refs: []lsv1alpha1.TypedObjectReference{slow}, failOnMissing: true, disableDefault: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := kubetest.NewClient(stored)
			cfg := readinesschecks.ReadinessCheckConfiguration{DisableDefault: tt.disableDefault}
			err := readiness.Check(context.Background(), cfg, readiness.Options{Client: c, Resources: tt.refs, FailOnMissingObject: tt.failOnMissing})
			checkErr(t, err, tt.wantErr)
			if err == nil {
				return
			}
			var nr *readiness.NotReadyError
			if !errors.As(err, &nr) {
				t.Fatalf("err %T is not a NotReadyError", err)
			}
			if nr.Checkpoint() != tt.wantCheckpoint {
				t.Errorf("checkpoint = %q, want %q", nr.Checkpoint(), tt.wantCheckpoint)
			}
		})
	}
}

func ref(apiVersion, kind, ns, name string) lsv1alpha1.TypedObjectReference {
	return lsv1alpha1.TypedObjectReference{APIVersion: apiVersion, Kind: kind,
		ObjectReference: lsv1alpha1.ObjectReference{Namespace: ns, Name: name}}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Fatalf("no error, want %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

func podYAML(status, reason string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus:\n  conditions: [{type: Ready, status: '" + status + "', reason: '" + reason + "'}]"
}

func deploymentYAML(spec, replicas, updated, available, gen, observed int) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns, generation: " + itoa(gen) + "}\n" +
		"spec: {replicas: " + itoa(spec) + "}\n" +
		"status: {observedGeneration: " + itoa(observed) + ", replicas: " + itoa(replicas) + ", updatedReplicas: " + itoa(updated) + ", availableReplicas: " + itoa(available) + "}"
}

func daemonSetYAML(maxUnavailable string, desired, current int) string {
	return "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\n" +
		"spec: {updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: " + quoteIfPercent(maxUnavailable) + "}}}\n" +
		"status: {desiredNumberScheduled: " + itoa(desired) + ", currentNumberScheduled: " + itoa(current) + "}"
}

func quoteIfPercent(s string) string {
	if strings.HasSuffix(s, "%") {
		return "'" + s + "'"
	}
	return s
}

func itoa(i int) string { return strconv.Itoa(i) }
