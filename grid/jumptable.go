package grid

import (
	"math"
	"slices"
)

// jumpTable holds, per padded cell, where the jump point scan from that
// cell stops in each straight direction (east, west, south, north, the
// first four move directions): +d when it stops at a jump point d cells
// away, −d when it runs into a wall d cells away, and 0 when d does not fit
// an int16, where the scan of the bitsets is run instead (maps over 32 766
// cells a side). It is the straight half of JPS+ (Harabor and Grastien's
// precomputed jump distances), and makes a straight jump O(1). The four
// entries of a cell sit together, so that the two scans from each cell of
// a diagonal run read one cache line. It takes 8 bytes per padded cell.
//
// Where the scans are short the table does not pay: a scan then reads one
// word of each of three bitsets that stay in the cache, where the table's
// entries of a diagonal run lie a row apart. So a grid whose scans stop
// after fewer than minJumpRun cells on average keeps no table (a maze of
// corridors one cell wide: 1.7 cells; maze512-1-0's jump point search was
// 11 % slower with the table, random512-10-0's at 3.7 cells 1.3× faster).
type jumpTable [][4]int16

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

// copyJumps gives n, a copy of g edited in the padded rectangle [x0, x1) ×
// [y0, y1), g's jump table updated for the edit, if g has built one. A
// cell's entries depend on its own row or column and the two beside it,
// through to the border, so the rows y0−1 to y1 and the columns x0−1 to x1
// are computed again: O(width·rows + height·columns).
func (n *Grid) copyJumps(g *Grid, x0, y0, x1, y1 int) {
	if !g.jumpsBuilt.Load() {
		return
	}
	n.jumpOnce.Do(func() {
		defer n.jumpsBuilt.Store(true)
		if g.jumps == nil { // too short to pay: the edit keeps to scans
			return
		}
		n.jumps = slices.Clone(g.jumps)
		ph := len(n.free) / n.pw
		n.jumpRows(max(y0-1, 1), min(y1+1, ph-1))
		n.jumpCols(max(x0-1, 1), min(x1+1, n.pw-1))
	})
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
