package hpa_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// sameWhenRepeated checks that every class's queries of pairs on a give
// the paths of ref, a graph of the same map whose paths are found as
// queries need them, and expand no more than when asked again: nothing
// was left for their refinement to search.
func sameWhenRepeated(t *testing.T, what string, a, ref *hpa.Annotated, seed int64) {
	t.Helper()
	q, qr := hpa.NewAnnotatedSearcher(a), hpa.NewAnnotatedSearcher(ref)
	for i := range a.Len() {
		for _, p := range classPairs(testmap.NewRand(seed+int64(i)), a.Grid(i), 30) {
			first, r1, err := q.AppendPath(nil, i, p[0], p[1], hpa.Query{})
			if err != nil {
				t.Fatal(err)
			}
			_, r2, _ := q.AppendPath(nil, i, p[0], p[1], hpa.Query{})
			want, rw, err := qr.AppendPath(nil, i, p[0], p[1], hpa.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(first, want) || r1.Cost != rw.Cost {
				t.Fatalf("%s class %d %v→%v: %d cells, cost %v; without the fill %d, %v", what, i, p[0], p[1], len(first), r1.Cost, len(want), rw.Cost)
			}
			if r1.Expanded != r2.Expanded {
				t.Fatalf("%s class %d %v→%v: the first query expanded %d, the same again %d", what, i, p[0], p[1], r1.Expanded, r2.Expanded)
			}
		}
	}
}

// TestAnnotatedFillPaths: after FillPaths, and after an Update and Refill,
// a class's first query of a pair expands what it does when repeated and
// finds the path a graph without the fill finds; on a graph out of date
// with its grid, both fail with ErrStale.
func TestAnnotatedFillPaths(t *testing.T) {
	g := classMap(12, 256, 192, false)
	classes := testClasses()
	for _, opt := range []hpa.Options{{ClusterSize: 8, Levels: 1}, {ClusterSize: 8, Levels: 3, LevelFactor: 2}} {
		what := fmt.Sprintf("levels %d", opt.Levels)
		a, err := hpa.BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		rs := hpa.NewAnnotatedSearcher(a)
		r := testmap.NewRand(12)
		if opt.Levels == 1 {
			if err := a.FillPaths(); err != nil {
				t.Fatal(err)
			}
		} else {
			// Refill fills a graph that has kept nothing, here on a
			// searcher whose sliced query was left in its abstract search:
			// that query's landmark bound must not guide the fill.
			slicedUnfinished(t, rs, a, r)
			if err := rs.Refill(); err != nil {
				t.Fatal(err)
			}
		}
		ref, err := hpa.BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameWhenRepeated(t, what, a, ref, 1)
		for step := range 4 {
			wall := testmap.FreeWall(r, g, 6)
			g.SetCells(wall, false)
			if err := a.FillPaths(); !errors.Is(err, hpa.ErrStale) {
				t.Errorf("%s: FillPaths after an edit: %v, want ErrStale", what, err)
			}
			if err := rs.Refill(); !errors.Is(err, hpa.ErrStale) {
				t.Errorf("%s: Refill after an edit: %v, want ErrStale", what, err)
			}
			if err := a.Update(wall); err != nil {
				t.Fatal(err)
			}
			slicedUnfinished(t, rs, a, r)
			if err := rs.Refill(); err != nil {
				t.Fatal(err)
			}
			fresh, err := hpa.BuildAnnotated(g, classes, opt)
			if err != nil {
				t.Fatal(err)
			}
			sameWhenRepeated(t, fmt.Sprintf("%s, edit %d (%v)", what, step, wall), a, fresh, int64(10+step))
		}
	}
}

// slicedUnfinished leaves on sr a sliced query of class 0 between ends far
// apart, stopped in its abstract search.
func slicedUnfinished(t *testing.T, sr *hpa.AnnotatedSearcher, a *hpa.Annotated, r *rand.Rand) {
	t.Helper()
	cg := a.Grid(0)
	cell, _ := cg.LargestRegion()
	for {
		from, _ := cg.RandomFree(r, cell)
		to, _ := cg.RandomFree(r, cell)
		if d := from.Sub(to); max(d.X, -d.X, d.Y, -d.Y) < cg.Width()/2 {
			continue
		}
		if err := sr.BeginSliced(0, from, to, hpa.Query{}); err != nil {
			t.Fatal(err)
		}
		for range 2 { // the ends joined, then one expansion
			if _, err := sr.Step(1); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
}
