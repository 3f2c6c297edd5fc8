package navjson_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/navmesh/navjson"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
)

// twiceArea is the shoelace sum of a closed ring: positive when the ring
// runs counter-clockwise with y read as growing up.
func twiceArea(r orb.Ring) float64 {
	var s float64
	for i := 1; i < len(r); i++ {
		s += r[i-1][0]*r[i][1] - r[i][0]*r[i-1][1]
	}
	return s
}

func roundTripJSON(t *testing.T, fc *geojson.FeatureCollection) (*geojson.FeatureCollection, []byte) {
	t.Helper()
	data, err := json.Marshal(fc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return back, data
}

// smallMap is three rectangles: A, C and B below them.
func smallMap(t *testing.T) *grid.Grid {
	t.Helper()
	g, err := grid.FromRows([]string{".#.", "..."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mesh(t *testing.T, g *grid.Grid, opt navmesh.Options) *navmesh.Mesh {
	t.Helper()
	m, err := navmesh.FromGrid(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustMesh(t *testing.T, g *grid.Grid) *navmesh.Mesh { return mesh(t, g, navmesh.Options{}) }

func rectMesh(t *testing.T, g *grid.Grid) *navmesh.Mesh {
	return mesh(t, g, navmesh.Options{Rectangles: true})
}

func TestFromMesh(t *testing.T) {
	g := smallMap(t)
	m := rectMesh(t, g)
	fc, data := roundTripJSON(t, navjson.FromMesh(m))
	if len(fc.Features) != m.NumPolys() || m.NumPolys() != 3 {
		t.Fatalf("%d features for %d polygons, want 3\n%s", len(fc.Features), m.NumPolys(), data)
	}
	// Polygon 2 is B = [0,3]×[1,2], whose north side is split at (1,1) and
	// (2,1), where A and C meet it.
	f := fc.Features[2]
	pg, ok := f.Geometry.(orb.Polygon)
	if !ok || len(pg) != 1 {
		t.Fatalf("feature 2 is a %T %v, want a polygon of one ring", f.Geometry, f.Geometry)
	}
	want := orb.Ring{{1, 1}, {2, 1}, {3, 1}, {3, 2}, {0, 2}, {0, 1}, {1, 1}}
	if !pg[0].Equal(want) {
		t.Errorf("ring %v, want %v", pg[0], want)
	}
	if id, ok := f.ID.(float64); !ok || id != 2 || f.Properties.MustInt("id", -1) != 2 {
		t.Errorf("feature id %v, property id %v, want 2", f.ID, f.Properties["id"])
	}
	if nbs, ok := f.Properties["neighbours"].([]any); !ok || !slices.Equal(nbs, []any{1.0, 0.0}) {
		t.Errorf("neighbours %v, want [1 0] (C across the north side's east part, then A)", f.Properties["neighbours"])
	}

	// Every ring of a larger mesh: closed, the right-hand rule, and the
	// polygon's vertices reversed.
	g = testmap.Random(3, 30, 20, 0.3, grid.Options{})
	m = mustMesh(t, g)
	fc, _ = roundTripJSON(t, navjson.FromMesh(m))
	if len(fc.Features) != m.NumPolys() {
		t.Fatalf("%d features for %d polygons", len(fc.Features), m.NumPolys())
	}
	for id, f := range fc.Features {
		r := f.Geometry.(orb.Polygon)[0]
		vs := m.AppendPolygon(nil, navmesh.PolyID(id))
		if !r.Closed() || len(r) != len(vs)+1 || twiceArea(r) <= 0 {
			t.Fatalf("polygon %d: ring %v is not closed counter-clockwise (y up) round %v", id, r, vs)
		}
		for i, p := range r[:len(vs)] {
			if mgl64.Vec2(p) != vs[len(vs)-1-i] {
				t.Fatalf("polygon %d: ring %v, vertices %v", id, r, vs)
			}
		}
		if got, want := len(f.Properties["neighbours"].([]any)), len(m.AppendNeighbors(nil, navmesh.PolyID(id))); got != want {
			t.Fatalf("polygon %d: %d neighbours, want %d", id, got, want)
		}
	}

	empty, _ := grid.FromRows([]string{"#"}, grid.Options{})
	if fc, data := roundTripJSON(t, navjson.FromMesh(mustMesh(t, empty))); len(fc.Features) != 0 {
		t.Errorf("mesh of no polygons: %s", data)
	}
}

func TestAppendPath(t *testing.T) {
	g := smallMap(t)
	m := rectMesh(t, g)
	path, _, err := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 0.5}, navmesh.Query{})
	if err != nil {
		t.Fatal(err)
	}
	fc := navjson.AppendPath(navjson.FromMesh(m), path)
	fc = navjson.AppendPath(fc, path[:1])
	fc = navjson.AppendPath(fc, nil)
	back, data := roundTripJSON(t, fc)
	if len(back.Features) != m.NumPolys()+2 {
		t.Fatalf("%d features, want %d polygons and 2 paths\n%s", len(back.Features), m.NumPolys(), data)
	}
	line, ok := back.Features[m.NumPolys()].Geometry.(orb.LineString)
	if want := (orb.LineString{{0.5, 0.5}, {1, 1}, {2, 1}, {2.5, 0.5}}); !ok || !line.Equal(want) {
		t.Errorf("path %v, want %v", back.Features[m.NumPolys()].Geometry, want)
	}
	if k := back.Features[m.NumPolys()].Properties.MustString("kind", ""); k != "path" {
		t.Errorf("kind %q, want path", k)
	}
	if p, ok := back.Features[m.NumPolys()+1].Geometry.(orb.Point); !ok || p != (orb.Point{0.5, 0.5}) {
		t.Errorf("one-point path %v, want the point", back.Features[m.NumPolys()+1].Geometry)
	}
	if fc := navjson.AppendPath(nil, path); len(fc.Features) != 1 {
		t.Errorf("path into a nil collection: %d features", len(fc.Features))
	}
}

func TestFlip(t *testing.T) {
	g := testmap.Random(4, 20, 10, 0.3, grid.Options{})
	m := mustMesh(t, g)
	fc := navjson.AppendPath(navjson.FromMesh(m), []mgl64.Vec2{{0.5, 0.5}, {3, 1}, {4.5, 7.5}})
	fc.Append(geojson.NewFeature(orb.Collection{orb.Point{1, 2}, orb.Bound{Min: orb.Point{0, 1}, Max: orb.Point{2, 3}}}))
	fc.BBox = geojson.BBox{0, 0, 20, 10}
	before, err := json.Marshal(fc)
	if err != nil {
		t.Fatal(err)
	}
	navjson.Flip(fc)
	for id := range m.NumPolys() {
		r := fc.Features[id].Geometry.(orb.Polygon)[0]
		if twiceArea(r) <= 0 {
			t.Fatalf("flipped polygon %d: ring %v breaks the right-hand rule", id, r)
		}
		vs := m.AppendPolygon(nil, navmesh.PolyID(id))
		for i, v := range vs { // the ring now starts at the last vertex
			if r[i+1] != (orb.Point{v[0], 0 - v[1]}) {
				t.Fatalf("flipped polygon %d: ring %v, vertices %v", id, r, vs)
			}
		}
	}
	if line := fc.Features[m.NumPolys()].Geometry.(orb.LineString); !line.Equal(orb.LineString{{0.5, -0.5}, {3, -1}, {4.5, -7.5}}) {
		t.Errorf("flipped path %v", line)
	}
	c := fc.Features[m.NumPolys()+1].Geometry.(orb.Collection)
	if c[0] != (orb.Point{1, -2}) || c[1] != (orb.Bound{Min: orb.Point{0, -3}, Max: orb.Point{2, -1}}) {
		t.Errorf("flipped collection %v", c)
	}
	if !slices.Equal(fc.BBox, geojson.BBox{0, -10, 20, 0}) {
		t.Errorf("flipped bbox %v", fc.BBox)
	}
	flipped, _ := json.Marshal(fc)
	if bytes.Contains(flipped, []byte("-0,")) || bytes.Contains(flipped, []byte("-0]")) {
		t.Errorf("flipped collection holds -0: %s", flipped)
	}
	after, _ := json.Marshal(navjson.Flip(fc))
	if !bytes.Equal(before, after) {
		t.Errorf("flipping twice changes the collection:\n%s\n%s", before, after)
	}
}

func ExampleFromMesh() {
	//	    0 1 2
	//	  0 A # C      three rectangles: A, C and B below them
	//	  1 B B B
	g, _ := grid.FromRows([]string{".#.", "..."}, grid.Options{})
	m, _ := navmesh.FromGrid(g, navmesh.Options{Rectangles: true})
	q := navmesh.NewSearcher(m)
	path, _, _ := q.AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 0.5}, navmesh.Query{})
	fc := navjson.AppendPath(navjson.FromMesh(m), path)
	for _, f := range fc.Features {
		fmt.Println(f.Geometry.GeoJSONType(), f.Properties, f.Geometry)
	}
	// Output:
	// Polygon map[id:0 neighbours:[2]] [[[1 0] [1 1] [0 1] [0 0] [1 0]]]
	// Polygon map[id:1 neighbours:[2]] [[[3 0] [3 1] [2 1] [2 0] [3 0]]]
	// Polygon map[id:2 neighbours:[1 0]] [[[1 1] [2 1] [3 1] [3 2] [0 2] [0 1] [1 1]]]
	// LineString map[kind:path] [[0.5 0.5] [1 1] [2 1] [2.5 0.5]]
}
