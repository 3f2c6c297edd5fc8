package navmesh_test

import (
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// TestMovingAIScenarios runs every 20th scenario of den520d (every 50th of
// Berlin_0_1024) between cell centres: each path is legal and no longer
// than the octile optimum the scenario gives.
func TestMovingAIScenarios(t *testing.T) {
	for _, tc := range []struct {
		name  string
		every int
	}{{"den520d.map", 20}, {"Berlin_0_1024.map", 50}} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "den520d.map" {
				t.Skip("short")
			}
			g, scens := testmap.MovingAI(t, tc.name)
			q := navmesh.NewSearcher(mustMesh(t, g))
			var all ratios
			var path []mgl64.Vec2
			for i := 0; i < len(scens); i += tc.every {
				sc := scens[i]
				from, to := centre(sc.Start), centre(sc.Goal)
				var res navmesh.Result
				var err error
				path, res, err = q.AppendPath(path[:0], from, to, navmesh.Query{})
				if err != nil || res.Status != core.Found {
					t.Fatalf("scenario %d: %v, %v", i, res.Status, err)
				}
				length, err := checkPath(g, path, from, to)
				if err != nil {
					t.Fatalf("scenario %d %v→%v: %v\npath %v", i, sc.Start, sc.Goal, err, path)
				}
				if length > sc.Optimal+1e-6 {
					t.Fatalf("scenario %d %v→%v: length %v, octile optimum %v\npath %v", i, sc.Start, sc.Goal, length, sc.Optimal, path)
				}
				if sc.Optimal > 0 {
					all.add(length / sc.Optimal)
				}
			}
			t.Logf("%d scenarios: length/octile mean %.4f, max %.4f", all.n, all.mean(), all.max)
		})
	}
}

func BenchmarkFromGrid(b *testing.B) {
	for _, name := range []string{"den520d.map", "Berlin_0_1024.map"} {
		b.Run(name, func(b *testing.B) {
			g, _ := testmap.MovingAI(b, name)
			b.ReportAllocs()
			var m *navmesh.Mesh
			for b.Loop() {
				var err error
				if m, err = navmesh.FromGrid(g, navmesh.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(m.NumPolys()), "polygons")
			b.ReportMetric(float64(m.NumPortals()), "portals")
		})
	}
}

// BenchmarkQuery runs the 10 longest scenarios of each map in turn, between
// cell centres, on the convex mesh and on the mesh of rectangles; the
// grid's jump point search on the same scenarios runs beside them as the
// baseline.
func BenchmarkQuery(b *testing.B) {
	for _, name := range []string{"den520d.map", "Berlin_0_1024.map", "maze512-1-0.map", "random512-10-0.map"} {
		g, scens := testmap.MovingAI(b, name)
		scens = slices.Clone(scens)
		slices.SortStableFunc(scens, func(x, y grid.Scenario) int {
			switch {
			case x.Optimal > y.Optimal:
				return -1
			case x.Optimal < y.Optimal:
				return 1
			}
			return 0
		})
		scens = scens[:10]
		for _, kind := range []string{"navmesh", "navmesh-rectangles"} {
			b.Run(name+"/"+kind, func(b *testing.B) {
				m, err := navmesh.FromGrid(g, navmesh.Options{Rectangles: kind == "navmesh-rectangles"})
				if err != nil {
					b.Fatal(err)
				}
				q := navmesh.NewSearcher(m)
				path := make([]mgl64.Vec2, 0, 256)
				b.ReportAllocs()
				i, expanded := 0, 0
				for b.Loop() {
					sc := scens[i%len(scens)]
					i++
					var res navmesh.Result
					path, res, _ = q.AppendPath(path[:0], centre(sc.Start), centre(sc.Goal), navmesh.Query{})
					if res.Length > sc.Optimal+1e-6 || len(path) < 2 {
						b.Fatalf("%v→%v: length %v, octile optimum %v", sc.Start, sc.Goal, res.Length, sc.Optimal)
					}
					expanded += res.Expanded
				}
				b.ReportMetric(float64(expanded)/float64(i), "expanded/op")
			})
		}
		b.Run(name+"/grid-jps", func(b *testing.B) {
			s := grid.NewSearcher(g)
			b.ReportAllocs()
			i := 0
			var cells []image.Point
			for b.Loop() {
				sc := scens[i%len(scens)]
				i++
				var res grid.Result
				cells, res, _ = s.AppendPath(cells[:0], sc.Start, sc.Goal, grid.Query{})
				if !sc.Matches(res.Cost) {
					b.Fatalf("%v→%v: cost %v, want %v", sc.Start, sc.Goal, res.Cost, sc.Optimal)
				}
			}
		})
	}
}
