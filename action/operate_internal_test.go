package action

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// TestRootOfFollowsControllers: the root is the last controller up the
// chain; controllers that own each other in a cycle end the walk instead of
// running it forever.
func TestRootOfFollowsControllers(t *testing.T) {
	inst := func(name string, owner string) *lsv1alpha1.Installation {
		o := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID(name)}}
		if owner != "" {
			yes := true
			o.OwnerReferences = []metav1.OwnerReference{{Kind: "Installation", Name: owner, UID: types.UID(owner), Controller: &yes}}
		}
		return o
	}
	root, mid, leaf := inst("root", ""), inst("mid", "root"), inst("leaf", "mid")
	a, b, c := inst("a", "c"), inst("b", "a"), inst("c", "b")
	self := inst("self", "self")
	orphan := inst("orphan", "gone")
	objs := []fakecluster.Object{root, mid, leaf, a, b, c, self, orphan}
	for _, tc := range []struct{ obj, want fakecluster.Object }{
		{leaf, root}, {mid, root}, {root, root}, {orphan, orphan}, {self, self}, {b, c}, {a, b},
	} {
		if got := rootOf(objs, tc.obj); got != tc.want {
			t.Errorf("rootOf(%s) = %s, want %s", tc.obj.GetName(), got.GetName(), tc.want.GetName())
		}
	}
}
