package helm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// newGetClient returns the REST client helm's actions use through
// resource.Info.Client. Helm only reads the object with it (to find
// existing objects and check their release ownership), so every GET is
// answered with the object named key from c, whatever the URL, and any
// other verb is refused: writes go through kubeClient.
func newGetClient(ctx context.Context, c client.Client, m *meta.RESTMapping, key types.NamespacedName) (*rest.RESTClient, error) {
	gv := m.GroupVersionKind.GroupVersion()
	cfg := &rest.Config{Host: "http://target.lscli.invalid", APIPath: "/apis",
		ContentConfig: resource.UnstructuredPlusDefaultContentConfig()}
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.GroupVersion = &gv
	rt := &getTransport{ctx: ctx, c: c, mapping: m, key: key}
	rc, err := rest.RESTClientForConfigAndClient(cfg, &http.Client{Transport: rt})
	if err != nil {
		return nil, fmt.Errorf("REST client for %s: %w", m.GroupVersionKind.Kind, err)
	}
	return rc, nil
}

// getTransport serves GETs of one object from a controller-runtime client.
type getTransport struct {
	ctx     context.Context
	c       client.Client
	mapping *meta.RESTMapping
	key     types.NamespacedName
}

// RoundTrip answers req with the object, or with an API status error.
func (t *getTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	if req.Method != http.MethodGet {
		err := apierrors.NewMethodNotSupported(t.mapping.Resource.GroupResource(), req.Method)
		return statusResponse(req, err.Status())
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(t.mapping.GroupVersionKind)
	if err := t.c.Get(t.ctx, t.key, u); err != nil {
		if s, ok := err.(apierrors.APIStatus); ok {
			return statusResponse(req, s.Status())
		}
		return statusResponse(req, apierrors.NewInternalError(err).Status())
	}
	body, err := json.Marshal(u.Object)
	if err != nil {
		return nil, fmt.Errorf("encode %s %s: %w", u.GetKind(), u.GetName(), err)
	}
	return response(req, http.StatusOK, body), nil
}

// statusResponse is the HTTP response an API server sends for status s.
func statusResponse(req *http.Request, s metav1.Status) (*http.Response, error) {
	s.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}
	body, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	code := int(s.Code)
	if code == 0 {
		code = http.StatusInternalServerError
	}
	return response(req, code, body), nil
}

// response is a JSON response with code and body.
func response(req *http.Request, code int, body []byte) *http.Response {
	return &http.Response{StatusCode: code, Status: http.StatusText(code), Request: req,
		Header:     http.Header{"Content-Type": []string{"application/json"}},
		Body:       io.NopCloser(bytes.NewReader(body)),
		ProtoMajor: 1, ProtoMinor: 1}
}
