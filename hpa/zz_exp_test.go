package hpa_test

import (
	"cmp"
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
)

func BenchmarkZZ(b *testing.B) {
	g0, scens := testmap.MovingAI(b, "Berlin_0_1024.map")
	scens = slices.Clone(scens)
	slices.SortStableFunc(scens, func(a, b grid.Scenario) int { return cmp.Compare(b.Optimal, a.Optimal) })
	scens = scens[:10]
	const k = 4
	g, _ := mapgen.Scale(g0, k)
	type pair struct{ from, to image.Point }
	pairs := make([]pair, len(scens))
	for i, sc := range scens {
		pairs[i] = pair{sc.Start.Mul(k).Add(image.Pt(k/2, k/2)), sc.Goal.Mul(k).Add(image.Pt(k/2, k/2))}
	}
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	q := hpa.NewSearcher(hg)
	var path []image.Point
	for _, p := range pairs {
		q.AppendPath(path[:0], p.from, p.to, hpa.Query{})
	}
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pairs {
				path, _, _ = q.AppendPath(path[:0], p.from, p.to, hpa.Query{})
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pairs)), "µs/query")
	})
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pairs {
				q.Begin(p.from, p.to, hpa.Query{})
				path, _, _ = q.Next(path[:0], 64)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pairs)), "µs/query")
	})
}

func TestZZCount(t *testing.T) {
	g0, _ := testmap.MovingAI(t, "Berlin_0_1024.map")
	g, _ := mapgen.Scale(g0, 4)
	hg, _ := hpa.Build(g, hpa.Options{})
	for l := 1; l <= hg.Levels(); l++ {
		nodes, edges := 0, 0
		var dst []hpa.NodeID
		for n := 0; n < hg.NodeIDs(); n++ {
			dst = hg.AppendEdges(dst[:0], hpa.NodeID(n), l)
			if len(dst) > 0 {
				nodes++
				edges += len(dst)
			}
		}
		t.Logf("level %d: %d nodes, %d edges", l, nodes, edges)
	}
}
