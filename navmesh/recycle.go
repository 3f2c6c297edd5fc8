package navmesh

import (
	"sync"
	"sync/atomic"

	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
	"github.com/go-gl/mathgl/mgl64"
)

// Recycle hands the memory of m, a mesh that [FromGrid] built in tiles or
// that [Mesh.Update] returned, to the next Update of a mesh of its line
// (the meshes that Updates made, one from another, from one mesh of
// FromGrid or ReadFor): that Update writes its mesh into m's arrays
// instead of new ones. On a big map most of an Update's time goes
// to memory it gets fresh from the system and clears (on the 4096² demo
// world, some 120 MB an edit), and the garbage collector has that much
// more to do; with Recycle an edit allocates little beyond its band of
// tiles (see BenchmarkUpdateWorld).
//
// Call it when m will not be used again: no query runs on it, and nothing
// made from it (a [Searcher] set to it, a corridor of its polygons, an
// agent's path on it) will be used with it again. A game that swaps in
// each new mesh between frames recycles the mesh it swapped out once the
// queries of that frame have ended. m is the zero Mesh afterwards: its
// queries fail ("not on the mesh"), and whatever was made from it may
// panic. Recycle does nothing but empty m for other meshes (a mesh read
// by ReadFor, or not tiled, or of rectangles), and for the zero Mesh,
// but that a tiled mesh ReadFor read gives back the arrays of its
// landmarks' distances that no later mesh shares.
// Recycling the mesh that the next Update's own mesh was spliced from (by
// an Update, not made by FromGrid or ReadFor), as a game that swaps
// meshes in does, is the cheapest: that mesh's arrays hold already the
// rows of tiles above the row before either edit's band, which the Update
// then does not copy, and, when the two bands' polygons, edges, vertices
// and groups gained nothing between them (as when the second edit gives
// back what the first changed: a wall put up, then taken down), the rows
// from the second after both bands on too (on the 4096² demo world,
// 14–15 ms an edit against 17–19 ms, BenchmarkUpdateWorld/recycled).
//
// Update keeps one mesh's arrays at a time: recycling another replaces
// them. It is safe to call concurrently with Updates of other meshes of
// the line.
func (m *Mesh) Recycle() {
	if m.tiles != nil && m.tiles.rec != nil {
		if m.own || m.lmHeld {
			m.tiles.rec.hold(m.lm, -1)
		}
		if m.own {
			m.tiles.rec.put(m)
		}
	}
	*m = Mesh{}
}

// recycler keeps the arrays of one recycled mesh for the next Update of
// its line of meshes: those of one tiling and the tilings Update made
// from it, which all point to the same recycler.
type recycler struct {
	mu    sync.Mutex
	spare *spareArrays
	// scratch is what an Update uses for its own and drops at its end,
	// kept for the next; nil while an Update has it.
	scratch *updateScratch
	// blocks are arrays of landmark distances that no mesh in use reads
	// (landmarks_update.go).
	blocks []*lmBlock
}

// updateScratch is the memory an Update uses only while it runs: the
// stitcher's numbering of the band's corners, the window's twins and the
// polygon of each of its edges (splice), and the search of the graph of
// groups.
type updateScratch struct {
	vid    []int32
	twin   []int32
	of     []PolyID
	search searchScratch
}

// spareArrays are the arrays of a recycled mesh. An Update that takes
// them writes every element it uses, but for the rows that the recycled
// mesh holds as the Update's mesh does (lineage), when it is the mesh
// that the updated one was spliced from.
type spareArrays struct {
	verts               []mgl64.Vec2
	reflex              []bool
	polys               []poly
	area, bridge        []uint8
	ev, etwin, pre, end []int32
	enb                 []PolyID
	walk                []uint64
	index               bucket.Grid
	tiles               []tilePolys
	tree                *dfsTree
	// gen is the recycled mesh's lin.gen: 0 when Update did not splice it.
	gen uint64
}

func (r *recycler) put(m *Mesh) {
	s := &spareArrays{verts: m.verts, reflex: m.reflex, polys: m.polys, area: m.area, bridge: m.bridge,
		ev: m.ev, etwin: m.etwin, pre: m.pre, end: m.end, enb: m.enb, walk: m.walk, tiles: m.tiles.tiles, tree: m.tree,
		gen: m.lin.gen}
	if x, ok := m.loc.(*polyIndex); ok {
		s.index = x.Grid
	}
	r.mu.Lock()
	r.spare = s
	r.mu.Unlock()
}

// take returns the spare arrays and forgets them; empty ones when there
// are none (r may be nil).
func (r *recycler) take() *spareArrays {
	if r == nil {
		return &spareArrays{}
	}
	return takeOut(&r.mu, &r.spare)
}

// takeScratch returns the scratch memory of the last Update to end, or new
// (r may be nil); putScratch gives it back.
func (r *recycler) takeScratch() *updateScratch {
	if r == nil {
		return &updateScratch{}
	}
	return takeOut(&r.mu, &r.scratch)
}

func (r *recycler) putScratch(sc *updateScratch) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.scratch = sc
	r.mu.Unlock()
}

// takeOut returns *p, or a new T when it is nil, and sets *p to nil, under
// mu.
func takeOut[T any](mu *sync.Mutex, p **T) *T {
	mu.Lock()
	defer mu.Unlock()
	v := *p
	*p = nil
	if v == nil {
		v = new(T)
	}
	return v
}

// reuse returns s[:n] when s has room for n elements, whatever they hold,
// or else a new slice of length n with room for c ≥ n.
func reuse[T any](s []T, n, c int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, c)
}

// A spliced mesh's lineage. When the spare arrays an Update of m takes are
// those of the mesh m was spliced from (its parent, given to Recycle),
// they already hold much of what the new mesh needs: splice copies the
// rows above its band from m as they are, and the rows below with their
// IDs moved by what the band gained. So the parent and m agree on every
// row above the row before m's band, and the new mesh and m on every row
// above the row before its own band: the arrays need the rows between
// those two alone. Below both bands and the row after each, the new mesh
// holds the parent's rows moved by what both bands gained, the same
// rows at the same places when that is nothing (a wall put up, then
// taken down: the band of the second splice gives back what the first
// took). Each array takes its spare one's rows only where the spare's
// memory is the one the new mesh's array uses (an array that got new
// memory when the band grew past its capacity holds only what was written
// into it since).
type lineage struct {
	gen    uint64 // unique to the splice that made the mesh (lineages)
	parent uint64 // the gen of the mesh it was spliced from, 0 if that was not spliced
	b0, b1 int    // its band's tile rows
	// What the band's polygons, edges, vertices and groups gained.
	dP, dE, dV, dC int32
	// The tile rows its splice let the arrays take from the spare ones:
	// those above ka and from kb on (keptRows; 0 and the number of rows
	// for none), each array only where its memory is its spare's.
	ka, kb int
}

var lineages atomic.Uint64

// sameMemory reports whether a and b share their first element's memory.
func sameMemory[T any](a, b []T) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// keptRows returns, for a splice whose spare arrays are sa, the tile rows
// above which the spare arrays already hold the new mesh's rows (0 when
// none), and the row from which they hold them below the band (the number
// of rows when none); see lineage. The row below is known only once the
// band is emitted (its gains, sp.dP and the others, set).
func (sp *splicing) keptRows() (above, below int) {
	l, ny := sp.m.lin, sp.nt.ny
	if sp.sa.gen == 0 || sp.sa.gen != l.parent {
		return 0, ny
	}
	above = max(min(sp.b0, l.b0)-1, 0)
	below = ny
	if l.dP+sp.dP == 0 && l.dE+sp.dE == 0 && l.dV+sp.dV == 0 && l.dC+sp.dC == 0 {
		below = min(max(sp.b1, l.b1)+2, ny)
	}
	return above, below
}

// copyKept copies src[:to] into dst, but for dst[:min(kept, to)] when
// dst's memory is spare's, which holds those elements already.
func copyKept[T any](dst, spare, src []T, kept, to int) {
	from := 0
	if sameMemory(dst, spare) {
		from = min(kept, to)
	}
	copy(dst[from:to], src[from:to])
}

// keptFrom returns where, in dst, the copy of the rows below a band
// stops: at, where row kb starts (in dst's numbering for an array of the
// new mesh being filled, in the source's for one filled by appending),
// when kb < ny and dst's memory is spare's, which holds the rows from
// there on already; n, the end of the copy, otherwise.
func keptFrom[T any](dst, spare []T, kb, ny, at, n int) int {
	if kb < ny && sameMemory(dst, spare) {
		return at
	}
	return n
}
