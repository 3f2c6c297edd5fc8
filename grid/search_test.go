package grid_test

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// randomCase is one family of seeded random grids.
type randomCase struct {
	name    string
	w, h    int
	density float64
	conn    grid.Connectivity
	costs   bool
}

func (c randomCase) grid(seed int64) *grid.Grid {
	if c.costs {
		return testmap.RandomCosts(seed, c.w, c.h, c.density, 5, c.conn)
	}
	return testmap.Random(seed, c.w, c.h, c.density, grid.Options{Connectivity: c.conn})
}

// randomCases crosses sizes, densities, connectivities and terrain.
func randomCases() []randomCase {
	var cs []randomCase
	for _, size := range [][2]int{{30, 20}, {64, 64}} {
		for _, d := range []float64{0, 0.1, 0.25, 0.4} {
			for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
				for _, costs := range []bool{false, true} {
					name := fmt.Sprintf("%dx%d/d=%.2f/%v", size[0], size[1], d, conn)
					if costs {
						name += "/costs"
					}
					cs = append(cs, randomCase{name, size[0], size[1], d, conn, costs})
				}
			}
		}
	}
	return cs
}

const tol = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// modes are the two searches a query can run: the default (jump point search
// on 8-connected grids of unit terrain, plain A* elsewhere) and plain A*.
var modes = []struct {
	name  string
	plain bool
}{{"default", false}, {"plain", true}}

func TestSearchMatchesOracle(t *testing.T) {
	seeds := []int64{1, 2, 3}
	pairs := 40
	if testing.Short() {
		seeds, pairs = seeds[:1], 15
	}
	unreachable := 0
	for _, c := range randomCases() {
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("%s/seed=%d", c.name, seed), func(t *testing.T) {
				g := c.grid(seed)
				o := testmap.NewOracle(g)
				s := grid.NewSearcher(g)
				r := testmap.NewRand(seed)
				for _, pq := range testmap.RandomPairs(r, g, pairs) {
					from, to := pq[0], pq[1]
					want, ok := o.Dist(from, to)
					for _, hc := range []struct {
						name  string
						h     grid.Heuristic
						plain bool
					}{{"auto", grid.Auto, false}, {"zero", grid.Zero, false}, {"auto/plain", grid.Auto, true}, {"zero/plain", grid.Zero, true}} {
						path, res, err := s.AppendPath(nil, from, to, grid.Query{Heuristic: hc.h, Plain: hc.plain})
						where := fmt.Sprintf("seed %d, %s, %s, %v→%v", seed, c.name, hc.name, from, to)
						if err != nil {
							t.Fatalf("%s: error %v", where, err)
						}
						if !ok {
							if hc.name == "auto" {
								unreachable++
							}
							if res.Status != core.Unreachable || res.Expanded != 0 || len(path) != 0 {
								t.Errorf("%s: got status %v, %d expanded, path %v\nwant unreachable, 0 expanded, no path\n%s",
									where, res.Status, res.Expanded, path, testmap.Render(g, []image.Point{from, to}))
							}
							continue
						}
						if res.Status != core.Found || !near(res.Cost, want) {
							t.Errorf("%s: got status %v cost %.12g\nwant found cost %.12g\n%s",
								where, res.Status, res.Cost, want, testmap.Render(g, path))
							continue
						}
						pc, err := testmap.CheckPath(g, path, from, to)
						if err != nil {
							t.Errorf("%s: bad path: %v\n%s", where, err, testmap.Render(g, path))
							continue
						}
						if !near(pc, res.Cost) {
							t.Errorf("%s: path cost %.12g, reported cost %.12g\n%s", where, pc, res.Cost, testmap.Render(g, path))
						}
						if res.End != to {
							t.Errorf("%s: End got %v, want %v", where, res.End, to)
						}
					}
				}
			})
		}
	}
	if unreachable == 0 {
		t.Errorf("no random pair was unreachable; the Unreachable checks did not run")
	}
}

// TestCanStepRule checks the move rule against the drawing itself (free
// cells, no corner cutting), since the oracle relies on CanStep, and that
// moves and their costs are symmetric, since the oracle is undirected.
func TestCanStepRule(t *testing.T) {
	for _, c := range randomCases() {
		if c.w != 30 {
			continue
		}
		const seed = 7
		g := c.grid(seed)
		for y := -1; y <= g.Height(); y++ {
			for x := -1; x <= g.Width(); x++ {
				a := image.Pt(x, y)
				for dy := -2; dy <= 2; dy++ {
					for dx := -2; dx <= 2; dx++ {
						b := a.Add(image.Pt(dx, dy))
						adx, ady := max(dx, -dx), max(dy, -dy)
						want := g.Passable(a) && g.Passable(b) && max(adx, ady) == 1
						if adx == 1 && ady == 1 {
							want = want && c.conn == grid.Eight &&
								g.Passable(image.Pt(b.X, a.Y)) && g.Passable(image.Pt(a.X, b.Y))
						}
						if got := g.CanStep(a, b); got != want {
							t.Fatalf("seed %d, %s: CanStep(%v, %v) got %v, want %v\n%s",
								seed, c.name, a, b, got, want, testmap.Render(g, []image.Point{a, b}))
						}
						if want && g.StepCost(a, b) != g.StepCost(b, a) {
							t.Fatalf("seed %d, %s: StepCost(%v, %v) = %v but StepCost(%v, %v) = %v",
								seed, c.name, a, b, g.StepCost(a, b), b, a, g.StepCost(b, a))
						}
					}
				}
			}
		}
	}
}

func mustParse(t *testing.T, ascii string, opt grid.Options) *testmap.Map {
	t.Helper()
	m, err := testmap.Parse(ascii, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSearchDrawn(t *testing.T) {
	tests := []struct {
		name   string
		ascii  string
		conn   grid.Connectivity
		status core.Status
		cost   float64
		// expanded, when not negative, is the exact expansion count.
		expanded int
	}{
		{
			name: "pillar/no corner cutting",
			ascii: `
				***
				S#G`,
			status: core.Found, cost: 4, expanded: -1,
		},
		{
			name: "pillar/both sides open",
			ascii: `
				...
				S#G
				...`,
			status: core.Found, cost: 4, expanded: -1,
		},
		{
			name: "open diagonal",
			ascii: `
				S..
				.*.
				..G`,
			status: core.Found, cost: 2 * math.Sqrt2, expanded: -1,
		},
		{
			name: "diagonal squeeze between walls",
			ascii: `
				S#.
				#..
				..G`,
			// S cannot leave: its only diagonal passes two walls.
			status: core.Unreachable, expanded: 0,
		},
		{
			name: "walled-off goal",
			ascii: `
				S....
				..###
				..#G#
				..###`,
			status: core.Unreachable, expanded: 0,
		},
		{
			name: "walled-off goal/diagonal gap",
			ascii: `
				S....
				...#.
				..#G#
				...#.`,
			status: core.Unreachable, expanded: 0,
		},
		{
			name: "corridor maze/8-way",
			ascii: `
				S******
				######*
				*******
				*######
				******G`,
			status: core.Found, cost: 22, expanded: -1,
		},
		{
			name: "corridor maze/4-way",
			ascii: `
				S******
				######*
				*******
				*######
				******G`,
			conn:   grid.Four,
			status: core.Found, cost: 22, expanded: -1,
		},
		{
			name: "maze with rooms",
			ascii: `
				S***#.....
				.##***###.
				.#..#**.#.
				.#.###.*#.
				...#..#G#.`,
			status: core.Found, cost: 9 + math.Sqrt2, expanded: -1,
		},
		{
			name: "terrain detour",
			ascii: `
				S99G
				.**.`,
			status: core.Found, cost: 1 + 2*math.Sqrt2, expanded: -1,
		},
		{
			name: "terrain detour/4-way",
			ascii: `
				S99G
				****`,
			conn:   grid.Four,
			status: core.Found, cost: 5, expanded: -1,
		},
		{
			name: "terrain/cheaper through the hills",
			ascii: `
				S22222G
				.#####.
				.#####.
				.......`,
			// 1.5 + 4·2 + 1.5 = 11 across, against 12 around.
			status: core.Found, cost: 11, expanded: -1,
		},
		{
			name: "terrain/around the hills",
			ascii: `
				S33333G
				*#####*
				*#####*
				*******`,
			// 12 around, against 2 + 4·3 + 2 = 16 across.
			status: core.Found, cost: 12, expanded: -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mustParse(t, tt.ascii, grid.Options{Connectivity: tt.conn})
			s := grid.NewSearcher(m.Grid)
			for _, q := range []grid.Query{{}, {Heuristic: grid.Zero}, {Plain: true}, {Heuristic: grid.Zero, Plain: true}} {
				h := fmt.Sprintf("%d plain=%v", q.Heuristic, q.Plain)
				path, res, err := s.AppendPath(nil, m.Start, m.Goal, q)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != tt.status || (tt.status == core.Found && !near(res.Cost, tt.cost)) ||
					(tt.expanded >= 0 && res.Expanded != tt.expanded) {
					t.Errorf("heuristic %s: got %v cost %.12g expanded %d\nwant %v cost %.12g expanded %d\n%s",
						h, res.Status, res.Cost, res.Expanded, tt.status, tt.cost, tt.expanded, testmap.Render(m.Grid, path))
					continue
				}
				if tt.status != core.Found {
					if len(path) != 0 {
						t.Errorf("heuristic %s: got path %v, want none", h, path)
					}
					continue
				}
				if _, err := testmap.CheckPath(m.Grid, path, m.Start, m.Goal); err != nil {
					t.Errorf("heuristic %s: %v\n%s", h, err, testmap.Render(m.Grid, path))
				}
				if m.Path != nil && !testmap.SameCells(path, m.Path) {
					t.Errorf("heuristic %s: got path\n%s\nwant\n%s", h,
						testmap.Render(m.Grid, path), tt.ascii)
				}
			}
		})
	}
}

func TestStartIsGoal(t *testing.T) {
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		m := mustParse(t, `
			...
			.S.
			...`, grid.Options{Connectivity: conn})
		s := grid.NewSearcher(m.Grid)
		for _, mode := range modes {
			path, res, err := s.AppendPath(nil, m.Start, m.Start, grid.Query{Plain: mode.plain})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != core.Found || res.Cost != 0 || res.Expanded != 0 || res.End != m.Start ||
				len(path) != 1 || path[0] != m.Start {
				t.Errorf("%v, %s: got %+v path %v\nwant found, cost 0, 0 expanded, path [%v]\n%s",
					conn, mode.name, res, path, m.Start, testmap.Render(m.Grid, path))
			}
		}
	}
}

// TestAppendsToDst checks that a query appends after what dst holds.
func TestAppendsToDst(t *testing.T) {
	m := mustParse(t, `
		S*G`, grid.Options{})
	s := grid.NewSearcher(m.Grid)
	sentinel := image.Pt(-7, -7)
	path, _, err := s.AppendPath([]image.Point{sentinel}, m.Start, m.Goal, grid.Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := []image.Point{sentinel, {0, 0}, {1, 0}, {2, 0}}
	if fmt.Sprint(path) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", path, want)
	}
}

// TestAStarExpandsNoMoreThanDijkstra compares plain A* with plain Dijkstra:
// with a consistent heuristic A* expands a subset of Dijkstra's cells.
func TestAStarExpandsNoMoreThanDijkstra(t *testing.T) {
	for _, c := range randomCases() {
		const seed = 11
		t.Run(c.name, func(t *testing.T) {
			g := c.grid(seed)
			s := grid.NewSearcher(g)
			r := testmap.NewRand(seed)
			for _, pq := range testmap.RandomPairs(r, g, 30) {
				_, a, err := s.AppendPath(nil, pq[0], pq[1], grid.Query{Plain: true})
				if err != nil {
					t.Fatal(err)
				}
				_, d, err := s.AppendPath(nil, pq[0], pq[1], grid.Query{Heuristic: grid.Zero, Plain: true})
				if err != nil {
					t.Fatal(err)
				}
				if a.Expanded > d.Expanded {
					t.Errorf("seed %d, %v→%v: A* expanded %d\nDijkstra expanded %d\n%s",
						seed, pq[0], pq[1], a.Expanded, d.Expanded, testmap.Render(g, pq[:]))
				}
			}
		})
	}
}

// TestOpenGridTieBreak checks that on an open grid, where every cell of the
// parallelogram of optimal paths ties on f, breaking ties toward larger g
// walks straight to the goal instead of filling the parallelogram.
func TestOpenGridTieBreak(t *testing.T) {
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		g := testmap.Random(1, 64, 64, 0, grid.Options{Connectivity: conn})
		s := grid.NewSearcher(g)
		from, to := image.Pt(0, 0), image.Pt(63, 40)
		path, res, err := s.AppendPath(nil, from, to, grid.Query{Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Expanded > 2*len(path) {
			t.Errorf("%v: got %d expanded\nwant at most %d (twice the path)\n%s",
				conn, res.Expanded, 2*len(path), testmap.Render(g, path))
		}
	}
}

func TestWeighted(t *testing.T) {
	for _, c := range randomCases() {
		const seed = 5
		t.Run(c.name, func(t *testing.T) {
			g := c.grid(seed)
			o := testmap.NewOracle(g)
			s := grid.NewSearcher(g)
			r := testmap.NewRand(seed)
			for _, pq := range testmap.RandomPairs(r, g, 20) {
				opt, ok := o.Dist(pq[0], pq[1])
				if !ok {
					continue
				}
				for _, wm := range [][2]float64{{1.5, 0}, {2, 0}, {5, 0}, {1.5, 1}, {2, 1}, {5, 1}} {
					w, plain := wm[0], wm[1] == 1
					path, res, err := s.AppendPath(nil, pq[0], pq[1], grid.Query{Weight: w, Plain: plain})
					if err != nil {
						t.Fatal(err)
					}
					where := fmt.Sprintf("seed %d, weight %v, plain %v, %v→%v", seed, w, plain, pq[0], pq[1])
					if res.Status != core.Found || res.Cost > w*opt+tol || res.Cost < opt-tol {
						t.Errorf("%s: got %v cost %.12g\nwant found, cost in [%.12g, %.12g]\n%s",
							where, res.Status, res.Cost, opt, w*opt, testmap.Render(g, path))
						continue
					}
					pc, err := testmap.CheckPath(g, path, pq[0], pq[1])
					if err != nil || !near(pc, res.Cost) {
						t.Errorf("%s: path cost %.12g err %v, reported cost %.12g\n%s",
							where, pc, err, res.Cost, testmap.Render(g, path))
					}
				}
			}
		})
	}
}

// TestBudget checks searches that run out of expansions: they stop within
// the cap with a legal partial path that ends nearer the goal than it starts.
func TestBudget(t *testing.T) {
	for _, c := range randomCases() {
		if c.w != 64 || c.density > 0.1 {
			continue // open-ish maps, where a partial path makes progress
		}
		const seed = 3
		for _, mode := range modes {
			t.Run(c.name+"/"+mode.name, func(t *testing.T) {
				g := c.grid(seed)
				s := grid.NewSearcher(g)
				r := testmap.NewRand(seed)
				tried, spent := 0, 0
				for _, pq := range testmap.RandomPairs(r, g, 200) {
					from, to := pq[0], pq[1]
					if grid.Octile(from, to) < 20 || !g.Connected(from, to) {
						continue
					}
					tried++
					for _, budget := range []int{1, 5, 20} {
						where := fmt.Sprintf("seed %d, %s, budget %d, %v→%v", seed, mode.name, budget, from, to)
						path, res, err := s.AppendPath(nil, from, to, grid.Query{MaxExpansions: budget, Plain: mode.plain})
						if err != nil {
							t.Fatal(err)
						}
						if res.Expanded > budget || (res.Status != core.BudgetSpent && res.Status != core.Found) {
							t.Errorf("%s: got %v with %d expanded\nwant budget spent or found with at most %d\n%s",
								where, res.Status, res.Expanded, budget, testmap.Render(g, path))
							continue
						}
						end := to
						if res.Status == core.BudgetSpent {
							spent++
							end = res.End
							if res.Expanded != budget {
								t.Errorf("%s: budget spent after %d expansions, want %d", where, res.Expanded, budget)
							}
						}
						pc, err := testmap.CheckPath(g, path, from, end)
						if err != nil || !near(pc, res.Cost) || res.End != end {
							t.Errorf("%s: path to %v: cost %.12g, err %v\nwant a path to %v of the reported cost %.12g\n%s",
								where, res.End, pc, err, end, res.Cost, testmap.Render(g, path))
							continue
						}
						if grid.Octile(res.End, to) >= grid.Octile(from, to) {
							t.Errorf("%s: partial path ends at %v, octile %.3g from the goal\nwant closer than the start, %.3g\n%s",
								where, res.End, grid.Octile(res.End, to), grid.Octile(from, to), testmap.Render(g, append(path, to)))
						}
					}
					// A budget the search does not need changes nothing.
					_, full, _ := s.AppendPath(nil, from, to, grid.Query{Plain: mode.plain})
					_, big, _ := s.AppendPath(nil, from, to, grid.Query{Plain: mode.plain, MaxExpansions: full.Expanded + 1})
					if big.Status != core.Found || big.Cost != full.Cost {
						t.Errorf("seed %d, %s, %v→%v: with budget %d got %v cost %v\nwant found cost %v",
							seed, mode.name, from, to, full.Expanded+1, big.Status, big.Cost, full.Cost)
					}
				}
				// On an empty map jump point search reaches any goal from the
				// start's single expansion, so no budget can be spent there.
				if tried < 10 || (spent == 0 && (mode.plain || c.density > 0)) {
					t.Fatalf("seed %d: %d far pairs tried, %d budgets spent; the test checks too little", seed, tried, spent)
				}
			})
		}
	}
}

func TestSearchErrors(t *testing.T) {
	m := mustParse(t, `
		S.#
		..G`, grid.Options{})
	wall := image.Pt(2, 0)
	tests := []struct {
		name     string
		from, to image.Point
		want     string
	}{
		{"start left of grid", image.Pt(-1, 0), m.Goal, "start"},
		{"start below grid", image.Pt(0, 2), m.Goal, "start"},
		{"start right of grid", image.Pt(3, 1), m.Goal, "start"},
		{"start on wall", wall, m.Goal, "start"},
		{"goal above grid", m.Start, image.Pt(0, -1), "goal"},
		{"goal far away", m.Start, image.Pt(1000, 1000), "goal"},
		{"goal on wall", m.Start, wall, "goal"},
	}
	s := grid.NewSearcher(m.Grid)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []image.Point{{9, 9}}
			path, res, err := s.AppendPath(dst, tt.from, tt.to, grid.Query{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v\nwant one mentioning %q\n%s", err, tt.want, testmap.Render(m.Grid, nil))
			}
			if len(path) != 1 {
				t.Errorf("got path %v, want dst unchanged", path)
			}
			// The zero status once read as Found.
			if res.Status != core.NotSearched || res.Status == core.Found {
				t.Errorf("status %v beside an error, want %v", res.Status, core.NotSearched)
			}
			sl := grid.NewSliced(m.Grid)
			if err := sl.Begin(tt.from, tt.to, grid.Query{}); err == nil || sl.Step(1) != core.NotSearched {
				t.Errorf("sliced: Begin error %v, then status %v, want an error and %v", err, sl.Step(1), core.NotSearched)
			}
		})
	}
}

// TestOnExpand checks the expansion callback. Plain A* expands each cell
// once, at its exact cost from the start (the heuristic is consistent); jump
// point search may expand a jump point again when it finds a shorter way to
// it, so there each reported cost is only checked to be that of a real path.
func TestOnExpand(t *testing.T) {
	for _, c := range randomCases() {
		if c.w != 30 {
			continue
		}
		const seed = 9
		t.Run(c.name, func(t *testing.T) {
			g := c.grid(seed)
			o := testmap.NewOracle(g)
			s := grid.NewSearcher(g)
			r := testmap.NewRand(seed)
			for _, pq := range testmap.RandomPairs(r, g, 20) {
				from, to := pq[0], pq[1]
				for _, q := range []grid.Query{{}, {Heuristic: grid.Zero}, {Plain: true}, {Heuristic: grid.Zero, Plain: true}} {
					var cells []image.Point
					seen := map[image.Point]bool{}
					where := fmt.Sprintf("seed %d, heuristic %d, plain %v, %v→%v", seed, q.Heuristic, q.Plain, from, to)
					q.OnExpand = func(p image.Point, gp float64) {
						cells = append(cells, p)
						want, _ := o.Dist(from, p)
						if q.Plain {
							if seen[p] {
								t.Errorf("%s: %v expanded twice", where, p)
							}
							if !near(gp, want) {
								t.Errorf("%s: %v expanded at cost %.12g, want %.12g", where, p, gp, want)
							}
						} else if gp < want-tol {
							t.Errorf("%s: %v expanded at cost %.12g, below the optimum %.12g", where, p, gp, want)
						}
						seen[p] = true
					}
					_, res, err := s.AppendPath(nil, from, to, q)
					if err != nil {
						t.Fatal(err)
					}
					if len(cells) != res.Expanded {
						t.Errorf("%s: OnExpand called %d times, want Expanded = %d", where, len(cells), res.Expanded)
					}
					if res.Expanded > 0 && cells[0] != from {
						t.Errorf("%s: first expanded %v, want the start %v", where, cells[0], from)
					}
					for _, p := range cells {
						if !g.Passable(p) {
							t.Errorf("%s: expanded %v, which is not free", where, p)
						}
					}
				}
			}
			// The callback is not kept for later queries.
			calls := 0
			free := testmap.FreeCells(g)
			from, to := free[0], free[len(free)-1]
			s.AppendPath(nil, from, to, grid.Query{OnExpand: func(image.Point, float64) { calls++ }})
			before := calls
			s.AppendPath(nil, from, to, grid.Query{})
			if calls != before {
				t.Errorf("seed %d: OnExpand of an earlier query called %d times by a later one", seed, calls-before)
			}
		})
	}
}

func TestAppendOpen(t *testing.T) {
	for _, c := range randomCases() {
		const seed = 13
		t.Run(c.name, func(t *testing.T) {
			g := c.grid(seed)
			s := grid.NewSearcher(g)
			r := testmap.NewRand(seed)
			nonEmpty := false
			for _, pq := range testmap.RandomPairs(r, g, 10) {
				for _, q := range []grid.Query{{}, {MaxExpansions: 10}, {Plain: true}, {Plain: true, MaxExpansions: 10}} {
					_, res, err := s.AppendPath(nil, pq[0], pq[1], q)
					if err != nil {
						t.Fatal(err)
					}
					open := s.AppendOpen(nil)
					if q.Plain {
						nonEmpty = nonEmpty || len(open) > 0
					}
					seen := map[image.Point]bool{}
					for _, p := range open {
						if !g.Passable(p) || seen[p] {
							t.Errorf("seed %d, %v→%v, query %+v: open cell %v blocked or repeated\n%s",
								seed, pq[0], pq[1], q, p, testmap.Render(g, open))
						}
						seen[p] = true
					}
					if res.Status == core.BudgetSpent && len(open) == 0 {
						t.Errorf("seed %d, %v→%v, query %+v: budget spent but the open list is empty", seed, pq[0], pq[1], q)
					}
				}
			}
			if c.density < 0.4 && !nonEmpty {
				t.Errorf("seed %d: every open list of plain A* was empty", seed)
			}
		})
	}
}

func TestSearchAllocs(t *testing.T) {
	tests := []struct {
		name string
		g    *grid.Grid
	}{
		{"8-way", testmap.Random(21, 64, 64, 0.25, grid.Options{})},
		{"4-way", testmap.Random(21, 64, 64, 0.25, grid.Options{Connectivity: grid.Four})},
		{"8-way/costs", testmap.RandomCosts(21, 64, 64, 0.25, 5, grid.Eight)},
		{"4-way/costs", testmap.RandomCosts(21, 64, 64, 0.25, 5, grid.Four)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := grid.NewSearcher(tt.g)
			r := testmap.NewRand(21)
			var pairs [][2]image.Point
			for _, pq := range testmap.RandomPairs(r, tt.g, 200) {
				if tt.g.Connected(pq[0], pq[1]) {
					pairs = append(pairs, pq)
				}
			}
			if len(pairs) < 20 {
				t.Fatalf("seed 21: only %d connected pairs", len(pairs))
			}
			var dst []image.Point
			for _, pq := range pairs { // warm-up: grow every buffer
				dst, _, _ = s.AppendPath(dst[:0], pq[0], pq[1], grid.Query{})
			}
			for _, q := range []grid.Query{{}, {Heuristic: grid.Zero}, {MaxExpansions: 30}, {Plain: true}, {Plain: true, Weight: 2}} {
				i := 0
				allocs := testing.AllocsPerRun(100, func() {
					pq := pairs[i%len(pairs)]
					i++
					var err error
					dst, _, err = s.AppendPath(dst[:0], pq[0], pq[1], q)
					if err != nil {
						panic(err)
					}
				})
				if allocs != 0 {
					t.Errorf("seed 21, query %+v: got %v allocations per query\nwant 0", q, allocs)
				}
			}
		})
	}
}

// TestNilGrid checks the documented panics of the constructors.
func TestNilGrid(t *testing.T) {
	if msg := testmap.Panic(func() { grid.NewSearcher(nil) }); msg != "grid: NewSearcher of a nil grid" {
		t.Errorf("NewSearcher(nil): panic %q", msg)
	}
	if msg := testmap.Panic(func() { grid.NewSliced(nil) }); msg != "grid: NewSliced of a nil grid" {
		t.Errorf("NewSliced(nil): panic %q", msg)
	}
}
