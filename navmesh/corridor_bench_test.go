package navmesh_test

import (
	"cmp"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// BenchmarkCorridor runs the 10 longest scenarios of each map in turn,
// between cell centres, with the exact search (the baseline), the corridor
// search, and the corridor search with shortcuts, on one searcher. It
// reports the expansions per query and the mean excess of the paths over
// the exact search's, in per cent.
func BenchmarkCorridor(b *testing.B) {
	for _, name := range []string{"den520d.map", "Berlin_0_1024.map", "maze512-1-0.map", "random512-10-0.map", "8room_000.map"} {
		g, scens := longestScenarios(b, name)
		s := navmesh.NewSearcher(mustMesh(b, g))
		exact := exactLengths(b, s, scens)
		for _, kind := range []struct {
			name string
			q    navmesh.Query
		}{{"exact", navmesh.Query{}}, {"corridor", corridorQ}, {"corridor-shortcut", shortcutQ}} {
			b.Run(name+"/"+kind.name, func(b *testing.B) { benchScenarios(b, s, scens, exact, kind.q) })
		}
	}
}

// BenchmarkCorridorTiles runs the 10 longest scenarios of Berlin_0_1024
// on its mesh in tiles of 64, with the tables filled, by the corridor
// search over the tiles and by the flat one (the least distance for the
// tiles set out of reach), on one searcher. It reports the expansions per
// query and the mean excess of the paths over the exact search's, in per
// cent.
func BenchmarkCorridorTiles(b *testing.B) {
	g, scens := longestScenarios(b, "Berlin_0_1024.map")
	m := tiledMesh(b, g, 64)
	m.FillCorridorTables()
	s := navmesh.NewSearcher(m)
	exact := exactLengths(b, s, scens)
	for _, mode := range []string{"tiles", "flat"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "flat" {
				defer navmesh.SetCorridorTileRange(1e300)()
			}
			benchScenarios(b, s, scens, exact, corridorQ)
			if navmesh.CorridorOverTiles(s) != (mode == "tiles") {
				b.Fatalf("%s: the last query ran over the tiles: %v", mode, navmesh.CorridorOverTiles(s))
			}
		})
	}
}

// benchScenarios times queries q between the centres of scens' ends on
// s, in turn, after one round to grow the scratch, and reports the
// expansions per query and the mean excess over the lengths exact, in per
// cent; a path shorter than its exact length fails the benchmark.
func benchScenarios(b *testing.B, s *navmesh.Searcher, scens []grid.Scenario, exact []float64, q navmesh.Query) {
	path := make([]mgl64.Vec2, 0, 256)
	for _, sc := range scens {
		path, _, _ = s.AppendPath(path[:0], centre(sc.Start), centre(sc.Goal), q)
	}
	b.ReportAllocs()
	i, expanded, excess := 0, 0, 0.0
	for b.Loop() {
		k := i % len(scens)
		sc := scens[k]
		i++
		var res navmesh.Result
		path, res, _ = s.AppendPath(path[:0], centre(sc.Start), centre(sc.Goal), q)
		if res.Length < exact[k]*(1-1e-9) || len(path) < 2 {
			b.Fatalf("%v→%v: length %v, exact %v", sc.Start, sc.Goal, res.Length, exact[k])
		}
		expanded += res.Expanded
		excess += res.Length/exact[k] - 1
	}
	b.ReportMetric(float64(expanded)/float64(i), "expanded/op")
	b.ReportMetric(100*excess/float64(i), "excess%")
}

// longestScenarios returns the grid of Moving AI map name and its 10
// longest scenarios, longest first.
func longestScenarios(b *testing.B, name string) (*grid.Grid, []grid.Scenario) {
	g, scens := testmap.MovingAI(b, name)
	scens = slices.Clone(scens)
	slices.SortStableFunc(scens, func(x, y grid.Scenario) int { return cmp.Compare(y.Optimal, x.Optimal) })
	return g, scens[:10]
}

// exactLengths returns the exact search's lengths of scens on s, between
// the centres of their ends.
func exactLengths(b *testing.B, s *navmesh.Searcher, scens []grid.Scenario) []float64 {
	exact := make([]float64, len(scens))
	for i, sc := range scens {
		_, res, err := s.AppendPath(nil, centre(sc.Start), centre(sc.Goal), navmesh.Query{})
		if err != nil {
			b.Fatal(err)
		}
		exact[i] = res.Length
	}
	return exact
}
