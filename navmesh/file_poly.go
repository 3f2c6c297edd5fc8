package navmesh

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/internal/binfile"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
)

// This file reads and writes mesh files of source 2, built from polygons
// (see file.go for the layout).

// writePolygons writes a mesh built from polygons (source 2).
func (m *Mesh) writePolygons(w io.Writer) (int64, error) {
	e := binfile.NewWriter(w)
	m.writeHeader(e, sourcePolygons, m.bound.w, m.bound.h, m.bound.fp)
	m.writeVertices(e)
	m.writePolys(e)
	return e.Finish()
}

// readPolyFile reads the rest of a mesh file of source 2 (polygons), whose
// header is hdr, and checks and assembles the mesh.
func readPolyFile(d *binfile.Reader, hdr []byte, want *binding) (*Mesh, error) {
	le := binary.LittleEndian
	bound := binding{w: le.Uint32(hdr[16:]), h: le.Uint32(hdr[20:]), fp: le.Uint64(hdr[24:])}
	if (bound.w == 0) != (bound.h == 0) {
		return nil, &FormatError{16, fmt.Sprintf("grid size %d×%d, want both 0 (a mesh from polygons) or neither", bound.w, bound.h)}
	}
	if bound.w == 0 && bound.fp != 0 {
		return nil, &FormatError{24, "fingerprint without a grid size"}
	}
	if want != nil && bound != *want {
		return nil, &FormatError{24, fmt.Sprintf("mesh was built for another map or agent radius: file binding %016x (%d×%d), this map's with this radius and subcell side %016x (%d×%d)",
			bound.fp, bound.w, bound.h, want.fp, want.w, want.h)}
	}
	nv, np, ne := le.Uint32(hdr[32:]), le.Uint32(hdr[36:]), le.Uint32(hdr[40:])
	// Bounds from FromPolygons: at least one ring of 3 points and at most
	// 2³¹/4 points; n points with h ≤ n/3 holes make n+2h−2 < 2n
	// triangles, so fewer than 6n edges, and a polygon has at least 3.
	if nv < 3 || nv > math.MaxInt32/4 {
		return nil, &FormatError{32, fmt.Sprintf("%d vertices, want 3 to %d", nv, math.MaxInt32/4)}
	}
	if maxE := 6 * uint64(nv); uint64(ne) > maxE {
		return nil, &FormatError{40, fmt.Sprintf("%d edges, more than the %d that %d vertices allow", ne, maxE, nv)}
	}
	if np == 0 || 3*uint64(np) > uint64(ne) {
		return nil, &FormatError{36, fmt.Sprintf("%d polygons, want 1 to a third of the %d edges", np, ne)}
	}
	n, p, e := int(nv), int(np), int(ne)
	f := meshFile{kind: polygonMesh, vertAt: fileHeaderSize}
	_, f.lms, _ = versionParts(le.Uint32(hdr[8:]))
	f.sizeAt = f.vertAt + vertexSize*int64(n)
	f.edgeAt = f.sizeAt + polySizeSize*int64(p)
	if err := f.readSections(d, 0, n, p, e); err != nil {
		return nil, err
	}
	m, err := f.polyMesh()
	if err != nil {
		return nil, err
	}
	m.bound = bound
	return m, f.checkLandmarks(m)
}

// polyMesh checks what was read of a mesh built from polygons and
// assembles it as FromPolygons does.
func (f *meshFile) polyMesh() (*Mesh, error) {
	if err := f.checkPolyVertices(); err != nil {
		return nil, err
	}
	m := &Mesh{kind: polygonMesh, verts: f.verts, ev: f.ev, enb: f.enb}
	if err := f.polygons(m, 3, checkConvex); err != nil {
		return nil, err
	}
	if err := f.link(m, nil); err != nil {
		return nil, err
	}
	if err := f.walls(m); err != nil {
		return nil, err
	}
	m.label()
	m.loc = newPolyIndex(m)
	return m, nil
}

// checkPolyVertices checks that the vertices are finite, in FromPolygons'
// range and distinct.
func (f *meshFile) checkPolyVertices() error {
	nv := len(f.verts)
	order := make([]int32, nv)
	for i, v := range f.verts {
		for _, c := range v {
			if a := math.Abs(c); math.IsNaN(c) || math.IsInf(c, 0) || (a != 0 && (a < minCoord || a > maxCoord)) {
				return &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d at (%g,%g): coordinate not finite or out of range (0, or magnitude 1e-100 to 1e100)", i, v[0], v[1])}
			}
		}
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		p, q := f.verts[a], f.verts[b]
		return cmp.Or(cmp.Compare(p[0], q[0]), cmp.Compare(p[1], q[1]), cmp.Compare(a, b))
	})
	for k := 1; k < nv; k++ {
		if i, j := order[k], order[k-1]; f.verts[i] == f.verts[j] {
			return &FormatError{f.vertOffset(int(i)), fmt.Sprintf("vertex %d at (%g,%g) repeats vertex %d", i, f.verts[i][0], f.verts[i][1], j)}
		}
	}

	return nil
}

// walls checks the walls of m and sets its corner flags from them. The
// walls are the input's rings: each vertex starts one wall edge and ends
// another. A vertex where the walkable angle exceeds 180° is a turning
// point, as FromPolygons flags it.
func (f *meshFile) walls(m *Mesh) error {
	nv := len(m.verts)
	in, out := make([]int32, nv), make([]int32, nv)
	for i := range in {
		in[i], out[i] = -1, -1
	}
	for _, p := range m.polys {
		for i := range p.ne {
			if m.enb[p.e0+i] >= 0 {
				continue
			}
			a, b := m.edgeIDs(p, i)
			if out[a] >= 0 {
				return &FormatError{f.edgeOffset(int(p.e0 + i)), fmt.Sprintf("vertex %d starts two walls, to vertices %d and %d", a, out[a], b)}
			}
			if in[b] >= 0 {
				return &FormatError{f.edgeOffset(int(p.e0 + i)), fmt.Sprintf("vertex %d ends two walls, from vertices %d and %d", b, in[b], a)}
			}
			out[a], in[b] = b, a
		}
	}
	m.reflex = make([]bool, nv)
	for v := range nv {
		if in[v] < 0 || out[v] < 0 {
			return &FormatError{f.vertOffset(v), fmt.Sprintf("vertex %d is not on a wall, or ends one without starting another", v)}
		}
		// In the package's order the walls run the rings backwards.
		m.reflex[v] = geom.Orient(m.verts[in[v]], m.verts[v], m.verts[out[v]]) > 0
	}
	return nil
}
