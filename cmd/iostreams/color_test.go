package iostreams

import "testing"

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		name    string
		mode    string
		tty     bool
		env     map[string]string
		want    bool
		wantErr string
	}{
		{name: "auto tty", mode: "auto", tty: true, want: true},
		{name: "auto no tty", mode: "auto", tty: false, want: false},
		{name: "empty mode means auto tty", mode: "", tty: true, want: true},
		{name: "empty mode means auto no tty", mode: "", tty: false, want: false},
		{name: "always no tty", mode: "always", tty: false, want: true},
		{name: "always tty", mode: "always", tty: true, want: true},
		{name: "never tty", mode: "never", tty: true, want: false},
		{name: "never no tty", mode: "never", tty: false, want: false},

		{name: "auto tty NO_COLOR", mode: "auto", tty: true, env: map[string]string{"NO_COLOR": "1"}, want: false},
		{name: "auto tty NO_COLOR any value", mode: "auto", tty: true, env: map[string]string{"NO_COLOR": "false"}, want: false},
		{name: "auto tty NO_COLOR empty", mode: "auto", tty: true, env: map[string]string{"NO_COLOR": ""}, want: true},
		{name: "always wins over NO_COLOR", mode: "always", tty: false, env: map[string]string{"NO_COLOR": "1"}, want: true},
		{name: "never with CLICOLOR_FORCE", mode: "never", tty: true, env: map[string]string{"CLICOLOR_FORCE": "1"}, want: false},

		{name: "auto no tty CLICOLOR_FORCE", mode: "auto", tty: false, env: map[string]string{"CLICOLOR_FORCE": "1"}, want: true},
		{name: "auto no tty CLICOLOR_FORCE yes", mode: "auto", tty: false, env: map[string]string{"CLICOLOR_FORCE": "yes"}, want: true},
		{name: "auto no tty CLICOLOR_FORCE 0", mode: "auto", tty: false, env: map[string]string{"CLICOLOR_FORCE": "0"}, want: false},
		{name: "auto tty CLICOLOR_FORCE 0 keeps tty", mode: "auto", tty: true, env: map[string]string{"CLICOLOR_FORCE": "0"}, want: true},
		{name: "auto no tty CLICOLOR_FORCE empty", mode: "auto", tty: false, env: map[string]string{"CLICOLOR_FORCE": ""}, want: false},
		{name: "NO_COLOR wins over CLICOLOR_FORCE", mode: "auto", tty: true, env: map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, want: false},

		{name: "invalid mode", mode: "sometimes", wantErr: `invalid --color value "sometimes" (allowed: auto, always, never)`},
		{name: "modes are case sensitive", mode: "Always", wantErr: `invalid --color value "Always" (allowed: auto, always, never)`},
		{name: "invalid mode with NO_COLOR", mode: "x", env: map[string]string{"NO_COLOR": "1"}, wantErr: `invalid --color value "x" (allowed: auto, always, never)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			got, err := ColorEnabled(tt.mode, tt.tty, getenv)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("ColorEnabled(%q) error = %v, want %q", tt.mode, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ColorEnabled(%q) unexpected error: %v", tt.mode, err)
			}
			if got != tt.want {
				t.Errorf("ColorEnabled(%q, tty=%v, env=%v) = %v, want %v", tt.mode, tt.tty, tt.env, got, tt.want)
			}
		})
	}
}

func TestColorEnabledNilGetenv(t *testing.T) {
	for _, tty := range []bool{false, true} {
		got, err := ColorEnabled("auto", tty, nil)
		if err != nil || got != tty {
			t.Errorf("ColorEnabled(auto, %v, nil) = %v, %v; want %v, nil", tty, got, err, tty)
		}
	}
}
