package hpa_test

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// checkFlow checks the flow field f of goal on every free cell of g against
// the exact distances of o: a cell reports a distance exactly when it is
// connected to the goal, and the distance is at least the exact one. From
// every third cell it checks that following Next makes legal moves that
// lower Dist at every step and arrive at the goal along a path whose cost
// is the cell's distance. It adds each distance and the exact one to st.
func checkFlow(t *testing.T, g *grid.Grid, f *hpa.FlowField, o *testmap.Oracle, what string, st *subopt) {
	t.Helper()
	goal := f.Goal()
	for i, p := range testmap.FreeCells(g) {
		exact, reach := o.Dist(goal, p)
		d, ok := f.Dist(p)
		if ok != reach {
			t.Fatalf("%s: goal %v: Dist(%v) = %v, %v; the exact distance is %v, %v", what, goal, p, d, ok, exact, reach)
		}
		if !reach {
			if q, ok := f.Next(p); ok {
				t.Fatalf("%s: goal %v: Next(%v) = %v, true for a cell that cannot reach the goal", what, goal, p, q)
			}
			continue
		}
		if d < exact*(1-1e-9) {
			t.Fatalf("%s: goal %v: Dist(%v) = %v, below the exact distance %v", what, goal, p, d, exact)
		}
		st.add(d, exact)
		if i%3 != 0 && p != goal {
			continue
		}
		path := f.AppendPath(nil, p)
		cost, err := testmap.CheckPath(g, path, p, goal)
		if err != nil {
			t.Fatalf("%s: goal %v: from %v: %v\ngot:\n%s", what, goal, p, err, testmap.Render(g, path))
		}
		if math.Abs(cost-d) > 1e-9*max(1, d) {
			t.Fatalf("%s: goal %v: Dist(%v) = %v, but the path Next traces costs %v\ngot:\n%s", what, goal, p, d, cost, testmap.Render(g, path))
		}
		prev := d
		for _, q := range path[1:] {
			dq, _ := f.Dist(q)
			if !(dq < prev) {
				t.Fatalf("%s: goal %v: from %v, Next reaches %v at %v after a cell at %v\ngot:\n%s", what, goal, p, q, dq, prev, testmap.Render(g, path))
			}
			prev = dq
		}
	}
}

// randomGoal returns a free cell of g drawn with seed.
func randomGoal(g *grid.Grid, seed int64) image.Point {
	free := testmap.FreeCells(g)
	return free[testmap.NewRand(seed).IntN(len(free))]
}

func TestFlowFieldRandomMaps(t *testing.T) {
	const w, h = 97, 61
	// Bounds on the mean excess over all cells, those near the goal
	// included (20 % and more within 8 steps of it, where the path must
	// pass through transitions a direct search would not). With terrain,
	// transitions placed without regard to cost add some 10 % at every
	// distance, as TestRandomMaps finds for HPA* queries.
	kinds := []struct {
		name  string
		build func(seed int64, density float64) *grid.Grid
		bound float64
	}{
		{"8-connected", func(seed int64, d float64) *grid.Grid {
			return testmap.Random(seed, w, h, d, grid.Options{})
		}, 0.10},
		{"4-connected", func(seed int64, d float64) *grid.Grid {
			return testmap.Random(seed, w, h, d, grid.Options{Connectivity: grid.Four})
		}, 0.10},
		{"terrain", func(seed int64, d float64) *grid.Grid {
			return testmap.RandomCosts(seed, w, h, d, 3, grid.Eight)
		}, 0.15},
	}
	for _, k := range kinds {
		for _, cs := range []int{8, 16} {
			t.Run(fmt.Sprintf("%s/cluster%d", k.name, cs), func(t *testing.T) {
				var st subopt
				for _, density := range []float64{0, 0.1, 0.2, 0.3} {
					for seed := int64(1); seed <= 2; seed++ {
						g := k.build(seed, density)
						hg, err := hpa.Build(g, hpa.Options{ClusterSize: cs})
						if err != nil {
							t.Fatal(err)
						}
						f := hpa.NewFlowField(hg)
						o := testmap.NewOracle(g)
						for gi := range int64(2) {
							goal := randomGoal(g, 10*seed+gi)
							if err := f.Compute(goal); err != nil {
								t.Fatal(err)
							}
							checkFlow(t, g, f, o, fmt.Sprintf("seed %d density %v", seed, density), &st)
						}
					}
				}
				t.Logf("%v", &st)
				if st.mean() > k.bound {
					t.Errorf("mean excess %.2f%%, want at most %g%%: %v", 100*st.mean(), 100*k.bound, &st)
				}
			})
		}
	}
}

// TestFlowFieldMazes follows the field through mazes. Clusters at least
// twice as wide as a room and its wall keep the excess below 10 %; with
// clusters of 4 on rooms of 3 (every door a transition at its middle) it
// is about 14 %.
func TestFlowFieldMazes(t *testing.T) {
	for _, cs := range []int{8, 16} {
		for _, corridor := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("cluster%d/corridor%d", cs, corridor), func(t *testing.T) {
				var st subopt
				for seed := int64(1); seed <= 3; seed++ {
					for _, loops := range []int{0, 15} {
						g := testmap.Maze(seed, 14, 9, corridor, loops)
						hg, err := hpa.Build(g, hpa.Options{ClusterSize: cs})
						if err != nil {
							t.Fatal(err)
						}
						f := hpa.NewFlowField(hg)
						if err := f.Compute(randomGoal(g, seed)); err != nil {
							t.Fatal(err)
						}
						checkFlow(t, g, f, testmap.NewOracle(g), fmt.Sprintf("maze seed %d loops %d", seed, loops), &st)
					}
				}
				t.Logf("%v", &st)
				if st.mean() > 0.10 {
					t.Errorf("mean excess %.2f%%, want at most 10%%: %v", 100*st.mean(), &st)
				}
			})
		}
	}
}

// TestFlowFieldMatchesHPA checks that the field is HPA*'s: from a cell
// whose cluster is neither the goal's nor beside it, Dist is the cost of
// the path a level-1 HPA* query finds.
func TestFlowFieldMatchesHPA(t *testing.T) {
	const w, h, cs = 90, 70, 8
	grids := map[string]func(seed int64) *grid.Grid{
		"8-connected": func(seed int64) *grid.Grid { return testmap.Random(seed, w, h, 0.2, grid.Options{}) },
		"4-connected": func(seed int64) *grid.Grid {
			return testmap.Random(seed, w, h, 0.15, grid.Options{Connectivity: grid.Four})
		},
		"terrain": func(seed int64) *grid.Grid { return testmap.RandomCosts(seed, w, h, 0.2, 3, grid.Eight) },
	}
	for name, build := range grids {
		for seed := int64(1); seed <= 2; seed++ {
			g := build(seed)
			hg, err := hpa.Build(g, hpa.Options{ClusterSize: cs})
			if err != nil {
				t.Fatal(err)
			}
			f, q := hpa.NewFlowField(hg), hpa.NewSearcher(hg)
			goal := randomGoal(g, seed)
			if err := f.Compute(goal); err != nil {
				t.Fatal(err)
			}
			checked := 0
			for i, p := range testmap.FreeCells(g) {
				dx, dy := p.X/cs-goal.X/cs, p.Y/cs-goal.Y/cs
				if i%2 == 1 {
					continue
				}
				if max(dx, -dx, dy, -dy) <= 1 || !g.Connected(p, goal) {
					continue
				}
				_, r, err := q.AppendPath(nil, p, goal, hpa.Query{MaxLevel: 1})
				if err != nil {
					t.Fatal(err)
				}
				if d, _ := f.Dist(p); math.Abs(d-r.Cost) > 1e-9*d {
					t.Fatalf("%s seed %d: goal %v: Dist(%v) = %v, the level-1 HPA* query's path costs %v", name, seed, goal, p, d, r.Cost)
				}
				checked++
			}
			if checked < 500 {
				t.Errorf("%s seed %d: only %d cells checked", name, seed, checked)
			}
		}
	}
}

func TestFlowFieldUnreachable(t *testing.T) {
	m, err := testmap.Parse(`
		..........#.....
		..........#.....
		....#######.....
		....#...........
		....#..###....G.
		....#..#.#......
		....#..###......
		....#...........
	`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := m.Grid
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	f := hpa.NewFlowField(hg)
	if err := f.Compute(m.Goal); err != nil {
		t.Fatal(err)
	}
	o := testmap.NewOracle(g)
	var st subopt
	checkFlow(t, g, f, o, "walled pocket", &st)
	for _, p := range []image.Point{{8, 5}, {0, 0}, {4, 4}, {-1, 0}, {16, 3}, {3, 8}} {
		if d, ok := f.Dist(p); ok {
			t.Errorf("Dist(%v) = %v, true; want false: the cell is walled off, blocked or off the grid\n%s", p, d, testmap.Render(g, []image.Point{p}))
		}
		if q, ok := f.Next(p); ok || q != p {
			t.Errorf("Next(%v) = %v, %v; want %v, false", p, q, ok, p)
		}
		if path := f.AppendPath(nil, p); len(path) != 0 {
			t.Errorf("AppendPath from %v = %v, want nothing", p, path)
		}
	}
	if d, ok := f.Dist(m.Goal); !ok || d != 0 {
		t.Errorf("Dist(goal) = %v, %v; want 0, true", d, ok)
	}
	if q, ok := f.Next(m.Goal); ok || q != m.Goal {
		t.Errorf("Next(goal) = %v, %v; want %v, false", q, ok, m.Goal)
	}
	if path := f.AppendPath(nil, m.Goal); len(path) != 1 || path[0] != m.Goal {
		t.Errorf("AppendPath from the goal = %v, want [%v]", path, m.Goal)
	}
}

func TestFlowFieldBadGoal(t *testing.T) {
	g := testmap.Random(3, 40, 30, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	f := hpa.NewFlowField(hg)
	if !f.Stale() {
		t.Errorf("a new field is not stale")
	}
	free := randomGoal(g, 1)
	if _, ok := f.Dist(free); ok {
		t.Errorf("a field with no goal answers Dist(%v)", free)
	}
	var blocked image.Point
	for y := range g.Height() {
		for x := range g.Width() {
			if !g.Passable(image.Pt(x, y)) {
				blocked = image.Pt(x, y)
			}
		}
	}
	for _, goal := range []image.Point{{-1, 3}, {40, 0}, blocked} {
		if err := f.Compute(free); err != nil {
			t.Fatal(err)
		}
		err := f.Compute(goal)
		if err == nil || !strings.HasPrefix(err.Error(), "hpa: ") {
			t.Fatalf("Compute(%v) = %v, want an error starting with \"hpa: \"", goal, err)
		}
		if _, ok := f.Dist(free); ok || !f.Stale() || f.Goal() != image.Pt(-1, -1) {
			t.Errorf("after Compute(%v) failed the field still answers (stale %v, goal %v)", goal, f.Stale(), f.Goal())
		}
	}
}

// TestFlowFieldStale edits the grid under a field: the field turns stale
// and answers nothing; after an in-place Update and a new Compute it
// answers as a field of a fresh build does.
func TestFlowFieldStale(t *testing.T) {
	const seed = 5
	g := testmap.Random(seed, 80, 56, 0.15, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	f := hpa.NewFlowField(hg)
	goal := randomGoal(g, seed)
	if err := f.Compute(goal); err != nil {
		t.Fatal(err)
	}
	if f.Stale() {
		t.Fatalf("seed %d: stale right after Compute", seed)
	}
	r := testmap.NewRand(seed)
	for e := range 6 {
		x, y := r.IntN(70), r.IntN(50)
		rect := image.Rect(x, y, x+1+r.IntN(10), y+1+r.IntN(3))
		if rect.Inset(-1).Overlaps(image.Rectangle{Min: goal, Max: goal.Add(image.Pt(1, 1))}) {
			continue
		}
		what := fmt.Sprintf("seed %d edit %d (%v)", seed, e, rect)
		g.SetCells(rect, e%2 == 1)
		if !f.Stale() {
			t.Fatalf("%s: not stale after the grid's edit", what)
		}
		if _, ok := f.Dist(goal); ok {
			t.Fatalf("%s: a stale field answers Dist", what)
		}
		if err := f.Compute(goal); !errors.Is(err, hpa.ErrStale) {
			t.Fatalf("%s: Compute before Update = %v, want ErrStale", what, err)
		}
		if _, err := hg.Update(g, rect); err != nil {
			t.Fatal(err)
		}
		if !f.Stale() {
			t.Fatalf("%s: not stale after Update", what)
		}
		if err := f.Compute(goal); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		fresh, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		ff := hpa.NewFlowField(fresh)
		if err := ff.Compute(goal); err != nil {
			t.Fatal(err)
		}
		var st subopt
		checkFlow(t, g, f, testmap.NewOracle(g), what, &st)
		for _, p := range testmap.FreeCells(g) {
			du, oku := f.Dist(p)
			df, okf := ff.Dist(p)
			if oku != okf || oku && math.Abs(du-df) > 1e-9*max(1, df) {
				t.Fatalf("%s: Dist(%v) after Update = %v, %v; on a fresh build %v, %v", what, p, du, oku, df, okf)
			}
		}
	}
}

func TestFlowFieldAllocs(t *testing.T) {
	for name, g := range map[string]*grid.Grid{
		"unit":    testmap.Random(7, 120, 90, 0.2, grid.Options{}),
		"terrain": testmap.RandomCosts(7, 120, 90, 0.2, 3, grid.Eight),
	} {
		hg, err := hpa.Build(g, hpa.Options{ClusterSize: 16})
		if err != nil {
			t.Fatal(err)
		}
		f := hpa.NewFlowField(hg)
		goals := [2]image.Point{randomGoal(g, 1), randomGoal(g, 2)}
		var p image.Point
		for _, q := range testmap.FreeCells(g) {
			if g.Connected(q, goals[0]) && g.Connected(q, goals[1]) && q.X > 60 && q.Y > 45 {
				p = q
				break
			}
		}
		for _, goal := range goals { // grow the scratch and the store
			if err := f.Compute(goal); err != nil {
				t.Fatal(err)
			}
			if _, ok := f.Next(p); !ok {
				t.Fatalf("%s: Next(%v) toward %v: false", name, p, goal)
			}
		}
		if a := testing.AllocsPerRun(100, func() { f.Next(p) }); a != 0 {
			t.Errorf("%s: Next in a cluster whose field is made: %v allocations, want 0", name, a)
		}
		if a := testing.AllocsPerRun(100, func() { f.Dist(p) }); a != 0 {
			t.Errorf("%s: Dist in a cluster whose field is made: %v allocations, want 0", name, a)
		}
		i := 0
		if a := testing.AllocsPerRun(50, func() {
			if err := f.Compute(goals[i%2]); err != nil {
				t.Fatal(err)
			}
			i++
		}); a != 0 {
			t.Errorf("%s: warm Compute: %v allocations, want 0", name, a)
		}
		// A cluster whose field is made again for the new goal reuses its
		// block.
		if a := testing.AllocsPerRun(50, func() {
			_ = f.Compute(goals[i%2])
			f.Next(p)
			i++
		}); a != 0 {
			t.Errorf("%s: Compute, then Next in a cluster asked before: %v allocations, want 0", name, a)
		}
	}
}
