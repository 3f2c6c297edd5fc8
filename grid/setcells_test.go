package grid

import (
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cairn-nav/cairn/core"
)

// Tests of SetCells, the in-place edit. They are internal so that they can
// compare every structure an edit keeps up to date (move masks, bitsets,
// region labels, the jump table) with a grid built afresh. They cannot
// import internal/testmap (it imports grid: an import cycle), so the file
// has its own path check and builds its gonum Dijkstra oracle from the
// drawn cells alone, without asking the grid which moves are legal.

// editCase is one edit of a random sequence.
type editCase struct {
	r    image.Rectangle
	free bool
	kind string
}

func (e editCase) String() string { return fmt.Sprintf("%s %v free=%v", e.kind, e.r, e.free) }

// randomEdit draws an edit of a w × h grid: small rectangles anywhere,
// rectangles across a tile border, partly outside the grid, huge ones, and
// edits that change nothing (prev again, or no cell of the grid).
func randomEdit(r *rand.Rand, w, h int, prev editCase) editCase {
	free := r.IntN(2) == 0
	side := func() int { return 1 + r.IntN(20) }
	// across returns a start and a length of 2 to 20 whose span holds a
	// multiple of tileSide inside (0, n).
	across := func(n int) (int, int) {
		b := tileSide * (1 + r.IntN((n-1)/tileSide))
		s := 2 + r.IntN(19)
		return b - 1 - r.IntN(s-1), s
	}
	switch k := r.IntN(20); {
	case k < 7:
		sx, sy := side(), side()
		x, y := r.IntN(w)-r.IntN(sx/2+1), r.IntN(h)-r.IntN(sy/2+1)
		return editCase{image.Rect(x, y, x+sx, y+sy), free, "small"}
	case k < 12:
		x, sx := across(w)
		y, sy := across(h)
		switch r.IntN(3) {
		case 0:
			y = r.IntN(h - sy + 1)
		case 1:
			x = r.IntN(w - sx + 1)
		}
		return editCase{image.Rect(x, y, x+sx, y+sy), free, "tile border"}
	case k < 15:
		sx, sy := 2+r.IntN(19), 2+r.IntN(19)
		x, y := r.IntN(w-sx), r.IntN(h-sy)
		switch r.IntN(4) {
		case 0:
			x = -1 - r.IntN(sx-1)
		case 1:
			x = w - 1 - r.IntN(sx-1)
		case 2:
			y = -1 - r.IntN(sy-1)
		default:
			y = h - 1 - r.IntN(sy-1)
		}
		return editCase{image.Rect(x, y, x+sx, y+sy), free, "partly outside"}
	case k < 17:
		sx, sy := w/3+r.IntN(w), h/3+r.IntN(h)
		x, y := r.IntN(w)-sx/2, r.IntN(h)-sy/2
		return editCase{image.Rect(x, y, x+sx, y+sy), free, "huge"}
	}
	switch r.IntN(3) {
	case 0:
		if !prev.r.Empty() {
			return editCase{prev.r, prev.free, "no-op (again)"}
		}
		fallthrough
	case 1:
		x, y := w+r.IntN(5), r.IntN(h)
		return editCase{image.Rect(x, y, x+side(), y+side()), free, "no-op (outside)"}
	}
	x, y := r.IntN(w), r.IntN(h)
	return editCase{image.Rect(x, y, x, y+side()), free, "no-op (empty)"}
}

// applyEdit makes the cells of e.r in cells free or blocked, as SetCells
// does, and reports whether one changed.
func applyEdit(cells []bool, w, h int, e editCase) bool {
	r := e.r.Intersect(image.Rect(0, 0, w, h))
	changed := false
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if cells[y*w+x] != e.free {
				cells[y*w+x] = e.free
				changed = true
			}
		}
	}
	return changed
}

// fullJumps is a grid with f's cells and the jump table and diagonal stops
// built from scratch, also where f would keep none because its runs are
// short.
func fullJumps(f *Grid) *Grid {
	t := &Grid{w: f.w, h: f.h, pw: f.pw, free: f.free, moves: f.moves, conn: f.conn, off: f.off}
	t.jumps = make(jumpTable, len(f.free))
	t.jumpRows(1, len(f.free)/f.pw-1)
	t.jumpCols(1, f.pw-1)
	t.buildDiag()
	return t
}

// diffFresh compares what SetCells keeps up to date in g with a grid f
// built by New from the same cells, and returns the first difference. The
// jump table is compared when g has one; tables reports whether it was.
func diffFresh(g, f *Grid) (tables bool, err error) {
	for i := range f.free {
		if g.free[i] != f.free[i] {
			return false, fmt.Errorf("cell %v: free %v, want %v", g.pxy(int32(i)), g.free[i], f.free[i])
		}
	}
	for i := range f.moves {
		if g.moves[i] != f.moves[i] {
			return false, fmt.Errorf("cell %v: move mask %08b, want %08b", g.pxy(int32(i)), g.moves[i], f.moves[i])
		}
	}
	if g.bits.rw != f.bits.rw || g.bits.cw != f.bits.cw {
		return false, fmt.Errorf("bitsets of %d and %d words a row and column, want %d and %d", g.bits.rw, g.bits.cw, f.bits.rw, f.bits.cw)
	}
	for i := range f.bits.rows {
		if g.bits.rows[i] != f.bits.rows[i] {
			return false, fmt.Errorf("row bitset, padded row %d word %d: %#x, want %#x", i/f.bits.rw, i%f.bits.rw, g.bits.rows[i], f.bits.rows[i])
		}
	}
	for i := range f.bits.cols {
		if g.bits.cols[i] != f.bits.cols[i] {
			return false, fmt.Errorf("column bitset, padded column %d word %d: %#x, want %#x", i/f.bits.cw, i%f.bits.cw, g.bits.cols[i], f.bits.cols[i])
		}
	}
	if err := samePartition(g, f); err != nil {
		return false, err
	}
	if !g.jumpsBuilt.Load() || g.jumps == nil {
		return false, nil
	}
	full := fullJumps(f)
	want := full.jumps
	if len(g.jumps) != len(want) {
		return true, fmt.Errorf("jump table of %d cells, want %d", len(g.jumps), len(want))
	}
	for i := range want {
		if g.jumps[i] != want[i] {
			return true, fmt.Errorf("jump table at cell %v (free %v): %v, want %v", g.pxy(int32(i)), f.free[i], g.jumps[i], want[i])
		}
	}
	for k := range full.diag.slope {
		if i := firstDiff(g.diag.slope[k], full.diag.slope[k]); i >= 0 {
			return true, fmt.Errorf("diagonal stops of slope %d, word %d of %d: %#x, want %#x", k, i, len(g.diag.slope[k]), g.diag.slope[k][i], full.diag.slope[k][i])
		}
	}
	return true, nil
}

// firstDiff returns the first index at which a and b differ, or −1 when
// they are equal (a shorter one differs at its end).
func firstDiff(a, b []uint64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// samePartition checks that g and f split the free cells into the same
// regions, whatever their labels: as many of them, labels in
// [0, NumRegions) all used, and two cells share a label in g exactly when
// they do in f.
func samePartition(g, f *Grid) error {
	n := g.NumRegions()
	if n != f.NumRegions() {
		return fmt.Errorf("%d regions, want %d", n, f.NumRegions())
	}
	toF, toG := make([]int32, n), make([]int32, n)
	first := make([]image.Point, n) // a cell of each label of g
	for i := range toF {
		toF[i], toG[i] = -1, -1
	}
	for y := range g.h {
		for x := range g.w {
			p := image.Pt(x, y)
			a, b := g.Region(p), f.Region(p)
			switch {
			case (a < 0) != (b < 0):
				return fmt.Errorf("cell %v: region %d, want %d (free %v)", p, a, b, f.Passable(p))
			case a < 0:
				continue
			case int(a) >= n:
				return fmt.Errorf("cell %v: region %d, outside [0, %d)", p, a, n)
			case toF[a] < 0 && toG[b] >= 0:
				return fmt.Errorf("cells %v and %v: regions %d and %d, want one (%d)", first[toG[b]], p, toG[b], a, b)
			case toF[a] < 0:
				toF[a], toG[b], first[a] = b, a, p
			case toF[a] != b:
				return fmt.Errorf("cells %v and %v: both region %d, want two (%d and %d)", first[a], p, a, toF[a], b)
			}
		}
	}
	for a, b := range toF {
		if b < 0 {
			return fmt.Errorf("region %d of %d labels no cell", a, n)
		}
	}
	return nil
}

// checkRoute checks that path runs from from to to by legal moves of g and
// returns its cost.
func checkRoute(g *Grid, path []image.Point, from, to image.Point) (float64, error) {
	switch {
	case len(path) == 0:
		return 0, errors.New("empty path")
	case path[0] != from || path[len(path)-1] != to:
		return 0, fmt.Errorf("path from %v to %v, want %v to %v", path[0], path[len(path)-1], from, to)
	}
	return g.PathCost(path)
}

// cellOracle answers shortest-path costs with gonum's Dijkstra on the graph
// of drawn cells: free cells, a straight move between free neighbours, and
// on 8-connected grids a diagonal one when both cells it passes are free.
// It never asks a Grid.
type cellOracle struct {
	w     int
	graph *simple.WeightedUndirectedGraph
	trees map[image.Point]path.Shortest
}

func newCellOracle(w, h int, cells []bool, conn Connectivity) *cellOracle {
	o := &cellOracle{w: w, graph: simple.NewWeightedUndirectedGraph(0, math.Inf(1)), trees: map[image.Point]path.Shortest{}}
	free := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && cells[y*w+x] }
	for y := range h {
		for x := range w {
			if !free(x, y) {
				continue
			}
			if o.graph.Node(int64(y*w+x)) == nil {
				o.graph.AddNode(simple.Node(y*w + x))
			}
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
				bx, by := x+d[0], y+d[1]
				c := 1.0
				if d[0] != 0 && d[1] != 0 {
					if conn == Four || !free(bx, y) || !free(x, by) {
						continue
					}
					c = math.Sqrt2
				}
				if free(bx, by) {
					o.graph.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(y*w + x), T: simple.Node(by*w + bx), W: c})
				}
			}
		}
	}
	return o
}

// dist returns the cost of a shortest path from a free cell to another, and
// whether there is one.
func (o *cellOracle) dist(from, to image.Point) (float64, bool) {
	t, ok := o.trees[from]
	if !ok {
		t = path.DijkstraFrom(simple.Node(from.Y*o.w+from.X), o.graph)
		o.trees[from] = t
	}
	d := t.WeightTo(int64(to.Y*o.w + to.X))
	return d, !math.IsInf(d, 1)
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// renderAround draws the cells of g within 30 columns and 12 rows of c,
// '*' on path and 'X' at c, for failure messages.
func renderAround(g *Grid, c image.Point, path []image.Point) string {
	win := image.Rect(c.X-30, c.Y-12, c.X+31, c.Y+13).Intersect(g.Bounds())
	on := map[image.Point]bool{}
	for _, p := range path {
		on[p] = true
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "cells %v:\n", win)
	for y := win.Min.Y; y < win.Max.Y; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			p, ch := image.Pt(x, y), byte('#')
			switch {
			case p == c:
				ch = 'X'
			case on[p]:
				ch = '*'
			case g.Passable(p):
				ch = '.'
			}
			sb.WriteByte(ch)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// firstCell returns the cell of an error from diffFresh, or c.
func firstCell(err error, c image.Point) image.Point {
	var x, y int
	if s := err.Error(); strings.IndexByte(s, '(') >= 0 {
		if _, e := fmt.Sscanf(s[strings.IndexByte(s, '('):], "(%d,%d)", &x, &y); e == nil {
			return image.Pt(x, y)
		}
	}
	return c
}

// TestSetCellsMatchesFresh applies random sequences of edits to random
// grids in place and after each compares the grid with one built afresh
// from the edited cells: cells, move masks, bitsets, the region partition,
// the jump table and the results of searches (with a gonum oracle every
// ten edits), and checks Version counts the edits that changed a cell.
// The jump table is built before the edits (seed%3 = 0), by the first
// search after the first edit (1), or half-way through (2, searches until
// then scan).
func TestSetCellsMatchesFresh(t *testing.T) {
	const edits, pairs = 30, 50
	densities := []float64{0, 0.1, 0.2, 0.3, 0.42}
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	var tables, noops, oracles int
	for i := range seeds {
		seed := uint64(i + 1)
		for _, conn := range []Connectivity{Eight, Four} {
			t.Run(fmt.Sprintf("seed=%d/%v", seed, conn), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 0x5e7c_e115+uint64(conn)))
				w, h := 70+r.IntN(231), 70+r.IntN(231)
				if w%tileSide == 0 {
					w++
				}
				if h%tileSide == 0 {
					h++
				}
				density := densities[seed%uint64(len(densities))]
				mode := seed % 3
				cells := make([]bool, w*h)
				for i := range cells {
					cells[i] = r.Float64() >= density
				}
				opt := Options{Connectivity: conn}
				g, err := New(w, h, cells, opt)
				if err != nil {
					t.Fatal(err)
				}
				if mode == 0 {
					g.BuildJumps()
				}
				where := fmt.Sprintf("seed %d, %v, %d×%d, density %v", seed, conn, w, h, density)
				sg := NewSearcher(g) // made before the edits: it must stay valid
				var prev editCase
				var pg, pf []image.Point
				for e := range edits {
					if mode == 2 && e == edits/2 {
						if g.jumpsBuilt.Load() {
							t.Fatalf("%s: the jump table was built before any jump search", where)
						}
						g.BuildJumps()
					}
					ed := randomEdit(r, w, h, prev)
					prev = ed
					at := fmt.Sprintf("%s, edit %d (%v)", where, e, ed)
					built, kept := g.jumpsBuilt.Load(), g.jumps != nil
					version := g.Version()
					changed := applyEdit(cells, w, h, ed)
					if changed {
						version++
					} else {
						noops++
					}
					g.SetCells(ed.r, ed.free)
					if got := g.Version(); got != version {
						t.Fatalf("%s: version %d after an edit (changing a cell: %v), want %d", at, got, changed, version)
					}
					if g.jumpsBuilt.Load() != built || (built && (g.jumps != nil) != kept) {
						t.Fatalf("%s: jump table built %v kept %v before the edit, %v %v after", at, built, kept, g.jumpsBuilt.Load(), g.jumps != nil)
					}
					f, err := New(w, h, cells, opt)
					if err != nil {
						t.Fatal(err)
					}
					tab, err := diffFresh(g, f)
					if err != nil {
						t.Fatalf("%s: %v\n%s", at, err, renderAround(f, firstCell(err, ed.r.Min), nil))
					}
					if tab {
						tables++
					}

					var free []image.Point
					for i, c := range cells {
						if c {
							free = append(free, image.Pt(i%w, i/w))
						}
					}
					if len(free) == 0 {
						continue
					}
					queries := []Query{{}, {Scan: true}, {Plain: true}}
					if conn == Four {
						queries = queries[:1] // all three are the same plain A*
					} else if mode == 2 && e < edits/2 {
						queries = queries[1:] // no jump table yet
					}
					sf := NewSearcher(f)
					var o *cellOracle
					if e%10 == 9 {
						o = newCellOracle(w, h, cells, conn)
						oracles++
					}
					var from0 image.Point // the oracle's paths start here
					for k := range pairs {
						from, to := free[r.IntN(len(free))], free[r.IntN(len(free))]
						if k == 0 {
							from0 = from
						} else if o != nil && k < 5 {
							from = from0
						}
						var want Result
						pf, want, err = sf.AppendPath(pf[:0], from, to, Query{})
						if err != nil {
							t.Fatalf("%s: %v→%v on the fresh grid: %v", at, from, to, err)
						}
						if o != nil && k < 5 {
							d, ok := o.dist(from, to)
							if ok != (want.Status == core.Found) || (ok && !closeTo(want.Cost, d)) {
								t.Fatalf("%s: %v→%v on the fresh grid: %v cost %v\nwant reachable %v cost %v (oracle)", at, from, to, want.Status, want.Cost, ok, d)
							}
						}
						for _, q := range queries {
							var res Result
							pg, res, err = sg.AppendPath(pg[:0], from, to, q)
							qat := fmt.Sprintf("%s: %v→%v %+v", at, from, to, q)
							switch {
							case err != nil:
								t.Fatalf("%s: %v", qat, err)
							case res.Status != want.Status || res.Cost != want.Cost:
								t.Fatalf("%s: %v cost %v\nwant %v cost %v (fresh grid)\n%s", qat, res.Status, res.Cost, want.Status, want.Cost, renderAround(f, from, pg))
							case res.Status != core.Found:
								if len(pg) != 0 {
									t.Fatalf("%s: %v with a path of %d cells", qat, res.Status, len(pg))
								}
								continue
							}
							if c, err := checkRoute(g, pg, from, to); err != nil || c != res.Cost {
								t.Fatalf("%s: path of cost %v, reported %v: %v\n%s", qat, c, res.Cost, err, renderAround(f, from, pg))
							}
							// Jump point search with the table or the scans
							// takes the same steps on the same cells.
							if !q.Plain && (res != want || !slices.Equal(pg, pf)) {
								t.Fatalf("%s: %+v (%d cells)\nwant %+v (%d cells) as on the fresh grid\n%s", qat, res, len(pg), want, len(pf), renderAround(f, from, pg))
							}
						}
					}
				}
			})
		}
	}
	if !t.Failed() && (tables < 10*seeds || noops < 2*seeds || oracles < 6*seeds) {
		t.Errorf("%d jump table comparisons, %d edits that changed nothing, %d oracle checks: the test checks too little", tables, noops, oracles)
	}
}

// sketch turns a drawing into the cells of New, each character a k × k
// block: '#' blocked, anything else free.
func sketch(rows []string, k int) (w, h int, cells []bool) {
	w, h = len(rows[0])*k, len(rows)*k
	cells = make([]bool, w*h)
	for y := range h {
		for x := range w {
			cells[y*w+x] = rows[y/k][x/k] != '#'
		}
	}
	return w, h, cells
}

// TestSetCellsSplitAndMerge cuts regions with walls and opens them again on
// drawings scaled ×16, so that the cuts cross the tile borders at
// multiples of 64: a wall across a corridor splits its region, two walls
// meeting only at a corner (no corner cutting) split it too, and a ring
// stays one region until it is cut twice.
func TestSetCellsSplitAndMerge(t *testing.T) {
	const k = 16
	type step struct {
		name    string
		r       image.Rectangle
		free    bool
		regions int
		joined  bool // a and b connected
	}
	for _, tc := range []struct {
		name  string
		rows  []string
		a, b  image.Point
		steps []step
	}{{
		name: "corridor",
		rows: []string{
			"#########",
			"#########",
			"#########",
			"#.......#",
			"#.......#",
			"#########",
			"#..######",
		},
		a: image.Pt(20, 56), b: image.Pt(120, 70),
		steps: []step{
			{"wall across", image.Rect(62, 48, 66, 80), false, 3, false},
			{"wall opened", image.Rect(62, 48, 66, 80), true, 2, true},
			{"upper half of a staggered wall", image.Rect(63, 48, 64, 64), false, 2, true},
			{"lower half, meeting the upper at a corner", image.Rect(64, 64, 65, 80), false, 3, false},
			{"upper half opened", image.Rect(63, 48, 64, 64), true, 2, true},
			{"lower half opened", image.Rect(64, 64, 65, 80), true, 2, true},
		},
	}, {
		name: "ring",
		rows: []string{
			"#########",
			"#.......#",
			"#.#####.#",
			"#.#.###.#",
			"#.#####.#",
			"#.......#",
			"#########",
		},
		a: image.Pt(120, 40), b: image.Pt(120, 88),
		steps: []step{
			{"cut across the east side", image.Rect(110, 62, 130, 66), false, 2, true},
			{"cut across the north side", image.Rect(62, 10, 66, 40), false, 3, false},
			{"east side opened", image.Rect(112, 62, 128, 66), true, 2, true},
			{"north side opened", image.Rect(62, 16, 66, 32), true, 2, true},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			w, h, cells := sketch(tc.rows, k)
			g, err := New(w, h, cells, Options{})
			if err != nil {
				t.Fatal(err)
			}
			g.BuildJumps()
			drawing := strings.Join(tc.rows, "\n")
			s := NewSearcher(g)
			_, before, _ := s.AppendPath(nil, tc.a, tc.b, Query{})
			for i, st := range tc.steps {
				at := fmt.Sprintf("%s, step %d (%s, %v free=%v)", tc.name, i, st.name, st.r, st.free)
				v := g.Version()
				if !applyEdit(cells, w, h, editCase{st.r, st.free, st.name}) {
					t.Fatalf("%s: the edit changes nothing", at)
				}
				g.SetCells(st.r, st.free)
				if g.Version() != v+1 {
					t.Errorf("%s: version %d, want %d", at, g.Version(), v+1)
				}
				if n, j := g.NumRegions(), g.Connected(tc.a, tc.b); n != st.regions || j != st.joined {
					t.Fatalf("%s: %d regions, Connected(%v, %v) %v\nwant %d regions, connected %v\ndrawing (×%d):\n%s", at, n, tc.a, tc.b, j, st.regions, st.joined, k, drawing)
				}
				f, err := New(w, h, cells, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := diffFresh(g, f); err != nil {
					t.Fatalf("%s: %v\n%s", at, err, renderAround(f, firstCell(err, st.r.Min), nil))
				}
				p, res, err := s.AppendPath(nil, tc.a, tc.b, Query{})
				d, ok := newCellOracle(w, h, cells, Eight).dist(tc.a, tc.b)
				if err != nil || (res.Status == core.Found) != ok || (ok && !closeTo(res.Cost, d)) {
					t.Fatalf("%s: %v→%v %v cost %v, %v\nwant reachable %v cost %v (oracle)", at, tc.a, tc.b, res.Status, res.Cost, err, ok, d)
				}
				if ok {
					if c, err := checkRoute(g, p, tc.a, tc.b); err != nil || c != res.Cost {
						t.Fatalf("%s: path cost %v, reported %v: %v", at, c, res.Cost, err)
					}
				}
				if tc.name == "ring" && i == 0 && !(res.Cost > before.Cost+20) {
					t.Errorf("%s: cost %v after the cut, %v before: want the long way round", at, res.Cost, before.Cost)
				}
			}
			if _, res, _ := s.AppendPath(nil, tc.a, tc.b, Query{}); res.Cost != before.Cost {
				t.Errorf("%s: cost %v once everything is open again, want %v as before", tc.name, res.Cost, before.Cost)
			}
		})
	}
}

// TestSetCellsSliced edits the grid while Sliced queries are under way: a
// query whose best path is blocked must end with a path legal and optimal
// on the edited grid, and one whose start or goal is blocked, or walled off,
// as unreachable.
func TestSetCellsSliced(t *testing.T) {
	// ×10: the wall runs down x = 60..69, across the tile border at 64;
	// the short way from S to G goes under it.
	rows := []string{
		"...............",
		"......#........",
		"......#........",
		"......#........",
		"......#........",
		"......#........",
		"......#........",
		"...............",
		"...............",
		"...............",
	}
	from, to := image.Pt(20, 60), image.Pt(130, 60)
	underWall := image.Rect(60, 60, 70, 100) // blocks the way under the wall
	type edit struct {
		after int // Step calls before the edit
		r     image.Rectangle
		free  bool
	}
	for _, tc := range []struct {
		name    string
		q       Query
		edits   []edit
		want    core.Status
		detours bool // the edit blocks the best path found before
	}{
		{"detour", Query{}, []edit{{2, underWall, false}}, core.Found, true},
		{"detour/scan", Query{Scan: true}, []edit{{2, underWall, false}}, core.Found, true},
		{"detour/plain", Query{Plain: true}, []edit{{40, underWall, false}}, core.Found, true},
		{"detour before the first step", Query{Plain: true}, []edit{{0, underWall, false}}, core.Found, true},
		{"detour undone", Query{Plain: true}, []edit{{20, underWall, false}, {60, underWall, true}}, core.Found, false},
		{"goal blocked", Query{}, []edit{{1, image.Rectangle{to, to.Add(image.Pt(1, 1))}, false}}, core.Unreachable, false},
		{"start blocked", Query{Plain: true}, []edit{{30, image.Rectangle{from, from.Add(image.Pt(1, 1))}, false}}, core.Unreachable, false},
		{"goal walled off", Query{Plain: true}, []edit{{30, image.Rect(100, -5, 102, 105), false}}, core.Unreachable, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h, cells := sketch(rows, 10)
			g, err := New(w, h, cells, Options{})
			if err != nil {
				t.Fatal(err)
			}
			best, _, _ := NewSearcher(g).AppendPath(nil, from, to, Query{})
			sl := NewSliced(g)
			if err := sl.Begin(from, to, tc.q); err != nil {
				t.Fatal(err)
			}
			var st core.Status
			steps, next := 0, 0
			for ; ; steps++ {
				for next < len(tc.edits) && tc.edits[next].after == steps {
					e := tc.edits[next]
					applyEdit(cells, w, h, editCase{e.r, e.free, ""})
					g.SetCells(e.r, e.free)
					next++
				}
				if st = sl.Step(1); st != core.InProgress || steps > 1e6 {
					break
				}
			}
			if next < len(tc.edits) {
				t.Fatalf("%s: the query ended (%v) after %d steps, before edit %d: the test checks nothing", tc.name, st, steps, next)
			}
			p, res := sl.AppendPath(nil)
			if st != tc.want || res.Status != tc.want {
				t.Fatalf("%s: Step %v, result %v\nwant %v", tc.name, st, res.Status, tc.want)
			}
			if tc.want != core.Found {
				if len(p) != 0 {
					t.Errorf("%s: %v with a path of %d cells", tc.name, tc.want, len(p))
				}
				return
			}
			if _, err := checkRoute(g, best, from, to); tc.detours == (err == nil) {
				t.Fatalf("%s: the best path before the edits is legal after them: %v, want %v", tc.name, err == nil, !tc.detours)
			}
			c, err := checkRoute(g, p, from, to)
			d, _ := newCellOracle(w, h, cells, Eight).dist(from, to)
			if err != nil || c != res.Cost || !closeTo(c, d) {
				t.Fatalf("%s: path of cost %v, reported %v: %v\nwant cost %v (oracle)\n%s", tc.name, c, res.Cost, err, d, renderAround(g, image.Pt(75, 50), p))
			}
		})
	}
}

// TestSetCellsConcurrent toggles a wall of one grid while two goroutines
// query it: under the read lock a goroutine sees the wall all there or not
// at all, and every path it gets is legal and optimal on the grid with the
// wall or on the one without. Run it with -race.
func TestSetCellsConcurrent(t *testing.T) {
	const w, h = 130, 80
	r := rand.New(rand.NewPCG(31, 31))
	wall := image.Rect(63, 20, 65, 74) // across the tile borders x = 64 and y = 64
	cellsA := make([]bool, w*h)
	for i := range cellsA {
		cellsA[i] = r.Float64() >= 0.12 || image.Pt(i%w, i/w).In(wall)
	}
	cellsB := slices.Clone(cellsA)
	applyEdit(cellsB, w, h, editCase{wall, false, "wall"})
	a, errA := New(w, h, cellsA, Options{})
	b, errB := New(w, h, cellsB, Options{})
	g, errG := New(w, h, cellsA, Options{})
	if err := errors.Join(errA, errB, errG); err != nil {
		t.Fatal(err)
	}
	g.BuildJumps()
	if g.jumps == nil {
		t.Fatal("the grid keeps no jump table: the test edits none")
	}
	// Pairs across the wall whose optimum it lengthens.
	type pair struct {
		from, to     image.Point
		costA, costB float64
	}
	var pairs []pair
	sa, sb := NewSearcher(a), NewSearcher(b)
	for len(pairs) < 20 {
		p := pair{from: image.Pt(r.IntN(40), r.IntN(h)), to: image.Pt(w-40+r.IntN(40), r.IntN(h))}
		if !b.Connected(p.from, p.to) {
			continue
		}
		_, ra, _ := sa.AppendPath(nil, p.from, p.to, Query{Plain: true})
		_, rb, _ := sb.AppendPath(nil, p.from, p.to, Query{Plain: true})
		if p.costA, p.costB = ra.Cost, rb.Cost; p.costB > p.costA {
			pairs = append(pairs, p)
		}
	}
	na, nb := a.NumRegions(), b.NumRegions()

	stop := make(chan struct{})
	toggled := make(chan int)
	go func() {
		n := 0
		defer func() { toggled <- n }()
		for ; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			g.SetCells(wall, n%2 == 1) // B first, then A again
			runtime.Gosched()
		}
	}()
	// Each goroutine yields after a query, so that the edits come between
	// the queries even on one core.
	const queriesEach = 64
	var wg sync.WaitGroup
	errs := make(chan string, 2)
	seen := make([][2]int, 2) // per goroutine: the answers optimal on A, on B
	for id := range 2 {
		wg.Go(func() {
			s := NewSearcher(g)
			var p []image.Point
			queries := []Query{{}, {Scan: true}, {Plain: true}}
			for k := range queriesEach {
				g.RLock()
				open := 0
				for y := wall.Min.Y; y < wall.Max.Y; y++ {
					for x := wall.Min.X; x < wall.Max.X; x++ {
						if g.Passable(image.Pt(x, y)) {
							open++
						}
					}
				}
				n := g.NumRegions()
				g.RUnlock()
				if all := wall.Dx() * wall.Dy(); (open != 0 && open != all) || (open == all && n != na) || (open == 0 && n != nb) {
					errs <- fmt.Sprintf("goroutine %d: under the read lock %d of %d wall cells free and %d regions, want all free and %d or none and %d", id, open, all, n, na, nb)
					return
				}
				pr, q := pairs[(k*7+id)%len(pairs)], queries[k%len(queries)]
				var res Result
				var err error
				p, res, err = s.AppendPath(p[:0], pr.from, pr.to, q)
				ca, ea := checkRoute(a, p, pr.from, pr.to)
				cb, eb := checkRoute(b, p, pr.from, pr.to)
				onA := err == nil && res.Status == core.Found && ea == nil && ca == res.Cost && res.Cost == pr.costA
				onB := err == nil && res.Status == core.Found && eb == nil && cb == res.Cost && res.Cost == pr.costB
				switch {
				case !onA && !onB:
					errs <- fmt.Sprintf("goroutine %d: %v→%v %+v: %v cost %v (%v), path legal on A %v, on B %v\nwant cost %v on A or %v on B",
						id, pr.from, pr.to, q, res.Status, res.Cost, err, ea == nil, eb == nil, pr.costA, pr.costB)
					return
				case onA:
					seen[id][0]++
				default:
					seen[id][1]++
				}
				runtime.Gosched()
			}
		})
	}
	wg.Wait()
	close(stop)
	n := <-toggled
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if g.Version() != uint64(n) {
		t.Errorf("version %d after %d edits", g.Version(), n)
	}
	want := a
	if n%2 == 1 {
		want = b
	}
	if _, err := diffFresh(g, want); err != nil {
		t.Errorf("after %d edits: %v", n, err)
	}
	for id, s := range seen {
		if n < 20 || s[0] == 0 || s[1] == 0 {
			t.Errorf("goroutine %d saw %d answers of A and %d of B over %d edits: the test checks too little", id, s[0], s[1], n)
		}
	}
	t.Logf("%d edits; answers of A and B per goroutine: %v", n, seen)
}

// TestSetCellsAllocs checks that a query on a grid edited in place
// allocates nothing once the searcher's buffers have grown.
func TestSetCellsAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	g := randomGrid(t, r, 150, 110, 0.1)
	g.BuildJumps()
	s := NewSearcher(g)
	var pairs [][2]image.Point
	for len(pairs) < 20 {
		a, b := image.Pt(r.IntN(150), r.IntN(110)), image.Pt(r.IntN(150), r.IntN(110))
		if g.Connected(a, b) {
			pairs = append(pairs, [2]image.Point{a, b})
		}
	}
	queries := []Query{{}, {Scan: true}, {Plain: true}}
	var dst []image.Point
	warm := func() {
		for _, q := range queries {
			for _, pq := range pairs {
				dst, _, _ = s.AppendPath(dst[:0], pq[0], pq[1], q)
			}
		}
	}
	warm()
	for e := range 12 {
		x, y := 10+r.IntN(130), 10+r.IntN(90)
		if e%2 == 0 {
			g.SetCells(image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(3)), false)
		} else {
			g.SetCells(image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(12)), true)
		}
	}
	if g.Version() == 0 || g.jumps == nil {
		t.Fatalf("version %d, table kept %v: the test checks nothing", g.Version(), g.jumps != nil)
	}
	for i := 0; i < len(pairs); {
		if pq := pairs[i]; !g.Connected(pq[0], pq[1]) {
			pairs = slices.Delete(pairs, i, i+1)
		} else {
			i++
		}
	}
	warm()
	for _, q := range queries {
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			pq := pairs[i%len(pairs)]
			i++
			var err error
			var res Result
			dst, res, err = s.AppendPath(dst[:0], pq[0], pq[1], q)
			if err != nil || res.Status != core.Found {
				panic(fmt.Sprint(pq, res, err))
			}
		})
		if allocs != 0 {
			t.Errorf("query %+v after %d edits: got %v allocations per query\nwant 0", q, g.Version(), allocs)
		}
	}
}

// BenchmarkSetCells puts a wall of 12 cells at a free spot of Berlin_0_1024
// and takes it away again (two SetCells calls an op), on the map as it is
// and scaled ×4 (each cell a 4×4 block) to 4096², on a grid with its jump
// table and on one that has run no jump search. The rebuild is the plain
// baseline: what an edit cost before SetCells, a new grid and its table.
func BenchmarkSetCells(b *testing.B) {
	g0 := berlin(b)
	for _, k := range []int{1, 4} {
		w, h, free := scaledCells(g0, k)
		// A run of 12 free cells, the first from the centre down.
		var wall image.Rectangle
	find:
		for y := h / 2; y < h; y++ {
			for x := w / 2; x+12 <= w; x++ {
				if !slices.Contains(free[y*w+x:y*w+x+12], false) {
					wall = image.Rect(x, y, x+12, y+1)
					break find
				}
			}
		}
		for _, table := range []bool{true, false} {
			b.Run(fmt.Sprintf("%d×%d/table=%v", w, h, table), func(b *testing.B) {
				g, err := New(w, h, free, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if table {
					if g.BuildJumps(); g.jumps == nil {
						b.Fatal("the map keeps no jump table")
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					v := g.Version()
					g.SetCells(wall, false)
					g.SetCells(wall, true)
					if g.Version() != v+2 {
						b.Fatalf("wall %v: version %d, want %d", wall, g.Version(), v+2)
					}
				}
				if g.jumpsBuilt.Load() != table {
					b.Fatalf("jump table built %v, want %v", g.jumpsBuilt.Load(), table)
				}
			})
		}
		if k == 1 {
			b.Run(fmt.Sprintf("%d×%d/rebuild", w, h), func(b *testing.B) {
				edited := slices.Clone(free)
				applyEdit(edited, w, h, editCase{wall, false, "wall"})
				b.ReportAllocs()
				for b.Loop() {
					g, err := New(w, h, edited, Options{})
					if err != nil {
						b.Fatal(err)
					}
					if g.BuildJumps(); g.jumps == nil {
						b.Fatal("no table")
					}
				}
			})
		}
	}
}

// TestSetCellsWallAllocs: putting a 12-cell wall up and taking it down
// again on a warm 512² grid with its JPS+ table (regions split and merged
// where the wall crosses a passage) allocates nothing.
func TestSetCellsWallAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	g := randomGrid(t, r, 512, 512, 0.25)
	g.BuildJumps()
	walls := make([]image.Rectangle, 0, 20)
	for len(walls) < cap(walls) { // on free cells, so that taking it down restores the map
		x, y := r.IntN(500), r.IntN(500)
		w := image.Rect(x, y, x+12, y+1)
		if len(walls)%2 == 1 {
			w = image.Rect(x, y, x+1, y+12)
		}
		free := true
		for p := range rectCells(w) {
			free = free && g.Passable(p)
		}
		if free {
			walls = append(walls, w)
		}
	}
	before := g.Version()
	i := 0
	toggle := func() {
		w := walls[i%len(walls)]
		i++
		g.SetCells(w, false)
		g.SetCells(w, true)
	}
	for range walls { // grow the scratch
		toggle()
	}
	if a := testing.AllocsPerRun(2*len(walls), toggle); a != 0 {
		t.Errorf("a 12-cell wall up and down: %v allocations, want 0", a)
	}
	if g.Version() == before {
		t.Fatal("no edit changed the grid: the test tests nothing")
	}
}

// rectCells yields the cells of r.
func rectCells(r image.Rectangle) func(yield func(image.Point) bool) {
	return func(yield func(image.Point) bool) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if !yield(image.Pt(x, y)) {
					return
				}
			}
		}
	}
}
