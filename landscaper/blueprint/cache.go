package blueprint

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/memo"
)

// Cache reads the blueprints of installations, parsing each inline blueprint
// once per content: many installations share a blueprint (one blueprint
// rolled out many times, subinstallations of the same template) and every
// job reads it more than once. The blueprints it returns are shared, so
// nobody may change them. The zero value is ready to use; a Cache is safe
// for concurrent use.
type Cache struct {
	inline memo.Bounded[string, *Blueprint]
}

// ForInstallation is the package's ForInstallation, cached for inline
// blueprints.
func (c *Cache) ForInstallation(inst *lsv1alpha1.Installation, r Resolver) (*Blueprint, error) {
	inline := inst.Spec.Blueprint.Inline
	if inline == nil {
		return ForInstallation(inst, r)
	}
	key := string(inline.Filesystem.RawMessage)
	if bp, ok := c.inline.Get(key); ok {
		return bp, nil
	}
	bp, err := ForInstallation(inst, r)
	if err != nil {
		return nil, err
	}
	c.inline.Put(key, bp)
	return bp, nil
}
