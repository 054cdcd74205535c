package simcluster

import (
	"encoding/json"
	"fmt"
	"maps"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// Conversion of HorizontalPodAutoscalers between autoscaling/v1 and
// autoscaling/v2, as kube-apiserver converts them through its internal
// type (k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go; v2's
// conversion copies the fields and drops the round-trip annotations).
// autoscaling/v1 holds one metric, targetCPUUtilizationPercentage (a cpu
// Resource metric with a Utilization target); a v1 answer carries what it
// cannot hold in annotations, which a v1 write turns back into fields:
// the other metrics (in v1's own MetricSpec form), the current metrics, the
// conditions and the behavior (kube-apiserver marshals its internal type:
// the Go field names, checked against kube-apiserver 1.37 in
// hpaconversion_realcluster_test.go). A v1 object without a CPU target
// and without other metrics gets v1's former implicit default, 80% CPU.

// The annotations of autoscaling/v1 HPAs that carry what v1 cannot hold
// (k8s.io/kubernetes pkg/apis/autoscaling/annotations.go).
const (
	hpaMetricsAnnotation        = "autoscaling.alpha.kubernetes.io/metrics"
	hpaCurrentMetricsAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	hpaConditionsAnnotation     = "autoscaling.alpha.kubernetes.io/conditions"
	hpaBehaviorAnnotation       = "autoscaling.alpha.kubernetes.io/behavior"
)

// hpaDefaultCPUUtilization is the CPU target of a v1 HPA that names none.
const hpaDefaultCPUUtilization = 80

// hpaBehaviorJSON is the form of the behavior annotation: kube-apiserver's
// internal HorizontalPodAutoscalerBehavior, whose fields have no JSON
// names.
type hpaBehaviorJSON struct {
	ScaleUp   *hpaRulesJSON
	ScaleDown *hpaRulesJSON
}

// hpaRulesJSON is the internal HPAScalingRules in the behavior annotation.
type hpaRulesJSON struct {
	StabilizationWindowSeconds *int32
	SelectPolicy               *autoscalingv2.ScalingPolicySelect
	Policies                   []hpaPolicyJSON
	Tolerance                  *resource.Quantity
}

// hpaPolicyJSON is the internal HPAScalingPolicy in the behavior
// annotation.
type hpaPolicyJSON struct {
	Type          autoscalingv2.HPAScalingPolicyType
	Value         int32
	PeriodSeconds int32
}

// addHPAConversions registers the conversions of HorizontalPodAutoscaler
// between autoscaling/v1 and autoscaling/v2 in s, for the tracker's
// conversion routes and for the field manager, which converts an object to
// the version of each managedFields entry.
func addHPAConversions(s *runtime.Scheme) error {
	if err := s.AddConversionFunc((*autoscalingv2.HorizontalPodAutoscaler)(nil), (*autoscalingv1.HorizontalPodAutoscaler)(nil),
		func(a, b any, _ conversion.Scope) error {
			return hpaToV1(a.(*autoscalingv2.HorizontalPodAutoscaler), b.(*autoscalingv1.HorizontalPodAutoscaler))
		}); err != nil {
		return err
	}
	return s.AddConversionFunc((*autoscalingv1.HorizontalPodAutoscaler)(nil), (*autoscalingv2.HorizontalPodAutoscaler)(nil),
		func(a, b any, _ conversion.Scope) error {
			return hpaToV2(a.(*autoscalingv1.HorizontalPodAutoscaler), b.(*autoscalingv2.HorizontalPodAutoscaler))
		})
}

// decodeHPAv1 does to h, an autoscaling/v1 HPA being written, what
// kube-apiserver's decoding does before its field manager and registry
// see it: v1's defaults (minReplicas 1), then the conversion to its
// internal type and back, which sets the implicit CPU target (80%) and
// rewrites the round-trip annotations. A malformed annotation is left for
// the conversion to the storage version to refuse.
func decodeHPAv1(h *autoscalingv1.HorizontalPodAutoscaler) {
	if h.Spec.MinReplicas == nil {
		h.Spec.MinReplicas = ptr.To[int32](1)
	}
	var v2 autoscalingv2.HorizontalPodAutoscaler
	if hpaToV2(h, &v2) != nil {
		return
	}
	_ = hpaToV1(&v2, h) // marshals only what was just unmarshalled
}

// dropHPARoundTripAnnotations returns annotations without the round-trip
// annotations (a copy when it had one).
func dropHPARoundTripAnnotations(annotations map[string]string) map[string]string {
	keys := []string{hpaMetricsAnnotation, hpaCurrentMetricsAnnotation, hpaConditionsAnnotation, hpaBehaviorAnnotation}
	for _, k := range keys {
		if _, ok := annotations[k]; ok {
			out := maps.Clone(annotations)
			for _, k := range keys {
				delete(out, k)
			}
			return out
		}
	}
	return annotations
}

// isCPUUtilization reports whether m is a cpu Resource metric with a
// Utilization target, the metric v1's targetCPUUtilizationPercentage is.
func isCPUUtilization(m autoscalingv2.MetricSpec) bool {
	return m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil &&
		m.Resource.Name == corev1.ResourceCPU && m.Resource.Target.AverageUtilization != nil
}

// hpaToV1 converts in, an autoscaling/v2 HPA, to out in autoscaling/v1.
func hpaToV1(in *autoscalingv2.HorizontalPodAutoscaler, out *autoscalingv1.HorizontalPodAutoscaler) error {
	in = in.DeepCopy()
	out.TypeMeta = in.TypeMeta
	out.ObjectMeta = in.ObjectMeta
	out.Annotations = dropHPARoundTripAnnotations(out.Annotations)
	out.Spec = autoscalingv1.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv1.CrossVersionObjectReference(in.Spec.ScaleTargetRef),
		MinReplicas:    in.Spec.MinReplicas, MaxReplicas: in.Spec.MaxReplicas,
	}
	for _, m := range in.Spec.Metrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == corev1.ResourceCPU {
			out.Spec.TargetCPUUtilizationPercentage = m.Resource.Target.AverageUtilization // the first cpu metric's
			break
		}
	}
	var other []autoscalingv1.MetricSpec
	for _, m := range in.Spec.Metrics {
		if !isCPUUtilization(m) {
			other = append(other, metricSpecToV1(m))
		}
	}
	out.Status = autoscalingv1.HorizontalPodAutoscalerStatus{
		ObservedGeneration: in.Status.ObservedGeneration, LastScaleTime: in.Status.LastScaleTime,
		CurrentReplicas: in.Status.CurrentReplicas, DesiredReplicas: in.Status.DesiredReplicas,
	}
	current := make([]autoscalingv1.MetricStatus, len(in.Status.CurrentMetrics))
	for i, m := range in.Status.CurrentMetrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == corev1.ResourceCPU &&
			m.Resource.Current.AverageUtilization != nil {
			out.Status.CurrentCPUUtilizationPercentage = m.Resource.Current.AverageUtilization
		}
		current[i] = metricStatusToV1(m)
	}
	conditions := make([]autoscalingv1.HorizontalPodAutoscalerCondition, len(in.Status.Conditions))
	for i, c := range in.Status.Conditions {
		conditions[i] = autoscalingv1.HorizontalPodAutoscalerCondition{Type: autoscalingv1.HorizontalPodAutoscalerConditionType(c.Type),
			Status: c.Status, LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
	}
	var behavior any
	if b := in.Spec.Behavior; b != nil {
		behavior = hpaBehaviorJSON{ScaleUp: rulesJSON(b.ScaleUp), ScaleDown: rulesJSON(b.ScaleDown)}
	}
	for _, a := range []struct {
		key  string
		set  bool
		data any
	}{
		{hpaMetricsAnnotation, len(other) > 0, other},
		{hpaCurrentMetricsAnnotation, len(current) > 0, current},
		{hpaConditionsAnnotation, len(conditions) > 0, conditions},
		{hpaBehaviorAnnotation, behavior != nil, behavior},
	} {
		if !a.set {
			continue
		}
		data, err := json.Marshal(a.data)
		if err != nil {
			return fmt.Errorf("HorizontalPodAutoscaler %s: annotation %s: %w", in.Name, a.key, err)
		}
		if out.Annotations == nil {
			out.Annotations = map[string]string{}
		}
		out.Annotations[a.key] = string(data)
	}
	return nil
}

// hpaToV2 converts in, an autoscaling/v1 HPA, to out in autoscaling/v2,
// taking back what in's round-trip annotations carry; a malformed
// annotation fails the conversion, as it fails kube-apiserver's, but for
// the behavior, which kube-apiserver then ignores.
func hpaToV2(in *autoscalingv1.HorizontalPodAutoscaler, out *autoscalingv2.HorizontalPodAutoscaler) error {
	in = in.DeepCopy()
	out.TypeMeta = in.TypeMeta
	out.ObjectMeta = in.ObjectMeta
	out.Spec = autoscalingv2.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv2.CrossVersionObjectReference(in.Spec.ScaleTargetRef),
		MinReplicas:    in.Spec.MinReplicas, MaxReplicas: in.Spec.MaxReplicas,
	}
	if p := in.Spec.TargetCPUUtilizationPercentage; p != nil {
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(*p)}
	}
	out.Status = autoscalingv2.HorizontalPodAutoscalerStatus{
		ObservedGeneration: in.Status.ObservedGeneration, LastScaleTime: in.Status.LastScaleTime,
		CurrentReplicas: in.Status.CurrentReplicas, DesiredReplicas: in.Status.DesiredReplicas,
	}
	if p := in.Status.CurrentCPUUtilizationPercentage; p != nil {
		out.Status.CurrentMetrics = []autoscalingv2.MetricStatus{{Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU,
				Current: autoscalingv2.MetricValueStatus{AverageUtilization: ptr.To(*p)}}}}
	}
	annotation := func(key string, into any) (bool, error) {
		data, ok := in.Annotations[key]
		if !ok {
			return false, nil
		}
		if err := json.Unmarshal([]byte(data), into); err != nil {
			return false, fmt.Errorf("HorizontalPodAutoscaler %s: annotation %s: %w", in.Name, key, err)
		}
		return true, nil
	}
	var other []autoscalingv1.MetricSpec
	if ok, err := annotation(hpaMetricsAnnotation, &other); err != nil {
		return err
	} else if ok {
		// The other metrics come first, the CPU target last.
		metrics := make([]autoscalingv2.MetricSpec, 0, len(other)+len(out.Spec.Metrics))
		for _, m := range other {
			metrics = append(metrics, metricSpecToV2(m))
		}
		out.Spec.Metrics = append(metrics, out.Spec.Metrics...)
	}
	var current []autoscalingv1.MetricStatus
	if ok, err := annotation(hpaCurrentMetricsAnnotation, &current); err != nil {
		return err
	} else if ok {
		out.Status.CurrentMetrics = make([]autoscalingv2.MetricStatus, len(current))
		for i, m := range current {
			out.Status.CurrentMetrics[i] = metricStatusToV2(m)
		}
	}
	var conditions []autoscalingv1.HorizontalPodAutoscalerCondition
	if ok, err := annotation(hpaConditionsAnnotation, &conditions); err != nil {
		return err
	} else if ok {
		out.Status.Conditions = make([]autoscalingv2.HorizontalPodAutoscalerCondition, len(conditions))
		for i, c := range conditions {
			out.Status.Conditions[i] = autoscalingv2.HorizontalPodAutoscalerCondition{Type: autoscalingv2.HorizontalPodAutoscalerConditionType(c.Type),
				Status: c.Status, LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
		}
	}
	var behavior hpaBehaviorJSON
	if ok, err := annotation(hpaBehaviorAnnotation, &behavior); err == nil && ok && (behavior.ScaleUp != nil || behavior.ScaleDown != nil) {
		out.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: rulesV2(behavior.ScaleUp), ScaleDown: rulesV2(behavior.ScaleDown)}
	}
	if len(out.Spec.Metrics) == 0 {
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(hpaDefaultCPUUtilization)}
	}
	out.Annotations = dropHPARoundTripAnnotations(out.Annotations)
	return nil
}

// cpuUtilization is a cpu Resource metric with a Utilization target of p
// percent.
func cpuUtilization(p int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr.To(p)}}}
}

// rulesJSON is r in the behavior annotation's form.
func rulesJSON(r *autoscalingv2.HPAScalingRules) *hpaRulesJSON {
	if r == nil {
		return nil
	}
	out := &hpaRulesJSON{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Tolerance: r.Tolerance}
	if r.Policies != nil {
		out.Policies = make([]hpaPolicyJSON, len(r.Policies))
		for i, p := range r.Policies {
			out.Policies[i] = hpaPolicyJSON(p)
		}
	}
	return out
}

// rulesV2 is r, from the behavior annotation, in autoscaling/v2.
func rulesV2(r *hpaRulesJSON) *autoscalingv2.HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Tolerance: r.Tolerance}
	if r.Policies != nil {
		out.Policies = make([]autoscalingv2.HPAScalingPolicy, len(r.Policies))
		for i, p := range r.Policies {
			out.Policies[i] = autoscalingv2.HPAScalingPolicy(p)
		}
	}
	return out
}

// metricSpecToV1 is m in autoscaling/v1's MetricSpec (the metrics
// annotation's form).
func metricSpecToV1(m autoscalingv2.MetricSpec) autoscalingv1.MetricSpec {
	out := autoscalingv1.MetricSpec{Type: autoscalingv1.MetricSourceType(m.Type)}
	if s := m.Object; s != nil {
		out.Object = &autoscalingv1.ObjectMetricSource{Target: autoscalingv1.CrossVersionObjectReference(s.DescribedObject),
			MetricName: s.Metric.Name, Selector: s.Metric.Selector, AverageValue: s.Target.AverageValue}
		if s.Target.Value != nil {
			out.Object.TargetValue = *s.Target.Value
		}
	}
	if s := m.Pods; s != nil {
		out.Pods = &autoscalingv1.PodsMetricSource{MetricName: s.Metric.Name, Selector: s.Metric.Selector}
		if s.Target.AverageValue != nil {
			out.Pods.TargetAverageValue = *s.Target.AverageValue
		}
	}
	if s := m.Resource; s != nil {
		out.Resource = &autoscalingv1.ResourceMetricSource{Name: s.Name,
			TargetAverageUtilization: s.Target.AverageUtilization, TargetAverageValue: s.Target.AverageValue}
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv1.ContainerResourceMetricSource{Name: s.Name, Container: s.Container,
			TargetAverageUtilization: s.Target.AverageUtilization, TargetAverageValue: s.Target.AverageValue}
	}
	if s := m.External; s != nil {
		out.External = &autoscalingv1.ExternalMetricSource{MetricName: s.Metric.Name, MetricSelector: s.Metric.Selector,
			TargetValue: s.Target.Value, TargetAverageValue: s.Target.AverageValue}
	}
	return out
}

// targetType is the type of a target with value and averageValue: what
// ifValue names when value is set.
func targetType(value *resource.Quantity, ifValue, otherwise autoscalingv2.MetricTargetType) autoscalingv2.MetricTargetType {
	if value != nil {
		return ifValue
	}
	return otherwise
}

// metricSpecToV2 is m, from the metrics annotation, in autoscaling/v2.
func metricSpecToV2(m autoscalingv1.MetricSpec) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: autoscalingv2.MetricSourceType(m.Type)}
	if s := m.Object; s != nil {
		value := s.TargetValue
		out.Object = &autoscalingv2.ObjectMetricSource{DescribedObject: autoscalingv2.CrossVersionObjectReference(s.Target),
			Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Target: autoscalingv2.MetricTarget{Type: targetType(s.AverageValue, autoscalingv2.AverageValueMetricType, autoscalingv2.ValueMetricType),
				Value: &value, AverageValue: s.AverageValue}}
	}
	if s := m.Pods; s != nil {
		value := s.TargetAverageValue
		out.Pods = &autoscalingv2.PodsMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &value}}
	}
	if s := m.Resource; s != nil {
		out.Resource = &autoscalingv2.ResourceMetricSource{Name: s.Name, Target: resourceTarget(s.TargetAverageUtilization, s.TargetAverageValue)}
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{Name: s.Name, Container: s.Container,
			Target: resourceTarget(s.TargetAverageUtilization, s.TargetAverageValue)}
	}
	if s := m.External; s != nil {
		out.External = &autoscalingv2.ExternalMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.MetricSelector},
			Target: autoscalingv2.MetricTarget{Type: targetType(s.TargetValue, autoscalingv2.ValueMetricType, autoscalingv2.AverageValueMetricType),
				Value: s.TargetValue, AverageValue: s.TargetAverageValue}}
	}
	return out
}

// resourceTarget is the target of a (container) resource metric: a
// Utilization target when utilization is set, an AverageValue one when not.
func resourceTarget(utilization *int32, averageValue *resource.Quantity) autoscalingv2.MetricTarget {
	t := autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageUtilization: utilization, AverageValue: averageValue}
	if utilization != nil {
		t.Type = autoscalingv2.UtilizationMetricType
	}
	return t
}

// metricStatusToV1 is m in autoscaling/v1's MetricStatus (the current
// metrics annotation's form).
func metricStatusToV1(m autoscalingv2.MetricStatus) autoscalingv1.MetricStatus {
	out := autoscalingv1.MetricStatus{Type: autoscalingv1.MetricSourceType(m.Type)}
	if s := m.Object; s != nil {
		out.Object = &autoscalingv1.ObjectMetricStatus{Target: autoscalingv1.CrossVersionObjectReference(s.DescribedObject),
			MetricName: s.Metric.Name, Selector: s.Metric.Selector, CurrentValue: ptr.Deref(s.Current.Value, resource.Quantity{}), AverageValue: s.Current.AverageValue}
	}
	if s := m.Pods; s != nil {
		out.Pods = &autoscalingv1.PodsMetricStatus{MetricName: s.Metric.Name, Selector: s.Metric.Selector,
			CurrentAverageValue: ptr.Deref(s.Current.AverageValue, resource.Quantity{})}
	}
	if s := m.Resource; s != nil {
		out.Resource = &autoscalingv1.ResourceMetricStatus{Name: s.Name, CurrentAverageUtilization: s.Current.AverageUtilization,
			CurrentAverageValue: ptr.Deref(s.Current.AverageValue, resource.Quantity{})}
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv1.ContainerResourceMetricStatus{Name: s.Name, Container: s.Container,
			CurrentAverageUtilization: s.Current.AverageUtilization, CurrentAverageValue: ptr.Deref(s.Current.AverageValue, resource.Quantity{})}
	}
	if s := m.External; s != nil {
		out.External = &autoscalingv1.ExternalMetricStatus{MetricName: s.Metric.Name, MetricSelector: s.Metric.Selector,
			CurrentValue: ptr.Deref(s.Current.Value, resource.Quantity{}), CurrentAverageValue: s.Current.AverageValue}
	}
	return out
}

// metricStatusToV2 is m, from the current metrics annotation, in
// autoscaling/v2.
func metricStatusToV2(m autoscalingv1.MetricStatus) autoscalingv2.MetricStatus {
	out := autoscalingv2.MetricStatus{Type: autoscalingv2.MetricSourceType(m.Type)}
	if s := m.Object; s != nil {
		out.Object = &autoscalingv2.ObjectMetricStatus{DescribedObject: autoscalingv2.CrossVersionObjectReference(s.Target),
			Metric:  autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Current: autoscalingv2.MetricValueStatus{Value: ptr.To(s.CurrentValue), AverageValue: s.AverageValue}}
	}
	if s := m.Pods; s != nil {
		out.Pods = &autoscalingv2.PodsMetricStatus{Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Current: autoscalingv2.MetricValueStatus{AverageValue: ptr.To(s.CurrentAverageValue)}}
	}
	if s := m.Resource; s != nil {
		out.Resource = &autoscalingv2.ResourceMetricStatus{Name: s.Name,
			Current: autoscalingv2.MetricValueStatus{AverageUtilization: s.CurrentAverageUtilization, AverageValue: ptr.To(s.CurrentAverageValue)}}
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricStatus{Name: s.Name, Container: s.Container,
			Current: autoscalingv2.MetricValueStatus{AverageUtilization: s.CurrentAverageUtilization, AverageValue: ptr.To(s.CurrentAverageValue)}}
	}
	if s := m.External; s != nil {
		out.External = &autoscalingv2.ExternalMetricStatus{Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.MetricSelector},
			Current: autoscalingv2.MetricValueStatus{Value: ptr.To(s.CurrentValue), AverageValue: s.CurrentAverageValue}}
	}
	return out
}
