package fakecluster

import (
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// nameAttempts bounds the retries when a generated name or uid is taken.
const nameAttempts = 100

// generateName returns the name of attempt number attempt for obj of kind
// gk: its generateName plus a suffix derived from the kind, the namespace
// and the owner (the controller, else the first owner reference), so that
// the children of different owners with the same generateName get different
// names, whatever else exists.
func (c *Cluster) generateName(gk schema.GroupKind, obj Object, attempt int) string {
	owner := ""
	refs := obj.GetOwnerReferences()
	if ref := ControllerOf(obj); ref != nil {
		owner = ref.Kind + "/" + ref.Name
	} else if len(refs) > 0 {
		owner = refs[0].Kind + "/" + refs[0].Name
	}
	return c.ids.GenerateName(obj.GetGenerateName(), gk.String(), obj.GetNamespace(), owner, strconv.Itoa(attempt))
}

// newUID returns the uid of attempt number attempt for obj of kind gk,
// derived from its kind, namespace, name and creation time.
func (c *Cluster) newUID(gk schema.GroupKind, obj Object, attempt int) types.UID {
	created := obj.GetCreationTimestamp().UTC().Format(time.RFC3339Nano)
	return types.UID(c.ids.UUID("uid", gk.String(), obj.GetNamespace(), obj.GetName(), created, strconv.Itoa(attempt)))
}
