package simcluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	deploymentutil "k8s.io/kubectl/pkg/util/deployment"
)

// The status a waiting workload shows while an object its pods need is
// missing (see missingRef): what kube-controller-manager, the scheduler
// and the kubelet write then.

// forbiddenPod is the error of the API server's ServiceAccount admission
// (plugin/pkg/admission/serviceaccount) for a pod named name (or its
// generateName) whose ServiceAccount m does not exist.
func forbiddenPod(name, ns string, m *missingRef) string {
	if m.podSecurity || m.resource == "priorityclass" { // PodSecurity or Priority admission refuses it (podsecurity.go, priorityclass.go)
		return apierrors.NewForbidden(corev1.Resource("pods"), name, errors.New(m.why)).Error()
	}
	return apierrors.NewForbidden(corev1.Resource("pods"), name,
		fmt.Errorf("error looking up service account %s/%s: %s", ns, m.name, m.notFound())).Error()
}

// Reasons of a Deployment's Progressing condition, as
// pkg/controller/deployment/util names them.
const (
	reasonNewRSCreated = "NewReplicaSetCreated"
	reasonRSUpdated    = "ReplicaSetUpdated"
	reasonTimedOut     = "ProgressDeadlineExceeded"
)

// stalledDeployment reports whether d's status is one stallDeployment
// wrote for its generation.
func stalledDeployment(d *appsv1.Deployment) bool {
	if d.Status.ObservedGeneration != d.Generation {
		return false
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing {
			return c.Reason == reasonNewRSCreated || c.Reason == reasonRSUpdated || c.Reason == reasonTimedOut && d.Status.AvailableReplicas == 0
		}
	}
	return false
}

// stallDeployment sets the status of a Deployment whose pods miss m, as
// kube-controller-manager's deployment controller
// (pkg/controller/deployment: sync.go, progress.go) and the replica set
// controller write it for the first rollout of its template: the new
// ReplicaSet is created (Progressing NewReplicaSetCreated); its pods are
// created but never ready (Progressing ReplicaSetUpdated), or, without
// their ServiceAccount, refused (ReplicaFailure FailedCreate). When the
// Progressing condition was last updated progressDeadlineSeconds ago, it
// turns False with ProgressDeadlineExceeded; the controller looks one
// second after the deadline (requeueStuckDeployment). stallDeployment
// returns that time while it is ahead, else zero.
func stallDeployment(d *appsv1.Deployment, m *missingRef, now metav1.Time) time.Time {
	r := replicas(d.Spec.Replicas)
	rs := d.Name + "-" + podTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
	var prev []appsv1.DeploymentCondition
	if stalledDeployment(d) {
		prev = d.Status.Conditions
	}
	created := m.stall != stallNoPods
	st := appsv1.DeploymentStatus{ObservedGeneration: d.Generation, UnavailableReplicas: r, CollisionCount: d.Status.CollisionCount}
	if created {
		st.Replicas, st.UpdatedReplicas = r, r
	}
	avail := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse, Reason: "MinimumReplicasUnavailable",
		Message: "Deployment does not have minimum availability."}
	if 0 >= r-maxUnavailable(d) {
		avail.Status, avail.Reason, avail.Message = corev1.ConditionTrue, "MinimumReplicasAvailable", "Deployment has minimum availability."
	}
	setCondition(prev, &avail, now)
	hasDeadline := d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
	// progressing is as of the last progress: the creation of the new
	// ReplicaSet, or of its pods.
	progressing := appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: reasonNewRSCreated,
		Message: fmt.Sprintf("Created new replica set %q", rs), LastUpdateTime: now, LastTransitionTime: now}
	if created {
		progressing.Reason, progressing.Message = reasonRSUpdated, fmt.Sprintf("ReplicaSet %q is progressing.", rs)
	}
	old := deploymentutil.GetDeploymentCondition(appsv1.DeploymentStatus{Conditions: prev}, appsv1.DeploymentProgressing)
	switch {
	case old == nil:
	case created && d.Status.UpdatedReplicas == 0: // progress: the pods are created now
		if old.Status == corev1.ConditionTrue {
			progressing.LastTransitionTime = old.LastTransitionTime
		}
	default:
		progressing = *old
	}
	var wake time.Time
	if hasDeadline && progressing.Reason != reasonTimedOut {
		wake = progressing.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds)*time.Second + time.Second)
		if !now.Time.Before(wake) {
			wake = time.Time{}
			progressing = appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: reasonTimedOut,
				Message: fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs), LastUpdateTime: now, LastTransitionTime: now}
		}
	}
	switch {
	case !hasDeadline:
		st.Conditions = []appsv1.DeploymentCondition{avail}
	case progressing.Reason == reasonNewRSCreated:
		st.Conditions = []appsv1.DeploymentCondition{progressing, avail}
	default:
		st.Conditions = []appsv1.DeploymentCondition{avail, progressing}
	}
	if !created {
		// The new ReplicaSet's failure (ReplicaSetToDeploymentCondition),
		// set after the Progressing condition was.
		failure := appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
			Message: forbiddenPod(rs+"-", d.Namespace, m)}
		setCondition(prev, &failure, now)
		at := len(st.Conditions)
		if progressing.Reason == reasonTimedOut {
			at--
		}
		st.Conditions = slices.Insert(st.Conditions, at, failure)
	}
	d.Status = st
	return wake
}

// setCondition sets the times of c: those of the same condition in prev
// when its status and reason did not change, else now (the transition time
// is kept when only the reason changed), as deploymentutil's
// SetDeploymentCondition does.
func setCondition(prev []appsv1.DeploymentCondition, c *appsv1.DeploymentCondition, now metav1.Time) {
	c.LastUpdateTime, c.LastTransitionTime = now, now
	old := deploymentutil.GetDeploymentCondition(appsv1.DeploymentStatus{Conditions: prev}, c.Type)
	switch {
	case old == nil || old.Status != c.Status:
	case old.Reason == c.Reason:
		*c = *old
	default:
		c.LastTransitionTime = old.LastTransitionTime
	}
}

// maxUnavailable is how many of a Deployment's replicas may be unavailable
// while it counts as available, as the deployment controller's
// MaxUnavailable computes it (with deploymentutil.ResolveFenceposts).
func maxUnavailable(d *appsv1.Deployment) int32 {
	r := replicas(d.Spec.Replicas)
	ru := d.Spec.Strategy.RollingUpdate
	if d.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || ru == nil || r == 0 {
		return 0
	}
	_, unavailable, err := deploymentutil.ResolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, r)
	if err != nil {
		return 0
	}
	return min(unavailable, r)
}

// stallStatefulSet: the StatefulSet controller creates pod 0 first and
// waits for it to be ready (OrderedReady, the default), or all pods at
// once (Parallel); without the ServiceAccount none. The pods of ordinals
// whose claims (of claim templates) are there and bound are ready
// (m.ready): with OrderedReady those before the one that waits.
func stallStatefulSet(s *appsv1.StatefulSet, m *missingRef) {
	var n int32
	switch {
	case m.stall == stallNoPods:
	case s.Spec.PodManagementPolicy == appsv1.ParallelPodManagement:
		n = replicas(s.Spec.Replicas)
	default:
		n = m.ready + 1
	}
	rev := statefulSetRevision(s)
	s.Status = appsv1.StatefulSetStatus{ObservedGeneration: s.Generation, Replicas: n, CurrentReplicas: n, UpdatedReplicas: n,
		ReadyReplicas: m.ready, AvailableReplicas: m.ready,
		CurrentRevision: rev, UpdateRevision: rev, CollisionCount: s.Status.CollisionCount}
}

// stallDaemonSet: the one node's pod is created but not ready, or, without
// the ServiceAccount, not created.
func stallDaemonSet(d *appsv1.DaemonSet, m *missingRef) {
	var n int32 = 1
	if m.stall == stallNoPods {
		n = 0
	}
	d.Status = appsv1.DaemonSetStatus{ObservedGeneration: d.Generation, DesiredNumberScheduled: 1,
		CurrentNumberScheduled: n, UpdatedNumberScheduled: n, NumberUnavailable: 1}
}

// activePods is how many pods a Job runs at once: its parallelism, at most
// its completions.
func activePods(j *batchv1.Job) int32 {
	n := replicas(j.Spec.Parallelism)
	if j.Spec.Completions != nil {
		n = min(n, *j.Spec.Completions)
	}
	return n
}

// stallPod sets the status of a Pod that misses m: Pending and
// unschedulable without its claim (the scheduler's message for one node),
// else scheduled with its containers waiting: ContainerCreating while a
// volume cannot be mounted (PodInitializing behind init containers), or
// CreateContainerConfigError with the kubelet's message for the container
// whose env names the missing object, or InvalidImageName for the one
// whose image the kubelet cannot parse. (A Pod without its ServiceAccount is
// refused when created: admitPod.)
func stallPod(p *corev1.Pod, m *missingRef, now metav1.Time) {
	st := corev1.PodStatus{Phase: corev1.PodPending, ObservedGeneration: p.Generation, QOSClass: p.Status.QOSClass}
	if m.stall == stallUnschedulable {
		st.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
			Message:            "0/1 nodes are available: " + m.notFound() + ". preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
			LastTransitionTime: now}}
		p.Status = st
		return
	}
	if m.stall == stallBinding {
		p.Status = st // assumed on a node, not yet bound to it: no condition
		return
	}
	st.StartTime, st.HostIP = &now, "172.18.0.2"
	waiting := func(c corev1.Container, reason, msg string) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: c.Name, Image: c.Image, Started: new(false),
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}
	}
	running := func(c corev1.Container) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: true, Started: new(true),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}}
	}
	inContainer := m.stall == stallConfig || m.stall == stallImage
	initialized := len(p.Spec.InitContainers) == 0 || inContainer && !m.init
	var blockedInit, unready []string
	for _, c := range p.Spec.InitContainers {
		switch {
		case initialized:
			st.InitContainerStatuses = append(st.InitContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image, Started: new(false),
				State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", StartedAt: now, FinishedAt: now}}})
		case inContainer && c.Name == m.container:
			st.InitContainerStatuses = append(st.InitContainerStatuses, waiting(c, m.reason(), m.notFound()))
			blockedInit = append(blockedInit, c.Name)
		default:
			st.InitContainerStatuses = append(st.InitContainerStatuses, waiting(c, "PodInitializing", ""))
			blockedInit = append(blockedInit, c.Name)
		}
	}
	for _, c := range p.Spec.Containers {
		switch {
		case !initialized:
			st.ContainerStatuses = append(st.ContainerStatuses, waiting(c, "PodInitializing", ""))
		case m.stall == stallMount:
			st.ContainerStatuses = append(st.ContainerStatuses, waiting(c, "ContainerCreating", ""))
		case c.Name == m.container:
			st.ContainerStatuses = append(st.ContainerStatuses, waiting(c, m.reason(), m.notFound()))
		default:
			st.ContainerStatuses = append(st.ContainerStatuses, running(c))
			continue
		}
		unready = append(unready, c.Name)
	}
	sort.Strings(unready)
	initCond := corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now}
	if !initialized {
		initCond.Status, initCond.Reason = corev1.ConditionFalse, "ContainersNotInitialized"
		initCond.Message = fmt.Sprintf("containers with incomplete status: %v", blockedInit)
	}
	notReady := func(t corev1.PodConditionType) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionFalse, Reason: "ContainersNotReady",
			Message: fmt.Sprintf("containers with unready status: %v", unready), LastTransitionTime: now}
	}
	st.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		initCond, notReady(corev1.ContainersReady), notReady(corev1.PodReady)}
	p.Status = st
}
