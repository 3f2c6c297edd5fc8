package navmesh

import "slices"

// PairedAsWhole reports whether m's neighbours across edges are those that
// pairing all its edges at once (link, with tri.PairEdges) finds: the plain
// baseline of the tiled meshes' pairing tile by tile and line by line.
func PairedAsWhole(m *Mesh) bool {
	c := *m
	c.link()
	return slices.Equal(c.enb, m.enb) && slices.Equal(c.etwin, m.etwin) && c.nport == m.nport
}

// SameIndex reports whether meshes a and b locate points through the same
// buckets, each listing the same polygons in the same order.
func SameIndex(a, b *Mesh) bool {
	x, okx := a.loc.(*polyIndex)
	y, oky := b.loc.(*polyIndex)
	if !okx || !oky {
		return okx == oky
	}
	if x.NX != y.NX || x.NY != y.NY || x.box != y.box {
		return false
	}
	for i := range x.NX * x.NY {
		if !slices.Equal(x.Bucket(i), y.Bucket(i)) {
			return false
		}
	}
	return true
}

// SamePruning reports whether meshes a and b have the same bridges and
// numbers, and the same components.
func SamePruning(a, b *Mesh) bool {
	if !slices.Equal(a.bridge, b.bridge) || !slices.Equal(a.pre, b.pre) || !slices.Equal(a.end, b.end) || len(a.polys) != len(b.polys) {
		return false
	}
	if (a.tree == nil) != (b.tree == nil) {
		return false
	}
	if x, y := a.tree, b.tree; x != nil && (!slices.Equal(x.pre, y.pre) || !slices.Equal(x.end, y.end) ||
		!slices.Equal(x.parent, y.parent) || !slices.Equal(x.up, y.up) || !slices.Equal(x.comp, y.comp)) {
		return false
	}
	for p := range a.polys {
		if a.component(PolyID(p)) != b.component(PolyID(p)) {
			return false
		}
	}
	return true
}

// PoisonSpare fills the arrays that the next Update of m's line would take
// from a recycled mesh (Mesh.Recycle), to their capacity, with values that
// make a mesh wrong wherever they are left, and reports whether there were
// any.
func PoisonSpare(m *Mesh) bool {
	s := m.tiles.rec.spare
	if s == nil {
		return false
	}
	fill := func(n int, set func(i int)) {
		for i := range n {
			set(i)
		}
	}
	fill(cap(s.verts), func(i int) { s.verts[:cap(s.verts)][i] = [2]float64{-3, 1e9} })
	fill(cap(s.reflex), func(i int) { s.reflex[:cap(s.reflex)][i] = true })
	fill(cap(s.polys), func(i int) { s.polys[:cap(s.polys)][i] = poly{e0: -5, ne: 9, comp: -5} })
	fill(cap(s.area), func(i int) { s.area[:cap(s.area)][i] = 0xAA })
	fill(cap(s.bridge), func(i int) { s.bridge[:cap(s.bridge)][i] = bridgePocket })
	for _, a := range [][]int32{s.ev, s.etwin, s.pre, s.end} {
		fill(cap(a), func(i int) { a[:cap(a)][i] = -5 })
	}
	fill(cap(s.enb), func(i int) { s.enb[:cap(s.enb)][i] = -5 })
	fill(cap(s.walk), func(i int) { s.walk[:cap(s.walk)][i] = 0x5555555555555555 })
	return true
}

// PoisonLandmarkSpares fills the spare blocks of landmark distances that
// m's line of meshes keeps with distances far too large, which a mesh
// still reading one would take for its own, and returns how many it has.
func PoisonLandmarkSpares(m *Mesh) int {
	r := m.tiles.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.blocks {
		for i := range b.d[:cap(b.d)] {
			b.d[:cap(b.d)][i] = 1e30
		}
	}
	return len(r.blocks)
}

// LandmarkChunks returns the chunks m's landmark distances lie in: one for
// a mesh measured or read whole, one a tile row for a tiled one.
func LandmarkChunks(m *Mesh) int {
	if m.lm == nil {
		return 0
	}
	return len(m.lm.d)
}

// SpareLandmarkBlocks returns the spare arrays of landmark distances that
// m's recycler keeps for later Updates.
func SpareLandmarkBlocks(m *Mesh) int {
	r := m.tiles.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.blocks)
}

// TileRows returns the rows of tiles of m.
func TileRows(m *Mesh) int { return m.tiles.ny }

// SpliceKept returns the tile rows that the splice which made m took from
// its spare arrays, those above above and from below on, and m's rows.
func SpliceKept(m *Mesh) (above, below, rows int) {
	return m.lin.ka, m.lin.kb, m.tiles.ny
}
