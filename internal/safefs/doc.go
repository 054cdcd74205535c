// Package safefs reads the host's files the way untrusted input may: only
// inside the folders the user named, whole regular files of bounded size.
//
// A [Policy] holds the roots lscli may read below: the landscape named on
// the command line, the working directory and the folders the config file
// maps. [Policy.Dir] is an fs.FS over a folder whose every open resolves
// symbolic links and refuses what then lies outside the roots, refuses
// files that are not regular (named pipes, devices, sockets: reading them
// could block forever or never end) without opening them for reading, and
// refuses files larger than the limit. Directories are listed as they are;
// a symbolic link in a listing stays a link (walks do not follow it).
//
//	p := safefs.NewPolicy(limits.Default.FileSize, ".", "../shared")
//	fsys := p.Dir("blueprints/app")
//	data, err := fs.ReadFile(fsys, "blueprint.yaml") // *OutsideError, *NotRegularError, *limits.Error
package safefs
