package simcluster

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	celtypes "github.com/google/cel-go/common/types"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// A ValidatingAdmissionPolicy is evaluated by kube-apiserver itself, in
// CEL, with no webhook to call: istio's charts install some (stable-
// channel-policy, experimental.stableValidationPolicy), which refuse
// EnvoyFilters and other kinds outside Istio's stable channel. A
// simulated cluster evaluates them as kube-apiserver's
// ValidatingAdmissionPolicy admission plugin does (k8s.io/apiserver
// pkg/admission/plugin/policy/validating), with its matcher (policy/
// matching) and CEL evaluator (plugin/cel); the plugin's package itself
// would bring the API server's informers and gRPC along, so its few lines
// of compiling and deciding are written again here: every binding of a policy, on a create or an update (patches
// and applies included) of an object both match, after defaulting and the
// object's validation; a validation that is false (or fails to evaluate
// under failurePolicy Fail) refuses the write when the binding's
// validationActions has Deny (Warn and Audit admit it), with the
// plugin's Invalid error. Not evaluated: policies with a paramKind (their
// parameters are not looked up), deletions, audit annotations, and the
// authorizer of CEL (the request has no user).

var (
	policiesResource = admissionregistrationv1.SchemeGroupVersion.WithResource("validatingadmissionpolicies")
	bindingsResource = admissionregistrationv1.SchemeGroupVersion.WithResource("validatingadmissionpolicybindings")
	namespaceRes     = corev1.SchemeGroupVersion.WithResource("namespaces")
)

// compiledPolicy is a policy's compiled expressions, kept while the
// policy is stored unchanged (CEL compilation is costly, and most writes
// see no policy change).
type compiledPolicy struct {
	resourceVersion string
	failurePolicy   admissionregistrationv1.FailurePolicyType
	matcher         matchconditions.Matcher
	validations     plugincel.ConditionEvaluator
	messages        plugincel.ConditionEvaluator
}

// policyCache holds the compiled policies of a cluster by name.
type policyCache struct {
	mu sync.Mutex
	m  map[string]*compiledPolicy
}

// compiled is p compiled, once per resourceVersion.
func (pc *policyCache) compiled(p *admissionregistrationv1.ValidatingAdmissionPolicy) *compiledPolicy {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if c, ok := pc.m[p.Name]; ok && c.resourceVersion == p.ResourceVersion {
		return c
	}
	c := compilePolicy(p)
	if pc.m == nil {
		pc.m = map[string]*compiledPolicy{}
	}
	pc.m[p.Name] = c
	return c
}

// The expressions of a policy, as the plugin declares their types
// (validating/interface.go, message.go).
type (
	policyValidation struct {
		admissionregistrationv1.Validation
	}
	policyMessage  struct{ expression string }
	policyVariable struct {
		admissionregistrationv1.Variable
	}
)

func (v *policyValidation) GetExpression() string      { return v.Expression }
func (v *policyValidation) ReturnTypes() []*celgo.Type { return []*celgo.Type{celgo.BoolType} }
func (m *policyMessage) GetExpression() string         { return m.expression }
func (m *policyMessage) ReturnTypes() []*celgo.Type    { return []*celgo.Type{celgo.StringType} }
func (v *policyVariable) GetExpression() string        { return v.Expression }
func (v *policyVariable) GetName() string              { return v.Name }
func (v *policyVariable) ReturnTypes() []*celgo.Type {
	return []*celgo.Type{celgo.AnyType, celgo.DynType}
}

// compilePolicy compiles p's variables, match conditions, validations and
// message expressions as the plugin's compilePolicy (validating/plugin.go)
// does, with the base CEL environment of kube-apiserver's version.
func compilePolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) *compiledPolicy {
	c := &compiledPolicy{resourceVersion: p.ResourceVersion, failurePolicy: admissionregistrationv1.Fail}
	if p.Spec.FailurePolicy != nil {
		c.failurePolicy = *p.Spec.FailurePolicy
	}
	vars := plugincel.OptionalVariableDeclarations{HasParams: p.Spec.ParamKind != nil, HasAuthorizer: true}
	messageVars := plugincel.OptionalVariableDeclarations{HasParams: p.Spec.ParamKind != nil}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		c.validations = failingEvaluator{err}
		return c
	}
	named := make([]plugincel.NamedExpressionAccessor, len(p.Spec.Variables))
	for i := range p.Spec.Variables {
		named[i] = &policyVariable{p.Spec.Variables[i]}
	}
	compiler.CompileAndStoreVariables(named, vars, environment.StoredExpressions)
	if len(p.Spec.MatchConditions) > 0 {
		conds := make([]plugincel.ExpressionAccessor, len(p.Spec.MatchConditions))
		for i := range p.Spec.MatchConditions {
			conds[i] = (*matchconditions.MatchCondition)(&p.Spec.MatchConditions[i])
		}
		c.matcher = matchconditions.NewMatcher(compiler.CompileCondition(conds, vars, environment.StoredExpressions),
			p.Spec.FailurePolicy, "policy", "validate", p.Name)
	}
	validations := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	messages := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	for i := range p.Spec.Validations {
		validations[i] = &policyValidation{p.Spec.Validations[i]}
		if m := p.Spec.Validations[i].MessageExpression; m != "" {
			messages[i] = &policyMessage{m}
		}
	}
	c.validations = compiler.CompileCondition(validations, vars, environment.StoredExpressions)
	c.messages = compiler.CompileCondition(messages, messageVars, environment.StoredExpressions)
	return c
}

// failingEvaluator is the evaluator of a policy whose environment could
// not be built: every evaluation fails with err.
type failingEvaluator struct{ err error }

// ForInput fails.
func (f failingEvaluator) ForInput(context.Context, *admission.VersionedAttributes, *admissionv1.AdmissionRequest,
	plugincel.OptionalVariableBindings, *corev1.Namespace, int64) ([]plugincel.EvaluationResult, int64, error) {
	return nil, 0, f.err
}

// CompilationErrors has none.
func (f failingEvaluator) CompilationErrors() []error { return nil }

// denial is why a policy denies a request: its message and reason.
type denial struct {
	message string
	reason  metav1.StatusReason
}

// validate evaluates c for va as the plugin's validator does
// (validating/validator.go): the first denial, or nil. A failed
// evaluation denies under failurePolicy Fail with its error; a false
// validation denies with its messageExpression's result (a non-empty
// single line), its message, or "failed expression: EXPR".
func (c *compiledPolicy) validate(ctx context.Context, resource schema.GroupVersionResource, va *admission.VersionedAttributes,
	namespace *corev1.Namespace) *denial {
	onError := func(msg string) *denial {
		if c.failurePolicy == admissionregistrationv1.Ignore {
			return nil
		}
		return &denial{message: msg, reason: metav1.StatusReasonInvalid}
	}
	if c.matcher != nil {
		res := c.matcher.Match(ctx, va, nil, nil)
		if res.Error != nil {
			return onError(res.Error.Error())
		}
		if !res.Matches {
			return nil
		}
	}
	request := plugincel.CreateAdmissionRequest(va.Attributes, metav1.GroupVersionResource(resource), metav1.GroupVersionKind(va.VersionedKind))
	ns := plugincel.CreateNamespaceObject(namespace)
	results, remaining, err := c.validations.ForInput(ctx, va, request, plugincel.OptionalVariableBindings{}, ns, celconfig.RuntimeCELCostBudget)
	if err != nil {
		return onError(err.Error())
	}
	var messages []plugincel.EvaluationResult
	if c.messages != nil {
		messages, _, _ = c.messages.ForInput(ctx, va, request, plugincel.OptionalVariableBindings{}, ns, remaining)
	}
	for i, r := range results {
		v, ok := r.ExpressionAccessor.(*policyValidation)
		if !ok {
			continue
		}
		if r.Error != nil {
			if d := onError(r.Error.Error()); d != nil {
				return d
			}
			continue
		}
		if r.EvalResult == celtypes.True {
			continue
		}
		d := &denial{reason: metav1.StatusReasonInvalid}
		if v.Reason != nil {
			d.reason = *v.Reason
		}
		if i < len(messages) && messages[i].Error == nil && messages[i].EvalResult != nil {
			if m, ok := messages[i].EvalResult.Value().(string); ok {
				m = strings.TrimSpace(m)
				if len(m) <= celconfig.MaxEvaluatedMessageExpressionSizeBytes && !strings.Contains(m, "\n") {
					d.message = m
				}
			}
		}
		if d.message == "" {
			d.message = strings.TrimSpace(v.Message)
		}
		if d.message == "" {
			d.message = fmt.Sprintf("failed expression: %v", strings.TrimSpace(v.Expression))
		}
		return d
	}
	return nil
}

// matchCriteria is the match resources of a policy or binding as the
// plugin's matcher reads them (policy/generic/policy_matcher.go).
type matchCriteria struct {
	admissionregistrationv1.MatchResources
}

// GetParsedNamespaceSelector is the namespace selector; none selects
// every namespace (kube-apiserver defaults it to {}).
func (m *matchCriteria) GetParsedNamespaceSelector() (labels.Selector, error) {
	return selectorOrEverything(m.NamespaceSelector)
}

// GetParsedObjectSelector is the object selector; none selects every
// object (kube-apiserver defaults it to {}).
func (m *matchCriteria) GetParsedObjectSelector() (labels.Selector, error) {
	return selectorOrEverything(m.ObjectSelector)
}

// selectorOrEverything is s as a selector, everything when nil.
func selectorOrEverything(s *metav1.LabelSelector) (labels.Selector, error) {
	if s == nil {
		return labels.Everything(), nil
	}
	return metav1.LabelSelectorAsSelector(s)
}

// GetMatchResources is the match resources.
func (m *matchCriteria) GetMatchResources() admissionregistrationv1.MatchResources {
	return m.MatchResources
}

// admitByPolicies refuses the write of obj (old: the stored object, nil
// on create) as kube-apiserver's ValidatingAdmissionPolicy plugin does
// when a policy bound with validationActions Deny denies it. It reads the
// store directly: the tracker calls it while it writes (stamp).
func (c *Cluster) admitByPolicies(old, obj runtime.Object, statusWrite bool) error {
	if c.own != nil {
		return nil
	}
	policies, err := storedList[admissionregistrationv1.ValidatingAdmissionPolicy](c.tracker, policiesResource, "ValidatingAdmissionPolicy")
	if err != nil || len(policies) == 0 {
		return err
	}
	bindings, err := storedList[admissionregistrationv1.ValidatingAdmissionPolicyBinding](c.tracker, bindingsResource, "ValidatingAdmissionPolicyBinding")
	if err != nil || len(bindings) == 0 {
		return err
	}
	gvk, err := apiutil.GVKForObject(obj, c.scheme)
	if err != nil {
		return nil
	}
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil // not served: the caller's kind check answers
	}
	acc, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	ns := acc.GetNamespace()
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		ns = ""
	}
	op, sub := admission.Create, ""
	if old != nil {
		op = admission.Update
	}
	if statusWrite {
		sub = "status"
	}
	// CEL sees apiVersion and kind, which typed objects in the store lack.
	object := withKind(obj, gvk)
	var oldObject runtime.Object
	if old != nil {
		oldObject = withKind(old, gvk)
	}
	attr := admission.NewAttributesRecord(object, oldObject, gvk, ns, acc.GetName(), m.Resource, sub, op, nil, false, nil)
	if rules.IsExemptAdmissionConfigurationResource(attr) {
		return nil
	}
	namespaces, err := storedList[corev1.Namespace](c.tracker, namespaceRes, "Namespace")
	if err != nil {
		return err
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	var namespace *corev1.Namespace
	for i := range namespaces {
		if err := indexer.Add(&namespaces[i]); err != nil {
			return err
		}
		if namespaces[i].Name == ns {
			namespace = &namespaces[i]
		}
	}
	if ns != "" && namespace == nil {
		return nil // the store refuses the write
	}
	matcher := matching.NewMatcher(corelisters.NewNamespaceLister(indexer), nil)
	o := admission.NewObjectInterfacesFromScheme(c.scheme)
	sort.Slice(policies, func(i, j int) bool { return policies[i].Name < policies[j].Name })
	sort.Slice(bindings, func(i, j int) bool { return bindings[i].Name < bindings[j].Name })
	for i := range policies {
		p := &policies[i]
		if p.Spec.ParamKind != nil {
			continue // parameters are not looked up
		}
		if p.Spec.MatchConstraints == nil {
			continue // kube-apiserver's validation requires them
		}
		ok, matchResource, matchKind, err := matcher.Matches(attr, o, &matchCriteria{*p.Spec.MatchConstraints})
		if err != nil || !ok {
			continue
		}
		for j := range bindings {
			b := &bindings[j]
			if b.Spec.PolicyName != p.Name || !slices.Contains(b.Spec.ValidationActions, admissionregistrationv1.Deny) {
				continue
			}
			if b.Spec.MatchResources != nil {
				if ok, _, _, err := matcher.Matches(attr, o, &matchCriteria{*b.Spec.MatchResources}); err != nil || !ok {
					continue
				}
			}
			va := &admission.VersionedAttributes{Attributes: attr, VersionedObject: admission.NewLazyObject(object), VersionedOldObject: admission.NewLazyObject(oldObject),
				VersionedKind: matchKind}
			if d := c.policies.compiled(p).validate(context.Background(), matchResource, va, namespace); d != nil {
				return policyDenial(attr, p.Name, b.Name, d)
			}
		}
	}
	return nil
}

// policyDenial is the plugin's error for decision d of policy through
// binding (validating/dispatcher.go): Forbidden's message, with the
// decision's reason (Invalid when it has none) and that reason's code.
func policyDenial(attr admission.Attributes, policy, binding string, d *denial) error {
	msg := fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", policy, binding, d.message)
	var status *apierrors.StatusError
	if !errors.As(admission.NewForbidden(attr, errors.New(msg)), &status) {
		return errors.New(msg)
	}
	status.ErrStatus.Reason = d.reason
	status.ErrStatus.Code = reasonCode(d.reason)
	if status.ErrStatus.Details != nil {
		status.ErrStatus.Details.Causes = append(status.ErrStatus.Details.Causes, metav1.StatusCause{Message: msg})
	}
	return status
}

// reasonCode is the plugin's reasonToCode.
func reasonCode(r metav1.StatusReason) int32 {
	switch r {
	case metav1.StatusReasonForbidden:
		return http.StatusForbidden
	case metav1.StatusReasonUnauthorized:
		return http.StatusUnauthorized
	case metav1.StatusReasonRequestEntityTooLarge:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusUnprocessableEntity
}

// withKind is a copy of obj with apiVersion and kind gvk.
func withKind(obj runtime.Object, gvk schema.GroupVersionKind) runtime.Object {
	cp := obj.DeepCopyObject()
	cp.GetObjectKind().SetGroupVersionKind(gvk)
	return cp
}

// validatingAdmission runs the tracker's validating admission, if any, on
// a write (Cluster.admitValidating).
func (t *tracker) validatingAdmission(old, obj runtime.Object) error {
	if t.validating == nil {
		return nil
	}
	return t.validating(old, obj, t.statusWrite)
}
