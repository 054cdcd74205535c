package helm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// notesSuffix ends the name of a chart's NOTES.txt, which is not a manifest.
const notesSuffix = "NOTES.txt"

// renderManifests turns the chart rendered for helmDeployment: false
// (tpl.files, see template) into manifests as Landscaper does: the CRDs of
// crds/ folders first, then every rendered template in file name order
// (NOTES.txt, empty documents and documents that are no Kubernetes object
// left out, hooks kept as plain objects), all with policy manage; with
// createNamespace, the release Namespace with policy keep. Templates saw the
// values of the template step; lookup read the target (see template). As
// in Landscaper, whose template step never
// processes the dependencies' conditions and tags (only a real helm install
// does), every subchart is rendered, also a disabled one.
func renderManifests(cfg *helmv1alpha1.ProviderConfiguration, tpl *templated) ([]managedresource.Manifest, error) {
	files := tpl.files
	var out []managedresource.Manifest
	for _, crd := range tpl.chart.CRDObjects() {
		ms, err := manifestsOf(crd.Filename, string(crd.File.Data), managedresource.ManagePolicy)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		if !strings.HasSuffix(name, notesSuffix) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		ms, err := manifestsOf(name, files[name], managedresource.ManagePolicy)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	if cfg.CreateNamespace && cfg.Namespace != "" {
		out = append(out, namespaceManifest(cfg.Namespace))
	}
	return out, nil
}

// manifestsOf decodes the documents of one rendered file into manifests,
// leaving out what renderedDocuments leaves out.
func manifestsOf(file, content string, policy managedresource.ManifestPolicy) ([]managedresource.Manifest, error) {
	var objs []*unstructured.Unstructured
	for _, doc := range renderedDocuments(content) {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(doc); err != nil {
			return nil, fmt.Errorf("unable to decode rendered file %s: %w", file, err)
		}
		expanded, err := expandList(u)
		if err != nil {
			return nil, fmt.Errorf("unable to decode rendered file %s: %w", file, err)
		}
		objs = append(objs, expanded...)
	}
	out := make([]managedresource.Manifest, 0, len(objs))
	for _, u := range objs {
		raw, err := u.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("encode %s %s from %s: %w", u.GetKind(), u.GetName(), file, err)
		}
		out = append(out, managedresource.Manifest{Policy: policy, Manifest: &runtime.RawExtension{Raw: raw}})
	}
	return out, nil
}

// renderedDocuments splits a rendered file into its documents (as JSON) as
// Landscaper's DecodeObjectsToRawExtension does: a document that cannot be
// decoded, is empty, is no JSON object or has neither apiVersion nor kind
// is left out, so a template that renders plain text or YAML that is no
// Kubernetes object gives no object. A decoder that fails without reading on
// (a broken JSON stream, on which Landscaper's loop never ends) ends the
// file.
func renderedDocuments(content string) [][]byte {
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(content), 1024)
	var out [][]byte
	failures, maxFailures := 0, strings.Count(content, "\n")+1
	for {
		doc := &runtime.RawExtension{}
		if err := dec.Decode(doc); err != nil {
			if errors.Is(err, io.EOF) || failures >= maxFailures {
				return out
			}
			failures++ // each document that fails to decode has at least one line
			continue
		}
		failures = 0
		if len(doc.Raw) == 0 {
			continue
		}
		var meta runtime.TypeMeta
		if err := json.Unmarshal(doc.Raw, &meta); err != nil || meta.GroupVersionKind().Empty() {
			continue
		}
		out = append(out, doc.Raw)
	}
}

// namespaceManifest is the release Namespace, kept when the item goes.
func namespaceManifest(name string) managedresource.Manifest {
	raw := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, name)
	return managedresource.Manifest{Policy: managedresource.KeepPolicy, Manifest: &runtime.RawExtension{Raw: []byte(raw)}}
}
