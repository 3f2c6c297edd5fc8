package grid_test

import (
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// losOracle decides line of sight geometrically, in doubled coordinates
// where cell (x, y) is the open square (2x, 2x+2) × (2y, 2y+2) and its centre
// is (2x+1, 2y+1): the segment must miss the interior of every blocked cell,
// and every grid corner it passes through must have four free cells around.
func losOracle(g *grid.Grid, a, b image.Point) bool {
	if !g.Passable(a) || !g.Passable(b) {
		return false
	}
	ax, ay, bx, by := 2*a.X+1, 2*a.Y+1, 2*b.X+1, 2*b.Y+1
	cross := func(px, py int) int { return (bx-ax)*(py-ay) - (by-ay)*(px-ax) }
	onSegment := func(px, py int) bool {
		return cross(px, py) == 0 && min(ax, bx) <= px && px <= max(ax, bx) && min(ay, by) <= py && py <= max(ay, by)
	}
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			p := image.Pt(x, y)
			if g.Passable(p) {
				continue
			}
			x0, y0, x1, y1 := 2*x, 2*y, 2*x+2, 2*y+2
			if max(ax, bx) <= x0 || min(ax, bx) >= x1 || max(ay, by) <= y0 || min(ay, by) >= y1 {
				continue // separated along an axis
			}
			c := [4]int{cross(x0, y0), cross(x1, y0), cross(x0, y1), cross(x1, y1)}
			pos, neg := 0, 0
			for _, v := range c {
				if v > 0 {
					pos++
				} else if v < 0 {
					neg++
				}
			}
			if pos == 0 || neg == 0 {
				// The box lies on one closed side of the line; it may still
				// be touched at a corner, which the corner rule handles.
				continue
			}
			return false
		}
	}
	// Corners on the segment need all four cells around them free.
	for y := 0; y <= g.Height(); y++ {
		for x := 0; x <= g.Width(); x++ {
			if !onSegment(2*x, 2*y) {
				continue
			}
			for _, q := range []image.Point{{x - 1, y - 1}, {x, y - 1}, {x - 1, y}, {x, y}} {
				if !g.Passable(q) {
					return false
				}
			}
		}
	}
	return true
}

func TestLineOfSightOracle(t *testing.T) {
	for _, density := range []float64{0.05, 0.2, 0.4} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("d=%.2f/seed=%d", density, seed), func(t *testing.T) {
				const w, h = 24, 17
				r := rand.New(rand.NewPCG(seed, 7))
				free := make([]bool, w*h)
				for i := range free {
					free[i] = r.Float64() >= density
				}
				g, err := grid.New(w, h, free, grid.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for range 400 {
					a := image.Pt(r.IntN(w), r.IntN(h))
					b := image.Pt(r.IntN(w), r.IntN(h))
					if r.IntN(4) == 0 { // exact diagonals pass through corners
						d := r.IntN(8)
						b = a.Add(image.Pt(d*(1-2*r.IntN(2)), d*(1-2*r.IntN(2))))
					}
					got, want := g.LineOfSight(a, b), losOracle(g, a, b)
					if got != want {
						t.Fatalf("seed %d: LineOfSight(%v, %v) = %v, want %v", seed, a, b, got, want)
					}
					if back := g.LineOfSight(b, a); back != got {
						t.Fatalf("seed %d: LineOfSight(%v, %v) = %v but reversed %v", seed, a, b, got, back)
					}
				}
			})
		}
	}
}

func TestLineOfSightMatchesMoves(t *testing.T) {
	// A single step has line of sight exactly when it is a legal move.
	r := rand.New(rand.NewPCG(3, 3))
	const w, h = 20, 20
	free := make([]bool, w*h)
	for i := range free {
		free[i] = r.Float64() >= 0.3
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for y := range h {
		for x := range w {
			a := image.Pt(x, y)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					b := a.Add(image.Pt(dx, dy))
					if (dx != 0 || dy != 0) && g.LineOfSight(a, b) != g.CanStep(a, b) {
						t.Fatalf("step %v→%v: LineOfSight %v, CanStep %v", a, b, g.LineOfSight(a, b), g.CanStep(a, b))
					}
				}
			}
		}
	}
}

func TestLineOfSightCorner(t *testing.T) {
	// Two blocked cells meeting at a corner: the diagonal through that
	// corner is blocked, the same segment shifted by a cell is not.
	free := []bool{
		true, false, true,
		false, true, true,
		true, true, true,
	}
	g, err := grid.New(3, 3, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.LineOfSight(image.Pt(0, 0), image.Pt(1, 1)) {
		t.Error("line of sight squeezes between two blocked cells")
	}
	if !g.LineOfSight(image.Pt(1, 1), image.Pt(2, 2)) {
		t.Error("open diagonal reported blocked")
	}
	if g.LineOfSight(image.Pt(0, 2), image.Pt(2, 0)) {
		t.Error("segment through a corner beside a blocked cell reported free")
	}
}

// TestLineOfSightLong checks long segments, whose runs of cells along a
// row or column span several 64-bit words of the bitsets, against the
// geometric oracle: sparse random maps wider and taller than 128 cells,
// with rows and columns cleared so that long sight lines exist.
func TestLineOfSightLong(t *testing.T) {
	var c losCounter
	for seed := uint64(1); seed <= 3; seed++ {
		const w, h = 300, 170
		r := rand.New(rand.NewPCG(seed, 9))
		free := make([]bool, w*h)
		for i := range free {
			free[i] = r.Float64() >= 0.004*float64(seed)
		}
		g, err := grid.New(w, h, free, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range 500 {
			a := image.Pt(r.IntN(w), r.IntN(h))
			b := image.Pt(r.IntN(w), r.IntN(h))
			switch r.IntN(4) {
			case 0: // nearly horizontal
				b.Y = min(h-1, max(0, a.Y+r.IntN(7)-3))
			case 1: // nearly vertical
				b.X = min(w-1, max(0, a.X+r.IntN(7)-3))
			case 2: // through corners
				d := r.IntN(160)
				b = a.Add(image.Pt(d*(1-2*r.IntN(2)), d*(1-2*r.IntN(2))))
			}
			if !b.In(g.Bounds()) {
				continue
			}
			c.check(t, g, a, b, fmt.Sprintf("seed %d", seed))
		}
	}
	c.atLeast(t, 200)
}

// losCounter compares LineOfSight with the oracle, both ways round, and
// counts the segments seen and blocked.
type losCounter struct{ seen, blocked int }

func (c *losCounter) check(t *testing.T, g *grid.Grid, a, b image.Point, what string) {
	t.Helper()
	got, want := g.LineOfSight(a, b), losOracle(g, a, b)
	if got != want {
		t.Fatalf("%s: LineOfSight(%v, %v) = %v, want %v", what, a, b, got, want)
	}
	if g.LineOfSight(b, a) != got {
		t.Fatalf("%s: LineOfSight(%v, %v) differs reversed", what, a, b)
	}
	if got {
		c.seen++
	} else {
		c.blocked++
	}
}

// atLeast fails unless n segments or more were seen and n blocked.
func (c *losCounter) atLeast(t *testing.T, n int) {
	t.Helper()
	if c.seen < n || c.blocked < n {
		t.Fatalf("%d segments seen, %d blocked: too few of one kind", c.seen, c.blocked)
	}
}

// TestLineOfSightBlocks checks line of sight where it passes over bands of
// free 8×8 blocks at once: open maps with a few walls, long segments at
// every slope, then the same after walls are put up and cleared in place
// (which must keep the blocks' bits current) and on a copy made by
// WithCells.
func TestLineOfSightBlocks(t *testing.T) {
	const w, h = 203, 141
	r := rand.New(rand.NewPCG(5, 11))
	free := make([]bool, w*h)
	for i := range free {
		free[i] = true
	}
	for range 12 { // walls and posts, leaving wide open ground between
		x, y := r.IntN(w), r.IntN(h)
		dx, dy := 1+r.IntN(30), 1+r.IntN(3)
		if r.IntN(2) == 0 {
			dx, dy = dy, dx
		}
		for yy := y; yy < min(h, y+dy); yy++ {
			for xx := x; xx < min(w, x+dx); xx++ {
				free[yy*w+xx] = false
			}
		}
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var c losCounter
	check := func(g *grid.Grid, what string, n int) {
		t.Helper()
		for range n {
			a := image.Pt(r.IntN(w), r.IntN(h))
			b := image.Pt(r.IntN(w), r.IntN(h))
			if r.IntN(4) == 0 {
				d := r.IntN(120)
				b = a.Add(image.Pt(d*(1-2*r.IntN(2)), d*(1-2*r.IntN(2))))
				if !b.In(g.Bounds()) {
					continue
				}
			}
			c.check(t, g, a, b, what)
		}
	}
	check(g, "as built", 600)
	for i := range 8 {
		x, y := r.IntN(w-16), r.IntN(h-16)
		rect := image.Rect(x, y, x+1+r.IntN(16), y+1+r.IntN(3))
		if i%2 == 1 {
			rect = image.Rect(x, y, x+1+r.IntN(3), y+1+r.IntN(16))
		}
		g.SetCells(rect, false)
		check(g, fmt.Sprintf("after wall %d %v", i, rect), 150)
		if i%3 == 2 {
			g.SetCells(rect, true)
			check(g, fmt.Sprintf("after clearing wall %d", i), 150)
		}
	}
	cp := g.WithCells(image.Rect(w/2, 0, w/2+1, h-5), false)
	check(cp, "a copy with a long wall", 300)
	cp = g.WithCells(image.Rect(0, 0, w, h), true)
	check(cp, "a copy with every cell cleared", 100)
	check(g, "the original after the copies", 300)
	c.atLeast(t, 300)
}

// TestLineOfSightGrazing aims segments just past single blocked cells in
// open ground, at and near the edges of the 8×8 blocks, where a band's
// stretch of cells ends: each segment runs from afar to within a cell or
// two of a post, and on beyond it.
func TestLineOfSightGrazing(t *testing.T) {
	const w, h = 130, 120
	r := rand.New(rand.NewPCG(8, 1))
	free := make([]bool, w*h)
	for i := range free {
		free[i] = true
	}
	var posts []image.Point
	for range 40 {
		p := image.Pt(8*r.IntN(w/8)+[]int{0, 7, r.IntN(8)}[r.IntN(3)], 8*r.IntN(h/8)+[]int{0, 7, r.IntN(8)}[r.IntN(3)])
		free[p.Y*w+p.X] = false
		posts = append(posts, p)
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var c losCounter
	for range 6000 {
		post := posts[r.IntN(len(posts))]
		a := image.Pt(r.IntN(w), r.IntN(h))
		near := post.Add(image.Pt(r.IntN(5)-2, r.IntN(5)-2))
		d := near.Sub(a)
		if d == (image.Point{}) {
			continue
		}
		b := a.Add(d.Mul(1 + r.IntN(3)))
		if r.IntN(2) == 0 {
			b = near
		}
		if !b.In(g.Bounds()) {
			continue
		}
		c.check(t, g, a, b, fmt.Sprintf("post %v", post))
	}
	c.atLeast(t, 1000)
}

// TestRowColumnBits reads the words of RowBits and ColumnBits at offsets
// from before the grid to past it against Passable, before and after edits
// in place.
func TestRowColumnBits(t *testing.T) {
	const w, h = 97, 70
	r := rand.New(rand.NewPCG(2, 2))
	free := make([]bool, w*h)
	for i := range free {
		free[i] = r.Float64() >= 0.3
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string) {
		for range 3000 {
			x, y := r.IntN(w+140)-70, r.IntN(h+140)-70
			var row, col uint64
			for i := range 64 {
				if g.Passable(image.Pt(x+i, y)) {
					row |= 1 << i
				}
				if g.Passable(image.Pt(x, y+i)) {
					col |= 1 << i
				}
			}
			if got := g.RowBits(x, y); got != row {
				t.Fatalf("%s: RowBits(%d, %d) = %#x, want %#x", what, x, y, got, row)
			}
			if got := g.ColumnBits(x, y); got != col {
				t.Fatalf("%s: ColumnBits(%d, %d) = %#x, want %#x", what, x, y, got, col)
			}
		}
	}
	check("as built")
	g.SetCells(image.Rect(10, 10, 60, 12), false)
	g.SetCells(image.Rect(30, 0, 32, 70), true)
	check("after edits")
}
