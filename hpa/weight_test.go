package hpa_test

import (
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestQueryWeight checks the weight of the abstract search: a query's path
// is never shorter than with weight 1 (the shortest abstract path, which
// its cells cost exactly) nor longer than the weight times it, weight 0 is
// weight 1, a heavier weight expands fewer nodes over all the queries, and
// weights out of range are errors.
func TestQueryWeight(t *testing.T) {
	g := testmap.Random(11, 200, 160, 0.2, grid.Options{})
	h, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := hpa.NewSearcher(h)
	pairs := testmap.RandomPairs(testmap.NewRand(11), g, 200)
	expanded := map[float64]int{}
	longer := 0
	for _, p := range pairs {
		_, exact, err := s.AppendPath(nil, p[0], p[1], hpa.Query{Weight: 1})
		if err != nil || exact.Status != core.Found {
			t.Fatal(err, exact.Status)
		}
		expanded[1] += exact.Expanded
		for _, w := range []float64{0, 1.05, 1.2, 2} {
			path, r, err := s.AppendPath(nil, p[0], p[1], hpa.Query{Weight: w})
			if err != nil || r.Status != core.Found {
				t.Fatal(err, r.Status)
			}
			bound := max(w, 1)
			if r.Cost < exact.Cost*(1-1e-12) || r.Cost > bound*exact.Cost*(1+1e-12) {
				t.Fatalf("%v→%v weight %v: cost %v, the shortest abstract path's %v", p[0], p[1], w, r.Cost, exact.Cost)
			}
			if c, err := g.PathCost(path); err != nil || math.Abs(c-r.Cost) > 1e-9*c {
				t.Fatalf("%v→%v weight %v: the path costs %v (%v), the result says %v", p[0], p[1], w, c, err, r.Cost)
			}
			if r.Cost > exact.Cost*(1+1e-9) {
				longer++
			}
			expanded[w] += r.Expanded
			if w == 0 && !hpa.SameAnswer(exact, r) {
				t.Fatalf("%v→%v: weight 0 gives %+v, weight 1 %+v", p[0], p[1], r, exact)
			}
		}
	}
	if longer == 0 {
		t.Error("no weighted query found a longer path: the weights change nothing")
	}
	if expanded[2] >= expanded[1] {
		t.Errorf("weight 2 expanded %d nodes over the queries, weight 1 %d", expanded[2], expanded[1])
	}
	p := pairs[0]
	for _, w := range []float64{-1, 0.5, 0.999, math.NaN(), math.Inf(1), hpa.MaxWeight + 1} {
		if _, _, err := s.AppendPath(nil, p[0], p[1], hpa.Query{Weight: w}); err == nil {
			t.Errorf("weight %v accepted", w)
		}
		if err := s.BeginSliced(p[0], p[1], hpa.Query{Weight: w}); err == nil {
			t.Errorf("weight %v accepted by BeginSliced", w)
		}
		if _, err := s.Begin(p[0], p[1], hpa.Query{Weight: w}); err == nil {
			t.Errorf("weight %v accepted by Begin", w)
		}
	}
}
