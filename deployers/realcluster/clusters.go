package realcluster

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/fakecluster"
)

// Options configure Clusters. Zero values mean the defaults.
type Options struct {
	// Secrets reads the Secrets that Targets name in spec.secretRef (the lscli
	// API server). Nil makes a secretRef an error.
	Secrets fakecluster.Reader
	// Scheme maps Go types to kinds for the clients. Nil means Scheme().
	Scheme *runtime.Scheme
}

// Clusters gives the client of the real cluster behind a Target. It keeps
// one client per distinct kubeconfig. It is safe for concurrent use.
type Clusters struct {
	opts    Options
	mu      sync.Mutex
	clients map[[sha256.Size]byte]*Client
}

var _ deployer.ClusterClients = (*Clusters)(nil)

// New returns Clusters with opts.
func New(opts Options) *Clusters {
	if opts.Scheme == nil {
		opts.Scheme = Scheme()
	}
	return &Clusters{opts: opts, clients: map[[sha256.Size]byte]*Client{}}
}

// ForTarget returns the client (a *Client) for target's cluster. A Target
// that is missing, of another type, or with an unusable kubeconfig is a
// terminal error; connecting happens lazily, on the first request.
func (cs *Clusters) ForTarget(ctx context.Context, target *lsv1alpha1.Target) (client.Client, error) {
	kubeconfig, err := Kubeconfig(ctx, target, cs.opts.Secrets)
	if err != nil {
		return nil, err
	}
	key := sha256.Sum256(kubeconfig)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c, ok := cs.clients[key]; ok {
		return c, nil
	}
	c, err := NewClient(kubeconfig, cs.opts.Scheme)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", target.Name, err)
	}
	cs.clients[key] = c
	return c, nil
}

// Scheme is client-go's scheme plus CustomResourceDefinitions.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(apiextensionsv1.AddToScheme(s))
	return s
}

// Client is a controller-runtime client of a real cluster that also tells
// the cluster's version and REST configuration.
type Client struct {
	client.Client
	config    *rest.Config
	discovery discovery.ServerVersionInterface

	mu      sync.Mutex
	version *version.Info
}

// NewClient returns the client for the cluster of kubeconfig, which must pass
// ValidateKubeconfig. scheme nil means Scheme().
func NewClient(kubeconfig []byte, scheme *runtime.Scheme) (*Client, error) {
	if err := ValidateKubeconfig(kubeconfig); err != nil {
		return nil, err
	}
	cfg, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("unable to create rest config from kubeconfig: %w", err)
	}
	// client-go's default of 5 requests/s made one manifest apply take seconds;
	// kubectl allows 50/s with bursts of 300.
	cfg.QPS, cfg.Burst = 50, 300
	return NewClientForConfig(cfg, scheme)
}

// NewClientForConfig returns the client for the cluster of cfg. scheme nil
// means Scheme().
func NewClientForConfig(cfg *rest.Config, scheme *runtime.Scheme) (*Client, error) {
	if scheme == nil {
		scheme = Scheme()
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("create client for %s: %w", cfg.Host, err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create discovery client for %s: %w", cfg.Host, err)
	}
	return &Client{Client: c, config: rest.CopyConfig(cfg), discovery: dc}, nil
}

// ServerVersion returns the cluster's version from discovery; the first
// answer is kept, a failure is not.
func (c *Client) ServerVersion() (*version.Info, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != nil {
		return c.version, nil
	}
	v, err := c.discovery.ServerVersion()
	if err != nil {
		return nil, fmt.Errorf("get server version of %s: %w", c.config.Host, err)
	}
	c.version = v
	return v, nil
}

// RESTConfig returns a copy of the client's REST configuration.
func (c *Client) RESTConfig() *rest.Config { return rest.CopyConfig(c.config) }
