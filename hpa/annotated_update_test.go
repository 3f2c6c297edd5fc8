package hpa_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestAnnotatedUpdate edits a map in place with random walls and gaps and
// updates an annotated graph of three levels, and one of one, after each
// edit (its landmarks repaired on the top level): it then
// writes the bytes a fresh build of the edited map writes, has its
// counts, and answers each class's queries at the same costs, with
// legal paths for the unit; between an edit and its Update, queries fail
// with ErrStale.
func TestAnnotatedUpdate(t *testing.T) {
	for _, opt := range []hpa.Options{{ClusterSize: 16, Levels: 3, LevelFactor: 2}, {ClusterSize: 16, Levels: 1}} {
		t.Run(fmt.Sprintf("levels%d", opt.Levels), func(t *testing.T) { testAnnotatedUpdate(t, opt) })
	}
}

func testAnnotatedUpdate(t *testing.T, opt hpa.Options) {
	g := classMap(21, 160, 112, true)
	classes := testClasses()
	a, err := hpa.BuildAnnotated(g, classes, opt)
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewAnnotatedSearcher(a)
	r := testmap.NewRand(21)
	edits := 12
	if testing.Short() {
		edits = 4
	}
	for step := range edits {
		x, y := r.IntN(g.Width()-8), r.IntN(g.Height()-8)
		rc := image.Rect(x, y, x+1+r.IntN(7), y+1+r.IntN(7))
		v := g.Version()
		before := make([][]float64, len(classes))
		for i := range classes {
			before[i] = cellStates(a.Grid(i))
		}
		g.SetCells(rc, step%3 == 2)
		if _, _, err := q.AppendPath(nil, 0, image.Pt(0, 0), image.Pt(0, 0), hpa.Query{}); g.Version() != v && !errors.Is(err, hpa.ErrStale) {
			t.Fatalf("edit %d: a query between the edit and the Update gave %v, want ErrStale", step, err)
		}
		if err := a.Update(rc); err != nil {
			t.Fatal(err)
		}
		for i := range classes { // Changed holds every cell of the class's grid that changed
			cg, ch := a.Grid(i), a.Changed(i)
			if cg == g && ch != rc {
				t.Fatalf("edit %d: Changed(%d) of the source's class %v, want the edit %v", step, i, ch, rc)
			}
			for k, st := range cellStates(cg) {
				if p := image.Pt(k%cg.Width(), k/cg.Width()); st != before[i][k] && !p.In(ch) {
					t.Fatalf("edit %d: class %d's cell %v changed outside Changed %v", step, i, p, ch)
				}
			}
		}
		fresh, err := hpa.BuildAnnotated(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := annotatedBytes(t, a), annotatedBytes(t, fresh); !bytes.Equal(got, want) {
			t.Fatalf("edit %d (%v): the updated graph writes %d bytes, a fresh build %d, not the same", step, rc, len(got), len(want))
		}
		sa, sf := a.Stats(), fresh.Stats()
		sa.Bytes, sf.Bytes = 0, 0 // the updated graph may keep free IDs
		if fmt.Sprint(sa) != fmt.Sprint(sf) {
			t.Fatalf("edit %d: stats %+v, a fresh build's %+v", step, sa, sf)
		}
		qf := hpa.NewAnnotatedSearcher(fresh)
		for i, cl := range classes {
			cg := a.Grid(i)
			for _, p := range classPairs(testmap.NewRand(int64(step*10+i)), cg, 16) {
				path, ra, err := q.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				_, rf, errf := qf.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				if err != nil || errf != nil || ra.Status != rf.Status || math.Abs(ra.Cost-rf.Cost) > 1e-9*rf.Cost {
					t.Fatalf("edit %d class %d %v→%v: updated %v %v (%v), fresh %v %v (%v)", step, i, p[0], p[1], ra.Status, ra.Cost, err, rf.Status, rf.Cost, errf)
				}
				if ra.Status == core.Found {
					checkClassPath(t, fmt.Sprintf("edit %d class %d", step, i), g, cg, cl, p, path, ra, 0)
				}
			}
		}
	}
}

// TestAnnotatedConcurrent queries two classes of one annotated graph from
// two goroutines, each with its searcher, while the source is edited and
// the graph updated: every answer is a path or an ErrStale error; run
// with -race.
func TestAnnotatedConcurrent(t *testing.T) {
	g := classMap(7, 90, 70, false)
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{}, {Size: 2, Filter: swampFilter()}}, hpa.Options{ClusterSize: 8, Levels: 2, LevelFactor: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Each goroutine makes its searcher while the updates run.
	raceEdits(t, g, a.Len(), a.Grid, func(i int) func(p [2]image.Point) error {
		q := hpa.NewAnnotatedSearcher(a)
		return func(p [2]image.Point) error { _, _, err := q.AppendPath(nil, i, p[0], p[1], hpa.Query{}); return err }
	}, a.Update)
}
