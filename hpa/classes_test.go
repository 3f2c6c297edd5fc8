package hpa_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// classMap returns a w × h map of ground with rectangles of swamp (free)
// and water (blocked), thin walls and scattered solid cells, drawn from
// seed; with costs, every cell has a terrain multiplier from 1 to 3.
func classMap(seed int64, w, h int, costs bool) *grid.Grid {
	r := testmap.NewRand(seed)
	free, areas := make([]bool, w*h), make([]uint8, w*h)
	for i := range free {
		free[i] = true
	}
	fill := func(a uint8, blocked bool, rw, rh int) {
		x, y := r.IntN(w), r.IntN(h)
		for yy := y; yy < min(y+rh, h); yy++ {
			for xx := x; xx < min(x+rw, w); xx++ {
				areas[yy*w+xx], free[yy*w+xx] = a, !blocked
			}
		}
	}
	n := w * h / 300
	for range n {
		fill(grid.AreaSwamp, false, 2+r.IntN(12), 2+r.IntN(12))
	}
	for range n / 2 {
		fill(grid.AreaWater, true, 2+r.IntN(8), 2+r.IntN(8))
	}
	for i := range n {
		if l := 3 + r.IntN(20); i%2 == 0 {
			fill(grid.AreaSolid, true, l, 1)
		} else {
			fill(grid.AreaSolid, true, 1, l)
		}
	}
	for i := range free {
		if r.Float64() < 0.03 {
			areas[i], free[i] = grid.AreaSolid, false
		}
	}
	opt := grid.Options{Areas: areas}
	if costs {
		opt.Costs = make([]float64, w*h)
		for i := range opt.Costs {
			opt.Costs[i] = float64(1 + r.IntN(3))
		}
	}
	g, err := grid.New(w, h, free, opt)
	if err != nil {
		panic(err)
	}
	return g
}

// swampFilter keeps units out of water and makes swamp cost three times
// as much.
func swampFilter() *grid.Filter {
	f := new(grid.Filter)
	f.Exclude[grid.AreaWater] = true
	f.Cost[grid.AreaSwamp] = 3
	return f
}

// testClasses are sizes 1 to 3, without a filter and with swampFilter.
func testClasses() []hpa.Class {
	var cs []hpa.Class
	for _, f := range []*grid.Filter{nil, swampFilter()} {
		for k := 1; k <= 3; k++ {
			cs = append(cs, hpa.Class{Size: k, Filter: f})
		}
	}
	return cs
}

// footprintOK reports whether a unit of size k that goes where f lets it
// may stand at p on the source grid g: every cell of its footprint passes.
func footprintOK(g *grid.Grid, f *grid.Filter, p image.Point, k int) bool {
	for y := p.Y; y < p.Y+k; y++ {
		for x := p.X; x < p.X+k; x++ {
			if !f.Passable(g, image.Pt(x, y)) {
				return false
			}
		}
	}
	return true
}

// checkUnitPath checks path from from to to for a unit of class cl on the
// source grid g, by the footprint rule alone: every footprint passable at
// every step, and for a diagonal step both side footprints too.
func checkUnitPath(g *grid.Grid, cl hpa.Class, path []image.Point, from, to image.Point) error {
	if len(path) == 0 || path[0] != from || path[len(path)-1] != to {
		return fmt.Errorf("path of %d cells does not run from %v to %v", len(path), from, to)
	}
	if !footprintOK(g, cl.Filter, from, cl.Size) {
		return fmt.Errorf("the unit cannot stand at the start %v", from)
	}
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		d := b.Sub(a)
		if d.X < -1 || d.X > 1 || d.Y < -1 || d.Y > 1 || d == (image.Point{}) {
			return fmt.Errorf("step %d from %v to %v is not a unit move", i, a, b)
		}
		if !footprintOK(g, cl.Filter, b, cl.Size) {
			return fmt.Errorf("step %d to %v: the footprint leaves the passable cells", i, b)
		}
		if d.X != 0 && d.Y != 0 && (g.Connectivity() == grid.Four ||
			!footprintOK(g, cl.Filter, image.Pt(b.X, a.Y), cl.Size) || !footprintOK(g, cl.Filter, image.Pt(a.X, b.Y), cl.Size)) {
			return fmt.Errorf("diagonal step %d from %v to %v cuts a corner", i, a, b)
		}
	}
	return nil
}

// checkClassPath checks path, found for a unit of class cl from p[0] to
// p[1] with result res: legal for the unit's footprint on the source grid
// g, costing res.Cost on the class's grid cg, and not below opt, the
// class's optimum.
func checkClassPath(t *testing.T, what string, g, cg *grid.Grid, cl hpa.Class, p [2]image.Point, path []image.Point, res hpa.Result, opt float64) {
	t.Helper()
	if err := checkUnitPath(g, cl, path, p[0], p[1]); err != nil {
		t.Fatalf("%s %v→%v: %v\n%s", what, p[0], p[1], err, testmap.Render(cg, path))
	}
	if cost, err := cg.PathCost(path); err != nil || math.Abs(cost-res.Cost) > 1e-9*cost {
		t.Fatalf("%s %v→%v: result cost %v, path cost %v (%v)", what, p[0], p[1], res.Cost, cost, err)
	}
	if res.Cost < opt-1e-9 {
		t.Fatalf("%s %v→%v: cost %v below the optimum %v", what, p[0], p[1], res.Cost, opt)
	}
}

// classPairs draws n pairs of free cells of g, half of them anywhere and
// half in its largest region, where paths are long.
func classPairs(r *rand.Rand, g *grid.Grid, n int) [][2]image.Point {
	pairs := testmap.RandomPairs(r, g, n/2)
	if cell, size := g.LargestRegion(); size > 0 {
		for range n - n/2 {
			a, _ := g.RandomFree(r, cell)
			b, _ := g.RandomFree(r, cell)
			pairs = append(pairs, [2]image.Point{a, b})
		}
	}
	return pairs
}

// TestClassesPaths: for sizes 1 to 3 with and without swampFilter, HPA*
// paths of a class's graph are legal for the unit on the source grid, cost
// what they say on the class's grid, and are within a few per cent of the
// exact optimum of a grid search on the class's grid; for size 1 with the
// filter, that optimum is the one a filtered search of the source finds.
//
// The bound is on the mean excess cost per class, with the default clusters
// of 32 cells: about 3 to 5 % here, as for the plain class, which is a
// Build of the source grid. (With clusters of 8 on a 120 × 90 map, every
// class, the plain one included, is about 7 to 13 % above the optimum.)
func TestClassesPaths(t *testing.T) {
	const w, h, pairs = 256, 192, 100
	classes := testClasses()
	st := make([]subopt, len(classes))
	seeds := int64(3)
	if testing.Short() {
		seeds = 1
	}
	for seed := int64(1); seed <= seeds; seed++ {
		g := classMap(seed, w, h, seed == 3)
		c, err := hpa.BuildClasses(g, classes, hpa.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, cl := range classes {
			what := fmt.Sprintf("seed %d class %d (size %d, filter %v)", seed, i, cl.Size, cl.Filter != nil)
			cg := c.Grid(i)
			q, exact, src := hpa.NewSearcher(c.Graph(i)), grid.NewSearcher(cg), grid.NewSearcher(g)
			for _, p := range classPairs(testmap.NewRand(seed*10+int64(i)), cg, pairs) {
				path, res, err := q.AppendPath(nil, p[0], p[1], hpa.Query{})
				_, opt, err2 := exact.AppendPath(nil, p[0], p[1], grid.Query{})
				if err != nil || err2 != nil || res.Status != opt.Status {
					t.Fatalf("%s %v→%v: hpa %v (%v), grid %v (%v)", what, p[0], p[1], res.Status, err, opt.Status, err2)
				}
				if cl.Size == 1 && cl.Filter != nil {
					_, fr, err := src.AppendPath(nil, p[0], p[1], grid.Query{Filter: cl.Filter})
					if err != nil || fr.Status != opt.Status || math.Abs(fr.Cost-opt.Cost) > 1e-12*opt.Cost {
						t.Fatalf("%s %v→%v: filtered source search %v cost %v (%v), class grid %v cost %v",
							what, p[0], p[1], fr.Status, fr.Cost, err, opt.Status, opt.Cost)
					}
				}
				if res.Status != core.Found {
					continue
				}
				checkClassPath(t, what, g, cg, cl, p, path, res, opt.Cost)
				st[i].add(res.Cost, opt.Cost)
			}
		}
	}
	for i, cl := range classes {
		t.Logf("class %d (size %d, filter %v): %v", i, cl.Size, cl.Filter != nil, &st[i])
		if st[i].n < 50*int(seeds)/3 {
			t.Errorf("class %d: only %d paths found", i, st[i].n)
		}
		if st[i].mean() > 0.06 {
			t.Errorf("class %d: mean suboptimality %.2f%%, want ≤ 6%%", i, 100*st[i].mean())
		}
	}
}

// TestClassesGrids checks what each class is served from: the source
// itself for the plain class (and a filter that changes nothing), the
// sized grid for a size alone, a derived grid otherwise.
func TestClassesGrids(t *testing.T) {
	g := classMap(4, 60, 50, false)
	f := swampFilter()
	classes := []hpa.Class{{}, {Size: 1, Filter: new(grid.Filter)}, {Size: 2}, {Size: 2, Filter: f}, {Filter: f}}
	c, err := hpa.BuildClasses(g, classes, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	f.Cost[grid.AreaSwamp] = 100 // the classes keep their own copy
	if c.Len() != len(classes) {
		t.Fatalf("Len %d, want %d", c.Len(), len(classes))
	}
	if c.Grid(0) != g || c.Grid(1) != g || c.Graph(0).Grid() != g {
		t.Errorf("the plain classes are not served from the source grid")
	}
	sized, _ := g.Sized(2)
	derived, _ := g.Derived(2, swampFilter())
	for _, tc := range []struct {
		i    int
		want *grid.Grid
	}{{2, sized}, {3, derived}} {
		cg := c.Grid(tc.i)
		if cg == g || c.Graph(tc.i).Grid() != cg || cg.HasCosts() != tc.want.HasCosts() {
			t.Fatalf("class %d: grid %p (source %p), graph's grid %p, costs %v", tc.i, cg, g, c.Graph(tc.i).Grid(), cg.HasCosts())
		}
		for _, p := range testmap.FreeCells(tc.want) {
			if !cg.Passable(p) || cg.Cost(p) != tc.want.Cost(p) {
				t.Fatalf("class %d: cell %v passable %v cost %v, want the derived grid's %v", tc.i, p, cg.Passable(p), cg.Cost(p), tc.want.Cost(p))
			}
		}
		if n, m := len(testmap.FreeCells(cg)), len(testmap.FreeCells(tc.want)); n != m {
			t.Fatalf("class %d: %d free cells, want %d", tc.i, n, m)
		}
	}
	cl := c.Class(4)
	if cl.Size != 1 || cl.Filter == nil || cl.Filter.Cost[grid.AreaSwamp] != 3 || !cl.Filter.Exclude[grid.AreaWater] {
		t.Fatalf("Class(4) = %+v, want size 1 and swampFilter", cl)
	}
	cl.Filter.Cost[grid.AreaSwamp] = 5
	if c.Class(4).Filter.Cost[grid.AreaSwamp] != 3 || c.Class(0).Filter != nil || c.Class(0).Size != 1 {
		t.Fatalf("Class gave away its filter, or changed the plain class")
	}
}

// TestClassesUpdate runs sequences of in-place edits of the source, each
// followed by Classes.Update: after each, every class's graph writes the
// same file as a fresh BuildClasses of the edited grid, so does the whole,
// and searchers made before the first edit answer as the fresh graphs do.
func TestClassesUpdate(t *testing.T) {
	const w, h = 100, 80
	classes := []hpa.Class{{}, {Size: 2}, {Filter: swampFilter()}, {Size: 3, Filter: swampFilter()}}
	changed := 0
	for seed := int64(1); seed <= 3; seed++ {
		g := classMap(seed, w, h, seed == 2)
		opt := hpa.Options{ClusterSize: 8, Levels: 1 + int(seed%2)}
		c, err := hpa.BuildClasses(g, classes, opt)
		if err != nil {
			t.Fatal(err)
		}
		old := make([]*hpa.Searcher, len(classes))
		for i := range classes {
			old[i] = hpa.NewSearcher(c.Graph(i))
		}
		r := testmap.NewRand(seed)
		for e := range 16 {
			x, y := r.IntN(w), r.IntN(h)
			rect := image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(5))
			if e%3 == 2 {
				rect = image.Rect(x, y, x+1+r.IntN(4), y+1+r.IntN(12))
			}
			before := g.Version()
			snaps := make([][]float64, len(classes))
			for i := range classes {
				snaps[i] = cellStates(c.Grid(i))
			}
			g.SetCells(rect, e%2 == 1)
			if g.Version() != before {
				changed++
			}
			if err := c.Update(rect); err != nil {
				t.Fatal(err)
			}
			if e%4 == 3 {
				if err := c.Refill(); err != nil { // and the answers below stay a fresh build's
					t.Fatal(err)
				}
			}
			what := fmt.Sprintf("seed %d edit %d (%v free %v)", seed, e, rect, e%2 == 1)
			for i := range classes {
				// Changed covers every cell of the class's grid that changed.
				now := cellStates(c.Grid(i))
				for k := range now {
					if p := image.Pt(k%w, k/w); now[k] != snaps[i][k] && !p.In(c.Changed(i)) {
						t.Fatalf("%s: class %d: cell %v changed outside Changed %v", what, i, p, c.Changed(i))
					}
				}
			}
			fresh, err := hpa.BuildClasses(g, classes, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i := range classes {
				if a, b := fileBytes(t, c.Graph(i)), fileBytes(t, fresh.Graph(i)); !bytes.Equal(a, b) {
					t.Fatalf("%s: class %d's updated graph writes %d bytes unlike the fresh build's %d", what, i, len(a), len(b))
				}
				qf := hpa.NewSearcher(fresh.Graph(i))
				for _, p := range testmap.RandomPairs(r, fresh.Grid(i), 15) {
					pu, ru, eu := old[i].AppendPath(nil, p[0], p[1], hpa.Query{})
					pf, rf, ef := qf.AppendPath(nil, p[0], p[1], hpa.Query{})
					if eu != nil || ef != nil || !hpa.SameAnswer(ru, rf) || !equalCells(pu, pf) {
						t.Fatalf("%s: class %d %v→%v: updated %+v %v, fresh %+v %v", what, i, p[0], p[1], ru, eu, rf, ef)
					}
				}
			}
			if a, b := classesBytes(t, c), classesBytes(t, fresh); !bytes.Equal(a, b) {
				t.Fatalf("%s: the updated classes write %d bytes unlike the fresh build's %d", what, len(a), len(b))
			}
		}
	}
	if changed == 0 {
		t.Fatal("no edit changed a cell")
	}
}

// TestClassesConcurrent queries two classes from two goroutines while the
// source is edited and the classes updated: every answer is a path or an
// ErrStale error; run with -race.
func TestClassesConcurrent(t *testing.T) {
	g := classMap(7, 90, 70, false)
	c, err := hpa.BuildClasses(g, []hpa.Class{{}, {Size: 2, Filter: swampFilter()}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	raceEdits(t, g, c.Len(), c.Grid, func(i int) func(p [2]image.Point) error {
		q := hpa.NewSearcher(c.Graph(i))
		return func(p [2]image.Point) error { _, _, err := q.AppendPath(nil, p[0], p[1], hpa.Query{}); return err }
	}, c.Update)
}

// raceEdits runs, for each of n classes of source grid g (class i's grid
// gridOf(i)), a goroutine that asks ask(i) for a query and runs it over
// and over between free cells away from a wall, while the wall is put up
// and taken down 20 times with update after each edit; every answer must
// be a path or an ErrStale error. Run with -race.
func raceEdits(t *testing.T, g *grid.Grid, n int, gridOf func(i int) *grid.Grid, ask func(i int) func(p [2]image.Point) error, update func(image.Rectangle) error) {
	t.Helper()
	wall := image.Rect(40, 5, 42, 60)
	var wg sync.WaitGroup
	errs := make([]error, n)
	stop := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			query := ask(i)
			var pairs [][2]image.Point // cells the wall's edits leave free
			// The grid is read outside a query here, while the edits run:
			// under its read lock, as SetCells's contract asks.
			cg := gridOf(i)
			cg.RLock()
			random := testmap.RandomPairs(testmap.NewRand(int64(i)), cg, 100)
			cg.RUnlock()
			for _, p := range random {
				if near := wall.Inset(-3); !p[0].In(near) && !p[1].In(near) {
					pairs = append(pairs, p)
				}
			}
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := query(pairs[k%len(pairs)]); err != nil && !errors.Is(err, hpa.ErrStale) {
					errs[i] = err
					return
				}
			}
		})
	}
	for i := range 20 {
		g.SetCells(wall, i%2 == 1)
		if err := update(wall); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("class %d: %v", i, err)
		}
	}
}

func TestClassesAllocs(t *testing.T) {
	g := classMap(3, 200, 150, false)
	c, err := hpa.BuildClasses(g, []hpa.Class{{}, {Size: 2, Filter: swampFilter()}}, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if allocs := warmAllocs(t, hpa.NewSearcher(c.Graph(1)), classPairs(testmap.NewRand(3), c.Grid(1), 100)); allocs != 0 {
		t.Errorf("a warm query on a class's graph allocates %v times, want 0", allocs)
	}
}

func TestClassesErrors(t *testing.T) {
	g := classMap(1, 40, 30, false)
	low := swampFilter()
	low.Cost[grid.AreaSwamp] = 0.5
	many := make([]hpa.Class, hpa.MaxClasses+1)
	for _, tc := range []struct {
		name    string
		g       *grid.Grid
		classes []hpa.Class
		opt     hpa.Options
		want    string
	}{
		{"nil grid", nil, []hpa.Class{{}}, hpa.Options{}, "nil grid"},
		{"no classes", g, nil, hpa.Options{}, "0 classes"},
		{"too many", g, many, hpa.Options{}, "65 classes"},
		{"negative size", g, []hpa.Class{{}, {Size: -1}}, hpa.Options{}, "class 1: unit size -1"},
		{"size too large", g, []hpa.Class{{Size: grid.MaxClearance + 1}}, hpa.Options{}, "class 0: unit size 256"},
		{"cost below 1", g, []hpa.Class{{}, {Size: 2, Filter: low}}, hpa.Options{}, "class 1: grid: filter cost 0.5 for area 1"},
		{"bad options", g, []hpa.Class{{Size: 2}}, hpa.Options{ClusterSize: -1}, "cluster size"},
	} {
		_, err := hpa.BuildClasses(tc.g, tc.classes, tc.opt)
		if err == nil || !strings.HasPrefix(err.Error(), "hpa: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one starting hpa: and holding %q", tc.name, err, tc.want)
		}
	}
}

// cellStates returns each cell's terrain multiplier on g, row-major, or
// −1 for a blocked cell.
func cellStates(g *grid.Grid) []float64 {
	out := make([]float64, 0, g.Width()*g.Height())
	for y := range g.Height() {
		for x := range g.Width() {
			p := image.Pt(x, y)
			v := -1.0
			if g.Passable(p) {
				v = g.Cost(p)
			}
			out = append(out, v)
		}
	}
	return out
}
