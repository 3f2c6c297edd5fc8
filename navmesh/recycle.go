package navmesh

import (
	"sync"

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

// spareArrays are the arrays of a recycled mesh, whose contents mean
// nothing: an Update that takes them writes every element it uses.
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
}

func (r *recycler) put(m *Mesh) {
	s := &spareArrays{verts: m.verts, reflex: m.reflex, polys: m.polys, area: m.area, bridge: m.bridge,
		ev: m.ev, etwin: m.etwin, pre: m.pre, end: m.end, enb: m.enb, walk: m.walk, tiles: m.tiles.tiles, tree: m.tree}
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
