package helm

import (
	"context"
	"fmt"
	"sort"

	"helm.sh/helm/v3/pkg/action"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// servedAPIVersions are the API versions a helm action's templates see as
// .Capabilities.APIVersions on the cluster of c, as helm computes them from
// the discovery of the RESTClientGetter Landscaper gives its actions
// (action.GetVersionSet): every served group version and every
// group/version/kind of a served resource, CRDs' included, here sorted. A
// real cluster answers with its own discovery; any other client through
// readTransport (see lookupConfig): the kinds of its scheme and of the
// established CRDs.
func servedAPIVersions(ctx context.Context, c client.Client) ([]string, error) {
	compute := func() ([]string, error) {
		dc, err := discovery.NewDiscoveryClientForConfig(lookupConfig(ctx, c))
		if err != nil {
			return nil, fmt.Errorf("discovery client of the target: %w", err)
		}
		return versionSet(dc)
	}
	if m, ok := c.(versionSetMemo); ok {
		return m.MemoVersionSet(compute)
	}
	return compute()
}

// versionSetMemo is implemented by clients that keep a cluster's version
// set until the kinds it serves change (the simulated cluster's): every
// install and upgrade asks for it, and a discovery makes a request per
// group version.
type versionSetMemo interface {
	MemoVersionSet(compute func() ([]string, error)) ([]string, error)
}

// versionSet is helm's version set of dc, sorted.
func versionSet(dc discovery.ServerResourcesInterface) ([]string, error) {
	set, err := action.GetVersionSet(dc)
	if err != nil {
		return nil, err
	}
	out := append([]string(nil), set...)
	sort.Strings(out)
	return out, nil
}
