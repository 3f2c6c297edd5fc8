package hpa

import (
	"image"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// jumpStraightByCell is the straight run of jumpCluster walked a cell at a
// time, the rule itself, with the targets those of target (not the
// cluster's bits): the oracle of the word-at-a-time jumpStraight.
func (j *jumpCluster) jumpStraightByCell(p, s image.Point, target map[image.Point]bool) (image.Point, int, bool) {
	side := image.Pt(s.Y, s.X)
	for k := 1; ; k++ {
		q := p.Add(s.Mul(k))
		if !j.free(q) {
			return q, 0, false
		}
		if target[q] {
			return q, k, true
		}
		back := q.Sub(s)
		if (j.free(q.Add(side)) && !j.free(back.Add(side))) || (j.free(q.Sub(side)) && !j.free(back.Sub(side))) {
			return q, k, true
		}
	}
}

// TestJumpStraightWords checks every straight run, from every free cell of
// random rectangles (narrow ones, and ones wider and taller than a word of
// 64 cells, some at the map's edges) in all four directions, against the
// walk cell by cell, on maps from open to dense with random targets.
func TestJumpStraightWords(t *testing.T) {
	runs, stops := 0, 0
	for seed := int64(1); seed <= 8; seed++ {
		const w, h = 150, 140
		g := testmap.Random(seed, w, h, []float64{0, 0.03, 0.15, 0.35}[seed%4], grid.Options{})
		hg, err := Build(g, Options{ClusterSize: 40, Levels: 1})
		if err != nil {
			t.Fatal(err)
		}
		cs := newSpanSearch(hg, 4)
		j := &cs.j
		r := testmap.NewRand(seed)
		for range 30 {
			x0, y0 := r.IntN(w-1), r.IntN(h-1)
			side := []int{8, 40, 150}[r.IntN(3)]
			rect := image.Rect(x0, y0, min(x0+1+r.IntN(side), w), min(y0+1+r.IntN(side), h))
			if r.IntN(4) == 0 {
				rect = image.Rect(0, 0, w, h)
			}
			cs.c.setRect(rect)
			var free, targets []int32
			isTarget := map[image.Point]bool{}
			for y := rect.Min.Y; y < rect.Max.Y; y++ {
				for x := rect.Min.X; x < rect.Max.X; x++ {
					if p := image.Pt(x, y); g.Passable(p) {
						free = append(free, cs.c.id(p))
						if r.IntN(60) == 0 {
							targets = append(targets, cs.c.id(p))
							isTarget[p] = true
						}
					}
				}
			}
			j.setTargets(targets...)
			for _, n := range free {
				p := cs.c.cell(n)
				for _, s := range []image.Point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					q, k, ok := j.jumpStraight(p, s)
					wq, wk, wok := j.jumpStraightByCell(p, s, isTarget)
					if q != wq || k != wk || ok != wok {
						t.Fatalf("seed %d, rectangle %v, run from %v by %v: %v %d %v, want %v %d %v", seed, rect, p, s, q, k, ok, wq, wk, wok)
					}
					runs++
					if ok {
						stops++
					}
				}
			}
		}
	}
	if runs < 100000 || stops < runs/10 {
		t.Fatalf("%d runs, %d ending at a jump point: too few", runs, stops)
	}
}
