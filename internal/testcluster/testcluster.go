package testcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/lscli/lscli/deployers/realcluster"
)

// Timeouts for starting and stopping each of etcd and kube-apiserver; a cold
// start on a 2-core machine takes a few seconds.
const (
	StartTimeout = 90 * time.Second
	StopTimeout  = 30 * time.Second
)

// Binaries are the programs the test cluster needs in BinDir.
var Binaries = []string{"etcd", "kube-apiserver"}

// Cluster is a running kube-apiserver with etcd.
type Cluster struct {
	// Config reaches the apiserver as an administrator.
	Config *rest.Config
	// Client is a client with realcluster.Scheme() for Config.
	Client *realcluster.Client
	// Kubeconfig is an administrator's kubeconfig with inline credentials, as
	// a Target would hold it.
	Kubeconfig []byte

	env *envtest.Environment
}

// BinDir is where the binaries are looked for: $KUBEBUILDER_ASSETS, else
// ${LSCLI_TEST_CACHE:-$HOME/.cache/lscli-testcluster}/bin.
func BinDir() string {
	if d := os.Getenv("KUBEBUILDER_ASSETS"); d != "" {
		return d
	}
	cache := os.Getenv("LSCLI_TEST_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "lscli-testcluster")
	}
	return filepath.Join(cache, "bin")
}

// ErrNoBinaries says that BinDir lacks a binary.
var ErrNoBinaries = errors.New("test cluster binaries are missing")

// missing returns ErrNoBinaries naming what is missing from dir, or nil.
func missing(dir string) error {
	for _, b := range Binaries {
		if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
			return fmt.Errorf("%w: no %s in %s; build them with hack/build-test-cluster.sh", ErrNoBinaries, b, dir)
		}
	}
	return nil
}

// Start starts etcd and kube-apiserver from BinDir; stop it with Stop.
func Start() (*Cluster, error) {
	dir := BinDir()
	if err := missing(dir); err != nil {
		return nil, err
	}
	env := &envtest.Environment{BinaryAssetsDirectory: dir,
		ControlPlaneStartTimeout: StartTimeout, ControlPlaneStopTimeout: StopTimeout}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("start test cluster from %s: %w", dir, err)
	}
	c := &Cluster{Config: cfg, env: env}
	if err := c.connect(); err != nil {
		_ = env.Stop()
		return nil, err
	}
	return c, nil
}

// connect makes the client and the administrator's kubeconfig.
func (c *Cluster) connect() error {
	user, err := c.env.AddUser(envtest.User{Name: "lscli-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return fmt.Errorf("add test cluster user: %w", err)
	}
	if c.Kubeconfig, err = user.KubeConfig(); err != nil {
		return fmt.Errorf("kubeconfig of test cluster user: %w", err)
	}
	c.Client, err = realcluster.NewClientForConfig(c.Config, nil)
	return err
}

// Stop stops kube-apiserver and etcd and removes their data.
func (c *Cluster) Stop() error { return c.env.Stop() }

// Namespace creates a namespace for t, named after it, and deletes it at the
// end of the test (a real apiserver without controllers only marks it).
func (c *Cluster) Namespace(t testing.TB) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "test-"}}
	ctx := context.Background()
	if err := c.Client.Create(ctx, ns); err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	t.Cleanup(func() { _ = c.Client.Delete(ctx, ns) })
	return ns.Name
}

// KubeconfigWithToken is a kubeconfig for the cluster whose user has the
// bearer token token, which the cluster does not know: a Target with an
// expired or revoked token, whose requests the cluster refuses (401).
func (c *Cluster) KubeconfigWithToken(t testing.TB, token string) []byte {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["c"] = &clientcmdapi.Cluster{Server: c.Config.Host, CertificateAuthorityData: c.Config.CAData}
	kc.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: token}
	kc.Contexts["c"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	kc.CurrentContext = "c"
	out, err := clientcmd.Write(*kc)
	if err != nil {
		t.Fatalf("write a kubeconfig with a token: %v", err)
	}
	return out
}

// required reports whether the test cluster must run: CI is true.
func required() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

var shared struct {
	once    sync.Once
	cluster *Cluster
	err     error
}

// Get returns the package's test cluster, starting it on the first call.
// Without binaries it skips t, or fails it when CI is true; a cluster that
// does not start fails t.
func Get(t testing.TB) *Cluster {
	t.Helper()
	shared.once.Do(func() { shared.cluster, shared.err = Start() })
	switch {
	case shared.err == nil:
		return shared.cluster
	case errors.Is(shared.err, ErrNoBinaries) && !required():
		t.Skipf("real-cluster test skipped: %v (CI=true makes this a failure)", shared.err)
	default:
		t.Fatalf("real-cluster test: %v", shared.err)
	}
	return nil
}

// Run runs the tests of m and then stops the test cluster if a test started
// it. It returns the exit code for os.Exit; a cluster that does not stop
// turns success into failure.
func Run(m *testing.M) int {
	code := m.Run()
	if shared.cluster != nil {
		if err := shared.cluster.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stop test cluster: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}
