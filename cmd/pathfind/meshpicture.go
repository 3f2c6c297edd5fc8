package main

import (
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

// meshPictureSide is the long side, in pixels, of the panel of a picture
// of a mesh drawn without its map.
const meshPictureSide = 1024

// meshPicture is the picture of a route on a mesh read without a map. A
// picture.Canvas draws a grid in its own coordinates, so the mesh's
// bounding box, with a margin, is laid on a grid of a pixel a cell, a cell
// free where its centre is on the mesh: scale pixels a world unit, the
// box's corner at origin.
type meshPicture struct {
	c      *picture.Canvas
	size   image.Point // of the panel, in pixels
	origin mgl64.Vec2  // the world point at the panel's top-left corner
	scale  float64
}

// pixel returns p in the canvas's coordinates.
func (mp *meshPicture) pixel(p mgl64.Vec2) mgl64.Vec2 { return p.Sub(mp.origin).Mul(mp.scale) }

func (mp *meshPicture) note() string {
	return fmt.Sprintf("panel %d×%d pixels, %.4g pixels a unit", mp.size.X, mp.size.Y, mp.scale)
}

// drawMeshAlone draws the route on m from from to to along path: the
// mesh's area light and the rest dark, its polygons outlined (walls
// grey-blue, portals green, when the polygons are large enough to show),
// the path magenta, start and goal pinned, under title and above a legend.
// It locates a point per pixel, about a million.
func drawMeshAlone(m *navmesh.Mesh, path []mgl64.Vec2, from, to mgl64.Vec2, title string) (*meshPicture, error) {
	var poly []mgl64.Vec2
	lo, hi := from, from
	for id := range navmesh.PolyID(m.NumPolys()) {
		poly = m.AppendPolygon(poly[:0], id)
		for _, v := range poly {
			lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
			hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
		}
	}
	ext := hi.Sub(lo)
	margin := max(ext[0], ext[1]) / 32
	if !(margin > 0) || math.IsInf(margin, 0) {
		return nil, fmt.Errorf("cannot draw a mesh whose bounding box is %s to %s", vecString(lo), vecString(hi))
	}
	origin := lo.Sub(mgl64.Vec2{margin, margin})
	ext = ext.Add(mgl64.Vec2{2 * margin, 2 * margin})
	scale := meshPictureSide / max(ext[0], ext[1])
	w := min(meshPictureSide, max(1, int(math.Ceil(ext[0]*scale))))
	h := min(meshPictureSide, max(1, int(math.Ceil(ext[1]*scale))))
	free := make([]bool, w*h)
	for y := range h {
		for x := range w {
			p := mgl64.Vec2{float64(x) + 0.5, float64(y) + 0.5}.Mul(1 / scale).Add(origin)
			_, free[y*w+x] = m.Locate(p)
		}
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		return nil, err
	}
	mp := &meshPicture{c: picture.New(g), size: image.Pt(w, h), origin: origin, scale: scale}
	c := mp.c
	// Outlines only when a polygon has some 64 pixels on average: smaller,
	// they would fill the picture.
	if 64*m.NumPolys() <= w*h {
		var nbs []navmesh.Neighbor
		for _, col := range []picture.Colour{picture.Portal, picture.MeshEdge} {
			for id := range navmesh.PolyID(m.NumPolys()) {
				poly = m.AppendPolygon(poly[:0], id)
				nbs = m.AppendNeighbors(nbs[:0], id)
				for i, a := range poly {
					b := poly[(i+1)%len(poly)]
					portal := false
					for _, nb := range nbs {
						// Portals are seen from outside: the side a→b is Right→Left.
						portal = portal || (nb.Portal.Right == a && nb.Portal.Left == b)
					}
					if portal == (col == picture.Portal) {
						c.Line(mp.pixel(a), mp.pixel(b), 1, col)
					}
				}
			}
		}
	}
	pts := make([]mgl64.Vec2, len(path))
	for i, p := range path {
		pts[i] = mp.pixel(p)
	}
	c.Polyline(pts, c.LineWidth(false), picture.Navmesh)
	pin := func(p mgl64.Vec2) image.Point {
		q := mp.pixel(p)
		return image.Pt(int(math.Floor(q[0])), int(math.Floor(q[1])))
	}
	c.Pin(pin(from), picture.Start, "S")
	c.Pin(pin(to), picture.Goal, "G")
	c.Title(title)
	var keys []picture.Key
	for _, k := range []picture.Key{
		{Colour: picture.MeshEdge, Label: "polygon edge"},
		{Colour: picture.Portal, Label: "portal"},
		{Colour: picture.Navmesh, Label: "path"},
		{Colour: picture.Start, Label: "start " + shortVec(from), Letter: "S"},
		{Colour: picture.Goal, Label: "goal " + shortVec(to), Letter: "G"},
	} {
		if c.Uses(k.Colour) {
			keys = append(keys, k)
		}
	}
	c.Legend(keys)
	return mp, nil
}
