package hpa_test

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestAnnotatedPaths: for sizes 1 to 3 with and without swampFilter, the
// paths of one annotated graph are legal for each class's unit on the
// source grid, cost what they say on the class's grid, are never below the
// exact optimum of a grid search on it and are found exactly when it finds
// one; their mean excess is a few per cent, as that of the class's own
// graph of one level (Classes with Levels 1), which the test measures
// beside it.
func TestAnnotatedPaths(t *testing.T) {
	const w, h, pairs = 256, 192, 100
	classes := testClasses()
	st, own := make([]subopt, len(classes)), make([]subopt, len(classes))
	seeds := int64(3)
	if testing.Short() {
		seeds = 1
	}
	for seed := int64(1); seed <= seeds; seed++ {
		g := classMap(seed, w, h, seed == 3)
		a, err := hpa.BuildAnnotated(g, classes, hpa.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := hpa.BuildClasses(g, classes, hpa.Options{Levels: 1})
		if err != nil {
			t.Fatal(err)
		}
		q := hpa.NewAnnotatedSearcher(a)
		for i, cl := range classes {
			what := fmt.Sprintf("seed %d class %d (size %d, filter %v)", seed, i, cl.Size, cl.Filter != nil)
			cg := a.Grid(i)
			if cg != c.Grid(i) && !sameCells(cg, c.Grid(i)) {
				t.Fatalf("%s: the annotated graph's grid differs from Classes'", what)
			}
			exact, mine := grid.NewSearcher(cg), hpa.NewSearcher(c.Graph(i))
			for _, p := range classPairs(testmap.NewRand(seed*10+int64(i)), cg, pairs) {
				res, opt, found := askAnnotated(t, what, q, exact, g, cg, cl, i, p)
				if !found {
					continue
				}
				st[i].add(res.Cost, opt)
				if _, r, err := mine.AppendPath(nil, p[0], p[1], hpa.Query{}); err == nil && r.Status == core.Found {
					own[i].add(r.Cost, opt)
				}
			}
		}
	}
	for i, cl := range classes {
		t.Logf("class %d (size %d, filter %v): annotated %v; its own graph of one level %v", i, cl.Size, cl.Filter != nil, &st[i], &own[i])
		if st[i].n < 50*int(seeds)/3 {
			t.Errorf("class %d: only %d paths found", i, st[i].n)
		}
		if st[i].mean() > 0.06 {
			t.Errorf("class %d: mean suboptimality %.2f%%, want ≤ 6%%", i, 100*st[i].mean())
		}
	}
}

// TestAnnotatedLevels: an annotated graph of three levels (clusters of
// 16, 32 and 64 cells) gives paths legal for each class's unit, never
// below the class's optimum, found exactly when a grid search finds one,
// with a mean excess within a point of what the class's own graph of the
// same levels (Classes) gives (the small clusters of the test make it
// several per cent for both); capped at level 1, its queries cost what
// those of the annotated graph of one level cost (to rounding: the one
// level's landmarks guide its search, and may pick another path of the
// same abstract cost), as its level 1 is that graph.
func TestAnnotatedLevels(t *testing.T) {
	const w, h, pairs = 256, 192, 100
	classes := testClasses()
	opt := hpa.Options{ClusterSize: 16, Levels: 3, LevelFactor: 2}
	st, own := make([]subopt, len(classes)), make([]subopt, len(classes))
	seeds := int64(2)
	if testing.Short() {
		seeds = 1
	}
	for seed := int64(1); seed <= seeds; seed++ {
		g := classMap(seed+10, w, h, seed == 2)
		a, err := hpa.BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a.Levels() != 3 {
			t.Fatalf("%d levels, want 3", a.Levels())
		}
		one, err := hpa.BuildAnnotated(g, classes, hpa.Options{ClusterSize: 16, Levels: 1})
		if err != nil {
			t.Fatal(err)
		}
		c, err := hpa.BuildClasses(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		q, q1 := hpa.NewAnnotatedSearcher(a), hpa.NewAnnotatedSearcher(one)
		long := 0
		for i, cl := range classes {
			what := fmt.Sprintf("seed %d class %d (size %d, filter %v)", seed, i, cl.Size, cl.Filter != nil)
			cg := a.Grid(i)
			exact, mine := grid.NewSearcher(cg), hpa.NewSearcher(c.Graph(i))
			for _, p := range classPairs(testmap.NewRand(seed*10+int64(i)), cg, pairs) {
				res, opt, found := askAnnotated(t, what, q, exact, g, cg, cl, i, p)
				if !found {
					continue
				}
				st[i].add(res.Cost, opt)
				if d := p[0].Sub(p[1]); max(d.X, -d.X, d.Y, -d.Y) > 64 {
					long++
				}
				_, r1, err1 := q.AppendPath(nil, i, p[0], p[1], hpa.Query{MaxLevel: 1})
				_, r2, err2 := q1.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				if err1 != nil || err2 != nil || math.Abs(r1.Cost-r2.Cost) > 1e-9*r2.Cost {
					t.Fatalf("%s %v→%v: capped at level 1 %v (%v), one level %v (%v)", what, p[0], p[1], r1.Cost, err1, r2.Cost, err2)
				}
				if _, r, err := mine.AppendPath(nil, p[0], p[1], hpa.Query{}); err == nil && r.Status == core.Found {
					own[i].add(r.Cost, opt)
				}
			}
		}
		if long < 100 {
			t.Errorf("seed %d: %d queries of ends more than 64 cells apart, want the top level searched often", seed, long)
		}
	}
	for i, cl := range classes {
		t.Logf("class %d (size %d, filter %v): annotated %v; its own graph %v", i, cl.Size, cl.Filter != nil, &st[i], &own[i])
		if m := st[i].mean(); m > 0.10 || m > own[i].mean()+0.01 {
			t.Errorf("class %d: mean suboptimality %.2f%%, want ≤ 10%% and within a point of its own graph's %.2f%%", i, 100*m, 100*own[i].mean())
		}
	}
}

// askAnnotated answers p for class i (cl, of grid cg over source g) on
// q and by the exact search on cg, failing the test when either fails or
// they disagree on the status; when a path is found it checks it
// (checkClassPath) and returns the result, the optimum and true.
func askAnnotated(t *testing.T, what string, q *hpa.AnnotatedSearcher, exact *grid.Searcher, g, cg *grid.Grid, cl hpa.Class, i int, p [2]image.Point) (hpa.Result, float64, bool) {
	t.Helper()
	path, res, err := q.AppendPath(nil, i, p[0], p[1], hpa.Query{})
	_, opt, err2 := exact.AppendPath(nil, p[0], p[1], grid.Query{})
	if err != nil || err2 != nil || res.Status != opt.Status {
		t.Fatalf("%s %v→%v: annotated %v (%v), grid %v (%v)", what, p[0], p[1], res.Status, err, opt.Status, err2)
	}
	if res.Status != core.Found {
		return res, opt.Cost, false
	}
	checkClassPath(t, what, g, cg, cl, p, path, res, opt.Cost)
	return res, opt.Cost, true
}

// sameCells reports whether two grids have the same passable cells and
// costs.
func sameCells(a, b *grid.Grid) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := range a.Height() {
		for x := range a.Width() {
			p := image.Pt(x, y)
			if a.Passable(p) != b.Passable(p) || a.Passable(p) && a.Cost(p) != b.Cost(p) {
				return false
			}
		}
	}
	return true
}

// TestAnnotatedShares: the classes share the annotated graph's nodes and
// edges. It holds at most half the nodes of the classes' own graphs of one
// level together, and fewer edges; each class is served by about as many
// nodes as its own graph has (the shared transitions are placed by the
// same rule, where other classes' leave an entrance without one). On this
// cluttered map (3 % of scattered solid cells) the edges merge less than
// the nodes: the sizes' paths inside a cluster often differ in cost.
func TestAnnotatedShares(t *testing.T) {
	g := classMap(2, 256, 192, false)
	classes := testClasses()
	a, err := hpa.BuildAnnotated(g, classes, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := hpa.BuildClasses(g, classes, hpa.Options{Levels: 1})
	if err != nil {
		t.Fatal(err)
	}
	st := a.Stats()
	var nodes, edges int
	for i := range classes {
		own := c.Graph(i).Stats()
		nodes += own.Nodes
		edges += own.Edges
		t.Logf("class %d: %d of the %d nodes, %d of the %d edges; its own graph %d nodes, %d edges",
			i, st.ClassNodes[i], st.Nodes, st.ClassEdges[i], st.Edges, own.Nodes, own.Edges)
		if st.ClassNodes[i] < own.Nodes*9/10 || st.ClassNodes[i] > own.Nodes*3/2 {
			t.Errorf("class %d: served by %d nodes, its own graph has %d", i, st.ClassNodes[i], own.Nodes)
		}
	}
	t.Logf("annotated: %d nodes, %d edges, %d bytes; the classes' graphs together %d nodes, %d edges", st.Nodes, st.Edges, st.Bytes, nodes, edges)
	if st.Nodes*2 > nodes || st.Edges*10 > edges*9 {
		t.Errorf("annotated graph of %d nodes and %d edges against %d and %d: little is shared", st.Nodes, st.Edges, nodes, edges)
	}
	if st.Clusters != 8*6 || st.Entrances == 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestAnnotatedErrors: bad input is refused with errors that say what.
func TestAnnotatedErrors(t *testing.T) {
	g := classMap(5, 64, 48, false)
	for _, tc := range []struct {
		g       *grid.Grid
		classes []hpa.Class
		opt     hpa.Options
		want    string
	}{
		{nil, testClasses(), hpa.Options{}, "nil grid"},
		{g, nil, hpa.Options{}, "0 classes"},
		{g, []hpa.Class{{Size: -1}}, hpa.Options{}, "unit size -1"},
		{g, testClasses(), hpa.Options{Levels: 5}, "5 levels, want 0 to 4"},
		{g, testClasses(), hpa.Options{LevelFactor: 1}, "level factor 1"},
		{g, testClasses(), hpa.Options{ClusterSize: -3}, "cluster size -3"},
	} {
		if _, err := hpa.BuildAnnotated(tc.g, tc.classes, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("BuildAnnotated(%v classes, %+v): %v, want %q", len(tc.classes), tc.opt, err, tc.want)
		}
	}
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{}, {Size: 3}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewAnnotatedSearcher(a)
	free := testmap.FreeCells(a.Grid(1))
	p := free[0]
	var tight image.Point // free on the source, too narrow for the 3×3 unit
	for _, c := range testmap.FreeCells(g) {
		if !a.Grid(1).Passable(c) {
			tight = c
			break
		}
	}
	for _, tc := range []struct {
		class    int
		from, to image.Point
		q        hpa.Query
		want     string
	}{
		{2, p, p, hpa.Query{}, "class 2 of an annotated graph of 2"},
		{-1, p, p, hpa.Query{}, "class -1"},
		{0, image.Pt(-1, 0), p, hpa.Query{}, "start (-1,0) is outside"},
		{1, p, tight, hpa.Query{}, fmt.Sprintf("goal (%d,%d) is a blocked cell, for class 1", tight.X, tight.Y)},
		{0, p, p, hpa.Query{Weight: 0.5}, "weight 0.5"},
	} {
		if _, _, err := q.AppendPath(nil, tc.class, tc.from, tc.to, tc.q); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AppendPath(class %d, %v→%v, %+v): %v, want %q", tc.class, tc.from, tc.to, tc.q, err, tc.want)
		}
	}
	if a.Len() != 2 || a.Class(1).Size != 3 || a.ClusterSize() != 8 {
		t.Errorf("Len %d, Class(1) %+v, ClusterSize %d", a.Len(), a.Class(1), a.ClusterSize())
	}
	g.SetCells(image.Rect(0, 0, 1, 1), false)
	if _, _, err := q.AppendPath(nil, 0, p, p, hpa.Query{}); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("after an edit: %v, want ErrStale", err)
	}
}

// TestAnnotatedAllocs: a warm query allocates nothing, for each class, on
// a graph of one level and on one of three.
func TestAnnotatedAllocs(t *testing.T) {
	g := classMap(6, 256, 192, false)
	classes := testClasses()
	for _, opt := range []hpa.Options{{}, {ClusterSize: 16, Levels: 3, LevelFactor: 2}} {
		a, err := hpa.BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		testAnnotatedAllocs(t, a, classes, opt)
	}
}

func testAnnotatedAllocs(t *testing.T, a *hpa.Annotated, classes []hpa.Class, opt hpa.Options) {
	q := hpa.NewAnnotatedSearcher(a)
	for i := range classes {
		cg := a.Grid(i)
		pairs := classPairs(testmap.NewRand(int64(i)), cg, 20)
		buf := make([]image.Point, 0, 4096)
		run := func() {
			for _, p := range pairs {
				if _, _, err := q.AppendPath(buf[:0], i, p[0], p[1], hpa.Query{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		run()
		if n := testing.AllocsPerRun(5, run); n != 0 {
			t.Errorf("%+v, class %d: %v allocations a run of %d queries", opt, i, n, len(pairs))
		}
	}
}
