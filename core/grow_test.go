package core_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/core"
)

// lazy shows graph a as a search that makes its nodes when it first reaches
// them, as the navmesh's search graph does: node 0 is a's node from and
// node 1 its node to; the others are numbered as AppendEdges meets them,
// and NumNodes counts those made so far.
type lazy struct {
	a     *adj
	id    map[int32]int32 // a's node → ours
	orig  []int32         // ours → a's
	reads int             // calls of NumNodes
}

// reset starts l again on graph a, from from to to, with 2 nodes.
func (l *lazy) reset(a *adj, from, to int32) *lazy {
	*l = lazy{a: a, id: map[int32]int32{from: 0}, orig: []int32{from}}
	if to != from {
		l.id[to] = 1
		l.orig = append(l.orig, to)
	} else {
		l.orig = append(l.orig, -1) // a node no edge leads to
	}
	return l
}

func (l *lazy) NumNodes() int { l.reads++; return len(l.orig) }

func (l *lazy) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	if l.orig[n] < 0 {
		return dst
	}
	for _, e := range l.a.out[l.orig[n]] {
		v, ok := l.id[e.To]
		if !ok {
			v = int32(len(l.orig))
			l.id[e.To] = v
			l.orig = append(l.orig, e.To)
		}
		dst = append(dst, core.Edge{To: v, Cost: e.Cost})
	}
	return dst
}

// TestGrowingGraph checks searches of graphs that make their nodes as they
// are searched, from 2 at the start to hundreds: the search's scratch grows
// with NumNodes, and the costs are those of the same search on the whole
// graph, blocking and sliced (a step at a time), with one Searcher reused
// across queries whose graphs start small again.
func TestGrowingGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var reused lazy
	sr := core.NewSearcher(reused.reset(&adj{out: make([][]core.Edge, 2)}, 0, 1))
	for q := range 60 {
		a := randomGraph(r, 50+r.IntN(300), 0.02+0.05*r.Float64(), q%2 == 0)
		from, to := int32(r.IntN(len(a.out))), int32(r.IntN(len(a.out)))
		want := core.NewSearcher(a).Search(from, to, nil, core.Query{})

		l := new(lazy).reset(a, from, to)
		got := core.NewSearcher(l).Search(0, 1, nil, core.Query{})
		if got.Status != want.Status || got.Status == core.Found && math.Abs(got.Cost-want.Cost) > 1e-9 {
			t.Fatalf("query %d %d→%d: %+v, want %+v", q, from, to, got, want)
		}
		if got.Status == core.Found && len(l.orig) > 2 && l.reads < 2 {
			t.Fatalf("query %d: NumNodes read %d times for a graph that grew to %d nodes", q, l.reads, len(l.orig))
		}

		reused.reset(a, from, to)
		if got := sr.Search(0, 1, nil, core.Query{}); got.Status != want.Status || got.Status == core.Found && math.Abs(got.Cost-want.Cost) > 1e-9 {
			t.Fatalf("query %d %d→%d, reused Searcher: %+v, want %+v", q, from, to, got, want)
		}

		l = new(lazy).reset(a, from, to)
		sl := core.NewSliced(l)
		sl.Begin(0, 1, nil, core.Query{})
		for sl.Step(1) == core.InProgress {
		}
		if res := sl.Result(); res.Status != want.Status || res.Status == core.Found && math.Abs(res.Cost-want.Cost) > 1e-9 {
			t.Fatalf("query %d %d→%d sliced: %+v, want %+v", q, from, to, res, want)
		}
	}
}
