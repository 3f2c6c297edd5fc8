package grid

import (
	"fmt"
	"image"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
)

// scanCode is the jump table entry of one scan, run on the bitsets.
func (g *Grid) scanCode(x, y, d int) int16 {
	line, from, p := g.bits.scanStop(x, y, d)
	return code(bitSet(line, p), max(p-from, from-p))
}

// walkCode is the diagonal table entry of the run from padded cell (x, y)
// in diagonal direction d, walked cell by cell with the scans.
func (g *Grid) walkCode(x, y, d int) int16 {
	bit := uint8(1) << d
	for k := 1; ; k++ {
		if g.moves[y*g.pw+x]&bit == 0 {
			return int16(-k) // k−1 steps, then a wall
		}
		x, y = x+dirDX[d], y+dirDY[d]
		if g.scanCode(x, y, compH[d]) > 0 || g.scanCode(x, y, compV[d]) > 0 {
			return int16(k)
		}
	}
}

// runCode is what diagStops.run says of the run from padded cell (x, y) in
// diagonal direction d, coded as walkCode codes it.
func (g *Grid) runCode(x, y, d int) int16 {
	k, found := g.diag.run(x, y, d)
	if found {
		return int16(k)
	}
	return int16(-k - 1)
}

// checkJumps compares every entry of g's jump table for a free cell with
// the scan of the bitsets.
func checkJumps(t *testing.T, g *Grid, what string) {
	t.Helper()
	tab := g.jumpTable()
	if tab == nil {
		t.Fatalf("%s: the grid keeps no jump table (mean run %.2f): the test checks nothing", what, g.jumpsMean())
	}
	for y := 1; y <= g.h; y++ {
		for x := 1; x <= g.w; x++ {
			if !g.free[y*g.pw+x] {
				continue
			}
			for d := range 4 {
				if got, want := tab[y*g.pw+x][d], g.scanCode(x, y, d); got != want {
					t.Fatalf("%s: cell (%d,%d) direction %d: table %d, scan %d", what, x-1, y-1, d, got, want)
				}
			}
			for d := dirSE; d < numDirs; d++ {
				if got, want := g.runCode(x, y, d), g.walkCode(x, y, d); got != want {
					t.Fatalf("%s: cell (%d,%d) direction %d: diagonal stops %d, walk %d", what, x-1, y-1, d, got, want)
				}
			}
		}
	}
}

func randomGrid(t *testing.T, r *rand.Rand, w, h int, density float64) *Grid {
	t.Helper()
	free := make([]bool, w*h)
	for i := range free {
		free[i] = r.Float64() >= density
	}
	g, err := New(w, h, free, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestJumpTable checks the table against the scans on random grids, wider
// than one 64-bit word, and on grids edited with WithCells, whose tables
// are updated rather than built.
func TestJumpTable(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		w, h := 20+r.IntN(130), 10+r.IntN(90)
		g := randomGrid(t, r, w, h, 0.03+0.03*float64(seed%4))
		checkJumps(t, g, fmt.Sprintf("seed %d", seed))
		for e := range 6 {
			x, y := r.IntN(w+4)-2, r.IntN(h+4)-2
			rect := image.Rect(x, y, x+r.IntN(10), y+r.IntN(10))
			g = g.WithCells(rect, e%2 == 0)
			if !g.jumpsBuilt.Load() {
				t.Fatalf("seed %d edit %d: WithCells dropped the jump table", seed, e)
			}
			checkJumps(t, g, fmt.Sprintf("seed %d edit %d (%v)", seed, e, rect))
		}
	}
}

// TestJumpTableLong checks the fallback to the scan for runs too long for
// an int16: a row of 40 000 free cells.
func TestJumpTableLong(t *testing.T) {
	const w = 40000
	free := make([]bool, w*3)
	for i := range free {
		free[i] = true
	}
	g, err := New(w, 3, free, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab := g.jumpTable()
	pw := g.pw
	if c := tab[2*pw+1][dirE]; c != 0 {
		t.Errorf("entry east of the first cell is %d, want 0 (no room)", c)
	}
	if c := tab[2*pw+w-100+1][dirE]; c != -100 {
		t.Errorf("entry 100 cells from the east wall is %d, want -100", c)
	}
	s := NewSearcher(g)
	path, res, err := s.AppendPath(nil, image.Pt(0, 1), image.Pt(w-1, 1), Query{})
	if err != nil || len(path) != w || res.Cost != w-1 {
		t.Errorf("across the long row: %d cells, cost %v, error %v; want %d cells of cost %d", len(path), res.Cost, err, w, w-1)
	}
}

// jumpsMean is the mean stop distance of g's scans, for messages.
func (g *Grid) jumpsMean() float64 {
	t := make(jumpTable, len(g.free))
	h := &Grid{w: g.w, h: g.h, pw: g.pw, free: g.free, jumps: t}
	h.jumpRows(1, len(g.free)/g.pw-1)
	h.jumpCols(1, g.pw-1)
	return t.meanRun(g.free)
}

// TestJumpTableDense checks that a grid whose scans are short keeps no
// table, and that its edits keep none either, while searches stay exact
// (the oracle tests run on such grids too).
func TestJumpTableDense(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	g := randomGrid(t, r, 90, 70, 0.45)
	if m := g.jumpsMean(); m >= minJumpRun {
		t.Fatalf("mean run %.2f: the test grid is not dense enough", m)
	}
	if g.jumpTable() != nil {
		t.Fatal("a dense grid kept its jump table")
	}
	e := g.WithCells(image.Rect(10, 10, 20, 20), true)
	if !e.jumpsBuilt.Load() || e.jumps != nil {
		t.Fatalf("edited dense grid: built %v, table %v; want built and none", e.jumpsBuilt.Load(), e.jumps != nil)
	}
}

// TestJumpTableSearch runs the same queries with the jump table and with
// the scans (on a copy of the grid that keeps no table): the successors
// come in the same order, so the paths, costs and expansions must be the
// same, query for query, on open and cluttered random grids and after
// edits.
func TestJumpTableSearch(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		w, h := 30+r.IntN(150), 20+r.IntN(100)
		g := randomGrid(t, r, w, h, 0.02+0.03*float64(seed%5))
		for e := range 3 {
			if e > 0 {
				x, y := r.IntN(w), r.IntN(h)
				g = g.WithCells(image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(3)), e%2 == 0)
			}
			if g.jumpTable() == nil {
				t.Fatalf("seed %d: no jump table (mean run %.2f): the test compares nothing", seed, g.jumpsMean())
			}
			free := make([]bool, w*h)
			for y := range h {
				for x := range w {
					free[y*w+x] = g.Passable(image.Pt(x, y))
				}
			}
			scan, err := New(w, h, free, Options{})
			if err != nil {
				t.Fatal(err)
			}
			scan.jumpOnce.Do(func() {}) // keeps no table
			scan.jumpsBuilt.Store(true)
			st, ss := NewSearcher(g), NewSearcher(scan)
			var pt, ps, pq []image.Point
			var rq Result
			for range 200 {
				a, b := image.Pt(r.IntN(w), r.IntN(h)), image.Pt(r.IntN(w), r.IntN(h))
				if !g.Passable(a) || !g.Passable(b) {
					continue
				}
				var rt, rs Result
				pt, rt, _ = st.AppendPath(pt[:0], a, b, Query{})
				ps, rs, _ = ss.AppendPath(ps[:0], a, b, Query{})
				if rt != rs || !slices.Equal(pt, ps) {
					t.Fatalf("seed %d edit %d: %v→%v with the table %+v (%d cells), with scans %+v (%d cells)", seed, e, a, b, rt, len(pt), rs, len(ps))
				}
				pq, rq, _ = st.AppendPath(pq[:0], a, b, Query{Scan: true})
				if rt != rq || !slices.Equal(pt, pq) {
					t.Fatalf("seed %d edit %d: %v→%v with the table %+v (%d cells), with Query.Scan %+v (%d cells)", seed, e, a, b, rt, len(pt), rq, len(pq))
				}
			}
		}
	}
}

// BenchmarkJumpTable builds the jump table of Berlin_0_1024 as it is and
// scaled ×4 (each cell a 4×4 block) to 4096², and reports its bytes per
// cell.
func BenchmarkJumpTable(b *testing.B) {
	g0 := berlin(b)
	for _, k := range []int{1, 4} {
		w, h, free := scaledCells(g0, k)
		b.Run(fmt.Sprintf("%d×%d", w, h), func(b *testing.B) {
			var g *Grid
			var err error
			for b.Loop() {
				b.StopTimer()
				if g, err = New(w, h, free, Options{}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if g.jumpTable() == nil {
					b.Fatal("no table")
				}
			}
			n := len(g.jumps)*8 + g.diag.bytes()
			b.ReportMetric(float64(n)/float64(w*h), "bytes/cell")
			b.ReportMetric(float64(n)/(1<<20), "MiB")
		})
		// A wall of 12 cells across a street, on a grid with its table
		// and on one without.
		for _, table := range []bool{true, false} {
			b.Run(fmt.Sprintf("%d×%d/edit/table=%v", w, h, table), func(b *testing.B) {
				g, err := New(w, h, free, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if table {
					g.BuildJumps()
				}
				wall := image.Rect(w/2, h/2, w/2+12, h/2+1)
				for b.Loop() {
					if e := g.WithCells(wall, false); e.jumpsBuilt.Load() != table {
						b.Fatal("table lost")
					}
				}
			})
		}
	}
}

// TestScanBuildsNoTable checks that a Query.Scan search leaves the grid
// without a jump table.
func TestScanBuildsNoTable(t *testing.T) {
	free := make([]bool, 64*64)
	for i := range free {
		free[i] = i%7 != 3 || i/64%5 == 0
	}
	g, err := New(64, 64, free, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, res, err := NewSearcher(g).AppendPath(nil, image.Pt(0, 0), image.Pt(62, 40), Query{Scan: true}); err != nil || res.Status != core.Found {
		t.Fatalf("open 64²: %+v, %v", res, err)
	}
	if g.jumpsBuilt.Load() {
		t.Fatal("a Scan search built the jump table")
	}
}

// berlin loads Berlin_0_1024 from beside the checkout, skipping b when the
// Moving AI maps are not there.
func berlin(b *testing.B) *Grid {
	path := filepath.Join("..", "..", "shared", "benchmarks", "movingai", "Berlin_0_1024.map")
	g, err := LoadMap(path, Options{})
	if err != nil {
		b.Skipf("the Moving AI maps are not beside the checkout: %v", err)
	}
	return g
}

// scaledCells returns the size and cells of g scaled k times, each cell a
// k×k block.
func scaledCells(g *Grid, k int) (w, h int, free []bool) {
	w, h = g.Width()*k, g.Height()*k
	free = make([]bool, w*h)
	for y := range h {
		for x := range w {
			free[y*w+x] = g.Passable(image.Pt(x/k, y/k))
		}
	}
	return w, h, free
}
