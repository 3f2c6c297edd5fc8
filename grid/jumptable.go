package grid

import (
	"math"
)

// jumpTable is JPS+ (Harabor and Grastien's precomputed jump distances):
// per padded cell, where the jump point runs from it stop, so that a jump
// costs O(1) per cell it stops at, not per cell it crosses. The eight
// entries of a cell, in the order of the move directions, sit together in
// 16 bytes.
//
// The straight entries (east, west, south, north) say where the scan from
// the cell stops: +d at a jump point d cells away, −d at a wall d cells
// away, and 0 when d does not fit an int16, where the scan of the bitsets
// is run instead (maps over 32 766 cells a side).
//
// The diagonal entries: +k when the k-th cell of the diagonal run from the
// cell is the first from which a straight jump along one of the
// direction's two components finds a jump point; −(m+1) when none does and
// the run can take m steps; 0 when that does not fit an int16, or a
// straight entry it needs is 0, where the run is walked cell by cell.
//
// Where the runs are short the table does not pay: a scan then reads one
// word of each of three bitsets that stay in the cache, where the table's
// entries of a diagonal run lie a row apart. So a grid whose straight scans
// stop after fewer than minJumpRun cells on average keeps no table (a maze
// of corridors one cell wide: 1.7 cells; maze512-1-0's search was 11 %
// slower with the straight table, random512-10-0's at 3.7 cells faster).
type jumpTable [][8]int16

// BuildJumps builds g's jump table now, if no jump point search has yet:
// a game calls it while it loads, so that no query pays for it
// (BenchmarkJumpTable measures the build). It is safe for concurrent use.
func (g *Grid) BuildJumps() {
	g.mu.RLock()
	defer g.mu.RUnlock()
	g.jumpTable()
}

// HasJumpTable reports whether g keeps a jump table: it has built one
// (BuildJumps, or a jump point search) and its runs are long enough for the
// table to pay.
func (g *Grid) HasJumpTable() bool { return g.jumpsBuilt.Load() && g.jumps != nil }

// minJumpRun is the mean stop distance of a grid's scans below which it
// keeps no jump table.
const minJumpRun = 2.5

// jumpTable returns g's table, building it the first time (O(cells)), or
// nil when the grid's scans are too short for it to pay. It is safe for
// concurrent use.
func (g *Grid) jumpTable() jumpTable {
	g.jumpOnce.Do(func() {
		g.jumps = make(jumpTable, len(g.free))
		ph := len(g.free) / g.pw
		g.jumpRows(1, ph-1)
		g.jumpCols(1, g.pw-1)
		if g.jumps.meanRun(g.free) < minJumpRun {
			g.jumps = nil
		} else {
			g.jumpDiagonals()
		}
		g.jumpsBuilt.Store(true)
	})
	return g.jumps
}

// meanRun returns the mean stop distance of the scans from free cells, or
// +Inf when a run is too long for the table (those grids keep it).
func (t jumpTable) meanRun(free []bool) float64 {
	var sum, n int
	for i, f := range free {
		if !f {
			continue
		}
		for _, c := range t[i][:4] {
			if c == 0 {
				return math.Inf(1)
			}
			sum += int(max(c, -c))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(n)
}

// updateJumps brings the table up to date after an edit of the padded
// rectangle [x0, x1) × [y0, y1). A cell's entries depend on its own row or
// column and the two beside it, through to the border, so the rows y0−1 to
// y1 and the columns x0−1 to x1 are computed again, and the diagonal
// entries that depend on them: O(width·rows + height·columns) and the
// entries that change.
func (g *Grid) updateJumps(x0, y0, x1, y1 int) {
	ph := len(g.free) / g.pw
	rx0, rx1 := max(x0-1, 1), min(x1+1, g.pw-1)
	ry0, ry1 := max(y0-1, 1), min(y1+1, ph-1)
	ed := &g.edit
	ed.changed = ed.changed[:0]
	ed.record = true
	g.jumpRows(ry0, ry1)
	g.jumpCols(rx0, rx1)
	ed.record = false
	g.updateDiagonals(x0-1, y0-1, x1+1, y1+1)
}

// editScratch is the working memory of updating the jump table after an
// edit, kept between edits so that an edit allocates nothing once warm.
type editScratch struct {
	record  bool  // jumpLine appends the cells whose entries change to changed
	changed []int // padded indices
	work    []int
}

// code is the table entry of a scan that stops dist cells away, at a free
// cell (a jump point) or not (a wall).
func code(free bool, dist int) int16 {
	switch {
	case dist > math.MaxInt16:
		return 0
	case free:
		return int16(dist)
	}
	return int16(-dist)
}

// jumpLine fills the entries fwd and back (indices into a cell's four) of
// the n cells of one line, at padded indices base + p·stride for p from 0
// to n−1, whose side lines are the cells side away, the way stopAfter and
// stopBefore scan: toward larger positions a scan from p stops at the first
// q > p that is blocked, or where a side line is free after being blocked
// at q−1; toward smaller ones at the last q < p that is blocked, or where a
// side line is free before being blocked at q+1. One sweep each way: O(n).
//
// While g.edit.record is set, the cells whose entries change are appended
// to g.edit.changed.
func (g *Grid) jumpLine(n, base, stride, side, fwd, back int) {
	t, free := g.jumps, g.free
	// opens reports whether a side line is free at i and blocked at j.
	opens := func(i, j int) bool {
		return (free[i-side] && !free[j-side]) || (free[i+side] && !free[j+side])
	}
	set := func(k, dir int, c int16) {
		if t[k][dir] != c {
			t[k][dir] = c
			if g.edit.record {
				g.edit.changed = append(g.edit.changed, k)
			}
		}
	}
	stop := n - 1 // the border is blocked
	for p := n - 2; p >= 0; p-- {
		if i := base + (p+1)*stride; !free[i] || opens(i, i-stride) {
			stop = p + 1
		}
		set(base+p*stride, fwd, code(free[base+stop*stride], stop-p))
	}
	stop = 0
	for p := 1; p < n; p++ {
		if i := base + (p-1)*stride; !free[i] || opens(i, i+stride) {
			stop = p - 1
		}
		set(base+p*stride, back, code(free[base+stop*stride], p-stop))
	}
}

// jumpRows fills the east and west entries of padded rows y0 to y1−1.
func (g *Grid) jumpRows(y0, y1 int) {
	for y := y0; y < y1; y++ {
		g.jumpLine(g.pw, y*g.pw, 1, g.pw, dirE, dirW)
	}
}

// jumpCols fills the south and north entries of padded columns x0 to x1−1.
func (g *Grid) jumpCols(x0, x1 int) {
	ph := len(g.free) / g.pw
	for x := x0; x < x1; x++ {
		g.jumpLine(ph, x, g.pw, 1, dirS, dirN)
	}
}

// diagCode returns the diagonal entry of padded cell i in direction d from
// its move mask and the entries of the next cell of the run.
func (g *Grid) diagCode(i, d int) int16 {
	if g.moves[i]&(1<<d) == 0 {
		return -1 // no step: m = 0
	}
	next := &g.jumps[i+int(g.off[d])]
	sh, sv, c := next[compH[d]], next[compV[d]], next[d]
	switch {
	case sh == 0 || sv == 0:
		return 0
	case sh > 0 || sv > 0:
		return 1
	case c == 0 || c == math.MaxInt16 || c == math.MinInt16:
		return 0
	case c > 0:
		return c + 1
	}
	return c - 1
}

// updateDiagonals brings the diagonal entries up to date after the
// straight entries of the cells in g.edit.changed changed, and the move
// masks of the padded rectangle [x0, x1) × [y0, y1): an entry depends on its
// cell's move mask and on the next cell of its run, so the cells of the
// rectangle and the cell before each changed one on each diagonal are
// computed again, and the cell before any entry that changes, back along
// the run for as long as entries change. It costs O(the entries computed).
func (g *Grid) updateDiagonals(x0, y0, x1, y1 int) {
	ph := len(g.free) / g.pw
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, g.pw), min(y1, ph)
	ed := &g.edit
	for d := dirSE; d < numDirs; d++ {
		off := int(g.off[d])
		work := ed.work[:0]
		for _, j := range ed.changed {
			if i := j - off; i >= 0 && i < len(g.free) {
				work = append(work, i)
			}
		}
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				work = append(work, y*g.pw+x)
			}
		}
		for len(work) > 0 {
			i := work[len(work)-1]
			work = work[:len(work)-1]
			if c := g.diagCode(i, d); c != g.jumps[i][d] {
				g.jumps[i][d] = c
				if j := i - off; j >= 0 && j < len(g.free) {
					work = append(work, j)
				}
			}
		}
		ed.work = work
	}
}

// jumpDiagonals fills the diagonal entries from the straight ones and the
// move masks, one sweep per diagonal direction against it, so that the
// next cell of each run is done first: O(cells).
func (g *Grid) jumpDiagonals() {
	t := g.jumps
	ph := len(g.free) / g.pw
	for d := dirSE; d < numDirs; d++ {
		dx, dy := dirDX[d], dirDY[d]
		for yi := range ph {
			y := yi
			if dy > 0 {
				y = ph - 1 - yi
			}
			for xi := range g.pw {
				x := xi
				if dx > 0 {
					x = g.pw - 1 - xi
				}
				t[y*g.pw+x][d] = g.diagCode(y*g.pw+x, d)
			}
		}
	}
}
