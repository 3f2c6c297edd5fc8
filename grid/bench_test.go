package grid_test

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/baseline"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// benchGrid is the 1000×1000 grid with 10 % random walls (seed 1) used by
// the corner-to-corner benchmarks; the corners are kept free.
func benchGrid(b *testing.B) *grid.Grid {
	const w, h = 1000, 1000
	r := rand.New(rand.NewPCG(1, 1))
	free := make([]bool, w*h)
	for i := range free {
		free[i] = r.Float64() >= 0.1
	}
	free[0], free[w*h-1] = true, true
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func BenchmarkCornerToCorner(b *testing.B) {
	g := benchGrid(b)
	from, to := image.Pt(0, 0), image.Pt(999, 999)
	if !g.Connected(from, to) {
		b.Fatal("corners not connected")
	}
	b.Run("cairn", func(b *testing.B) {
		s := grid.NewSearcher(g)
		path, res, _ := s.AppendPath(nil, from, to, grid.Query{}) // warm up: steady state allocates nothing
		b.ReportAllocs()
		for b.Loop() {
			var err error
			path, res, err = s.AppendPath(path[:0], from, to, grid.Query{})
			if err != nil || res.Status != 0 {
				b.Fatal(err, res)
			}
		}
		b.ReportMetric(float64(res.Expanded), "expanded")
		b.ReportMetric(res.Cost, "cost")
	})
	b.Run("baseline", func(b *testing.B) {
		s := baseline.New(g)
		path, cost, exp, _ := s.AppendPath(nil, from, to)
		b.ReportAllocs()
		for b.Loop() {
			var ok bool
			path, cost, exp, ok = s.AppendPath(path[:0], from, to)
			if !ok {
				b.Fatal("no path")
			}
		}
		b.ReportMetric(float64(exp), "expanded")
		b.ReportMetric(cost, "cost")
	})
}

// BenchmarkScenarios runs the longest scenarios of Moving AI maps (the last
// bucket's ten) with Cairn's default search, with plain A* on Cairn's core,
// and with the baseline.
func BenchmarkScenarios(b *testing.B) {
	for _, name := range []string{"Berlin_0_1024.map", "den520d.map", "random512-10-0.map", "maze512-1-0.map"} {
		b.Run(name, func(b *testing.B) {
			g, scens := testmap.MovingAI(b, name)
			if len(scens) > 10 {
				scens = scens[len(scens)-10:]
			}
			run := func(b *testing.B, search func(from, to image.Point) (float64, int)) {
				for _, sc := range scens { // warm up: steady state allocates nothing
					search(sc.Start, sc.Goal)
				}
				b.ReportAllocs()
				var exp int
				for b.Loop() {
					exp = 0
					for _, sc := range scens {
						cost, e := search(sc.Start, sc.Goal)
						if !sc.Matches(cost) {
							b.Fatalf("%v→%v: cost %v, want %v", sc.Start, sc.Goal, cost, sc.Optimal)
						}
						exp += e
					}
				}
				b.ReportMetric(float64(exp)/float64(len(scens)), "expanded/query")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(scens))/1e3, "µs/query")
			}
			var path []image.Point
			for _, plain := range []bool{false, true} {
				label := "cairn"
				if plain {
					label = "cairn-plain"
				}
				b.Run(label, func(b *testing.B) {
					s := grid.NewSearcher(g)
					run(b, func(from, to image.Point) (float64, int) {
						var res grid.Result
						path, res, _ = s.AppendPath(path[:0], from, to, grid.Query{Plain: plain})
						return res.Cost, res.Expanded
					})
				})
			}
			b.Run("baseline", func(b *testing.B) {
				s := baseline.New(g)
				run(b, func(from, to image.Point) (float64, int) {
					var cost float64
					var exp int
					path, cost, exp, _ = s.AppendPath(path[:0], from, to)
					return cost, exp
				})
			})
		})
	}
}

// BenchmarkLineOfSight runs line of sight between pairs of free cells of
// Berlin_0_1024 drawn within 400 cells of each other: an op is 1 000
// segments, about a third of them clear.
func BenchmarkLineOfSight(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	r := rand.New(rand.NewPCG(4, 4))
	var pairs [][2]image.Point
	for len(pairs) < 1000 {
		a := image.Pt(r.IntN(g.Width()), r.IntN(g.Height()))
		c := a.Add(image.Pt(r.IntN(801)-400, r.IntN(801)-400))
		if g.Passable(a) && g.Passable(c) {
			pairs = append(pairs, [2]image.Point{a, c})
		}
	}
	clear := 0
	for b.Loop() {
		clear = 0
		for _, p := range pairs {
			if g.LineOfSight(p[0], p[1]) {
				clear++
			}
		}
	}
	b.ReportMetric(float64(clear), "clear/op")
}
