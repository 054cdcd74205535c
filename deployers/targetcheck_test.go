package deployers

import "testing"

// TestCheckTargetKubeconfig: the kubeconfigs Landscaper's validateKubeconfig
// refuses, with its messages, and what it lets through.
func TestCheckTargetKubeconfig(t *testing.T) {
	const fields = ", the valid fields are: [client-certificate-data client-key-data token username password]"
	kubeconfig := func(user string) string {
		return "apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user: " + user + "\n"
	}
	tests := []struct{ user, want string }{
		{`{token: abc}`, ""},
		{`{client-certificate-data: YQ==, client-key-data: YQ==}`, ""},
		{`{username: a, password: b}`, ""},
		{`{client-certificate: /etc/cert}`, `client certificate files are not supported in a target kubeconfig (user "u")` + fields},
		{`{client-key: /etc/key}`, `client key files are not supported in a target kubeconfig (user "u")` + fields},
		{`{tokenFile: /var/run/token}`, `token files are not supported in a target kubeconfig (user "u")` + fields},
		{`{as: admin}`, `impersonation is not supported in a target kubeconfig` + fields},
		{`{as-groups: [system:masters]}`, `impersonation is not supported in a target kubeconfig` + fields},
		{`{auth-provider: {name: gcp, config: {a: b}}}`, `auth provider configurations are not supported in a target kubeconfig (user "u")` + fields},
		// Landscaper refuses an auth provider only with a configuration.
		{`{auth-provider: {name: gcp}}`, ""},
		{`{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: kubectl}}`, `exec configurations are not supported in a target kubeconfig (user "u")` + fields},
	}
	for _, tt := range tests {
		err := checkTargetKubeconfig([]byte(kubeconfig(tt.user)))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("user %s: got %q, want %q", tt.user, got, tt.want)
		}
	}
	// A kubeconfig that does not parse is a placeholder of a simulated cluster.
	if err := checkTargetKubeconfig([]byte("dummy")); err != nil {
		t.Errorf("placeholder: %v", err)
	}
}
