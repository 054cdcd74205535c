package output

import "testing"

// TestErrorHeadline checks which line of a lastError message one-line
// places (the wide table) show.
func TestErrorHeadline(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"timeout", "timeout"},
		{"apply failed\nensure CRDs are installed first", "apply failed"},
		{"\nOp: InstallHelmRelease - Reason: Install - Message: unable to install helm chart release: x",
			"unable to install helm chart release: x"},
		{"\ncreating 1 resource(s)\nOp: UpgradeHelmRelease - Reason: Update - Message: unable to upgrade helm chart release: y\nensure CRDs are installed first",
			"unable to upgrade helm chart release: y"},
		{"\nOp: odd", "Op: odd"},
		{"\nno error line", "no error line"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := errorHeadline(tt.msg); got != tt.want {
			t.Errorf("errorHeadline(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}
