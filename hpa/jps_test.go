package hpa

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestJumpCluster checks the jump point search inside rectangles against
// the plain search of the same cells: the same distances from a cell to
// many targets, and paths legal inside the rectangle of the same cost, on
// random maps from open to dense and rectangles of every shape, some at the
// map's edge.
func TestJumpCluster(t *testing.T) {
	checked := 0
	for seed := int64(1); seed <= 12; seed++ {
		g := testmap.Random(seed, 70, 50, []float64{0, 0.1, 0.25, 0.35}[seed%4], grid.Options{})
		h, err := Build(g, Options{ClusterSize: 8, Levels: 1})
		if err != nil {
			t.Fatal(err)
		}
		js, plain := newClusterSearch(h), newClusterSearch(h)
		plain.jump = false
		plain.s = core.NewSearcher(&plain.c)
		if !js.jump {
			t.Fatal("no jump point search on an 8-connected grid of unit terrain")
		}
		r := testmap.NewRand(seed)
		for range 60 {
			x0, y0 := r.IntN(60), r.IntN(40)
			rect := image.Rect(x0, y0, min(x0+1+r.IntN(32), 70), min(y0+1+r.IntN(32), 50))
			var cells []image.Point
			for y := rect.Min.Y; y < rect.Max.Y; y++ {
				for x := rect.Min.X; x < rect.Max.X; x++ {
					if g.Passable(image.Pt(x, y)) {
						cells = append(cells, image.Pt(x, y))
					}
				}
			}
			if len(cells) < 2 {
				continue
			}
			from := cells[r.IntN(len(cells))]
			what := fmt.Sprintf("seed %d %v from %v", seed, rect, from)
			// Many targets.
			for _, cs := range []*clusterSearch{js, plain} {
				cs.c.setRect(rect)
				cs.targets = cs.targets[:0]
				for range 1 + r.IntN(8) {
					cs.targets = append(cs.targets, cs.c.id(cells[r.IntN(len(cells))]))
				}
			}
			plain.targets = append(plain.targets[:0], js.targets...)
			js.setTargets(js.targets...)
			js.s.SearchAll(js.c.id(from), js.targets, core.Query{})
			plain.s.SearchAll(plain.c.id(from), plain.targets, core.Query{})
			for _, tg := range js.targets {
				dj, okj := js.s.Dist(tg)
				dp, okp := plain.s.Dist(tg)
				if okj != okp || math.Abs(dj-dp) > 1e-9 {
					t.Fatalf("%s to %v: jump points %v %v, plain %v %v", what, js.c.cell(tg), dj, okj, dp, okp)
				}
				checked++
			}
			// One goal, with the path.
			to := cells[r.IntN(len(cells))]
			pj, _, okj := js.appendPathIn([]image.Point{from}, rect, from, to)
			pp, _, okp := plain.appendPathIn([]image.Point{from}, rect, from, to)
			if okj != okp {
				t.Fatalf("%s to %v: jump points found %v, plain %v", what, to, okj, okp)
			}
			if !okj {
				continue
			}
			cj, err := g.PathCost(pj)
			if err != nil || pj[len(pj)-1] != to {
				t.Fatalf("%s to %v: jump point path %v: %v", what, to, pj, err)
			}
			for _, p := range pj {
				if !p.In(rect) {
					t.Fatalf("%s to %v: the path leaves the rectangle at %v", what, to, p)
				}
			}
			cp, _ := g.PathCost(pp)
			if math.Abs(cj-cp) > 1e-9 {
				t.Fatalf("%s to %v: jump point path costs %v, plain %v", what, to, cj, cp)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("%d distances checked", checked)
	}
}
