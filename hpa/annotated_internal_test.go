package hpa

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestAnnotatedLandmarkBound checks the estimate of an annotated graph's
// abstract search, each class guided by its own landmarks, on random
// queries of graphs of three levels against gonum's exact distances to
// the goal over the query's graph (the class's edges of the top level and
// the ends' joins): it never exceeds them, it is consistent on every
// edge, and the landmarks raise it above the octile distance somewhere.
func TestAnnotatedLandmarkBound(t *testing.T) {
	raised, checked := 0, 0
	classes := []Class{{}, {Size: 2}, {Size: 3}}
	for seed := range int64(2) {
		g := testmap.Random(seed+40, 160, 120, 0.12, grid.Options{})
		a, err := BuildAnnotated(g, classes, Options{ClusterSize: 10, Levels: 3, LevelFactor: 2})
		if err != nil {
			t.Fatal(err)
		}
		sr := NewAnnotatedSearcher(a)
		top := a.Levels()
		for k := range classes {
			if lm := a.lms[k]; lm == nil || lm.k == 0 {
				t.Fatalf("seed %d class %d: no landmarks", seed, k)
			}
			checkClassLandmarks(t, a, k)
			sr.use(k)
			cg := a.Grid(k)
			for _, pq := range testmap.RandomPairs(testmap.NewRand(seed*10+int64(k)), cg, 20) {
				if a.base.clusterAt(top, pq[0]) == a.base.clusterAt(top, pq[1]) {
					continue
				}
				sr.ends = [2]image.Point{pq[0], pq[1]}
				sr.prepare(uint64(1)<<k, top)
				raised += checkEstimate(t, fmt.Sprintf("seed %d class %d %v→%v", seed, k, pq[0], pq[1]), &sr.view, &sr.adist, &checked)
			}
		}
	}
	if checked < 1000 || raised == 0 {
		t.Fatalf("%d estimates checked, %d raised by the landmarks", checked, raised)
	}
}

// checkEstimate checks d's estimate on the query's graph v against
// gonum's Dijkstra from the goal over v reversed, adding to *checked the
// nodes checked; it returns how many estimates exceed the octile distance.
func checkEstimate(t *testing.T, what string, v *view, d *absDist, checked *int) int {
	t.Helper()
	h := v.h
	nn := int32(len(h.nodes))
	g := simple.NewWeightedDirectedGraph(0, math.Inf(1))
	var edges []core.Edge
	for n := range nn + 2 {
		g.AddNode(simple.Node(int64(n)))
	}
	for n := range nn + 1 {
		edges = v.AppendEdges(edges[:0], n)
		for _, e := range edges {
			g.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(int64(e.To)), T: simple.Node(int64(n)), W: e.Cost})
		}
	}
	tree := path.DijkstraFrom(simple.Node(int64(nn+1)), g)
	raised := 0
	for n := range nn + 1 {
		dist := tree.WeightTo(int64(n))
		if math.IsInf(dist, 1) {
			continue
		}
		est := d.Estimate(n)
		if est > dist*(1+1e-12)+1e-9 {
			t.Fatalf("%s, node %d: estimate %v above the distance %v", what, n, est, dist)
		}
		if n < nn && est > h.distance(h.nodes[n].cell(), d.to)+1e-9 {
			raised++
		}
		edges = v.AppendEdges(edges[:0], n)
		for _, e := range edges {
			if ev := d.Estimate(e.To); est > e.Cost+ev+1e-9 {
				t.Fatalf("%s, node %d: estimate %v above %v + %v across an edge to %d", what, n, est, e.Cost, ev, e.To)
			}
		}
		*checked++
	}
	return raised
}

// checkClassLandmarks checks class k's landmark distances against gonum's
// Dijkstra from each landmark's joins along the class's top-level edges.
func checkClassLandmarks(t *testing.T, a *Annotated, k int) {
	t.Helper()
	h, lm := a.base, a.lms[k]
	nn := int32(len(h.nodes))
	v := &view{h: h, level: lm.level, masks: a.masks[lm.level], bit: uint64(1) << k,
		goalCost: make([]float64, nn), goalStamp: make([]uint32, nn)}
	for i := range lm.k {
		v.start = lm.seeds[i]
		g := simple.NewWeightedDirectedGraph(0, math.Inf(1))
		for n := range nn + 1 {
			g.AddNode(simple.Node(int64(n)))
		}
		var edges []core.Edge
		for n := range nn + 1 {
			edges = v.AppendEdges(edges[:0], n)
			for _, e := range edges {
				g.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(int64(n)), T: simple.Node(int64(e.To)), W: e.Cost})
			}
		}
		tree := path.DijkstraFrom(simple.Node(int64(nn)), g)
		for _, n := range lm.ids {
			want, got := tree.WeightTo(int64(n)), lm.row(n)[i]
			if got != want && math.Abs(got-want) > 1e-9*want {
				t.Fatalf("class %d landmark %d, node %d: distance %v, Dijkstra's %v", k, i, n, got, want)
			}
		}
	}
}

// TestAnnotatedLandmarkRepair edits a map and updates an annotated graph,
// of three levels and of one, after each edit, and checks each class's
// landmarks against those of a fresh build, node by node (by cell): the
// same cells and the same distances, bit for bit, as the repair promises.
func TestAnnotatedLandmarkRepair(t *testing.T) {
	classes := []Class{{}, {Size: 2}, {Size: 3}}
	for _, opt := range []Options{{ClusterSize: 10, Levels: 3, LevelFactor: 2}, {ClusterSize: 10, Levels: 1}} {
		g := testmap.Random(44, 120, 90, 0.1, grid.Options{})
		a, err := BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		r := testmap.NewRand(44)
		repaired := 0
		for step := range 12 {
			x, y := r.IntN(g.Width()-6), r.IntN(g.Height()-6)
			rc := image.Rect(x, y, x+1+r.IntN(5), y+1+r.IntN(5))
			g.SetCells(rc, step%3 == 2)
			if err := a.Update(rc); err != nil {
				t.Fatal(err)
			}
			fresh, err := BuildAnnotated(g, classes, opt)
			if err != nil {
				t.Fatal(err)
			}
			for k := range classes {
				got, want := a.lms[k], fresh.lms[k]
				if got.k != want.k || got.cell != want.cell {
					t.Fatalf("levels %d, edit %d, class %d: %d landmarks at %v, a fresh build's %d at %v", opt.Levels, step, k, got.k, got.cell, want.k, want.cell)
				}
				if live := len(got.ids) - len(got.free); live != len(want.ids) {
					t.Fatalf("levels %d, edit %d, class %d: %d rows, a fresh build's %d", opt.Levels, step, k, live, len(want.ids))
				}
				for _, n := range want.ids {
					m := a.base.nodeAt(fresh.base.nodes[n].cell())
					gr, wr := got.row(m), want.row(n)
					if !slices.Equal(gr, wr) {
						t.Fatalf("levels %d, edit %d, class %d, node at %v: distances %v, a fresh build's %v", opt.Levels, step, k, fresh.base.nodes[n].cell(), gr, wr)
					}
					repaired++
				}
			}
		}
		if repaired == 0 {
			t.Fatalf("levels %d: no distance compared", opt.Levels)
		}
	}
}
