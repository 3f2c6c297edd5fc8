package main

import (
	"bytes"
	"errors"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

func navbuild(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var o, e bytes.Buffer
	code := run(args, &o, &e)
	return o.String(), e.String(), code
}

// TestBuildMap builds the demo map's mesh for a radius, reads it back for
// that map and radius, and sees it refused for another radius or map.
func TestBuildMap(t *testing.T) {
	dir := t.TempDir()
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	out, png := filepath.Join(dir, "demo.nav"), filepath.Join(dir, "demo.png")
	stdout, stderr, code := navbuild(t, "-map", mapPath, "-radius", "0.4", "-o", out, "-png", png)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"polygons", "portals", "vertices", "build time", "file size", "picture"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in the output:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(png); err != nil {
		t.Errorf("no picture: %v", err)
	}
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.ReadFor(bytes.NewReader(data), g, navmesh.Options{Radius: 0.4})
	if err != nil {
		t.Fatalf("ReadFor the same map and radius: %v", err)
	}
	built, err := navmesh.FromGrid(g, navmesh.Options{Radius: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	if m.NumPolys() != built.NumPolys() || m.NumVertices() != built.NumVertices() {
		t.Errorf("read %d polygons and %d vertices, built %d and %d", m.NumPolys(), m.NumVertices(), built.NumPolys(), built.NumVertices())
	}
	// The README's route through the two-cell doors, on the read mesh.
	_, res, err := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{3.5, 3.5}, mgl64.Vec2{60.5, 30.5}, navmesh.Query{})
	if err != nil || res.Status.String() != "found" {
		t.Errorf("route on the read mesh: %v %v", res.Status, err)
	}
	for _, opt := range []navmesh.Options{{}, {Radius: 0.5}} {
		_, err := navmesh.ReadFor(bytes.NewReader(data), g, opt)
		if _, ok := errors.AsType[*navmesh.FormatError](err); !ok {
			t.Errorf("ReadFor with %+v: %v, want a FormatError", opt, err)
		}
	}
	other := g.WithCells(g.Bounds(), true)
	if _, err := navmesh.ReadFor(bytes.NewReader(data), other, navmesh.Options{Radius: 0.4}); err == nil {
		t.Error("ReadFor another map: no error")
	}
}

// TestBuildTiled builds the demo map's mesh in tiles, reads it back with
// its tile size, and updates it after an edit as FromGrid's tiled mesh
// would be.
func TestBuildTiled(t *testing.T) {
	dir := t.TempDir()
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	out := filepath.Join(dir, "demo.nav")
	if _, stderr, code := navbuild(t, "-map", mapPath, "-tile", "16", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	opt := navmesh.Options{TileSize: 16}
	m, err := navmesh.ReadFor(bytes.NewReader(data), g, opt)
	if err != nil {
		t.Fatalf("ReadFor with the tile size: %v", err)
	}
	if _, err := navmesh.ReadFor(bytes.NewReader(data), g, navmesh.Options{TileSize: 24}); err == nil {
		t.Error("ReadFor with another tile size: no error")
	}
	edit := image.Rect(20, 10, 32, 11)
	g.SetCells(edit, false)
	if m, err = m.Update(g, edit); err != nil {
		t.Fatal(err)
	}
	fresh, err := navmesh.FromGrid(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumPolys() != fresh.NumPolys() || m.NumPortals() != fresh.NumPortals() || m.NumVertices() != fresh.NumVertices() {
		t.Errorf("updated: %d polygons, %d portals, %d vertices; fresh: %d, %d, %d", m.NumPolys(), m.NumPortals(), m.NumVertices(), fresh.NumPolys(), fresh.NumPortals(), fresh.NumVertices())
	}
	from, to := mgl64.Vec2{3.5, 3.5}, mgl64.Vec2{60.5, 30.5}
	_, a, _ := navmesh.NewSearcher(m).AppendPath(nil, from, to, navmesh.Query{})
	_, b, _ := navmesh.NewSearcher(fresh).AppendPath(nil, from, to, navmesh.Query{})
	if a.Status != b.Status || math.Abs(a.Length-b.Length) > 1e-9 {
		t.Errorf("updated mesh: %v %.6f; fresh: %v %.6f", a.Status, a.Length, b.Status, b.Length)
	}
}

// square is a 10×10 square with a 2×2 hole, as GeoJSON.
const square = `{"type":"FeatureCollection","features":[
 {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
  [[0,0],[10,0],[10,10],[0,10],[0,0]],
  [[4,4],[4,6],[6,6],[6,4],[4,4]]]}},
 {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,1]}}]}`

// TestBuildGeoJSON builds a mesh of GeoJSON polygons and reads it back.
func TestBuildGeoJSON(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "square.json")
	if err := os.WriteFile(in, []byte(square), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "square.nav")
	if _, stderr, code := navbuild(t, "-geojson", in, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, on := m.Locate(mgl64.Vec2{5, 5}); on {
		t.Error("the hole's centre is on the mesh")
	}
	path, res, err := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{1, 5}, mgl64.Vec2{9, 5}, navmesh.Query{})
	// Round the hole's two upper corners or its two lower ones: as short.
	upper := len(path) == 4 && path[1] == (mgl64.Vec2{4, 4}) && path[2] == (mgl64.Vec2{6, 4})
	lower := len(path) == 4 && path[1] == (mgl64.Vec2{4, 6}) && path[2] == (mgl64.Vec2{6, 6})
	if want := 2*math.Hypot(3, 1) + 2; err != nil || !(upper || lower) || math.Abs(res.Length-want) > 1e-9 {
		t.Errorf("around the hole: %v, %v, length %v (%v), want a path round two corners of the hole, %v long", path, res.Status, res.Length, err, want)
	}
}

// TestBuildErrors checks the usage errors and bad inputs.
// TestBuildLandmarks builds a mesh with landmarks and reads them back, and
// sees that its paths are those of the mesh without.
func TestBuildLandmarks(t *testing.T) {
	dir := t.TempDir()
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	out := filepath.Join(dir, "demo.nav")
	stdout, stderr, code := navbuild(t, "-map", mapPath, "-landmarks", "3", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "landmarks     3") {
		t.Errorf("no landmarks in the output:\n%s", stdout)
	}
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.ReadFor(bytes.NewReader(data), g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Landmarks() != 3 {
		t.Fatalf("read %d landmarks, want 3", m.Landmarks())
	}
	plain, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := navmesh.NewSearcher(m), navmesh.NewSearcher(plain)
	from, to := mgl64.Vec2{3.5, 3.5}, mgl64.Vec2{60.5, 30.5}
	_, ra, errA := a.AppendPath(nil, from, to, navmesh.Query{})
	_, rb, errB := b.AppendPath(nil, from, to, navmesh.Query{})
	if errA != nil || errB != nil || math.Abs(ra.Length-rb.Length) > 1e-9 {
		t.Errorf("length %v (%v) with landmarks, %v (%v) without", ra.Length, errA, rb.Length, errB)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"type":"Feature"`), 0o644)
	points := filepath.Join(dir, "points.json")
	os.WriteFile(points, []byte(`{"type":"Point","coordinates":[1,1]}`), 0o644)
	out := filepath.Join(dir, "x.nav")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-o", out}, 2, "one of -map and -geojson"},
		{[]string{"-map", mapPath, "-geojson", bad, "-o", out}, 2, "one of -map and -geojson"},
		{[]string{"-map", mapPath}, 2, "-o is required"},
		{[]string{"-map", mapPath, "-o", out, "-radius", "-1"}, 2, "-radius"},
		{[]string{"-map", mapPath, "-o", out, "-radius", "NaN"}, 2, "-radius"},
		{[]string{"-map", mapPath, "-o", out, "-tile", "-3"}, 2, "-tile"},
		{[]string{"-map", mapPath, "-o", out, "-landmarks", "33"}, 2, "-landmarks 33, want 0 to 32"},
		{[]string{"-map", mapPath, "-o", out, "-landmarks", "-1"}, 2, "-landmarks"},
		{[]string{"-map", mapPath, "-o", out, "-tile", "16", "-radius", "0.4"}, 2, "-tile"},
		{[]string{"-geojson", bad, "-o", out, "-png", filepath.Join(dir, "p.png")}, 2, "-png"},
		{[]string{"-map", mapPath, "-o", mapPath}, 2, "the input itself"},
		{[]string{"-geojson", bad, "-o", out}, 1, "not GeoJSON"},
		{[]string{"-geojson", points, "-o", out}, 1, "no Polygon"},
		{[]string{"-map", filepath.Join(dir, "missing.map"), "-o", out}, 1, "missing.map"},
		{[]string{"-map", mapPath, "-o", filepath.Join(dir, "no", "such", "dir", "x.nav")}, 1, "-o"},
	} {
		_, stderr, code := navbuild(t, tc.args...)
		if code != tc.code || !strings.HasPrefix(stderr, "navbuild: ") || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want %d and one line with %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed build left a mesh file")
	}
}
