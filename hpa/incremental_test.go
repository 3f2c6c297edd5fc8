package hpa_test

import (
	"errors"
	"fmt"
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// nextAll hands out the path of the latest Begin in chunks of n cells (all
// at once when n ≤ 0) and returns the cells and the final result; it fails
// the test when a chunk is short before the end, or a status is wrong.
func nextAll(t *testing.T, q *hpa.Searcher, n int, what string) ([]image.Point, hpa.Result) {
	t.Helper()
	var cells []image.Point
	for calls := 0; ; calls++ {
		if calls > 100000 {
			t.Fatalf("%s: Next never finished", what)
		}
		k := len(cells)
		var res hpa.Result
		var err error
		cells, res, err = q.Next(cells, n)
		if err != nil {
			t.Fatalf("%s: Next: %v", what, err)
		}
		switch res.Status {
		case core.InProgress:
			if n > 0 && len(cells)-k < n {
				t.Fatalf("%s: Next(%d) gave %d cells and more remain", what, n, len(cells)-k)
			}
		case core.Found:
			if len(cells) == k {
				t.Fatalf("%s: Next(%d) said the path goes on after its last cells, then found with none", what, n)
			}
			return cells, res
		default:
			t.Fatalf("%s: Next: status %v", what, res.Status)
		}
	}
}

// TestBeginNext checks that Begin and Next, in chunks of any size, give the
// cells, cost and expansions of AppendPath.
func TestBeginNext(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		g := testmap.Random(seed, 160, 120, 0.25, grid.Options{})
		for _, levels := range []int{1, 2, 3} {
			hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: levels})
			if err != nil {
				t.Fatal(err)
			}
			whole, inc := hpa.NewSearcher(hg), hpa.NewSearcher(hg)
			r := testmap.NewRand(seed)
			for i, p := range testmap.RandomPairs(r, g, 60) {
				what := fmt.Sprintf("seed %d levels %d: %v→%v", seed, levels, p[0], p[1])
				want, wres, err := whole.AppendPath(nil, p[0], p[1], hpa.Query{})
				if err != nil {
					t.Fatal(err)
				}
				bres, err := inc.Begin(p[0], p[1], hpa.Query{})
				if err != nil || bres.Status != wres.Status {
					t.Fatalf("%s: Begin %+v %v, AppendPath %+v", what, bres, err, wres)
				}
				if wres.Status != core.Found {
					if cells, res, err := inc.Next(nil, 0); len(cells) != 0 || res.Status != wres.Status || err != nil {
						t.Fatalf("%s: Next after an unreachable Begin: %d cells, %+v, %v", what, len(cells), res, err)
					}
					continue
				}
				if d := bres.Cost - wres.Cost; d > 1e-9 || d < -1e-9 {
					t.Fatalf("%s: Begin cost %v, path cost %v", what, bres.Cost, wres.Cost)
				}
				n := []int{0, 1, 2, 7, 50}[i%5]
				cells, res := nextAll(t, inc, n, what)
				if !slices.Equal(cells, want) || !hpa.SameAnswer(res, wres) {
					t.Fatalf("%s: Next(%d) gave %d cells %+v, AppendPath %d cells %+v", what, n, len(cells), res, len(want), wres)
				}
				// Once complete, Next gives nothing more.
				if more, res2, err := inc.Next(nil, 5); len(more) != 0 || !hpa.SameAnswer(res2, wres) || err != nil {
					t.Fatalf("%s: Next after the end: %d cells, %+v, %v", what, len(more), res2, err)
				}
			}
		}
	}
}

// TestBeginNextErrors: Next before any Begin, Begin's errors, and a grid
// edited in place between Begin and Next.
func TestBeginNextErrors(t *testing.T) {
	g := testmap.Random(2, 90, 60, 0.1, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewSearcher(hg)
	if cells, res, err := q.Next(nil, 0); len(cells) != 0 || res.Status != core.NotSearched || err != nil {
		t.Errorf("Next before Begin: %d cells, %+v, %v", len(cells), res, err)
	}
	if _, err := q.Begin(image.Pt(-1, 0), image.Pt(5, 5), hpa.Query{}); err == nil {
		t.Error("Begin accepted a start off the map")
	}
	free := testmap.FreeCells(g)
	from, to := free[0], free[len(free)-1]
	if res, err := q.Begin(from, to, hpa.Query{}); err != nil || res.Status != core.Found {
		t.Fatalf("Begin %v→%v: %+v, %v", from, to, res, err)
	}
	if _, _, err := q.Next(nil, 3); err != nil {
		t.Fatal(err)
	}
	// An edit that changes a cell far from both ends.
	var wall image.Rectangle
	for _, p := range free[len(free)/2:] {
		if p.Add(image.Pt(1, 0)) != to {
			wall = image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))}
			break
		}
	}
	sl := hpa.NewSearcher(hg)
	if err := sl.BeginSliced(from, to, hpa.Query{}); err != nil {
		t.Fatal(err)
	}
	g.SetCells(wall, false)
	if _, _, err := q.Next(nil, 0); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Next after an edit: %v, want ErrStale", err)
	}
	if _, err := sl.Step(10); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Step after an edit: %v, want ErrStale", err)
	}
	if err := sl.BeginSliced(from, to, hpa.Query{}); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("BeginSliced after an edit: %v, want ErrStale", err)
	}
	if _, err := q.Begin(from, to, hpa.Query{}); !errors.Is(err, hpa.ErrStale) {
		t.Errorf("Begin after an edit: %v, want ErrStale", err)
	}
}

// TestBeginNextAllocs: a warm incremental query allocates nothing.
func TestBeginNextAllocs(t *testing.T) {
	g := testmap.Random(3, 300, 200, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewSearcher(hg)
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 100)
	path := make([]image.Point, 0, 4096)
	run := func(p [2]image.Point) {
		if _, err := q.Begin(p[0], p[1], hpa.Query{}); err != nil {
			t.Fatal(err)
		}
		path = path[:0]
		for {
			var res hpa.Result
			path, res, err = q.Next(path, 16)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != core.InProgress {
				return
			}
		}
	}
	for _, p := range pairs { // grow the scratch
		run(p)
	}
	i := 0
	allocs := testing.AllocsPerRun(len(pairs), func() {
		run(pairs[i%len(pairs)])
		i++
	})
	if allocs != 0 {
		t.Errorf("a steady-state incremental query allocates %v times, want 0", allocs)
	}
	runSliced := func(p [2]image.Point) {
		if err := q.BeginSliced(p[0], p[1], hpa.Query{}); err != nil {
			t.Fatal(err)
		}
		stepAll(t, q, 20)
		path, _, err = q.Next(path[:0], 0)
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pairs {
		runSliced(p)
	}
	allocs = testing.AllocsPerRun(len(pairs), func() {
		runSliced(pairs[i%len(pairs)])
		i++
	})
	if allocs != 0 {
		t.Errorf("a steady-state sliced query allocates %v times, want 0", allocs)
	}
}

// TestSliced checks that BeginSliced and Step, n expansions at a time, then
// Next, give AppendPath's cells and answer, and that each Step but the one
// that joins the ends to the graph expands at most n nodes.
func TestSliced(t *testing.T) {
	steps := 0
	for seed := int64(1); seed <= 4; seed++ {
		g := testmap.Random(seed, 160, 120, 0.25, grid.Options{})
		for _, levels := range []int{1, 3} {
			hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: levels})
			if err != nil {
				t.Fatal(err)
			}
			whole, sl := hpa.NewSearcher(hg), hpa.NewSearcher(hg)
			r := testmap.NewRand(seed)
			for i, p := range testmap.RandomPairs(r, g, 50) {
				what := fmt.Sprintf("seed %d levels %d: %v→%v", seed, levels, p[0], p[1])
				want, wres, err := whole.AppendPath(nil, p[0], p[1], hpa.Query{})
				if err != nil {
					t.Fatal(err)
				}
				if err := sl.BeginSliced(p[0], p[1], hpa.Query{}); err != nil {
					t.Fatal(err)
				}
				n := []int{1, 3, 10, 100}[i%4]
				var res hpa.Result
				big, prev := 0, 0
				for calls := 0; ; calls++ {
					if calls > 100000 {
						t.Fatalf("%s: Step never finished", what)
					}
					if calls == 0 && wres.Status == core.Found {
						// Next before the searches end gives nothing.
						if cells, r, err := sl.Next(nil, 0); len(cells) != 0 || r.Status != core.InProgress || err != nil {
							t.Fatalf("%s: Next during the searches: %d cells, %+v, %v", what, len(cells), r, err)
						}
					}
					if res, err = sl.Step(n); err != nil {
						t.Fatal(err)
					}
					steps++
					if d := res.Expanded - prev; d > n {
						big++
					}
					prev = res.Expanded
					if res.Status != core.InProgress {
						break
					}
				}
				if big > 1 {
					t.Fatalf("%s: %d Step calls expanded more than %d nodes, want at most one (the ends' insertion)", what, big, n)
				}
				if res.Status != wres.Status {
					t.Fatalf("%s: sliced status %v, AppendPath %v", what, res.Status, wres.Status)
				}
				if wres.Status != core.Found {
					continue
				}
				cells, nres := nextAll(t, sl, 0, what)
				if !slices.Equal(cells, want) || !hpa.SameAnswer(nres, wres) {
					t.Fatalf("%s: sliced %d cells %+v, AppendPath %d cells %+v", what, len(cells), nres, len(want), wres)
				}
			}
		}
	}
	if steps < 1000 {
		t.Errorf("%d Step calls in all: the test sliced little", steps)
	}
}
