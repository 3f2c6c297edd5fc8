package grid_test

import (
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestSliced runs queries a few expansions at a time, interleaved with a
// blocking Searcher on the same grid, and checks each ends with the path
// the Searcher finds, with a legal partial path at every step.
func TestSliced(t *testing.T) {
	for _, plain := range []bool{false, true} {
		const seed = 17
		g := testmap.Random(seed, 70, 50, 0.2, grid.Options{})
		sl, s := grid.NewSliced(g), grid.NewSearcher(g)
		q := grid.Query{Plain: plain}
		for i, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 60) {
			from, to := p[0], p[1]
			want, wres, _ := s.AppendPath(nil, from, to, q)
			if err := sl.Begin(from, to, q); err != nil {
				t.Fatal(err)
			}
			steps := 1 + i%7
			var st core.Status
			for n := 0; ; n++ {
				st = sl.Step(steps)
				if st != core.InProgress {
					break
				}
				partial, pres := sl.AppendPath(nil)
				if _, err := testmap.CheckPath(g, partial, from, pres.End); err != nil || pres.Status != core.InProgress {
					t.Fatalf("seed %d plain=%v %v→%v step %d: partial path %v status %v: %v", seed, plain, from, to, n, partial, pres.Status, err)
				}
				// A blocking query in between must not disturb the slice.
				s.AppendPath(nil, to, from, q)
			}
			got, res := sl.AppendPath(nil)
			if st != wres.Status || res.Status != wres.Status || res.Cost != wres.Cost || !slices.Equal(got, want) {
				t.Fatalf("seed %d plain=%v %v→%v in steps of %d: %v cost %v %v\nwant %v cost %v %v\n%s",
					seed, plain, from, to, steps, st, res.Cost, got, wres.Status, wres.Cost, want, testmap.Render(g, got))
			}
		}
	}
}

func TestSlicedEnds(t *testing.T) {
	g, err := grid.FromRows([]string{"..#..", "..#..", "..#.."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sl := grid.NewSliced(g)
	if err := sl.Begin(image.Pt(0, 0), image.Pt(4, 0), grid.Query{}); err != nil {
		t.Fatal(err)
	}
	if st := sl.Step(10); st != core.Unreachable {
		t.Fatalf("walled-off goal: status %v, want unreachable", st)
	}
	if p, r := sl.AppendPath(nil); len(p) != 0 || r.Status != core.Unreachable {
		t.Fatalf("walled-off goal: path %v, %v", p, r.Status)
	}
	if err := sl.Begin(image.Pt(2, 0), image.Pt(0, 0), grid.Query{}); err == nil {
		t.Fatal("Begin on a wall gave no error")
	}
}

// TestAppendOpenAfterNoSearch checks a query settled without a search
// leaves no frontier from the query before it.
func TestAppendOpenAfterNoSearch(t *testing.T) {
	g, err := grid.FromRows([]string{
		"......#..",
		"......#..",
		"......#..",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := grid.NewSearcher(g)
	s.AppendPath(nil, image.Pt(0, 0), image.Pt(5, 2), grid.Query{MaxExpansions: 2, Plain: true})
	if len(s.AppendOpen(nil)) == 0 {
		t.Fatal("a budget-limited search left no open cells; the test checks nothing")
	}
	if _, r, _ := s.AppendPath(nil, image.Pt(0, 0), image.Pt(8, 0), grid.Query{}); r.Status != core.Unreachable {
		t.Fatalf("status %v, want unreachable", r.Status)
	}
	if open := s.AppendOpen(nil); len(open) != 0 {
		t.Fatalf("open cells %v after a query settled by regions, want none", open)
	}
}
