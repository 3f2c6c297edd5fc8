package navjson_test

import (
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/navmesh/navjson"
)

const squareWithHole = `{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[4,4],[4,6],[6,6],[6,4],[4,4]]]}`

// TestPolygons reads the walkable area from each kind of document.
func TestPolygons(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		polys     int
		err       string
	}{
		{"geometry", squareWithHole, 1, ""},
		{"feature", `{"type":"Feature","properties":{},"geometry":` + squareWithHole + `}`, 1, ""},
		{"collection with a point", `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":` + squareWithHole +
			`},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,1]}}]}`, 1, ""},
		{"multipolygon", `{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}`, 2, ""},
		{"points only", `{"type":"Point","coordinates":[1,1]}`, 0, "no Polygon"},
		{"empty collection", `{"type":"FeatureCollection","features":[]}`, 0, "no Polygon"},
		{"not json", `{"type":`, 0, "not GeoJSON"},
	} {
		mp, err := navjson.Polygons([]byte(tc.doc))
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "navjson: ") {
				t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
			}
		case err != nil || len(mp) != tc.polys:
			t.Errorf("%s: %d polygons (%v), want %d", tc.name, len(mp), err, tc.polys)
		}
	}
	mp, err := navjson.Polygons([]byte(squareWithHole))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := navmesh.FromPolygons(mp, navmesh.Options{}); err != nil {
		t.Errorf("FromPolygons of the square with a hole: %v", err)
	}
}

// FuzzPolygons reads arbitrary documents: never a panic, and what is read
// is either meshed or refused with an error by FromPolygons.
func FuzzPolygons(f *testing.F) {
	f.Add([]byte(squareWithHole))
	f.Add([]byte(`{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}`))
	f.Add([]byte(`{"type":"Polygon","coordinates":[[[0,0],[1e308,0],[0,1e308],[0,0]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		mp, err := navjson.Polygons(data)
		if err != nil {
			return
		}
		if len(mp) == 0 {
			t.Fatal("no polygons and no error")
		}
		n := 0
		for _, p := range mp {
			for _, r := range p {
				n += len(r)
			}
		}
		if n > 2000 {
			return // keep each run short
		}
		navmesh.FromPolygons(mp, navmesh.Options{})
	})
}
