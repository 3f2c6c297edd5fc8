package navmesh

import (
	"image"
	"math"
	"slices"
)

// Landmarks across edits. The landmarks' bound on the distance d(v, t)
// from a point v to the goal t is the triangle inequality's through each
// landmark L: d(v, t) ≥ d(L, t) − d(L, v), and ≥ d(L, v) − d(L, t). Where
// an edit only blocks cells, every path of the new map is one of the old,
// so d_new(v, t) ≥ d_old(v, t), and the old metric's triangle inequality
// gives d_new(v, t) ≥ d_old(L, t) − d_old(L, v): the distances measured on
// the old map still bound the new one's, if looser where the edit made
// paths longer. A vertex of the new mesh where the old one had a vertex
// keeps that vertex's distances (they are distances of the point); one
// where it had none gets none, as a wall corner the edit made. A point in
// a convex polygon of the new mesh is seen from its corners on the new
// map, so on the old one too, which is all that the goal's and start's
// bounds (pointBounds) take.
//
// So [Mesh.Update] keeps the landmarks for as long as every walkable cell
// was walkable where they were measured: walls put up, and taken down
// again, leave them in place; an edit that opens a cell that was blocked
// then drops them, as a path through it may be shorter than they say.

// carry returns the landmarks of nm, the mesh that Update spliced from m,
// whose landmarks lm are, by emitting tile rows b0 to b1 again, with vid
// the stitcher's numbering of the band's corners: nil when lm is nil,
// when a cell of changed is walkable in nm but was not where lm was
// measured, when the edit took a landmark's corner away, or when the
// grids differ in size. The rows outside the band keep their chunks of lm; the band
// gets new ones.
func (lm *landmarks) carry(m, nm *Mesh, b0, b1 int, vid []int32, changed image.Rectangle) *landmarks {
	if lm == nil {
		return nil
	}
	ref := lm.walk
	if ref == nil {
		ref = slices.Clone(m.walk) // m's may go to Recycle
	}
	if len(ref) != len(nm.walk) {
		return nil
	}
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		for x := changed.Min.X; x < changed.Max.X; x++ {
			c := y*m.w + x
			if nm.walk[c/64]&^ref[c/64]&(1<<(c%64)) != 0 {
				return nil // opened where it was blocked
			}
		}
	}
	oV, nV := m.tiles.rowVert, nm.tiles.rowVert
	old, oblk := lm.d, lm.blk
	if !slices.Equal(lm.from, oV) {
		// Not a chunk a row of m's tiles: cannot happen, as the landmarks
		// of a tiled mesh are cut by rows (byRows) when measured or read,
		// and Update splices only a mesh whose rows are numbered.
		return nil
	}
	k := lm.k
	rows := len(nV) - 1
	nd, nblk := make([][]float32, rows), make([]*lmBlock, rows)
	copy(nd[:b0], old[:b0])
	copy(nd[b1+1:], old[b1+1:])
	copy(nblk[:b0], oblk[:b0])
	copy(nblk[b1+1:], oblk[b1+1:])
	rec := m.tiles.rec
	for r := b0; r <= b1; r++ {
		b := rec.takeBlock(int(nV[r+1]-nV[r]) * k)
		fillNaN(b.d)
		nd[r], nblk[r] = b.d, b
	}
	stride := int32(m.w + 1)
	base := int32(b0*m.tiles.size) * stride // the corner vid[0] numbers
	// newID returns the vertex of nm at old band vertex u's point, −1 where
	// there is none.
	newID := func(u int32) int32 {
		p := m.verts[u]
		v := vid[int32(p[1])*stride+int32(p[0])-base]
		if v < nV[b0] || v >= nV[b1+1] {
			return -1
		}
		return v
	}
	nr := b0 // the band row of the last vertex copied: mostly the next one's
	for r := b0; r <= b1; r++ {
		for u := oV[r]; u < oV[r+1]; u++ {
			v := newID(u)
			if v < 0 {
				continue
			}
			if v < nV[nr] || v >= nV[nr+1] {
				// v is in the band, perhaps in another row than u.
				nr, _ = slices.BinarySearch(nV[b0:b1+2], v+1)
				nr += b0 - 1
			}
			copy(nd[nr][int(v-nV[nr])*k:], old[r][int(u-oV[r])*k:int(u-oV[r]+1)*k])
		}
	}
	at := make([]int32, len(lm.at))
	for i, u := range lm.at {
		switch {
		case u < oV[b0]:
			at[i] = u
		case u >= oV[b1+1]:
			at[i] = u + nV[b1+1] - oV[b1+1]
		default:
			if at[i] = newID(u); at[i] < 0 {
				for r := b0; r <= b1; r++ {
					rec.putBlock(nblk[r])
				}
				return nil // the edit took the landmark's corner away
			}
		}
	}
	out := &landmarks{k: k, at: at, from: nV, d: nd, blk: nblk, walk: ref}
	out.setFirst()
	rec.hold(out, 1)
	return out
}

// fillNaN sets every element of d to NaN, by doubling copies, which run
// at the speed of memmove rather than of a loop of stores.
func fillNaN(d []float32) {
	if len(d) == 0 {
		return
	}
	d[0] = float32(math.NaN())
	for n := 1; n < len(d); n *= 2 {
		copy(d[n:], d[:n])
	}
}

// byRows returns lm, of a tiled mesh whose tile rows' vertices start at
// rowVert, with its distances in one chunk a row: the same array, cut
// into a block a row, so that once an Update has built a row again and
// no mesh reads the row's block, that block is a spare for a later
// Update's band instead of fresh memory (the array as a whole is never
// one: see lmBlock). It returns lm when lm is nil or chunked already, and
// when the tiling numbers no rows (a mesh ReadFor read numbered otherwise
// than its tiles, which Update stitches again whole).
func (lm *landmarks) byRows(rowVert []int32) *landmarks {
	if lm == nil || len(lm.d) != 1 || len(rowVert) < 2 || int(rowVert[len(rowVert)-1])*lm.k != len(lm.d[0]) {
		return lm
	}
	rows := len(rowVert) - 1
	out := &landmarks{k: lm.k, at: lm.at, from: rowVert, d: make([][]float32, rows), blk: make([]*lmBlock, rows), walk: lm.walk}
	for r := range rows {
		lo, hi := int(rowVert[r])*lm.k, int(rowVert[r+1])*lm.k
		out.d[r] = lm.d[0][lo:hi:hi]
		out.blk[r] = &lmBlock{d: out.d[r], refs: 1}
	}
	out.setFirst()
	return out
}

// lmBlock is an array that chunks of landmark distances lie in, shared by
// the landmarks of meshes that Updates made one from another. refs counts
// the landmarks of those meshes not yet recycled whose chunks lie in it
// (under their recycler's mu; a mesh that holds neither its arrays nor
// its landmarks, own and lmHeld false, never gives its count back, so its
// blocks are never reused); at 0 no mesh in use reads it, and unless it
// is whole it goes
// to the recycler for a row of a later Update's band, which then writes
// its distances into memory that is already the process's instead of
// fresh pages (on the 4096² demo world with 16 landmarks, some 2 MB a
// row).
type lmBlock struct {
	d    []float32
	refs int32
	// whole marks the array of a mesh's landmarks as measured or read,
	// for all its vertices, which is never kept as a spare: a band row
	// needs a small part of it.
	whole bool
}

// maxSpareBlocks is the most blocks a recycler keeps: one a tile row of
// a few bands.
const maxSpareBlocks = 8

// takeBlock returns a block of n distances, whatever they hold: a spare
// one with room when r has one, else new; its refs are 0.
func (r *recycler) takeBlock(n int) *lmBlock {
	if r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		for i, b := range r.blocks {
			if cap(b.d) >= n {
				r.blocks = slices.Delete(r.blocks, i, i+1)
				b.d, b.refs = b.d[:n], 0
				return b
			}
		}
	}
	return &lmBlock{d: make([]float32, n, n+n/8+64)} // room for a row that grows
}

// putBlock gives r block b, which no landmarks hold, for a later Update.
func (r *recycler) putBlock(b *lmBlock) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keepBlock(b)
}

// keepBlock keeps b among r's spare blocks, the largest ones, under r.mu;
// the whole ones it leaves to the garbage collector.
func (r *recycler) keepBlock(b *lmBlock) {
	if b.whole {
		return
	}
	r.blocks = append(r.blocks, b)
	if len(r.blocks) > maxSpareBlocks {
		i := 0
		for j, c := range r.blocks {
			if cap(c.d) < cap(r.blocks[i].d) {
				i = j
			}
		}
		r.blocks = slices.Delete(r.blocks, i, i+1)
	}
}

// hold adds by (1 or −1) to the refs of each block that lm's chunks lie
// in, once a block; a block whose refs reach 0 goes to r's spares.
func (r *recycler) hold(lm *landmarks, by int32) {
	if r == nil || lm == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, b := range lm.blk {
		if slices.Contains(lm.blk[:i], b) {
			continue
		}
		if b.refs += by; b.refs == 0 {
			r.keepBlock(b)
		}
	}
}
