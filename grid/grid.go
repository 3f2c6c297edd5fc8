// Package grid is the world as a rectangle of square cells, and exact A* on
// it.
//
// Coordinates: cell (x, y) covers [x, x+1) × [y, y+1) in world units and its
// centre is (x+0.5, y+0.5); x is the column, y the row, and row 0 is the first
// map row of a Moving AI .map file. Points are [image.Point] values; bounds
// are half-open like [image.Rectangle].
//
// Moves: 8-connected by default, a straight step costs 1 and a diagonal step
// √2, and a diagonal step is allowed only when both orthogonal neighbours it
// passes are free (no corner cutting), the Moving AI / GPPC convention.
// 4-connected grids are an option. An optional terrain multiplier m ≥ 1 per
// cell scales moves: a step from a to b costs base·(m(a)+m(b))/2, so costs are
// symmetric and the octile distance (Manhattan on 4-connected grids) stays an
// admissible, consistent heuristic.
//
// A [Grid] is safe for concurrent queries, which run on a [Searcher], one
// per goroutine. Its cells change in place with [Grid.SetCells], at the cost
// of what the edit touches; a query sees the grid before or after an edit,
// never a mixture (see [Grid.SetCells] and [Grid.RLock]).
package grid

import (
	"fmt"
	"image"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Connectivity is the set of moves a grid allows.
type Connectivity uint8

const (
	// Eight allows the 8 king moves, without corner cutting.
	Eight Connectivity = iota
	// Four allows only the 4 orthogonal moves.
	Four
)

func (c Connectivity) String() string {
	switch c {
	case Eight:
		return "8-connected"
	case Four:
		return "4-connected"
	}
	return fmt.Sprintf("Connectivity(%d)", uint8(c))
}

// Options tunes how a grid is built. The zero value is an 8-connected grid
// with unit terrain.
type Options struct {
	Connectivity Connectivity
	// Costs, when not nil, holds one terrain multiplier per cell in row-major
	// order (index y·width + x); each must be in [1, MaxCost]. The
	// multipliers of blocked cells are ignored.
	Costs []float64
	// Areas, when not nil, holds one area type per cell in row-major order,
	// for the queries' [Filter]s: [AreaSolid] only on blocked cells. By
	// default free cells are [AreaGround] and blocked ones AreaSolid;
	// [ReadMap] fills it from the map's letters. An edit makes the cells it
	// frees ground and those it blocks solid.
	Areas []uint8
}

// Move directions, in the order of the bits of a cell's move mask.
const (
	dirE = iota
	dirW
	dirS
	dirN
	dirSE
	dirNE
	dirSW
	dirNW
	numDirs
)

var dirDX = [numDirs]int{1, -1, 0, 0, 1, 1, -1, -1}
var dirDY = [numDirs]int{0, 0, 1, -1, 1, -1, 1, -1}

// Grid is a rectangle of passable and blocked cells with optional terrain
// costs. Its methods are safe for concurrent use, except that reads other
// than a [Searcher]'s or [Sliced]'s queries must not overlap
// [Grid.SetCells] unless they hold [Grid.RLock].
//
// Internally each row is padded with a blocked border cell on both sides and
// a blocked row above and below, so neighbour lookups need no bounds checks.
type Grid struct {
	w, h  int
	pw    int       // padded width, w + 2
	free  []bool    // per padded cell
	moves []uint8   // per padded cell: bit d set when the move in direction d is legal
	cost  []float64 // per padded cell terrain multiplier; nil when uniform
	area  []uint8   // per padded cell area type; nil when the free cells are ground and the others solid
	conn  Connectivity
	off   [numDirs]int32 // padded index offset per direction

	rg regions // the connected regions

	bits bitsets // free cells as row and column bitsets, for jump point search

	mu      sync.RWMutex  // held for writing by SetCells, for reading by queries
	version atomic.Uint64 // edits by SetCells that changed a cell

	// The jump table (see jumpTable), built by the first jump point search.
	jumpOnce   sync.Once
	jumpsBuilt atomic.Bool
	jumps      jumpTable
	diag       diagStops   // the diagonal runs' stops, with jumps
	edit       editScratch // of SetCells, under mu
}

// MaxCells is the largest number of cells a grid may have.
const MaxCells = 1 << 28

// MaxCost is the largest terrain multiplier. With it a path through every
// cell of the largest grid costs at most about 2²⁸·√2·10⁹ ≈ 4·10¹⁷, far
// inside the float64 range (multipliers near the largest float64 made a
// single step cost +Inf).
const MaxCost = 1e9

// New builds a grid of width × height cells from free, one entry per cell in
// row-major order (index y·width + x), true where the cell is passable. It
// labels connected regions, which costs O(width·height) once.
func New(width, height int, free []bool, opt Options) (*Grid, error) {
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("grid: size %d×%d, want positive width and height", width, height)
	}
	if width > MaxCells/height || (width+2)*(height+2) > math.MaxInt32 {
		return nil, fmt.Errorf("grid: size %d×%d exceeds %d cells", width, height, MaxCells)
	}
	if len(free) != width*height {
		return nil, fmt.Errorf("grid: %d cell flags for a %d×%d grid, want %d", len(free), width, height, width*height)
	}
	if opt.Connectivity > Four {
		return nil, fmt.Errorf("grid: unknown connectivity %d", opt.Connectivity)
	}
	if opt.Costs != nil && len(opt.Costs) != width*height {
		return nil, fmt.Errorf("grid: %d terrain costs for a %d×%d grid, want %d", len(opt.Costs), width, height, width*height)
	}
	g := &Grid{w: width, h: height, pw: width + 2, conn: opt.Connectivity}
	n := g.pw * (height + 2)
	g.free = make([]bool, n)
	for y := range height {
		copy(g.free[(y+1)*g.pw+1:], free[y*width:(y+1)*width])
	}
	if opt.Costs != nil {
		g.cost = make([]float64, n)
		for i := range g.cost {
			g.cost[i] = 1
		}
		for y := range height {
			for x := range width {
				c := opt.Costs[y*width+x]
				if !free[y*width+x] {
					continue // ignored, as documented
				}
				if !(c >= 1 && c <= MaxCost) {
					return nil, fmt.Errorf("grid: terrain cost %v at (%d,%d), want a value in [1, %g]", c, x, y, float64(MaxCost))
				}
				g.cost[(y+1)*g.pw+x+1] = c
			}
		}
	}
	if err := g.setAreas(opt.Areas); err != nil {
		return nil, err
	}
	for d := range numDirs {
		g.off[d] = int32(dirDX[d] + dirDY[d]*g.pw)
	}
	g.moves = make([]uint8, n)
	g.computeMoves(0, 0, width, height)
	g.labelRegions()
	g.buildBits()
	return g, nil
}

// computeMoves recomputes the move masks of the cells in [x0,x1)×[y0,y1).
// Large areas are split into bands of rows computed in parallel.
func (g *Grid) computeMoves(x0, y0, x1, y1 int) {
	if nw := runtime.GOMAXPROCS(0); nw > 1 && (x1-x0)*(y1-y0) >= 1<<18 {
		var wg sync.WaitGroup
		for k := range nw {
			b0, b1 := y0+k*(y1-y0)/nw, y0+(k+1)*(y1-y0)/nw
			wg.Go(func() { g.computeMoveRows(x0, b0, x1, b1) })
		}
		wg.Wait()
		return
	}
	g.computeMoveRows(x0, y0, x1, y1)
}

func (g *Grid) computeMoveRows(x0, y0, x1, y1 int) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			i := g.pidx(x, y)
			if !g.free[i] {
				g.moves[i] = 0
				continue
			}
			var m uint8
			for d := dirE; d <= dirN; d++ {
				if g.free[i+int(g.off[d])] {
					m |= 1 << d
				}
			}
			if g.conn == Eight {
				for d := dirSE; d <= dirNW; d++ {
					ix := i + dirDX[d]
					iy := i + dirDY[d]*g.pw
					if g.free[i+int(g.off[d])] && g.free[ix] && g.free[iy] {
						m |= 1 << d
					}
				}
			}
			g.moves[i] = m
		}
	}
}

// pidx returns the padded index of (x, y), which must be inside the grid.
func (g *Grid) pidx(x, y int) int { return (y+1)*g.pw + x + 1 }

// pxy returns the cell of a padded index.
func (g *Grid) pxy(i int32) image.Point {
	return image.Point{int(i)%g.pw - 1, int(i)/g.pw - 1}
}

// Width returns the number of columns.
func (g *Grid) Width() int { return g.w }

// Height returns the number of rows.
func (g *Grid) Height() int { return g.h }

// Bounds returns the rectangle of cells, [0, width) × [0, height).
func (g *Grid) Bounds() image.Rectangle { return image.Rect(0, 0, g.w, g.h) }

// Connectivity returns the moves the grid allows.
func (g *Grid) Connectivity() Connectivity { return g.conn }

// In reports whether p is a cell of the grid.
func (g *Grid) In(p image.Point) bool {
	return uint(p.X) < uint(g.w) && uint(p.Y) < uint(g.h)
}

// Passable reports whether p is a free cell of the grid; cells outside the
// grid are not passable.
func (g *Grid) Passable(p image.Point) bool {
	return g.In(p) && g.free[g.pidx(p.X, p.Y)]
}

// Cost returns the terrain multiplier of cell p (1 without terrain costs, and
// for cells outside the grid).
func (g *Grid) Cost(p image.Point) float64 {
	if g.cost == nil || !g.In(p) {
		return 1
	}
	return g.cost[g.pidx(p.X, p.Y)]
}

// HasCosts reports whether the grid was built with terrain costs.
func (g *Grid) HasCosts() bool { return g.cost != nil }

// Region returns the label of the connected region holding p, in
// [0, NumRegions), or -1 when p is blocked or outside the grid. Two cells are
// connected by a path exactly when they have the same label. Every label
// in the range is used; which region gets which label is unspecified, and
// may change with any edit. It is O(1) and does not allocate.
func (g *Grid) Region(p image.Point) int32 {
	// The cell's number within its tile, the tile's ID of that component,
	// and its region (see regions.go), written out so that Region stays
	// within the inlining budget.
	x, y := p.X, p.Y
	if uint(x) >= uint(g.w) || uint(y) >= uint(g.h) {
		return -1
	}
	rg := &g.rg
	c := rg.comp[(y+1)*g.pw+x+1]
	if c == noComp {
		return -1
	}
	return rg.label[rg.tiles[(y>>tileShift)*rg.ntx+(x>>tileShift)].comps[c]]
}

// NumRegions returns the number of connected regions of free cells.
func (g *Grid) NumRegions() int { return g.rg.n }

// Connected reports in O(1) whether a path joins a and b.
func (g *Grid) Connected(a, b image.Point) bool {
	ra := g.Region(a)
	return ra >= 0 && ra == g.Region(b)
}

// CanStep reports whether one move from a to the neighbouring cell b is
// legal: both free, b one of the allowed neighbours, and for a diagonal step
// both orthogonal cells free.
func (g *Grid) CanStep(a, b image.Point) bool {
	if !g.Passable(a) {
		return false
	}
	d := dirOf(b.X-a.X, b.Y-a.Y)
	return d >= 0 && g.moves[g.pidx(a.X, a.Y)]&(1<<d) != 0
}

// StepCost returns the cost of the move from a to its neighbour b; it does
// not check that the move is legal.
func (g *Grid) StepCost(a, b image.Point) float64 {
	base := 1.0
	if a.X != b.X && a.Y != b.Y {
		base = math.Sqrt2
	}
	if g.cost == nil {
		return base
	}
	return base * (g.Cost(a) + g.Cost(b)) / 2
}

// PathCost returns the cost of a path of cells, each a legal move from the
// one before, and an error naming the first illegal step.
func (g *Grid) PathCost(path []image.Point) (float64, error) {
	if len(path) == 0 {
		return 0, nil
	}
	if !g.Passable(path[0]) {
		return 0, fmt.Errorf("grid: path starts at %v, which is not a free cell", path[0])
	}
	var straight, diag int
	var sum float64
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		if !g.CanStep(a, b) {
			return 0, fmt.Errorf("grid: path step %d from %v to %v is not a legal move", i, a, b)
		}
		if g.cost != nil {
			sum += g.StepCost(a, b)
		} else if a.X != b.X && a.Y != b.Y {
			diag++
		} else {
			straight++
		}
	}
	if g.cost != nil {
		return sum, nil
	}
	return float64(straight) + float64(diag)*math.Sqrt2, nil
}

func dirOf(dx, dy int) int {
	for d := range numDirs {
		if dirDX[d] == dx && dirDY[d] == dy {
			return d
		}
	}
	return -1
}

// Octile returns the octile distance between a and b: the cost of the
// shortest 8-connected path on an open grid.
func Octile(a, b image.Point) float64 {
	dx, dy := abs(a.X-b.X), abs(a.Y-b.Y)
	return float64(max(dx, dy)) + (math.Sqrt2-1)*float64(min(dx, dy))
}

// Manhattan returns the Manhattan distance between a and b.
func Manhattan(a, b image.Point) float64 {
	return float64(abs(a.X-b.X) + abs(a.Y-b.Y))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// FromRows builds a grid from a small drawing, one string per row, all of
// the same length: '#' and the Moving AI blocked characters '@', 'O', 'T',
// 'W' are walls; '.' and any other printable ASCII character (letters
// marking a start or a goal, say) are free. It is meant for tests, examples
// and hand-made maps; files go through [ReadMap].
func FromRows(rows []string, opt Options) (*Grid, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("grid: no rows")
	}
	w, h := len(rows[0]), len(rows)
	free := make([]bool, 0, w*h)
	for y, row := range rows {
		if len(row) != w {
			return nil, fmt.Errorf("grid: row %d has %d cells, want %d", y, len(row), w)
		}
		for x := range w {
			c := row[x]
			if c < ' ' || c > '~' {
				return nil, fmt.Errorf("grid: row %d, column %d: character %q is not printable ASCII", y, x, c)
			}
			free = append(free, !strings.ContainsRune("#@OTW", rune(c)))
		}
	}
	return New(w, h, free, opt)
}

// Step returns unit move d, from 0 to 7, in the order of the bits of
// [Grid.Moves]: east, west, south, north, south-east, north-east,
// south-west, north-west (y grows downward, so south is +y). It panics for
// any other d.
func Step(d int) image.Point { return image.Pt(dirDX[d], dirDY[d]) }

// StepDir returns the d for which [Step](d) is s, or −1 when s is not a
// unit move.
func StepDir(s image.Point) int { return dirOf(s.X, s.Y) }

// Moves returns the legal moves from cell p as a bit set: bit d is set when
// the step p → p+Step(d) is legal under the grid's connectivity and the
// no-corner-cutting rule. It is 0 for blocked cells and cells outside the
// grid. It is O(1): the masks are computed once, when the grid is built.
func (g *Grid) Moves(p image.Point) uint8 {
	if !g.In(p) {
		return 0
	}
	return g.moves[g.pidx(p.X, p.Y)]
}
