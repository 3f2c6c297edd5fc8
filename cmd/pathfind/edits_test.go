package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/cairn-nav/cairn/navmesh"
)

// editsKeys are the keys the issue asks of "pathfind edits -json", and
// editsExtraKeys those it allows besides.
var (
	editsKeys = []string{"edits", "grid_us_median", "grid_us_max", "hpa_us_median", "hpa_us_max", "navmesh_us_median", "navmesh_us_max",
		"alloc_bytes_median", "grid_build_us", "hpa_build_us", "navmesh_build_us", "checked", "mismatched"}
	editsExtraKeys = []string{"map", "seed", "size", "queries", "jump_table", "hpa_nodes", "hpa_level_factor", "navmesh_rebuild",
		"navmesh_landmarks_before", "navmesh_landmarks_after", "scenarios", "scen_navmesh_us_median", "scen_grid_us_median"}
)

// diag10 is a 10×10 map with a wall on its diagonal: every row and column
// has a blocked cell, so no wall of 10 cells fits.
const diag10 = `type octile
height 10
width 10
map
@.........
.@........
..@.......
...@......
....@.....
.....@....
......@...
.......@..
........@.
.........@
`

// writeWorld writes a generated world of side n to dir and returns its
// path and grid.
func writeWorld(t *testing.T, dir string, n int, seed uint64) (string, *grid.Grid) {
	t.Helper()
	g, err := mapgen.World(mapgen.WorldOptions{Width: n, Height: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := grid.WriteMap(&buf, g); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, "world.map", buf.String()), g
}

// editsJSON decodes the JSON summary of a run and checks that it has all
// the keys and no others than it allows.
func editsJSON(t *testing.T, out string) map[string]float64 {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	for _, k := range editsKeys {
		if _, ok := raw[k]; !ok {
			t.Errorf("no key %q in %s", k, out)
		}
	}
	nums := map[string]float64{}
	for k, v := range raw {
		if !slices.Contains(editsKeys, k) && !slices.Contains(editsExtraKeys, k) {
			t.Errorf("unexpected key %q in %s", k, out)
		}
		if x, ok := v.(float64); ok {
			nums[k] = x
		}
	}
	return nums
}

// TestEditsJSON runs edits with a graph file and a tiled navmesh, then with
// the graph in memory, no navmesh and no checks: every key is there, the
// checks cover 20 queries a layer after every edit and find nothing, and
// the layers not asked for report 0.
func TestEditsJSON(t *testing.T) {
	dir := t.TempDir()
	world, g := writeWorld(t, dir, 160, 3)
	graph, hg := writeGraph(t, g, hpa.Options{ClusterSize: 16}, dir, "world.hpa")

	out, errOut, code := pathfind(t, "edits", "-map", world, "-graph", graph, "-navmesh", "-tile", "32", "-n", "3", "-size", "8", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	sum := editsJSON(t, out)
	if sum["edits"] != 6 || sum["checked"] != 3*20*6 || sum["mismatched"] != 0 || sum["size"] != 8 || sum["queries"] != 20 ||
		sum["hpa_nodes"] != float64(hg.Stats().Nodes) {
		t.Errorf("got %s, want 6 edits, 360 checked, 0 mismatched, size 8, 20 queries, %d nodes", out, hg.Stats().Nodes)
	}
	for _, layer := range layerNames {
		med, largest, build := sum[layer+"_us_median"], sum[layer+"_us_max"], sum[layer+"_build_us"]
		if !(med > 0 && largest >= med && build > 0) {
			t.Errorf("%s: median %v µs, max %v µs, build %v µs; want 0 < median ≤ max and a build > 0", layer, med, largest, build)
		}
	}
	if !(sum["alloc_bytes_median"] > 0) {
		t.Errorf("alloc_bytes_median %v, want > 0", sum["alloc_bytes_median"])
	}

	out, errOut, code = pathfind(t, "edits", "-map", world, "-hpa", "-n", "2", "-size", "8", "-check=false", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("-hpa -check=false: status %d, stderr %q", code, errOut)
	}
	sum = editsJSON(t, out)
	for _, k := range []string{"navmesh_us_median", "navmesh_us_max", "navmesh_build_us", "checked", "mismatched", "queries"} {
		if sum[k] != 0 {
			t.Errorf("-hpa -check=false: %s %v, want 0", k, sum[k])
		}
	}
	if sum["edits"] != 4 || !(sum["hpa_us_median"] > 0 && sum["hpa_build_us"] > 0) || sum["hpa_level_factor"] != 4 /* chosen for the small demo map */ {
		t.Errorf("-hpa -check=false: %s, want 4 edits, hpa figures and the default level factor", out)
	}

	// Another level factor, checked against fresh builds with it.
	out, errOut, code = pathfind(t, "edits", "-map", world, "-hpa", "-level-factor", "2", "-n", "2", "-size", "8", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("-level-factor 2: status %d, stderr %q", code, errOut)
	}
	sum = editsJSON(t, out)
	if sum["hpa_level_factor"] != 2 || sum["checked"] == 0 || sum["mismatched"] != 0 {
		t.Errorf("-level-factor 2: %s, want level factor 2, checks and no mismatch", out)
	}
}

// TestEditsMeshFile runs edits on a tiled mesh with landmarks read from a
// file: the walls put up and taken down leave its landmarks in place, and
// its queries match a fresh build's after every edit.
func TestEditsMeshFile(t *testing.T) {
	dir := t.TempDir()
	world, g := writeWorld(t, dir, 160, 3)
	m, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 32})
	if err != nil {
		t.Fatal(err)
	}
	if m, err = m.WithLandmarks(3); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	mesh := writeFile(t, dir, "world.nav", buf.String())
	var scen strings.Builder
	scen.WriteString("version 1\n")
	r := testmap.NewRand(5)
	for _, p := range testmap.RandomPairs(r, g, 6) {
		fmt.Fprintf(&scen, "0\tworld.map\t160\t160\t%d\t%d\t%d\t%d\t0\n", p[0].X, p[0].Y, p[1].X, p[1].Y)
	}
	scenPath := writeFile(t, dir, "world.map.scen", scen.String())
	out, errOut, code := pathfind(t, "edits", "-map", world, "-navmesh", "-tile", "32", "-mesh", mesh, "-n", "3", "-size", "8",
		"-scen", scenPath, "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	sum := editsJSON(t, out)
	if sum["navmesh_landmarks_before"] != 3 || sum["navmesh_landmarks_after"] != 3 || sum["checked"] != 2*20*6 || sum["mismatched"] != 0 ||
		sum["scenarios"] != 6 || !(sum["scen_navmesh_us_median"] > 0 && sum["scen_grid_us_median"] > 0) {
		t.Errorf("got %s, want 3 landmarks before and after, 240 checked, 0 mismatched, 6 scenarios timed", out)
	}
	_, errOut, code = pathfind(t, "edits", "-map", world, "-navmesh", "-tile", "16", "-mesh", mesh, "-n", "1")
	if code != 1 || !strings.Contains(errOut, "tiles") {
		t.Errorf("a mesh of tiles of 32 read as of 16: status %d, stderr %q; want 1 and a word on tiles", code, errOut)
	}
}

// TestEditsChecksEveryLayer sees each layer checked on at least 20 queries
// after every edit, with no mismatch.
func TestEditsChecksEveryLayer(t *testing.T) {
	dir := t.TempDir()
	world, g := writeWorld(t, dir, 128, 7)
	graph, _ := writeGraph(t, g, hpa.Options{}, dir, "world.hpa")
	f := &editsFlags{mapPath: world, n: 4, size: 6, seed: 2, graph: graph, withMesh: true, tile: 32, check: true, queries: 20}
	sum, err := f.measure()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for l, n := range sum.checkedBy {
		total += n
		if n < 20*sum.Edits {
			t.Errorf("%s: %d queries checked over %d edits, want at least %d", layerNames[l], n, sum.Edits, 20*sum.Edits)
		}
	}
	if sum.Checked != total || sum.Mismatched != 0 || sum.bad.err(sum.Checked) != nil {
		t.Errorf("checked %d (layers %v), mismatched %d: %v", sum.Checked, sum.checkedBy, sum.Mismatched, sum.bad.err(sum.Checked))
	}
}

// TestEditsText reads the text summary: the edits, the builds, each
// layer's median against its build, and the check.
func TestEditsText(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "wall10.map", wall10)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-map", m, "-n", "2", "-size", "3"}, []string{
			"edits       4 in place: 2 walls of 3×1 or 1×3 cells across long paths, put up and taken down (seed 1)\n",
			"builds      grid ",
			"of a build)\n",
			"allocated   median ",
			"check       checked 20 queries after every edit: 0 mismatched (20 a layer: grid; 80 in all, against fresh builds)\n",
		}},
		{[]string{"-map", demoMap, "-n", "2", "-hpa", "-navmesh", "-tile", "0"}, []string{
			"(16 nodes, level factor 4)", // chosen for the small demo map
			"navmesh ", "(no tiles), from scratch\n",
			"hpa         median ",
			"navmesh     a rebuild with navmesh.FromGrid (-tile 0): median ",
			"check       checked 60 queries after every edit: 0 mismatched (20 a layer: grid, hpa, navmesh; 240 in all",
		}},
		{[]string{"-map", m, "-n", "1", "-size", "2", "-check=false"}, []string{"check       none (-check=false)\n"}},
	} {
		out, errOut, code := pathfind(t, append([]string{"edits"}, tc.args...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: status %d, stderr %q", tc.args, code, errOut)
		}
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, want, out)
			}
		}
	}
}

// TestEditsCatchesBrokenUpdate skips the graph's update after one edit:
// the checks must see it, the summary still be printed, and the run fail.
func TestEditsCatchesBrokenUpdate(t *testing.T) {
	skipHPAUpdate = func(edit int) bool { return edit == 2 }
	t.Cleanup(func() { skipHPAUpdate = nil })
	out, errOut, code := pathfind(t, "edits", "-map", demoMap, "-hpa", "-n", "3", "-size", "8", "-json")
	if code != 1 {
		t.Fatalf("status %d, want 1; stderr %q", code, errOut)
	}
	sum := editsJSON(t, out)
	if !(sum["mismatched"] > 0) || sum["checked"] != 2*20*6 {
		t.Errorf("got %s, want mismatched > 0 and 240 checked", out)
	}
	for _, want := range []string{"pathfind: check: ", " mismatched against fresh builds", "edit 3 of 6 (wall ", "put up): hpa "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %q", want, errOut)
		}
	}
	if strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr is not one line: %q", errOut)
	}
}

// TestPlaceWalls checks the walls placeWalls returns: k×1 or 1×k free
// cells inside the map, centred (or shifted inside the map) on a cell of
// the middle half or later of a legal path between two cells of one
// region, across its direction there, and clear of the wall before; the
// same for the same seed.
func TestPlaceWalls(t *testing.T) {
	dir := t.TempDir()
	_, world := writeWorld(t, dir, 160, 5)
	small, err := grid.ReadMap(strings.NewReader(wall10), "wall10", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *grid.Grid
		k    int
		long bool // the paths' ends are a quarter of the map's side apart
	}{
		{"demo/1", loadDemo(t), 1, true},
		{"demo/12", loadDemo(t), 12, true},
		{"world/5", world, 5, true},
		{"world/12", world, 12, true},
		{"wall10/3", small, 3, false},
		{"wall10/10", small, 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, k := tc.g, tc.k
			walls, err := placeWalls(g, k, 12, 9)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range walls {
				r, path, at := w.rect, w.path, w.at
				n := len(path)
				if _, err := g.PathCost(path); err != nil || n < 3 || !g.Connected(path[0], path[n-1]) {
					t.Fatalf("wall %d: path of %d cells is not a path: %v", i, n, err)
				}
				if tc.long && grid.Octile(path[0], path[n-1]) < float64(max(g.Width(), g.Height()))/4 {
					t.Errorf("wall %d: path from %v to %v is short", i, path[0], path[n-1])
				}
				d := path[at+1].Sub(path[at-1])
				dx, dy := max(d.X, -d.X), max(d.Y, -d.Y)
				c := path[at]
				vertical := r.Dx() == 1 && r.Dy() == k
				want := image.Rect(c.X, clampStart(c.Y, k, g.Height()), c.X+1, clampStart(c.Y, k, g.Height())+k)
				if !vertical {
					want = image.Rect(clampStart(c.X, k, g.Width()), c.Y, clampStart(c.X, k, g.Width())+k, c.Y+1)
				}
				switch {
				case at < max(1, n/4) || at > n-2:
					t.Errorf("wall %d: on cell %d of a path of %d", i, at, n)
				case r != want:
					t.Errorf("wall %d: got %v, want %v, centred on %v", i, r, want, c)
				case k > 1 && (vertical && dx < dy || !vertical && dx > dy):
					t.Errorf("wall %d: %v along the path's step %v at %v", i, r, d, c)
				case !r.In(g.Bounds()) || !testmap.AllFree(g, r):
					t.Errorf("wall %d: %v is not all free cells of the map", i, r)
				case i > 0 && r.Overlaps(walls[i-1].rect):
					t.Errorf("wall %d: %v overlaps the wall before, %v", i, r, walls[i-1].rect)
				default:
					continue
				}
				t.Logf("near the wall (# blocked, * path, W wall):\n%s", drawWall(g, w))
			}
			again, err := placeWalls(g, k, 12, 9)
			if err != nil || !slices.EqualFunc(walls, again, func(a, b placedWall) bool { return a.rect == b.rect }) {
				t.Errorf("another run with the same seed placed other walls (%v)", err)
			}
		})
	}
}

// clampStart is where a run of k cells centred on c starts in [0, n).
func clampStart(c, k, n int) int { return min(max(c-k/2, 0), n-k) }

// drawWall draws the cells around a placed wall.
func drawWall(g *grid.Grid, w placedWall) string {
	on := w.rect.Inset(-3).Intersect(g.Bounds())
	var b strings.Builder
	for y := on.Min.Y; y < on.Max.Y; y++ {
		for x := on.Min.X; x < on.Max.X; x++ {
			p := image.Pt(x, y)
			switch {
			case p.In(w.rect):
				b.WriteByte('W')
			case slices.Contains(w.path, p):
				b.WriteByte('*')
			case !g.Passable(p):
				b.WriteByte('#')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestWallFits checks the two rules of a wall's place: shifted inside the
// map at its edges, and kept off free cells of standing walls.
func TestWallFits(t *testing.T) {
	g, err := grid.ReadMap(strings.NewReader(wall10), "wall10", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c        image.Point
		k        int
		vertical bool
		want     image.Rectangle
		fits     bool
	}{
		{image.Pt(2, 4), 5, false, image.Rect(0, 4, 5, 5), true},
		{image.Pt(0, 4), 3, false, image.Rect(0, 4, 3, 5), true},
		{image.Pt(9, 4), 3, false, image.Rect(7, 4, 10, 5), true},
		{image.Pt(7, 4), 5, false, image.Rect(5, 4, 10, 5), false}, // (5,4) is a wall
		{image.Pt(7, 9), 5, false, image.Rect(5, 9, 10, 10), true},
		{image.Pt(3, 0), 4, true, image.Rect(3, 0, 4, 4), true},
		{image.Pt(3, 9), 4, true, image.Rect(3, 6, 4, 10), true},
		{image.Pt(3, 5), 10, true, image.Rect(3, 0, 4, 10), true},
		{image.Pt(3, 5), 11, true, image.Rect(3, 0, 4, 11), false}, // longer than the map
	} {
		r := wallAt(tc.c, tc.k, tc.vertical, g.Bounds())
		p := &wallPlacer{g: g, k: tc.k}
		if r != tc.want || p.fits(r, nil) != tc.fits {
			t.Errorf("wall of %d at %v (vertical %v): got %v, fits %v; want %v, fits %v", tc.k, tc.c, tc.vertical, r, p.fits(r, nil), tc.want, tc.fits)
		}
		if tc.fits && p.fits(r, []image.Rectangle{image.Rect(tc.c.X, tc.c.Y, tc.c.X+1, tc.c.Y+1)}) {
			t.Errorf("wall %v fits where a standing wall holds %v", r, tc.c)
		}
		if tc.fits && !p.fits(r, []image.Rectangle{r.Add(image.Pt(20, 20))}) {
			t.Errorf("wall %v does not fit beside a standing wall far away", r)
		}
	}
}

func TestEditsErrors(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "wall10.map", wall10)
	d := writeFile(t, dir, "diag10.map", diag10)
	demoGraph, _ := writeGraph(t, loadDemo(t), hpa.Options{}, dir, "demo.hpa")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"edits"}, 2, "edits: -map is required"},
		{[]string{"edits", "-map", m, "-n", "0"}, 2, "-n 0, want 1 or more"},
		{[]string{"edits", "-map", m, "-size", "0"}, 2, "-size 0, want 1 or more"},
		{[]string{"edits", "-map", m, "-size", "11"}, 2, "-size 11 does not fit the 10×10 map"},
		{[]string{"edits", "-map", m, "-queries", "0"}, 2, "-queries 0, want 1 or more (or -check=false)"},
		{[]string{"edits", "-map", m, "-navmesh", "-tile", "-1"}, 2, "-tile -1, want 0 or more"},
		{[]string{"edits", "-map", m, "-mesh", "x.nav"}, 2, "-mesh needs -navmesh and a -tile above 0"},
		{[]string{"edits", "-map", m, "-scen", "x.scen"}, 2, "-scen needs -navmesh"},
		{[]string{"edits", "-map", m, "-navmesh", "-tile", "0", "-mesh", "x.nav"}, 2, "-mesh needs -navmesh and a -tile above 0"},
		{[]string{"edits", "-map", m, "-hpa", "-level-factor", "1"}, 2, "-level-factor 1, want 2 to 8"},
		{[]string{"edits", "-map", m, "-graph", demoGraph, "-level-factor", "2"}, 2, "-level-factor with -graph"},
		{[]string{"edits", "-map", m, "-wall", "3x1"}, 2, "flag provided but not defined: -wall"},
		{[]string{"edits", "-map", d, "-size", "10"}, 1, "placed 0 of 20 walls of 10×1 or 1×10 cells: no place for the next across 200 random paths"},
		{[]string{"edits", "-map", m, "-size", "3", "-graph", filepath.Join(dir, "none.hpa")}, 1, "no such file"},
		{[]string{"edits", "-map", m, "-size", "3", "-graph", demoGraph}, 1, "demo.hpa"},
		{[]string{"edits", "-map", filepath.Join(dir, "none.map")}, 1, "no such file"},
	} {
		_, errOut, code := pathfind(t, tc.args...)
		if code != tc.code || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

func TestEditsHelp(t *testing.T) {
	out, errOut, code := pathfind(t, "edits", "-h")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"pathfind edits -map FILE [-n N] [-size K] [-hpa [-level-factor F] | -graph FILE]", "-size K", "-queries Q", "-graph file",
		"implies -hpa", "-check", "(default true)", "-tile T", "-cpuprofile"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
}
