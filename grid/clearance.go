package grid

import (
	"fmt"
	"image"
	"math/bits"
)

// Unit sizes (clearance). A unit of size k at cell (x, y) occupies the
// k × k cells x…x+k−1 × y…y+k−1, anchored at its top-left cell as in
// Harabor and Botea's clearance-based pathfinding (annotated A*). It may
// stand at (x, y) when all its cells are free, step straight to a
// neighbour where it may stand, and step diagonally where it may stand at
// the target and at both side cells, which for k = 1 is the grid's
// no-corner-cutting rule. Its moves are therefore exactly those of a size-1
// unit on the derived grid whose free cells are those of clearance ≥ k
// ([Grid.Sized]), on which every search, region label and layer above works
// unchanged; [Grid.UpdateSized] keeps a derived grid up to date after edits
// of the grid it came from.
//
// The clearance of a cell is read from the grid's row bitsets on demand
// rather than from a table: there is nothing to keep up to date after
// [Grid.SetCells], and nothing to build.

// MaxClearance is the largest clearance [Grid.Clearance] reports and the
// largest unit size [Grid.Sized] accepts. It bounds the cost of a
// Clearance call.
const MaxClearance = 255

// Clearance returns the clearance of cell p: the side of the largest square
// of free cells whose top-left cell is p, so that a unit of size k may
// stand at p exactly when k ≤ Clearance(p). Cells beyond the grid's edges
// count as blocked. It is 0 when p is blocked or outside the grid, and at
// most [MaxClearance] (a larger square reports MaxClearance).
//
// It costs O(c·(1 + c/64)) for a clearance of c: one run of free cells per
// row of the square, read 64 cells at a time from the grid's bitsets. It
// allocates nothing. Like [Grid.Passable] it is safe for concurrent use,
// but it must not overlap [Grid.SetCells] unless the caller holds
// [Grid.RLock].
func (g *Grid) Clearance(p image.Point) int {
	if !g.Passable(p) {
		return 0
	}
	return g.clearance(p.X, p.Y, MaxClearance)
}

// clearance returns min(limit, the clearance of the free cell (x, y) of
// the grid), limit ≥ 1. The square of side k at (x, y) is free exactly
// when each of its k rows has a run of at least k free cells from column
// x. The blocked border row below the grid ends the loop at the latest
// there.
func (g *Grid) clearance(x, y, limit int) int {
	m := limit // the shortest run of the rows so far, at most limit
	for k := 1; ; k++ {
		m = min(m, g.bits.runFrom(y+k, x+1, m))
		if m < k {
			return k - 1
		}
		if k == limit {
			return limit
		}
	}
}

// runFrom returns min(limit, the number of consecutive free padded cells
// of padded row py from padded column px on). The blocked border column
// ends every run inside the row's words.
func (b *bitsets) runFrom(py, px, limit int) int {
	row := b.row(py)
	k, sh := px>>6, px&63
	n := bits.TrailingZeros64(^(row[k] >> sh))
	if n < 64-sh {
		return min(n, limit)
	}
	for k++; k < len(row) && n < limit; k++ {
		ones := bits.TrailingZeros64(^row[k])
		n += ones
		if ones < 64 {
			break
		}
	}
	return min(n, limit)
}

// Sized returns the grid of the cells where a unit of size k may stand:
// its free cells are those of clearance ≥ k (see [Grid.Clearance]), so a
// path on it is a path of the unit's anchor (top-left) cell, and its
// legal moves are exactly those of the unit, diagonal ones keeping both
// side footprints free. Sized(1) is a grid equal to g.
//
// The new grid has g's connectivity; when g has terrain costs, a cell's
// multiplier is the largest of those of the k × k cells of its footprint
// (blocked cells' multipliers included, so that it stays right when edits
// free them), and a step costs what any step on a grid costs with these
// multipliers. Its version starts at 0, and it shares nothing with g.
//
// It is an error when k is below 1 or above [MaxClearance]. Sized costs
// O(width·height) whatever k (runs of free cells, then a sliding maximum
// for the costs), plus building the new grid; it allocates the new grid
// and O(width) scratch (O(width·height) with terrain costs). It holds g's
// read lock while it reads g (so the caller must not hold [Grid.RLock]),
// and is safe for concurrent use.
func (g *Grid) Sized(k int) (*Grid, error) {
	if k < 1 || k > MaxClearance {
		return nil, fmt.Errorf("grid: unit size %d, want 1 to %d", k, MaxClearance)
	}
	w, h := g.w, g.h
	free := make([]bool, w*h)
	var costs []float64
	g.mu.RLock()
	g.fitsInto(free, k)
	if g.cost != nil {
		costs = g.footprintCosts(k)
	}
	g.mu.RUnlock()
	s, err := New(w, h, free, Options{Connectivity: g.conn, Costs: costs})
	if err != nil {
		return nil, fmt.Errorf("grid: sized grid: %w", err) // not reached: g was built
	}
	if costs != nil {
		// New keeps only the free cells' multipliers; keep the others too,
		// for the cells that UpdateSized frees.
		for y := range h {
			copy(s.cost[s.pidx(0, y):s.pidx(w, y)], costs[y*w:(y+1)*w])
		}
	}
	return s, nil
}

// fitsInto sets free[y·w+x] when a unit of size k fits at (x, y). Going up
// from the bottom row, run[x] is the run of free cells from (x, y) to the
// right, at most k, and rows[x] the number of consecutive rows from y down
// whose run from x is k, at most k.
func (g *Grid) fitsInto(free []bool, k int) {
	w := g.w
	run := make([]int32, w+1) // run[w] is the border's
	rows := make([]int32, w)
	k32 := int32(k)
	for y := g.h - 1; y >= 0; y-- {
		base := g.pidx(0, y)
		for x := w - 1; x >= 0; x-- {
			if g.free[base+x] {
				run[x] = min(run[x+1]+1, k32)
			} else {
				run[x] = 0
			}
			if run[x] == k32 {
				rows[x] = min(rows[x]+1, k32)
			} else {
				rows[x] = 0
			}
			free[y*w+x] = rows[x] == k32
		}
	}
}

// footprintCosts returns, per cell in row-major order, the largest terrain
// multiplier of the cells of its footprint of side k that lie in the grid,
// with a sliding maximum along the rows, then along the columns: O(cells)
// whatever k.
func (g *Grid) footprintCosts(k int) []float64 {
	w, h := g.w, g.h
	rowMax := make([]float64, w*h)
	q := make([]int, max(w, h)) // a deque of indices, decreasing values
	for y := range h {
		base := g.pidx(0, y)
		slidingMax(rowMax[y*w:(y+1)*w], func(x int) float64 { return g.cost[base+x] }, w, k, q)
	}
	out := make([]float64, w*h)
	col := make([]float64, h)
	for x := range w {
		slidingMax(col, func(y int) float64 { return rowMax[y*w+x] }, h, k, q)
		for y := range h {
			out[y*w+x] = col[y]
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

// UpdateSized brings s, a grid that [Grid.Sized](k) of src returned, up to
// date after edits of src in rectangle r (as given to src's
// [Grid.SetCells]; call it after each edit, or once with the union of
// several). Only cells of s in r grown by k−1 up and to the left can
// change; UpdateSized finds those whose value changed, row by row, merges
// runs that repeat on consecutive rows into rectangles, and applies them
// with s's own SetCells, all under one hold of s's edit lock, so a query
// on s sees it before or after the update, never a mixture. Terrain
// multipliers do not change: edits of src change none.
//
// It returns the bounding rectangle of the cells of s that changed (empty
// when none did, and then s's version stays as it is), which is what a
// graph built on s, such as an hpa.Graph, needs to update in turn.
//
// It is an error when s is src, when the grids differ in size,
// connectivity or in having terrain costs, or when k is outside [1,
// [MaxClearance]]; s is then unchanged. That s is src's sized grid for k
// is the caller's promise: UpdateSized cannot check it.
//
// Its cost is O(a·k·(1 + k/64)) to read src over the a cells of the grown
// rectangle, then what SetCells costs for each rectangle applied. It
// allocates a little scratch. It holds s's edit lock and src's read lock
// together, so the caller must hold neither's [Grid.RLock]; UpdateSized
// calls for one s may run concurrently, in any order, as long as each
// follows its edit.
func (s *Grid) UpdateSized(src *Grid, k int, r image.Rectangle) (image.Rectangle, error) {
	switch {
	case s == src:
		return image.Rectangle{}, fmt.Errorf("grid: sized grid is its own source")
	case s.w != src.w || s.h != src.h:
		return image.Rectangle{}, fmt.Errorf("grid: sized grid is %d×%d, its source %d×%d", s.w, s.h, src.w, src.h)
	case s.conn != src.conn:
		return image.Rectangle{}, fmt.Errorf("grid: sized grid is %v, its source %v", s.conn, src.conn)
	case s.HasCosts() != src.HasCosts():
		return image.Rectangle{}, fmt.Errorf("grid: sized grid and its source differ in having terrain costs")
	case k < 1 || k > MaxClearance:
		return image.Rectangle{}, fmt.Errorf("grid: unit size %d, want 1 to %d", k, MaxClearance)
	}
	if r.Empty() {
		return image.Rectangle{}, nil
	}
	r.Min = r.Min.Sub(image.Pt(k-1, k-1))
	r = r.Intersect(s.Bounds())
	if r.Empty() {
		return image.Rectangle{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	src.mu.RLock()
	defer src.mu.RUnlock()

	var changed image.Rectangle
	apply := func(p sizedRect) {
		s.setCells(p.r, p.free)
		changed = changed.Union(p.r)
	}
	// open holds the rectangles that may grow by the next row, ordered by
	// their left edges; cur the runs of the row, which become the next
	// open.
	var open, cur []sizedRect
	for y := r.Min.Y; y <= r.Max.Y; y++ {
		cur = cur[:0]
		for x := r.Min.X; y < r.Max.Y && x < r.Max.X; x++ {
			want := src.free[src.pidx(x, y)] && src.clearance(x, y, k) == k
			if s.free[s.pidx(x, y)] == want {
				continue
			}
			if n := len(cur); n > 0 && cur[n-1].r.Max.X == x && cur[n-1].free == want {
				cur[n-1].r.Max.X++
				continue
			}
			cur = append(cur, sizedRect{image.Rect(x, y, x+1, y+1), want})
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
	if !changed.Empty() {
		s.version.Add(1)
	}
	return changed, nil
}

// sizedRect is a rectangle of cells that UpdateSized makes free or blocked.
type sizedRect struct {
	r    image.Rectangle
	free bool
}
