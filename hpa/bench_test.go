package hpa_test

import (
	"cmp"
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

func BenchmarkBuild(b *testing.B) {
	g, _ := loadMovingAI(b, "Berlin_0_1024.map")
	var hg *hpa.Graph
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if hg, err = hpa.Build(g, hpa.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	st := hg.Stats()
	b.ReportMetric(float64(st.Nodes), "nodes")
	b.ReportMetric(float64(st.Edges), "edges")
}

// BenchmarkQuery times the 10 longest Berlin_0_1024 scenarios with HPA* and
// with the exact grid search. One op is all 10 queries.
func BenchmarkQuery(b *testing.B) {
	g, scens := loadMovingAI(b, "Berlin_0_1024.map")
	scens = slices.Clone(scens)
	slices.SortStableFunc(scens, func(a, b grid.Scenario) int { return cmp.Compare(b.Optimal, a.Optimal) })
	scens = scens[:10]
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var optimal float64
	for _, sc := range scens {
		optimal += sc.Optimal
	}
	b.Run("hpa", func(b *testing.B) {
		q := hpa.NewQuery(hg)
		var path []image.Point
		var cost float64
		var expanded int
		for _, sc := range scens { // grow the scratch
			path, _, _ = q.AppendPath(path[:0], sc.Start, sc.Goal)
		}
		b.ReportAllocs()
		for b.Loop() {
			cost, expanded = 0, 0
			for _, sc := range scens {
				var r hpa.Result
				path, r, err = q.AppendPath(path[:0], sc.Start, sc.Goal)
				if err != nil || r.Status != core.Found {
					b.Fatal(err, r.Status)
				}
				cost += r.Cost
				expanded += r.Expanded
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(10*b.N), "µs/query")
		b.ReportMetric(float64(expanded)/10, "expanded/query")
		b.ReportMetric(100*(cost/optimal-1), "%excess")
	})
	// grid is the exact search as a game would call it (jump point search
	// on this uniform map); grid-plain is plain A*, what the grid does on
	// maps with terrain costs.
	for _, gq := range []struct {
		name string
		q    grid.Query
	}{{"grid", grid.Query{}}, {"grid-plain", grid.Query{Plain: true}}} {
		b.Run(gq.name, func(b *testing.B) {
			s := grid.NewSearcher(g)
			var path []image.Point
			var expanded int
			for _, sc := range scens {
				path, _, _ = s.AppendPath(path[:0], sc.Start, sc.Goal, gq.q)
			}
			b.ReportAllocs()
			for b.Loop() {
				expanded = 0
				for _, sc := range scens {
					var r grid.Result
					path, r, err = s.AppendPath(path[:0], sc.Start, sc.Goal, gq.q)
					if err != nil || !sc.Matches(r.Cost) {
						b.Fatal(err, r.Cost, sc.Optimal)
					}
					expanded += r.Expanded
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(10*b.N), "µs/query")
			b.ReportMetric(float64(expanded)/10, "expanded/query")
		})
	}
}

// BenchmarkUpdate compares a local rebuild after blocking a 4×4 square of
// Berlin with a full build of the edited map.
func BenchmarkUpdate(b *testing.B) {
	g, _ := loadMovingAI(b, "Berlin_0_1024.map")
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rect := image.Rect(500, 500, 504, 504)
	edited := g.WithCells(rect, false)
	b.Run("update", func(b *testing.B) {
		for b.Loop() {
			if _, err := hg.Update(edited, rect); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if _, err := hpa.Build(edited, hpa.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
