// Package deletion deletes managed objects the way Landscaper's manifest and
// helm deployers do (pkg/deployer/lib/resourcemanager in Landscaper): policy
// filtering, the annotateBeforeDelete and patchBeforeDelete hooks, and
// deletion groups.
//
// # Deletion groups
//
// Objects are deleted group by group; a group starts only when every object
// of the previous one is gone. Without definitions the groups are
// namespaced-resources, cluster-scoped-resources, crds (DefaultGroups). A
// predefined group is one of namespaced-resources (not a CRD, namespace set),
// cluster-scoped-resources (not a CRD, no namespace, so Namespaces are here),
// crds, or empty (matches nothing). A custom group lists resource types
// (apiVersion and kind compared as exact strings, optional names and
// namespaces). Each object goes to the first group that matches it; objects
// that no group matches are not deleted. forceDelete clears the finalizers of
// an object after deleting it. deleteAllResources deletes every object of the
// group's types in the cluster (all namespaces unless restricted), and with
// targetName in the cluster of another Target (only together with
// deleteAllResources; such a group matches no managed object).
//
// Landscaper lists a deleteAllResources group's objects once, when it
// reaches the group, and never returns to a finished group; lscli's later
// passes of the same deletion (Groups.Resumed) list it again, and find
// nothing left when a later group deleted the group's CRDs (Strimzi's and
// ECK's uninstall delete their custom resources first and the CRDs last).
//
// Groups.Delete makes one pass, as one turn of Landscaper's loop: it deletes
// the objects of the first unfinished group and reports them as remaining
// until a later delete finds them gone. Landscaper sleeps a second between
// turns (PollInterval). Groups.Settle makes the turns at once for as long as
// they make progress, so objects that go away when deleted cost no virtual
// time, and returns when the remaining objects are stuck (held by
// finalizers); the caller polls again on the virtual clock. Like Landscaper,
// an object whose delete fails with another error stays remaining, so the
// deploy item times out rather than failing at once.
package deletion
