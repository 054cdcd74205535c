package readiness

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The messages below are Landscaper's, so status.lastError reads the same.

func outdatedGeneration(current, expected int64) error {
	return fmt.Errorf("observed generation outdated (%d/%d)", current, expected)
}

func notEnoughReadyReplicas(current, expected int32) error {
	return fmt.Errorf("not enough ready replicas (%d/%d)", current, expected)
}

// replicas is *r, or def when unset.
func replicas(r *int32, def int32) int32 {
	if r == nil {
		return def
	}
	return *r
}

func checkPod(pod *corev1.Pod) error {
	for _, c := range pod.Status.Conditions {
		if c.Type != corev1.PodReady {
			continue
		}
		if c.Reason == "PodCompleted" || c.Status == corev1.ConditionTrue {
			return nil
		}
		return fmt.Errorf("condition %q has invalid status %s (expected %s) due to %s: %s",
			corev1.PodReady, c.Status, corev1.ConditionTrue, c.Reason, c.Message)
	}
	return fmt.Errorf("condition %q is missing", corev1.PodReady)
}

func checkDeployment(dp *appsv1.Deployment) error {
	if dp.Status.ObservedGeneration < dp.Generation {
		return outdatedGeneration(dp.Status.ObservedGeneration, dp.Generation)
	}
	want := replicas(dp.Spec.Replicas, 0)
	if want != dp.Status.Replicas || want != dp.Status.UpdatedReplicas || want != dp.Status.AvailableReplicas {
		return notEnoughReadyReplicas(dp.Status.AvailableReplicas, want)
	}
	return nil
}

func checkStatefulSet(sts *appsv1.StatefulSet) error {
	if sts.Status.ObservedGeneration < sts.Generation {
		return outdatedGeneration(sts.Status.ObservedGeneration, sts.Generation)
	}
	want := replicas(sts.Spec.Replicas, 1)
	if sts.Status.UpdatedReplicas < want || sts.Status.AvailableReplicas < want {
		return notEnoughReadyReplicas(sts.Status.AvailableReplicas, want)
	}
	return nil
}

func checkDaemonSet(ds *appsv1.DaemonSet) error {
	if ds.Status.ObservedGeneration < ds.Generation {
		return outdatedGeneration(ds.Status.ObservedGeneration, ds.Generation)
	}
	required := ds.Status.DesiredNumberScheduled - daemonSetMaxUnavailable(ds)
	if ds.Status.CurrentNumberScheduled < required {
		return notEnoughReadyReplicas(ds.Status.CurrentNumberScheduled, required)
	}
	return nil
}

// daemonSetMaxUnavailable is the rolling update's maxUnavailable as a number;
// zero without a rolling update or when it cannot be computed.
func daemonSetMaxUnavailable(ds *appsv1.DaemonSet) int32 {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Status.DesiredNumberScheduled == 0 || ds.Spec.UpdateStrategy.Type != appsv1.RollingUpdateDaemonSetStrategyType || ru == nil {
		return 0
	}
	n, err := intstr.GetValueFromIntOrPercent(ru.MaxUnavailable, int(ds.Status.DesiredNumberScheduled), false)
	if err != nil {
		return 0
	}
	return int32(n)
}

func checkReplicaSet(rs *appsv1.ReplicaSet) error {
	if rs.Status.ObservedGeneration < rs.Generation {
		return outdatedGeneration(rs.Status.ObservedGeneration, rs.Generation)
	}
	for _, c := range rs.Status.Conditions {
		if err := replicaFailure(string(c.Type), c.Status, c.Reason, c.Message); err != nil {
			return err
		}
	}
	want := replicas(rs.Spec.Replicas, 1)
	if rs.Status.ReadyReplicas < want {
		return notEnoughReadyReplicas(rs.Status.ReadyReplicas, want)
	}
	return nil
}

func checkReplicationController(rc *corev1.ReplicationController) error {
	if rc.Status.ObservedGeneration < rc.Generation {
		return outdatedGeneration(rc.Status.ObservedGeneration, rc.Generation)
	}
	for _, c := range rc.Status.Conditions {
		if err := replicaFailure(string(c.Type), c.Status, c.Reason, c.Message); err != nil {
			return err
		}
	}
	want := replicas(rc.Spec.Replicas, 1)
	if rc.Status.ReadyReplicas < want {
		return notEnoughReadyReplicas(rc.Status.ReadyReplicas, want)
	}
	return nil
}

// replicaFailure fails a ReplicaFailure condition that is not False.
func replicaFailure(typ string, st corev1.ConditionStatus, reason, msg string) error {
	if typ != "ReplicaFailure" || st == corev1.ConditionFalse {
		return nil
	}
	return fmt.Errorf("condition %q has invalid status %s (expected %s) due to %s: %s", typ, st, corev1.ConditionFalse, reason, msg)
}
