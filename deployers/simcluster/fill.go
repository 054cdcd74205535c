package simcluster

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// replicas is *r, or 1 when unset, as the API server defaults it.
func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func fillDeployment(obj client.Object, fail string, now metav1.Time) {
	d := obj.(*appsv1.Deployment)
	r := replicas(d.Spec.Replicas)
	// The new ReplicaSet is named as kube-controller-manager names it.
	rs := d.Name + "-" + podTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: r, UpdatedReplicas: r, CollisionCount: d.Status.CollisionCount,
		ReadyReplicas: r, AvailableReplicas: r, Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable",
				Message: "Deployment has minimum availability.", LastUpdateTime: now, LastTransitionTime: now},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable",
				Message: fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs), LastUpdateTime: now, LastTransitionTime: now},
		}}
	if fail != "" {
		d.Status.ReadyReplicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas = 0, 0, r
		d.Status.Conditions[0].Status, d.Status.Conditions[0].Reason = corev1.ConditionFalse, "MinimumReplicasUnavailable"
		d.Status.Conditions[0].Message = "Deployment does not have minimum availability."
		// What kube-controller-manager's deployment controller writes when
		// the new ReplicaSet missed the progress deadline
		// (pkg/controller/deployment/progress.go); the rule's message has
		// no place in a Deployment's status.
		d.Status.Conditions[1].Status, d.Status.Conditions[1].Reason = corev1.ConditionFalse, "ProgressDeadlineExceeded"
		d.Status.Conditions[1].Message = fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs)
	}
}

// fillStatefulSet runs every pod of a StatefulSet, ready (none with fail),
// at the revisions statefulSetStatus gives: with updateStrategy OnDelete a
// change of the template leaves the pods running at their revision.
func fillStatefulSet(obj client.Object, fail string, _ metav1.Time) {
	s := obj.(*appsv1.StatefulSet)
	r := replicas(s.Spec.Replicas)
	ready := r
	if fail != "" {
		ready = 0
	}
	s.Status = statefulSetStatus(s, r, ready)
}

func fillDaemonSet(obj client.Object, fail string, _ metav1.Time) {
	d := obj.(*appsv1.DaemonSet)
	var ready int32 = 1 // a simulated cluster has one node
	if fail != "" {
		ready = 0
	}
	d.Status = appsv1.DaemonSetStatus{ObservedGeneration: d.Generation, DesiredNumberScheduled: 1,
		CurrentNumberScheduled: 1, UpdatedNumberScheduled: 1, NumberReady: ready, NumberAvailable: ready,
		NumberUnavailable: 1 - ready}
}

func fillReplicaSet(obj client.Object, fail string, now metav1.Time) {
	rs := obj.(*appsv1.ReplicaSet)
	r := replicas(rs.Spec.Replicas)
	rs.Status = appsv1.ReplicaSetStatus{ObservedGeneration: rs.Generation, Replicas: r, FullyLabeledReplicas: r,
		ReadyReplicas: r, AvailableReplicas: r}
	if fail != "" {
		rs.Status.ReadyReplicas, rs.Status.AvailableReplicas = 0, 0
		rs.Status.Conditions = []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure,
			Status: corev1.ConditionTrue, Reason: "FailedCreate", Message: fail, LastTransitionTime: now}}
	}
}

func fillReplicationController(obj client.Object, fail string, now metav1.Time) {
	rc := obj.(*corev1.ReplicationController)
	r := replicas(rc.Spec.Replicas)
	rc.Status = corev1.ReplicationControllerStatus{ObservedGeneration: rc.Generation, Replicas: r,
		FullyLabeledReplicas: r, ReadyReplicas: r, AvailableReplicas: r}
	if fail != "" {
		rc.Status.ReadyReplicas, rc.Status.AvailableReplicas = 0, 0
		rc.Status.Conditions = []corev1.ReplicationControllerCondition{{Type: corev1.ReplicationControllerReplicaFailure,
			Status: corev1.ConditionTrue, Reason: "FailedCreate", Message: fail, LastTransitionTime: now}}
	}
}

// fillPod runs a Pod. One whose containers are restarted when they exit
// (restartPolicy Always, the default) runs for ever: Running and ready, or
// with fail a crash loop. One whose containers are not restarted when they
// succeed (Never, OnFailure) runs to completion, as a Job does (see
// fillJob): Succeeded, or with fail Failed (Never) or a crash loop
// (OnFailure: the kubelet restarts the failing container).
func fillPod(obj client.Object, fail string, now metav1.Time) {
	p := obj.(*corev1.Pod)
	switch p.Spec.RestartPolicy {
	case corev1.RestartPolicyNever:
		completePod(p, fail, now)
		return
	case corev1.RestartPolicyOnFailure:
		if fail == "" {
			completePod(p, "", now)
			return
		}
	}
	st := corev1.PodStatus{Phase: corev1.PodRunning, ObservedGeneration: p.Generation, StartTime: &now,
		PodIP: "10.244.0.10", HostIP: "172.18.0.2", QOSClass: corev1.PodQOSBestEffort}
	for _, t := range []corev1.PodConditionType{corev1.PodScheduled, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
		st.Conditions = append(st.Conditions, corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now})
	}
	for _, ctr := range p.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, corev1.ContainerStatus{Name: ctr.Name, Image: ctr.Image,
			Ready: true, Started: new(true), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}})
	}
	if fail != "" { // a crash loop: running, never ready
		for i := range st.Conditions[2:] {
			st.Conditions[2+i].Status = corev1.ConditionFalse
		}
		for i := range st.ContainerStatuses {
			cs := &st.ContainerStatuses[i]
			cs.Ready, cs.Started, cs.RestartCount = false, new(false), 5
			cs.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: fail}}
		}
	}
	p.Status = st
}

// completePod sets the status of a Pod whose containers have all exited:
// phase Succeeded (exit code 0, reason Completed), or with fail Failed (exit
// code 1, reason Error, message fail). Such a Pod is not ready, with the
// kubelet's reason PodCompleted (PodFailed).
func completePod(p *corev1.Pod, fail string, now metav1.Time) {
	phase, reason, exit, ctrReason := corev1.PodSucceeded, "PodCompleted", int32(0), "Completed"
	if fail != "" {
		phase, reason, exit, ctrReason = corev1.PodFailed, "PodFailed", 1, "Error"
	}
	st := corev1.PodStatus{Phase: phase, ObservedGeneration: p.Generation, StartTime: &now,
		PodIP: "10.244.0.10", HostIP: "172.18.0.2", QOSClass: corev1.PodQOSBestEffort, Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: reason, LastTransitionTime: now},
			{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: reason, LastTransitionTime: now},
		}}
	for _, ctr := range p.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, corev1.ContainerStatus{Name: ctr.Name, Image: ctr.Image,
			Started: new(false), State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
				ExitCode: exit, Reason: ctrReason, Message: fail, StartedAt: now, FinishedAt: now}}})
	}
	p.Status = st
}

func fillJob(obj client.Object, fail string, now metav1.Time) {
	j := obj.(*batchv1.Job)
	n := replicas(j.Spec.Completions)
	j.Status = batchv1.JobStatus{StartTime: &now, CompletionTime: &now, Succeeded: n, Conditions: []batchv1.JobCondition{
		{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: "CompletionsReached", LastProbeTime: now, LastTransitionTime: now},
		{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: "CompletionsReached", LastProbeTime: now, LastTransitionTime: now},
	}}
	if fail != "" {
		j.Status = batchv1.JobStatus{StartTime: &now, Failed: 1, Conditions: []batchv1.JobCondition{
			{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: fail, LastProbeTime: now, LastTransitionTime: now},
			{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: fail, LastProbeTime: now, LastTransitionTime: now},
		}}
	}
}

func fillPVC(obj client.Object, fail string, _ metav1.Time) {
	pvc := obj.(*corev1.PersistentVolumeClaim)
	if fail != "" {
		pvc.Status = corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimPending}
		return
	}
	pvc.Status = corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound,
		AccessModes: pvc.Spec.AccessModes, Capacity: pvc.Spec.Resources.Requests}
}

func fillService(obj client.Object, _ string, _ metav1.Time) {
	svc := obj.(*corev1.Service)
	if svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{Hostname: svc.Name + "." + svc.Namespace + ".lb.simulated"}}
}

func fillCRD(obj client.Object, fail string, now metav1.Time) {
	crd := obj.(*apiextensionsv1.CustomResourceDefinition)
	addStoredVersion(crd) // kept as the CRD strategy keeps them (crdvalidate.go)
	crd.Status = apiextensionsv1.CustomResourceDefinitionStatus{AcceptedNames: crd.Spec.Names, StoredVersions: crd.Status.StoredVersions,
		Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue, Reason: "NoConflicts",
				Message: "no conflicts found", LastTransitionTime: now},
			{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue, Reason: "InitialNamesAccepted",
				Message: "the initial names have been accepted", LastTransitionTime: now},
		}}
	if fail != "" {
		crd.Status.AcceptedNames = apiextensionsv1.CustomResourceDefinitionNames{}
		crd.Status.Conditions[0].Status, crd.Status.Conditions[0].Reason = apiextensionsv1.ConditionFalse, "NameConflict"
		crd.Status.Conditions[0].Message = fail
		crd.Status.Conditions[1].Status, crd.Status.Conditions[1].Reason = apiextensionsv1.ConditionFalse, "NotAccepted"
		crd.Status.Conditions[1].Message = "not all names are accepted"
	}
}
