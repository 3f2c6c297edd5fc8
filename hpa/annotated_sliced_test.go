package hpa_test

import (
	"errors"
	"fmt"
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// annotatedSliced runs a sliced query of class i, Step(n) until its
// searches end and then Next(k) until the path is complete; it returns
// the cells, the final result, the Step calls and those that expanded
// more than n nodes.
func annotatedSliced(t *testing.T, what string, q *hpa.AnnotatedSearcher, i int, p [2]image.Point, n, k int) ([]image.Point, hpa.Result, int, int) {
	t.Helper()
	if err := q.BeginSliced(i, p[0], p[1], hpa.Query{}); err != nil {
		t.Fatalf("%s: BeginSliced: %v", what, err)
	}
	var res hpa.Result
	var err error
	calls, big, prev := 0, 0, 0
	for {
		if calls++; calls > 1000000 {
			t.Fatalf("%s: Step never finished", what)
		}
		if calls == 1 {
			// Next before the searches end gives nothing.
			if cells, r, err := q.Next(nil, 0); len(cells) != 0 || err != nil || r.Status == core.Found {
				t.Fatalf("%s: Next before the searches end: %d cells, %+v, %v", what, len(cells), r, err)
			}
		}
		if res, err = q.Step(n); err != nil {
			t.Fatalf("%s: Step: %v", what, err)
		}
		if res.Expanded-prev > n {
			big++
		}
		prev = res.Expanded
		if res.Status != core.InProgress {
			break
		}
	}
	if res.Status != core.Found {
		return nil, res, calls, big
	}
	cells, res := annotatedNext(t, what, q, k)
	return cells, res, calls, big
}

// stepper is a sliced query: a Searcher's or an AnnotatedSearcher's.
type stepper interface {
	Step(n int) (hpa.Result, error)
}

// stepAll runs s's sliced query to its end, n expansions a Step, and
// returns its result.
func stepAll(t *testing.T, s stepper, n int) hpa.Result {
	t.Helper()
	for {
		res, err := s.Step(n)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != core.InProgress {
			return res
		}
	}
}

// annotatedNext calls Next(k) until the path of q's query is complete.
func annotatedNext(t *testing.T, what string, q *hpa.AnnotatedSearcher, k int) ([]image.Point, hpa.Result) {
	t.Helper()
	var cells []image.Point
	for range 1000000 {
		n0 := len(cells)
		var res hpa.Result
		var err error
		if cells, res, err = q.Next(cells, k); err != nil {
			t.Fatalf("%s: Next: %v", what, err)
		}
		if k > 0 && res.Status == core.InProgress && len(cells)-n0 < k {
			t.Fatalf("%s: Next(%d) gave %d cells and more remain", what, k, len(cells)-n0)
		}
		if res.Status == core.Found && len(cells) == n0 {
			t.Fatalf("%s: Next(%d) said the path goes on after its last cells, then found with none", what, k)
		}
		if res.Status != core.InProgress {
			return cells, res
		}
	}
	t.Fatalf("%s: Next never finished", what)
	return nil, hpa.Result{}
}

// TestAnnotatedIncremental: for every class of graphs of one and three
// levels, Begin then Next a few cells at a time, and BeginSliced, Step a
// few expansions at a time and Next, give AppendPath's cells, status and
// cost (the abstract cost from Begin, the path's at the end); each Step
// expands at most its budget but the one that joins the ends to the
// graph; and some queries take many steps.
func TestAnnotatedIncremental(t *testing.T) {
	g := classMap(4, 160, 120, false)
	classes := testClasses()
	sliced := 0
	for _, opt := range []hpa.Options{{ClusterSize: 8, Levels: 1}, {ClusterSize: 8, Levels: 3, LevelFactor: 2}} {
		a, err := hpa.BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		whole, inc, sl := hpa.NewAnnotatedSearcher(a), hpa.NewAnnotatedSearcher(a), hpa.NewAnnotatedSearcher(a)
		for i := range classes {
			for j, p := range classPairs(testmap.NewRand(int64(i)), a.Grid(i), 30) {
				what := fmt.Sprintf("%+v class %d, %v→%v", opt, i, p[0], p[1])
				want, wres, err := whole.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				if err != nil {
					t.Fatal(err)
				}
				k := []int{1, 7, 50, 0}[j%4]
				res, err := inc.Begin(i, p[0], p[1], hpa.Query{})
				if err != nil || res.Status != wres.Status {
					t.Fatalf("%s: Begin gives %+v, %v; AppendPath %+v", what, res, err, wres)
				}
				if res.Status == core.Found && (res.Cost < wres.Cost-1e-9 || res.Cost > wres.Cost*1.5+1e-9) {
					t.Errorf("%s: Begin's cost %v, the path's %v", what, res.Cost, wres.Cost)
				}
				if res.Status == core.Found {
					cells, res := annotatedNext(t, what, inc, k)
					if !slices.Equal(cells, want) || res.Status != core.Found || res.Cost != wres.Cost {
						t.Fatalf("%s: Next(%d) gives %d cells, %+v; AppendPath %d cells, %+v", what, k, len(cells), res, len(want), wres)
					}
				}
				n := []int{1, 4, 30, 1000}[j%4]
				cells, res, calls, big := annotatedSliced(t, what, sl, i, p, n, k)
				if res.Status != wres.Status || !slices.Equal(cells, want) || res.Status == core.Found && res.Cost != wres.Cost {
					t.Fatalf("%s: sliced by %d gives %d cells, %+v; AppendPath %d cells, %+v", what, n, len(cells), res, len(want), wres)
				}
				if big > 1 {
					t.Fatalf("%s: %d Step calls expanded more than %d nodes, want at most one", what, big, n)
				}
				if calls > 10 {
					sliced++
				}
			}
		}
	}
	if sliced < 50 {
		t.Errorf("only %d sliced queries took more than 10 steps", sliced)
	}
}

// TestAnnotatedIncrementalErrors: Next without a query gives nothing, bad
// queries are refused by Begin and BeginSliced, and a query in progress
// fails with ErrStale once the source grid is edited, and still once the
// graph is updated; a new query then runs.
func TestAnnotatedIncrementalErrors(t *testing.T) {
	g := classMap(9, 96, 64, false)
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{}, {Size: 2}}, hpa.Options{ClusterSize: 8, Levels: 2, LevelFactor: 2})
	if err != nil {
		t.Fatal(err)
	}
	q, sl := hpa.NewAnnotatedSearcher(a), hpa.NewAnnotatedSearcher(a)
	if cells, res, err := q.Next(nil, 0); len(cells) != 0 || res.Status != core.NotSearched || err != nil {
		t.Errorf("Next before Begin: %d cells, %+v, %v", len(cells), res, err)
	}
	if res, err := sl.Step(5); res.Status != core.NotSearched || err != nil {
		t.Errorf("Step before BeginSliced: %+v, %v", res, err)
	}
	if _, err := q.Begin(2, image.Pt(1, 1), image.Pt(5, 5), hpa.Query{}); err == nil {
		t.Error("Begin accepted class 2 of 2")
	}
	if err := sl.BeginSliced(0, image.Pt(-1, 0), image.Pt(5, 5), hpa.Query{}); err == nil {
		t.Error("BeginSliced accepted a start off the map")
	}
	if err := sl.BeginSliced(0, image.Pt(1, 1), image.Pt(5, 5), hpa.Query{Weight: -1}); err == nil {
		t.Error("BeginSliced accepted weight −1")
	}
	cg := a.Grid(0)
	cell, _ := cg.LargestRegion()
	r := testmap.NewRand(9)
	var from, to image.Point
	for from.Sub(to).X < 50 { // ends far apart, so that the abstract graph is searched
		from, _ = cg.RandomFree(r, cell)
		to, _ = cg.RandomFree(r, cell)
	}
	if res, err := q.Begin(0, from, to, hpa.Query{}); err != nil || res.Status != core.Found {
		t.Fatalf("Begin %v→%v: %+v, %v", from, to, res, err)
	}
	if _, _, err := q.Next(nil, 3); err != nil {
		t.Fatal(err)
	}
	if err := sl.BeginSliced(0, from, to, hpa.Query{}); err != nil {
		t.Fatal(err)
	}
	wall := testmap.FreeWall(r, g, 3)
	g.SetCells(wall, false)
	if _, _, err := q.Next(nil, 0); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Next after an edit: %v, want ErrStale", err)
	}
	if _, err := sl.Step(10); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Step after an edit: %v, want ErrStale", err)
	}
	if _, err := q.Begin(0, from, to, hpa.Query{}); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Begin after an edit: %v, want ErrStale", err)
	}
	if err := a.Update(wall); err != nil {
		t.Fatal(err)
	}
	if _, err := sl.Step(10); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Step after the update: %v, want ErrStale", err)
	}
	if !cg.Passable(from) || !cg.Passable(to) || !cg.Connected(from, to) {
		return // the wall closed an end off: nothing more to ask
	}
	want, wres, err := hpa.NewAnnotatedSearcher(a).AppendPath(nil, 0, from, to, hpa.Query{})
	if err != nil {
		t.Fatal(err)
	}
	cells, res, _, _ := annotatedSliced(t, "after the update", sl, 0, [2]image.Point{from, to}, 20, 0)
	if !slices.Equal(cells, want) || res.Cost != wres.Cost {
		t.Errorf("a sliced query after the update gives %d cells, %+v; AppendPath %d, %+v", len(cells), res, len(want), wres)
	}
}

// TestAnnotatedSlicedAllocs: warm incremental and sliced queries of every
// class allocate nothing.
func TestAnnotatedSlicedAllocs(t *testing.T) {
	g := classMap(6, 256, 192, false)
	classes := testClasses()
	a, err := hpa.BuildAnnotated(g, classes, hpa.Options{ClusterSize: 16, Levels: 3, LevelFactor: 2})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewAnnotatedSearcher(a)
	buf := make([]image.Point, 0, 4096)
	for i := range classes {
		pairs := classPairs(testmap.NewRand(int64(i)), a.Grid(i), 20)
		run := func() {
			for j, p := range pairs {
				if j%2 == 0 {
					if _, err := q.Begin(i, p[0], p[1], hpa.Query{}); err != nil {
						t.Fatal(err)
					}
				} else {
					if err := q.BeginSliced(i, p[0], p[1], hpa.Query{}); err != nil {
						t.Fatal(err)
					}
					stepAll(t, q, 16)
				}
				for {
					var res hpa.Result
					var err error
					if buf, res, err = q.Next(buf[:0], 32); err != nil {
						t.Fatal(err)
					}
					if res.Status != core.InProgress {
						break
					}
				}
			}
		}
		run()
		if n := testing.AllocsPerRun(5, run); n != 0 {
			t.Errorf("class %d: %v allocations a run of %d queries", i, n, len(pairs))
		}
	}
}
