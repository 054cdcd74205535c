package simcluster

import (
	dockerref "github.com/distribution/reference"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// This file sets the fields kube-apiserver's defaulting sets on the
// workload kinds and their pod templates (the SetDefaults_* functions and
// declarative defaults of k8s.io/kubernetes pkg/apis/core/v1, apps/v1 and
// batch/v1, which is no dependency of lscli), with the feature gates of a
// default kube-apiserver. They matter beyond `get -o yaml`:
// kube-controller-manager names a Deployment's ReplicaSet after the hash of
// its pod template as stored, defaults included (podTemplateHash).
// TestRealClusterDefaults compares them with a real kube-apiserver.

// defaultDeployment defaults a Deployment as SetObjectDefaults_Deployment.
func defaultDeployment(d *appsv1.Deployment) {
	defaultReplicas(&d.Spec.Replicas)
	s := &d.Spec.Strategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if s.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromString("25%"))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptr.To(intstr.FromString("25%"))
		}
	}
	setIfNil(&d.Spec.RevisionHistoryLimit, 10)
	setIfNil(&d.Spec.ProgressDeadlineSeconds, 600)
	defaultPodTemplate(&d.Spec.Template)
}

// defaultStatefulSet defaults a StatefulSet as SetObjectDefaults_StatefulSet
// (with the gate MaxUnavailableStatefulSet, on by default).
func defaultStatefulSet(s *appsv1.StatefulSet) {
	if s.Spec.PodManagementPolicy == "" {
		s.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	u := &s.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if u.Type == appsv1.RollingUpdateStatefulSetStrategyType && u.RollingUpdate != nil {
		setIfNil(&u.RollingUpdate.Partition, 0)
		setIfNil(&u.RollingUpdate.MaxUnavailable, intstr.FromInt32(1))
	}
	if s.Spec.PersistentVolumeClaimRetentionPolicy == nil {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	p := s.Spec.PersistentVolumeClaimRetentionPolicy
	if p.WhenDeleted == "" {
		p.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p.WhenScaled == "" {
		p.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	defaultReplicas(&s.Spec.Replicas)
	setIfNil(&s.Spec.RevisionHistoryLimit, 10)
	defaultPodTemplate(&s.Spec.Template)
	for i := range s.Spec.VolumeClaimTemplates {
		c := &s.Spec.VolumeClaimTemplates[i]
		if c.Status.Phase == "" {
			c.Status.Phase = corev1.ClaimPending
		}
		defaultClaimSpec(&c.Spec)
		roundUp(c.Status.Capacity)
		roundUp(c.Status.AllocatedResources)
	}
}

// defaultDaemonSet defaults a DaemonSet as SetObjectDefaults_DaemonSet.
func defaultDaemonSet(d *appsv1.DaemonSet) {
	u := &d.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if u.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		if u.RollingUpdate.MaxUnavailable == nil {
			u.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		}
		if u.RollingUpdate.MaxSurge == nil {
			u.RollingUpdate.MaxSurge = ptr.To(intstr.FromInt32(0))
		}
	}
	setIfNil(&d.Spec.RevisionHistoryLimit, 10)
	defaultPodTemplate(&d.Spec.Template)
}

// defaultReplicaSet defaults a ReplicaSet as SetObjectDefaults_ReplicaSet.
func defaultReplicaSet(rs *appsv1.ReplicaSet) {
	defaultReplicas(&rs.Spec.Replicas)
	defaultPodTemplate(&rs.Spec.Template)
}

// defaultReplicationController defaults a ReplicationController as
// SetObjectDefaults_ReplicationController: the template's labels are the
// selector and the labels when those are empty.
func defaultReplicationController(rc *corev1.ReplicationController) {
	defaultReplicas(&rc.Spec.Replicas)
	if rc.Spec.Template == nil {
		return
	}
	if labels := rc.Spec.Template.Labels; labels != nil {
		if len(rc.Spec.Selector) == 0 {
			rc.Spec.Selector = labels
		}
		if len(rc.Labels) == 0 {
			rc.Labels = labels
		}
	}
	defaultPodTemplate(rc.Spec.Template)
}

// defaultJob defaults a Job as SetObjectDefaults_Job. A Job without labels
// gets its template's map, shared as on a real server: the labels the Job
// registry adds to the template (generateJobSelector) are the Job's too.
func defaultJob(j *batchv1.Job) {
	defaultJobSpec(&j.Spec)
	if labels := j.Spec.Template.Labels; labels != nil && len(j.Labels) == 0 {
		j.Labels = labels
	}
}

// defaultJobSpec is SetDefaults_Job on a Job's spec (a CronJob's job
// template gets only the pod template's and the failure policy's defaults).
func defaultJobSpec(s *batchv1.JobSpec) {
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = ptr.To[int32](1)
	}
	setIfNil(&s.Parallelism, 1)
	if s.BackoffLimit == nil {
		s.BackoffLimit = ptr.To[int32](6)
		if s.BackoffLimitPerIndex != nil {
			s.BackoffLimit = ptr.To[int32](1<<31 - 1)
		}
	}
	if s.CompletionMode == nil {
		s.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
	}
	setIfNil(&s.Suspend, false)
	if s.PodReplacementPolicy == nil {
		s.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
		if s.PodFailurePolicy != nil {
			s.PodReplacementPolicy = ptr.To(batchv1.Failed)
		}
	}
	setIfNil(&s.ManualSelector, false)
	defaultJobTemplateSpec(s)
}

// defaultJobTemplateSpec defaults what a Job's and a CronJob's job
// template share: the pod failure policy's condition status and the pod
// template.
func defaultJobTemplateSpec(s *batchv1.JobSpec) {
	if s.PodFailurePolicy != nil {
		for i := range s.PodFailurePolicy.Rules {
			for j := range s.PodFailurePolicy.Rules[i].OnPodConditions {
				if c := &s.PodFailurePolicy.Rules[i].OnPodConditions[j]; c.Status == "" {
					c.Status = corev1.ConditionTrue
				}
			}
		}
	}
	defaultPodTemplate(&s.Template)
}

// defaultCronJob defaults a CronJob as SetObjectDefaults_CronJob.
func defaultCronJob(c *batchv1.CronJob) {
	if c.Spec.ConcurrencyPolicy == "" {
		c.Spec.ConcurrencyPolicy = batchv1.AllowConcurrent
	}
	setIfNil(&c.Spec.Suspend, false)
	setIfNil(&c.Spec.SuccessfulJobsHistoryLimit, 3)
	setIfNil(&c.Spec.FailedJobsHistoryLimit, 1)
	defaultJobTemplateSpec(&c.Spec.JobTemplate.Spec)
}

// defaultPod defaults a Pod as SetObjectDefaults_Pod: its spec as a
// template's, and what only Pods get (requests from limits,
// enableServiceLinks, host ports on the host network, a negative grace
// period made 1). It also does what two of kube-apiserver's default
// admission plugins do: DefaultTolerationSeconds (tolerate the taints
// not-ready and unreachable for 300 s) and Priority (priority and
// preemptionPolicy of the Pod's PriorityClass, for none or a system class;
// the simulated cluster has no global default class).
func defaultPod(p *corev1.Pod) {
	admitPod(&p.Spec)
	s := &p.Spec
	if s.TerminationGracePeriodSeconds != nil && *s.TerminationGracePeriodSeconds < 0 {
		s.TerminationGracePeriodSeconds = ptr.To[int64](1)
	}
	for _, cs := range [][]corev1.Container{s.Containers, s.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			for k, v := range r.Limits {
				if _, ok := r.Requests[k]; !ok {
					r.Requests[k] = v.DeepCopy()
				}
			}
		}
	}
	setIfNil(&s.EnableServiceLinks, corev1.DefaultEnableServiceLinks)
	if s.HostNetwork {
		for _, cs := range [][]corev1.Container{s.Containers, s.InitContainers} {
			for i := range cs {
				for j := range cs[i].Ports {
					if port := &cs[i].Ports[j]; port.HostPort == 0 {
						port.HostPort = port.ContainerPort
					}
				}
			}
		}
	}
	defaultPodSpec(s)
}

// admitPod does what the admission plugins DefaultTolerationSeconds and
// Priority do to a Pod's spec.
func admitPod(s *corev1.PodSpec) {
	for _, key := range []string{corev1.TaintNodeNotReady, corev1.TaintNodeUnreachable} {
		tolerated := false
		for _, t := range s.Tolerations {
			tolerated = tolerated || (t.Key == key || t.Key == "") && (t.Effect == corev1.TaintEffectNoExecute || t.Effect == "")
		}
		if !tolerated {
			s.Tolerations = append(s.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists,
				Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)})
		}
	}
	priority, ok := map[string]int32{"": 0, "system-cluster-critical": 2000000000, "system-node-critical": 2000001000}[s.PriorityClassName]
	if ok && s.Priority == nil {
		s.Priority = &priority
	}
	if ok {
		setIfNil(&s.PreemptionPolicy, corev1.PreemptLowerPriority)
	}
}

// defaultPodTemplate defaults a pod template's spec.
func defaultPodTemplate(t *corev1.PodTemplateSpec) { defaultPodSpec(&t.Spec) }

// defaultPodSpec is SetDefaults_PodSpec with the defaults of what a pod
// spec holds: volumes, containers (init, ephemeral), resources.
func defaultPodSpec(s *corev1.PodSpec) {
	if s.ServiceAccountName == "" {
		s.ServiceAccountName = s.DeprecatedServiceAccount //nolint:staticcheck // kept in sync as the API server does
	}
	s.DeprecatedServiceAccount = s.ServiceAccountName //nolint:staticcheck // kept in sync as the API server does
	if s.DNSPolicy == "" {
		s.DNSPolicy = corev1.DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = corev1.RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &corev1.PodSecurityContext{}
	}
	setIfNil(&s.TerminationGracePeriodSeconds, corev1.DefaultTerminationGracePeriodSeconds)
	if s.SchedulerName == "" {
		s.SchedulerName = corev1.DefaultSchedulerName
	}
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i])
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		defaultContainer((*corev1.Container)(&s.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundUp(s.Overhead)
	if s.Resources != nil {
		roundUp(s.Resources.Limits)
		roundUp(s.Resources.Requests)
	}
}

// defaultContainer is SetDefaults_Container with the defaults of its
// ports, environment, resources, probes and lifecycle hooks.
func defaultContainer(c *corev1.Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicy(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = corev1.ProtocolTCP
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil {
			if from.FieldRef != nil && from.FieldRef.APIVersion == "" {
				from.FieldRef.APIVersion = "v1"
			}
			if from.FileKeyRef != nil {
				setIfNil(&from.FileKeyRef.Optional, false)
			}
		}
	}
	roundUp(c.Resources.Limits)
	roundUp(c.Resources.Requests)
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		defaultProbe(p)
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range []*corev1.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

// pullPolicy is the image pull policy of image when none is given: Always
// for the tag latest (or no tag and no digest), else IfNotPresent (also
// for an image that does not parse).
func pullPolicy(image string) corev1.PullPolicy {
	named, err := dockerref.ParseNormalizedNamed(image)
	if err != nil {
		return corev1.PullIfNotPresent
	}
	tag := ""
	if t, ok := named.(dockerref.Tagged); ok {
		tag = t.Tag()
	}
	if _, digested := named.(dockerref.Digested); tag == "latest" || tag == "" && !digested {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

// defaultProbe is SetDefaults_Probe with its handler's defaults; p may be
// nil.
func defaultProbe(p *corev1.Probe) {
	if p == nil {
		return
	}
	for f, v := range map[*int32]int32{&p.TimeoutSeconds: 1, &p.PeriodSeconds: 10, &p.SuccessThreshold: 1, &p.FailureThreshold: 3} {
		if *f == 0 {
			*f = v
		}
	}
	defaultHTTPGet(p.HTTPGet)
	if p.GRPC != nil {
		setIfNil(&p.GRPC.Service, "")
	}
}

// defaultHTTPGet is SetDefaults_HTTPGetAction; a may be nil.
func defaultHTTPGet(a *corev1.HTTPGetAction) {
	if a == nil {
		return
	}
	if a.Path == "" {
		a.Path = "/"
	}
	if a.Scheme == "" {
		a.Scheme = corev1.URISchemeHTTP
	}
}

// defaultVolume is SetDefaults_Volume (an empty source is an emptyDir) with
// the defaults of its source.
func defaultVolume(v *corev1.Volume) {
	src := &v.VolumeSource
	if *src == (corev1.VolumeSource{}) {
		src.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	if src.Image != nil && src.Image.PullPolicy == "" {
		src.Image.PullPolicy = pullPolicy(src.Image.Reference)
	}
	if src.HostPath != nil {
		setIfNil(&src.HostPath.Type, corev1.HostPathUnset)
	}
	if src.Secret != nil {
		setIfNil(&src.Secret.DefaultMode, corev1.SecretVolumeSourceDefaultMode)
	}
	if src.ConfigMap != nil {
		setIfNil(&src.ConfigMap.DefaultMode, corev1.ConfigMapVolumeSourceDefaultMode)
	}
	if d := src.DownwardAPI; d != nil {
		setIfNil(&d.DefaultMode, corev1.DownwardAPIVolumeSourceDefaultMode)
		defaultDownwardAPIItems(d.Items)
	}
	if p := src.Projected; p != nil {
		setIfNil(&p.DefaultMode, corev1.ProjectedVolumeSourceDefaultMode)
		for i := range p.Sources {
			if d := p.Sources[i].DownwardAPI; d != nil {
				defaultDownwardAPIItems(d.Items)
			}
			if t := p.Sources[i].ServiceAccountToken; t != nil {
				setIfNil(&t.ExpirationSeconds, 3600)
			}
		}
	}
	if s := src.ISCSI; s != nil && s.ISCSIInterface == "" {
		s.ISCSIInterface = "default"
	}
	if r := src.RBD; r != nil {
		for f, v := range map[*string]string{&r.RBDPool: "rbd", &r.RadosUser: "admin", &r.Keyring: "/etc/ceph/keyring"} {
			if *f == "" {
				*f = v
			}
		}
	}
	defaultAzureDisk(src.AzureDisk)
	if s := src.ScaleIO; s != nil {
		defaultScaleIO(&s.StorageMode, &s.FSType)
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		defaultClaimSpec(&e.VolumeClaimTemplate.Spec)
	}
}

// defaultDownwardAPIItems gives field references without apiVersion v1.
func defaultDownwardAPIItems(items []corev1.DownwardAPIVolumeFile) {
	for i := range items {
		if f := items[i].FieldRef; f != nil && f.APIVersion == "" {
			f.APIVersion = "v1"
		}
	}
}

// defaultClaimSpec defaults a PersistentVolumeClaim's spec: volume mode
// Filesystem, resources rounded up.
func defaultClaimSpec(s *corev1.PersistentVolumeClaimSpec) {
	setIfNil(&s.VolumeMode, corev1.PersistentVolumeFilesystem)
	roundUp(s.Resources.Limits)
	roundUp(s.Resources.Requests)
}

// roundUp rounds every quantity of l up to milli units, as the API server
// stores them.
func roundUp(l corev1.ResourceList) {
	for k, q := range l {
		q.RoundUp(resource.Milli)
		l[k] = q
	}
}

// setIfNil sets *p to a pointer to v when it is nil.
func setIfNil[T any](p **T, v T) {
	if *p == nil {
		*p = &v
	}
}

// defaultAzureDisk defaults an Azure disk volume source (nil: none), of a
// Pod's volume or a PersistentVolume.
func defaultAzureDisk(a *corev1.AzureDiskVolumeSource) {
	if a == nil {
		return
	}
	setIfNil(&a.CachingMode, corev1.AzureDataDiskCachingReadWrite)
	setIfNil(&a.FSType, "ext4")
	setIfNil(&a.ReadOnly, false)
	setIfNil(&a.Kind, corev1.AzureSharedBlobDisk)
}

// defaultScaleIO defaults the storage mode and file system type of a
// ScaleIO volume source, of a Pod's volume or a PersistentVolume (two
// types with the same fields).
func defaultScaleIO(mode, fsType *string) {
	if *mode == "" {
		*mode = "ThinProvisioned"
	}
	if *fsType == "" {
		*fsType = "xfs"
	}
}
