package navmesh_test

import (
	"bytes"
	"testing"

	"github.com/paulmach/orb"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
)

// TestOrigin checks what Mesh.Origin says of each way of building a mesh,
// and that a mesh read back from its file says the same.
func TestOrigin(t *testing.T) {
	g := testmap.Random(4, 23, 17, 0.1, grid.Options{})
	build := func(opt navmesh.Options) *navmesh.Mesh {
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	square := orb.Ring{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}}
	pm, err := navmesh.FromPolygon(orb.Polygon{square}, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    *navmesh.Mesh
		o    navmesh.Origin
		w, h int
	}{
		{"rectangles", build(navmesh.Options{Rectangles: true}), navmesh.OriginRectangles, 23, 17},
		{"convex", build(navmesh.Options{}), navmesh.OriginGrid, 23, 17},
		{"radius", build(navmesh.Options{Radius: 0.3}), navmesh.OriginGridRadius, 23, 17},
		{"polygons", pm, navmesh.OriginPolygons, 0, 0},
		{"zero", &navmesh.Mesh{}, navmesh.OriginNone, 0, 0},
	} {
		if o, w, h := tc.m.Origin(); o != tc.o || w != tc.w || h != tc.h {
			t.Errorf("%s: Origin %v %d×%d, want %v %d×%d", tc.name, o, w, h, tc.o, tc.w, tc.h)
		}
		if tc.o == navmesh.OriginNone {
			continue
		}
		var buf bytes.Buffer
		if _, err := tc.m.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		r, err := navmesh.Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if o, w, h := r.Origin(); o != tc.o || w != tc.w || h != tc.h {
			t.Errorf("%s read back: Origin %v %d×%d, want %v %d×%d", tc.name, o, w, h, tc.o, tc.w, tc.h)
		}
	}
}
