// Package tarfs turns tar archives (plain or gzip-compressed) into
// read-only file systems and folders into tar archives, byte for byte the
// same on every machine: entries sorted, times zero, owners zero, modes
// 0644 and 0755, gzip without name or time. Component versions keep
// blueprints, charts and other local blobs as such archives.
package tarfs
