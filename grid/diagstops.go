package grid

import "math/bits"

// diagStops is the diagonal half of the jump table: where each diagonal
// run stops, kept as bitsets along the grid's diagonals rather than as a
// distance per cell. A distance per cell changes for every cell of a run
// when anything ahead of it changes, so one wall rewrote 150 000–900 000
// entries at 4096²; a stop bit changes only where the cell's own straight
// entries change sign, so an edit costs what it touches. A run then reads
// 64 cells of its diagonal a word, as the straight scans read rows.
//
// The diagonals of slope +1 (the directions SE and NW) are the cells with
// one value of x − y, those of slope −1 (NE and SW) the cells with one
// value of x + y, in padded coordinates; bit x of a diagonal is its cell in
// padded column x. A run reads, per 64 cells, the stop bits of its
// direction and the wall bits of its diagonal, which sit in one block of
// four words with the stop bits of the opposite direction. The blocks of
// one band of 64 columns lie diagonal after diagonal, so that the cells
// near one another (a search's) share cache lines: about 16 bits a cell
// on a square map.
type diagStops struct {
	n  int // diagonals of each slope: padded width + padded height − 1
	ph int // padded height
	// slope[0] holds the diagonals of slope +1, slope[1] those of slope
	// −1: the block of diagonal l in band b at index 4(b·n + l). Its words
	// are the stop bits of the run toward larger x (SE, NE), then of the
	// run toward smaller x (NW, SW): of the cells from which a straight
	// jump along one of the direction's two components finds a jump point,
	// or may (its entry is 0, too long for the table, and the query scans
	// it), where a run stops to look; then the wall bits, of the cells from
	// which the step toward larger x along the diagonal is not allowed,
	// which is the step toward smaller x from the next cell; then a spare
	// word, so that blocks do not straddle cache lines.
	slope [2][]uint64
}

// diagonal returns the slope (0 for SE and NW, 1 for NE and SW) and the
// index of the diagonal through padded cell (x, y) in direction d, and
// which stop word of a block is d's (0 toward larger x, 1 toward smaller).
func (ds *diagStops) diagonal(x, y, d int) (slope, line, stop int) {
	switch d {
	case dirSE:
		return 0, x - y + ds.ph - 1, 0
	case dirNW:
		return 0, x - y + ds.ph - 1, 1
	case dirNE:
		return 1, x + y, 0
	}
	return 1, x + y, 1
}

// putBit sets or clears bit x of word w (0 to 2) of the block of diagonal
// line of the slope's bitsets.
func (ds *diagStops) putBit(slope, line, x, w int, on bool) {
	p := &ds.slope[slope][4*((x>>6)*ds.n+line)+w]
	if on {
		*p |= 1 << (x & 63)
	} else {
		*p &^= 1 << (x & 63)
	}
}

// buildDiag fills g.diag from the straight entries and the move masks:
// O(cells).
func (g *Grid) buildDiag() {
	ph := len(g.free) / g.pw
	ds := &g.diag
	ds.n, ds.ph = g.pw+ph-1, ph
	for k := range ds.slope {
		ds.slope[k] = make([]uint64, 4*ds.n*((g.pw+63)/64))
	}
	for y := range ph {
		for x := range g.pw {
			g.setStops(x, y)
			g.setWalls(x, y)
		}
	}
}

// setStops sets the stop bits of padded cell (x, y) from its straight
// entries.
func (g *Grid) setStops(x, y int) {
	ds := &g.diag
	e := &g.jumps[y*g.pw+x]
	for d := dirSE; d < numDirs; d++ {
		sl, line, w := ds.diagonal(x, y, d)
		ds.putBit(sl, line, x, w, e[compH[d]] >= 0 || e[compV[d]] >= 0)
	}
}

// setWalls sets the wall bits of padded cell (x, y) from its move mask.
func (g *Grid) setWalls(x, y int) {
	ds := &g.diag
	m := g.moves[y*g.pw+x]
	for _, d := range [2]int{dirSE, dirNE} { // a wall bit serves both directions of its slope
		sl, line, _ := ds.diagonal(x, y, d)
		ds.putBit(sl, line, x, 2, m&(1<<d) == 0)
	}
}

// run returns where the diagonal run from padded cell (x, y) in direction
// d stops: at the first cell k ≥ 1 steps along it that is a stop (found
// true), or, when the run meets a step it may not take before any, after
// the m ≥ 0 steps it can take (found false).
func (ds *diagStops) run(x, y, d int) (steps int, found bool) {
	sl, line, back := ds.diagonal(x, y, d)
	words := ds.slope[sl]
	band := 4 * ds.n // from one band's block of a diagonal to the next's
	if back == 0 {   // toward larger x
		sm := ^uint64(0) << (x & 63) << 1 // stops after x
		wm := ^uint64(0) << (x & 63)      // walls from x: the step from x on
		for k, i := x>>6, 4*((x>>6)*ds.n+line); i < len(words); k, i = k+1, i+band {
			s, w := words[i]&sm, words[i+2]&wm
			if s|w != 0 {
				ts, tw := bits.TrailingZeros64(s), bits.TrailingZeros64(w)
				if ts <= tw {
					return k<<6 + ts - x, true
				}
				return k<<6 + tw - x, false
			}
			sm, wm = ^uint64(0), ^uint64(0)
		}
		return 0, false // not reached: the border is a wall
	}
	// Toward smaller x: the step from x to x−1 is the wall bit at x−1.
	m := ^uint64(0) >> (63 - (x-1)&63)
	for k, i := (x-1)>>6, 4*(((x-1)>>6)*ds.n+line); i >= 0; k, i = k-1, i-band {
		s, w := words[i+1]&m, words[i+2]&m
		if s|w != 0 {
			hs, hw := 63-bits.LeadingZeros64(s), 63-bits.LeadingZeros64(w)
			if hs > hw {
				return x - (k<<6 + hs), true
			}
			return x - (k<<6 + hw) - 1, false
		}
		m = ^uint64(0)
	}
	return 0, false // not reached: the border is a wall
}

// bytes is the size of the bitsets.
func (ds *diagStops) bytes() int {
	n := 0
	for _, w := range ds.slope {
		n += 8 * len(w)
	}
	return n
}

func (ds *diagStops) clone() diagStops {
	c := diagStops{n: ds.n, ph: ds.ph}
	for k := range ds.slope {
		c.slope[k] = append([]uint64(nil), ds.slope[k]...)
	}
	return c
}
