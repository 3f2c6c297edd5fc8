package agent_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// moveSafe checks a straight move from a to b by points every 1/64 of a
// cell along it: each must lie in a free cell. It is independent of
// grid.SegmentFree, which its own tests check exactly.
func moveSafe(g *grid.Grid, a, b mgl64.Vec2) error {
	n := int(math.Ceil(b.Sub(a).Len()*64)) + 1
	for i := 0; i <= n; i++ {
		p := a.Add(b.Sub(a).Mul(float64(i) / float64(n)))
		if c := agent.CellOf(p); !g.Passable(c) {
			return fmt.Errorf("move %v → %v passes %v in blocked cell %v", a, b, p, c)
		}
	}
	return nil
}

// walk moves an agent from the centre of its path's first cell by steps of
// at most speed toward Steer's target, checking every move, until it
// arrives or runs out of frames; push, when not nil, may displace it.
func walk(t *testing.T, where string, g *grid.Grid, p *agent.Path, speed float64, frames int, push func(pos mgl64.Vec2, frame int) mgl64.Vec2) (mgl64.Vec2, bool) {
	t.Helper()
	pos := agent.Centre(p.Cells()[0])
	for f := range frames {
		if push != nil {
			pos = push(pos, f)
		}
		target, done := p.Steer(pos)
		if done {
			return pos, true
		}
		if !g.SegmentFree(pos, target) {
			t.Fatalf("%s: frame %d: target %v is not in sight of %v", where, f, target, pos)
		}
		d := target.Sub(pos)
		next := target
		if l := d.Len(); l > speed {
			next = pos.Add(d.Mul(speed / l))
		}
		if err := moveSafe(g, pos, next); err != nil {
			t.Fatalf("%s: frame %d: %v", where, f, err)
		}
		pos = next
		if p.Lost() {
			return pos, false
		}
	}
	return pos, false
}

// TestSteerSafe walks agents along optimal paths of random maps at several
// speeds and lookaheads: no move enters a blocked cell, and every agent
// arrives within the frames its path length allows.
func TestSteerSafe(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		g := testmap.Random(seed, 48, 40, 0.1*float64(seed), grid.Options{})
		pl := agent.NewPlanner(g)
		r := testmap.NewRand(seed)
		for i, pair := range testmap.RandomPairs(r, g, 40) {
			var p agent.Path
			res, err := pl.Plan(&p, pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			if p.Status() != agent.Following {
				continue
			}
			for _, speed := range []float64{0.15, 0.7, 3} {
				for _, look := range []float64{0, 2, 6, 40} {
					p.Lookahead = look
					if _, err := pl.Plan(&p, pair[0], pair[1]); err != nil {
						t.Fatal(err)
					}
					where := fmt.Sprintf("seed %d pair %d %v → %v, speed %v lookahead %v", seed, i, pair[0], pair[1], speed, look)
					frames := int(res.Cost/min(speed, 1)) + 10
					pos, done := walk(t, where, g, &p, speed, frames, nil)
					if !done {
						t.Fatalf("%s: not arrived after %d frames, at %v (lost %v)\n%s", where, frames, pos, p.Lost(), testmap.Render(g, p.Cells()))
					}
					if agent.CellOf(pos) != pair[1] {
						t.Fatalf("%s: arrived at %v, in cell %v", where, pos, agent.CellOf(pos))
					}
				}
			}
		}
	}
}

// TestSteerPushed displaces agents at random into free space: they stay
// safe, and rejoin the path or report it lost, and a lost agent given a new
// path from where it stands arrives.
func TestSteerPushed(t *testing.T) {
	g := testmap.Random(7, 50, 50, 0.2, grid.Options{})
	pl := agent.NewPlanner(g)
	r := testmap.NewRand(7)
	lost := 0
	for i, pair := range testmap.RandomPairs(r, g, 60) {
		var p agent.Path
		p.Lookahead = 4
		if _, err := pl.Plan(&p, pair[0], pair[1]); err != nil || p.Status() != agent.Following {
			continue
		}
		push := func(pos mgl64.Vec2, f int) mgl64.Vec2 {
			if f%7 != 3 {
				return pos
			}
			q := pos.Add(mgl64.Vec2{r.Float64()*3 - 1.5, r.Float64()*3 - 1.5})
			if g.SegmentFree(pos, q) {
				return q
			}
			return pos
		}
		where := fmt.Sprintf("pair %d %v → %v", i, pair[0], pair[1])
		pos, done := walk(t, where, g, &p, 0.4, 4000, push)
		for tries := 0; !done && p.Lost() && tries < 20; tries++ {
			lost++
			if _, err := pl.Plan(&p, agent.CellOf(pos), pair[1]); err != nil {
				t.Fatal(err)
			}
			pos, done = walk(t, where, g, &p, 0.4, 4000, push)
		}
		if !done {
			t.Fatalf("%s: not arrived, at %v", where, pos)
		}
	}
	t.Logf("%d replans of lost agents", lost)
}

// TestSteerEmptyAndArrival pins the documented corner cases.
func TestSteerEmptyAndArrival(t *testing.T) {
	var p agent.Path
	pos := mgl64.Vec2{3, 4}
	if target, done := p.Steer(pos); target != pos || !done {
		t.Errorf("empty path: Steer = %v, %v; want %v, true", target, done, pos)
	}
	g, err := grid.FromRows([]string{"...."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pl := agent.NewPlanner(g)
	if _, err := pl.Plan(&p, image.Pt(0, 0), image.Pt(3, 0)); err != nil {
		t.Fatal(err)
	}
	if got := p.Status(); got != agent.Following {
		t.Fatalf("status %v, want following", got)
	}
	p.Lookahead = 10
	if target, done := p.Steer(mgl64.Vec2{0.5, 0.5}); target != (mgl64.Vec2{3.5, 0.5}) || done {
		t.Errorf("start: Steer = %v, %v; want the goal's centre, not done", target, done)
	}
	if _, done := p.Steer(mgl64.Vec2{3.46, 0.5}); !done {
		t.Errorf("0.04 from the goal's centre: not arrived")
	}
	if _, done := p.Steer(mgl64.Vec2{3.2, 0.5}); done {
		t.Errorf("0.3 from the goal's centre: arrived")
	}
}

// TestSteerAllocs checks that a warm Steer does not allocate.
func TestSteerAllocs(t *testing.T) {
	g := testmap.Random(2, 64, 64, 0.15, grid.Options{})
	pl := agent.NewPlanner(g)
	free := testmap.FreeCells(g)
	var p agent.Path
	p.Lookahead = 8
	if _, err := pl.Plan(&p, free[0], free[len(free)-1]); err != nil || p.Status() != agent.Following {
		t.Fatalf("no path: %v", err)
	}
	pos := agent.Centre(free[0])
	if n := testing.AllocsPerRun(100, func() { p.Steer(pos) }); n != 0 {
		t.Errorf("Steer allocates %v times a call", n)
	}
}
