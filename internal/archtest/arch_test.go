package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/cairn-nav/cairn/"

// allowed lists, for each package of the module (by its directory), the
// packages of the module its non-test files may import: the arrows of
// ARCHITECTURE.md. A package missing here fails the test, so that a new
// one is placed on the map.
var allowed = map[string][]string{
	"core":                 {},
	"funnel":               {},
	"smooth":               {},
	"grid":                 {"core", "internal/bitset", "internal/unionfind"},
	"hpa":                  {"core", "grid", "internal/binfile", "internal/bitset", "internal/parallel", "internal/radix", "internal/unionfind"},
	"navmesh":              {"core", "funnel", "grid", "internal/binfile", "internal/parallel", "internal/radix", "navmesh/internal/bucket", "navmesh/internal/geom", "navmesh/internal/tri"},
	"navmesh/navjson":      {"navmesh"},
	"agent":                {"core", "grid", "hpa", "navmesh", "funnel", "smooth", "internal/radix"},
	"mapgen":               {"grid", "internal/unionfind"},
	"internal/archtest":    {},
	"internal/readmetest":  {},
	"internal/atomicfile":  {},
	"internal/baseline":    {"grid"},
	"internal/binfile":     {},
	"internal/unionfind":   {},
	"internal/radix":       {},
	"internal/bitset":      {},
	"internal/parallel":    {},
	"internal/gridcheck":   {"grid"},
	"internal/meshcheck":   {"navmesh"},
	"internal/testmap":     {"grid"},
	"cmd/internal/cli":     {},
	"cmd/internal/mapflag": {"grid"},
	"cmd/internal/picture": {"grid", "hpa", "navmesh", "internal/atomicfile"},
	"cmd/hpabuild":         {"cmd/internal/cli", "cmd/internal/mapflag", "cmd/internal/picture", "grid", "hpa", "internal/atomicfile"},
	"cmd/mapgen":           {"cmd/internal/cli", "grid", "mapgen", "internal/atomicfile", "internal/baseline"},
	"cmd/navbuild":         {"cmd/internal/cli", "cmd/internal/mapflag", "cmd/internal/picture", "grid", "navmesh", "navmesh/navjson", "internal/atomicfile"},
	"cmd/pathfind": {"agent", "cmd/internal/cli", "cmd/internal/mapflag", "cmd/internal/picture", "core", "grid", "hpa", "navmesh", "smooth", "mapgen",
		"internal/atomicfile", "internal/baseline", "internal/gridcheck", "internal/meshcheck"},

	"navmesh/internal/geom":   {},
	"navmesh/internal/bucket": {"navmesh/internal/geom"},
	"navmesh/internal/tri":    {"navmesh/internal/bucket", "navmesh/internal/geom"},
}

// forbiddenOutside lists imports no library package may have, whatever the
// table says: orb's GeoJSON (and the BSON driver it brings) stays out of
// navmesh.
var forbiddenOutside = map[string][]string{
	"github.com/paulmach/orb/geojson": {"navmesh/navjson"},
}

// TestImports parses the imports of every non-test Go file of the module
// and checks them against allowed.
func TestImports(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		want, ok := allowed[rel]
		if !ok {
			t.Errorf("package %s is not on the map: add it to ARCHITECTURE.md and to allowed", rel)
			return nil
		}
		seen[rel] = true
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if dirs, ok := forbiddenOutside[p]; ok && !slices.Contains(dirs, rel) {
				t.Errorf("%s imports %s, which only %v may", filepath.Base(path), p, dirs)
			}
			if !strings.HasPrefix(p, module) {
				continue
			}
			if p = strings.TrimPrefix(p, module); !slices.Contains(want, p) {
				t.Errorf("%s/%s imports %s: not an arrow of ARCHITECTURE.md", rel, filepath.Base(path), p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range allowed {
		if !seen[dir] {
			t.Errorf("package %s of the map has no Go files", dir)
		}
	}
}
