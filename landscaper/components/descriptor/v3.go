package descriptor

import (
	"encoding/json"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

// v3Descriptor is a component descriptor in schema ocm.software/v3alpha1.
type v3Descriptor struct {
	APIVersion         string                          `json:"apiVersion"`
	Kind               string                          `json:"kind"`
	Metadata           v3Metadata                      `json:"metadata"`
	RepositoryContexts []*cdv2.UnstructuredTypedObject `json:"repositoryContexts"`
	Spec               v3Spec                          `json:"spec"`
	Signatures         []cdv2.Signature                `json:"signatures,omitempty"`
}

type v3Metadata struct {
	Name         string      `json:"name"`
	Version      string      `json:"version"`
	Labels       cdv2.Labels `json:"labels,omitempty"`
	Provider     v3Provider  `json:"provider"`
	CreationTime string      `json:"creationTime,omitempty"`
}

type v3Provider struct {
	Name   string      `json:"name"`
	Labels cdv2.Labels `json:"labels,omitempty"`
}

type v3Spec struct {
	Sources    []cdv2.Source             `json:"sources,omitempty"`
	References []cdv2.ComponentReference `json:"references,omitempty"`
	Resources  []v3Resource              `json:"resources,omitempty"`
}

// v3Resource is a resource in v3alpha1: as in v2, but the source references
// are srcRefs (OCM also reads srcRef).
type v3Resource struct {
	cdv2.IdentityObjectMeta `json:",inline"`
	Relation                cdv2.ResourceRelation         `json:"relation,omitempty"`
	SourceRefs              []cdv2.SourceRef              `json:"srcRefs,omitempty"`
	SourceRef               []cdv2.SourceRef              `json:"srcRef,omitempty"`
	Access                  *cdv2.UnstructuredTypedObject `json:"access"`
	Digest                  *cdv2.DigestSpec              `json:"digest,omitempty"`
}

// decodeV3 decodes a v3alpha1 document into the v2 model.
func decodeV3(js []byte) (*cdv2.ComponentDescriptor, error) {
	var d v3Descriptor
	if err := json.Unmarshal(js, &d); err != nil {
		return nil, err
	}
	cd := &cdv2.ComponentDescriptor{Signatures: d.Signatures}
	cd.Metadata.Version = SchemaV2
	cd.Name, cd.Version, cd.Labels = d.Metadata.Name, d.Metadata.Version, d.Metadata.Labels
	cd.CreationTime = d.Metadata.CreationTime
	cd.Provider = providerV2(d.Metadata.Provider)
	cd.RepositoryContexts = d.RepositoryContexts
	cd.Sources = d.Spec.Sources
	cd.ComponentReferences = d.Spec.References
	for _, r := range d.Spec.Resources {
		refs := r.SourceRefs
		if len(refs) == 0 {
			refs = r.SourceRef
		}
		cd.Resources = append(cd.Resources, cdv2.Resource{IdentityObjectMeta: r.IdentityObjectMeta,
			Relation: r.Relation, SourceRef: refs, Access: r.Access, Digest: r.Digest})
	}
	return cd, nil
}

// providerV2 is OCM's conversion of a provider to v2: its name, or its JSON
// when it has labels.
func providerV2(p v3Provider) cdv2.ProviderType {
	if len(p.Labels) == 0 {
		return cdv2.ProviderType(p.Name)
	}
	data, err := json.Marshal(p)
	if err != nil {
		return cdv2.ProviderType(p.Name)
	}
	return cdv2.ProviderType(data)
}

// providerV3 is the inverse of providerV2.
func providerV3(p cdv2.ProviderType) v3Provider {
	s := string(p)
	if strings.HasPrefix(strings.TrimSpace(s), "{") {
		var out v3Provider
		if json.Unmarshal([]byte(s), &out) == nil && out.Name != "" {
			return out
		}
	}
	return v3Provider{Name: s}
}

// toV3 converts the v2 model to a v3alpha1 document.
func toV3(cd *cdv2.ComponentDescriptor) *v3Descriptor {
	d := &v3Descriptor{APIVersion: SchemaV3, Kind: kindV3, Signatures: cd.Signatures,
		RepositoryContexts: cd.RepositoryContexts}
	if d.RepositoryContexts == nil {
		d.RepositoryContexts = []*cdv2.UnstructuredTypedObject{}
	}
	d.Metadata = v3Metadata{Name: cd.Name, Version: cd.Version, Labels: cd.Labels,
		CreationTime: cd.CreationTime, Provider: providerV3(cd.Provider)}
	d.Spec.Sources = cd.Sources
	d.Spec.References = cd.ComponentReferences
	for _, r := range cd.Resources {
		d.Spec.Resources = append(d.Spec.Resources, v3Resource{IdentityObjectMeta: r.IdentityObjectMeta,
			Relation: r.Relation, SourceRefs: r.SourceRef, Access: r.Access, Digest: r.Digest})
	}
	return d
}

// Provider returns the v2 provider of a provider with name and labels, as
// OCM converts it: the name, or the provider's JSON when it has labels.
func Provider(name string, labels cdv2.Labels) cdv2.ProviderType {
	return providerV2(v3Provider{Name: name, Labels: labels})
}
