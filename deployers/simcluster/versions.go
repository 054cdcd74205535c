package simcluster

import (
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilversion "k8s.io/apimachinery/pkg/util/version"
)

// The Kubernetes minor releases the table below knows: a cluster of an
// older release is refused (CheckVersion), one of a newer release serves
// what newestMinor serves.
const (
	oldestMinor = 16
	newestMinor = 37
)

// span are the minor releases of Kubernetes 1 whose kube-apiserver serves a
// group version or kind with default flags: from since (0: a release before
// oldestMinor) to before removed (0: still served). A kind or group version
// never enabled by default (alpha versions, and the betas added since 1.24,
// which are off by default) has since notByDefault.
type span struct{ since, removed int }

// notByDefault is the since of what no release serves by default.
const notByDefault = 1 << 30

// covers reports whether minor serves what s describes.
func (s span) covers(minor int) bool {
	return minor >= s.since && (s.removed == 0 || minor < s.removed)
}

// groupVersionSpans are the releases that serve each built-in group version
// of client-go's scheme (and kube-aggregator's apiregistration.k8s.io, see
// apiservice.go), from Kubernetes' deprecated API migration guide
// (the release that stopped serving it) and kube-apiserver's
// DefaultAPIResourceConfigSource (k8s.io/kubernetes pkg/controlplane,
// instance.go: since 1.24, beta versions are off by default; in 1.37 no
// beta is on). A group version is served when one of its kinds is; a kind
// served in other releases than its group version is in kindSpans.
var groupVersionSpans = map[schema.GroupVersion]span{
	{Version: "v1"}: {},
	{Group: "admissionregistration.k8s.io", Version: "v1"}:       {since: 16},
	{Group: "admissionregistration.k8s.io", Version: "v1beta1"}:  {removed: 22},
	{Group: "admissionregistration.k8s.io", Version: "v1alpha1"}: {since: notByDefault},
	{Group: "apiextensions.k8s.io", Version: "v1"}:               {since: 16},
	{Group: "apiregistration.k8s.io", Version: "v1"}:             {},
	{Group: "apiregistration.k8s.io", Version: "v1beta1"}:        {removed: 22},
	{Group: "apps", Version: "v1"}:                               {},
	{Group: "apps", Version: "v1beta1"}:                          {removed: 16},
	{Group: "apps", Version: "v1beta2"}:                          {removed: 16},
	{Group: "authentication.k8s.io", Version: "v1"}:              {},
	{Group: "authentication.k8s.io", Version: "v1beta1"}:         {removed: 22},
	{Group: "authentication.k8s.io", Version: "v1alpha1"}:        {since: notByDefault},
	{Group: "authorization.k8s.io", Version: "v1"}:               {},
	{Group: "authorization.k8s.io", Version: "v1beta1"}:          {removed: 22},
	{Group: "autoscaling", Version: "v1"}:                        {},
	{Group: "autoscaling", Version: "v2"}:                        {since: 23},
	{Group: "batch", Version: "v1"}:                              {},
	{Group: "batch", Version: "v1beta1"}:                         {removed: 25},
	{Group: "certificates.k8s.io", Version: "v1"}:                {since: 19},
	{Group: "certificates.k8s.io", Version: "v1beta1"}:           {removed: 22},
	{Group: "certificates.k8s.io", Version: "v1alpha1"}:          {since: notByDefault},
	{Group: "coordination.k8s.io", Version: "v1"}:                {},
	{Group: "coordination.k8s.io", Version: "v1beta1"}:           {removed: 22},
	{Group: "coordination.k8s.io", Version: "v1alpha2"}:          {since: notByDefault},
	{Group: "discovery.k8s.io", Version: "v1"}:                   {since: 21},
	{Group: "discovery.k8s.io", Version: "v1beta1"}:              {since: 17, removed: 25},
	{Group: "events.k8s.io", Version: "v1"}:                      {since: 19},
	{Group: "events.k8s.io", Version: "v1beta1"}:                 {removed: 25},
	{Group: "extensions", Version: "v1beta1"}:                    {removed: 22},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1"}:       {since: 29},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta1"}:  {since: 20, removed: 26},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta2"}:  {since: 23, removed: 29},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3"}:  {since: 26, removed: 32},
	{Group: "internal.apiserver.k8s.io", Version: "v1alpha1"}:    {since: notByDefault},
	{Group: "lifecycle.k8s.io", Version: "v1alpha1"}:             {since: notByDefault},
	{Group: "networking.k8s.io", Version: "v1"}:                  {},
	{Group: "networking.k8s.io", Version: "v1beta1"}:             {removed: 22},
	{Group: "node.k8s.io", Version: "v1"}:                        {since: 20},
	{Group: "node.k8s.io", Version: "v1beta1"}:                   {removed: 25},
	{Group: "node.k8s.io", Version: "v1alpha1"}:                  {since: notByDefault},
	{Group: "policy", Version: "v1"}:                             {since: 21},
	{Group: "policy", Version: "v1beta1"}:                        {removed: 25},
	{Group: "rbac.authorization.k8s.io", Version: "v1"}:          {},
	{Group: "rbac.authorization.k8s.io", Version: "v1beta1"}:     {removed: 22},
	{Group: "rbac.authorization.k8s.io", Version: "v1alpha1"}:    {since: notByDefault},
	{Group: "resource.k8s.io", Version: "v1"}:                    {since: 34},
	{Group: "resource.k8s.io", Version: "v1beta1"}:               {since: notByDefault},
	{Group: "resource.k8s.io", Version: "v1beta2"}:               {since: notByDefault},
	{Group: "resource.k8s.io", Version: "v1alpha3"}:              {since: notByDefault},
	{Group: "scheduling.k8s.io", Version: "v1"}:                  {},
	{Group: "scheduling.k8s.io", Version: "v1beta1"}:             {removed: 22},
	{Group: "scheduling.k8s.io", Version: "v1alpha3"}:            {since: notByDefault},
	{Group: "storage.k8s.io", Version: "v1"}:                     {},
	{Group: "storage.k8s.io", Version: "v1beta1"}:                {removed: 27},
	{Group: "storage.k8s.io", Version: "v1alpha1"}:               {since: notByDefault},
	{Group: "storagemigration.k8s.io", Version: "v1"}:            {since: 37},
	{Group: "storagemigration.k8s.io", Version: "v1beta1"}:       {since: notByDefault},
}

// kindSpans are the kinds served in other releases than their group
// version: added to a GA version later (when their feature gate went GA,
// k8s.io/kubernetes pkg/features), removed earlier, or added to an old beta
// version again while betas are off by default.
var kindSpans = map[schema.GroupVersionKind]span{
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy"}:             {since: 30},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"}:      {since: 30},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"}:               {since: 36},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"}:        {since: 36},
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "ValidatingAdmissionPolicy"}:        {since: notByDefault},
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "ValidatingAdmissionPolicyBinding"}: {since: notByDefault},
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "MutatingAdmissionPolicy"}:          {since: notByDefault},
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "MutatingAdmissionPolicyBinding"}:   {since: notByDefault},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "SelfSubjectReview"}:                            {since: 28},
	{Group: "authentication.k8s.io", Version: "v1beta1", Kind: "SelfSubjectReview"}:                       {since: notByDefault},
	{Group: "batch", Version: "v1", Kind: "CronJob"}:                                                      {since: 21},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "ClusterTrustBundle"}:                             {since: 37},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "PodCertificateRequest"}:                          {since: 37},
	{Group: "certificates.k8s.io", Version: "v1beta1", Kind: "ClusterTrustBundle"}:                        {since: notByDefault},
	{Group: "certificates.k8s.io", Version: "v1beta1", Kind: "PodCertificateRequest"}:                     {since: notByDefault},
	{Group: "coordination.k8s.io", Version: "v1beta1", Kind: "LeaseCandidate"}:                            {since: notByDefault},
	{Group: "extensions", Version: "v1beta1", Kind: "DaemonSet"}:                                          {removed: 16},
	{Group: "extensions", Version: "v1beta1", Kind: "Deployment"}:                                         {removed: 16},
	{Group: "extensions", Version: "v1beta1", Kind: "DeploymentRollback"}:                                 {removed: 16},
	{Group: "extensions", Version: "v1beta1", Kind: "ReplicaSet"}:                                         {removed: 16},
	{Group: "extensions", Version: "v1beta1", Kind: "NetworkPolicy"}:                                      {removed: 16},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}:                                          {since: 19},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"}:                                     {since: 19},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress"}:                                        {since: 33},
	{Group: "networking.k8s.io", Version: "v1", Kind: "ServiceCIDR"}:                                      {since: 33},
	{Group: "networking.k8s.io", Version: "v1beta1", Kind: "IngressClass"}:                                {since: 18, removed: 22},
	{Group: "networking.k8s.io", Version: "v1beta1", Kind: "IPAddress"}:                                   {since: notByDefault},
	{Group: "networking.k8s.io", Version: "v1beta1", Kind: "ServiceCIDR"}:                                 {since: notByDefault},
	{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceTaintRule"}:                                    {since: 37},
	{Group: "scheduling.k8s.io", Version: "v1beta1", Kind: "PodGroup"}:                                    {since: notByDefault},
	{Group: "scheduling.k8s.io", Version: "v1beta1", Kind: "Workload"}:                                    {since: notByDefault},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSINode"}:                                             {since: 17},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"}:                                           {since: 18},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacity"}:                                  {since: 24},
	{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttributesClass"}:                               {since: 34},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "StorageClass"}:                                   {removed: 22},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "VolumeAttachment"}:                               {removed: 22},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSIDriver"}:                                      {removed: 22},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSINode"}:                                        {removed: 22},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSIStorageCapacity"}:                             {since: 21, removed: 27},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "VolumeAttributesClass"}:                          {since: notByDefault},
}

// servesKind reports whether kube-apiserver of Kubernetes 1.minor serves
// gvk, a built-in kind, with default flags.
func servesKind(gvk schema.GroupVersionKind, minor int) bool {
	if s, ok := kindSpans[gvk]; ok {
		return s.covers(min(minor, newestMinor))
	}
	return servesGroupVersion(gvk.GroupVersion(), minor)
}

// servesGroupVersion reports whether kube-apiserver of Kubernetes 1.minor
// serves the built-in group version gv with default flags.
func servesGroupVersion(gv schema.GroupVersion, minor int) bool {
	s, ok := groupVersionSpans[gv]
	return ok && s.covers(min(minor, newestMinor))
}

// isSubresourceKind reports whether kind is registered in client-go's
// scheme but served as no resource of its own: the options, watch and
// status kinds of every group version, and bodies of subresources.
func isSubresourceKind(kind string) bool {
	switch kind {
	case "WatchEvent", "Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList", "List",
		"ConversionReview", "RangeAllocation", "SerializedReference", "Scale", "Eviction", "TokenRequest",
		"DeploymentRollback", "Binding":
		return true
	}
	return strings.HasSuffix(kind, "Options")
}

// CheckVersion checks a simulated cluster's Kubernetes version (Options.Version,
// e.g. v1.24.0; empty: KubernetesVersion): lscli knows the API versions
// Kubernetes 1.16 and later serve.
func CheckVersion(v string) error {
	_, err := minorOf(v)
	return err
}

// minorOf returns the minor release of Kubernetes version v (empty:
// KubernetesVersion).
func minorOf(v string) (int, error) {
	if v == "" {
		v = KubernetesVersion
	}
	parsed, err := utilversion.ParseGeneric(v)
	if err != nil {
		return 0, fmt.Errorf("invalid Kubernetes version %q: want e.g. %s", v, KubernetesVersion)
	}
	if parsed.Major() != 1 || parsed.Minor() < oldestMinor {
		return 0, fmt.Errorf("unsupported Kubernetes version %q: lscli knows the API versions served from v1.%d on; set v1.%d.0 or later", v, oldestMinor, oldestMinor)
	}
	return int(parsed.Minor()), nil
}

// builtinMappers are the RESTMappers of the built-in kinds, by minor
// release, each built once.
var builtinMappers = struct {
	sync.Mutex
	m map[int]meta.RESTMapper
}{m: map[int]meta.RESTMapper{}}

// builtinRESTMapper is the RESTMapper of the built-in kinds that
// Kubernetes 1.minor serves.
func builtinRESTMapper(minor int) meta.RESTMapper {
	builtinMappers.Lock()
	defer builtinMappers.Unlock()
	m, ok := builtinMappers.m[minor]
	if !ok {
		m = builtinMapper(minor)
		builtinMappers.m[minor] = m
	}
	return m
}
