package tri

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// cdt is a triangulation being built: the Delaunay triangulation of the
// rings' vertices, then the ring edges forced in as constraints (see
// constrain.go). Triangles are counter-clockwise (y up); half-edge 3t+k is
// edge k of triangle t, from corner k to corner k+1, as in [Triangles].
// Beyond each edge of the convex hull is a ghost triangle, the hull edge
// the other way and the vertex at infinity (id nv), so that every
// half-edge has a twin: the hull's edges are edges of the triangulation
// however flat the hull, which a finite super-triangle does not give (the
// spine of a comb, with the teeth's bases just above it, was no
// Delaunay edge with one, and forcing it in cost O(n²)).
type cdt struct {
	pos  []mgl64.Vec2 // the input's positions
	nv   int32        // len(pos), the id of the vertex at infinity
	tris [][3]int32
	adj  []int32 // per half-edge: its twin
	// fix is per half-edge: +1 on a ring edge run the way its ring runs
	// (the area on its left), −1 on the twin of one, 0 elsewhere.
	fix   []int8
	vt    []int32 // per vertex: a half-edge starting there (filled for constrain)
	last  int32   // the triangle the last point went into, where the next walk starts
	rnd   uint64  // xorshift state for the walk's first edge
	stack []int32 // half-edges to check in legalize
	// Scratch for constrain: the chains either side of a segment, the
	// removed triangles' half-edges along them, the triangles removed
	// (stamped in goneAt), and the pseudo-polygons' sides.
	left, right           []int32
	cavLeft, cavRight     []int32
	gone                  []int32
	goneAt                []int32
	stamp                 int32
	sidesLeft, sidesRight []polySide
	repLeft, repRight     bool
	newHalf               []int32
	tasks                 []fillTask
}

var (
	errWalk      = errors.New("triangulation failed: point location did not end (this is a bug)")
	errCollinear = errors.New("all vertices are on one line")
)

// dupError reports two vertex ids at one position.
type dupError struct{ u, v int32 }

func (e *dupError) Error() string {
	return fmt.Sprintf("vertices %d and %d are at the same position", e.u, e.v)
}

// delaunayOf returns the Delaunay triangulation of the vertices order
// (ids into pos), inserted in that order after a first triangle of them
// (see insert). Two at one position are a [*dupError], all on one line
// errCollinear.
func delaunayOf(pos []mgl64.Vec2, order []int32) (*cdt, error) {
	nv := int32(len(pos))
	ntri := 2 * len(order)
	d := &cdt{
		pos:  pos,
		nv:   nv,
		tris: make([][3]int32, 0, ntri),
		adj:  make([]int32, 0, 3*ntri),
		rnd:  0x9e3779b97f4a7c15,
	}
	// The first triangle: the first two vertices and the next one off
	// their line, moved up to third.
	if len(order) < 3 {
		return nil, errCollinear
	}
	a, b := order[0], order[1]
	if pos[a] == pos[b] {
		return nil, &dupError{a, b}
	}
	k := 2
	for k < len(order) && geom.Orient(pos[a], pos[b], pos[order[k]]) == 0 {
		k++
	}
	if k == len(order) {
		return nil, errCollinear
	}
	c := order[k]
	copy(order[3:k+1], order[2:k])
	order[2] = c
	if geom.Orient(pos[a], pos[b], pos[c]) < 0 {
		a, b = b, a
	}
	inf := nv
	d.tris = append(d.tris, [3]int32{a, b, c}, [3]int32{b, a, inf}, [3]int32{c, b, inf}, [3]int32{a, c, inf})
	d.adj = append(d.adj, 3, 6, 9, 0, 11, 7, 1, 5, 10, 2, 8, 4)
	for _, v := range order[3:] {
		if err := d.insert(v); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// ghost reports whether triangle t has the vertex at infinity.
func (d *cdt) ghost(t int32) bool {
	tr := d.tris[t]
	return tr[0] == d.nv || tr[1] == d.nv || tr[2] == d.nv
}

// insert adds vertex v: it walks to the triangle that holds it (a ghost
// triangle when v is beyond the hull), splits that triangle in three (or
// the two on the edge it lies on in four), and flips the edges round it
// until every one is locally Delaunay (Lawson's flips, exact in-circle
// tests, see inCircle and legalize). A vertex at the position of one
// already in is a [*dupError]. It costs O(1) flips expected, plus the
// walk.
func (d *cdt) insert(v int32) error {
	p := d.pos[v]
	t, err := d.locate(p)
	if err != nil {
		return err
	}
	if d.ghost(t) {
		d.split3(t, v) // v is strictly beyond its hull edge
		d.legalize()
		return nil
	}
	tr := d.tris[t]
	var o [3]int
	zeros, on := 0, 0
	for k := range 3 {
		if o[k] = geom.Orient(d.pos[tr[k]], d.pos[tr[(k+1)%3]], p); o[k] == 0 {
			zeros++
			on = k
		}
	}
	switch zeros {
	case 0:
		d.split3(t, v)
	case 1:
		d.split4(t, on, v)
	default:
		// On two edges: at their shared corner.
		for k := range 3 {
			if o[k] == 0 && o[(k+2)%3] == 0 {
				return &dupError{tr[k], v}
			}
		}
		return errWalk
	}
	d.legalize()
	return nil
}

// next returns a pseudo-random number (xorshift64).
func (d *cdt) next() uint64 {
	d.rnd ^= d.rnd << 13
	d.rnd ^= d.rnd >> 7
	d.rnd ^= d.rnd << 17
	return d.rnd
}

// locate returns a triangle whose closed area holds p, or a ghost
// triangle whose hull edge p is strictly beyond: it walks from the last
// triangle a point went into, across an edge that p is strictly to the
// right of, tried from a random one of the three, never back the way it
// came (a remembering stochastic walk, Devillers, Pion and Teillaud 2002,
// which ends on any triangulation), and stops on entering a ghost
// triangle. In BRIO order each walk is a few steps.
func (d *cdt) locate(p mgl64.Vec2) (int32, error) {
	t, from := d.last, int32(-1)
	if d.ghost(t) {
		// Step in across its hull edge, the one without the vertex at
		// infinity.
		k := int32(0)
		for d.tris[t][k] == d.nv || d.tris[t][(k+1)%3] == d.nv {
			k++
		}
		t = d.adj[3*t+k] / 3 // and p may be back across that edge
	}
	for steps := 0; steps <= 4*len(d.tris)+16; steps++ {
		if d.ghost(t) {
			d.last = t
			return t, nil
		}
		tr := d.tris[t]
		r := int32(d.next() % 3)
		moved := false
		for i := range int32(3) {
			k := (r + i) % 3
			h := 3*t + k
			if h == from {
				continue
			}
			if geom.Orient(d.pos[tr[k]], d.pos[tr[(k+1)%3]], p) < 0 {
				g := d.adj[h]
				t, from, moved = g/3, g, true
				break
			}
		}
		if !moved {
			d.last = t
			return t, nil
		}
	}
	return -1, errWalk
}

// link makes half-edges h and g twins; g may be −1.
func (d *cdt) link(h, g int32) {
	d.adj[h] = g
	if g >= 0 {
		d.adj[g] = h
	}
}

// split3 splits triangle t = (a, b, c) at v, inside it (or, for a ghost
// triangle, beyond its hull edge), into (a, b, v), (b, c, v) and
// (c, a, v), and queues their edges across from v.
func (d *cdt) split3(t, v int32) {
	tr := d.tris[t]
	a, b, c := tr[0], tr[1], tr[2]
	nbc, nca := d.adj[3*t+1], d.adj[3*t+2]
	t1, t2 := int32(len(d.tris)), int32(len(d.tris)+1)
	d.tris[t] = [3]int32{a, b, v}
	d.tris = append(d.tris, [3]int32{b, c, v}, [3]int32{c, a, v})
	d.adj = append(d.adj, 0, 0, 0, 0, 0, 0)
	d.link(3*t+1, 3*t1+2)
	d.link(3*t+2, 3*t2+1)
	d.link(3*t1, nbc)
	d.link(3*t1+1, 3*t2+2)
	d.link(3*t2, nca)
	d.stack = append(d.stack, 3*t, 3*t1, 3*t2)
}

// split4 splits triangle t, whose edge k holds v, and the triangle across
// that edge (a ghost triangle when the edge is on the hull) into four
// round v, and queues their edges across from v.
func (d *cdt) split4(t int32, k int, v int32) {
	tr := d.tris[t]
	a, b, c := tr[k], tr[(k+1)%3], tr[(k+2)%3]
	g := d.adj[3*t+int32(k)]
	u, j := g/3, g%3
	e := d.tris[u][(j+2)%3]
	nbc, nca := d.adj[3*t+int32(k+1)%3], d.adj[3*t+int32(k+2)%3]
	nae, neb := d.adj[3*u+(j+1)%3], d.adj[3*u+(j+2)%3]
	t2, t4 := int32(len(d.tris)), int32(len(d.tris)+1)
	t1, t3 := t, u
	d.tris[t1] = [3]int32{b, c, v}
	d.tris[t3] = [3]int32{a, e, v}
	d.tris = append(d.tris, [3]int32{c, a, v}, [3]int32{e, b, v})
	d.adj = append(d.adj, 0, 0, 0, 0, 0, 0)
	d.link(3*t1, nbc)
	d.link(3*t2, nca)
	d.link(3*t3, nae)
	d.link(3*t4, neb)
	d.link(3*t1+1, 3*t2+2)
	d.link(3*t2+1, 3*t3+2)
	d.link(3*t3+1, 3*t4+2)
	d.link(3*t4+1, 3*t1+2)
	d.stack = append(d.stack, 3*t1, 3*t2, 3*t3, 3*t4)
}

// legalize flips the queued edges, each edge 0 of a triangle whose corner
// 2 is the new vertex c, while c is strictly inside the circle of the
// triangle across; as every other edge is locally Delaunay, such a pair
// is a strictly convex quadrilateral, and each flip queues the two edges
// now across from c. A ghost triangle's circle is the open half-plane
// beyond its hull edge: a hull edge is never flipped from inside, and an
// edge to infinity is flipped when c is strictly beyond the next hull
// edge (which makes a real triangle of c and that edge).
func (d *cdt) legalize() {
	inf := d.nv
	for len(d.stack) > 0 {
		h := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		g := d.adj[h]
		t, u, j := h/3, g/3, g%3
		tr := d.tris[t]
		a, b, c := tr[0], tr[1], tr[2]
		e := d.tris[u][(j+2)%3]
		var flip bool
		switch inf {
		case e:
			flip = false
		case a: // (a, e, c) stays a ghost, (e, b, c) would be real
			flip = geom.Orient(d.pos[e], d.pos[b], d.pos[c]) > 0
		case b: // (a, e, c) would be real
			flip = geom.Orient(d.pos[a], d.pos[e], d.pos[c]) > 0
		default:
			flip = inCircle(d.pos[a], d.pos[b], d.pos[c], d.pos[e]) > 0
		}
		if !flip {
			continue
		}
		// t = (a, b, c) and u = (b, a, e) become (a, e, c) and (e, b, c).
		nbc, nca := d.adj[3*t+1], d.adj[3*t+2]
		nae, neb := d.adj[3*u+(j+1)%3], d.adj[3*u+(j+2)%3]
		d.tris[t] = [3]int32{a, e, c}
		d.tris[u] = [3]int32{e, b, c}
		d.link(3*t, nae)
		d.link(3*t+1, 3*u+2)
		d.link(3*t+2, nca)
		d.link(3*u, neb)
		d.link(3*u+1, nbc)
		d.stack = append(d.stack, 3*t, 3*u)
	}
}

// brio returns verts in a biased randomized insertion order (Amenta, Choi
// and Rote 2003): shuffled, cut into rounds that double in size, each
// round sorted along a Hilbert curve over the box bx. Each round is a
// random sample, which keeps the expected number of flips O(n), and
// within a round each point is near the one before, which keeps the walks
// short. It costs O(n log n).
func brio(pos []mgl64.Vec2, verts []int32, bx geom.Box) []int32 {
	type keyed struct {
		key uint64
		v   int32
	}
	const bits = 24
	ks := make([]keyed, len(verts))
	sx, sy := float64(1<<bits-1)/(bx.Max[0]-bx.Min[0]), float64(1<<bits-1)/(bx.Max[1]-bx.Min[1])
	if math.IsInf(sx, 0) || math.IsNaN(sx) {
		sx = 0
	}
	if math.IsInf(sy, 0) || math.IsNaN(sy) {
		sy = 0
	}
	for i, v := range verts {
		p := pos[v]
		x, y := uint32((p[0]-bx.Min[0])*sx), uint32((p[1]-bx.Min[1])*sy)
		ks[i] = keyed{hilbert(x, y, bits), v}
	}
	r := rand.New(rand.NewPCG(1, uint64(len(verts))))
	r.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	for hi := len(ks); hi > 0; {
		lo := hi / 2
		if hi < 32 {
			lo = 0
		}
		slices.SortFunc(ks[lo:hi], func(a, b keyed) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		hi = lo
	}
	out := make([]int32, len(ks))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}

// hilbert returns the distance along a Hilbert curve over a 2^bits square
// of the cell (x, y).
func hilbert(x, y uint32, bits int) uint64 {
	var d uint64
	for s := uint32(1) << (bits - 1); s > 0; s >>= 1 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		d += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		if ry == 0 {
			if rx == 1 {
				x, y = s-1-x, s-1-y
			}
			x, y = y, x
		}
	}
	return d
}
