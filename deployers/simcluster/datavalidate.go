package simcluster

import (
	"encoding/json"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxDataSize is what kube-apiserver lets a Secret's data, or a
// ConfigMap's data and binaryData together, hold (core.MaxSecretSize, 1
// MiB): etcd's limit on a request is not much more. helm keeps each
// revision of a release in a Secret, the whole chart gzipped, so a chart
// with large templates or CRDs outside crds/ fails to install on a real
// cluster ("create: failed to create: Secret ... is invalid: data: Too
// long"), and here too.
const maxDataSize = 1 << 20

// validateData checks a Secret or ConfigMap being written as
// kube-apiserver's validation does (pkg/apis/core/validation ValidateSecret
// and ValidateConfigMap; k8s.io/kubernetes is not a dependency of lscli):
// every key a valid configuration key, the values within maxDataSize, a
// ConfigMap key in data and binaryData at most once, and the keys a
// Secret's type requires (kubernetes.io/tls: tls.crt and tls.key,
// dockerconfigjson and dockercfg: their key, holding JSON, basic-auth:
// username or password, ssh-auth: ssh-privatekey, service-account-token:
// the ServiceAccount's name annotation). It runs after stringData is
// merged into data, as the API server validates the decoded object. Keys
// are looked at in order, where the API server goes in map order. Other
// kinds pass (validateBuiltin hands an unstructured Secret over typed).
func validateData(obj runtime.Object) error {
	switch o := obj.(type) {
	case *corev1.Secret:
		return invalid("Secret", o.Name, secretErrors(o))
	case *corev1.ConfigMap:
		return invalid("ConfigMap", o.Name, configMapErrors(o))
	}
	return nil
}

// invalid is kube-apiserver's Invalid error of the core kind, or nil
// without errors.
func invalid(kind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(corev1.SchemeGroupVersion.WithKind(kind).GroupKind(), name, errs)
}

// secretErrors are the validation errors of s's data and type.
func secretErrors(s *corev1.Secret) field.ErrorList {
	data := field.NewPath("data")
	var errs field.ErrorList
	size := 0
	for _, k := range slices.Sorted(maps.Keys(s.Data)) {
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(data.Key(k), k, msg))
		}
		size += len(s.Data[k])
	}
	if size > maxDataSize {
		errs = append(errs, field.TooLong(data, "", maxDataSize))
	}
	has := func(k string) bool { _, ok := s.Data[k]; return ok }
	jsonIn := func(k string) {
		if !has(k) {
			errs = append(errs, field.Required(data.Key(k), ""))
			return
		}
		if err := json.Unmarshal(s.Data[k], &map[string]interface{}{}); err != nil {
			errs = append(errs, field.Invalid(data.Key(k), "<secret contents redacted>", err.Error()))
		}
	}
	switch s.Type {
	case corev1.SecretTypeServiceAccountToken:
		if s.Annotations[corev1.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key(corev1.ServiceAccountNameKey), ""))
		}
	case corev1.SecretTypeDockercfg:
		jsonIn(corev1.DockerConfigKey)
	case corev1.SecretTypeDockerConfigJson:
		jsonIn(corev1.DockerConfigJsonKey)
	case corev1.SecretTypeBasicAuth:
		if !has(corev1.BasicAuthUsernameKey) && !has(corev1.BasicAuthPasswordKey) {
			errs = append(errs, field.Required(data.Key(corev1.BasicAuthUsernameKey), ""),
				field.Required(data.Key(corev1.BasicAuthPasswordKey), ""))
		}
	case corev1.SecretTypeSSHAuth:
		if len(s.Data[corev1.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, field.Required(data.Key(corev1.SSHAuthPrivateKey), ""))
		}
	case corev1.SecretTypeTLS:
		for _, k := range []string{corev1.TLSCertKey, corev1.TLSPrivateKeyKey} {
			if !has(k) {
				errs = append(errs, field.Required(data.Key(k), ""))
			}
		}
	}
	return errs
}

// configMapErrors are the validation errors of c's data and binaryData.
func configMapErrors(c *corev1.ConfigMap) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for _, k := range slices.Sorted(maps.Keys(c.Data)) {
		p := field.NewPath("data").Key(k)
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(p, k, msg))
		}
		if _, dup := c.BinaryData[k]; dup {
			errs = append(errs, field.Invalid(p, k, "duplicate of key present in binaryData"))
		}
		size += len(c.Data[k])
	}
	for _, k := range slices.Sorted(maps.Keys(c.BinaryData)) {
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(k), k, msg))
		}
		size += len(c.BinaryData[k])
	}
	if size > maxDataSize {
		// The API server's path is empty: the error is the whole object's.
		errs = append(errs, field.TooLong(field.NewPath(""), "", maxDataSize))
	}
	return errs
}
