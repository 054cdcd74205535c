package simcluster

import (
	"context"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ttlJob is a Job in default with ttlSecondsAfterFinished ttl ("" for
// none).
func ttlJob(name, ttl string) string {
	spec := `"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}`
	if ttl != "" {
		spec = `"ttlSecondsAfterFinished":` + ttl + `,` + spec
	}
	return `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"` + name + `","namespace":"default"},"spec":{` + spec + `}}`
}

// jobExists reports whether the Job default/name exists, read with c.
func jobExists(t *testing.T, c client.Client, name string) bool {
	t.Helper()
	err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: name}, &batchv1.Job{})
	if apierrors.IsNotFound(err) {
		return false
	}
	if err != nil {
		t.Fatalf("get Job %s: %v", name, err)
	}
	return true
}

// TestJobTTLAfterFinished: a Job that finished at t (a rule lets it run 10s)
// with ttlSecondsAfterFinished 30 is deleted at t+30s on the virtual clock,
// not before, as kube-controller-manager's TTL-after-finished controller
// deletes it; NextChange forecasts the deletion. A Job without a TTL and one
// that has not finished stay.
func TestJobTTLAfterFinished(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Job", Name: "slow*"}, Duration: "10s"})
	f.create(ttlJob("ttl", "30"), ttlJob("keep", ""), ttlJob("slow", "0"), ttlJob("slow-long", "5"))
	f.clock.Step(10 * time.Second)
	if !jobExists(t, f.c, "slow") {
		t.Fatalf("Job slow (ttl 0) gone in the instant it finished")
	}
	f.clock.Step(19 * time.Second)
	if !jobExists(t, f.c, "ttl") {
		t.Fatalf("Job ttl gone 29s after it finished, want it until 30s")
	}
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(30*time.Second)) {
		t.Errorf("NextChange = %v %v, want %v", next, ok, epoch.Add(30*time.Second))
	}
	f.clock.Step(time.Second)
	if jobExists(t, f.c, "ttl") {
		t.Errorf("Job ttl exists 30s after it finished, want it deleted")
	}
	if !jobExists(t, f.c, "keep") {
		t.Errorf("Job keep without ttlSecondsAfterFinished deleted")
	}
	// slow finished at 10s with TTL 0: gone at the next step after that;
	// slow-long at 15s.
	if jobExists(t, f.c, "slow") {
		t.Errorf("Job slow (ttl 0, finished at 10s) exists at 30s")
	}
	if jobExists(t, f.c, "slow-long") {
		t.Errorf("Job slow-long (ttl 5, finished at 10s) exists at 30s")
	}
}

// TestJobTTLNotBeforeFinished: a Job that does not finish (a rule makes it
// hang) stays whatever its TTL.
func TestJobTTLNotBeforeFinished(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Job"}, Hang: true})
	f.create(ttlJob("hung", "0"))
	f.clock.Step(time.Hour)
	if !jobExists(t, f.c, "hung") {
		t.Errorf("unfinished Job with ttl 0 deleted")
	}
	if _, ok := f.clusters.NextChange(f.target); ok {
		t.Errorf("NextChange forecasts a change for an unfinished Job")
	}
}

// TestJobTTLZeroSeenInTheInstantItFinished: a Job with TTL 0 completes the
// instant it is created here, where a real one runs for seconds: every
// client still sees it finished in that instant, as helm's watch and
// Landscaper's first readiness look see it on a real cluster; a later
// instant, or a later command (a restored cluster), finds it deleted.
func TestJobTTLZeroSeenInTheInstantItFinished(t *testing.T) {
	f := newFixture(t)
	f.create(ttlJob("certgen", "0"))
	job := &batchv1.Job{}
	if err := f.client().Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "certgen"}, job); err != nil {
		t.Fatalf("the Job is gone in the instant it finished: %v", err)
	}
	if !jobComplete(job) {
		t.Fatalf("Job certgen not complete: %+v", job.Status)
	}
	if _, ok := f.clusters.NextChange(f.target); ok {
		t.Errorf("NextChange forecasts the deletion of a Job whose TTL has expired")
	}
	g := f.restored()
	if jobExists(t, g.client(), "certgen") {
		t.Errorf("a later command sees the finished Job with ttl 0, want it deleted")
	}
	f.clock.Step(time.Nanosecond)
	if jobExists(t, f.c, "certgen") {
		t.Errorf("the Job with ttl 0 exists after the instant it finished")
	}
}

// TestJobTTLChangedReevaluates: raising the TTL of a finished Job moves its
// deletion, as the controller looks at the Job again on every update;
// lowering it to what has passed deletes it.
func TestJobTTLChangedReevaluates(t *testing.T) {
	f := newFixture(t)
	f.create(ttlJob("j", "10"))
	f.clock.Step(5 * time.Second)
	job := &batchv1.Job{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "j"}, job); err != nil {
		t.Fatal(err)
	}
	job.Spec.TTLSecondsAfterFinished = new(int32(100))
	if err := f.c.Update(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	f.clock.Step(10 * time.Second)
	if !jobExists(t, f.c, "j") {
		t.Fatalf("Job deleted at its old TTL after the TTL was raised to 100s")
	}
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(100*time.Second)) {
		t.Errorf("NextChange = %v %v, want %v", next, ok, epoch.Add(100*time.Second))
	}
	job.Spec.TTLSecondsAfterFinished = new(int32(1))
	if err := f.c.Update(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	if jobExists(t, f.client(), "j") {
		t.Errorf("Job whose TTL was lowered to 1s, 15s after it finished, exists")
	}
}

// TestJobTTLSurvivesSave: the deletion due is kept across a save and
// restore of the state.
func TestJobTTLSurvivesSave(t *testing.T) {
	f := newFixture(t)
	f.create(ttlJob("j", "60"))
	g := f.restored()
	g.c = g.client() // a deployer's call opens the cluster before the framework asks NextChange
	if next, ok := g.clusters.NextChange(g.target); !ok || !next.Equal(epoch.Add(time.Minute)) {
		t.Errorf("NextChange after restore = %v %v, want %v", next, ok, epoch.Add(time.Minute))
	}
	g.clock.Step(time.Minute)
	if jobExists(t, g.c, "j") {
		t.Errorf("restored Job exists after its TTL")
	}
}
