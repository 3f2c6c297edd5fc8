// Package navjson writes navmeshes and paths as GeoJSON (RFC 7946), for
// looking at them in GIS tools such as QGIS or geojson.io. It is a package
// of its own so that importing navmesh does not compile in orb's geojson
// package and the BSON driver that comes with it.
package navjson

import (
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/cairn-nav/cairn/navmesh"
)

// FromMesh returns m as a GeoJSON feature collection: one Polygon feature
// per mesh polygon, in [navmesh.PolyID] order, whose feature id and "id"
// property are the PolyID and whose "neighbours" property lists the
// polygons across its portals, in edge order (an empty list for an island).
//
// Coordinates are Cairn's world coordinates, unscaled and not projected:
// one unit per cell, y growing down. GIS tools take y to grow up (north),
// so they show the map mirrored top to bottom, row 0 at the bottom; pass
// the collection to [Flip] to see it as Cairn's pictures show it.
// Each ring is closed (its first position repeated at the end) and follows
// RFC 7946's right-hand rule in the coordinates written: counter-clockwise
// when y is read as growing up, which is the reverse of the order
// [navmesh.Mesh.AppendPolygon] gives.
//
// It allocates the collection, O(vertices); it is safe for concurrent use.
func FromMesh(m *navmesh.Mesh) *geojson.FeatureCollection {
	fc := geojson.NewFeatureCollection()
	fc.Features = make([]*geojson.Feature, 0, m.NumPolys())
	var vs []mgl64.Vec2
	var nbs []navmesh.Neighbor
	for id := range navmesh.PolyID(m.NumPolys()) {
		vs = m.AppendPolygon(vs[:0], id)
		ring := make(orb.Ring, 0, len(vs)+1)
		for i := len(vs) - 1; i >= 0; i-- {
			ring = append(ring, orb.Point(vs[i]))
		}
		ring = append(ring, ring[0])
		nbs = m.AppendNeighbors(nbs[:0], id)
		ids := make([]int, len(nbs))
		for i, nb := range nbs {
			ids[i] = int(nb.Poly)
		}
		f := geojson.NewFeature(orb.Polygon{ring})
		f.ID = int(id)
		f.Properties["id"] = int(id)
		f.Properties["neighbours"] = ids
		fc.Append(f)
	}
	return fc
}

// AppendPath appends path to fc as a LineString feature whose "kind"
// property is "path", in the coordinates of [FromMesh], and
// returns fc; a nil fc is a new collection. A path of one point (start ==
// goal) is appended as a Point, and an empty path (no path) not at all. It
// allocates the feature and is safe for concurrent use on distinct
// collections.
func AppendPath(fc *geojson.FeatureCollection, path []mgl64.Vec2) *geojson.FeatureCollection {
	if fc == nil {
		fc = geojson.NewFeatureCollection()
	}
	var g orb.Geometry
	switch len(path) {
	case 0:
		return fc
	case 1:
		g = orb.Point(path[0])
	default:
		ls := make(orb.LineString, len(path))
		for i, p := range path {
			ls[i] = orb.Point(p)
		}
		g = ls
	}
	f := geojson.NewFeature(g)
	f.Properties["kind"] = "path"
	return fc.Append(f)
}

// Flip mirrors every geometry and bounding box of fc top to bottom,
// y ↦ −y, in place, and returns fc: GIS tools, whose y grows up, then show
// a map as Cairn's pictures do, row 0 at the top (at y = 0, the map below
// it at negative y). Polygon rings are reversed too, so that they keep
// RFC 7946's right-hand rule; lines keep their direction. Flipping twice
// restores fc. It costs O(positions).
func Flip(fc *geojson.FeatureCollection) *geojson.FeatureCollection {
	flipBBox(fc.BBox)
	for _, f := range fc.Features {
		f.Geometry = flipGeometry(f.Geometry)
		flipBBox(f.BBox)
	}
	return fc
}

// neg returns −y, but +0 for ±0, so that JSON says 0 rather than -0.
func neg(y float64) float64 { return 0 - y }

func flipPoints(ps []orb.Point) {
	for i := range ps {
		ps[i][1] = neg(ps[i][1])
	}
}

func flipRing(r orb.Ring) {
	flipPoints(r)
	slices.Reverse(r)
}

// flipGeometry returns g mirrored; slices are flipped in place.
func flipGeometry(g orb.Geometry) orb.Geometry {
	switch g := g.(type) {
	case orb.Point:
		return orb.Point{g[0], neg(g[1])}
	case orb.MultiPoint:
		flipPoints(g)
	case orb.LineString:
		flipPoints(g)
	case orb.MultiLineString:
		for _, ls := range g {
			flipPoints(ls)
		}
	case orb.Ring:
		flipRing(g)
	case orb.Polygon:
		for _, r := range g {
			flipRing(r)
		}
	case orb.MultiPolygon:
		for _, p := range g {
			for _, r := range p {
				flipRing(r)
			}
		}
	case orb.Collection:
		for i := range g {
			g[i] = flipGeometry(g[i])
		}
	case orb.Bound:
		return orb.Bound{Min: orb.Point{g.Min[0], neg(g.Max[1])}, Max: orb.Point{g.Max[0], neg(g.Min[1])}}
	}
	return g
}

// flipBBox mirrors a two-dimensional bounding box [minx, miny, maxx, maxy].
func flipBBox(b geojson.BBox) {
	if len(b) == 4 {
		b[1], b[3] = neg(b[3]), neg(b[1])
	}
}
