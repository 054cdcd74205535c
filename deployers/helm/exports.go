package helm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/lscli/lscli/deployers/exports"
	"github.com/lscli/lscli/reconcile"
)

// exports reads the item's exports as Landscaper's helm deployer does: the
// exports without fromResource, constructed from the values the templates
// saw before the deploy (tpl.exports, see constructValueExports), deep-merged
// with those read from objects in the target. exportsFromManifests
// (deprecated) counts as more exports. While an object to export from cannot
// be read yet the error is an *exports.PendingError. The result is always a
// JSON object, "{}" when there is nothing to export, as Landscaper always
// writes the export Secret.
func (d *Deployer) exports(ctx context.Context, it *item, tpl *templated, _ *helmv1alpha1.ProviderStatus) ([]byte, error) {
	fromResources, err := exports.Read(ctx, it.client, &managedresource.Exports{Exports: exportDefinitions(it.cfg)},
		exports.SecondaryClient(d.secondary(it)))
	var pending *exports.PendingError
	if errors.As(err, &pending) {
		return nil, pending
	}
	if err != nil {
		return nil, fmt.Errorf("read exports of deploy item %s: %w", it.req.Item.Name, err)
	}
	merged := exports.MergeMaps(tpl.exports, fromResources)
	if merged == nil {
		merged = map[string]any{}
	}
	data, err := json.Marshal(merged)
	if err != nil {
		return nil, fmt.Errorf("encode exports of deploy item %s: %w", it.req.Item.Name, err)
	}
	return data, nil
}

// constructValueExports reads the exports without fromResource from the
// render values into tpl.exports, as Landscaper's helm deployer does right
// after its template step, before it deploys anything: exportsFromManifests
// first, then exports.exports (a later key wins). An error, such as a path
// the values lack, is Landscaper's Reconcile/ConstructExportFromValues error
// without a code: it is retried until the progressing timeout.
func constructValueExports(cfg *helmv1alpha1.ProviderConfiguration, tpl *templated) error {
	defs := append([]managedresource.Export{}, cfg.ExportsFromManifests...)
	if cfg.Exports != nil {
		defs = append(defs, cfg.Exports.Exports...)
	}
	fromValues, err := valueExports(defs, tpl.render)
	if err != nil {
		return reconcile.Wrap(err, "Reconcile", "ConstructExportFromValues")
	}
	tpl.exports = fromValues
	return nil
}

// exportDefinitions are exports.exports followed by exportsFromManifests.
func exportDefinitions(cfg *helmv1alpha1.ProviderConfiguration) []managedresource.Export {
	var defs []managedresource.Export
	if cfg.Exports != nil {
		defs = append(defs, cfg.Exports.Exports...)
	}
	return append(defs, cfg.ExportsFromManifests...)
}

// valueExports reads the exports without fromResource from the render
// values as they are, as Landscaper does: .Chart and .Capabilities are helm's
// structs, whose fields client-go's jsonpath finds by JSON name and by Go
// field name (.Chart.name and .Chart.Name), an empty field included.
func valueExports(defs []managedresource.Export, render chartutil.Values) (map[string]any, error) {
	result := map[string]any{}
	for _, def := range defs {
		if def.FromResource != nil {
			continue
		}
		// The errors are returned as they are: Landscaper's message is the
		// jsonpath's own text (such as "nope is not found"), without the key.
		val, err := exports.GetValue(def.JSONPath, map[string]any(render))
		if err != nil {
			return nil, err
		}
		nested, err := exports.Construct(def.Key, val)
		if err != nil {
			return nil, err
		}
		result = exports.MergeMaps(result, nested)
	}
	return result, nil
}
