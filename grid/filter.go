package grid

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/core"
)

// Area types. Every cell has one: by default the free cells of a grid are
// [AreaGround] and its blocked cells [AreaSolid]; [ReadMap] gives the Moving
// AI letters theirs ('S' swamp, 'W' water, 'T' trees), and [Options.Areas]
// gives any others (0 to 254). A query's [Filter] weights or excludes the
// areas, or lets the query through areas that are blocked by default
// (water for a boat).
const (
	AreaGround uint8 = 0   // '.' and 'G'
	AreaSwamp  uint8 = 1   // 'S': passable
	AreaWater  uint8 = 2   // 'W': blocked unless a filter includes it
	AreaTrees  uint8 = 3   // 'T': blocked unless a filter includes it
	AreaSolid  uint8 = 255 // '@' and 'O', and a blocked cell without an area: never passable
)

// Filter weights and excludes cells by their area types for one query, as
// Detour's query filter does, without rebuilding anything: the query runs
// plain A* (not jump points) on the cells the filter lets through.
//
// The zero Filter lets through exactly the grid's free cells at their own
// cost. A query sees a cell as passable when its area is not excluded and
// the cell is free, or its area is included; [AreaSolid] never is. A step
// from a to b costs base × (m(a)+m(b))/2, as terrain does, with
// m(c) = terrain(c) × Cost[area(c)]. Diagonal steps need both side cells
// passable (no corner cutting).
type Filter struct {
	// Cost multiplies the cost of the cells of each area; 0 means 1.
	// Values must be in [1e-3, MaxCost]; below 1 the heuristic is scaled
	// down by the smallest, so paths stay optimal at the price of more
	// expansions.
	Cost [256]float64
	// Exclude keeps the query out of the cells of each marked area.
	Exclude [256]bool
	// Include lets the query into the blocked cells of each marked area
	// (not AreaSolid's).
	Include [256]bool
}

// Check validates f, as every query with f does, and returns the factor
// that keeps a distance heuristic admissible under it: the smallest cost
// multiplier of an area the filter lets through, at most 1. Layers above
// the grid that take a Filter (a navmesh's queries) check it with this.
func (f *Filter) Check() (lowest float64, err error) { return f.check() }

// check is [Filter.Check].
func (f *Filter) check() (float64, error) {
	low := 1.0
	for a, c := range f.Cost {
		if c == 0 || f.Exclude[a] {
			continue
		}
		if !(c >= 1e-3 && c <= MaxCost) {
			return 0, fmt.Errorf("grid: filter cost %v for area %d, want 0 or a value in [0.001, %g]", c, a, float64(MaxCost))
		}
		low = min(low, c)
	}
	return low, nil
}

// opens reports whether f lets queries into cells that are blocked.
func (f *Filter) opens() bool {
	for a, in := range f.Include {
		if in && uint8(a) != AreaSolid {
			return true
		}
	}
	return false
}

// Area returns the area type of cell p: [AreaSolid] outside the grid. It
// does not allocate; like [Grid.Passable] it must not overlap
// [Grid.SetCells] unless the caller holds [Grid.RLock].
func (g *Grid) Area(p image.Point) uint8 {
	if !g.In(p) {
		return AreaSolid
	}
	return g.areaAt(g.pidx(p.X, p.Y))
}

// areaAt returns the area type of the cell at padded index i.
func (g *Grid) areaAt(i int) uint8 {
	if g.area != nil {
		return g.area[i]
	}
	if g.free[i] {
		return AreaGround
	}
	return AreaSolid
}

// setAreas reads the areas of Options.Areas into g, which has its free
// cells: nil when they say no more than the free cells do.
func (g *Grid) setAreas(areas []uint8) error {
	if areas == nil {
		return nil
	}
	if len(areas) != g.w*g.h {
		return fmt.Errorf("grid: %d area types for a %d×%d grid, want %d", len(areas), g.w, g.h, g.w*g.h)
	}
	plain := true
	for y := range g.h {
		for x := range g.w {
			a, free := areas[y*g.w+x], g.free[g.pidx(x, y)]
			if free && a == AreaSolid {
				return fmt.Errorf("grid: free cell (%d,%d) has area type %d (solid)", x, y, a)
			}
			plain = plain && a == g.areaAt(g.pidx(x, y))
		}
	}
	if plain {
		return nil
	}
	g.area = make([]uint8, len(g.free))
	for i := range g.area {
		g.area[i] = AreaSolid
	}
	for y := range g.h {
		copy(g.area[g.pidx(0, y):], areas[y*g.w:(y+1)*g.w])
	}
	return nil
}

// filtered is the state of a query with a Filter: the cells it lets
// through, and their cost multipliers.
type filtered struct {
	f    *Filter
	mult [256]float64 // Cost with 0 read as 1
}

func (q *queryGraph) pass(i int32) bool { return q.filter.f.passes(q.g, int(i)) }

// passes reports whether f lets a unit into the cell at padded index i.
func (f *Filter) passes(g *Grid, i int) bool {
	a := g.areaAt(i)
	return a != AreaSolid && !f.Exclude[a] && (g.free[i] || f.Include[a])
}

// Passable reports whether f lets a unit into cell p: [Grid.Passable] for
// a nil f. It does not allocate; like Grid.Passable it must not overlap
// [Grid.SetCells] unless the caller holds [Grid.RLock].
func (f *Filter) Passable(g *Grid, p image.Point) bool {
	if f == nil {
		return g.Passable(p)
	}
	return g.In(p) && f.passes(g, g.pidx(p.X, p.Y))
}

// CanStep reports whether f lets a unit make the single move from a to the
// neighbouring cell b: both pass f, b is one of the grid's neighbours of a,
// and for a diagonal both side cells pass f. [Grid.CanStep] for a nil f.
func (f *Filter) CanStep(g *Grid, a, b image.Point) bool {
	if f == nil {
		return g.CanStep(a, b)
	}
	d := b.Sub(a)
	if d.X < -1 || d.X > 1 || d.Y < -1 || d.Y > 1 || d == (image.Point{}) {
		return false
	}
	if d.X != 0 && d.Y != 0 {
		if g.conn == Four || !f.Passable(g, image.Pt(b.X, a.Y)) || !f.Passable(g, image.Pt(a.X, b.Y)) {
			return false
		}
	}
	return f.Passable(g, a) && f.Passable(g, b)
}

func (q *queryGraph) mult(i int32) float64 {
	m := q.filter.mult[q.g.areaAt(int(i))]
	if q.g.cost != nil {
		m *= q.g.cost[i]
	}
	return m
}

// filteredEdges appends the moves from n through the cells the filter
// lets through, with their filtered costs.
func (q *queryGraph) filteredEdges(dst []core.Edge, n int32) []core.Edge {
	g := q.g
	dirs := numDirs
	if g.conn == Four {
		dirs = dirSE
	}
	mn := q.mult(n)
	for d := range dirs {
		to := n + g.off[d]
		if !q.pass(to) {
			continue
		}
		if d >= dirSE && (!q.pass(n+g.off[compH[d]]) || !q.pass(n+g.off[compV[d]])) {
			continue
		}
		dst = append(dst, core.Edge{To: to, Cost: baseCost[d] * (mn + q.mult(to)) / 2})
	}
	return dst
}

// setupFilter prepares a query with filter f from one cell to another:
// it checks the filter and the ends, and returns the heuristic's scale and
// whether regions may still refuse the goal at once (when f opens no
// blocked cell).
func (c *query) setupFilter(f *Filter, from, to image.Point) (scale float64, regions bool, err error) {
	scale, err = f.check()
	if err != nil {
		return 0, false, err
	}
	c.q.filter.f = f
	for a, m := range f.Cost {
		if m == 0 {
			m = 1
		}
		c.q.filter.mult[a] = m
	}
	for _, e := range [2]struct {
		p    image.Point
		what string
	}{{from, "start"}, {to, "goal"}} {
		if !c.g.In(e.p) {
			return 0, false, fmt.Errorf("grid: %s (%d,%d) is outside the %d×%d grid", e.what, e.p.X, e.p.Y, c.g.w, c.g.h)
		}
		if !c.q.pass(int32(c.g.pidx(e.p.X, e.p.Y))) {
			return 0, false, fmt.Errorf("grid: %s (%d,%d) is a cell the filter does not let through (area %d)", e.what, e.p.X, e.p.Y, c.g.Area(e.p))
		}
	}
	return scale, !f.opens(), nil
}
