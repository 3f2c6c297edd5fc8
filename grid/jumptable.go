package grid

import (
	"math"
)

// jumpTable is JPS+ (Harabor and Grastien's precomputed jump distances):
// per padded cell, where the straight runs from it stop, so that a jump
// costs O(1) per cell it stops at, not per cell it crosses. The four
// entries of a cell (east, west, south, north) sit together in 8 bytes:
// +d at a jump point d cells away, −d at a wall d cells away, and 0 when d
// does not fit an int16, where the scan of the bitsets is run instead (maps
// over 32 766 cells a side). Where the diagonal runs stop is in the grid's
// diagStops, bitsets along the diagonals built from these entries.
//
// Where the runs are short the table does not pay: a scan then reads one
// word of each of three bitsets that stay in the cache, where the table's
// entries of a diagonal run lie a row apart. So a grid whose straight scans
// stop after fewer than minJumpRun cells on average keeps no table (a maze
// of corridors one cell wide: 1.7 cells; maze512-1-0's search was 11 %
// slower with the straight table, random512-10-0's at 3.7 cells faster).
type jumpTable [][4]int16

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
			g.buildDiag()
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
		for _, c := range t[i] {
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

// updateJumps brings the table and the diagonal stops up to date after an
// edit of the padded rectangle [x0, x1) × [y0, y1). A straight entry
// depends on its own row or column and the two beside it, so the rows y0−1
// to y1 and the columns x0−1 to x1 are brought up to date (updateLine),
// each from the edit outward for as long as entries change; then the stop
// bits of the cells whose entries changed sign, and the wall bits of the
// cells whose move masks did. It costs O(the entries that change), not a row or
// column of the map per line.
func (g *Grid) updateJumps(x0, y0, x1, y1 int) {
	ph := len(g.free) / g.pw
	ed := &g.edit
	ed.changed = ed.changed[:0]
	for y := max(y0-1, 1); y < min(y1+1, ph-1); y++ {
		g.updateLine(g.pw, y*g.pw, 1, g.pw, dirE, dirW, x0-1, x1)
	}
	for x := max(x0-1, 1); x < min(x1+1, g.pw-1); x++ {
		g.updateLine(ph, x, g.pw, 1, dirS, dirN, y0-1, y1)
	}
	for _, i := range ed.changed {
		y := i / g.pw
		g.setStops(i-y*g.pw, y)
	}
	// The move masks computed again: the edit and the cells around it.
	for y := max(y0-1, 0); y <= min(y1, ph-1); y++ {
		for x := max(x0-1, 0); x <= min(x1, g.pw-1); x++ {
			g.setWalls(x, y)
		}
	}
}

// editScratch is the working memory of updating the jump table after an
// edit, kept between edits so that an edit allocates nothing once warm.
type editScratch struct {
	changed []int // padded indices of the cells whose straight entries changed sign
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
func (g *Grid) jumpLine(n, base, stride, side, fwd, back int) {
	t, free := g.jumps, g.free
	// opens reports whether a side line is free at i and blocked at j.
	opens := func(i, j int) bool {
		return (free[i-side] && !free[j-side]) || (free[i+side] && !free[j+side])
	}
	stop := n - 1 // the border is blocked
	for p := n - 2; p >= 0; p-- {
		if i := base + (p+1)*stride; !free[i] || opens(i, i-stride) {
			stop = p + 1
		}
		t[base+p*stride][fwd] = code(free[base+stop*stride], stop-p)
	}
	stop = 0
	for p := 1; p < n; p++ {
		if i := base + (p-1)*stride; !free[i] || opens(i, i+stride) {
			stop = p - 1
		}
		t[base+p*stride][back] = code(free[base+stop*stride], p-stop)
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

// updateLine brings the entries fwd and back of one line, laid out as
// jumpLine lays it out, up to date after an edit that may have changed the
// stop conditions at positions lo to hi: of the line's own cells and of
// its side lines. A scan toward larger positions from p > hi stops past
// hi, so its entry stands; the entries from hi−1 down are computed again,
// until one below lo comes out as it was: the stop it finds lies before
// lo, and so do those of all cells before it. Toward smaller positions
// likewise from lo+1 up. The cells whose entries change sign (found a jump
// point or not) are appended to g.edit.changed, for their stop bits.
func (g *Grid) updateLine(n, base, stride, side, fwd, back, lo, hi int) {
	t, free := g.jumps, g.free
	lo, hi = max(lo, 0), min(hi, n-1)
	opens := func(i, j int) bool {
		return (free[i-side] && !free[j-side]) || (free[i+side] && !free[j+side])
	}
	set := func(k, dir int, c int16) bool {
		was := t[k][dir]
		if was == c {
			return false
		}
		t[k][dir] = c
		if (was >= 0) != (c >= 0) { // the stop bits read only the sign
			g.edit.changed = append(g.edit.changed, k)
		}
		return true
	}
	stop := n - 1 // the border is blocked
	if hi < n-1 {
		stop = hi + g.stopDist(base+hi*stride, fwd)
	}
	for p := hi - 1; p >= 0; p-- {
		if i := base + (p+1)*stride; !free[i] || opens(i, i-stride) {
			stop = p + 1
		}
		if !set(base+p*stride, fwd, code(free[base+stop*stride], stop-p)) && p < lo {
			break
		}
	}
	stop = 0
	if lo > 0 {
		stop = lo - g.stopDist(base+lo*stride, back)
	}
	for p := lo + 1; p < n; p++ {
		if i := base + (p-1)*stride; !free[i] || opens(i, i+stride) {
			stop = p - 1
		}
		if !set(base+p*stride, back, code(free[base+stop*stride], p-stop)) && p > hi {
			break
		}
	}
}

// stopDist returns how far the straight scan from padded cell i in
// direction d stops, from its entry or, when the entry is 0, by the scan.
func (g *Grid) stopDist(i, d int) int {
	if c := int(g.jumps[i][d]); c != 0 {
		return max(c, -c)
	}
	y := i / g.pw
	_, from, stop := g.bits.scanStop(i-y*g.pw, y, d)
	return max(stop-from, from-stop)
}
