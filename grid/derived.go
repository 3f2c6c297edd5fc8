package grid

import (
	"fmt"
	"image"
)

// Derived grids. A unit of size k that goes where a [Filter] lets it has
// moves that are exactly those of a size-1 unit on one grid: the grid
// whose free cells are the anchors where the unit's k × k footprint lies
// on cells the filter passes, and whose terrain multipliers are the
// filter's costs folded into the terrain. [Grid.Derived] makes that grid,
// and [Grid.UpdateDerived] keeps it up to date after edits of its source;
// [Grid.Sized] and [Grid.UpdateSized] are the case of no filter.

// Derived returns the grid of the cells where a unit of size k that goes
// where f lets it may stand: its free cells are the anchors (top-left
// cells, see [Grid.Clearance]) of the k × k footprints that lie in g and
// whose every cell f passes ([Filter.Passable]: a nil f passes g's free
// cells). So a path on it is a path of the unit's anchor, its legal moves
// are exactly the unit's (a diagonal one keeping both side footprints
// passable), and every search, region label and layer above works on it
// unchanged. Derived(1, nil) is a grid equal to g.
//
// A cell's terrain multiplier is the largest over the cells c of its
// footprint that lie in g of m(c) = terrain(c) × f.Cost[area(c)] (a cost
// of 0 meaning 1) for a cell f passes, and terrain(c) for one it does not
// (blocked cells count, as they do for [Grid.Sized]), at most
// [MaxCost]. The new grid has terrain costs when g has, or when f gives an
// area it may pass (not excluded, not [AreaSolid]) a cost other than 0 or
// 1, whether or not any cell has that area: which grids have costs then
// depends on g and f alone, never on the edits. It has g's connectivity,
// no area types of its own (its free cells are ground), version 0, and
// shares nothing with g.
//
// It is an error when k is below 1 or above [MaxClearance], or when f
// gives an area it may pass (not excluded, not [AreaSolid]) a cost that
// is not 0 and not in [1, MaxCost]: a grid's terrain multipliers are at
// least 1, which keeps its heuristics admissible. Derived costs
// O(width·height) whatever k (runs of passable cells, then a sliding
// maximum for the costs), plus building the new grid; it allocates the
// new grid and O(width) scratch (O(width·height) with terrain costs). It
// holds g's read lock while it reads g (so the caller must not hold
// [Grid.RLock]), and is safe for concurrent use.
func (g *Grid) Derived(k int, f *Filter) (*Grid, error) {
	d, err := newDerivation(g, k, f)
	if err != nil {
		return nil, err
	}
	w, h := g.w, g.h
	free := make([]bool, w*h)
	var costs []float64
	g.mu.RLock()
	d.fits(free, g.Bounds())
	if d.costs {
		costs = d.footprintCosts(g.Bounds())
	}
	g.mu.RUnlock()
	s, err := New(w, h, free, Options{Connectivity: g.conn, Costs: costs})
	if err != nil {
		return nil, fmt.Errorf("grid: derived grid: %w", err) // not reached: g was built, the costs checked
	}
	if costs != nil {
		// New keeps only the free cells' multipliers; keep the others
		// too, for the cells that UpdateDerived frees.
		for y := range h {
			copy(s.cost[s.pidx(0, y):s.pidx(w, y)], costs[y*w:(y+1)*w])
		}
	}
	return s, nil
}

// UpdateDerived brings s, a grid that [Grid.Derived](k, f) of src
// returned, up to date after edits of src in rectangle r (as given to
// src's [Grid.SetCells]; call it after each edit, or once with the union
// of several). It reads src's cells and areas as they are after the edits
// (SetCells makes the cells it frees ground and those it blocks solid, so
// a filter sees them anew). Only cells of s in r grown by k−1 up and to
// the left can change, in passability or in terrain multiplier;
// UpdateDerived finds those whose value changed, row by row, merges the
// runs of passability changes that repeat on consecutive rows into
// rectangles and applies them with s's own SetCells, and writes the
// multipliers that changed, all under one hold of s's edit lock, so a
// query on s sees it before or after the update, never a mixture.
//
// It returns the bounding rectangle of the cells of s that changed (empty
// when none did, and then s's version stays as it is; otherwise it goes
// up by one), which is what a graph built on s, such as an hpa.Graph,
// needs to update in turn.
//
// It is an error when s is src, when the grids differ in size or
// connectivity, when s has terrain costs and src and f would give it none
// or the other way round, or when k or f is one that Derived refuses; s
// is then unchanged. That s is src's derived grid for k and f (a filter of
// the same content) is the caller's promise: UpdateDerived cannot check it.
//
// Its cost is O((dx+k)·(dy+k)) to read src over the grown rectangle of
// dx × dy cells and the footprints of its cells, then what SetCells costs
// for each rectangle applied. It allocates scratch of that order. It
// holds s's edit lock and src's read lock together, so the caller must
// hold neither's [Grid.RLock]; UpdateDerived calls for one s may run
// concurrently, in any order, as long as each follows its edit.
func (s *Grid) UpdateDerived(src *Grid, k int, f *Filter, r image.Rectangle) (image.Rectangle, error) {
	switch {
	case s == src:
		return image.Rectangle{}, fmt.Errorf("grid: derived grid is its own source")
	case s.w != src.w || s.h != src.h:
		return image.Rectangle{}, fmt.Errorf("grid: derived grid is %d×%d, its source %d×%d", s.w, s.h, src.w, src.h)
	case s.conn != src.conn:
		return image.Rectangle{}, fmt.Errorf("grid: derived grid is %v, its source %v", s.conn, src.conn)
	}
	d, err := newDerivation(src, k, f)
	if err != nil {
		return image.Rectangle{}, err
	}
	if s.HasCosts() != d.costs {
		return image.Rectangle{}, fmt.Errorf("grid: derived grid has terrain costs %v, but its source and filter give it %v", s.HasCosts(), d.costs)
	}
	if r.Empty() {
		return image.Rectangle{}, nil
	}
	r.Min = r.Min.Sub(image.Pt(k-1, k-1))
	r = r.Intersect(s.Bounds())
	if r.Empty() {
		return image.Rectangle{}, nil
	}
	// The cells that the footprints of r's cells cover.
	win := image.Rectangle{r.Min, r.Max.Add(image.Pt(k-1, k-1))}.Intersect(s.Bounds())
	ww := win.Dx()
	s.mu.Lock()
	defer s.mu.Unlock()
	src.mu.RLock()
	defer src.mu.RUnlock()
	fit := make([]bool, ww*win.Dy())
	d.fits(fit, win)
	var costs []float64
	if d.costs {
		costs = d.footprintCosts(win)
	}
	at := func(x, y int) int { return (y-win.Min.Y)*ww + x - win.Min.X }

	var changed image.Rectangle
	apply := func(p derivedRect) {
		s.setCells(p.r, p.free)
		changed = changed.Union(p.r)
	}
	// open holds the rectangles that may grow by the next row, ordered by
	// their left edges; cur the runs of the row, which become the next
	// open.
	var open, cur []derivedRect
	for y := r.Min.Y; y <= r.Max.Y; y++ {
		cur = cur[:0]
		for x := r.Min.X; y < r.Max.Y && x < r.Max.X; x++ {
			want := fit[at(x, y)]
			if s.free[s.pidx(x, y)] == want {
				continue
			}
			if n := len(cur); n > 0 && cur[n-1].r.Max.X == x && cur[n-1].free == want {
				cur[n-1].r.Max.X++
				continue
			}
			cur = append(cur, derivedRect{image.Rect(x, y, x+1, y+1), want})
		}
		// Extend the open rectangles that the row's runs continue, and
		// apply the others.
		i := 0
		for j := range cur {
			for i < len(open) && open[i].r.Min.X < cur[j].r.Min.X {
				apply(open[i])
				i++
			}
			if i < len(open) && open[i].r.Min.X == cur[j].r.Min.X && open[i].r.Max.X == cur[j].r.Max.X && open[i].free == cur[j].free {
				cur[j].r.Min.Y = open[i].r.Min.Y
				i++
			}
		}
		for ; i < len(open); i++ {
			apply(open[i])
		}
		open, cur = cur, open
	}
	if costs != nil {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if i, c := s.pidx(x, y), costs[at(x, y)]; s.cost[i] != c {
					s.cost[i] = c
					changed = changed.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
	}
	if !changed.Empty() {
		s.version.Add(1)
	}
	return changed, nil
}

// derivedRect is a rectangle of cells that UpdateDerived makes free or
// blocked.
type derivedRect struct {
	r    image.Rectangle
	free bool
}

// derivation is what a derived grid is made of: the source g, the unit
// size k and the filter f (nil for g's own free cells), with f's costs
// read (0 as 1) and whether the derived grid has terrain costs.
type derivation struct {
	g     *Grid
	f     *Filter
	k     int
	costs bool
	mult  [256]float64
}

// newDerivation checks k and f and returns their derivation from g.
func newDerivation(g *Grid, k int, f *Filter) (*derivation, error) {
	if k < 1 || k > MaxClearance {
		return nil, fmt.Errorf("grid: unit size %d, want 1 to %d", k, MaxClearance)
	}
	d := &derivation{g: g, f: f, k: k, costs: g.cost != nil}
	for a := range d.mult {
		d.mult[a] = 1
	}
	if f == nil {
		return d, nil
	}
	for a, c := range f.Cost {
		if uint8(a) == AreaSolid || f.Exclude[a] || c == 0 {
			continue
		}
		if !(c >= 1 && c <= MaxCost) {
			return nil, fmt.Errorf("grid: filter cost %v for area %d, want 0 or a value in [1, %g] for a derived grid (its terrain multipliers are at least 1)", c, a, float64(MaxCost))
		}
		d.mult[a] = c
		d.costs = d.costs || c != 1
	}
	return d, nil
}

// pass reports whether the unit may enter the cell at padded index i.
func (d *derivation) pass(i int) bool {
	if d.f == nil {
		return d.g.free[i]
	}
	return d.f.passes(d.g, i)
}

// m returns the multiplier of the cell at padded index i (see Derived).
func (d *derivation) m(i int) float64 {
	c := 1.0
	if d.g.cost != nil {
		c = d.g.cost[i]
	}
	if d.f != nil && d.pass(i) {
		c = min(c*d.mult[d.g.areaAt(i)], MaxCost)
	}
	return c
}

// fits sets dst[(y−win.Min.Y)·win.Dx() + x−win.Min.X], for the cells (x, y)
// of win, a rectangle inside the grid, when the unit's footprint at (x, y)
// lies on cells of win that it may enter: for the cells whose footprints
// win holds whole, when the unit may stand there. Going up from win's
// bottom row, run[x] is the run of passable cells from (x, y) to the
// right, at most k, and rows[x] the number of consecutive rows from y
// down whose run from x is k, at most k.
func (d *derivation) fits(dst []bool, win image.Rectangle) {
	w := win.Dx()
	run := make([]int32, w+1) // run[w] is the edge's
	rows := make([]int32, w)
	k := int32(d.k)
	for y := win.Max.Y - 1; y >= win.Min.Y; y-- {
		base, out := d.g.pidx(win.Min.X, y), (y-win.Min.Y)*w
		for x := w - 1; x >= 0; x-- {
			if d.pass(base + x) {
				run[x] = min(run[x+1]+1, k)
			} else {
				run[x] = 0
			}
			if run[x] == k {
				rows[x] = min(rows[x]+1, k)
			} else {
				rows[x] = 0
			}
			dst[out+x] = rows[x] == k
		}
	}
}

// footprintCosts returns, per cell of win (a rectangle inside the grid) in
// row-major order, the largest multiplier m of the cells of its footprint
// that lie in win, with a sliding maximum along the rows, then along the
// columns: O(cells of win) whatever k. For the cells whose footprints win
// holds whole (or cuts only at the grid's edges), that is Derived's
// multiplier.
func (d *derivation) footprintCosts(win image.Rectangle) []float64 {
	w, h := win.Dx(), win.Dy()
	rowMax := make([]float64, w*h)
	q := make([]int, max(w, h)) // a deque of indices, decreasing values
	vals := make([]float64, max(w, h))
	for y := range h {
		base := d.g.pidx(win.Min.X, win.Min.Y+y)
		for x := range w {
			vals[x] = d.m(base + x)
		}
		slidingMax(rowMax[y*w:(y+1)*w], func(x int) float64 { return vals[x] }, w, d.k, q)
	}
	out := make([]float64, w*h)
	for x := range w {
		slidingMax(vals[:h], func(y int) float64 { return rowMax[y*w+x] }, h, d.k, q)
		for y := range h {
			out[y*w+x] = vals[y]
		}
	}
	return out
}

// slidingMax sets dst[i] to the largest of v(i), …, v(min(i+k, n)−1), for i
// in [0, n), with q (n entries) as the deque of candidates.
func slidingMax(dst []float64, v func(int) float64, n, k int, q []int) {
	head, tail := 0, 0 // q[head:tail], values decreasing from head, indices decreasing
	for i := n - 1; i >= 0; i-- {
		vi := v(i)
		for tail > head && v(q[tail-1]) <= vi {
			tail--
		}
		q[tail] = i
		tail++
		if q[head] >= i+k {
			head++
		}
		dst[i] = v(q[head])
	}
}
