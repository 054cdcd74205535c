// Package deployitem is the landscaper side of the deployer contract: the
// deploy item controller fails items that no deployer picked up within the
// pickup timeout (reason PickupTimeout, code ERR_TIMEOUT). The deployer side
// is package deployers.
package deployitem
