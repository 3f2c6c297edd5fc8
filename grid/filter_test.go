package grid_test

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// filterOracle is gonum's Dijkstra over the cells a filter lets through,
// built from the Filter's definition with the grid's public accessors
// only: a cell passes when its area is not solid nor excluded and it is
// free or its area included; a diagonal step needs both side cells to
// pass; a step costs base × (m(a)+m(b))/2 with m = terrain × Cost[area].
func filterOracle(g *grid.Grid, f *grid.Filter, from image.Point) (func(to image.Point) (float64, bool), func(image.Point) bool) {
	pass := func(p image.Point) bool {
		if !g.In(p) {
			return false
		}
		a := g.Area(p)
		return a != grid.AreaSolid && !f.Exclude[a] && (g.Passable(p) || f.Include[a])
	}
	mult := func(p image.Point) float64 {
		m := f.Cost[g.Area(p)]
		if m == 0 {
			m = 1
		}
		if g.HasCosts() && g.Passable(p) {
			m *= g.Cost(p)
		}
		return m
	}
	id := func(p image.Point) int64 { return int64(p.Y)*int64(g.Width()) + int64(p.X) }
	gr := simple.NewWeightedUndirectedGraph(0, math.Inf(1))
	nbrs := [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	if g.Connectivity() == grid.Four {
		nbrs = nbrs[:2]
	}
	for y := range g.Height() {
		for x := range g.Width() {
			a := image.Pt(x, y)
			if !pass(a) {
				continue
			}
			if gr.Node(id(a)) == nil {
				gr.AddNode(simple.Node(id(a)))
			}
			for _, d := range nbrs {
				b := a.Add(image.Pt(d[0], d[1]))
				if !pass(b) {
					continue
				}
				base := 1.0
				if d[0] != 0 && d[1] != 0 {
					if !pass(image.Pt(b.X, a.Y)) || !pass(image.Pt(a.X, b.Y)) {
						continue
					}
					base = math.Sqrt2
				}
				gr.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(id(a)), T: simple.Node(id(b)), W: base * (mult(a) + mult(b)) / 2})
			}
		}
	}
	if gr.Node(id(from)) == nil {
		return func(image.Point) (float64, bool) { return math.Inf(1), false }, pass
	}
	t := path.DijkstraFrom(simple.Node(id(from)), gr)
	return func(to image.Point) (float64, bool) {
		d := t.WeightTo(id(to))
		return d, !math.IsInf(d, 1)
	}, pass
}

// randomAreas gives each cell of a w×h map an area and a free flag: ground,
// swamp, free or blocked water, trees and solid walls.
func randomAreas(r *rand.Rand, w, h int) ([]bool, []uint8) {
	free := make([]bool, w*h)
	areas := make([]uint8, w*h)
	for i := range free {
		switch k := r.IntN(20); {
		case k < 11:
			free[i], areas[i] = true, grid.AreaGround
		case k < 14:
			free[i], areas[i] = true, grid.AreaSwamp
		case k < 16:
			free[i], areas[i] = k == 14, grid.AreaWater
		case k < 17:
			areas[i] = grid.AreaTrees
		case k < 18:
			free[i], areas[i] = true, 7 // a caller's own area
		default:
			areas[i] = grid.AreaSolid
		}
	}
	return free, areas
}

// TestFilterOracle compares filtered queries with the oracle on random maps
// with random filters: costs, exclusions, and blocked areas let through.
func TestFilterOracle(t *testing.T) {
	filters := map[string]grid.Filter{}
	var f grid.Filter
	filters["zero"] = f
	f = grid.Filter{}
	f.Cost[grid.AreaSwamp] = 3
	filters["swamp ×3"] = f
	f = grid.Filter{}
	f.Exclude[grid.AreaSwamp] = true
	f.Cost[7] = 0.5
	filters["no swamp, area 7 ×0.5"] = f
	f = grid.Filter{}
	f.Include[grid.AreaWater] = true
	f.Cost[grid.AreaWater] = 2
	filters["boat: water ×2"] = f
	f = grid.Filter{}
	f.Include[grid.AreaWater] = true
	f.Include[grid.AreaTrees] = true
	f.Include[grid.AreaSolid] = true // never opens solid cells
	f.Exclude[grid.AreaGround] = true
	filters["only water, trees, swamp and 7"] = f
	for seed := uint64(1); seed <= 4; seed++ {
		for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
			r := rand.New(rand.NewPCG(seed, 7))
			w, h := 30, 24
			free, areas := randomAreas(r, w, h)
			opt := grid.Options{Connectivity: conn, Areas: areas}
			if seed%2 == 0 {
				opt.Costs = make([]float64, w*h)
				for i := range opt.Costs {
					opt.Costs[i] = 1 + float64(r.IntN(3))
				}
			}
			g, err := grid.New(w, h, free, opt)
			if err != nil {
				t.Fatal(err)
			}
			s := grid.NewSearcher(g)
			for name, f := range filters {
				for k := range 25 {
					from := image.Pt(r.IntN(w), r.IntN(h))
					to := image.Pt(r.IntN(w), r.IntN(h))
					dist, pass := filterOracle(g, &f, from)
					if k == 0 {
						for y := -1; y <= h; y++ {
							for x := -1; x <= w; x++ {
								c := image.Pt(x, y)
								if f.Passable(g, c) != pass(c) {
									t.Fatalf("seed %d filter %q: Passable(%v) = %v, want %v", seed, name, c, !pass(c), pass(c))
								}
							}
						}
					}
					where := fmt.Sprintf("seed %d conn %v filter %q query %d %v → %v", seed, conn, name, k, from, to)
					path, res, err := s.AppendPath(nil, from, to, grid.Query{Filter: &f})
					if !pass(from) || !pass(to) {
						if err == nil {
							t.Fatalf("%s: an end the filter does not let through gave no error", where)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					want, ok := dist(to)
					if !ok {
						if res.Status != core.Unreachable || len(path) != 0 {
							t.Fatalf("%s: status %v with %d cells, want unreachable", where, res.Status, len(path))
						}
						continue
					}
					if res.Status != core.Found || math.Abs(res.Cost-want) > 1e-9*max(1, want) {
						t.Fatalf("%s: status %v cost %v, want found %v", where, res.Status, res.Cost, want)
					}
					for i := range path {
						if !pass(path[i]) {
							t.Fatalf("%s: cell %v of the path is not let through", where, path[i])
						}
						if i > 0 && path[i].X != path[i-1].X && path[i].Y != path[i-1].Y &&
							(!pass(image.Pt(path[i].X, path[i-1].Y)) || !pass(image.Pt(path[i-1].X, path[i].Y))) {
							t.Fatalf("%s: step %v → %v cuts a corner", where, path[i-1], path[i])
						}
						if i > 0 && !f.CanStep(g, path[i-1], path[i]) {
							t.Fatalf("%s: CanStep(%v, %v) is false on the path", where, path[i-1], path[i])
						}
					}
				}
			}
		}
	}
}

// TestFilterLetters reads the Moving AI letters as area types and routes a
// ground unit, a swamp-averse one and a boat.
func TestFilterLetters(t *testing.T) {
	g, err := grid.ReadMap(strings.NewReader("type octile\nheight 3\nwidth 7\nmap\n"+
		"..SSS..\n"+
		"..@@@..\n"+
		"..WWW..\n"), "letters.map", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[image.Point]uint8{{0, 0}: grid.AreaGround, {3, 0}: grid.AreaSwamp, {3, 1}: grid.AreaSolid, {3, 2}: grid.AreaWater, {-1, 0}: grid.AreaSolid} {
		if got := g.Area(p); got != want {
			t.Errorf("Area(%v) = %d, want %d", p, got, want)
		}
	}
	s := grid.NewSearcher(g)
	var avoid, boat grid.Filter
	avoid.Exclude[grid.AreaSwamp] = true
	boat.Include[grid.AreaWater] = true
	boat.Exclude[grid.AreaSwamp] = true
	for _, tc := range []struct {
		name string
		f    *grid.Filter
		want core.Status
		cost float64
	}{
		{"ground", nil, core.Found, 2*math.Sqrt2 + 4},
		{"avoids swamp", &avoid, core.Unreachable, 0},
		{"boat", &boat, core.Found, 2*math.Sqrt2 + 4},
	} {
		_, res, err := s.AppendPath(nil, image.Pt(0, 1), image.Pt(6, 1), grid.Query{Filter: tc.f})
		if err != nil || res.Status != tc.want || (tc.want == core.Found && math.Abs(res.Cost-tc.cost) > 1e-9) {
			t.Errorf("%s: %v %v (%v), want %v %v", tc.name, res.Status, res.Cost, err, tc.want, tc.cost)
		}
	}
	// An edit makes the cells it frees ground and those it blocks solid.
	g.SetCells(image.Rect(2, 2, 4, 3), true)
	if a, b := g.Area(image.Pt(2, 2)), g.Area(image.Pt(3, 2)); a != grid.AreaGround || b != grid.AreaGround {
		t.Errorf("after freeing: areas %d, %d, want ground", a, b)
	}
	g.SetCells(image.Rect(3, 0, 4, 1), false)
	if a := g.Area(image.Pt(3, 0)); a != grid.AreaSolid {
		t.Errorf("after blocking: area %d, want solid", a)
	}
}

// TestFilterSegmentFree checks the filtered segment test against the
// grid's own on a map whose areas the filter treats as the grid does, and
// on a boat's water.
func TestFilterSegmentFree(t *testing.T) {
	g, err := grid.ReadMap(strings.NewReader("type octile\nheight 3\nwidth 5\nmap\n"+
		".....\n"+
		"WWWWW\n"+
		".....\n"), "water.map", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var boat grid.Filter
	boat.Include[grid.AreaWater] = true
	boat.Exclude[grid.AreaGround] = true
	a, b := mgl64.Vec2{0.5, 1.5}, mgl64.Vec2{4.5, 1.5}
	if g.SegmentFree(a, b) || (*grid.Filter)(nil).SegmentFree(g, a, b) {
		t.Error("along the water: free for a walker")
	}
	if !boat.SegmentFree(g, a, b) {
		t.Error("along the water: not free for a boat")
	}
	if c := (mgl64.Vec2{0.5, 0.5}); boat.SegmentFree(g, c, a) || !(&grid.Filter{}).SegmentFree(g, c, mgl64.Vec2{4.5, 0.5}) {
		t.Error("a boat on land, or a walker along the shore")
	}
}

// TestFilterErrors checks bad filters and ends.
func TestFilterErrors(t *testing.T) {
	m, err := testmap.Parse(`
		..S.
		..@.
	`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := grid.NewSearcher(m.Grid)
	var neg, low, excl grid.Filter
	neg.Cost[3] = -1
	low.Cost[0] = 1e-4
	excl.Exclude[grid.AreaGround] = true
	for _, tc := range []struct {
		name     string
		f        *grid.Filter
		from, to image.Point
	}{
		{"negative cost", &neg, image.Pt(0, 0), image.Pt(3, 1)},
		{"cost too low", &low, image.Pt(0, 0), image.Pt(3, 1)},
		{"start excluded", &excl, image.Pt(0, 0), image.Pt(2, 0)},
		{"goal on a wall", &grid.Filter{}, image.Pt(0, 0), image.Pt(2, 1)},
		{"goal outside", &grid.Filter{}, image.Pt(0, 0), image.Pt(9, 1)},
	} {
		if _, _, err := s.AppendPath(nil, tc.from, tc.to, grid.Query{Filter: tc.f}); err == nil || !strings.HasPrefix(err.Error(), "grid: ") {
			t.Errorf("%s: error %v, want one starting with grid:", tc.name, err)
		}
	}
	if _, err := grid.New(2, 1, []bool{true, false}, grid.Options{Areas: []uint8{grid.AreaSolid, 0}}); err == nil {
		t.Error("a free cell of area solid: no error")
	}
	if _, err := grid.New(2, 1, []bool{true, false}, grid.Options{Areas: []uint8{0}}); err == nil {
		t.Error("one area for two cells: no error")
	}
}

// TestFilterAllocs checks that a warm filtered query allocates nothing.
func TestFilterAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	free, areas := randomAreas(r, 64, 64)
	g, err := grid.New(64, 64, free, grid.Options{Areas: areas})
	if err != nil {
		t.Fatal(err)
	}
	var f grid.Filter
	f.Cost[grid.AreaSwamp] = 4
	f.Include[grid.AreaWater] = true
	s := grid.NewSearcher(g)
	free0 := testmap.FreeCells(g)
	from, to := free0[0], free0[len(free0)-1]
	dst := make([]image.Point, 0, 4096)
	query := func() { dst, _, _ = s.AppendPath(dst[:0], from, to, grid.Query{Filter: &f}) }
	query()
	if n := testing.AllocsPerRun(20, query); n != 0 {
		t.Errorf("a filtered query allocates %v times", n)
	}
}
