package helm

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/reconcile"
)

// DefaultKubeVersion is the Kubernetes version charts see when neither the
// target's client nor Options.KubeVersion tells one: the version of the
// Kubernetes libraries lscli is built with. (Helm built as a library would
// report v1.20.0.)
const DefaultKubeVersion = "v1.37.2"

// ServerVersioner is implemented by target clients that know their cluster's
// version, such as the clients of deployers/realcluster (from discovery).
// The helm deployer reports that version to charts as
// .Capabilities.KubeVersion; the simulated cluster's client may implement it
// too.
type ServerVersioner interface {
	ServerVersion() (*version.Info, error)
}

// templated is what the template step produces for one call.
type templated struct {
	chart  *chart.Chart
	values map[string]any
	caps   *chartutil.Capabilities
	// render is what templates see (.Values, .Release, .Chart,
	// .Capabilities); exports without fromResource read it.
	render chartutil.Values
	// exports are the exports without fromResource, read from render
	// (constructValueExports).
	exports map[string]any
	// files are the rendered templates (helmDeployment: false, in a call
	// that deploys), by path in the chart.
	files map[string]string
}

// template loads the chart, decodes the values and computes the values the
// templates see, as Landscaper's template step does for both modes
// (revision 0, install, schema validation skipped); with helmDeployment:
// false it renders the templates too, in a call that deploys, with `lookup`
// reading the target (lookupConfig), as Landscaper's RenderWithClient. Its errors are
// Landscaper's TemplateChart errors, wrapped as Reconcile/Template: a chart
// that cannot be loaded is retried, bad values and a chart that does not
// render fail the item (ERR_CONFIGURATION_PROBLEM), with helm's error as
// the message.
func (d *Deployer) template(ctx context.Context, it *item) (*templated, error) {
	ch, err := d.chartOf(ctx, it)
	if err != nil {
		return nil, templateError(reconcile.Wrap(err, "TemplateChart", "GetHelmChart"))
	}
	vals, err := chartValues(it.cfg)
	if err != nil {
		return nil, templateError(err)
	}
	caps, err := d.capabilities(it.client)
	if err != nil {
		return nil, err
	}
	opts := chartutil.ReleaseOptions{Name: it.cfg.Name, Namespace: it.cfg.Namespace, IsInstall: true}
	render, err := chartutil.ToRenderValuesWithSchemaValidation(ch, vals, opts, caps, true)
	if err != nil {
		return nil, templateError(configError(err, "PrepareHelmValues"))
	}
	tpl := &templated{chart: ch, values: vals, caps: caps, render: render}
	if !helmDeployment(it.cfg) && deployer.Deploys(it.req.Item) {
		if tpl.files, err = engine.RenderWithClient(ch, render, lookupConfig(ctx, it.client)); err != nil {
			return nil, templateError(configError(err, "RenderHelmValues"))
		}
	}
	return tpl, nil
}

// configError is a TemplateChart error with reason that fails the item
// (ERR_CONFIGURATION_PROBLEM).
func configError(err error, reason string) error {
	return reconcile.WrapError(err, "TemplateChart", reason, err.Error(), lsv1alpha1.ErrorConfigurationProblem)
}

// templateError wraps an error of the template step as Landscaper's helm
// deployer does.
func templateError(err error) error {
	return reconcile.Wrap(err, "Reconcile", "Template")
}

// capabilities are helm's defaults with the Kubernetes version set
// explicitly: the target's (ServerVersioner), else Options.KubeVersion, else
// DefaultKubeVersion.
func (d *Deployer) capabilities(c client.Client) (*chartutil.Capabilities, error) {
	v := d.opts.KubeVersion
	if v == "" {
		v = DefaultKubeVersion
	}
	if sv, ok := c.(ServerVersioner); ok {
		info, err := sv.ServerVersion()
		switch {
		case apierrors.IsUnauthorized(err):
			// Landscaper's template step asks the cluster nothing; the
			// refused credentials fail the deploy step, as there
			// (ERR_UNAUTHORIZED from the applier with helmDeployment: false).
		case err != nil:
			return nil, fmt.Errorf("get the Kubernetes version of the target: %w", err)
		default:
			v = info.GitVersion
		}
	}
	kv, err := chartutil.ParseKubeVersion(v)
	if err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("invalid Kubernetes version %q: %w", v, err))
	}
	caps := landscaperCapabilities()
	caps.KubeVersion = *kv
	return caps, nil
}
