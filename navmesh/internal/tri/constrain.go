package tri

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
)

// prev returns the half-edge before h in its triangle, which ends where h
// starts.
func prev(h int32) int32 { return h - h%3 + (h+2)%3 }

// fillTask is a pseudo-polygon left to triangulate: the vertices
// poly[i..j] counter-clockwise (y up), closed by the edge from poly[j] to
// poly[i], whose triangle's half-edge along it is to be made the twin of
// parent (or −1).
type fillTask struct{ i, j, parent int32 }

var errFixed = errors.New("a ring edge crosses another ring edge or meets a vertex")

// ringEdgeError reports a ring edge that could not be forced in.
type ringEdgeError struct {
	a, b int32
	err  error
}

func (e *ringEdgeError) Error() string {
	return fmt.Sprintf("ring edge from vertex %d to %d: %v", e.a, e.b, e.err)
}

// constrain makes the segment from vertex a to vertex b edges of the
// triangulation, marked +1 the way from a to b and −1 the other way: one
// edge, or several where vertices lie on the segment. Each piece not yet
// an edge is forced in as Anglada does (1997): the triangles it crosses
// are removed, and the two pseudo-polygons either side of it are
// triangulated again, each by its constrained Delaunay triangulation.
// That keeps the whole the constrained Delaunay triangulation of the
// points and the constraints so far. A piece that crosses k triangles
// costs O(deg a + k²) at worst, O(deg a + k log k) typically. A segment
// that would cross a constraint, or a constraint put in twice, is an
// error.
func (d *cdt) constrain(a, b int32) error {
	for a != b {
		end, err := d.piece(a, b)
		if err != nil {
			return &ringEdgeError{a, b, err}
		}
		a = end
	}
	return nil
}

// piece forces in the segment from a towards b as far as the first vertex
// on it, which it returns.
func (d *cdt) piece(a, b int32) (int32, error) {
	pa, pb := d.pos[a], d.pos[b]
	h0 := d.vt[a]
	// Round a, counter-clockwise, for the triangle (a, w, x) whose corner
	// at a the segment leaves through.
	for h := h0; ; {
		t, k := h/3, h%3
		w, x := d.tris[t][(k+1)%3], d.tris[t][(k+2)%3]
		xa := prev(h)
		switch {
		case w == b:
			return b, d.mark(h)
		case x == b:
			return b, d.mark(d.adj[xa])
		case w == d.nv || x == d.nv:
			// A ghost triangle: the segment, in the hull, is not
			// through it.
			if h = d.adj[xa]; h == h0 {
				return -1, errors.New("no triangle at its start faces its end (this is a bug)")
			}
			continue
		}
		ow, ox := geom.Orient(pa, pb, d.pos[w]), geom.Orient(pa, pb, d.pos[x])
		switch {
		case ow == 0 && ox > 0:
			// w is on the segment (x is on its left, so w is ahead of
			// a, and not beyond b, which no edge passes through).
			return w, d.mark(h)
		case ox == 0 && ow < 0:
			return x, d.mark(d.adj[xa])
		case ow < 0 && ox > 0:
			return d.cut(a, b, h)
		}
		if h = d.adj[xa]; h == h0 {
			return -1, errors.New("no triangle at its start faces its end (this is a bug)")
		}
	}
}

// mark marks half-edge h, from a ring vertex along its ring, and its twin.
func (d *cdt) mark(h int32) error {
	if d.fix[h] != 0 {
		return errFixed
	}
	d.fix[h] = 1
	if g := d.adj[h]; g >= 0 {
		d.fix[g] = -1
	}
	return nil
}

// cut forces in the segment from a towards b, which leaves a through the
// triangle of half-edge h = a→w, crossing its edge w→x, as far as the
// first vertex on it, and returns that vertex.
func (d *cdt) cut(a, b, h int32) (int32, error) {
	pa, pb := d.pos[a], d.pos[b]
	t, k := h/3, h%3
	w, x := d.tris[t][(k+1)%3], d.tris[t][(k+2)%3]
	// The chains either side, from a, and the half-edges of the removed
	// triangles along them: right[i]→right[i+1] and left[i+1]→left[i].
	d.right = append(d.right[:0], a, w)
	d.left = append(d.left[:0], a, x)
	d.cavRight = append(d.cavRight[:0], h)
	d.cavLeft = append(d.cavLeft[:0], prev(h))
	d.gone = append(d.gone[:0], t)
	e := 3*t + (k+1)%3 // the edge crossed, from w to x
	var end int32
	for {
		if d.fix[e] != 0 {
			return -1, errFixed
		}
		// u = (x, w, y), entered across its edge x→w.
		g := d.adj[e]
		u, j := g/3, g%3
		y := d.tris[u][(j+2)%3]
		if y == d.nv {
			return -1, errors.New("the segment leaves the hull (this is a bug)")
		}
		wy, yx := 3*u+(j+1)%3, 3*u+(j+2)%3
		d.gone = append(d.gone, u)
		oy := 0
		if y != b {
			oy = geom.Orient(pa, pb, d.pos[y])
		}
		if oy >= 0 {
			d.left = append(d.left, y)
			d.cavLeft = append(d.cavLeft, yx)
		}
		if oy <= 0 {
			d.right = append(d.right, y)
			d.cavRight = append(d.cavRight, wy)
		}
		if oy == 0 {
			end = y
			break
		}
		if oy > 0 {
			e = wy // between w and y
		} else {
			e = yx // between y and x
		}
	}
	// The left pseudo-polygon counter-clockwise from end back to a,
	// closed by a→end; the right one from a to end, closed by end→a.
	slices.Reverse(d.left)
	slices.Reverse(d.cavLeft)
	d.stamp++
	for _, t := range d.gone {
		d.goneAt[t] = d.stamp
	}
	d.sidesLeft, d.repLeft = d.sides(d.cavLeft, d.sidesLeft)
	d.sidesRight, d.repRight = d.sides(d.cavRight, d.sidesRight)
	top := d.fill(d.left, d.sidesLeft, d.repLeft, -1)
	d.fill(d.right, d.sidesRight, d.repRight, top)
	d.fix[top] = 1
	d.fix[d.adj[top]] = -1
	return end, nil
}

// polySide is an edge of a pseudo-polygon: the half-edge outside it, in
// a triangle kept, or, when the polygon is on both sides of it, −2−k for
// edge k of the polygon, the same edge the other way round; and its mark
// (see cdt.fix) the polygon's way round.
type polySide struct {
	out int32
	fix int8
}

// sides returns, in dst, the sides of the pseudo-polygon whose edge i is
// half-edge cav[i] of a removed triangle, and whether a vertex comes
// twice in the polygon. One does where the segment crosses every
// triangle round a vertex near it, which leaves an edge sticking into the
// polygon from the vertex that comes twice: the triangles either side of
// it are both removed, and its other side is found by a search of the
// polygon.
func (d *cdt) sides(cav []int32, dst []polySide) ([]polySide, bool) {
	dst = dst[:0]
	rep := false
	for _, c := range cav {
		s := polySide{out: d.adj[c], fix: d.fix[c]}
		if d.goneAt[s.out/3] == d.stamp {
			rep = true
			s.out = -2 - int32(slices.Index(cav, s.out))
		}
		dst = append(dst, s)
	}
	return dst, rep
}

// fill triangulates the pseudo-polygon poly, counter-clockwise (y up) and
// closed by the edge from its last vertex to its first, in triangles taken
// from d.gone; sides[i] is its edge from poly[i] to poly[i+1], and rep
// says whether a vertex comes twice. The closing edge's half-edge is made
// the twin of parent (or left for the caller, with parent −1), and
// returned. Each triangle is on the closing edge of the polygon left and
// its vertex of the polygon whose circle through the edge's ends holds no
// other: the constrained Delaunay triangulation of the polygon (Anglada
// 1997), at O(m) in-circle tests per triangle for m vertices. (A vertex
// that comes twice is the corner of the triangle at the place whose angle
// in the polygon holds the triangle's.)
func (d *cdt) fill(poly []int32, sides []polySide, rep bool, parent int32) int32 {
	d.tasks = append(d.tasks[:0], fillTask{0, int32(len(poly) - 1), parent})
	d.newHalf = d.newHalf[:0]
	for range sides {
		d.newHalf = append(d.newHalf, -1)
	}
	top := int32(-1)
	for len(d.tasks) > 0 {
		tk := d.tasks[len(d.tasks)-1]
		d.tasks = d.tasks[:len(d.tasks)-1]
		p, q := poly[tk.j], poly[tk.i]
		pp, pq := d.pos[p], d.pos[q]
		c := tk.i + 1
		for m := tk.i + 2; m < tk.j; m++ {
			if inCircle(pp, pq, d.pos[poly[c]], d.pos[poly[m]]) > 0 {
				c = m
			}
		}
		v := poly[c]
		if rep {
			for o := tk.i + 1; o < tk.j; o++ {
				if poly[o] == v && d.sweeps(v, poly[o+1], poly[o-1], p) && d.sweeps(v, poly[o+1], poly[o-1], q) {
					c = o
					break
				}
			}
		}
		t := d.gone[len(d.gone)-1]
		d.gone = d.gone[:len(d.gone)-1]
		d.tris[t] = [3]int32{p, q, v}
		d.vt[p], d.vt[q], d.vt[v] = 3*t, 3*t+1, 3*t+2
		d.fix[3*t] = 0
		if tk.parent >= 0 {
			d.link(3*t, tk.parent)
		} else {
			top = 3 * t
		}
		// Edge q→v closes poly[i..c]; edge v→p closes poly[c..j].
		d.side(3*t+1, tk.i, c, sides)
		d.side(3*t+2, c, tk.j, sides)
	}
	return top
}

// sweeps reports whether the ray from v through r is in the angle swept
// counter-clockwise from the ray through s to the ray through e, ends
// included.
func (d *cdt) sweeps(v, s, e, r int32) bool {
	pv, ps, pe, pr := d.pos[v], d.pos[s], d.pos[e], d.pos[r]
	if geom.Orient(pv, ps, pe) > 0 {
		return geom.Orient(pv, ps, pr) >= 0 && geom.Orient(pv, pr, pe) >= 0
	}
	return geom.Orient(pv, ps, pr) >= 0 || geom.Orient(pv, pr, pe) >= 0
}

// side settles half-edge h, from poly[i] to poly[j] of the pseudo-polygon
// being filled: an edge of the polygon when j = i+1, linked to the
// triangle outside (or to the new half-edge the other way along it, when
// the polygon is on both sides), else the closing edge of the polygon
// poly[i..j], queued.
func (d *cdt) side(h, i, j int32, sides []polySide) {
	if j > i+1 {
		d.fix[h] = 0
		d.tasks = append(d.tasks, fillTask{i, j, h})
		return
	}
	s := sides[i]
	d.fix[h] = s.fix
	switch {
	case s.out >= 0:
		d.link(h, s.out)
	case d.newHalf[-2-s.out] >= 0:
		d.link(h, d.newHalf[-2-s.out])
	default:
		d.newHalf[i] = h
	}
}
