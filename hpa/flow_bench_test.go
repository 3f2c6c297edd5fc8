package hpa_test

import (
	"image"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
)

// BenchmarkFlowField1000 is the flow field's target: on a 4096² world
// (Berlin_0_1024 scaled ×4, as BenchmarkLarge makes it), 1 000 agents from
// random free starts in the goal's region get their first moves toward one
// goal. One op of flow is a Compute and one Next per agent, which makes
// the cell fields of the clusters they stand in anew (in the store a first
// pass grew); compute is the Compute alone; one op of hpa is one
// Searcher.AppendPath per agent, on a graph that already keeps the paths
// those queries refine (a first pass before the timing), so hpa is at its
// fastest. The target is flow ≤ hpa/10. Loading, scaling and building take
// some 5 s on one core, before the timing; run with -benchtime 1x for one
// op of each.
func BenchmarkFlowField1000(b *testing.B) {
	g0, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	g, err := mapgen.Scale(g0, 4)
	if err != nil {
		b.Fatal(err)
	}
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	const agents, seed = 1000, 1
	r := testmap.NewRand(seed)
	goal := image.Pt(-1, -1)
	for !g.Passable(goal) {
		goal = image.Pt(r.IntN(g.Width()), r.IntN(g.Height()))
	}
	starts := make([]image.Point, 0, agents)
	for len(starts) < agents {
		if p := image.Pt(r.IntN(g.Width()), r.IntN(g.Height())); g.Connected(p, goal) && p != goal {
			starts = append(starts, p)
		}
	}
	b.Run("flow", func(b *testing.B) {
		f := hpa.NewFlowField(hg)
		moves := func() {
			if err := f.Compute(goal); err != nil {
				b.Fatal(err)
			}
			for _, p := range starts {
				if q, ok := f.Next(p); !ok || !g.CanStep(p, q) {
					b.Fatalf("seed %d: Next(%v) toward %v = %v, %v", seed, p, goal, q, ok)
				}
			}
		}
		moves() // grow the store of cell fields, which each Compute reuses
		b.ReportAllocs()
		for b.Loop() {
			moves()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*agents), "µs/agent")
	})
	// compute is Compute alone: the goal's insertion and the search of
	// the abstract graph.
	b.Run("compute", func(b *testing.B) {
		f := hpa.NewFlowField(hg)
		if err := f.Compute(goal); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := f.Compute(goal); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hpa", func(b *testing.B) {
		q := hpa.NewSearcher(hg)
		var path []image.Point
		query := func() float64 {
			var sum float64
			for _, p := range starts {
				var res hpa.Result
				path, res, err = q.AppendPath(path[:0], p, goal, hpa.Query{})
				if err != nil || res.Status != core.Found || len(path) < 2 {
					b.Fatalf("seed %d: %v→%v: %v %v", seed, p, goal, res.Status, err)
				}
				sum += res.Cost
			}
			return sum
		}
		query() // the graph keeps the refined paths
		b.ReportAllocs()
		var sum float64
		for b.Loop() {
			sum = query()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*agents), "µs/agent")
		b.ReportMetric(sum/agents, "length")
	})
}

// BenchmarkFlowFieldClusters times the cell fields of Berlin_0_1024 in
// clusters of 32: one op is a Compute and a Dist in every cluster, which
// makes every cluster's field.
func BenchmarkFlowFieldClusters(b *testing.B) {
	g, scens := testmap.MovingAI(b, "Berlin_0_1024.map")
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	goal := scens[len(scens)-1].Goal
	var cells []image.Point // a free cell of each cluster that reaches the goal
	cs := hg.ClusterSize()
	for y := 0; y < g.Height(); y += cs {
		for x := 0; x < g.Width(); x += cs {
		cell:
			for yy := y; yy < min(y+cs, g.Height()); yy++ {
				for xx := x; xx < min(x+cs, g.Width()); xx++ {
					if p := image.Pt(xx, yy); g.Connected(p, goal) {
						cells = append(cells, p)
						break cell
					}
				}
			}
		}
	}
	f := hpa.NewFlowField(hg)
	fields := func() {
		if err := f.Compute(goal); err != nil {
			b.Fatal(err)
		}
		for _, p := range cells {
			if _, ok := f.Dist(p); !ok {
				b.Fatalf("Dist(%v) toward %v: false", p, goal)
			}
		}
	}
	fields()
	b.ReportAllocs()
	for b.Loop() {
		fields()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(cells)), "µs/cluster")
}
