package navmesh

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
)

// Update returns the mesh that [FromGrid] builds from g with m's options,
// for a mesh m that FromGrid built with [Options.TileSize] above 0 (and
// not Rectangles) from an earlier state of g, where changed holds every
// cell whose passability or area type changed since. The new mesh has the same
// polygons, in the same order, and answers every query as FromGrid's
// would; m is not changed, so queries running on it may go on.
//
// Update builds again only the tiles that changed overlaps, as their
// polygons depend on their own cells alone, and shares the other tiles'
// polygons with m. It stitches again only the band of tile rows that holds
// the changed tiles, and the row above (below) them when the rebuilt
// tiles' corners on the line between changed (see splice): the rows above
// and below the band are copied from m, those below with their IDs moved,
// and only the pieces on the band's lines are paired again. The point
// index is spliced too, on a goroutine of its own: the band's buckets get
// its polygons from the bucket lists each tile keeps. The bridges and
// components come from the tiles' own (tileprune.go): only the links
// across the band's tile lines are found again, and the small graph of
// the tiles' groups searched again, unless the band's groups and links
// are m's (an edit that splits and joins no group), when m's search tree
// is copied instead (sameGroups). The copies are linear in the size of
// the mesh, the band in its width (see BenchmarkUpdate and
// BenchmarkUpdateWorld for figures); they go into the arrays of a mesh
// given to [Mesh.Recycle], when there is one, and into new memory else,
// which on a big map costs more than the copies. When the recycled mesh
// is the one an Update spliced m from, the rows it holds as the new mesh
// does are not copied (see Recycle). A cell outside changed
// that did change is not seen, and the mesh is then wrong for it. When
// changed holds no cell of g, Update returns m itself. A mesh that ReadFor
// read with its vertices numbered otherwise than FromGrid numbers them is
// stitched again whole.
//
// The new mesh keeps m's landmarks ([Mesh.WithLandmarks]) while every
// walkable cell of g was walkable where they were measured: walls put up,
// and taken down again, leave them guiding the exact search. Each vertex
// keeps the distances of the vertex of m at its point; the band's new
// vertices get none. The rows outside the band share m's distances, so
// the landmarks cost an Update a copy of the band's alone (with 16
// landmarks on the 4096² demo world, some 2 MB a tile row). An edit that
// frees a cell blocked then, or takes away a landmark's corner, or a mesh
// stitched again whole, gives a mesh without landmarks.
//
// It returns an error for a mesh that is not tiled (or that [ReadFor]
// read without Options.TileSize), a nil grid, or one of another size.
// It is safe for concurrent use, as it only reads m, and it holds g's read
// lock ([grid.Grid.RLock]) while it reads g, so it may run on a goroutine
// of its own while the game edits g: a [grid.Grid.SetCells] waits for it,
// and queries on m go on. The caller must not hold g's read lock itself.
func (m *Mesh) Update(g *grid.Grid, changed image.Rectangle) (*Mesh, error) {
	t := m.tiles
	switch {
	case t == nil:
		return nil, errors.New("navmesh: Update needs a mesh built by FromGrid with a TileSize, or read by ReadFor with one")
	case g == nil:
		return nil, errors.New("navmesh: nil grid")
	case g.Width() != m.w || g.Height() != m.h:
		return nil, fmt.Errorf("navmesh: grid of %d×%d cells for a mesh of %d×%d", g.Width(), g.Height(), m.w, m.h)
	}
	changed = changed.Intersect(g.Bounds())
	if changed.Empty() {
		return m, nil
	}
	g.RLock()
	defer g.RUnlock()
	sa, sc := t.rec.take(), t.rec.takeScratch()
	defer t.rec.putScratch(sc)
	walk := reuse(sa.walk, len(m.walk), len(m.walk))
	copy(walk, m.walk)
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		for x := changed.Min.X; x < changed.Max.X; x++ {
			k := y*m.w + x
			walk[k/64] &^= 1 << (k % 64)
			if g.Passable(image.Pt(x, y)) {
				walk[k/64] |= 1 << (k % 64)
			}
		}
	}
	nt := &tiling{size: t.size, nx: t.nx, ny: t.ny, tiles: reuse(sa.tiles, len(t.tiles), len(t.tiles)), rec: t.rec}
	copy(nt.tiles, t.tiles)
	r0, r1 := changed.Min.Y/t.size, (changed.Max.Y-1)/t.size
	tx0, tx1 := changed.Min.X/t.size, (changed.Max.X-1)/t.size
	for ty := r0; ty <= r1; ty++ {
		for tx := tx0; tx <= tx1; tx++ {
			nt.tiles[ty*t.nx+tx] = buildTile(g, t.tileRect(tx, ty, m.w, m.h))
		}
	}
	if m.kind != convexGridMesh || t.rowPoly == nil || nt.corners() == 0 {
		return nt.mesh(m.w, m.h, walk), nil
	}
	// The band: the rows built again, and the row above (below) them
	// when their corners on the line between changed.
	b0, b1 := r0, r1
	stride := int32(m.w + 1)
	if r0 > 0 && !sameOnLine(t, nt, r0, tx0, tx1, r0, stride) {
		b0--
	}
	if r1+1 < t.ny && !sameOnLine(t, nt, r1, tx0, tx1, r1+1, stride) {
		b1++
	}
	nm := m.splice(nt, b0, b1, walk, sa, sc)
	nm.lm = m.lm.carry(m, nm, b0, b1, sc.vid, changed)
	carryCorridorTables(m, nm, r0, r1, tx0, tx1)
	return nm, nil
}

// sameOnLine reports whether tiles tx0 to tx1 of row r have the same
// corners (numbered y·stride + x) in t and u on the horizontal line above
// tile row l, r or r+1. Then the row across that line has its polygons,
// edges and vertices alike with either, as the row's corners on the line
// are all that its stitch takes from them (stitcher.between).
func sameOnLine(t, u *tiling, r, tx0, tx1, l int, stride int32) bool {
	y := int32(l * t.size)
	on := func(dst []int32, tp *tilePolys) []int32 {
		for _, c := range tp.corner {
			if c/stride == y {
				dst = append(dst, c)
			}
		}
		slices.Sort(dst)
		return slices.Compact(dst)
	}
	var a, b []int32
	for k := r*t.nx + tx0; k <= r*t.nx+tx1; k++ {
		a, b = on(a[:0], &t.tiles[k]), on(b[:0], &u.tiles[k])
		if !slices.Equal(a, b) {
			return false
		}
	}
	return true
}

// splice returns the stitch of the tiles nt, those of m's but for some
// tiles of rows b0 to b1 (the band) built again, with walkable cells walk.
// The band holds the rows built again and, where those have other corners
// on the line they share with the row next to them, that row too. It
// emits again only the band and copies the rows above and below it from
// m: those above as they are, as the polygons, edges and vertices before
// the band are numbered alike; those below with their IDs moved by what
// the band gained or lost. A vertex of the band that the rows below use
// lies on the band's last line, and is found there by its corner. Only the
// pieces on the band's first and last lines are paired again across them.
// The mesh is the one nt.mesh makes, array for array, and so are its
// point index (spliceIndex) and its bridges and components (label). Its
// arrays are sa's where they have room; sc is the update's scratch memory.
func (m *Mesh) splice(nt *tiling, b0, b1 int, walk []uint64, sa *spareArrays, sc *updateScratch) *Mesh {
	ny := nt.ny
	sp := &splicing{m: m, ot: m.tiles, nt: nt, sa: sa, sc: sc, b0: b0, b1: b1, kb: ny}
	nt.setGroupBases()
	if m.tiles.groupBase != nil {
		sp.dC = nt.groupBase[(b1+1)*nt.nx] - m.tiles.groupBase[(b1+1)*nt.nx]
	}
	sp.s = newStitcher(nt, m.w, m.h, b0, b1)
	sp.nm = &Mesh{kind: convexGridMesh, w: m.w, h: m.h, walk: walk, tiles: nt, own: true}
	sp.s.m = sp.nm
	sp.s.vid = sc.vid
	sp.s.numbering(int32(b0)*sp.s.size, min(int32(b1+1)*sp.s.size, int32(m.h)))
	sc.vid = sp.s.vid
	nt.rowPoly, nt.rowEdge, nt.rowVert = make([]int32, ny+1), make([]int32, ny+1), make([]int32, ny+1)
	sp.ka, _ = sp.keptRows()
	sp.above()
	sp.s.emitRows(b0, b1)
	// What the band gained, by which the IDs below it move.
	oP, oE, oV := sp.ot.rowPoly, sp.ot.rowEdge, sp.ot.rowVert
	sp.dP, sp.dE, sp.dV = int32(len(sp.nm.polys))-oP[b1+1], int32(len(sp.nm.ev))-oE[b1+1], int32(len(sp.nm.verts))-oV[b1+1]
	if b1+1 < ny {
		_, sp.kb = sp.keptRows()
		sp.below()
	}
	nm := sp.nm
	nm.lin = lineage{gen: lineages.Add(1), parent: m.lin.gen, b0: b0, b1: b1, dP: sp.dP, dE: sp.dE, dV: sp.dV, dC: sp.dC, ka: sp.ka, kb: sp.kb}
	if nm.area != nil && !slices.ContainsFunc(nm.area, func(a uint8) bool { return a != grid.AreaGround }) {
		nm.area = nil // no polygon has an area but ground any more
	}
	ox, ok := m.loc.(*polyIndex)
	var index chan *polyIndex
	if ok && m.tree != nil {
		// The point index needs only the rows' numbering, now set: it is
		// spliced on a goroutine of its own (on a second core, if there is
		// one) while the neighbours, corners and labels are set.
		index = make(chan *polyIndex, 1)
		go func() { index <- spliceIndex(ox, sp.ot, nt, b0, b1, sa.index) }()
	}
	pairLine(sp.s.line, sp.s.twin, sp.s.tw0)
	sc.twin = sp.s.twin
	sp.neighbours()
	sp.corners()
	if index == nil {
		nm.finishTiled()
		return nm
	}
	sp.label()
	nm.loc = <-index
	nm.areaCorners()
	return nm
}

// splicing is the state of one splice: mesh m with tiles ot made into nm
// with tiles nt by emitting rows b0 to b1 again (the band), and what the
// band's polygons, edges and vertices gained: dP, dE and dV, by which the
// IDs below the band move.
type splicing struct {
	m, nm      *Mesh
	ot, nt     *tiling
	sa         *spareArrays // a recycled mesh's arrays, which nm's may take
	sc         *updateScratch
	s          *stitcher
	b0, b1     int
	dP, dE, dV int32
	dC         int32 // what the band's groups gained (tileprune.go)
	// The tile rows above ka and from kb on that the spare arrays hold
	// already, where an array's memory is its spare's (keptRows).
	ka, kb int
}

// slack is the capacity of an array of nm for n entries of m's: a little
// more, for a band that grows.
func slack(n int) int { return n + n/64 + 64 }

// above copies the rows above the band and sets the window of edges whose
// neighbours are found again: the band's, and the pieces of the rows next
// to it on the lines they share with it; the window's other edges are
// marked −2, kept as they are. The band's first line is numbered as the
// row above left it.
func (sp *splicing) above() {
	m, nm, s, b0 := sp.m, sp.nm, sp.s, sp.b0
	oP, oE, oV := sp.ot.rowPoly, sp.ot.rowEdge, sp.ot.rowVert
	copy(sp.nt.rowPoly, oP[:b0])
	copy(sp.nt.rowEdge, oE[:b0])
	copy(sp.nt.rowVert, oV[:b0])
	sa, ka := sp.sa, sp.ka
	nm.verts = reuse(sa.verts, len(m.verts), slack(len(m.verts)))[:oV[b0]]
	copyKept(nm.verts, sa.verts, m.verts, int(oV[ka]), int(oV[b0]))
	nm.ev = reuse(sa.ev, len(m.ev), slack(len(m.ev)))[:oE[b0]]
	copyKept(nm.ev, sa.ev, m.ev, int(oE[ka]), int(oE[b0]))
	nm.polys = reuse(sa.polys, len(m.polys), slack(len(m.polys)))[:oP[b0]]
	copyKept(nm.polys, sa.polys, m.polys, int(oP[ka]), int(oP[b0]))
	if m.area != nil {
		nm.area = append(reuse(sa.area, len(m.polys), cap(nm.polys))[:0], m.area[:oP[b0]]...)
	}
	w0 := oE[max(b0-1, 0)]
	s.tw0 = w0
	s.twin = reuse(sp.sc.twin, int(oE[b0]-w0), int(oE[b0]-w0)+slack(int(oE[min(sp.b1+2, sp.nt.ny)]-oE[b0])))
	if b0 > 0 {
		ytop := s.vy0
		for v := oV[b0-1]; v < oV[b0]; v++ {
			if p := m.verts[v]; int32(p[1]) == ytop {
				s.vid[int32(p[0])] = v // first used above the band
			}
		}
		s.boundary(m, oP[b0-1], oP[b0], ytop)
	}
}

// below copies the rows below the band, their IDs moved, and adds the
// pieces of the row next to the band on its last line to the window.
func (sp *splicing) below() {
	m, nm, s, nt, b0, b1 := sp.m, sp.nm, sp.s, sp.nt, sp.b0, sp.b1
	oP, oE, oV := sp.ot.rowPoly, sp.ot.rowEdge, sp.ot.rowVert
	for r := b1 + 1; r <= nt.ny; r++ {
		nt.rowPoly[r], nt.rowEdge[r], nt.rowVert[r] = oP[r]+sp.dP, oE[r]+sp.dE, oV[r]+sp.dV
	}
	sa, kb := sp.sa, sp.kb
	// The rows from kb on are in the spare arrays already, where nm's
	// arrays have their memory: they are copied up to there (in m's
	// numbering) and then taken as they are. Both bands' gains then sum
	// to nothing, so nv is the spare's own length and the append stays in
	// its memory (keeping rows with other gains would need the tail moved).
	end := keptFrom(nm.verts, sa.verts, kb, nt.ny, int(oV[kb]), len(m.verts))
	nv := len(nm.verts) + len(m.verts) - int(oV[b1+1])
	nm.verts = append(nm.verts, m.verts[oV[b1+1]:end]...)[:nv]
	src := m.polys[oP[b1+1]:]
	k := len(nm.polys)
	nm.polys = slices.Grow(nm.polys, len(src))[:k+len(src)]
	end = keptFrom(nm.polys, sa.polys, kb, nt.ny, int(oP[kb]), len(m.polys))
	for i, p := range m.polys[oP[b1+1]:end] {
		nm.polys[k+i] = poly{e0: p.e0 + sp.dE, ne: p.ne, comp: p.comp + sp.dC}
	}
	switch {
	case m.area != nil: // then so has nm, from the rows above
		nm.area = append(nm.area, m.area[oP[b1+1]:]...)
	case nm.area != nil:
		nm.area = append(nm.area, make([]uint8, len(m.polys)-int(oP[b1+1]))...)
	}
	// The row next to the band may use vertices of the band's last line;
	// the rows below it use vertices of their own, which all move.
	first, band, next := oV[b1+1], oV[b0], oE[min(b1+2, nt.ny)]
	for _, v := range m.ev[oE[b1+1]:next] {
		switch {
		case v >= first:
			v += sp.dV
		case v >= band: // on the band's last line
			p := m.verts[v]
			v = s.vertex(int32(p[1])*s.stride + int32(p[0]))
		}
		nm.ev = append(nm.ev, v)
	}
	k = len(nm.ev)
	nm.ev = slices.Grow(nm.ev, len(m.ev)-int(next))[:k+len(m.ev)-int(next)]
	end = keptFrom(nm.ev, sa.ev, kb, nt.ny, int(oE[kb]), len(m.ev))
	bucket.Moved(nm.ev[k:k+end-int(next)], m.ev[next:end], sp.dV)
	s.twin = append(s.twin, make([]int32, oE[b1+2]-oE[b1+1])...)
	s.boundary(nm, oP[b1+1]+sp.dP, oP[b1+2]+sp.dP, s.vy1)
}

// neighbours sets nm's neighbours across edges: those of m outside the
// window and of the edges it keeps (moved below the band), those that the
// window's twins give in it; and counts the portals.
func (sp *splicing) neighbours() {
	m, nm, s, nt, b0, b1 := sp.m, sp.nm, sp.s, sp.nt, sp.b0, sp.b1
	oE := sp.ot.rowEdge
	ne := int32(len(nm.ev))
	w0, wEnd := s.tw0, s.tw0+int32(len(s.twin))
	nm.enb, nm.etwin = reuse(sp.sa.enb, int(ne), slack(int(ne))), reuse(sp.sa.etwin, int(ne), slack(int(ne)))
	ka, kb := int(oE[sp.ka]), sp.kb
	copyKept(nm.enb, sp.sa.enb, m.enb, ka, int(w0))
	copyKept(nm.etwin, sp.sa.etwin, m.etwin, ka, int(w0))
	// keep sets edge e's neighbour as m has it: the same edge above the
	// band, the edge dE before it below, whose polygon moves by dP.
	keep := func(e int32) {
		o, d := e, PolyID(0)
		if e >= oE[b0] {
			o, d = e-sp.dE, PolyID(sp.dP)
		}
		nb := m.enb[o]
		if nb >= 0 {
			nb += d
		}
		nm.enb[e], nm.etwin[e] = nb, m.etwin[o]
	}
	// The edges after the window, all below the band: their twins are
	// the same, their neighbours move.
	if wEnd < ne {
		end := keptFrom(nm.etwin, sp.sa.etwin, kb, nt.ny, int(nt.rowEdge[kb]), int(ne))
		copy(nm.etwin[wEnd:end], m.etwin[wEnd-sp.dE:int32(end)-sp.dE])
		end = keptFrom(nm.enb, sp.sa.enb, kb, nt.ny, int(nt.rowEdge[kb]), int(ne))
		bucket.MovedFrom(nm.enb[wEnd:end], m.enb[wEnd-sp.dE:int32(end)-sp.dE], 0, PolyID(sp.dP)) // walls (−1) stay
	}
	of := reuse(sp.sc.of, int(wEnd-w0), slack(int(wEnd-w0))) // the polygon of each edge of the window
	sp.sc.of = of
	for id := nt.rowPoly[max(b0-1, 0)]; id < nt.rowPoly[min(b1+2, nt.ny)]; id++ {
		p := nm.polys[id]
		for i := range p.ne {
			of[p.e0+i-w0] = PolyID(id)
		}
	}
	// The portals of the window before and after: those with an end
	// outside it are in both.
	oldPorts, newPorts := 0, 0
	for e := w0; e < oE[min(b1+2, nt.ny)]; e++ {
		if m.enb[e] >= 0 {
			oldPorts++
		}
	}
	for e := w0; e < wEnd; e++ {
		switch tw := s.twin[e-w0]; {
		case tw == -2:
			keep(e)
		case tw >= 0:
			nb := of[tw-w0]
			nm.enb[e], nm.etwin[e] = nb, tw-nm.polys[nb].e0
		default:
			nm.enb[e], nm.etwin[e] = -1, -1
		}
		if nm.enb[e] >= 0 {
			newPorts++
		}
	}
	nm.nport = m.nport + (newPorts-oldPorts)/2
}

// label sets nm's numbers, groups, bridges and components (tileprune.go):
// those of m's polygons and edges above and below the band, moved below
// it, and the band's from its tiles; the links of the band's lines found
// again from the window's pieces on them, and the graph of groups searched
// again, which costs time in the number of groups and links, not of
// polygons.
func (sp *splicing) label() {
	m, nm, nt, b0, b1 := sp.m, sp.nm, sp.nt, sp.b0, sp.b1
	oP, oE := sp.ot.rowPoly, sp.ot.rowEdge
	np, ne := len(nm.polys), len(nm.ev)
	nm.pre, nm.end = reuse(sp.sa.pre, np, slack(np)), reuse(sp.sa.end, np, slack(np))
	nm.bridge = reuse(sp.sa.bridge, ne, slack(ne))
	sa, ka, kb := sp.sa, sp.ka, sp.kb
	copyKept(nm.pre, sa.pre, m.pre, int(oP[ka]), int(oP[b0]))
	copyKept(nm.end, sa.end, m.end, int(oP[ka]), int(oP[b0]))
	copyKept(nm.bridge, sa.bridge, m.bridge, int(oE[ka]), int(oE[b0]))
	// The band's bridges are marked below, its other edges none; its
	// numbers are all set, by labelRows.
	bandEnd := ne
	if b1+1 < nt.ny {
		bandEnd = int(oE[b1+1] + sp.dE)
	}
	clear(nm.bridge[oE[b0]:bandEnd])
	if b1+1 < nt.ny { // the rows below the band, moved
		from, to := oP[b1+1], oP[b1+1]+sp.dP
		pEnd := int32(keptFrom(nm.pre, sa.pre, kb, nt.ny, int(nt.rowPoly[kb]), np))
		bucket.Moved(nm.pre[to:pEnd], m.pre[from:pEnd-sp.dP], sp.dP)
		pEnd = int32(keptFrom(nm.end, sa.end, kb, nt.ny, int(nt.rowPoly[kb]), np))
		bucket.Moved(nm.end[to:pEnd], m.end[from:pEnd-sp.dP], sp.dP)
		eEnd := int32(keptFrom(nm.bridge, sa.bridge, kb, nt.ny, int(nt.rowEdge[kb]), ne))
		copy(nm.bridge[oE[b1+1]+sp.dE:eEnd], m.bridge[oE[b1+1]:eEnd-sp.dE])
	}
	nm.labelRows(nt, b0, b1)
	ot := sp.ot
	nt.vlinks, nt.hlinks = slices.Clone(ot.vlinks), slices.Clone(ot.hlinks)
	var vrows, hrows []int
	for r := b0; r <= b1; r++ {
		nt.vlinks[r] = nil
		vrows = append(vrows, r)
	}
	for r := b0; r <= min(b1+1, nt.ny-1); r++ {
		nt.hlinks[r] = nil
		hrows = append(hrows, r)
	}
	es := make([]int32, 0, len(sp.s.line))
	for _, l := range sp.s.line {
		es = append(es, l.e)
	}
	nm.lineLinks(nt, es, vrows, hrows)
	if m := sp.m; m.tree != nil && sameGroups(ot, nt, sp.b0, sp.b1) {
		nm.tree = m.tree.copyInto(sp.sa.tree)
		return
	}
	nm.searchGroups(nt, sp.sa.tree, &sp.sc.search)
}

// corners sets which of nm's vertices are corners of the walls: those of
// m outside the band, the band's found again.
func (sp *splicing) corners() {
	m, nm := sp.m, sp.nm
	oV, nV := sp.ot.rowVert, sp.nt.rowVert
	b0, b1 := sp.b0, sp.b1
	nm.reflex = reuse(sp.sa.reflex, len(nm.verts), slack(len(nm.verts)))
	copyKept(nm.reflex, sp.sa.reflex, m.reflex, int(oV[sp.ka]), int(oV[b0]))
	if b0 > 0 {
		// The vertices on the band's first line that the row above
		// numbers: whether one is a corner depends on the band's cells
		// below it too, which an edit may change where the line's
		// vertices stay (an area's border, on a grid with areas).
		top := float64(b0 * sp.nt.size)
		for v := oV[b0-1]; v < oV[b0]; v++ {
			if nm.verts[v][1] == top {
				nm.reflex[v] = nm.gridCorner(nm.verts[v])
			}
		}
	}
	for v := oV[b0]; v < nV[b1+1]; v++ {
		nm.reflex[v] = nm.gridCorner(nm.verts[v])
	}
	end := keptFrom(nm.reflex, sp.sa.reflex, sp.kb, sp.nt.ny, int(nV[sp.kb]), len(nm.reflex))
	copy(nm.reflex[nV[b1+1]:end], m.reflex[oV[b1+1]:end-int(nV[b1+1]-oV[b1+1])])
}

// spliceIndex returns the point index of the mesh that splice makes from
// a mesh with index x and tiles ot, with tiles nt, of which rows b0 to b1
// were emitted again: x with the band's polygons replaced by those of
// nt's band, from the tiles' bucket lists, and the polygons below the band
// moved (see bucket.Grid.Spliced).
func spliceIndex(x *polyIndex, ot, nt *tiling, b0, b1 int, spare bucket.Grid) *polyIndex {
	old, band := ot.tiles[b0*ot.nx:(b1+1)*ot.nx], nt.tiles[b0*nt.nx:(b1+1)*nt.nx]
	lo, hi := int(^uint(0)>>1), 0 // the buckets that list the band's polygons, old and new
	for _, ts := range [2][]tilePolys{old, band} {
		for _, tp := range ts {
			for _, r := range tp.bkt {
				lo, hi = min(lo, int(r.bucket)), max(hi, int(r.bucket)+1)
			}
		}
	}
	lo = min(lo, hi)
	first := nt.rowPoly[b0]
	n := &polyIndex{box: x.box}
	n.Grid = x.Spliced(spare, lo, hi, ot.rowPoly[b0], ot.rowPoly[b1+1], nt.rowPoly[b1+1]-ot.rowPoly[b1+1], func(emit func(int, int32)) {
		p := first
		for _, tp := range band {
			for _, r := range tp.bkt {
				emit(int(r.bucket), p+r.poly)
			}
			p += int32(max(len(tp.start)-1, 0))
		}
	})
	return n
}

// boundary marks the edges of polygons p0 to p1 of src, numbered as in
// the new mesh, as kept (−2), but for those on the grid line y = at, which
// it adds to the pieces to pair (their twins −1 until then).
func (s *stitcher) boundary(src *Mesh, p0, p1, at int32) {
	for id := p0; id < p1; id++ {
		p := src.polys[id]
		for i := range p.ne {
			e := p.e0 + i
			next := e + 1
			if i == p.ne-1 {
				next = p.e0
			}
			a, b := src.ev[e], src.ev[next]
			if int32(src.verts[a][1]) == at && int32(src.verts[b][1]) == at {
				s.twin[e-s.tw0] = -1
				s.line = append(s.line, lineEdge{e: e, a: a, b: b})
			} else {
				s.twin[e-s.tw0] = -2
			}
		}
	}
}
