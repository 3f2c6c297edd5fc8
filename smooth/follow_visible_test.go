package smooth_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/smooth"
	"github.com/go-gl/mathgl/mgl64"
)

// TestFollowerVisible walks agents along the corner turns of optimal paths
// on random maps with lookaheads far longer than the paths' clearance from
// walls: with Visible set to the grid's SegmentFree no move enters a
// blocked cell (checked at points every 1/64 of a cell), and every agent
// arrives. Without Visible, the same walks must enter walls somewhere, or
// the test proves nothing.
func TestFollowerVisible(t *testing.T) {
	unsafe := 0
	for seed := uint64(1); seed <= 4; seed++ {
		g, r := randomGrid(seed, 50, 40, 0.1*float64(seed), grid.Options{})
		for k := range 30 {
			from, to := randomCell(r, g), randomCell(r, g)
			cells, res := findPath(t, g, from, to)
			if res.Status != core.Found || len(cells) < 2 {
				continue
			}
			turns := smooth.AppendCornerTurns(nil, cells, g.LineOfSight)
			pts := make([]mgl64.Vec2, len(turns))
			for i, c := range turns {
				pts[i] = mgl64.Vec2{float64(c.X) + 0.5, float64(c.Y) + 0.5}
			}
			for _, look := range []float64{2, 6, 25} {
				for _, visible := range []bool{true, false} {
					f := smooth.NewFollower(pts, look)
					f.Arrive = 0.05
					if visible {
						f.Visible = g.SegmentFree
					}
					where := fmt.Sprintf("seed %d query %d %v → %v lookahead %v visible %v", seed, k, from, to, look, visible)
					pos, arrived, bad := pts[0], false, false
					for frame := 0; frame < int(res.Cost*4)+50 && !arrived; frame++ {
						target, done := f.Steer(pos)
						if done {
							arrived = true
							break
						}
						next := target
						if d := target.Sub(pos); d.Len() > 0.35 {
							next = pos.Add(d.Mul(0.35 / d.Len()))
						}
						if !movesFree(g, pos, next) {
							if visible {
								t.Fatalf("%s: frame %d: move %v → %v enters a blocked cell", where, frame, pos, next)
							}
							bad = true
							break
						}
						if visible && f.Blocked() {
							t.Fatalf("%s: frame %d: blocked at %v", where, frame, pos)
						}
						pos = next
					}
					if bad {
						unsafe++
					} else if !arrived {
						t.Fatalf("%s: not arrived, at %v", where, pos)
					}
				}
			}
		}
	}
	if unsafe == 0 {
		t.Errorf("no walk without Visible entered a wall: the test cannot tell Visible works")
	}
	t.Logf("%d walks without Visible entered walls", unsafe)
}

// movesFree checks points every 1/64 of a cell along a–b.
func movesFree(g *grid.Grid, a, b mgl64.Vec2) bool {
	n := int(math.Ceil(b.Sub(a).Len()*64)) + 1
	for i := 0; i <= n; i++ {
		p := a.Add(b.Sub(a).Mul(float64(i) / float64(n)))
		if !g.Passable(image.Pt(int(math.Floor(p.X())), int(math.Floor(p.Y())))) {
			return false
		}
	}
	return true
}
