package realcluster_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// kubeconfig is a kubeconfig for server whose user has the given fields.
func kubeconfig(user string) string {
	return `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: https://127.0.0.1:6443
    insecure-skip-tls-verify: true
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
users:
- name: u
  user:
` + user
}

var tokenKubeconfig = kubeconfig("    token: abc\n")

func TestValidateKubeconfig(t *testing.T) {
	tests := []struct {
		name, user, wantErr string
	}{
		{name: "token", user: "    token: abc\n"},
		{name: "inline certificate", user: "    client-certificate-data: Zm9v\n    client-key-data: YmFy\n"},
		{name: "basic auth", user: "    username: a\n    password: b\n"},
		{name: "certificate file", user: "    client-certificate: /etc/cert.pem\n", wantErr: "client certificate files are not supported"},
		{name: "key file", user: "    client-key: /etc/key.pem\n", wantErr: "client key files are not supported"},
		{name: "token file", user: "    tokenFile: /var/token\n", wantErr: "token files are not supported"},
		{name: "impersonation", user: "    token: abc\n    as: admin\n", wantErr: "impersonation is not supported"},
		{name: "auth provider", user: "    auth-provider:\n      name: oidc\n", wantErr: "auth provider configurations are not supported"},
		{name: "exec", user: "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: gcloud\n",
			wantErr: `exec configurations are not supported in a target kubeconfig (user "u")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := realcluster.ValidateKubeconfig([]byte(kubeconfig(tt.user)))
			checkErr(t, err, tt.wantErr)
		})
	}
	t.Run("not a kubeconfig", func(t *testing.T) {
		checkErr(t, realcluster.ValidateKubeconfig([]byte("{[")), "unable to parse kubeconfig")
	})
}

// checkErr fails t unless err contains want (or is nil when want is empty).
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("error = %v, want it to contain %q", err, want)
	}
}

// target is a kubernetes-cluster Target with config (JSON) or secretRef.
func target(config any, ref *lsv1alpha1.LocalSecretReference) *lsv1alpha1.Target {
	tg := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "cluster"},
		Spec: lsv1alpha1.TargetSpec{Type: realcluster.TargetType, SecretRef: ref}}
	if config != nil {
		raw, _ := json.Marshal(config)
		tg.Spec.Configuration = &lsv1alpha1.AnyJSON{RawMessage: raw}
	}
	return tg
}

func TestKubeconfig(t *testing.T) {
	ctx := context.Background()
	store := fakecluster.New(fakecluster.Options{})
	for name, data := range map[string]map[string][]byte{
		"config": {"config": []byte("kubeconfig: |\n" + indent(tokenKubeconfig))},
		"bare":   {"kubeconfig": []byte(tokenKubeconfig)},
		"nokey":  {"kubeconfig": []byte(tokenKubeconfig)},
		"exec":   {"kubeconfig": []byte(kubeconfig("    exec:\n      command: x\n"))},
	} {
		sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: name}, Data: data}
		if err := store.Create(ctx, sec); err != nil {
			t.Fatal(err)
		}
	}
	wrongType := target(map[string]any{"kubeconfig": tokenKubeconfig}, nil)
	wrongType.Spec.Type = "landscaper.gardener.cloud/mock"
	tests := []struct {
		name     string
		target   *lsv1alpha1.Target
		wantErr  string
		terminal bool
	}{
		{name: "config string", target: target(map[string]any{"kubeconfig": tokenKubeconfig}, nil)},
		{name: "config inline object", target: target(map[string]any{"kubeconfig": map[string]any{
			"apiVersion": "v1", "kind": "Config", "users": []any{map[string]any{"name": "u", "user": map[string]any{"token": "x"}}}}}, nil)},
		{name: "secretRef with target config", target: target(nil, &lsv1alpha1.LocalSecretReference{Name: "config", Key: "config"})},
		{name: "secretRef with bare kubeconfig", target: target(nil, &lsv1alpha1.LocalSecretReference{Name: "bare", Key: "kubeconfig"})},
		{name: "secretRef without key", target: target(nil, &lsv1alpha1.LocalSecretReference{Name: "nokey"})},
		{name: "no target", wantErr: "the deploy item has no target", terminal: true},
		{name: "wrong type", target: wrongType, wantErr: `has type "landscaper.gardener.cloud/mock"`, terminal: true},
		{name: "no config", target: target(nil, nil), wantErr: "has neither config nor secretRef", terminal: true},
		{name: "oidc", target: target(map[string]any{"oidcConfig": map[string]any{"server": "x"}}, nil),
			wantErr: "has no kubeconfig", terminal: true},
		{name: "exec in secret", target: target(nil, &lsv1alpha1.LocalSecretReference{Name: "exec", Key: "kubeconfig"}),
			wantErr: "exec configurations are not supported", terminal: true},
		{name: "missing key", target: target(nil, &lsv1alpha1.LocalSecretReference{Name: "bare", Key: "nope"}),
			wantErr: "key nope in secret example/bare", terminal: true},
		{name: "missing secret", target: target(nil, &lsv1alpha1.LocalSecretReference{Name: "gone", Key: "k"}),
			wantErr: "read secret example/gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kc, err := realcluster.Kubeconfig(ctx, tt.target, store)
			checkErr(t, err, tt.wantErr)
			if err != nil {
				if got := reconcile.IsTerminal(err); got != tt.terminal {
					t.Errorf("terminal = %v, want %v", got, tt.terminal)
				}
				return
			}
			if !strings.Contains(string(kc), "token") {
				t.Errorf("kubeconfig = %s, want the user's token", kc)
			}
		})
	}
}

func TestForTargetCachesClients(t *testing.T) {
	cs := realcluster.New(realcluster.Options{})
	tg := target(map[string]any{"kubeconfig": tokenKubeconfig}, nil)
	a, err := cs.ForTarget(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cs.ForTarget(context.Background(), tg.DeepCopy())
	if a != b {
		t.Error("the same kubeconfig gave two clients")
	}
	if _, ok := a.(*realcluster.Client); !ok {
		t.Errorf("client is %T, want *realcluster.Client", a)
	}
	_, err = cs.ForTarget(context.Background(), nil)
	if !reconcile.IsTerminal(err) {
		t.Errorf("nil target: err = %v, want a terminal error", err)
	}
}

// indent indents every line of s by two spaces.
func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}
