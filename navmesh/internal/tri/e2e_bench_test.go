package tri_test

import (
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/paulmach/orb"
)

// BenchmarkFromPolygons times package navmesh's FromPolygons end to end
// (checking the input, triangulating, merging, indexing) on the largest
// inputs of BenchmarkTriangulate, to set its figures beside.
func BenchmarkFromPolygons(b *testing.B) {
	inputs := tri.BenchInputs()
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var mp orb.MultiPolygon
		n := 0
		for _, rings := range inputs[name] {
			var pg orb.Polygon
			for _, r := range rings {
				ring := make(orb.Ring, len(r))
				for i, p := range r {
					ring[i] = orb.Point{p[0], p[1]}
				}
				pg = append(pg, ring)
				n += len(r)
			}
			mp = append(mp, pg)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := navmesh.FromPolygons(mp, navmesh.Options{})
				if err != nil || m.NumPolys() == 0 {
					b.Fatalf("%v, %d polygons", err, m.NumPolys())
				}
			}
			b.ReportMetric(float64(n), "vertices")
		})
	}
}
