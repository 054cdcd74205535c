// Package source reads component versions from local sources, offline:
// Landscaper's local repositories (repository context type local, a folder
// of component descriptors with a blobs folder) and inline repositories
// (type inline), component archives and common transport format (CTF)
// folders and tar files as the ocm CLI writes them, single component
// descriptor files, the inline component descriptors of installations, and
// OCM component-constructor files, whose component versions lscli builds in
// memory from the folders their inputs name.
//
// Every source reads through an fs.FS confined to a folder lscli may read
// (a landscape folder, or one that the config file maps): a path that
// leaves it is an error. Discover finds the sources inside a folder.
package source
