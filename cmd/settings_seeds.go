package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/lscli/lscli/deployers/simcluster"
)

// parseSeeds reads the config file's simulatedCluster.seeds: for each
// entry, the YAML files it names (relative to the config file at path),
// decoded and checked, and the paths of those files. Anything wrong is
// invalid input that names the entry, the file, the document and the
// object. version is simulatedCluster.kubernetesVersion, which decides the
// built-in API versions seeds may use.
func parseSeeds(path, version string, raws []json.RawMessage) ([]simcluster.Seed, []string, error) {
	seeds := make([]simcluster.Seed, 0, len(raws))
	var paths []string
	for i, raw := range raws {
		var cfg simcluster.SeedConfig
		if err := decodeStrict(raw, &cfg); err != nil {
			return nil, nil, invalidf("%s: simulatedCluster.seeds[%d]: %s", path, i, jsonMessage(err))
		}
		if len(cfg.Files) == 0 {
			return nil, nil, invalidf("%s: simulatedCluster.seeds[%d]: files: name at least one YAML file of objects", path, i)
		}
		files := make([]simcluster.SeedFile, len(cfg.Files))
		for j, name := range cfg.Files {
			p := name
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(path), filepath.FromSlash(name))
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, nil, invalidf("%s: simulatedCluster.seeds[%d]: files[%d]: %v", path, i, j, err)
			}
			files[j] = simcluster.SeedFile{Name: filepath.ToSlash(p), Data: data}
			paths = append(paths, p)
		}
		cfg.KubernetesVersion = version
		seed, err := simcluster.ParseSeed(cfg, files)
		if err != nil {
			return nil, nil, invalidf("%s: simulatedCluster.seeds[%d]: %v", path, i, err)
		}
		seeds = append(seeds, seed)
	}
	return seeds, paths, nil
}
