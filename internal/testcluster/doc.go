// Package testcluster runs a real kube-apiserver and etcd for tests, with
// controller-runtime's envtest, from the binaries that
// hack/build-test-cluster.sh builds from the Go module proxy.
//
// A test package that talks to the real apiserver starts it at most once,
// on the first test that asks, and stops it when its tests are done:
//
//	func TestMain(m *testing.M) { os.Exit(testcluster.Run(m)) }
//
//	func TestSomething(t *testing.T) {
//		tc := testcluster.Get(t) // skips, or fails under CI, without binaries
//		c := tc.Client          // a client.Client with admin rights
//		ns := tc.Namespace(t)   // a fresh namespace for this test
//	}
//
// The binaries are looked for in $KUBEBUILDER_ASSETS, else in
// ${LSCLI_TEST_CACHE:-$HOME/.cache/lscli-testcluster}/bin. When they are
// missing, Get skips the test with a message saying how to build them;
// when the environment variable CI is true it fails the test instead, so a
// CI run cannot pass without the real-cluster tests.
package testcluster
