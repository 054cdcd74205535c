package simcluster

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

// statefulSetRevision is the name kube-controller-manager's StatefulSet
// controller gives the ControllerRevision of s's pod template
// (pkg/controller/statefulset newRevision and getPatch,
// pkg/controller/history HashControllerRevision and ControllerRevisionName;
// k8s.io/kubernetes is not a dependency of lscli): NAME-HASH, the hash
// FNV-1 (32 bit) over the revision's data, a patch that replaces
// spec.template (the template as JSON, keys sorted, with "$patch":
// "replace"), then the collision count in decimal, the sum encoded with
// rand.SafeEncodeString. Only the template counts, as stored (with the API
// server's defaults). The algorithm is the controller's; no test compares
// the names with a running kube-controller-manager.
func statefulSetRevision(s *appsv1.StatefulSet) string {
	raw, err := json.Marshal(s.Spec.Template)
	var tpl map[string]any
	if err == nil {
		err = json.Unmarshal(raw, &tpl)
	}
	if err != nil { // a typed template always encodes
		panic(fmt.Sprintf("simulated cluster: encode the template of StatefulSet %s: %v", s.Name, err))
	}
	tpl["$patch"] = "replace"
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"template": tpl}})
	if err != nil {
		panic(fmt.Sprintf("simulated cluster: encode the revision of StatefulSet %s: %v", s.Name, err))
	}
	h := fnv.New32()
	_, _ = h.Write(patch)
	var collisions int32
	if s.Status.CollisionCount != nil {
		collisions = *s.Status.CollisionCount
	}
	_, _ = h.Write([]byte(strconv.FormatInt(int64(collisions), 10)))
	prefix := s.Name
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return prefix + "-" + rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// statefulSetStatus is the status of s with n pods, ready of them ready,
// at the revisions the StatefulSet controller leaves them: with
// RollingUpdate (the default) it replaces every pod, so all run the update
// revision (the template's) and it is the current revision too. With
// OnDelete it creates missing pods (the ordinals from the status's
// replicas up) from the update revision and replaces none: the pods it ran
// keep their revision until someone deletes them (a simulated cluster has
// none to delete), so after a change of the template updatedReplicas
// counts only the pods created since. The current revision becomes the
// update revision once every pod runs it (kube-controller-manager's
// completeRollingUpdate for both strategies, since kubernetes#73492 was
// fixed). A new StatefulSet has all its pods at the update revision.
// Which pods a scale-down removes is not tracked: the highest ordinals
// are taken to be those of the update revision, then of interim ones,
// then of the current revision, the order in which they were created.
func statefulSetStatus(s *appsv1.StatefulSet, n, ready int32) appsv1.StatefulSetStatus {
	rev := statefulSetRevision(s)
	st := appsv1.StatefulSetStatus{ObservedGeneration: s.Generation, Replicas: n, ReadyReplicas: ready,
		CurrentReplicas: n, UpdatedReplicas: n, AvailableReplicas: ready,
		CurrentRevision: rev, UpdateRevision: rev, CollisionCount: s.Status.CollisionCount}
	old := s.Status
	// States saved before revisions were named by their template have
	// NAME-sim: their pods are taken to run the template as it is.
	if s.Spec.UpdateStrategy.Type != appsv1.OnDeleteStatefulSetStrategyType || old.CurrentRevision == "" ||
		old.CurrentRevision == s.Name+"-sim" {
		return st
	}
	// The pods the controller ran, by revision, less those a scale-down
	// removed (update revision first).
	current, updated := old.CurrentReplicas, int32(0)
	if old.UpdateRevision != old.CurrentRevision {
		updated = old.UpdatedReplicas
	}
	interim := max(old.Replicas-current-updated, 0)
	removed := max(old.Replicas-n, 0)
	for _, c := range []*int32{&updated, &interim, &current} {
		d := min(*c, removed)
		*c, removed = *c-d, removed-d
	}
	created := n - min(old.Replicas, n)
	st.UpdatedReplicas = created
	if old.UpdateRevision == rev {
		st.UpdatedReplicas += updated
	}
	if old.CurrentRevision == rev {
		st.UpdatedReplicas += current
	}
	if st.UpdatedReplicas == n {
		return st // every pod runs the update revision
	}
	st.CurrentRevision, st.CurrentReplicas = old.CurrentRevision, current
	if old.CurrentRevision == rev {
		st.CurrentReplicas = st.UpdatedReplicas
	}
	return st
}
