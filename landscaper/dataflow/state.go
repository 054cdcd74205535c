package dataflow

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base32"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// State key prefixes: deploy and subinstallation executions use
// statePrefixDeploy, export executions statePrefixExport.
const (
	statePrefixDeploy = "deploy"
	statePrefixExport = "export"
)

// StateSecretName returns the name of the Secret that keeps the state of
// the execution named exec of inst, prefix being "deploy" (deploy and
// subinstallation executions) or "export": base32(sha1("<inst>/<prefix><exec>")).
func StateSecretName(inst *lsv1alpha1.Installation, prefix, exec string) string {
	sum := sha1.Sum([]byte(inst.Name + "/" + prefix + exec))
	return base32.NewEncoding(helper.Base32EncodeStdLowerCase).WithPadding(base32.NoPadding).EncodeToString(sum[:])
}

// loadState returns the stored state of an execution, nil if none.
func loadState(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, prefix, exec string) ([]byte, error) {
	s := &corev1.Secret{}
	key := types.NamespacedName{Namespace: inst.Namespace, Name: StateSecretName(inst, prefix, exec)}
	err := r.Get(ctx, key, s)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, about(inst, err, "read state of %s execution %q: %w", prefix, exec, err)
	}
	return s.Data[lsv1alpha1.DataObjectSecretDataKey], nil
}

// storeState writes data, the state of the execution named exec, into its
// Secret, controlled by inst. It writes nothing when the state did not
// change.
func storeState(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, prefix, exec string, data []byte) error {
	s := &corev1.Secret{}
	key := types.NamespacedName{Namespace: inst.Namespace, Name: StateSecretName(inst, prefix, exec)}
	err := c.Get(ctx, key, s)
	switch {
	case apierrors.IsNotFound(err):
		s = &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace,
			OwnerReferences: []metav1.OwnerReference{ControllerRef(inst, "Installation")}},
			Data: map[string][]byte{lsv1alpha1.DataObjectSecretDataKey: data}}
		err = c.Create(ctx, s)
	case err == nil && !bytes.Equal(s.Data[lsv1alpha1.DataObjectSecretDataKey], data):
		s.Data = map[string][]byte{lsv1alpha1.DataObjectSecretDataKey: data}
		err = c.Update(ctx, s)
	}
	if err != nil {
		return about(inst, err, "store state of %s execution %q: %w", prefix, exec, err)
	}
	return nil
}

// ownerRef is a plain owner reference to inst, as Landscaper puts on the
// DataObjects and Targets an installation writes.
func ownerRef(inst *lsv1alpha1.Installation) metav1.OwnerReference {
	ref := ControllerRef(inst, "Installation")
	ref.Controller, ref.BlockOwnerDeletion = nil, nil
	return ref
}
