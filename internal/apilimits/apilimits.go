// Package apilimits holds the limits kube-apiserver and etcd, with their
// flags at the defaults, put on the size of what they store and read:
// lscli's own API server checks the Landscaper objects against them, the
// simulated clusters every object.
package apilimits

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// EtcdMaxRequestBytes is etcd's --max-request-bytes: a write whose
	// request is larger fails with "etcdserver: request is too large".
	EtcdMaxRequestBytes = 1572864
	// MaxRequestBodyBytes is kube-apiserver's --max-resource-write-bytes
	// (MaxRequestBodyBytes): a body larger is refused before it is read.
	MaxRequestBodyBytes = 3 * 1024 * 1024
	// EtcdRequestOverhead is what an etcd put transaction adds to the key
	// and the value (its compare, its operation and their framing).
	EtcdRequestOverhead = 64
)

// TooLargeForEtcd reports whether etcd refuses to store a value of
// valueBytes under key (the etcd key's path below the registry prefix):
// the put transaction names the key twice.
func TooLargeForEtcd(valueBytes int, key string) bool {
	return valueBytes+2*len(key)+EtcdRequestOverhead > EtcdMaxRequestBytes
}

// ErrRequestTooLarge is kube-apiserver's answer to a write etcd refused as
// too large: the storage's error as it is, status 500 with no reason
// (responsewriters.ErrorToAPIStatus of an error that is not a status).
func ErrRequestTooLarge() error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    500,
		Message: "etcdserver: request is too large",
	}}
}
