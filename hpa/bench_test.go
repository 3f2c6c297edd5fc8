package hpa_test

import (
	"cmp"
	"fmt"
	"image"
	"slices"
	"testing"
	"time"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/baseline"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/cairn-nav/cairn/smooth"
)

func BenchmarkBuild(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
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
	g, scens := testmap.MovingAI(b, "Berlin_0_1024.map")
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
		q := hpa.NewSearcher(hg)
		var path []image.Point
		var cost float64
		var expanded int
		for _, sc := range scens { // grow the scratch
			path, _, _ = q.AppendPath(path[:0], sc.Start, sc.Goal, hpa.Query{})
		}
		b.ReportAllocs()
		for b.Loop() {
			cost, expanded = 0, 0
			for _, sc := range scens {
				var r hpa.Result
				path, r, err = q.AppendPath(path[:0], sc.Start, sc.Goal, hpa.Query{})
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
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
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

// BenchmarkUpdateWorld times Update on the 4096² demo world of mapgen (seed
// 0, as `mapgen world -size 4096` makes it) for level factors 4 and 2
// (which zero options choose at 4096²), after a wall of 12×1 or 1×12 cells put up at a random
// place where all its cells are free, then taken down again: one op is one
// Update (the grid's SetCells is not timed). The build (about ten seconds)
// is timed once, outside the ops, and
// reported as build-s, so that the op's share of a build is read from one
// run.
func BenchmarkUpdateWorld(b *testing.B) {
	g, err := mapgen.World(mapgen.WorldOptions{Width: 4096, Height: 4096})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []int{4, 2} {
		b.Run(fmt.Sprintf("factor%d", f), func(b *testing.B) {
			t0 := time.Now()
			hg, err := hpa.Build(g, hpa.Options{LevelFactor: f})
			if err != nil {
				b.Fatal(err)
			}
			build := time.Since(t0)
			r := testmap.NewRand(1)
			var wall image.Rectangle
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				b.StopTimer()
				if i%2 == 0 {
					wall = testmap.FreeWall(r, g, 12)
				}
				g.SetCells(wall, i%2 == 1)
				i++
				b.StartTimer()
				if _, err := hg.Update(g, wall); err != nil {
					b.Fatal(err)
				}
			}
			if i%2 == 1 { // leave the world as it was for the next factor
				g.SetCells(wall, true)
			}
			b.ReportMetric(build.Seconds(), "build-s")
		})
	}
}

// BenchmarkLarge runs the ten longest Berlin_0_1024 scenarios on the map
// scaled ×4 to 4096×4096 (each cell a 4×4 block, start and goal at the same
// place in their blocks): the HPA* build, then one op per query kind, all
// ten queries, next to grid A* (jump points), plain grid A* and the
// baseline. Plain A* and the baseline take about a second a query: run
// with -benchtime 1x.
func BenchmarkLarge(b *testing.B) {
	g0, scens := testmap.MovingAI(b, "Berlin_0_1024.map")
	scens = slices.Clone(scens)
	slices.SortStableFunc(scens, func(a, b grid.Scenario) int { return cmp.Compare(b.Optimal, a.Optimal) })
	scens = scens[:10]
	const k = 4
	g, err := mapgen.Scale(g0, k)
	if err != nil {
		b.Fatal(err)
	}
	type pair struct{ from, to image.Point }
	pairs := make([]pair, len(scens))
	for i, sc := range scens {
		pairs[i] = pair{sc.Start.Mul(k).Add(image.Pt(k/2, k/2)), sc.Goal.Mul(k).Add(image.Pt(k/2, k/2))}
	}
	var hg *hpa.Graph
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if hg, err = hpa.Build(g, hpa.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		st := hg.Stats()
		b.ReportMetric(float64(st.Nodes), "nodes")
		b.ReportMetric(float64(hg.Levels()), "levels")
	})
	if hg == nil {
		b.Skip("build did not run")
	}
	run := func(name string, query func(from, to image.Point) float64) {
		b.Run(name, func(b *testing.B) {
			var length float64
			for b.Loop() {
				length = 0
				for _, p := range pairs {
					length += query(p.from, p.to)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pairs)), "µs/query")
			b.ReportMetric(length/float64(len(pairs)), "length")
		})
	}
	q := hpa.NewSearcher(hg)
	var path, turns []image.Point
	run("hpa", func(from, to image.Point) float64 {
		var r hpa.Result
		path, r, _ = q.AppendPath(path[:0], from, to, hpa.Query{})
		return r.Cost
	})
	// The first cells of an incremental query: Begin, then one Next of 64
	// cells or more.
	run("hpa-first-cells", func(from, to image.Point) float64 {
		r, _ := q.Begin(from, to, hpa.Query{})
		path, _, _ = q.Next(path[:0], 64)
		return r.Cost
	})
	run("hpa+smooth", func(from, to image.Point) float64 {
		path, _, _ = q.AppendPath(path[:0], from, to, hpa.Query{})
		turns = smooth.AppendTurns(turns[:0], path, g.LineOfSight)
		return smooth.Length(turns)
	})
	run("hpa+corners", func(from, to image.Point) float64 {
		path, _, _ = q.AppendPath(path[:0], from, to, hpa.Query{})
		turns = smooth.AppendCornerTurns(turns[:0], path, g.LineOfSight)
		return smooth.Length(turns)
	})
	s := grid.NewSearcher(g)
	// The first jump point search builds the grid's jump table: not part
	// of a query.
	path, _, _ = s.AppendPath(path[:0], pairs[0].from, pairs[0].to, grid.Query{})
	run("grid", func(from, to image.Point) float64 {
		var r grid.Result
		path, r, _ = s.AppendPath(path[:0], from, to, grid.Query{})
		return r.Cost
	})
	if testing.Short() {
		return
	}
	run("grid-plain", func(from, to image.Point) float64 {
		var r grid.Result
		path, r, _ = s.AppendPath(path[:0], from, to, grid.Query{Plain: true})
		return r.Cost
	})
	bs := baseline.New(g)
	run("baseline", func(from, to image.Point) float64 {
		var cost float64
		path, cost, _, _ = bs.AppendPath(path[:0], from, to)
		return cost
	})
}
