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

// liftGraphs returns graphs of three levels on random maps, with small
// clusters so that each level has many.
func liftGraphs(t *testing.T) []*Graph {
	var hs []*Graph
	for seed := int64(1); seed <= 4; seed++ {
		g := testmap.Random(seed, 150, 110, []float64{0.1, 0.2, 0.3, 0.35}[seed-1], grid.Options{})
		h, err := Build(g, Options{ClusterSize: 6, Levels: 3})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	return hs
}

// TestLiftMatchesMixedSearch checks an end's joins to each level, made from
// the clusters' tables, against gonum's Dijkstra on the graph a search from
// the end would follow inside its level-l cluster: from the end to the
// nodes of its level-1 cluster by the insertion's edges, then from each
// node by its edges one level below the lowest at which it shares a cluster
// with the end, to nodes inside the level-l cluster.
func TestLiftMatchesMixedSearch(t *testing.T) {
	checked := 0
	for hi, h := range liftGraphs(t) {
		sr := NewSearcher(h)
		r := testmap.NewRand(int64(hi))
		free := testmap.FreeCells(h.g)
		for range 40 {
			p := free[r.IntN(len(free))]
			e := &sr.ends[0]
			e.edges[1], _ = joinCluster(h, e.edges[1][:0], p, sr.ins[0])
			for l := 2; l <= h.Levels(); l++ {
				e.lift(h, &sr.ap, l, h.clusterAt(l, p))
				want := mixedDist(h, p, l, e.edges[1])
				got := map[int32]float64{}
				for _, x := range e.edges[l] {
					got[x.To] = x.Cost
				}
				for _, s := range h.levels[l-2].cm[h.clusterAt(l, p)] {
					w, wok := want[s]
					g, gok := got[s]
					if wok != gok || (wok && math.Abs(w-g) > 1e-9*(1+w)) {
						t.Fatalf("graph %d, end %v, level %d, node %v: lifted %v (%v), mixed search %v (%v)",
							hi, p, l, h.nodes[s].cell(), g, gok, w, wok)
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d distances checked", checked)
	}
}

// mixedDist returns gonum's distances from end p to the abstract nodes of
// its level-l cluster described at TestLiftMatchesMixedSearch.
func mixedDist(h *Graph, p image.Point, l int, ins []core.Edge) map[int32]float64 {
	g := simple.NewWeightedDirectedGraph(0, math.Inf(1))
	end := int64(len(h.nodes))
	g.AddNode(simple.Node(end))
	rect := h.levelClusterRect(l, h.clusterAt(l, p))
	levelOf := func(n int32) int {
		c := h.nodes[n].cell()
		for j := 2; j <= l; j++ {
			if c.In(h.levelClusterRect(j, h.clusterAt(j, p))) {
				return j - 1
			}
		}
		return l
	}
	for _, e := range ins {
		g.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(end), T: simple.Node(int64(e.To)), W: e.Cost})
	}
	for n := range h.nodes {
		if h.nodes[n].cluster < 0 || !h.nodes[n].cell().In(rect) {
			continue
		}
		for _, e := range h.edgesAt(levelOf(int32(n)), int32(n)) {
			if h.nodes[e.To].cell().In(rect) {
				g.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(int64(n)), T: simple.Node(int64(e.To)), W: e.Cost})
			}
		}
	}
	tree := path.DijkstraFrom(simple.Node(end), g)
	out := map[int32]float64{}
	for n := range h.nodes {
		if g.Node(int64(n)) == nil {
			continue
		}
		if d := tree.WeightTo(int64(n)); !math.IsInf(d, 1) {
			out[int32(n)] = d
		}
	}
	return out
}

// TestLandmarkBound checks the abstract search's estimate on random
// queries against gonum's exact distances to the goal over the query's
// graph (the top level's edges, the start's and the goal's joins): it never
// exceeds them, it is consistent on every edge, and the landmarks raise it
// above the octile distance somewhere (or the test would not test them).
func TestLandmarkBound(t *testing.T) {
	raised, checked := 0, 0
	for hi, h := range liftGraphs(t) {
		if h.lm == nil || h.lm.k == 0 {
			t.Fatalf("graph %d has no landmarks", hi)
		}
		sr := NewSearcher(h)
		r := testmap.NewRand(int64(hi))
		for _, pq := range testmap.RandomPairs(r, h.g, 30) {
			top := sr.h.topLevel(pq[0], pq[1], Query{})
			if top != h.Levels() {
				continue
			}
			sr.insertEnds(pq[0], pq[1], top)
			if b := &sr.adist.alt; b.nact != min(activeLandmarks, h.lm.k) || len(slices.Compact(slices.Sorted(slices.Values(b.act[:b.nact])))) != b.nact {
				t.Fatalf("graph %d, %v→%v: active landmarks %v, want %d distinct ones", hi, pq[0], pq[1], b.act[:b.nact], min(activeLandmarks, h.lm.k))
			}
			raised += checkEstimate(t, fmt.Sprintf("graph %d, %v→%v", hi, pq[0], pq[1]), &sr.view, &sr.adist, &checked)
		}
	}
	if checked < 1000 || raised == 0 {
		t.Fatalf("%d estimates checked, %d raised by the landmarks", checked, raised)
	}
}

// TestSlicedTableFill checks that a sliced query on a graph whose tables
// no query has filled spreads the filling over its steps: with steps of
// one expansion, no step settles more than one search of a cluster's graph
// (or, the step that joins the ends, two searches of level-1 clusters),
// and the answer is AppendPath's.
func TestSlicedTableFill(t *testing.T) {
	for hi, h := range liftGraphs(t) {
		fresh, err := Build(h.g, h.Options())
		if err != nil {
			t.Fatal(err)
		}
		// The most nodes one search can settle: a cluster's graph of the
		// level below, or two cluster searches of cells.
		most := 2 * h.cs * h.cs
		for l := 2; l <= h.Levels(); l++ {
			for c := range h.levels[l-2].cm {
				var a clusterAPSP
				a.compact(h, l-1, l, int32(c))
				most = max(most, len(a.ids))
				a.release()
			}
		}
		sl, plain := NewSearcher(h), NewSearcher(fresh)
		r := testmap.NewRand(int64(hi))
		steps := 0
		for _, pq := range testmap.RandomPairs(r, h.g, 10) {
			if err := sl.BeginSliced(pq[0], pq[1], Query{}); err != nil {
				t.Fatal(err)
			}
			before := 0
			var res Result
			for {
				if res, err = sl.Step(1); err != nil {
					t.Fatal(err)
				}
				steps++
				if d := res.Expanded - before; d > most {
					t.Fatalf("graph %d, %v→%v: a step of %d expansions, above %d", hi, pq[0], pq[1], d, most)
				}
				before = res.Expanded
				if res.Status != core.InProgress {
					break
				}
			}
			got, _, err := sl.Next(nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, wr, err := plain.AppendPath(nil, pq[0], pq[1], Query{})
			if err != nil || wr.Status != res.Status || !slices.Equal(got, want) {
				t.Fatalf("graph %d, %v→%v: sliced %d cells (%v), AppendPath %d (%v, %v)", hi, pq[0], pq[1], len(got), res.Status, len(want), wr.Status, err)
			}
		}
		if steps < 100 {
			t.Fatalf("graph %d: only %d steps", hi, steps)
		}
	}
}

// TestLandmarkRepair checks the landmarks an in-place update repairs
// against those of a fresh build, node by node (by cell): the same
// landmarks and the same distances, bit for bit, after each of a sequence
// of random edits.
func TestLandmarkRepair(t *testing.T) {
	repaired, checkedKids := 0, 0
	for seed := int64(1); seed <= 6; seed++ {
		g := testmap.Random(seed, 150, 110, 0.2, grid.Options{})
		opt := Options{ClusterSize: 8, Levels: 3}
		if seed > 4 {
			opt = Options{ClusterSize: 8, Levels: 4, LevelFactor: 2}
		}
		h, err := Build(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		r := testmap.NewRand(seed)
		for e := range 25 {
			x, y := r.IntN(150), r.IntN(110)
			rect := image.Rect(x, y, x+1+r.IntN(14), y+1+r.IntN(4))
			if e%3 == 2 {
				rect = image.Rect(x, y, x+1+r.IntN(3), y+1+r.IntN(14))
			}
			g.SetCells(rect, e%2 == 1)
			if _, err := h.Update(g, rect); err != nil {
				t.Fatal(err)
			}
			fresh, err := Build(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("seed %d edit %d (%v)", seed, e, rect)
			checkedKids += compareLandmarks(t, what, h, fresh)
			repaired++
		}
	}
	if repaired == 0 || checkedKids == 0 {
		t.Fatalf("%d repairs, %d children lists checked", repaired, checkedKids)
	}
}

// TestLandmarkFarCorner edits a map whose top-left corner is blocked far
// around, so that the landmark nearest that corner lies in another
// top-level cluster than the corner's: freeing and blocking cells nearer
// the corner moves the landmark though no cluster of its own changes, and
// the update must find that (keptLandmarks), as a fresh build does.
func TestLandmarkFarCorner(t *testing.T) {
	w, h := 150, 110
	free := make([]bool, w*h)
	for y := range h {
		for x := range w {
			free[y*w+x] = x >= 70 || y >= 70
		}
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{ClusterSize: 8, Levels: 4, LevelFactor: 2}
	hg, err := Build(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if c := hg.lm.cell[0]; hg.clusterAt(4, c) == hg.clusterAt(4, image.Point{}) {
		t.Fatalf("landmark 0 at %v, in its corner's top-level cluster: the test checks nothing", c)
	}
	for e, rect := range []image.Rectangle{image.Rect(20, 20, 22, 21), image.Rect(5, 5, 6, 6), image.Rect(20, 20, 22, 21), image.Rect(5, 5, 6, 6)} {
		g.SetCells(rect, e < 2)
		if _, err := hg.Update(g, rect); err != nil {
			t.Fatal(err)
		}
		fresh, err := Build(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		compareLandmarks(t, fmt.Sprintf("edit %d (%v)", e, rect), hg, fresh)
	}
	if c := hg.lm.cell[0]; c != (image.Point{70, 0}) {
		t.Fatalf("landmark 0 at %v after the cells near the corner were blocked again, want (70, 0)", c)
	}
}

// compareLandmarks checks the landmarks of h, updated in place, against
// those of fresh, a fresh build of the same grid: the same cells, joins
// and distances node by node (by cell), trees whose distances are their
// parents' plus an edge, and children lists that match the trees. It
// returns how many children lists it checked.
func compareLandmarks(t *testing.T, what string, h, fresh *Graph) (kids int) {
	t.Helper()
	a, b := h.lm, fresh.lm
	if a.k != b.k {
		t.Fatalf("%s: %d landmarks, fresh %d", what, a.k, b.k)
	}
	for i := range a.k {
		if a.cell[i] != b.cell[i] || len(a.seeds[i]) != len(b.seeds[i]) {
			t.Fatalf("%s: landmark %d at %v with %d joins, the fresh build's at %v with %d", what, i, a.cell[i], len(a.seeds[i]), b.cell[i], len(b.seeds[i]))
		}
		for j, e := range a.seeds[i] {
			if f := b.seeds[i][j]; h.nodes[e.To].cell() != fresh.nodes[f.To].cell() || e.Cost != f.Cost {
				t.Fatalf("%s: landmark %d's join %d differs from the fresh build's", what, i, j)
			}
		}
	}
	for n := range fresh.nodes {
		rb := b.row(int32(n))
		if rb == nil {
			continue
		}
		ra := a.row(h.nodeAt(fresh.nodes[n].cell()))
		if !slices.Equal(ra, rb) {
			t.Fatalf("%s: node at %v: distances %v, fresh %v", what, fresh.nodes[n].cell(), ra, rb)
		}
	}
	// The trees the next repair starts from: each row's distance
	// is its parent's plus the cost of an edge between them.
	for i := range a.k {
		for r, p := range a.par[i] {
			if p < 0 || a.ids[r] < 0 {
				continue
			}
			dr, dp := a.dist[r*a.k+i], a.dist[int(p)*a.k+i]
			if !slices.ContainsFunc(h.edgesAt(a.level, a.ids[p]), func(e core.Edge) bool { return e.To == a.ids[r] && dp+e.Cost == dr }) {
				t.Fatalf("%s: landmark %d: row %d's distance %v is not its parent %d's %v plus an edge", what, i, r, dr, p, dp)
			}
		}
	}
	// The children lists the repairs keep: each row in its
	// parent's list, once, and in no other.
	for i := range a.k {
		kl := a.kids[i]
		if kl == nil {
			continue
		}
		if len(kl.head) != len(a.ids) {
			t.Fatalf("%s: landmark %d: children lists of %d rows, %d rows", what, i, len(kl.head), len(a.ids))
		}
		listed := 0
		for p := range kl.head {
			prev := int32(-1)
			for c := kl.head[p]; c >= 0; c = kl.next[c] {
				if a.par[i][c] != int32(p) || kl.prev[c] != prev {
					t.Fatalf("%s: landmark %d: row %d listed under %d, its parent %d (prev %d, want %d)", what, i, c, p, a.par[i][c], kl.prev[c], prev)
				}
				if listed++; listed > len(a.ids) {
					t.Fatalf("%s: landmark %d: the children lists loop", what, i)
				}
				prev = c
			}
		}
		want := 0
		for _, p := range a.par[i] {
			if p >= 0 {
				want++
			}
		}
		if listed != want {
			t.Fatalf("%s: landmark %d: %d rows listed, %d have a parent", what, i, listed, want)
		}
		kids++
	}
	return kids
}

// TestFillTables: FillTables fills every table, each the one a query
// would fill (checked on one table per level against searches of its
// own), and queries then replace none.
func TestFillTables(t *testing.T) {
	for hi, h := range liftGraphs(t) {
		h.FillTables()
		for l := 2; l <= h.Levels(); l++ {
			lv := &h.levels[l-2]
			for c := range lv.cm {
				if lv.tables[c].Load() == nil {
					t.Fatalf("graph %d: level %d cluster %d has no table", hi, l, c)
				}
			}
			c := int32(len(lv.cm) / 2)
			var a clusterAPSP
			want := a.newTable(h, l, c, lv.cm[c])
			a.fillRows(h, want, l, c, lv.cm[c], 0, 0)
			if got := lv.tables[c].Load(); !slices.Equal(got.d, want.d) || !slices.Equal(got.cols, want.cols) {
				t.Fatalf("graph %d: level %d cluster %d: a table unlike a search's", hi, l, c)
			}
		}
		var before []*endTable
		for l := 2; l <= h.Levels(); l++ {
			for c := range h.levels[l-2].cm {
				before = append(before, h.levels[l-2].tables[c].Load())
			}
		}
		sr := NewSearcher(h)
		for _, pq := range testmap.RandomPairs(testmap.NewRand(int64(hi)), h.g, 20) {
			if _, _, err := sr.AppendPath(nil, pq[0], pq[1], Query{}); err != nil {
				t.Fatal(err)
			}
		}
		k := 0
		for l := 2; l <= h.Levels(); l++ {
			for c := range h.levels[l-2].cm {
				if h.levels[l-2].tables[c].Load() != before[k] {
					t.Fatalf("graph %d: a query replaced level %d cluster %d's table", hi, l, c)
				}
				k++
			}
		}
	}
}

// TestFillPaths: after FillTables and FillPaths, a query searches nothing
// it would not search when repeated (its refinement finds every path
// kept), and answers cell for cell as on a graph without them; on a stale
// graph FillPaths refuses.
func TestFillPaths(t *testing.T) {
	for hi, h := range liftGraphs(t) {
		plain, err := Build(h.g, h.Options())
		if err != nil {
			t.Fatal(err)
		}
		h.FillTables()
		if err := h.FillPaths(); err != nil {
			t.Fatal(err)
		}
		abstract := asRepeated(t, hi, NewSearcher(h), NewSearcher(plain), testmap.RandomPairs(testmap.NewRand(int64(hi)), h.g, 40))
		if abstract < 10 {
			t.Fatalf("graph %d: only %d queries searched the abstract graph", hi, abstract)
		}
	}
	h := liftGraphs(t)[0]
	h.g.SetCells(image.Rect(0, 0, 3, 3), false)
	if err := h.FillPaths(); err == nil {
		t.Fatal("FillPaths on a stale graph")
	}
}

// TestRefill: after FillTables, FillPaths and in-place updates, Refill
// leaves no cluster without its table and paths, and a query then searches
// nothing but what it would when repeated, and finds the cells a fresh
// build would; without Refill the updates leave clusters empty.
func TestRefill(t *testing.T) {
	for hi, h := range liftGraphs(t)[:2] {
		h.FillTables()
		if err := h.FillPaths(); err != nil {
			t.Fatal(err)
		}
		sr := NewSearcher(h)
		r := testmap.NewRand(int64(hi) + 7)
		for e := range 6 {
			x, y := r.IntN(h.w-4), r.IntN(h.h-4)
			rc := image.Rect(x, y, x+1+r.IntN(4), y+1)
			h.g.SetCells(rc, e%2 == 1)
			if _, err := h.Update(h.g, rc); err != nil {
				t.Fatal(err)
			}
		}
		if emptyClusters(h) == 0 {
			t.Fatalf("graph %d: the updates emptied no cluster: the test shows nothing", hi)
		}
		if err := sr.Refill(); err != nil {
			t.Fatal(err)
		}
		if n := emptyClusters(h); n != 0 {
			t.Fatalf("graph %d: %d clusters without their table or paths after Refill", hi, n)
		}
		fresh, err := Build(h.g, h.Options())
		if err != nil {
			t.Fatal(err)
		}
		asRepeated(t, hi, sr, NewSearcher(fresh), testmap.RandomPairs(r, h.g, 40))
	}
}

// asRepeated checks that each query of pairs on sr expands the first time
// what it expands when repeated, nothing being left to find, and gives the
// cells that other, on a graph of the same grid, gives; it returns how
// many queries searched the abstract graph.
func asRepeated(t *testing.T, hi int, sr, other *Searcher, pairs [][2]image.Point) (abstract int) {
	t.Helper()
	for _, pq := range pairs {
		p1, r1, err := sr.AppendPath(nil, pq[0], pq[1], Query{})
		if err != nil {
			t.Fatal(err)
		}
		_, r2, _ := sr.AppendPath(nil, pq[0], pq[1], Query{})
		if r1.Expanded != r2.Expanded {
			t.Fatalf("graph %d, %v→%v: %d expanded the first time, %d the second", hi, pq[0], pq[1], r1.Expanded, r2.Expanded)
		}
		if sr.lastLevel > 0 {
			abstract++
		}
		if want, _, _ := other.AppendPath(nil, pq[0], pq[1], Query{}); !slices.Equal(p1, want) {
			t.Fatalf("graph %d, %v→%v: %d cells, the other graph's %d", hi, pq[0], pq[1], len(p1), len(want))
		}
	}
	return abstract
}

// emptyClusters counts the clusters with nodes that have no table (above
// level 1) or no paths.
func emptyClusters(h *Graph) int {
	n := 0
	for c := range h.cpaths {
		if len(h.cnodes[c]) > 1 && h.cpaths[c].Load() == nil {
			n++
		}
	}
	for l := 2; l <= h.Levels(); l++ {
		lv := &h.levels[l-2]
		for c := range lv.cm {
			if len(lv.cm[c]) > 1 && (lv.tables[c].Load() == nil || lv.paths[c].Load() == nil) {
				n++
			}
		}
	}
	return n
}
