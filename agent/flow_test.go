package agent_test

import (
	"fmt"
	"image"
	"math"
	"math/bits"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// flowNear reports whether a cost agrees with the oracle's to one part in 10⁹:
// the two add the same steps in another order.
func flowNear(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*max(1, want)
}

// checkFlowField checks f, computed on g for goal, cell by cell: its distances
// against the gonum oracle, its moves against the grid, and the paths it
// traces against its distances. what names the grid in failure messages.
func checkFlowField(t *testing.T, what string, g *grid.Grid, f *agent.FlowField, goal image.Point) {
	t.Helper()
	o := testmap.NewOracle(g)
	reached, far := 0, 0.0
	errs := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 5 {
			t.Errorf("%s, goal %v: %s\n%s", what, goal, fmt.Sprintf(format, args...), testmap.Render(g, nil))
		}
	}
	var path []image.Point
	for y := range g.Height() {
		for x := range g.Width() {
			p := image.Pt(x, y)
			want, wok := o.Dist(goal, p)
			got, ok := f.Dist(p)
			if ok != wok || (ok && !flowNear(got, want)) {
				fail("Dist(%v) = %v, %v; want %v, %v", p, got, ok, want, wok)
				continue
			}
			next, nok := f.Next(p)
			path = f.AppendPath(path[:0], p)
			if !ok {
				if !math.IsInf(got, 1) || nok || len(path) != 0 {
					fail("unreachable %v: Dist %v, Next %v %v, path %v; want +Inf, false and no path", p, got, next, nok, path)
				}
				continue
			}
			reached++
			far = max(far, got)
			if p == goal {
				if got != 0 || nok || len(path) != 1 || path[0] != goal {
					fail("goal: Dist %v, Next %v %v, path %v; want 0, false and the goal alone", got, next, nok, path)
				}
				continue
			}
			if !nok || !g.CanStep(p, next) {
				fail("Next(%v) = %v, %v: not a legal move", p, next, nok)
				continue
			}
			if dn, _ := f.Dist(next); got != dn+g.StepCost(p, next) {
				fail("Next(%v) = %v: Dist %v, then %v + step %v; want the step's cost exactly", p, next, got, dn, g.StepCost(p, next))
			}
			if len(path) == 0 || path[0] != p || path[len(path)-1] != goal {
				fail("AppendPath from %v = %v: want it from %v to the goal", p, path, p)
				continue
			}
			if cost, err := g.PathCost(path); err != nil || !flowNear(cost, got) {
				fail("AppendPath from %v costs %v (%v); want Dist %v\n%s", p, cost, err, got, testmap.Render(g, path))
			}
		}
	}
	if f.Reached() != reached || !flowNear(f.MaxDist(), far) {
		fail("Reached %d, MaxDist %v; want %d, %v", f.Reached(), f.MaxDist(), reached, far)
	}
	if f.Goal() != goal || f.Stale() || f.Version() != g.Version() {
		fail("Goal %v, Stale %v, Version %d; want %v, false, %d", f.Goal(), f.Stale(), f.Version(), goal, g.Version())
	}
}

// randomFlowGoal returns a free cell of g drawn with r, or false when g has none.
func randomFlowGoal(r interface{ IntN(int) int }, g *grid.Grid) (image.Point, bool) {
	free := testmap.FreeCells(g)
	if len(free) == 0 {
		return image.Point{}, false
	}
	return free[r.IntN(len(free))], true
}

// TestFlowFieldOracle checks fields on seeded random grids of several
// densities, both connectivities, with and without terrain costs, against
// an independent Dijkstra.
func TestFlowFieldOracle(t *testing.T) {
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		for _, costs := range []bool{false, true} {
			for _, density := range []float64{0, 0.15, 0.3, 0.45} {
				name := fmt.Sprintf("%v/costs=%v/density=%g", conn, costs, density)
				t.Run(name, func(t *testing.T) {
					for seed := int64(1); seed <= 6; seed++ {
						w, h := 12+int(seed)*3, 20-int(seed)
						var g *grid.Grid
						if costs {
							g = testmap.RandomCosts(seed, w, h, density, 6, conn)
						} else {
							g = testmap.Random(seed, w, h, density, grid.Options{Connectivity: conn})
						}
						f := agent.NewFlowField(g)
						r := testmap.NewRand(seed)
						for range 3 { // one field, several goals
							goal, ok := randomFlowGoal(r, g)
							if !ok {
								break
							}
							if err := f.Compute(goal); err != nil {
								t.Fatalf("seed %d: %v", seed, err)
							}
							checkFlowField(t, fmt.Sprintf("seed %d, %s", seed, name), g, f, goal)
						}
					}
				})
			}
		}
	}
}

// TestFlowFieldSmall checks distances drawn by hand: corner cutting,
// terrain, walls that cut the map in two.
func TestFlowFieldSmall(t *testing.T) {
	for _, tc := range []struct {
		name string
		draw string
		conn grid.Connectivity
		from image.Point
		dist float64 // -1: unreachable
		path string  // the path drawn as by testmap.Render, "" to skip
	}{
		{"open diagonal", `
			G...
			....
			....`, grid.Eight, image.Pt(3, 2), 1 + 2*math.Sqrt2, ""},
		{"no corner cutting", `
			G#
			..`, grid.Eight, image.Pt(1, 1), 2, `
			G#
			**`},
		{"four-connected", `
			G...
			....`, grid.Four, image.Pt(3, 1), 4, ""},
		{"terrain detour", `
			G9.
			...`, grid.Eight, image.Pt(2, 0), 2 * math.Sqrt2, `
			G9*
			.*.`},
		{"sealed", `
			G.#.
			..#.`, grid.Eight, image.Pt(3, 1), -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := testmap.Parse(strings.ReplaceAll(tc.draw, "G", "."), grid.Options{Connectivity: tc.conn})
			if err != nil {
				t.Fatal(err)
			}
			goal := image.Pt(0, 0)
			f := agent.NewFlowField(m.Grid)
			if err := f.Compute(goal); err != nil {
				t.Fatal(err)
			}
			d, ok := f.Dist(tc.from)
			if want := tc.dist; ok != (want >= 0) || (ok && !flowNear(d, want)) {
				t.Errorf("Dist(%v) = %v, %v; want %v\n%s", tc.from, d, ok, want, testmap.Render(m.Grid, nil))
			}
			if tc.path != "" {
				path := f.AppendPath(nil, tc.from)
				got := testmap.Render(m.Grid, path)
				var want strings.Builder
				for line := range strings.Lines(tc.path) {
					if line = strings.TrimSpace(line); line != "" {
						want.WriteString(strings.ReplaceAll(line, "G", "*") + "\n")
					}
				}
				got = strings.NewReplacer("S", "*", "G", "*").Replace(got)
				if got != want.String() {
					t.Errorf("path %v:\n%s\nwant:\n%s", path, got, want.String())
				}
			}
			checkFlowField(t, tc.name, m.Grid, f, goal)
		})
	}
}

// TestFlowFieldErrors checks that a goal outside the grid or blocked is an
// error that says what and where, and leaves the field as it was.
func TestFlowFieldErrors(t *testing.T) {
	g, err := grid.FromRows([]string{
		"..#",
		"...",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := agent.NewFlowField(g)
	if d, ok := f.Dist(image.Pt(0, 0)); ok || !math.IsInf(d, 1) {
		t.Errorf("before Compute: Dist %v, %v; want +Inf, false", d, ok)
	}
	if _, ok := f.Next(image.Pt(0, 0)); ok || !f.Stale() || f.Goal() != image.Pt(-1, -1) || f.Reached() != 0 {
		t.Errorf("before Compute: Next %v, Stale %v, Goal %v, Reached %d", ok, f.Stale(), f.Goal(), f.Reached())
	}
	if path := f.AppendPath(nil, image.Pt(0, 0)); len(path) != 0 {
		t.Errorf("before Compute: path %v", path)
	}
	if err := f.Compute(image.Pt(0, 1)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		goal image.Point
		want string
	}{
		{image.Pt(2, 0), "agent: flow field goal (2,0) is a blocked cell"},
		{image.Pt(3, 0), "agent: flow field goal (3,0) is outside the 3×2 grid"},
		{image.Pt(0, -1), "agent: flow field goal (0,-1) is outside the 3×2 grid"},
	} {
		err := f.Compute(tc.goal)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Compute(%v) = %v; want %q", tc.goal, err, tc.want)
		}
	}
	checkFlowField(t, "after errors", g, f, image.Pt(0, 1))
}

// flowCells returns the cells and terrain costs of g, to build it again.
func flowCells(g *grid.Grid) ([]bool, []float64) {
	w, h := g.Width(), g.Height()
	free := make([]bool, w*h)
	var costs []float64
	if g.HasCosts() {
		costs = make([]float64, w*h)
	}
	for y := range h {
		for x := range w {
			p := image.Pt(x, y)
			free[y*w+x] = g.Passable(p)
			if costs != nil {
				costs[y*w+x] = g.Cost(p)
			}
		}
	}
	return free, costs
}

// TestFlowFieldEdits edits grids in place with SetCells and checks that the
// field goes stale, and that computing it again gives the same distances
// and moves as a field of a grid built afresh from the edited cells.
func TestFlowFieldEdits(t *testing.T) {
	for _, costs := range []bool{false, true} {
		for seed := int64(1); seed <= 8; seed++ {
			conn := grid.Connectivity(seed % 2)
			what := fmt.Sprintf("seed %d, %v, costs=%v", seed, conn, costs)
			var g *grid.Grid
			if costs {
				g = testmap.RandomCosts(seed, 40, 30, 0.2, 4, conn)
			} else {
				g = testmap.Random(seed, 40, 30, 0.2, grid.Options{Connectivity: conn})
			}
			r := testmap.NewRand(seed)
			f := agent.NewFlowField(g)
			goal, _ := randomFlowGoal(r, g)
			if err := f.Compute(goal); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			for edit := range 6 {
				v := g.Version()
				x, y := r.IntN(40), r.IntN(30)
				rect := image.Rect(x, y, x+1+r.IntN(8), y+1+r.IntN(3))
				g.SetCells(rect, edit%2 == 1)
				if changed := g.Version() != v; f.Stale() != changed {
					t.Errorf("%s, edit %d: Stale %v after an edit that changed the grid: %v", what, edit, f.Stale(), changed)
				}
				goal, ok := randomFlowGoal(r, g)
				if !ok {
					break
				}
				if err := f.Compute(goal); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				free, cs := flowCells(g)
				fresh, err := grid.New(40, 30, free, grid.Options{Connectivity: conn, Costs: cs})
				if err != nil {
					t.Fatal(err)
				}
				ff := agent.NewFlowField(fresh)
				if err := ff.Compute(goal); err != nil {
					t.Fatal(err)
				}
				for y := range 30 {
					for x := range 40 {
						p := image.Pt(x, y)
						d, ok := f.Dist(p)
						fd, fok := ff.Dist(p)
						n, nok := f.Next(p)
						fn, fnok := ff.Next(p)
						if d != fd || ok != fok || n != fn || nok != fnok {
							t.Fatalf("%s, edit %d, goal %v, cell %v: edited Dist %v %v, Next %v %v; fresh %v %v, %v %v\n%s",
								what, edit, goal, p, d, ok, n, nok, fd, fok, fn, fnok, testmap.Render(g, nil))
						}
					}
				}
				checkFlowField(t, fmt.Sprintf("%s, edit %d", what, edit), g, f, goal)
			}
		}
	}
}

// TestFlowFieldAllocs checks that a warm Compute, and Next, Dist and
// AppendPath into a slice with room, allocate nothing.
func TestFlowFieldAllocs(t *testing.T) {
	for _, costs := range []bool{false, true} {
		g := testmap.Random(3, 200, 150, 0.25, grid.Options{})
		if costs {
			g = testmap.RandomCosts(3, 200, 150, 0.25, 5, grid.Eight)
		}
		goal, _ := randomFlowGoal(testmap.NewRand(3), g)
		f := agent.NewFlowField(g)
		if err := f.Compute(goal); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(5, func() {
			if err := f.Compute(goal); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("costs=%v: a warm Compute allocates %v times, want 0", costs, n)
		}
		far := goal
		for y := range g.Height() {
			for x := range g.Width() {
				if d, ok := f.Dist(image.Pt(x, y)); ok && d == f.MaxDist() {
					far = image.Pt(x, y)
				}
			}
		}
		path := make([]image.Point, 0, 2*(g.Width()+g.Height())*5)
		if n := testing.AllocsPerRun(100, func() {
			p, _ := f.Next(far)
			if _, ok := f.Dist(p); !ok {
				t.Fatal("Next leads to an unreachable cell")
			}
			path = f.AppendPath(path[:0], far)
		}); n != 0 {
			t.Errorf("costs=%v: Next, Dist and AppendPath allocate %v times, want 0", costs, n)
		}
		if len(path) < 2 {
			t.Errorf("costs=%v: path from the farthest cell %v: %v", costs, far, path)
		}
	}
}

// TestFlowFieldConcurrentReads reads one field from several goroutines
// while the grid is edited; run with -race.
func TestFlowFieldConcurrentReads(t *testing.T) {
	g := testmap.Random(5, 60, 60, 0.2, grid.Options{})
	goal, _ := randomFlowGoal(testmap.NewRand(5), g)
	f := agent.NewFlowField(g)
	if err := f.Compute(goal); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 60*60)
	for i := range want {
		want[i], _ = f.Dist(image.Pt(i%60, i/60))
	}
	var wg sync.WaitGroup
	for k := range 4 {
		wg.Go(func() {
			var path []image.Point
			for i := k; i < len(want); i += 4 {
				p := image.Pt(i%60, i/60)
				if d, _ := f.Dist(p); d != want[i] {
					t.Errorf("Dist(%v) = %v, want %v", p, d, want[i])
				}
				path = f.AppendPath(path[:0], p)
				_ = f.Stale()
			}
		})
	}
	wg.Go(func() {
		for i := range 20 {
			g.SetCells(image.Rect(i, 10, i+1, 12), i%2 == 1)
		}
	})
	wg.Wait()
	if !f.Stale() {
		t.Error("not stale after edits")
	}
}

// flowCoreGraph is the plain baseline of the benchmark: the same reverse
// search on core's binary heap, through the core.Graph interface.
type flowCoreGraph struct {
	g *grid.Grid
	w int
}

func (c *flowCoreGraph) NumNodes() int { return c.w * c.g.Height() }

func (c *flowCoreGraph) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	p := image.Pt(int(n)%c.w, int(n)/c.w)
	for m := c.g.Moves(p); m != 0; m &= m - 1 {
		q := p.Add(grid.Step(bits.TrailingZeros8(m)))
		dst = append(dst, core.Edge{To: int32(q.Y*c.w + q.X), Cost: c.g.StepCost(q, p)})
	}
	return dst
}

func flowNever(int32) bool { return false }

// flowCore fills dist with the distances to goal from core's Dijkstra and
// returns the number of cells that reach it.
func flowCore(s *core.Searcher, g *grid.Grid, goal image.Point, dist []float64) int {
	w := g.Width()
	s.SearchFunc(int32(goal.Y*w+goal.X), flowNever, nil, core.Query{})
	n := 0
	for i := range dist {
		var ok bool
		if dist[i], ok = s.Dist(int32(i)); ok {
			n++
		}
	}
	return n
}

// BenchmarkFlowField computes the field of one goal near the middle of a
// 1024×1024 city map, against the baseline on core's binary heap.
func BenchmarkFlowField(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	goal := image.Pt(512, 512)
	for !g.Passable(goal) {
		goal.X++
	}
	f := agent.NewFlowField(g)
	if err := f.Compute(goal); err != nil {
		b.Fatal(err)
	}
	b.Run("radix", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := f.Compute(goal); err != nil || f.Reached() < g.Width() {
				b.Fatal(err, f.Reached())
			}
		}
		b.ReportMetric(float64(f.Reached()), "cells")
	})
	b.Run("core", func(b *testing.B) {
		s := core.NewSearcher(&flowCoreGraph{g: g, w: g.Width()})
		dist := make([]float64, g.Width()*g.Height())
		n := flowCore(s, g, goal, dist)
		if n != f.Reached() {
			b.Fatalf("baseline reaches %d cells, the field %d", n, f.Reached())
		}
		for i, d := range dist {
			if got, _ := f.Dist(image.Pt(i%g.Width(), i/g.Width())); !flowNear(got, d) && !(math.IsInf(got, 1) && math.IsInf(d, 1)) {
				b.Fatalf("cell %d: field %v, baseline %v", i, got, d)
			}
		}
		b.ReportAllocs()
		for b.Loop() {
			if flowCore(s, g, goal, dist) != n {
				b.Fatal("baseline reaches other cells")
			}
		}
		b.ReportMetric(float64(n), "cells")
	})
}
