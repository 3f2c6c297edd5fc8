package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/meshcheck"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/navmesh/navjson"
)

// squareJSON is a 10×10 square with a 2×2 hole from 4,4 to 6,6, as GeoJSON
// (navbuild's test input), and a point that navjson leaves out:
//
//	0,0 ┌──────────┐ 10,0
//	    │          │
//	    │    ┌┐    │   the hole: 4..6 × 4..6
//	    │    └┘    │
//	0,10└──────────┘ 10,10
const squareJSON = `{"type":"FeatureCollection","features":[
 {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
  [[0,0],[10,0],[10,10],[0,10],[0,0]],
  [[4,4],[4,6],[6,6],[6,4],[4,4]]]}},
 {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,1]}}]}`

// writeMesh writes m to dir/name and returns the file's path.
func writeMesh(t *testing.T, m *navmesh.Mesh, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeSquareMesh writes the mesh of squareJSON, as navbuild -geojson does.
func writeSquareMesh(t *testing.T, dir string) string {
	t.Helper()
	mp, err := navjson.Polygons([]byte(squareJSON))
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.FromPolygons(mp, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return writeMesh(t, m, dir, "square.nav")
}

// writeGridMesh writes the mesh FromGrid builds of g with opt.
func writeGridMesh(t *testing.T, g *grid.Grid, opt navmesh.Options, dir, name string) string {
	t.Helper()
	m, err := navmesh.FromGrid(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	return writeMesh(t, m, dir, name)
}

// pathLength returns the length of the waypoints of a -path line.
func pathLength(t *testing.T, line string) float64 {
	t.Helper()
	pts := parseVecLine(t, line)
	l := 0.0
	for i := 1; i < len(pts); i++ {
		l += pts[i].Sub(pts[i-1]).Len()
	}
	return l
}

// TestRouteMeshAlone routes between points of a GeoJSON mesh with no map:
// a straight leg where the ends see each other, the way round the hole's
// lower corners otherwise, each as long as computed by hand.
func TestRouteMeshAlone(t *testing.T) {
	mesh := writeSquareMesh(t, t.TempDir())
	for _, tc := range []struct {
		name     string
		from, to string
		path     string // the waypoints, as -path prints them
		length   float64
	}{
		{"straight", "0.5,1.5", "9.5,2.25", "0.500000,1.500000 9.500000,2.250000", math.Hypot(9, 0.75)},
		{"round the hole", "0.5,5.25", "9.75,5.25", "0.500000,5.250000 4.000000,6.000000 6.000000,6.000000 9.750000,5.250000",
			math.Hypot(3.5, 0.75) + 2 + math.Hypot(3.75, 0.75)},
		{"integers are points", "1,1", "9,1", "1.000000,1.000000 9.000000,1.000000", 8},
		{"along a wall", "0,3", "0,7", "0.000000,3.000000 0.000000,7.000000", 4},
		{"one point", "2,2", "2,2", "2.000000,2.000000", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pathfind(t, "route", "-mesh", mesh, "-from", tc.from, "-to", tc.to, "-path")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := field(t, out, "path"); got != tc.path {
				t.Errorf("path %s, want %s", got, tc.path)
			}
			if got := pathLength(t, field(t, out, "path")); math.Abs(got-tc.length) > 1e-9 {
				t.Errorf("path %v long, want %v", got, tc.length)
			}
			if got, want := field(t, out, "cost"), fmt.Sprintf("%.5f", tc.length); got != want {
				t.Errorf("cost %s, want %s", got, want)
			}
			if got := field(t, out, "source"); !strings.Contains(got, "bound to no map") {
				t.Errorf("source %q, want a mesh of polygons bound to no map", got)
			}
			// The corridor search's path is as legal (route checks it) and
			// no shorter.
			out, errOut, code = pathfind(t, "route", "-mesh", mesh, "-from", tc.from, "-to", tc.to, "-algo", "corridor", "-path")
			if code != 0 {
				t.Fatalf("-algo corridor: exit %d: %s", code, errOut)
			}
			if got := pathLength(t, field(t, out, "path")); got < tc.length-1e-6 {
				t.Errorf("-algo corridor: path %v long, shorter than the shortest, %v", got, tc.length)
			}
		})
	}
}

// TestRouteMeshAloneErrors checks the ends off the mesh, bad coordinates
// and the flags that need a map.
func TestRouteMeshAloneErrors(t *testing.T) {
	dir := t.TempDir()
	mesh := writeSquareMesh(t, dir)
	route := func(args ...string) []string { return append([]string{"route", "-mesh", mesh}, args...) }
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"start in the hole", route("-from", "5,5.5", "-to", "1,1"), 1, "start 5.000000,5.500000 is not on the mesh (the nearest point of the mesh is 5.000000,6.000000)"},
		{"goal in the hole", route("-from", "1,1", "-to", "4.5,4.5"), 1, "goal 4.500000,4.500000 is not on the mesh"},
		{"goal outside", route("-from", "1,1", "-to", "11,3"), 1, "goal 11.000000,3.000000 is not on the mesh (the nearest point of the mesh is 10.000000,3.000000)"},
		{"start outside", route("-from", "-0.5,3", "-to", "1,1"), 1, "start -0.500000,3.000000 is not on the mesh"},
		{"NaN", route("-from", "1,NaN", "-to", "1,1"), 2, `invalid value "1,NaN" for flag -from: want x,y: y "NaN" is not finite`},
		{"Inf", route("-from", "1,1", "-to", "-Inf,1"), 2, `invalid value "-Inf,1" for flag -to: want x,y: x "-Inf" is not finite`},
		{"out of range", route("-from", "1e400,1", "-to", "1,1"), 2, `flag -from: want x,y: x "1e400" is out of range`},
		{"no comma", route("-from", "1.5", "-to", "1,1"), 2, `invalid value "1.5" for flag -from: want x,y: no comma in "1.5"`},
		{"three parts", route("-from", "1,2,3", "-to", "1,1"), 2, `invalid value "1,2,3" for flag -from: want x,y: "1,2,3" has 3 parts`},
		{"not a number", route("-from", "1,1", "-to", "1,y"), 2, `flag -to: want x,y: y "y" is not a number`},
		{"empty part", route("-from", ",1", "-to", "1,1"), 2, `flag -from: want x,y: x "" is not a number`},
		{"no to", route("-from", "1,1"), 2, "-to is required"},
		{"no map nor mesh", []string{"route", "-from", "1,1", "-to", "2,2"}, 2, "-map is required (or -mesh FILE alone"},
		{"grid algo", route("-from", "1,1", "-to", "2,2", "-algo", "astar"), 2, "-algo astar needs -map"},
		{"unknown algo", route("-from", "1,1", "-to", "2,2", "-algo", "jps+"), 2, `unknown -algo "jps+"`},
		{"radius", route("-from", "1,1", "-to", "2,2", "-radius", "0.5"), 2, "-radius needs -map: a mesh file keeps the radius it was built for"},
		{"size", route("-from", "1,1", "-to", "2,2", "-size", "2"), 2, "-size needs -map"},
		{"filter", route("-from", "1,1", "-to", "2,2", "-filter", "W=x"), 2, "-filter needs -map"},
		{"budget", route("-from", "1,1", "-to", "2,2", "-max-expansions", "9"), 2, "-max-expansions needs -map"},
		{"graph", route("-from", "1,1", "-to", "2,2", "-graph", mesh), 2, "-graph needs -map"},
		{"missing mesh", []string{"route", "-mesh", filepath.Join(dir, "none.nav"), "-from", "1,1", "-to", "2,2"}, 1, "none.nav"},
		{"not a mesh", []string{"route", "-mesh", demoMap, "-from", "1,1", "-to", "2,2"}, 1, "not a mesh file"},
		{"fractions with a map", []string{"route", "-map", demoMap, "-from", "3.5,3", "-to", "4,4"}, 2, "-from 3.5,3: with -map, want x,y with integer x and y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want %d and one line with %q", code, errOut, tc.code, tc.want)
			}
		})
	}
}

// TestRouteMeshAloneDemo routes on meshes of the demo map read without the
// map, between the cells' centres given as points, and finds the answers
// route gives with the map and the same file: the same lines, and lengths
// within 1e-9 by the two code paths. The file says it was built from a
// 64×48 map.
func TestRouteMeshAloneDemo(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	for _, radius := range []float64{0, 0.4} {
		mesh := writeGridMesh(t, g, navmesh.Options{Radius: radius}, dir, fmt.Sprintf("demo%g.nav", radius))
		m, source, err := readMeshAlone(mesh)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(source, "a 64×48 map") {
			t.Errorf("radius %g: source %q, want a 64×48 map", radius, source)
		}
		rf := &routerFlags{algo: "navmesh", radius: radius, mesh: mesh}
		withMap, err := newMeshRouter(g, rf)
		if err != nil {
			t.Fatal(err)
		}
		sr := navmesh.NewSearcher(m)
		for _, sc := range demoNavScen {
			a, b := picture.Centre(sc.from), picture.Centre(sc.to)
			name := fmt.Sprintf("radius %g, %s to %s", radius, pointString(sc.from), pointString(sc.to))
			args := []string{"-from", shortVec(a), "-to", shortVec(b), "-path"}
			alone, errOut, code := pathfind(t, append([]string{"route", "-mesh", mesh}, args...)...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, errOut)
			}
			mapped, errOut, code := pathfind(t, "route", "-map", demoMap, "-algo", "navmesh", "-radius", strconv.FormatFloat(radius, 'g', -1, 64),
				"-mesh", mesh, "-from", pointString(sc.from), "-to", pointString(sc.to), "-path")
			if code != 0 {
				t.Fatalf("%s with -map: exit %d: %s", name, code, errOut)
			}
			for _, f := range []string{"status", "cost", "steps", "path"} {
				if x, y := field(t, alone, f), field(t, mapped, f); x != y {
					t.Errorf("%s: %s %q without the map, %q with it", name, f, x, y)
				}
			}
			path, res, err := sr.AppendPath(nil, a, b, navmesh.Query{})
			if err != nil {
				t.Fatal(err)
			}
			want, st, err := withMap.routePoints(nil, sc.from, sc.to)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != st.status || math.Abs(res.Length-st.cost) > 1e-9 || len(path) != len(want) {
				t.Errorf("%s: %v, %v long, %d points without the map; %v, %v, %d with it", name, res.Status, res.Length, len(path), st.status, st.cost, len(want))
			}
			if radius == 0 && sc.nav >= 0 && math.Abs(res.Length-sc.nav) > 1e-9 {
				t.Errorf("%s: %v long, want %v", name, res.Length, sc.nav)
			}
		}
	}
}

// TestRouteMeshAlonePNG draws a route on a mesh without its map.
func TestRouteMeshAlonePNG(t *testing.T) {
	dir := t.TempDir()
	for _, mesh := range []string{writeSquareMesh(t, dir), writeGridMesh(t, loadDemo(t), navmesh.Options{}, dir, "demo.nav")} {
		png := filepath.Join(dir, filepath.Base(mesh)+".png")
		out, errOut, code := pathfind(t, "route", "-mesh", mesh, "-from", "2.5,2.5", "-to", "9.5,5.25", "-png", png)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", mesh, code, errOut)
		}
		if got := field(t, out, "picture"); !strings.HasPrefix(got, png+" (panel 1024×") {
			t.Errorf("picture %q, want %s and its 1024-pixel panel", got, png)
		}
		img, err := picture.ReadPNG(png)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() < 1024 || b.Dy() < 100 {
			t.Errorf("%s: picture %v, want 1024 pixels wide at least", mesh, b)
		}
		for _, col := range []picture.Colour{picture.Navmesh, picture.Free, picture.Blocked, picture.Portal, picture.Start, picture.Goal} {
			if picture.Count(img, col) == 0 {
				t.Errorf("%s: no pixel of colour %d", mesh, col)
			}
		}
	}
}

// TestRouteMeshAloneIllegal checks that route catches wrong answers on a
// mesh without its map: each fake search below answers wrongly, on the
// GeoJSON square or on two cells that touch only at a corner.
func TestRouteMeshAloneIllegal(t *testing.T) {
	dir := t.TempDir()
	square := writeSquareMesh(t, dir)
	pinched, err := grid.FromRows([]string{".@", "@."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pinch := writeGridMesh(t, pinched, navmesh.Options{}, dir, "pinch.nav")
	a, b := mgl64.Vec2{0.5, 5.25}, mgl64.Vec2{9.75, 5.25}
	good := []mgl64.Vec2{a, {4, 6}, {6, 6}, b}
	goodLen := math.Hypot(3.5, 0.75) + 2 + math.Hypot(3.75, 0.75)
	p, q := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1.5, 1.5}
	found := func(l float64) navmesh.Result { return navmesh.Result{Status: core.Found, Length: l} }
	for _, tc := range []struct {
		name     string
		mesh     string
		from, to mgl64.Vec2
		path     []mgl64.Vec2
		res      navmesh.Result
		want     string
	}{
		{"through the hole", square, a, b, []mgl64.Vec2{a, b}, found(9.25), "leg 0.500000,5.250000 to 9.750000,5.250000 leaves the mesh after 4.000000,5.250000"},
		{"clips the hole", square, a, b, []mgl64.Vec2{a, {4.5, 6}, {6, 6}, b}, found(goodLen), "leaves the mesh after"},
		{"out of the square", square, a, b, []mgl64.Vec2{a, {5, 11}, b}, found(goodLen), "leaves the mesh after"},
		{"wrong length", square, a, b, good, found(goodLen + 1e-6), "reported length"},
		{"wrong start", square, a, b, append([]mgl64.Vec2{{1, 1}}, good[1:]...), found(goodLen), "path starts at 1.000000,1.000000, want 0.500000,5.250000"},
		{"wrong goal", square, a, b, good[:3], found(goodLen), "path ends at 6.000000,6.000000"},
		{"not finite", square, a, b, []mgl64.Vec2{a, {math.NaN(), 6}, b}, found(goodLen), "waypoint 1 (NaN, 6) is not finite"},
		{"unreachable", square, a, b, nil, navmesh.Result{Status: core.Unreachable}, "reported unreachable, but polygons"},
		{"budget", square, a, b, good, navmesh.Result{Status: core.BudgetSpent}, `unknown status "budget spent"`},
		{"through the pinch", pinch, p, q, []mgl64.Vec2{p, q}, found(math.Sqrt2), "passes between polygons that meet only at 1.000000,1.000000"},
		{"turns at the pinch", pinch, p, q, []mgl64.Vec2{p, {1, 1}, q}, found(math.Sqrt2), "path turns at 1.000000,1.000000 between polygons that meet only there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := searchMesh
			t.Cleanup(func() { searchMesh = saved })
			searchMesh = func(*navmesh.Searcher, mgl64.Vec2, mgl64.Vec2, navmesh.Query) ([]mgl64.Vec2, navmesh.Result, error) {
				return tc.path, tc.res, nil
			}
			_, errOut, code := pathfind(t, "route", "-mesh", tc.mesh, "-from", shortVec(tc.from), "-to", shortVec(tc.to))
			want := fmt.Sprintf("-algo navmesh answered %s to %s wrongly: ", vecString(tc.from), vecString(tc.to))
			if code != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, tc.want) {
				t.Errorf("status %d, stderr %q, want 1 and %q", code, errOut, want+tc.want)
			}
		})
	}
	// The true answers pass: the cells that touch at a corner are not
	// joined, and the square's paths are legal.
	for _, tc := range []struct {
		mesh, from, to, status string
	}{{pinch, "0.5,0.5", "1.5,1.5", "unreachable"}, {pinch, "0,0", "1,1", "found"}, {square, "0.5,5.25", "9.75,5.25", "found"}} {
		out, errOut, code := pathfind(t, "route", "-mesh", tc.mesh, "-from", tc.from, "-to", tc.to)
		if code != 0 || field(t, out, "status") != tc.status {
			t.Errorf("%s to %s: exit %d, %s\n%s", tc.from, tc.to, code, errOut, out)
		}
	}
}

// TestMeshChecker passes the navmesh's paths on the demo map, which turn
// at vertices that several polygons share, and refuses a leg through a
// wall.
func TestMeshChecker(t *testing.T) {
	g := loadDemo(t)
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := meshcheck.New(m)
	sr := navmesh.NewSearcher(m)
	for _, sc := range demoNavScen {
		a, b := picture.Centre(sc.from), picture.Centre(sc.to)
		path, res, err := sr.AppendPath(nil, a, b, navmesh.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if err := verifyMeshPoints(c, path, a, b, meshStats(res)); err != nil {
			t.Errorf("%v to %v: %v", sc.from, sc.to, err)
		}
	}
	// A leg straight through the wall of the first room is refused.
	if _, err := c.Path([]mgl64.Vec2{{3.5, 3.5}, {20.5, 3.5}}, mgl64.Vec2{3.5, 3.5}, mgl64.Vec2{20.5, 3.5}); err == nil || !strings.Contains(err.Error(), "leaves the mesh") {
		t.Errorf("through a wall: %v, want it to leave the mesh", err)
	}
	if got := c.Holding(nil, mgl64.Vec2{0.5, 0.5}); len(got) != 0 {
		t.Errorf("a blocked cell is held by polygons %v", got)
	}
}
