package grid

import (
	"math/bits"

	"github.com/cairn-nav/cairn/internal/bitset"
)

// Bitsets of free cells for the jump point scans, which read 64 cells at a
// time (as in Harabor & Grastien's block-based jump point search). Bit i of
// row r is padded cell (i, r); bit i of column c is padded cell (c, i). Bits
// past the padded width or height are 0 (blocked), like the border.
//
// Over them lie the blocks of 8×8 padded cells, block (U, V) holding the
// cells (8U…8U+7, 8V…8V+7), a bit each, set when all 64 cells are free:
// bit U of block row V in blkRows, and bit V of block column U in blkCols,
// so that [Grid.LineOfSight] can pass over eight rows or columns of open
// ground at once. A block past the padded grid, in part or whole, is not
// free.
type bitsets struct {
	rw, cw int      // words per row, per column
	rows   []uint64 // ph rows of rw words
	cols   []uint64 // pw columns of cw words
	// Words per block row and per block column, and the blocks' bits.
	brw, bcw         int
	blkRows, blkCols []uint64
}

// blockSide is the side of the blocks of bitsets, in cells (a byte of a row
// word).
const blockSide = 8

func (g *Grid) buildBits() {
	ph := len(g.free) / g.pw
	b := &g.bits
	b.rw = (g.pw + 63) / 64
	b.cw = (ph + 63) / 64
	b.rows = make([]uint64, ph*b.rw)
	b.cols = make([]uint64, g.pw*b.cw)
	for y := range ph {
		for x := 0; x < g.pw; x++ {
			if g.free[y*g.pw+x] {
				b.rows[y*b.rw+x>>6] |= 1 << (x & 63)
				b.cols[x*b.cw+y>>6] |= 1 << (y & 63)
			}
		}
	}
	b.buildBlocks(g.pw, ph)
}

// buildBlocks sets every block's bit from the rows; ph is the padded
// height and pw the padded width.
func (b *bitsets) buildBlocks(pw, ph int) {
	nbx, nby := (pw+blockSide-1)/blockSide, (ph+blockSide-1)/blockSide
	b.brw, b.bcw = (nbx+63)/64, (nby+63)/64
	b.blkRows = make([]uint64, nby*b.brw)
	b.blkCols = make([]uint64, nbx*b.bcw)
	for by := range nby {
		for bx := range nbx {
			b.setBlock(bx, by, ph)
		}
	}
}

// setBlock sets or clears the bit of block (bx, by) from the rows.
func (b *bitsets) setBlock(bx, by, ph int) {
	full := (by+1)*blockSide <= ph
	for y := by * blockSide; full && y < (by+1)*blockSide; y++ {
		full = b.rows[y*b.rw+bx>>3]>>((bx&7)*blockSide)&0xff == 0xff
	}
	r, c := &b.blkRows[by*b.brw+bx>>6], &b.blkCols[bx*b.bcw+by>>6]
	if full {
		*r |= 1 << (bx & 63)
		*c |= 1 << (by & 63)
	} else {
		*r &^= 1 << (bx & 63)
		*c &^= 1 << (by & 63)
	}
}

func (b *bitsets) row(y int) []uint64 { return b.rows[y*b.rw : (y+1)*b.rw] }
func (b *bitsets) col(x int) []uint64 { return b.cols[x*b.cw : (x+1)*b.cw] }

// stopAfter returns the smallest i > from at which line r is blocked, or a
// side line s1 or s2 turns from blocked (at i−1) to free (at i): the first
// dead end or forced neighbour of a run toward larger indices. The run always
// stops, at the latest at the blocked border.
func stopAfter(r, s1, s2 []uint64, from int) int {
	k := (from + 1) >> 6
	mask := ^uint64(0) << ((from + 1) & 63)
	for ; k < len(r); k++ {
		var c1, c2 uint64
		if k > 0 {
			c1, c2 = s1[k-1]>>63, s2[k-1]>>63
		}
		stop := ^r[k] | s1[k]&^(s1[k]<<1|c1) | s2[k]&^(s2[k]<<1|c2)
		if stop &= mask; stop != 0 {
			return k<<6 + bits.TrailingZeros64(stop)
		}
		mask = ^uint64(0)
	}
	return len(r) << 6 // not reached: the border is blocked
}

// stopBefore is stopAfter toward smaller indices: the largest i < from at
// which r is blocked, or s1 or s2 is free at i and blocked at i+1.
func stopBefore(r, s1, s2 []uint64, from int) int {
	k := (from - 1) >> 6
	mask := ^uint64(0) >> (63 - (from-1)&63)
	for ; k >= 0; k-- {
		var c1, c2 uint64
		if k+1 < len(r) {
			c1, c2 = s1[k+1]<<63, s2[k+1]<<63
		}
		stop := ^r[k] | s1[k]&^(s1[k]>>1|c1) | s2[k]&^(s2[k]>>1|c2)
		if stop &= mask; stop != 0 {
			return k<<6 + 63 - bits.LeadingZeros64(stop)
		}
		mask = ^uint64(0)
	}
	return -1 // not reached: the border is blocked
}

// scanStop runs the straight scan from padded cell (x, y) in direction d on
// the bitsets: it returns the row or column the scan runs along, the
// cell's position on it, and the position where the scan stops.
func (b *bitsets) scanStop(x, y, d int) (line []uint64, from, stop int) {
	var s1, s2 []uint64
	if d == dirE || d == dirW {
		line, s1, s2, from = b.row(y), b.row(y-1), b.row(y+1), x
	} else {
		line, s1, s2, from = b.col(x), b.col(x-1), b.col(x+1), y
	}
	if d == dirE || d == dirS {
		return line, from, stopAfter(line, s1, s2, from)
	}
	return line, from, stopBefore(line, s1, s2, from)
}

func bitSet(words []uint64, i int) bool { return words[i>>6]&(1<<(i&63)) != 0 }

// RowBits returns the passability of the 64 cells (x, y) to (x+63, y) as
// the bits of one word: bit i is set when cell (x+i, y) is free. Cells
// outside the grid read as blocked. With [Grid.ColumnBits] it lets a
// search scan runs of cells a word at a time (package hpa's jump point
// search inside clusters does). It is O(1); the caller holds the grid's
// read lock (see [Grid.RLock]) if the grid may be edited meanwhile.
func (g *Grid) RowBits(x, y int) uint64 {
	if y < 0 || y >= g.h {
		return 0
	}
	b := &g.bits
	return bitset.Word(b.rows[(y+1)*b.rw:(y+2)*b.rw], x+1)
}

// ColumnBits returns the passability of the 64 cells (x, y) to (x, y+63) as
// the bits of one word: bit i is set when cell (x, y+i) is free, cells
// outside the grid blocked, as [Grid.RowBits] does along a row.
func (g *Grid) ColumnBits(x, y int) uint64 {
	if x < 0 || x >= g.w {
		return 0
	}
	b := &g.bits
	return bitset.Word(b.cols[(x+1)*b.cw:(x+2)*b.cw], y+1)
}
