package agent_test

import (
	"fmt"
	"image"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestPlanOptimal checks Plan's paths against the Dijkstra oracle.
func TestPlanOptimal(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 40, 30, 0.25, grid.Options{})
		o := testmap.NewOracle(g)
		pl := agent.NewPlanner(g)
		var p agent.Path
		for _, pair := range testmap.RandomPairs(testmap.NewRand(seed), g, 50) {
			if _, err := pl.Plan(&p, pair[0], pair[1]); err != nil {
				t.Fatal(err)
			}
			want, ok := o.Dist(pair[0], pair[1])
			if !ok {
				if p.Status() != agent.NoPath || len(p.Cells()) != 0 {
					t.Fatalf("seed %d %v → %v: status %v with %d cells, want no path", seed, pair[0], pair[1], p.Status(), len(p.Cells()))
				}
				continue
			}
			cost, err := testmap.CheckPath(g, p.Cells(), pair[0], pair[1])
			if err != nil || math.Abs(cost-want) > 1e-9 || p.Status() != agent.Following {
				t.Fatalf("seed %d %v → %v: cost %v (%v), status %v; want %v, following", seed, pair[0], pair[1], cost, err, p.Status(), want)
			}
		}
	}
}

// TestPlanPartial asks for goals in other regions and on walls: with
// Options.Partial the path ends at the reachable cell nearest the goal.
func TestPlanPartial(t *testing.T) {
	m, err := testmap.Parse(`
		.....#....
		.....#....
		.....#....
		.....#....
	`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := m.Grid
	pl := agent.NewPlanner(g)
	pl.Partial = true
	var p agent.Path
	for _, tc := range []struct {
		to, end image.Point
	}{
		{image.Pt(8, 1), image.Pt(4, 1)}, // across the wall
		{image.Pt(5, 3), image.Pt(4, 3)}, // on the wall
		{image.Pt(2, 2), image.Pt(2, 2)}, // reachable
	} {
		if _, err := pl.Plan(&p, image.Pt(0, 0), tc.to); err != nil {
			t.Fatal(err)
		}
		want := agent.Partial
		if tc.to == tc.end {
			want = agent.Following
		}
		if p.Status() != want || p.End() != tc.end || p.Goal() != tc.to {
			t.Errorf("to %v: status %v, end %v, goal %v; want %v, %v, %v", tc.to, p.Status(), p.End(), p.Goal(), want, tc.end, tc.to)
		}
	}
	pl.Partial = false
	if _, err := pl.Plan(&p, image.Pt(0, 0), image.Pt(8, 1)); err != nil || p.Status() != agent.NoPath {
		t.Errorf("without partial paths: status %v, error %v; want no path, nil", p.Status(), err)
	}
	for _, tc := range []struct{ from, to image.Point }{
		{image.Pt(5, 0), image.Pt(1, 1)},  // blocked start
		{image.Pt(-1, 0), image.Pt(1, 1)}, // start off the grid
		{image.Pt(0, 0), image.Pt(10, 1)}, // goal off the grid
	} {
		if _, err := pl.Plan(&p, tc.from, tc.to); err == nil || p.Status() != agent.NoPath || p.Err() == nil {
			t.Errorf("%v → %v: error %v, status %v; want an error and no path", tc.from, tc.to, err, p.Status())
		}
	}
}

// TestMoveGoal moves goals about on random maps: the path stays legal from
// the same start to the new goal, and keeps the prefix it had.
func TestMoveGoal(t *testing.T) {
	g := testmap.Random(5, 60, 50, 0.2, grid.Options{})
	o := testmap.NewOracle(g)
	pl := agent.NewPlanner(g)
	r := testmap.NewRand(5)
	var p agent.Path
	short, far := 0, 0
	for i, pair := range testmap.RandomPairs(r, g, 80) {
		if _, err := pl.Plan(&p, pair[0], pair[1]); err != nil || p.Status() != agent.Following {
			continue
		}
		goal := pair[1]
		for k := range 5 {
			to := goal.Add(image.Pt(r.IntN(7)-3, r.IntN(7)-3))
			if k == 4 {
				to = image.Pt(r.IntN(g.Width()), r.IntN(g.Height()))
			}
			if !g.Passable(to) || !g.Connected(pair[0], to) {
				continue
			}
			before := append([]image.Point(nil), p.Cells()...)
			if _, err := pl.MoveGoal(&p, to); err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("pair %d move %d: %v → %v", i, k, pair[0], to)
			cost, err := testmap.CheckPath(g, p.Cells(), pair[0], to)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if want, _ := o.Dist(pair[0], to); cost < want-1e-9 {
				t.Fatalf("%s: cost %v below the optimum %v", where, cost, want)
			}
			kept := 0
			for kept < len(before) && kept < len(p.Cells()) && before[kept] == p.Cells()[kept] {
				kept++
			}
			if kept == 0 {
				t.Fatalf("%s: the start was not kept", where)
			}
			if k < 4 {
				short++
			} else {
				far++
			}
			goal = to
		}
	}
	if short == 0 || far == 0 {
		t.Errorf("%d short and %d far moves: the test saw too few", short, far)
	}
}

// TestRepair puts walls up and takes them down on random maps holding
// many paths: after each edit, Repair leaves every path legal from the
// agent's cell to its goal, or reports it Broken; a Broken path planned
// again is optimal.
func TestRepair(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		g := testmap.Random(seed, 70, 60, 0.12, grid.Options{})
		pl := agent.NewPlanner(g)
		r := testmap.NewRand(seed)
		type walker struct {
			p    agent.Path
			goal image.Point
		}
		var ws []*walker
		for _, pair := range testmap.RandomPairs(r, g, 40) {
			w := &walker{goal: pair[1]}
			if _, err := pl.Plan(&w.p, pair[0], pair[1]); err == nil && w.p.Status() == agent.Following {
				ws = append(ws, w)
			}
		}
		counts := map[agent.Mend]int{}
		for e := range 40 {
			// A wall across a path, on free cells none of the agents stands in.
			w := ws[r.IntN(len(ws))]
			c := w.p.Cells()[len(w.p.Cells())/2]
			rect := image.Rect(c.X-3, c.Y, c.X+4, c.Y+1)
			if r.IntN(2) == 0 {
				rect = image.Rect(c.X, c.Y-3, c.X+1, c.Y+4)
			}
			rect = rect.Intersect(g.Bounds())
			block := e%3 != 2
			stands := false
			for _, w := range ws {
				stands = stands || w.p.Cells()[0].In(rect) || w.goal.In(rect)
			}
			if stands {
				continue
			}
			g.SetCells(rect, !block)
			o := testmap.NewOracle(g)
			for i, w := range ws {
				where := fmt.Sprintf("seed %d edit %d %v block %v, walker %d", seed, e, rect, block, i)
				from := w.p.Cells()[0]
				m := pl.Repair(&w.p, rect)
				counts[m]++
				if m == agent.Broken {
					if _, err := pl.Plan(&w.p, from, w.goal); err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					want, ok := o.Dist(from, w.goal)
					if !ok {
						if w.p.Status() != agent.NoPath {
							t.Fatalf("%s: status %v, want no path", where, w.p.Status())
						}
						continue
					}
					cost, err := testmap.CheckPath(g, w.p.Cells(), from, w.goal)
					if err != nil || math.Abs(cost-want) > 1e-9 {
						t.Fatalf("%s: replanned cost %v (%v), want %v", where, cost, err, want)
					}
					continue
				}
				if w.p.Status() != agent.Following {
					continue
				}
				if _, err := testmap.CheckPath(g, w.p.Cells(), from, w.goal); err != nil {
					t.Fatalf("%s: %v after %v\n%s", where, err, m, testmap.Render(g, w.p.Cells()))
				}
			}
		}
		if counts[agent.Mended] == 0 || counts[agent.Intact] == 0 {
			t.Errorf("seed %d: repairs %v: the test saw too few kinds", seed, counts)
		}
	}
}

// TestPlannerAllocs checks that warm Plan, MoveGoal and Repair do not
// allocate.
func TestPlannerAllocs(t *testing.T) {
	g := testmap.Random(4, 64, 64, 0.15, grid.Options{})
	pl := agent.NewPlanner(g)
	free := testmap.FreeCells(g)
	from, to := free[0], free[len(free)-1]
	var p agent.Path
	plan := func() {
		if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
			t.Fatal("no path", err)
		}
	}
	plan()
	if n := testing.AllocsPerRun(20, plan); n != 0 {
		t.Errorf("Plan allocates %v times a call", n)
	}
	move := func() {
		plan()
		if _, err := pl.MoveGoal(&p, free[len(free)-2]); err != nil {
			t.Fatal(err)
		}
	}
	move()
	if n := testing.AllocsPerRun(20, move); n != 0 {
		t.Errorf("MoveGoal allocates %v times a call", n)
	}
	mid := p.Cells()[len(p.Cells())/2]
	rect := image.Rect(mid.X, mid.Y, mid.X+1, mid.Y+1)
	// SetCells allocates a little, so count Repair's mallocs alone.
	var m0, m1 runtime.MemStats
	var mallocs uint64
	for i := range 21 {
		g.SetCells(rect, false)
		runtime.ReadMemStats(&m0)
		m := pl.Repair(&p, rect)
		runtime.ReadMemStats(&m1)
		if m != agent.Mended {
			t.Fatalf("repair %v, want mended", m)
		}
		if i > 0 {
			mallocs += m1.Mallocs - m0.Mallocs
		}
		g.SetCells(rect, true)
		plan()
	}
	if mallocs != 0 {
		t.Errorf("20 repairs allocated %d times", mallocs)
	}
}

// TestFilteredAgent plans, steers and repairs a boat's path: it stays on
// water, which the grid itself calls blocked, and a dam across its channel
// is mended around through the water.
func TestFilteredAgent(t *testing.T) {
	g, err := grid.ReadMap(strings.NewReader("type octile\nheight 6\nwidth 12\nmap\n"+
		"............\n"+
		".WWWWWWWWWW.\n"+
		".WWWWWWWWWW.\n"+
		".WWWWWWWWWW.\n"+
		"............\n"+
		"............\n"), "lake.map", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var boat grid.Filter
	boat.Include[grid.AreaWater] = true
	boat.Exclude[grid.AreaGround] = true
	pl := agent.NewPlanner(g)
	pl.Query.Filter = &boat
	var p agent.Path
	p.Lookahead = 5
	from, to := image.Pt(1, 2), image.Pt(10, 2)
	if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
		t.Fatalf("boat: status %v, error %v", p.Status(), err)
	}
	// The grid alone has no path: its water is blocked.
	var walker agent.Path
	if _, err := agent.NewPlanner(g).Plan(&walker, from, to); err == nil {
		t.Fatalf("a walker from the water: no error")
	}
	pos := agent.Centre(from)
	for frame := 0; ; frame++ {
		if frame == 3 {
			dam := image.Rect(6, 2, 7, 3) // a rock in the channel
			g.SetCells(dam, false)
			if m := pl.Repair(&p, dam); m == agent.Broken {
				t.Fatalf("repair %v, want the path mended through the water", m)
			}
		}
		if frame > 200 {
			t.Fatalf("not arrived, at %v", pos)
		}
		target, done := p.Steer(pos)
		if done {
			break
		}
		next := target
		if d := target.Sub(pos); d.Len() > 0.3 {
			next = pos.Add(d.Mul(0.3 / d.Len()))
		}
		for k := 0; k <= 64; k++ {
			if c := agent.CellOf(pos.Add(next.Sub(pos).Mul(float64(k) / 64))); !boat.Passable(g, c) {
				t.Fatalf("frame %d: the boat's move %v → %v enters %v, area %d", frame, pos, next, c, g.Area(c))
			}
		}
		pos = next
	}
}
