package grid

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tests of reach.go. They are internal, like setcells_test.go, to reuse its
// random edits; the oracle below reads only the drawn cells, never a Grid.

// reachOracle answers the questions of reach.go by brute force on a w × h
// array of cells: regions by a breadth-first search over the moves of
// conn, numbered in the order of their first cell in row-major order, and
// nearest cells by a scan of every cell.
type reachOracle struct {
	w, h  int
	cells []bool
	label []int32       // per cell: its region, -1 when blocked
	size  []int         // per region
	first []image.Point // per region: its first cell in row-major order
	free  int
}

func newReachOracle(w, h int, cells []bool, conn Connectivity) *reachOracle {
	o := &reachOracle{w: w, h: h, cells: cells, label: make([]int32, w*h)}
	for i := range o.label {
		o.label[i] = -1
	}
	isFree := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && cells[y*w+x] }
	var queue []image.Point
	for i, c := range cells {
		if !c || o.label[i] >= 0 {
			continue
		}
		l := int32(len(o.size))
		p := image.Pt(i%w, i/w)
		o.first = append(o.first, p)
		o.label[i] = l
		n := 0
		queue = append(queue[:0], p)
		for len(queue) > 0 {
			q := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			n++
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					x, y := q.X+dx, q.Y+dy
					switch {
					case dx == 0 && dy == 0, !isFree(x, y), o.label[y*w+x] >= 0:
						continue
					case dx != 0 && dy != 0 && (conn == Four || !isFree(x, q.Y) || !isFree(q.X, y)):
						continue // no corner cutting
					}
					o.label[y*w+x] = l
					queue = append(queue, image.Pt(x, y))
				}
			}
		}
		o.size = append(o.size, n)
		o.free += n
	}
	return o
}

// at returns p's region, -1 when p is blocked or outside.
func (o *reachOracle) at(p image.Point) int32 {
	if p.X < 0 || p.Y < 0 || p.X >= o.w || p.Y >= o.h {
		return -1
	}
	return o.label[p.Y*o.w+p.X]
}

// largest returns the first cell of the largest region, of equal ones the
// one numbered first, and its size.
func (o *reachOracle) largest() (image.Point, int) {
	best := -1
	for l, n := range o.size {
		if best < 0 || n > o.size[best] {
			best = l
		}
	}
	if best < 0 {
		return image.Point{}, 0
	}
	return o.first[best], o.size[best]
}

// nearest returns the cell of region l (any free cell when l < 0) nearest
// to p, ties to the smallest y then x.
func (o *reachOracle) nearest(p image.Point, l int32) (image.Point, bool) {
	var best image.Point
	bd := int64(-1)
	for y := range o.h {
		for x := range o.w {
			if !o.cells[y*o.w+x] || l >= 0 && o.label[y*o.w+x] != l {
				continue
			}
			dx, dy := int64(x-p.X), int64(y-p.Y)
			if d := dx*dx + dy*dy; bd < 0 || d < bd { // row-major: ties keep the first
				best, bd = image.Pt(x, y), d
			}
		}
	}
	return best, bd >= 0
}

// point draws a query point: inside the grid, within 40 cells of it, or
// far away.
func (o *reachOracle) point(r *rand.Rand) image.Point {
	switch k := r.IntN(10); {
	case k < 5:
		return image.Pt(r.IntN(o.w), r.IntN(o.h))
	case k < 9:
		return image.Pt(r.IntN(o.w+80)-40, r.IntN(o.h+80)-40)
	}
	return image.Pt(r.IntN(2_000_001)-1_000_000, r.IntN(2_000_001)-1_000_000)
}

// freeCell draws a free cell, false when there is none.
func (o *reachOracle) freeCell(r *rand.Rand) (image.Point, bool) {
	if o.free == 0 {
		return image.Point{}, false
	}
	for {
		if p := image.Pt(r.IntN(o.w), r.IntN(o.h)); o.cells[p.Y*o.w+p.X] {
			return p, true
		}
	}
}

// around returns the cell of g nearest to p, for drawing a failure.
func around(g *Grid, p image.Point) image.Point {
	return image.Pt(min(max(p.X, 0), g.w-1), min(max(p.Y, 0), g.h-1))
}

// checkReach compares what reach.go answers on g with the oracle: every
// region size (and a ring of points outside), the largest region, and
// queries drawn with r.
func checkReach(g *Grid, o *reachOracle, r *rand.Rand) error {
	for y := -1; y <= o.h; y++ {
		for x := -1; x <= o.w; x++ {
			p, want := image.Pt(x, y), 0
			if l := o.at(p); l >= 0 {
				want = o.size[l]
			}
			if got := g.RegionSize(p); got != want {
				return fmt.Errorf("RegionSize(%v) = %d, want %d\n%s", p, got, want, renderAround(g, around(g, p), nil))
			}
		}
	}
	c, n := g.LargestRegion()
	if wc, wn := o.largest(); c != wc || n != wn {
		return fmt.Errorf("LargestRegion() = %v, %d\nwant %v, %d (of %d regions)", c, n, wc, wn, len(o.size))
	}
	for range 40 {
		p := o.point(r)
		got, ok := g.NearestFree(p)
		want, wok := o.nearest(p, -1)
		if got != want || ok != wok {
			return fmt.Errorf("NearestFree(%v) = %v, %v\nwant %v, %v\n%s", p, got, ok, want, wok, renderAround(g, around(g, want), nil))
		}
	}
	for k := range 40 {
		p, from := o.point(r), image.Pt(r.IntN(o.w), r.IntN(o.h)) // from may be blocked
		if f, ok := o.freeCell(r); ok && k%4 != 0 {
			from = f
		} else if k%8 == 0 {
			from = o.point(r) // maybe outside
		}
		got, ok := g.NearestReachable(p, from)
		var want image.Point
		wok := false
		if l := o.at(from); l >= 0 {
			want, wok = o.nearest(p, l)
		}
		if got != want || ok != wok {
			return fmt.Errorf("NearestReachable(%v, %v) = %v, %v\nwant %v, %v\n%s", p, from, got, ok, want, wok, renderAround(g, around(g, from), nil))
		}
	}
	for k := range 20 {
		from, ok := o.freeCell(r)
		if !ok || k%5 == 0 {
			from = o.point(r)
		}
		c, ok := g.RandomFree(r, from)
		if l := o.at(from); ok != (l >= 0) || ok && o.at(c) != l {
			return fmt.Errorf("RandomFree(from %v) = %v, %v\nwant a cell of region %d of the oracle (the cell's: %d)", from, c, ok, l, o.at(c))
		}
		c, ok = g.RandomCell(r)
		if ok != (o.free > 0) || ok && o.at(c) < 0 {
			return fmt.Errorf("RandomCell() = %v, %v\nwant a free cell (%d of them)", c, ok, o.free)
		}
	}
	return nil
}

// TestReachMatchesBruteForce checks region sizes, the largest region,
// nearest free and nearest reachable cells and random cells against the
// brute-force oracle on seeded random grids of several tiles, after each
// of a random sequence of edits in place, on copies made by WithCells (and
// on the grids they were copied from, which must not change), and on a
// grid blocked entirely then opened again.
func TestReachMatchesBruteForce(t *testing.T) {
	const edits = 25
	densities := []float64{0, 0.1, 0.2, 0.3, 0.45}
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for i := range seeds {
		seed := uint64(i + 1)
		for _, conn := range []Connectivity{Eight, Four} {
			t.Run(fmt.Sprintf("seed=%d/%v", seed, conn), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 0x4eac_4000+uint64(conn)))
				w, h := 150, 130
				if seed > 1 {
					w, h = 130+r.IntN(80), 130+r.IntN(80)
				}
				density := densities[seed%uint64(len(densities))]
				cells := make([]bool, w*h)
				for i := range cells {
					cells[i] = r.Float64() >= density
				}
				g, err := New(w, h, cells, Options{Connectivity: conn})
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("seed %d, %v, %d×%d, density %v", seed, conn, w, h, density)
				o := newReachOracle(w, h, cells, conn)
				if err := checkReach(g, o, r); err != nil {
					t.Fatalf("%s, as built: %v", where, err)
				}
				var prev editCase
				for e := range edits {
					ed := randomEdit(r, w, h, prev)
					prev = ed
					at := fmt.Sprintf("%s, edit %d (%v)", where, e, ed)
					before, old := o, g
					cells = append([]bool(nil), cells...) // the old oracle keeps its cells
					applyEdit(cells, w, h, ed)
					if e%5 == 4 {
						g = g.WithCells(ed.r, ed.free)
					} else {
						g.SetCells(ed.r, ed.free)
					}
					o = newReachOracle(w, h, cells, conn)
					if err := checkReach(g, o, r); err != nil {
						t.Fatalf("%s: %v", at, err)
					}
					if old != g {
						if err := checkReach(old, before, r); err != nil {
							t.Fatalf("%s, the grid copied by WithCells: %v", at, err)
						}
					}
				}
				for _, free := range []bool{false, true} {
					for i := range cells {
						cells[i] = free
					}
					g.SetCells(g.Bounds(), free)
					o = newReachOracle(w, h, cells, conn)
					if err := checkReach(g, o, r); err != nil {
						t.Fatalf("%s, every cell free=%v: %v", where, free, err)
					}
				}
			})
		}
	}
}

// TestNearest checks the nearest cells and their tie-breaks on small
// drawings: '#' is a wall, 'p' the query point on a free cell and 'P' on a
// blocked one (or the case gives p), and '*' the answer.
func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  []string
		p     image.Point // when there is no 'p' or 'P' in the drawing
		reach bool        // NearestReachable rather than NearestFree
		from  image.Point // for NearestReachable
		none  bool        // no answer
	}{
		{name: "free point is its own nearest", rows: []string{
			"....",
			".*..",
			"....",
		}, p: image.Pt(1, 1)},
		{name: "blocked point, equal distances in a row, smaller x", rows: []string{
			"#####",
			"#*P.#",
			"#####",
		}},
		{name: "blocked point, equal distances in a column, smaller y", rows: []string{
			"#*#",
			"#P#",
			"#.#",
		}},
		{name: "straight beats diagonal", rows: []string{
			".###",
			"#P*#",
			"####",
		}},
		{name: "diagonal beats two straight steps", rows: []string{
			"####",
			"#P##",
			"##*.",
			"#...",
		}},
		{name: "one ring, Euclidean: (3,1) at √10 beats (3,3) at √18", rows: []string{
			"P###",
			"###*",
			"####",
			"###.",
		}},
		{name: "a farther ring holds the nearest: (4,0) at 4 beats (3,3) at √18", rows: []string{
			"P###*",
			"#####",
			"#####",
			"###..",
		}},
		{name: "a tie in the next ring, smaller y: (0,-5) in ring 5 ties (4,3) in ring 4", rows: []string{
			"####*####",
			"#########",
			"#########",
			"#########",
			"#########",
			"####P####",
			"#########",
			"#########",
			"########.",
		}},
		{name: "outside, left", rows: []string{
			"##.",
			"*#.",
			"...",
		}, p: image.Pt(-3, 1)},
		{name: "outside, far right", rows: []string{
			"..#",
			"..*",
			"..#",
		}, p: image.Pt(math.MaxInt, 1)},
		{name: "outside, far up and left", rows: []string{
			"#*.",
			"...",
		}, p: image.Pt(math.MinInt, math.MinInt)},
		{name: "no free cell", rows: []string{
			"###",
			"#P#",
		}, none: true},
		{name: "reachable: the nearest cell is walled off, ties to smaller y", rows: []string{
			"...*..",
			".####.",
			".#.P#.",
			".####.",
		}, reach: true, from: image.Pt(0, 0)},
		{name: "reachable: from inside the walled-off room", rows: []string{
			"......",
			".####.",
			".#*P#.",
			".####.",
		}, reach: true, from: image.Pt(2, 2)},
		{name: "reachable: from blocked", rows: []string{
			"...",
			".P.",
		}, reach: true, from: image.Pt(1, 1), none: true},
		{name: "reachable: from outside", rows: []string{
			"...",
			".P.",
		}, reach: true, from: image.Pt(-1, 0), none: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, want := tc.p, image.Point{}
			rows := make([]string, len(tc.rows))
			for y, row := range tc.rows {
				if x := strings.IndexAny(row, "pP"); x >= 0 {
					p = image.Pt(x, y)
				}
				if x := strings.IndexByte(row, '*'); x >= 0 {
					want = image.Pt(x, y)
				}
				rows[y] = strings.NewReplacer("P", "#", "p", ".").Replace(row)
			}
			g, err := FromRows(rows, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got image.Point
			var ok bool
			if tc.reach {
				got, ok = g.NearestReachable(p, tc.from)
			} else {
				got, ok = g.NearestFree(p)
			}
			if got != want || ok == tc.none {
				t.Errorf("nearest to %v from %v: %v, %v\nwant %v, %v\n%s", p, tc.from, got, ok, want, !tc.none, strings.Join(tc.rows, "\n"))
			}
		})
	}
}

// TestRandomUniform draws many cells from a region that spans four tiles
// and holds several components of each, and from the whole grid, and
// checks that every cell is drawn and that the counts pass a chi-square
// bound: eight standard deviations above its mean, which a fair draw
// with this fixed seed passes, while one that favours some cells (the
// first of a component, say) fails it by far.
func TestRandomUniform(t *testing.T) {
	const seed, perCell = 7, 40
	r := rand.New(rand.NewPCG(seed, 0x6a11))
	// A random 60 × 60 patch across the tile corner at (64, 64), walls
	// elsewhere, and a few lone cells off it.
	w, h := 150, 130
	cells := make([]bool, w*h)
	for y := 34; y < 94; y++ {
		for x := 34; x < 94; x++ {
			cells[y*w+x] = r.Float64() >= 0.3
		}
	}
	for _, p := range []image.Point{{5, 5}, {140, 3}, {100, 120}} {
		cells[p.Y*w+p.X] = true
	}
	g, err := New(w, h, cells, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// An edit that splits some components and joins others.
	g.SetCells(image.Rect(60, 40, 68, 41), false)
	g.SetCells(image.Rect(40, 62, 90, 63), true)
	applyEdit(cells, w, h, editCase{r: image.Rect(60, 40, 68, 41)})
	applyEdit(cells, w, h, editCase{r: image.Rect(40, 62, 90, 63), free: true})
	o := newReachOracle(w, h, cells, Eight)
	from, n := o.largest()
	comps := map[int32]bool{}
	for i, l := range o.label {
		if l == o.label[from.Y*w+from.X] {
			comps[g.compID(i%w, i/w)] = true
		}
	}
	if len(comps) < 8 {
		t.Fatalf("seed %d: the largest region has %d components: the test checks too little", seed, len(comps))
	}
	for _, tc := range []struct {
		name string
		draw func() (image.Point, bool)
		n    int
		in   func(image.Point) bool
	}{
		{"RandomFree", func() (image.Point, bool) { return g.RandomFree(r, from) }, n,
			func(p image.Point) bool { return o.at(p) == o.at(from) }},
		{"RandomCell", func() (image.Point, bool) { return g.RandomCell(r) }, o.free,
			func(p image.Point) bool { return o.at(p) >= 0 }},
	} {
		count := map[image.Point]int{}
		for range tc.n * perCell {
			p, ok := tc.draw()
			if !ok || !tc.in(p) {
				t.Fatalf("seed %d, %s: drew %v, %v: want a cell of the %d", seed, tc.name, p, ok, tc.n)
			}
			count[p]++
		}
		if len(count) != tc.n {
			t.Errorf("seed %d, %s: drew %d different cells in %d draws, want all %d", seed, tc.name, len(count), tc.n*perCell, tc.n)
		}
		var chi2 float64
		for _, c := range count {
			d := float64(c - perCell)
			chi2 += d * d / perCell
		}
		chi2 += float64(tc.n-len(count)) * perCell // the cells never drawn
		dof := float64(tc.n - 1)
		if bound := dof + 8*math.Sqrt(2*dof); chi2 > bound {
			t.Errorf("seed %d, %s: chi-square %.0f over %d cells, want at most %.0f (mean %.0f)", seed, tc.name, chi2, tc.n, bound, dof)
		}
	}
}

// TestReachAllocs checks that the queries of reach.go allocate nothing, on
// a grid edited in place.
func TestReachAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	g := randomGrid(t, r, 150, 130, 0.25)
	for e := range 12 {
		x, y := 10+r.IntN(130), 10+r.IntN(110)
		g.SetCells(image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(12)), e%2 == 1)
	}
	from, _ := g.LargestRegion()
	pts := []image.Point{{75, 64}, {-20, 200}, {0, 0}, {149, 129}, {64, 63}, {1000, -1000}}
	for _, tc := range []struct {
		name string
		f    func(p image.Point)
	}{
		{"RegionSize", func(p image.Point) { g.RegionSize(p) }},
		{"LargestRegion", func(image.Point) { g.LargestRegion() }},
		{"NearestFree", func(p image.Point) { g.NearestFree(p) }},
		{"NearestReachable", func(p image.Point) { g.NearestReachable(p, from) }},
		{"RandomFree", func(image.Point) { g.RandomFree(r, from) }},
		{"RandomCell", func(image.Point) { g.RandomCell(r) }},
	} {
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			tc.f(pts[i%len(pts)])
			i++
		})
		if allocs != 0 {
			t.Errorf("%s after %d edits: got %v allocations per call\nwant 0", tc.name, g.Version(), allocs)
		}
	}
}

// TestLargestRegion draws regions into a blocked grid of three by two
// tiles and checks the largest region after each edit, ties included:
// region X starts in tile (1,0) at row 30 and reaches into tile (0,0) at
// row 40, below the start of region Y in that tile, so X's first cell
// comes first in row-major order though Y is labelled first.
func TestLargestRegion(t *testing.T) {
	g, err := New(130, 70, make([]bool, 130*70), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range []struct {
		name string
		r    image.Rectangle
		free bool
		cell image.Point
		size int
	}{
		{"nothing free", image.Rect(0, 0, 130, 70), false, image.Point{}, 0},
		{"Y, a row of 22", image.Rect(10, 35, 32, 36), true, image.Pt(10, 35), 22},
		{"X, a row of 6 in tile (1,0)", image.Rect(64, 30, 70, 31), true, image.Pt(10, 35), 22},
		{"X, a column down", image.Rect(64, 31, 65, 41), true, image.Pt(10, 35), 22},
		{"X, a row of 6 into tile (0,0): 22 cells, a tie", image.Rect(58, 40, 64, 41), true, image.Pt(64, 30), 22},
		{"Y grows", image.Rect(32, 35, 33, 36), true, image.Pt(10, 35), 23},
		{"Y loses its first cell: a tie again", image.Rect(10, 35, 11, 36), false, image.Pt(64, 30), 22},
		{"X cut in two", image.Rect(64, 35, 65, 36), false, image.Pt(11, 35), 22},
		{"a lone cell above all", image.Rect(129, 0, 130, 1), true, image.Pt(11, 35), 22},
	} {
		g.SetCells(st.r, st.free)
		if c, n := g.LargestRegion(); c != st.cell || n != st.size {
			t.Errorf("step %d (%s): LargestRegion() = %v, %d\nwant %v, %d", i, st.name, c, n, st.cell, st.size)
		}
	}
}
