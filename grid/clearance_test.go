package grid_test

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// Tests of clearance and sized grids. The oracles here use only g's cells
// (Passable) and terrain multipliers (Cost), never Clearance or Sized: a
// unit of size k at p occupies the k × k cells from p, stands where they
// are all free, steps straight where it may stand, and diagonally where
// it may stand at the target and at both side cells.

// sizedCase is a random grid of the tests.
type sizedCase struct {
	w, h    int
	density float64
	conn    grid.Connectivity
	costs   bool
}

func (c sizedCase) String() string {
	return fmt.Sprintf("%d×%d density %.2f %v costs %v", c.w, c.h, c.density, c.conn, c.costs)
}

func (c sizedCase) grid(seed int64) *grid.Grid {
	if c.costs {
		return testmap.RandomCosts(seed, c.w, c.h, c.density, 4, c.conn)
	}
	return testmap.Random(seed, c.w, c.h, c.density, grid.Options{Connectivity: c.conn})
}

// fits reports whether a unit of size k may stand at p on g.
func fits(g *grid.Grid, p image.Point, k int) bool {
	for y := p.Y; y < p.Y+k; y++ {
		for x := p.X; x < p.X+k; x++ {
			if !g.Passable(image.Pt(x, y)) {
				return false
			}
		}
	}
	return true
}

// bruteClearance returns the side of the largest free square at p, at
// most grid.MaxClearance, by checking squares: the square of side k+1 is
// free when that of side k is and so are its new row and column.
func bruteClearance(g *grid.Grid, p image.Point) int {
	k := 0
	for ; k < grid.MaxClearance; k++ {
		for i := 0; i <= k; i++ {
			if !g.Passable(image.Pt(p.X+i, p.Y+k)) || !g.Passable(image.Pt(p.X+k, p.Y+i)) {
				return k
			}
		}
	}
	return k
}

// footprintCost returns the largest multiplier of the footprint at p.
func footprintCost(g *grid.Grid, p image.Point, k int) float64 {
	m := 1.0
	for y := p.Y; y < p.Y+k; y++ {
		for x := p.X; x < p.X+k; x++ {
			m = max(m, g.Cost(image.Pt(x, y)))
		}
	}
	return m
}

// footprintStep reports whether a unit of size k may step from a to b, a
// neighbour of a under g's connectivity, and what it costs.
func footprintStep(g *grid.Grid, a, b image.Point, k int) (float64, bool) {
	d := b.Sub(a)
	if d.X < -1 || d.X > 1 || d.Y < -1 || d.Y > 1 || d == (image.Point{}) {
		return 0, false
	}
	diag := d.X != 0 && d.Y != 0
	if diag && g.Connectivity() == grid.Four {
		return 0, false
	}
	if !fits(g, a, k) || !fits(g, b, k) {
		return 0, false
	}
	base := 1.0
	if diag {
		if !fits(g, image.Pt(b.X, a.Y), k) || !fits(g, image.Pt(a.X, b.Y), k) {
			return 0, false
		}
		base = math.Sqrt2
	}
	if !g.HasCosts() {
		return base, true
	}
	return base * (footprintCost(g, a, k) + footprintCost(g, b, k)) / 2, true
}

// footprintOracle answers shortest-path costs of a unit of size k on g with
// gonum's Dijkstra over the footprint rule.
type footprintOracle struct {
	g     *grid.Grid
	k     int
	graph *simple.WeightedUndirectedGraph
	trees map[image.Point]path.Shortest
}

func newFootprintOracle(g *grid.Grid, k int) *footprintOracle {
	o := &footprintOracle{g: g, k: k, graph: simple.NewWeightedUndirectedGraph(0, math.Inf(1)), trees: map[image.Point]path.Shortest{}}
	for y := range g.Height() {
		for x := range g.Width() {
			a := image.Pt(x, y)
			if !fits(g, a, k) {
				continue
			}
			if o.graph.Node(o.id(a)) == nil {
				o.graph.AddNode(simple.Node(o.id(a)))
			}
			for _, d := range []image.Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				if c, ok := footprintStep(g, a, a.Add(d), k); ok {
					o.graph.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(o.id(a)), T: simple.Node(o.id(a.Add(d))), W: c})
				}
			}
		}
	}
	return o
}

func (o *footprintOracle) id(p image.Point) int64 { return int64(p.Y*o.g.Width() + p.X) }

// dist returns the cost of a shortest path and whether there is one.
func (o *footprintOracle) dist(from, to image.Point) (float64, bool) {
	t, ok := o.trees[from]
	if !ok {
		t = path.DijkstraFrom(simple.Node(o.id(from)), o.graph)
		o.trees[from] = t
	}
	d := t.WeightTo(o.id(to))
	return d, !math.IsInf(d, 1)
}

// checkFootprintPath checks that path runs from from to to by steps of a
// unit of size k on g and returns its cost by the footprint rule.
func checkFootprintPath(g *grid.Grid, path []image.Point, from, to image.Point, k int) (float64, error) {
	if len(path) == 0 || path[0] != from || path[len(path)-1] != to {
		return 0, fmt.Errorf("path %v does not run from %v to %v", path, from, to)
	}
	if !fits(g, from, k) {
		return 0, fmt.Errorf("the footprint at the start %v is not free", from)
	}
	var sum float64
	for i := 1; i < len(path); i++ {
		c, ok := footprintStep(g, path[i-1], path[i], k)
		if !ok {
			return 0, fmt.Errorf("step %d from %v to %v leaves the free cells for size %d", i, path[i-1], path[i], k)
		}
		sum += c
	}
	return sum, nil
}

// sizedPairs draws n pairs of free cells of s, half of them uniformly and
// half in its largest region; none when s has no free cell.
func sizedPairs(r *rand.Rand, s *grid.Grid, n int) [][2]image.Point {
	pairs := testmap.RandomPairs(r, s, n/2)
	cell, size := s.LargestRegion()
	for range n - n/2 {
		if size == 0 {
			break
		}
		a, _ := s.RandomFree(r, cell)
		b, _ := s.RandomFree(r, cell)
		pairs = append(pairs, [2]image.Point{a, b})
	}
	return pairs
}

func sizedNear(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func TestClearanceMatchesBruteForce(t *testing.T) {
	cases := []sizedCase{{1, 1, 0, grid.Eight, false}, {1, 70, 0.1, grid.Eight, false}, {129, 1, 0, grid.Eight, false}}
	for _, d := range []float64{0, 0.05, 0.1, 0.2, 0.4} {
		for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
			cases = append(cases, sizedCase{150, 100, d, conn, false}, sizedCase{67, 130, d, conn, false})
		}
	}
	for ci, c := range cases {
		seed := int64(100 + ci)
		checkClearances(t, c.grid(seed), fmt.Sprintf("%v seed %d", c, seed))
	}
}

// checkClearances compares g's clearances with brute force, on every cell
// and around the grid.
func checkClearances(t *testing.T, g *grid.Grid, what string) {
	t.Helper()
	for y := -1; y <= g.Height(); y++ {
		for x := -1; x <= g.Width(); x++ {
			if p := image.Pt(x, y); g.Clearance(p) != bruteClearance(g, p) {
				t.Fatalf("%s: Clearance(%v) = %d, want %d", what, p, g.Clearance(p), bruteClearance(g, p))
			}
		}
	}
}

func TestClearanceCap(t *testing.T) {
	g := testmap.Random(1, 300, 270, 0, grid.Options{}) // all free
	for _, tc := range []struct {
		p    image.Point
		want int
	}{
		{image.Pt(0, 0), grid.MaxClearance}, {image.Pt(44, 14), grid.MaxClearance}, {image.Pt(45, 0), grid.MaxClearance},
		{image.Pt(50, 10), 250}, {image.Pt(10, 20), 250}, {image.Pt(299, 269), 1}, {image.Pt(300, 0), 0},
	} {
		if got := g.Clearance(tc.p); got != tc.want {
			t.Errorf("open 300×270: Clearance(%v) = %d, want %d", tc.p, got, tc.want)
		}
	}
}

func TestClearanceAllocs(t *testing.T) {
	g := testmap.Random(7, 150, 100, 0.1, grid.Options{})
	ps := testmap.FreeCells(g)
	i := 0
	if a := testing.AllocsPerRun(100, func() { g.Clearance(ps[i%len(ps)]); i++ }); a != 0 {
		t.Errorf("Clearance allocates %v times, want 0", a)
	}
}

func TestSizedErrors(t *testing.T) {
	g := testmap.Random(1, 20, 10, 0.1, grid.Options{})
	for _, k := range []int{-1, 0, grid.MaxClearance + 1} {
		if _, err := g.Sized(k); err == nil || !strings.HasPrefix(err.Error(), "grid: ") {
			t.Errorf("Sized(%d): error %v, want one starting with \"grid: \"", k, err)
		}
	}
	s, err := g.Sized(2)
	if err != nil {
		t.Fatal(err)
	}
	four := testmap.Random(1, 20, 10, 0.1, grid.Options{Connectivity: grid.Four})
	wide := testmap.Random(1, 21, 10, 0.1, grid.Options{})
	costs := testmap.RandomCosts(1, 20, 10, 0.1, 3, grid.Eight)
	tests := []struct {
		name   string
		s, src *grid.Grid
		k      int
	}{
		{"own source", g, g, 1},
		{"size", s, wide, 2},
		{"connectivity", s, four, 2},
		{"costs", s, costs, 2},
		{"k 0", s, g, 0},
		{"k too large", s, g, grid.MaxClearance + 1},
	}
	for _, tc := range tests {
		v := tc.s.Version()
		_, err := tc.s.UpdateSized(tc.src, tc.k, image.Rect(0, 0, 5, 5))
		if err == nil || !strings.HasPrefix(err.Error(), "grid: ") {
			t.Errorf("%s: UpdateSized error %v, want one starting with \"grid: \"", tc.name, err)
		}
		if tc.s.Version() != v {
			t.Errorf("%s: version changed on an error", tc.name)
		}
	}
}

// TestSizedCells checks the sized grids' cells, moves and costs against the
// footprint rule, and that Sized(1) equals g.
func TestSizedCells(t *testing.T) {
	cases := []sizedCase{
		{150, 100, 0.1, grid.Eight, false}, {150, 100, 0.2, grid.Four, true},
		{70, 65, 0.3, grid.Eight, true}, {70, 65, 0, grid.Four, false},
	}
	for ci, c := range cases {
		seed := int64(200 + ci)
		g := c.grid(seed)
		for _, k := range []int{1, 2, 3, 5} {
			s, err := g.Sized(k)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameCellsAsFootprint(g, s, k); err != nil {
				t.Fatalf("%v seed %d k %d: %v", c, seed, k, err)
			}
		}
		s, _ := g.Sized(1)
		if err := sameGrid(s, g); err != nil {
			t.Fatalf("%v seed %d: Sized(1) differs from g: %v", c, seed, err)
		}
	}
}

// sameCellsAsFootprint compares s, g's sized grid for k, with the
// footprint rule.
func sameCellsAsFootprint(g, s *grid.Grid, k int) error {
	if s.Width() != g.Width() || s.Height() != g.Height() || s.Connectivity() != g.Connectivity() || s.HasCosts() != g.HasCosts() {
		return fmt.Errorf("sized grid is %d×%d %v costs %v, want %d×%d %v costs %v",
			s.Width(), s.Height(), s.Connectivity(), s.HasCosts(), g.Width(), g.Height(), g.Connectivity(), g.HasCosts())
	}
	for y := range g.Height() {
		for x := range g.Width() {
			p := image.Pt(x, y)
			if got, want := s.Passable(p), fits(g, p, k); got != want {
				return fmt.Errorf("sized Passable(%v) = %v, want %v", p, got, want)
			}
			if s.Passable(p) && g.HasCosts() && s.Cost(p) != footprintCost(g, p, k) {
				return fmt.Errorf("sized Cost(%v) = %v, want %v", p, s.Cost(p), footprintCost(g, p, k))
			}
			for d := range 8 {
				q := p.Add(grid.Step(d))
				_, want := footprintStep(g, p, q, k)
				if got := s.CanStep(p, q); got != want {
					return fmt.Errorf("sized CanStep(%v, %v) = %v, want %v", p, q, got, want)
				}
			}
		}
	}
	return nil
}

// sameGrid compares a and b cell by cell (free cells, moves, multipliers of
// free cells) and their regions as partitions of the free cells.
func sameGrid(a, b *grid.Grid) error {
	if a.Bounds() != b.Bounds() || a.Connectivity() != b.Connectivity() || a.HasCosts() != b.HasCosts() {
		return fmt.Errorf("grids %v %v and %v %v differ in shape", a.Bounds(), a.Connectivity(), b.Bounds(), b.Connectivity())
	}
	if a.NumRegions() != b.NumRegions() {
		return fmt.Errorf("%d regions, want %d", a.NumRegions(), b.NumRegions())
	}
	ab, ba := map[int32]int32{}, map[int32]int32{} // a region of one grid to the other's
	for y := range a.Height() {
		for x := range a.Width() {
			p := image.Pt(x, y)
			if a.Passable(p) != b.Passable(p) {
				return fmt.Errorf("Passable(%v) = %v, want %v", p, a.Passable(p), b.Passable(p))
			}
			if a.Moves(p) != b.Moves(p) {
				return fmt.Errorf("Moves(%v) = %08b, want %08b", p, a.Moves(p), b.Moves(p))
			}
			if a.Passable(p) && a.Cost(p) != b.Cost(p) {
				return fmt.Errorf("Cost(%v) = %v, want %v", p, a.Cost(p), b.Cost(p))
			}
			ra, rb := a.Region(p), b.Region(p)
			if (ra < 0) != (rb < 0) {
				return fmt.Errorf("Region(%v) = %d, want %d", p, ra, rb)
			}
			if ra < 0 {
				continue
			}
			if _, ok := ab[ra]; !ok {
				ab[ra] = rb
			}
			if _, ok := ba[rb]; !ok {
				ba[rb] = ra
			}
			if ab[ra] != rb || ba[rb] != ra {
				return fmt.Errorf("Region(%v) = %d, %d in the other grid: the regions differ", p, ra, rb)
			}
		}
	}
	return nil
}

// TestSizedPathsMatchFootprintOracle checks searches on sized grids against
// Dijkstra over the footprint rule, and every step of their paths.
func TestSizedPathsMatchFootprintOracle(t *testing.T) {
	var cases []sizedCase
	for _, d := range []float64{0.05, 0.15, 0.3} {
		cases = append(cases, sizedCase{150, 100, d, grid.Eight, false}, sizedCase{90, 70, d, grid.Four, false},
			sizedCase{90, 70, d, grid.Eight, true})
	}
	for ci, c := range cases {
		seed := int64(300 + ci)
		g := c.grid(seed)
		r := testmap.NewRand(seed)
		for _, k := range []int{1, 2, 3} {
			s, err := g.Sized(k)
			if err != nil {
				t.Fatal(err)
			}
			o := newFootprintOracle(g, k)
			for _, pr := range sizedPairs(r, s, 8) {
				from, to := pr[0], pr[1]
				want, reachable := o.dist(from, to)
				for _, q := range []grid.Query{{}, {Plain: true}} {
					what := fmt.Sprintf("%v seed %d k %d %v→%v plain %v", c, seed, k, from, to, q.Plain)
					path, res, err := grid.NewSearcher(s).AppendPath(nil, from, to, q)
					switch {
					case err != nil:
						t.Fatalf("%s: %v", what, err)
					case !reachable && res.Status != core.Unreachable:
						t.Fatalf("%s: status %v, want unreachable\n%s", what, res.Status, testmap.Render(s, path))
					case !reachable:
						continue
					case res.Status != core.Found || !sizedNear(res.Cost, want):
						t.Fatalf("%s: %v cost %v, want found cost %v\n%s", what, res.Status, res.Cost, want, testmap.Render(s, path))
					}
					if cost, err := checkFootprintPath(g, path, from, to, k); err != nil || !sizedNear(cost, want) {
						t.Fatalf("%s: path costs %v by the footprint rule (%v), want %v\n%s", what, cost, err, want, testmap.Render(g, path))
					}
				}
			}
		}
	}
}

// sizedEdit draws a rectangle to edit on a w × h grid: mostly small, some
// across the grid's edges, some large.
func sizedEdit(r *rand.Rand, w, h int) image.Rectangle {
	var sx, sy int
	switch k := r.IntN(10); {
	case k < 6:
		sx, sy = 1+r.IntN(6), 1+r.IntN(6)
	case k < 9:
		sx, sy = 1+r.IntN(15), 1+r.IntN(15)
	default:
		sx, sy = 10+r.IntN(w/2), 10+r.IntN(h/2)
	}
	x, y := r.IntN(w+sx)-sx+1, r.IntN(h+sy)-sy+1
	if r.IntN(8) == 0 {
		x = -r.IntN(3) // across the left or top edge, where the grown rectangle leaves the grid
		y = -r.IntN(3)
	}
	return image.Rect(x, y, x+sx, y+sy)
}

// TestUpdateSizedMatchesFresh edits grids at random and checks that sized
// grids brought up to date equal sized grids derived afresh: cells, moves,
// costs, regions and search costs (the jump tables, built first, are kept
// up to date by the edits), that UpdateSized reports the bounding rectangle
// of the cells it changed, and that the edited grids' clearances equal
// brute force.
func TestUpdateSizedMatchesFresh(t *testing.T) {
	cases := []sizedCase{
		{150, 100, 0.1, grid.Eight, false}, {150, 100, 0.25, grid.Four, false},
		{130, 90, 0.15, grid.Eight, true}, {70, 140, 0.05, grid.Eight, false},
	}
	ks := []int{1, 2, 3, 4}
	for ci, c := range cases {
		seed := int64(400 + ci)
		g := c.grid(seed)
		r := testmap.NewRand(seed)
		sized := make([]*grid.Grid, len(ks))
		for i, k := range ks {
			s, err := g.Sized(k)
			if err != nil {
				t.Fatal(err)
			}
			s.BuildJumps()
			sized[i] = s
		}
		for e := range 40 {
			er, free := sizedEdit(r, c.w, c.h), r.IntN(2) == 0
			g.SetCells(er, free)
			what := fmt.Sprintf("%v seed %d edit %d %v free=%v", c, seed, e, er, free)
			for i, k := range ks {
				s := sized[i]
				before, v := s.WithCells(image.Rectangle{}, false), s.Version() // a copy
				changed, err := s.UpdateSized(g, k, er)
				if err != nil {
					t.Fatalf("%s k %d: %v", what, k, err)
				}
				var diff image.Rectangle
				for y := range c.h {
					for x := range c.w {
						if p := image.Pt(x, y); s.Passable(p) != before.Passable(p) {
							diff = diff.Union(image.Rect(x, y, x+1, y+1))
						}
					}
				}
				if changed != diff {
					t.Fatalf("%s k %d: UpdateSized reports %v changed, want %v", what, k, changed, diff)
				}
				if grown := image.Rect(er.Min.X-k+1, er.Min.Y-k+1, er.Max.X, er.Max.Y); !diff.In(grown) {
					t.Fatalf("%s k %d: cells %v changed, outside %v", what, k, diff, grown)
				}
				if want := v + map[bool]uint64{true: 0, false: 1}[diff.Empty()]; s.Version() != want {
					t.Fatalf("%s k %d: version %d, want %d", what, k, s.Version(), want)
				}
				fresh, err := g.Sized(k)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameGrid(s, fresh); err != nil {
					t.Fatalf("%s k %d: updated sized grid differs from a fresh one: %v", what, k, err)
				}
				for _, pr := range sizedPairs(r, fresh, 4) {
					_, got, err1 := grid.NewSearcher(s).AppendPath(nil, pr[0], pr[1], grid.Query{})
					_, want, err2 := grid.NewSearcher(fresh).AppendPath(nil, pr[0], pr[1], grid.Query{})
					if err1 != nil || err2 != nil || got.Status != want.Status || !sizedNear(got.Cost, want.Cost) {
						t.Fatalf("%s k %d %v→%v: updated %v cost %v (%v), fresh %v cost %v (%v)",
							what, k, pr[0], pr[1], got.Status, got.Cost, err1, want.Status, want.Cost, err2)
					}
				}
			}
			if e%8 == 7 {
				checkClearances(t, g, what)
			}
		}
		for i, k := range ks {
			if err := sameCellsAsFootprint(g, sized[i], k); err != nil {
				t.Fatalf("%v seed %d k %d after the edits: %v", c, seed, k, err)
			}
		}
	}
}

// TestUpdateSizedDuringQueries runs queries on a sized grid while its
// source is edited and it is brought up to date: run with -race, it checks
// that updates and queries do not race; and the final grid must equal a
// fresh one.
func TestUpdateSizedDuringQueries(t *testing.T) {
	const seed = 500
	g := testmap.Random(seed, 150, 100, 0.1, grid.Options{})
	s, err := g.Sized(2)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var done atomic.Bool
	for w := range 2 {
		wg.Go(func() {
			r, sr := testmap.NewRand(seed+int64(w)+1), grid.NewSearcher(s)
			var path []image.Point
			for !done.Load() {
				path, _, _ = sr.AppendPath(path[:0], image.Pt(r.IntN(150), r.IntN(100)), image.Pt(r.IntN(150), r.IntN(100)), grid.Query{})
			}
		})
	}
	r := testmap.NewRand(seed)
	for range 60 {
		er := sizedEdit(r, 150, 100)
		g.SetCells(er, r.IntN(2) == 0)
		if _, err := s.UpdateSized(g, 2, er); err != nil {
			t.Fatal(err)
		}
	}
	done.Store(true)
	wg.Wait()
	fresh, err := g.Sized(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGrid(s, fresh); err != nil {
		t.Fatalf("seed %d: after concurrent updates: %v", seed, err)
	}
}

// TestSizedTerrain checks that an anchor's multiplier is the largest of its
// footprint's, blocked cells' included, before and after an edit. (The
// example draws a gap that only size 1 passes.)
func TestSizedTerrain(t *testing.T) {
	m, err := testmap.Parse(`
		.2..
		..7#
		3...`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := m.Grid
	s, err := g.Sized(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    image.Point
		free bool
		cost float64
	}{
		{image.Pt(0, 0), true, 2}, {image.Pt(1, 0), true, 7}, {image.Pt(2, 0), false, 7},
		{image.Pt(0, 1), true, 3}, {image.Pt(1, 1), true, 7}, {image.Pt(2, 1), false, 7},
	} {
		if s.Passable(tc.p) != tc.free || s.Passable(tc.p) && s.Cost(tc.p) != tc.cost {
			t.Errorf("terrain: sized cell %v free %v cost %v, want free %v cost %v", tc.p, s.Passable(tc.p), s.Cost(tc.p), tc.free, tc.cost)
		}
	}
	// Freeing (3,1) frees anchor (2,0); its multiplier is that footprint's
	// largest, 7, not the 1 of a blocked cell.
	g.SetCells(image.Rect(3, 1, 4, 2), true)
	if _, err := s.UpdateSized(g, 2, image.Rect(3, 1, 4, 2)); err != nil {
		t.Fatal(err)
	}
	if p := image.Pt(2, 0); !s.Passable(p) || s.Cost(p) != 7 {
		t.Errorf("terrain after freeing (3,1): sized cell %v free %v cost %v, want free, cost 7", p, s.Passable(p), s.Cost(p))
	}
}
