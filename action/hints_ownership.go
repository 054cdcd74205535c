package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// ownershipConflict matches helm's refusal to adopt an object that exists
// without the release's ownership metadata (helm pkg/action/validate.go
// existingResourceConflict): kind, namespace and name.
var ownershipConflict = regexp.MustCompile(`(\S+) "([^"]+)" in namespace "([^"]*)" exists and cannot be imported into the current release: invalid ownership metadata`)

// continueWithUpdate matches helm's upgrade's refusal (helm
// pkg/action/upgrade.go performUpgrade), as opposed to its install's
// "Unable to continue with install".
var continueWithUpdate = regexp.MustCompile(`Unable to continue with update: `)

// ownershipHint says, for a helm item whose install failed because an
// object of the release exists without the release's ownership metadata,
// how to let the release have it: on a real cluster delete it or take it
// over (takeOwnership); when the object comes from the seeds of a
// simulated cluster, which a custom resource seeded for a readiness check
// brings its CRD into even though the release installs that CRD, with the
// label and annotations helm looks for. It is empty for other items.
func ownershipHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, ownershipConflict)
	if m == nil {
		return ""
	}
	if _, _, _, other := otherReleaseOwner(di); other { // hints_otherrelease.go says what to do
		return ""
	}
	release := "the release"
	name, namespace := "NAME", "NAMESPACE"
	if ns, n, ok := helmRelease(di); ok { // hints_otherrelease.go
		name, namespace = n, ns
		release = fmt.Sprintf("release %s/%s", namespace, name)
	}
	op := "install" // helm's upgrade refuses "Unable to continue with update": Landscaper's upgrade config has its own takeOwnership
	if failedItemMatch(di, continueWithUpdate) != nil {
		op = "upgrade"
	}
	object := conflictObject(m)
	return fmt.Sprintf("DeployItem %s/%s: helm does not take over %s, which is on the target cluster without the "+
		"ownership metadata of %s. On a real cluster something else made it: delete it, or let the release adopt it "+
		"(helmDeploymentConfig %s.takeOwnership: true). If it comes from simulatedCluster.seeds (a custom resource "+
		"seeded with the status a readiness check requires brings its CRD along, also when this release installs "+
		"that CRD), give it there what helm looks for: label app.kubernetes.io/managed-by: Helm, annotations "+
		"meta.helm.sh/release-name: %s and meta.helm.sh/release-namespace: %s", di.Namespace, di.Name, object,
		release, op, name, namespace)
}

// conflictObject names the object of ownershipConflict's match m: KIND
// NAMESPACE/NAME, or KIND NAME for a cluster-scoped one.
func conflictObject(m []string) string {
	if m[3] == "" {
		return m[1] + " " + m[2]
	}
	return m[1] + " " + m[3] + "/" + m[2]
}
