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

// exports reads the item's exports as Landscaper's helm deployer does:
// exports without fromResource from the values the templates saw (jsonPath
// such as .Values.foo or .Release.Name), the others from objects in the
// target; the results are deep-merged. exportsFromManifests (deprecated)
// counts as more exports. ready is false while an object to export from
// cannot be read yet. The result is always a JSON object, "{}" when there is
// nothing to export, as Landscaper always writes the export Secret.
func (d *Deployer) exports(ctx context.Context, it *item, tpl *templated, _ *helmv1alpha1.ProviderStatus) (data []byte, ready bool, err error) {
	defs := exportDefinitions(it.cfg)
	fromValues, err := valueExports(defs, tpl.render)
	if err != nil {
		return nil, false, reconcile.Wrap(err, "Reconcile", "ConstructExportFromValues")
	}
	fromResources, err := exports.Read(ctx, it.client, &managedresource.Exports{Exports: defs},
		exports.SecondaryClient(d.secondary(it)))
	var pending *exports.PendingError
	if errors.As(err, &pending) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read exports of deploy item %s: %w", it.req.Item.Name, err)
	}
	merged := exports.MergeMaps(fromValues, fromResources)
	if merged == nil {
		merged = map[string]any{}
	}
	data, err = json.Marshal(merged)
	if err != nil {
		return nil, false, fmt.Errorf("encode exports of deploy item %s: %w", it.req.Item.Name, err)
	}
	return data, true, nil
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
// values. A path that is not there is a terminal error: the values do not
// change by waiting.
func valueExports(defs []managedresource.Export, render chartutil.Values) (map[string]any, error) {
	var data map[string]any
	result := map[string]any{}
	for _, def := range defs {
		if def.FromResource != nil {
			continue
		}
		if data == nil {
			var err error
			if data, err = plainValues(render); err != nil {
				return nil, err
			}
		}
		val, err := exports.GetValue(def.JSONPath, data)
		if err != nil {
			return nil, fmt.Errorf("export %q: jsonPath %q in the chart values: %w", def.Key, def.JSONPath, err)
		}
		nested, err := exports.Construct(def.Key, val)
		if err != nil {
			return nil, fmt.Errorf("export %q: invalid key: %w", def.Key, err)
		}
		result = exports.MergeMaps(result, nested)
	}
	return result, nil
}

// plainValues turns the render values (without .Files) into plain JSON
// maps, lists and scalars, which jsonpath reads like any document.
func plainValues(render chartutil.Values) (map[string]any, error) {
	v := chartutil.Values{}
	for k, val := range render {
		if k != "Files" {
			v[k] = val
		}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode chart values: %w", err)
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("decode chart values: %w", err)
	}
	return out, nil
}
