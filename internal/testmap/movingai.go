package testmap

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// MovingAIDir returns the folder of the Moving AI benchmark maps, which
// lives outside the repository: the folder that the environment variable
// CAIRN_MOVINGAI names when it is set, else shared/benchmarks/movingai
// beside the folder holding go.mod, found by walking up from the working
// directory (a package's folder under go test). It returns "" when there
// is no such folder; tests that need it skip then.
func MovingAIDir() string {
	if d := os.Getenv("CAIRN_MOVINGAI"); d != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "benchmarks", "movingai")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// MovingAI loads the benchmark map name (such as "den520d.map") and its
// scenario file from [MovingAIDir], skipping tb when the folder or the map
// is absent and failing it when they do not load.
func MovingAI(tb testing.TB, name string) (*grid.Grid, []grid.Scenario) {
	tb.Helper()
	dir := MovingAIDir()
	if dir == "" {
		tb.Skip("Moving AI benchmark folder not found beside the repository")
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("Moving AI map absent: %v", err)
	}
	g, err := grid.LoadMap(path, grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	scens, err := grid.LoadScenarios(path + ".scen")
	if err != nil {
		tb.Fatal(err)
	}
	return g, scens
}
