// Package benchland writes the generated landscapes lscli's benchmarks run
// on: the flat shape (many roots, each rendering three mock deploy items in a
// dependsOn chain) and the chained shape of DESIGN.md's scale target (each
// root with nine subinstallations chained through data imports, each
// rendering three mock deploy items chained by dependsOn, with an export
// execution).
package benchland
