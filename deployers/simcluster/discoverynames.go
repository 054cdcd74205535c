package simcluster

import "k8s.io/apimachinery/pkg/runtime/schema"

// BuiltinShortNames are the short names kube-apiserver's discovery lists
// for the built-in resources (the ShortNames of their REST storages,
// k8s.io/kubernetes pkg/registry, and apiextensions-apiserver's crd and
// crds), by short name: what kubectl resolves `kubectl get sc` with.
var BuiltinShortNames = map[string]schema.GroupResource{
	"cj": {Group: "batch", Resource: "cronjobs"}, "cm": {Resource: "configmaps"},
	"crd":  {Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"},
	"crds": {Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"},
	"cs":   {Resource: "componentstatuses"}, "csr": {Group: "certificates.k8s.io", Resource: "certificatesigningrequests"},
	"deploy": {Group: "apps", Resource: "deployments"}, "ds": {Group: "apps", Resource: "daemonsets"},
	"ep": {Resource: "endpoints"}, "ev": {Resource: "events"},
	"hpa": {Group: "autoscaling", Resource: "horizontalpodautoscalers"},
	"ing": {Group: "networking.k8s.io", Resource: "ingresses"}, "ip": {Group: "networking.k8s.io", Resource: "ipaddresses"},
	"limits": {Resource: "limitranges"}, "netpol": {Group: "networking.k8s.io", Resource: "networkpolicies"},
	"no": {Resource: "nodes"}, "ns": {Resource: "namespaces"},
	"pc": {Group: "scheduling.k8s.io", Resource: "priorityclasses"}, "pdb": {Group: "policy", Resource: "poddisruptionbudgets"},
	"po": {Resource: "pods"}, "pv": {Resource: "persistentvolumes"}, "pvc": {Resource: "persistentvolumeclaims"},
	"quota": {Resource: "resourcequotas"}, "rc": {Resource: "replicationcontrollers"},
	"rs": {Group: "apps", Resource: "replicasets"}, "sa": {Resource: "serviceaccounts"},
	"sc": {Group: "storage.k8s.io", Resource: "storageclasses"}, "sts": {Group: "apps", Resource: "statefulsets"},
	"svc": {Resource: "services"}, "vac": {Group: "storage.k8s.io", Resource: "volumeattributesclasses"},
}

// BuiltinCategories are the categories kube-apiserver's discovery lists for
// the built-in resources (the Categories of their REST storages, and of
// kube-aggregator's apiservices and apiextensions-apiserver's
// customresourcedefinitions): `kubectl get all` lists the workloads and
// Services, `kubectl get api-extensions` what extends the API.
var BuiltinCategories = map[string][]schema.GroupResource{
	"all": {{Resource: "pods"}, {Resource: "replicationcontrollers"}, {Resource: "services"},
		{Group: "apps", Resource: "daemonsets"}, {Group: "apps", Resource: "deployments"},
		{Group: "apps", Resource: "replicasets"}, {Group: "apps", Resource: "statefulsets"},
		{Group: "autoscaling", Resource: "horizontalpodautoscalers"},
		{Group: "batch", Resource: "cronjobs"}, {Group: "batch", Resource: "jobs"}},
	"api-extensions": {
		{Group: "admissionregistration.k8s.io", Resource: "mutatingadmissionpolicies"},
		{Group: "admissionregistration.k8s.io", Resource: "mutatingadmissionpolicybindings"},
		{Group: "admissionregistration.k8s.io", Resource: "mutatingwebhookconfigurations"},
		{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicies"},
		{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicybindings"},
		{Group: "admissionregistration.k8s.io", Resource: "validatingwebhookconfigurations"},
		{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"},
		{Group: "apiregistration.k8s.io", Resource: "apiservices"}},
}
