package navmesh

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// rayEps is the tolerance, in units of the segment's parameter, within which
// a point counts as reached: rounding in the clipping makes the same point
// come out a few ulps apart in neighbouring polygons.
const rayEps = 1e-12

// Raycast walks the straight segment from from to to across the mesh and
// reports whether it hits a wall, and where: at is the first point where the
// segment leaves the mesh, or to when it does not. Walls are the mesh's
// boundary; the segment may run along them and may touch them at a corner,
// but it may not pass between two polygons that meet only at a point (the
// grid's no-corner-cutting rule). A from off the mesh is a hit at from; a
// from where polygons meet starts in the one the segment enters. A to with
// an infinite coordinate makes the segment a ray (toward +x for (+Inf, 5),
// along the diagonal for (+Inf, −Inf)), which always hits: at is where it
// leaves the mesh. A from or to with a NaN coordinate, or an infinite from,
// is a hit at from.
//
// It visits the polygons along the segment, O(k·d) for k polygons of at
// most d vertices and neighbours, and does not allocate. Decisions at
// polygon edges are made within a tolerance of 10⁻¹² of the segment.
func (m *Mesh) Raycast(from, to mgl64.Vec2) (hit bool, at mgl64.Vec2) {
	if !finite(from) || math.IsNaN(to[0]) || math.IsNaN(to[1]) {
		return true, from
	}
	var buf [16]PolyID
	ps := m.appendAround(buf[:0], from)
	if len(ps) == 0 {
		return true, from
	}
	if !finite(to) {
		to = m.beyond(from, to)
	}
	d := to.Sub(from)
	// From a point several polygons share, start in one the ray goes into:
	// the others may touch it only at that point.
	cur := ps[0]
	for _, p := range ps {
		if _, out := m.clip(p, from, d); out > rayEps {
			cur = p
			break
		}
	}
	t := 0.0
	for {
		_, out := m.clip(cur, from, d)
		if out >= 1 {
			return false, to
		}
		t = math.Max(t, out)
		if cur = m.pass(cur, from, d, t); cur < 0 {
			return true, from.Add(d.Mul(t))
		}
	}
}

// pass finds a polygon in which the segment from + s·d goes on beyond s = t,
// reached from polygon cur through portals that contain the point at t: the
// neighbours of cur, and their neighbours in turn when the point is a
// corner. It returns −1 when there is none.
func (m *Mesh) pass(cur PolyID, from, d mgl64.Vec2, t float64) PolyID {
	// At most four cells, so few polygons, meet at a point of a grid mesh;
	// a vertex of a mesh from polygons may have more, and only then does
	// seen leave the stack.
	var buf [16]PolyID
	seen := append(buf[:0], cur)
	for i := 0; i < len(seen); i++ {
		p := m.polys[seen[i]]
	edges:
		for _, nb := range m.enb[p.e0 : p.e0+p.ne] {
			if nb < 0 {
				continue
			}
			for _, s := range seen {
				if s == nb {
					continue edges
				}
			}
			in, out := m.clip(nb, from, d)
			if in > t+rayEps || out < t-rayEps {
				continue // the point is not on this portal
			}
			if out > t+rayEps {
				return nb
			}
			seen = append(seen, nb)
		}
	}
	return -1
}

// clip returns the interval of s for which from + s·d lies in polygon id
// (Cyrus–Beck); in > out when the line misses it. With d = 0 it is the whole
// line or empty.
func (m *Mesh) clip(id PolyID, from, d mgl64.Vec2) (in, out float64) {
	p := m.polys[id]
	in, out = math.Inf(-1), math.Inf(1)
	for i := range p.ne {
		a, b := m.edge(p, i)
		e := b.Sub(a)
		// from + s·d is inside this edge's half-plane when c0 + s·c1 ≤ 0.
		c0 := e[0]*(from[1]-a[1]) - e[1]*(from[0]-a[0])
		c1 := e[0]*d[1] - e[1]*d[0]
		switch {
		case c1 > 0:
			out = math.Min(out, -c0/c1)
		case c1 < 0:
			in = math.Max(in, -c0/c1)
		case c0 > 0:
			return math.Inf(1), math.Inf(-1)
		}
	}
	return in, out
}

func finite(p mgl64.Vec2) bool {
	return !math.IsNaN(p[0]) && !math.IsInf(p[0], 0) && !math.IsNaN(p[1]) && !math.IsInf(p[1], 0)
}

// beyond returns a point off the mesh on the ray from from, a point of the
// mesh, toward to, which has an infinite coordinate: each infinite
// coordinate gives the ray's direction along its axis, and a finite one
// none.
func (m *Mesh) beyond(from, to mgl64.Vec2) mgl64.Vec2 {
	b := m.loc.bounds()
	far := 2 * (b.Max[0] - b.Min[0] + b.Max[1] - b.Min[1] + 1)
	var dir mgl64.Vec2
	for i := range 2 {
		if math.IsInf(to[i], 0) {
			dir[i] = math.Copysign(1, to[i])
		}
	}
	return from.Add(dir.Mul(far))
}
