// Package landscape loads a landscape, the Landscaper objects that lscli
// reconciles, from YAML files.
//
// A landscape is a set of files or directories. Directories are walked
// recursively for *.yaml and *.yml files in lexical order. A walk skips hidden
// files and folders (.lscli, .git), lscli's configuration file lscli.yaml,
// blueprint folders (a blueprint.yaml of kind Blueprint) and helm chart
// folders, whose files are templates rather than objects, CTFs and blobs
// folders of component descriptors, component-cli's resources.yaml next to a
// component-descriptor.yaml (the rest of such a folder is walked: projects
// keep their installations next to their descriptor), and the files
// [Loader.Skip] names (the config file's seed files). Files named as paths
// are always read. Every file may hold several YAML documents
// separated by "---"; documents of OCM component descriptors and
// component-constructor files are skipped: they are component versions,
// which lscli finds by itself (package landscaper/components). Files that
// are not *.yaml or *.yml, such as the guided tour's *.yaml.tpl templates,
// are not read.
//
// Each document must be one of the kinds listed by [Kinds]: Landscaper's
// Installation, Target, DataObject, Context, Execution and DeployItem
// (landscaper.gardener.cloud/v1alpha1), or a core/v1 Secret or ConfigMap.
// Documents are decoded strictly into Landscaper's own API types: unknown
// fields are errors, as with "kubectl apply" and server-side field validation.
// Then the loader does what the API server and Landscaper's webhooks would do:
// it runs the scheme's defaulting functions (spec.context defaults to
// "default"), fills in the namespace, merges a Secret's stringData into data,
// and validates each object: Installations, Executions, DeployItems and
// Targets with Landscaper's own validation package (apis/core/validation,
// which its webhooks run), metadata as the API server does.
//
// The loader never stops at the first problem. [Loader.Load] returns a
// [*LoadError] listing every problem, one per line, each naming the file, the
// document number and the object, then the field error as a cluster prints
// it, with lscli's advice in parentheses:
//
//	examples/app.yaml: document 2: Installation "app": spec.blueprint.definition: Required value: exactly one of [Inline, Reference] must be set (currently set: none) (set exactly one of the keys inline or ref)
package landscape
