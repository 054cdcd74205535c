package dataflow

import (
	"context"
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/source"
	"github.com/lscli/lscli/reconcile"
)

// Reasons of component resolution errors, as they appear in
// status.lastError.reason.
const (
	ReasonComponentNotFound        = "ComponentNotFound"
	ReasonRepositoryContextMissing = "RepositoryContextMissing"
	ReasonContextNotFound          = "ContextNotFound"
	ReasonSetupRegistries          = "SetupRegistries"
	ReasonComponentOverwrites      = "GetComponentVersionOverwrites"
	ocmSchemaVersionAnnotation     = "ocmSchemaVersion"
)

// Sources are where installations' blueprints and component versions come
// from.
type Sources struct {
	// Blueprints is the blueprints map of the config file; nil for none.
	Blueprints blueprint.Resolver
	// Components finds component versions; nil finds only inline
	// component descriptors.
	Components *components.Registry
	// Cache, when set, parses each inline blueprint once.
	Cache *blueprint.Cache
}

// forInstallation reads inst's blueprint through the cache, if any.
func (s Sources) forInstallation(inst *lsv1alpha1.Installation, r blueprint.Resolver) (*blueprint.Blueprint, error) {
	if s.Cache != nil {
		return s.Cache.ForInstallation(inst, r)
	}
	return blueprint.ForInstallation(inst, r)
}

// registry returns the component registry, an empty one when there is none.
func (s Sources) registry() *components.Registry {
	if s.Components == nil {
		return &components.Registry{}
	}
	return s.Components
}

// InstallationBlueprint returns the blueprint of inst and its component
// versions (nil without spec.componentDescriptor), resolved as Landscaper
// resolves them for a job: component versions first, then the blueprint,
// inline or spec.blueprint.ref.resourceName of the component version. The
// blueprints map of the config file can override a component's blueprint
// ("<component>/<resource>"), and stands in for a component lscli cannot
// find. Errors are terminal. YAML documents of the blueprint's files that
// Landscaper ignores are warned of (see warnIgnoredDocuments).
func InstallationBlueprint(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, src Sources) (*blueprint.Blueprint, *components.Tree, error) {
	bp, tree, err := installationBlueprint(ctx, r, inst, src)
	if err == nil {
		warnIgnoredDocuments(ctx, inst, bp)
	}
	return bp, tree, err
}

// installationBlueprint is InstallationBlueprint without the warnings.
func installationBlueprint(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, src Sources) (*blueprint.Blueprint, *components.Tree, error) {
	tree, compErr := ResolveComponents(ctx, r, inst, src.registry())
	if inst.Spec.Blueprint.Inline != nil {
		if compErr != nil {
			return nil, nil, compErr
		}
		bp, err := src.forInstallation(inst, nil)
		return bp, tree, err
	}
	if compErr == nil {
		bp, err := blueprint.ForInstallation(inst, &components.Blueprints{Tree: tree, Folders: src.Blueprints})
		return bp, tree, err
	}
	if src.Blueprints != nil {
		if bp, err := src.forInstallation(inst, src.Blueprints); err == nil {
			mapped := *bp // a copy: the cache shares bp
			mapped.ComponentErr = compErr
			return &mapped, nil, nil
		}
	}
	return nil, nil, compErr
}

// ResolveComponents returns the component versions of inst: its
// spec.componentDescriptor (inline, or a ref whose repository context
// defaults to its Context's) and every version that references,
// transitively. Nil when inst has no component descriptor. Errors are
// terminal.
func ResolveComponents(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, reg *components.Registry) (*components.Tree, error) {
	def := inst.Spec.ComponentDescriptor
	if def == nil || def.Reference == nil && def.Inline == nil {
		return nil, nil
	}
	if reg == nil {
		reg = &components.Registry{}
	}
	req, err := componentRequest(ctx, r, inst, reg)
	if err != nil {
		return nil, err
	}
	tree, err := reg.Resolve(req)
	if err != nil {
		reason := ReasonComponentDescriptor
		var nf *components.NotFoundError
		if errors.As(err, &nf) {
			reason = ReasonComponentNotFound
		}
		return nil, failWrap(inst, reason, err, "spec.componentDescriptor")
	}
	return tree, nil
}

// componentRequest is what inst asks the registry for.
func componentRequest(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, reg *components.Registry) (components.Request, error) {
	def := inst.Spec.ComponentDescriptor
	fallback := &clusterInline{ctx: ctx, r: r, ns: inst.Namespace, local: reg.LocalRoot()}
	lsCtx, err := landscaperContext(ctx, r, inst)
	if def.Inline != nil {
		// The references of an inline descriptor follow the Context's
		// overwrites; a missing Context is CheckContext's to report.
		var ow components.Overwrites
		if err == nil {
			ow, err = overwrites(ctx, inst, lsCtx, r.Get)
		}
		if err != nil && !isContextNotFound(err) {
			return components.Request{}, err
		}
		if err == nil {
			if err := repositoryMissing(inst, lsCtx, ow); err != nil {
				return components.Request{}, err
			}
		}
		cd := def.Inline.DeepCopy()
		return components.Request{Repo: cd.GetEffectiveRepositoryContext(), Name: cd.GetName(), Version: cd.GetVersion(),
			Inline: source.Inline(cd, reg.LocalRoot()), Fallback: fallback, Overwrites: ow}, nil
	}
	if err != nil {
		return components.Request{}, err
	}
	ow, err := overwrites(ctx, inst, lsCtx, r.Get)
	if err != nil {
		return components.Request{}, err
	}
	ref := components.Ref{Repo: def.Reference.RepositoryContext, Name: def.Reference.ComponentName, Version: def.Reference.Version}
	if ref.Repo == nil {
		ref.Repo = lsCtx.RepositoryContext
	}
	ref, _ = ow.Apply(ref)
	if err := repositoryMissing(inst, lsCtx, ow); err != nil {
		return components.Request{}, err
	}
	return components.Request{Repo: ref.Repo, Name: ref.Name, Version: ref.Version, Fallback: fallback, Overwrites: ow}, nil
}

// CheckContext reads the Context inst names, as Landscaper's controller does
// at the start of every Init and Completing (GetInstallationContext): a
// Context that does not exist is a terminal error (reason
// ContextNotFound), also for an installation whose blueprint needs no
// component. (A component without a repository context is refused where
// the component is looked up, see InstallationBlueprint: not when lscli's
// config maps the blueprint to a folder.)
//
// The registryPullSecrets and the ocmConfig ConfigMap the Context names must
// exist, the ConfigMap with the key .ocmconfig, as Landscaper's
// SetupRegistries reads them for every installation (reason
// SetupRegistries). Where they do not, a component without repository
// context is the error, as Landscaper finds it first (RepositoryContextMissing).
func CheckContext(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) error {
	lsCtx, err := readContext(ctx, r, inst, r.GetUnsafe) // only read here
	if err != nil {
		return err
	}
	if err := checkRegistries(ctx, r, inst, lsCtx); err != nil {
		ow, owErr := overwrites(ctx, inst, lsCtx, r.GetUnsafe)
		if owErr != nil {
			return owErr
		}
		if missing := repositoryMissing(inst, lsCtx, ow); missing != nil {
			return missing
		}
		return err
	}
	return nil
}

// checkRegistries requires the registryPullSecrets and the ocmConfig
// ConfigMap of lsCtx, as Landscaper's SetupRegistries reads them. The
// status shows Landscaper's message, the error alone; lscli's names the
// Context.
func checkRegistries(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, lsCtx *lsv1alpha1.Context) error {
	registriesError := func(err error, text, format string, args ...any) error {
		e := about(inst, err, format, args...)
		e.Landscaper = text
		return reconcile.TerminalWithCodes(e, ReasonSetupRegistries)
	}
	for _, ps := range lsCtx.RegistryPullSecrets {
		if err := r.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: ps.Name}, &corev1.Secret{}); err != nil {
			return registriesError(err, err.Error(), "Context %q: registryPullSecrets: %v", lsCtx.Name, err)
		}
	}
	if lsCtx.OCMConfig != nil {
		cm := &corev1.ConfigMap{}
		if err := r.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: lsCtx.OCMConfig.Name}, cm); err != nil {
			return registriesError(err, err.Error(), "Context %q: ocmConfig: %v", lsCtx.Name, err)
		}
		if _, ok := cm.Data[ocmConfigKey]; !ok {
			const msg = "ocm configuration config map does not contain key %q"
			return registriesError(nil, fmt.Sprintf(msg, ocmConfigKey), "Context %q: "+msg, lsCtx.Name, ocmConfigKey)
		}
	}
	return nil
}

// repositoryMissing returns Landscaper's RepositoryContextMissing error
// (GetExternalContext) when inst's component has no repository context:
// not its reference's (for an inline descriptor, the descriptor's last
// repositoryContexts entry), not the Context's, nor one an overwrite of the
// Context gives, and the Context names no ocmConfig. Nil for an
// installation without component descriptor.
func repositoryMissing(inst *lsv1alpha1.Installation, lsCtx *lsv1alpha1.Context, ow components.Overwrites) error {
	def := inst.Spec.ComponentDescriptor
	var ref components.Ref
	var what string
	switch {
	case def == nil:
		return nil
	case def.Inline != nil:
		ref = components.Ref{Repo: def.Inline.GetEffectiveRepositoryContext(), Name: def.Inline.GetName(), Version: def.Inline.GetVersion()}
		what = "spec.componentDescriptor.inline has no repositoryContexts"
	case def.Reference != nil:
		ref = components.Ref{Repo: def.Reference.RepositoryContext, Name: def.Reference.ComponentName, Version: def.Reference.Version}
		what = "spec.componentDescriptor.ref has no repositoryContext"
	default:
		return nil
	}
	if ref.Repo == nil {
		ref.Repo = lsCtx.RepositoryContext
	}
	ref, _ = ow.Apply(ref)
	if ref.Repo != nil || (lsCtx.OCMConfig != nil && lsCtx.OCMConfig.Name != "") {
		return nil
	}
	e := about(inst, nil, "%s and Context %q has none: set one of them", what, lsCtx.Name)
	e.Landscaper = "RepositoryContextMissing" // MissingRepositoryContextError's text
	return reconcile.TerminalWithCodes(e, ReasonRepositoryContextMissing)
}

// ocmConfigKey is the key of a Context's ocmConfig ConfigMap that holds the
// OCM configuration.
const ocmConfigKey = ".ocmconfig"

// IsOperationError reports whether err, an error of InstallationBlueprint,
// is one Landscaper's controller meets when it builds the installation
// operation, resolving the component versions (InitInstallationOperation),
// rather than when it reads the blueprint (ResolveBlueprint): every
// component error when the blueprint is inline, and, for a blueprint from
// the component, a version the root references that is not found.
func IsOperationError(inst *lsv1alpha1.Installation, err error) bool {
	t := reconcile.AsTerminal(err)
	if t == nil || (t.Reason != ReasonComponentNotFound && t.Reason != ReasonComponentDescriptor) {
		return false
	}
	if inst.Spec.Blueprint.Inline != nil {
		return true
	}
	var nf *components.NotFoundError
	if !errors.As(err, &nf) {
		return false
	}
	def := inst.Spec.ComponentDescriptor
	root := source.Key{}
	switch {
	case def.Reference != nil:
		root = source.Key{Name: def.Reference.ComponentName, Version: def.Reference.Version}
	case def.Inline != nil:
		root = source.Key{Name: def.Inline.GetName(), Version: def.Inline.GetVersion()}
	}
	return nf.Key != root
}

// IsRegistriesError reports whether err, an error of CheckContext, is about
// the registries the Context names (Landscaper's SetupRegistries).
func IsRegistriesError(err error) bool {
	t := reconcile.AsTerminal(err)
	return t != nil && t.Reason == ReasonSetupRegistries
}

// IsContextError reports whether err, an error of CheckContext or
// InstallationBlueprint, is about the installation's Context: one that does
// not exist, or no repository context for a component reference (Landscaper's
// CalculateContext).
func IsContextError(err error) bool {
	t := reconcile.AsTerminal(err)
	return t != nil && (t.Reason == ReasonContextNotFound || t.Reason == ReasonRepositoryContextMissing ||
		t.Reason == ReasonComponentOverwrites)
}

// isContextNotFound reports whether err says that an installation's
// Context does not exist.
func isContextNotFound(err error) bool {
	t := reconcile.AsTerminal(err)
	return t != nil && t.Reason == ReasonContextNotFound
}

// landscaperContext reads the Context inst names (spec.context, default
// "default").
func landscaperContext(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) (*lsv1alpha1.Context, error) {
	return readContext(ctx, r, inst, r.Get)
}

// readContext is landscaperContext with get, the Reader's Get or, for a
// caller that only reads the Context, its GetUnsafe.
func readContext(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation,
	get func(context.Context, types.NamespacedName, fakecluster.Object) error) (*lsv1alpha1.Context, error) {
	name := inst.Spec.Context
	if name == "" {
		name = lsv1alpha1.DefaultContextName
	}
	lsCtx := &lsv1alpha1.Context{}
	if err := get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: name}, lsCtx); err != nil {
		if isNotFound(err) {
			e := about(inst, nil, "Context %q not found in namespace %s: add it to the landscape", name, inst.Namespace)
			// GetExternalContext in pkg/landscaper/installations/context.go
			e.Landscaper = "Op: Context - Reason: GetContext - Message: " + err.Error()
			return nil, reconcile.TerminalWithCodes(e, ReasonContextNotFound)
		}
		return nil, fmt.Errorf("get Context %s: %w", name, err)
	}
	if _, err := overwrites(ctx, inst, lsCtx, get); err != nil {
		return nil, err
	}
	return lsCtx, nil
}

// overwrites reads the ComponentVersionOverwrites lsCtx names, in inst's
// namespace, with get; nil when it names none. One that does not exist is
// a terminal error, as Landscaper reads it with the Context
// (GetExternalContext).
func overwrites(ctx context.Context, inst *lsv1alpha1.Installation, lsCtx *lsv1alpha1.Context,
	get func(context.Context, types.NamespacedName, fakecluster.Object) error) (components.Overwrites, error) {
	name := lsCtx.ComponentVersionOverwritesReference
	if name == "" {
		return nil, nil
	}
	cvo := &lsv1alpha1.ComponentVersionOverwrites{}
	if err := get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: name}, cvo); err != nil {
		if isNotFound(err) {
			const msg = "context '%s' references ComponentVersionOverwrites resource '%s', which cannot be found: "
			e := about(inst, nil, msg+"add it to the landscape in namespace %s", lsCtx.Name, name, inst.Namespace)
			// GetExternalContext in pkg/landscaper/installations/context.go
			e.Landscaper = "Op: ComponentVersionOverwrites - Reason: GetComponentVersionOverwrites - Message: " +
				fmt.Sprintf(msg, lsCtx.Name, name) + err.Error()
			return nil, reconcile.TerminalWithCodes(e, ReasonComponentOverwrites)
		}
		return nil, fmt.Errorf("get ComponentVersionOverwrites %s: %w", name, err)
	}
	return components.Overwrites(cvo.Overwrites), nil
}

// effectiveRef returns inst's component descriptor reference with the
// repository context it was resolved in, as Landscaper shows it to
// templates (componentDescriptorDef).
func effectiveRef(def *lsv1alpha1.ComponentDescriptorDefinition, tree *components.Tree) *lsv1alpha1.ComponentDescriptorDefinition {
	if def == nil || def.Reference == nil || def.Reference.RepositoryContext != nil || tree == nil || tree.Repo == nil {
		return def
	}
	out := def.DeepCopy()
	out.Reference.RepositoryContext = tree.Repo.DeepCopy()
	return out
}

// cdRepo is the repository context of a version, for subinstallations:
// its own effective one.
func cdRepo(v *source.Version) *cdv2.UnstructuredTypedObject {
	return v.Descriptor.GetEffectiveRepositoryContext().DeepCopy()
}

// clusterInline is the inline component descriptors of the installations
// in a namespace. Landscaper gives a subinstallation of an installation
// with an inline descriptor a reference into the descriptor's repository,
// where a registry would have it; lscli, which reads no registry, finds it
// here.
type clusterInline struct {
	ctx   context.Context
	r     fakecluster.Reader
	ns    string
	local source.Root
}

func (c *clusterInline) Origin() string {
	return "inline component descriptors of the installations in namespace " + c.ns
}

func (c *clusterInline) Rank() source.Rank { return source.RankArchive }

func (c *clusterInline) Load() ([]*source.Version, error) {
	list := &lsv1alpha1.InstallationList{}
	if err := c.r.List(c.ctx, list, fakecluster.ListOptions{Namespace: c.ns}); err != nil {
		return nil, err
	}
	var out []*source.Version
	for i := range list.Items {
		def := list.Items[i].Spec.ComponentDescriptor
		if def == nil || def.Inline == nil {
			continue
		}
		vs, err := source.Inline(def.Inline.DeepCopy(), c.local).Load()
		if err != nil {
			continue
		}
		out = append(out, vs...)
	}
	return out, nil
}

// InlineInstallations returns the source of the inline component
// descriptors of the installations in namespace ns, whose local blobs are
// read from local.
func InlineInstallations(ctx context.Context, r fakecluster.Reader, ns string, local source.Root) source.Source {
	return &clusterInline{ctx: ctx, r: r, ns: ns, local: local}
}
