package helm

import (
	"context"
	"fmt"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	"helm.sh/helm/v3/pkg/storage"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/reconcile"
)

// MaxHistory is how many revisions of a release are kept, as in Landscaper.
const MaxHistory = 10

// releaser runs helm's actions for one release in one target cluster.
type releaser struct {
	cfg       *action.Configuration
	name      string
	namespace string
	// log has what helm logged during this attempt; a failed install or
	// upgrade reports it, as Landscaper's helm deployer does.
	log *helmLog
	// hooks is the action's hook state (see hookRun).
	hooks *hookRun
	// real says the cluster is a real one, where helm's waits block.
	real bool
	// served reads the API versions the cluster serves (see
	// servedAPIVersions).
	served func() ([]string, error)
	// kube is the action's kube client.
	kube *kubeClient
	// pinned is the pending revision a resumed install or upgrade
	// rendered before it paused; the action renders it again as it is
	// (pinned.go).
	pinned *release.Release
}

// newReleaser configures helm's actions for the release name in namespace:
// objects and release records (Secrets, as helm's default driver) go to the
// cluster c; the templates see a copy of caps whose API versions an install
// or upgrade reads from c (see readAPIVersions); records carry the virtual
// time now. real says c is a real cluster (see kubeClient.real).
func newReleaser(ctx context.Context, c client.Client, real bool, name, namespace string, caps *chartutil.Capabilities, now time.Time) *releaser {
	log := &helmLog{}
	hooks := &hookRun{}
	store := storage.Init(&secretStore{ctx: ctx, c: c, namespace: namespace, now: now, hooks: hooks})
	if caps != nil {
		caps = caps.Copy()
	}
	kc := &kubeClient{ctx: ctx, c: c, namespace: namespace, real: real, log: log, hooks: hooks}
	cfg := &action.Configuration{
		Releases:     store,
		KubeClient:   kc,
		Capabilities: caps,
		Log:          log.printf,
		// lookup in templates reads the target, as with Landscaper's
		// RESTClientGetter (helm renders with the cluster unless dry-run).
		RESTClientGetter: restClientGetter{config: lookupConfig(ctx, c), mapper: c.RESTMapper()},
	}
	r := &releaser{cfg: cfg, name: name, namespace: namespace, log: log, hooks: hooks, real: real,
		served: func() ([]string, error) { return servedAPIVersions(ctx, c) }, kube: kc}
	kc.crdsServed = func() { _ = r.readAPIVersions() }
	kc.rollingBack = r.rollingBack
	return r
}

// readAPIVersions sets the API versions the action's templates see to
// those the cluster serves now, as helm's action reads them from the
// discovery of Landscaper's RESTClientGetter: before an install or upgrade,
// and again once the CRDs of the chart's crds/ folder are served (helm's
// install reads them only after it created those; an error there keeps
// the list read before). An error is helm's.
func (r *releaser) readAPIVersions() error {
	if r.cfg.Capabilities == nil {
		return nil
	}
	set, err := r.served()
	if err != nil {
		return fmt.Errorf("could not get apiVersions from Kubernetes: %w", err)
	}
	r.cfg.Capabilities.APIVersions = set
	return nil
}

// waiting returns the last revision of the release when an action left it
// waiting on a simulated cluster (see hookRun): for a hook, for its objects
// to be ready (wait) or for them to be gone (uninstall with wait). Its
// status is then pending-install, pending-upgrade or uninstalling; a
// failed install or upgrade leaves no pending revision (see unblock). A
// real cluster never has one: helm's waits block there.
func (r *releaser) waiting() (*release.Release, bool) {
	if r.real {
		return nil, false
	}
	last, err := r.cfg.Releases.Last(r.name)
	if err != nil || last.Info == nil {
		return nil, false
	}
	switch last.Info.Status {
	case release.StatusPendingInstall, release.StatusPendingUpgrade, release.StatusUninstalling:
		return last, true
	}
	return nil, false
}

// rollingBack reports whether the release's last revision is one a
// rollback is deploying (pending-rollback): helm's atomic upgrade rolls
// back when it failed.
func (r *releaser) rollingBack() bool {
	last, err := r.cfg.Releases.Last(r.name)
	return err == nil && last.Info != nil && last.Info.Status == release.StatusPendingRollback
}

// resume prepares the action to go on where the last call left it waiting
// (resume true; expired: the progressing timeout has passed), or
// to start over (resume false). An install or upgrade (deploy true) runs
// again from its start: its pending revision is removed first. An uninstall
// goes on with the revision it marked uninstalling; it leaves a pending
// install or upgrade as it is, and uninstalls it.
func (r *releaser) resume(resume, expired, deploy bool) {
	last, ok := r.waiting()
	if !ok || deploy != last.Info.Status.IsPending() {
		return
	}
	if resume {
		r.hooks.resumed, r.hooks.deletedOnSuccess = resumeHooks(last)
		r.hooks.expired = expired
		if deploy {
			r.pinned = last
		}
	}
	if deploy {
		_, _ = r.cfg.Releases.Delete(r.name, last.Version)
	}
}

// paused reports whether the action stopped to wait (for a hook, or for
// its objects).
func (r *releaser) paused() bool { return r.hooks.isPaused() }

// exists reports whether the release has any stored revision.
func (r *releaser) exists() (bool, error) {
	_, err := r.cfg.Releases.Last(r.name)
	if errNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, reconcile.Wrap(err, "GetHelmRelease", "GetRelease")
	}
	return true, nil
}

// deploy installs the release, or upgrades it when it exists, as
// Landscaper's helm deployer does. flags come from helmDeploymentConfig;
// timeout bounds helm's own waits. A failed action leaves no pending
// revision behind that would block the next try.
//
// A failed install or upgrade is Landscaper's error: operation
// RealHelmDeployer.Deploy, reason installRelease (upgradeRelease), and a
// message of the lines helm logged during the attempt followed by the
// action's own error (see actionError).
//
// A call on a simulated cluster may leave the action waiting for a hook,
// or with wait (atomic) for its objects to be ready: then it returns no
// release and no error, and paused() is true; the next call resumes with
// resume true (see hookRun).
func (r *releaser) deploy(ctx context.Context, pc *helmv1alpha1.ProviderConfiguration, ch *chart.Chart,
	vals map[string]any, timeout time.Duration, resume, expired bool) (*release.Release, error) {
	r.resume(resume, expired, true)
	ok, err := r.exists()
	if err != nil {
		return nil, err
	}
	var rel *release.Release
	reason := "installRelease"
	if ok {
		reason = "upgradeRelease"
		rel, err = r.upgrade(ctx, pc, ch, vals, timeout)
	} else {
		rel, err = r.install(ctx, pc, ch, vals, timeout)
	}
	if r.paused() {
		return nil, nil
	}
	if err != nil {
		r.unblock()
		return nil, reconcile.WrapError(err, "RealHelmDeployer.Deploy", reason, r.log.text()+"\n"+err.Error())
	}
	return rel, nil
}

// installError is Landscaper's error of a failed helm install (see
// actionError).
func installError(err error) error {
	return actionError(err, "InstallHelmRelease", "Install", "install",
		"rendered manifests contain a resource that already exists. Unable to continue with install")
}

// upgradeError is Landscaper's error of a failed helm upgrade (see
// actionError).
func upgradeError(err error) error {
	return actionError(err, "UpgradeHelmRelease", "Update", "upgrade",
		"rendered manifests contain a resource that already exists. Unable to continue with update",
		"pre-upgrade hooks failed", "The order in patch list", "YAML parse error on")
}

// actionError is Landscaper's error of a failed helm install or upgrade:
// operation op, reason, and the message "unable to <verb> helm chart
// release: <helm's error>". Landscaper marks ERR_FOR_INFO_ONLY the errors
// whose message contains one of the words of infoOnly (helm 3's message
// for an object in the way no longer does).
func actionError(err error, op, reason, verb string, infoOnly ...string) error {
	msg := "unable to " + verb + " helm chart release: " + err.Error()
	for _, s := range infoOnly {
		if strings.Contains(msg, s) {
			return reconcile.WrapError(err, op, reason, msg, lsv1alpha1.ErrorForInfoOnly)
		}
	}
	return reconcile.WrapError(err, op, reason, msg)
}

// install runs helm install.
func (r *releaser) install(ctx context.Context, pc *helmv1alpha1.ProviderConfiguration, ch *chart.Chart,
	vals map[string]any, timeout time.Duration) (*release.Release, error) {
	flags, err := installFlags(pc.HelmDeploymentConfig)
	if err != nil {
		return nil, err
	}
	in := action.NewInstall(r.cfg)
	in.ReleaseName, in.Namespace, in.CreateNamespace = r.name, r.namespace, pc.CreateNamespace
	in.Atomic, in.Force, in.Wait = flags.Atomic, flags.Force, flags.Wait
	in.SkipSchemaValidation, in.TakeOwnership = flags.SkipSchemaValidation, flags.TakeOwnership
	in.Timeout = timeout
	r.kube.chartCRDs = chartCRDsOf(ch)
	if err := r.readAPIVersions(); err != nil {
		return nil, installError(err)
	}
	rel, err := in.RunWithContext(ctx, r.renderedAs(ch), vals)
	if err != nil {
		return nil, installError(err)
	}
	if err := r.withChart(rel, ch); err != nil {
		return nil, installError(err)
	}
	return rel, nil
}

// upgrade runs helm upgrade, keeping MaxHistory revisions.
func (r *releaser) upgrade(ctx context.Context, pc *helmv1alpha1.ProviderConfiguration, ch *chart.Chart,
	vals map[string]any, timeout time.Duration) (*release.Release, error) {
	flags, err := upgradeFlags(pc.HelmDeploymentConfig)
	if err != nil {
		return nil, err
	}
	up := action.NewUpgrade(r.cfg)
	up.Namespace, up.MaxHistory = r.namespace, MaxHistory
	up.Atomic, up.Force, up.Wait = flags.Atomic, flags.Force, flags.Wait
	up.SkipSchemaValidation, up.TakeOwnership = flags.SkipSchemaValidation, flags.TakeOwnership
	up.Timeout = timeout
	r.kube.chartCRDs = chartCRDsOf(ch)
	if err := r.readAPIVersions(); err != nil {
		return nil, upgradeError(err)
	}
	rel, err := up.RunWithContext(ctx, r.name, r.renderedAs(ch), vals)
	if err != nil {
		return nil, upgradeError(err)
	}
	if err := r.withChart(rel, ch); err != nil {
		return nil, upgradeError(err)
	}
	return rel, nil
}

// unblock deletes the last revision when helm left it pending, so that the
// next try is not refused with "another operation is in progress".
func (r *releaser) unblock() {
	last, err := r.cfg.Releases.Last(r.name)
	if err != nil || last.Info == nil || !last.Info.Status.IsPending() {
		return
	}
	_, _ = r.cfg.Releases.Delete(r.name, last.Version)
}

// uninstall removes the release and its history; a missing release is fine.
// CRDs from the chart's crds/ folder stay, as helm leaves them. Like deploy,
// it may leave the action waiting for a pre-delete or post-delete hook
// (paused() true, no error), and resume goes on with it.
func (r *releaser) uninstall(pc *helmv1alpha1.ProviderConfiguration, timeout time.Duration, resume, expired bool) error {
	r.resume(resume, expired, false)
	flags, err := uninstallFlags(pc.HelmDeploymentConfig)
	if err != nil {
		return err
	}
	un := action.NewUninstall(r.cfg)
	un.KeepHistory, un.IgnoreNotFound = false, true
	un.Wait, un.Timeout = flags.Wait, timeout
	_, err = un.Run(r.name)
	if r.paused() {
		return nil
	}
	if err != nil && !errNotFound(err) {
		return reconcile.Wrap(fmt.Errorf("unable to delete helm chart release: %w", err), "DeleteHelmRelease", "Uninstall")
	}
	return nil
}

// history returns the stored revisions of the release, oldest first.
func (r *releaser) history() ([]*release.Release, error) {
	rels, err := r.cfg.Releases.History(r.name)
	if errNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history of helm release %s/%s: %w", r.namespace, r.name, err)
	}
	releaseutil.SortByRevision(rels)
	return rels, nil
}

// renderedAs is the chart the action renders: ch, or, for a resumed
// install or upgrade, ch with the templates that print what the paused
// action rendered (pinnedChart).
func (r *releaser) renderedAs(ch *chart.Chart) *chart.Chart {
	if r.pinned == nil {
		return ch
	}
	if p, ok := pinnedChart(ch, r.pinned); ok {
		return p
	}
	return ch
}

// withChart stores rel, which a resumed action rendered from a pinned
// chart, with the chart ch again, as helm's single render stores it.
func (r *releaser) withChart(rel *release.Release, ch *chart.Chart) error {
	if r.pinned == nil || rel == nil || rel.Chart == ch {
		return nil
	}
	rel.Chart = ch
	if err := r.cfg.Releases.Update(rel); err != nil {
		return fmt.Errorf("store release %s revision %d with its chart: %w", rel.Name, rel.Version, err)
	}
	return nil
}
