package navmesh_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// snapshot returns g's walkable cells.
func snapshot(g *grid.Grid) []bool {
	free := make([]bool, g.Width()*g.Height())
	for y := range g.Height() {
		for x := range g.Width() {
			free[y*g.Width()+x] = g.Passable(image.Pt(x, y))
		}
	}
	return free
}

// measured is what a mesh's landmarks were when measured: the walkable
// cells then, and each landmark's point and its distance to each vertex,
// by the vertex's point.
type measured struct {
	free []bool
	at   []mgl64.Vec2
	d    []map[mgl64.Vec2]float64
}

func measure(t *testing.T, m *navmesh.Mesh, g *grid.Grid, k int) (*navmesh.Mesh, *measured) {
	t.Helper()
	lm, err := m.WithLandmarks(k)
	if err != nil {
		t.Fatal(err)
	}
	if lm.Landmarks() != k {
		t.Fatalf("%d landmarks, want %d", lm.Landmarks(), k)
	}
	at, verts, d := navmesh.LandmarkDistances(lm)
	ms := &measured{free: snapshot(g), at: at}
	for l := range at {
		byPoint := make(map[mgl64.Vec2]float64, len(verts))
		for v, p := range verts {
			byPoint[p] = d[l][v]
		}
		ms.d = append(ms.d, byPoint)
	}
	return lm, ms
}

// TestLandmarkUpdate edits tiled meshes with landmarks in random
// sequences of walls put up and taken down and checks, after each edit,
// that Update keeps the landmarks exactly while every walkable cell was
// walkable where they were measured, and drops them else; that those it
// keeps are the distances measured then, vertex by vertex (NaN at a point
// that had no vertex), and bound every distance of the edited map by the
// triangle inequality (against the visibility-graph oracle); that queries
// have the lengths of a fresh build's, legal and optimal, with fewer
// expansions in all than without the landmarks; and that a mesh file keeps
// them. A mesh that lost its landmarks has them measured again.
func TestLandmarkUpdate(t *testing.T) {
	const k = 3
	var kept, dropped, with, without, poisoned int
	for i, g0 := range landmarkGrids(9) {
		g := copyGrid(t, g0)
		size := []int{5, 8, 4}[i%3]
		m, ms := measure(t, tiledMesh(t, g, size), g, k)
		var prev *navmesh.Mesh
		r := testmap.NewRand(int64(i) + 40)
		for step := range 12 {
			// Mostly walls put up, now and then cells freed: walls taken
			// down again, or cells blocked from the start.
			rc, _ := randomEdit(r, g.Width(), g.Height(), size)
			free := r.IntN(4) == 0
			g.SetCells(rc, free)
			where := fmt.Sprintf("map %d tile %d step %d: SetCells(%v, %v)", i, size, step, rc, free)
			um, err := m.Update(g, rc.Intersect(g.Bounds()))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			opened := false
			now := snapshot(g)
			for c, f := range now {
				opened = opened || f && !ms.free[c]
			}
			switch {
			case um.Landmarks() == 0 && opened:
				dropped++
				um, ms = measure(t, um, g, k)
			case um.Landmarks() == 0:
				// Allowed only when the edit took a landmark's corner away.
				gone := false
				_, verts, _ := navmesh.LandmarkDistances(um)
				for _, p := range ms.at {
					found := false
					for _, q := range verts {
						found = found || q == p
					}
					gone = gone || !found
				}
				if !gone {
					t.Fatalf("%s: Update dropped the landmarks, but every walkable cell was walkable where they were measured", where)
				}
				um, ms = measure(t, um, g, k)
			case opened:
				t.Fatalf("%s: Update kept the landmarks, but a cell blocked where they were measured is walkable now", where)
			default:
				kept++
				checkCarried(t, m, um, ms, g, where)
			}
			fm, err := navmesh.FromGrid(g, navmesh.Options{TileSize: size})
			if err != nil {
				t.Fatal(err)
			}
			sameAnswers(t, um, fm, g, r, where)
			with, without = guidedQueries(t, um, fm, g, r, where, with, without)
			// Even maps recycle the mesh before m, and poison the
			// arrays of distances that no mesh in use reads any more,
			// which the next Updates write their bands into.
			if i%2 == 0 && prev != nil {
				prev.Recycle()
				poisoned += navmesh.PoisonLandmarkSpares(um)
			}
			prev, m = m, um
		}
	}
	t.Logf("landmarks kept %d times, dropped %d; expanded %d with them, %d without; %d spare arrays poisoned", kept, dropped, with, without, poisoned)
	if poisoned < 10 {
		t.Errorf("only %d spare arrays of distances were poisoned: the recycling went untried", poisoned)
	}
	if kept < 50 || dropped < 5 {
		t.Errorf("landmarks kept %d times and dropped %d: the edits tried too little", kept, dropped)
	}
	if with >= without {
		t.Errorf("expanded %d with landmarks kept across edits, %d without: they guided nothing", with, without)
	}
}

// checkCarried checks the landmarks that an Update of m into um kept: at
// each vertex, the distances m had at the same point (NaN where it had
// no vertex), which are those measured or NaN; the triangle inequality's
// bounds on the edited map g; and that a mesh file keeps them.
func checkCarried(t *testing.T, m, um *navmesh.Mesh, ms *measured, g *grid.Grid, where string) {
	t.Helper()
	at, verts, d := navmesh.LandmarkDistances(um)
	_, pverts, pd := navmesh.LandmarkDistances(m)
	prev := make(map[mgl64.Vec2]int, len(pverts))
	for v, p := range pverts {
		prev[p] = v
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for l, p := range at {
		if p != ms.at[l] {
			t.Fatalf("%s: landmark %d at %v, measured at %v", where, l, p, ms.at[l])
		}
		for v, q := range verts {
			want := math.NaN()
			if u, ok := prev[q]; ok {
				want = pd[l][u]
			}
			got := d[l][v]
			if !same(got, want) {
				t.Fatalf("%s: landmark %d to vertex %v: %v, the mesh updated had %v", where, l, q, got, want)
			}
			if x, ok := ms.d[l][q]; !math.IsNaN(got) && !(ok && same(got, x)) {
				t.Fatalf("%s: landmark %d to vertex %v: %v, not the distance measured", where, l, q, got)
			}
		}
	}
	o := newAnyAngle(g)
	for a := 0; a < len(verts); a += 7 {
		for b := a + 3; b < len(verts); b += 11 {
			best := o.dist(verts[a], verts[b])
			for l := range at {
				// The distances are float32: each within 2⁻²⁴ of itself.
				slack := 2e-7*(math.Abs(d[l][a])+math.Abs(d[l][b])) + 1e-9*best
				if lo := math.Abs(d[l][a] - d[l][b]); lo > best+slack {
					t.Fatalf("%s: landmark %d bounds %v→%v by %v, but the shortest path is %v", where, l, verts[a], verts[b], lo, best)
				}
			}
		}
	}
	var buf bytes.Buffer
	if _, err := um.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	rm, err := navmesh.Read(&buf)
	if err != nil {
		t.Fatalf("%s: reading back: %v", where, err)
	}
	_, _, rd := navmesh.LandmarkDistances(rm)
	for l := range d {
		for v := range d[l] {
			if a, b := d[l][v], rd[l][v]; a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Fatalf("%s: read back, landmark %d to vertex %v: %v, written %v", where, l, verts[v], b, a)
			}
		}
	}
}

// guidedQueries runs random queries on um, with landmarks, and on fm, the
// fresh build without, checks um's paths (guidedQuery), and adds the
// expansions of each to with and without.
func guidedQueries(t *testing.T, um, fm *navmesh.Mesh, g *grid.Grid, r *rand.Rand, where string, with, without int) (int, int) {
	t.Helper()
	o := newAnyAngle(g)
	su, sf := navmesh.NewSearcher(um), navmesh.NewSearcher(fm)
	for _, pr := range testmap.RandomPairs(r, g, 10) {
		a, b := guidedQuery(t, su, sf, g, o, centre(pr[0]), centre(pr[1]), where)
		with += a
		without += b
	}
	return with, without
}

// TestLandmarkRecycleConcurrent runs Updates of one mesh with landmarks on
// several goroutines at once, each recycling its meshes as it goes: the
// band's arrays of distances, which no other mesh shares, go spare and
// pass from one goroutine's update to another's through the recycler.
// Every update must carry the same distances (run it with -race).
func TestLandmarkRecycleConcurrent(t *testing.T) {
	g := copyGrid(t, landmarkGrids(4)[3])
	m, err := tiledMesh(t, g, 5).WithLandmarks(3)
	if err != nil {
		t.Fatal(err)
	}
	wall := image.Rect(3, 6, 12, 7)
	g.SetCells(wall, false)
	ref, err := m.Update(g, wall)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Landmarks() != 3 {
		t.Fatalf("%d landmarks after a wall went up, want 3", ref.Landmarks())
	}
	_, _, want := navmesh.LandmarkDistances(ref)
	same := func(a, b [][]float64) bool {
		for l := range a {
			for v := range a[l] {
				if math.Float64bits(a[l][v]) != math.Float64bits(b[l][v]) {
					return false
				}
			}
		}
		return len(a) == len(b)
	}
	updateConcurrently(t, m, g, wall, func(um *navmesh.Mesh) error {
		if _, _, got := navmesh.LandmarkDistances(um); !same(got, want) {
			return errors.New("other distances than the first update's")
		}
		return nil
	})
}

// TestLandmarkRowBlocks checks that the landmark distances of a tiled mesh,
// measured or read with its tiles, lie in one block a tile row, so that
// the rows an Update builds again give their blocks back as spares for
// later Updates once the mesh before is recycled; untiled, and read
// without tiles, they lie in one.
func TestLandmarkRowBlocks(t *testing.T) {
	g := blocky(7, 40, 30, 30)
	m, lm := withLandmarks(t, g, 8, 3)
	rows := navmesh.TileRows(m)
	if got := navmesh.LandmarkChunks(lm); got != rows {
		t.Fatalf("measured: %d chunks of distances, want one a tile row, %d", got, rows)
	}
	var file bytes.Buffer
	if _, err := lm.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	for _, tile := range []int{0, 8} {
		rm, err := navmesh.ReadFor(bytes.NewReader(file.Bytes()), g, navmesh.Options{TileSize: tile})
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if tile > 0 {
			want = rows
		}
		if got := navmesh.LandmarkChunks(rm); got != want {
			t.Errorf("read with tiles of %d: %d chunks, want %d", tile, got, want)
		}
		if tile == 0 {
			continue
		}
		// A mesh read gives back the blocks of the rows an Update built
		// again, though its other arrays are not Recycle's to reuse.
		c := testmap.FreeCells(g)[3]
		wall := image.Rectangle{Min: c, Max: c.Add(image.Pt(1, 1))}
		edited := g.WithCells(wall, false)
		um, err := rm.Update(edited, wall)
		if err != nil {
			t.Fatal(err)
		}
		rm.Recycle()
		if n := navmesh.SpareLandmarkBlocks(um); n == 0 {
			t.Errorf("read with tiles: no spare blocks after recycling the mesh read")
		}
	}
	untiled, err := mustMesh(t, g).WithLandmarks(3)
	if err != nil {
		t.Fatal(err)
	}
	if got := navmesh.LandmarkChunks(untiled); got != 1 {
		t.Errorf("untiled: %d chunks, want 1", got)
	}
	// A wall put up in a free cell: the band's rows get new blocks, and
	// recycling the mesh before gives its blocks of those rows back.
	free := testmap.FreeCells(g)
	c := free[len(free)/2]
	g.SetCells(image.Rectangle{Min: c, Max: c.Add(image.Pt(1, 1))}, false)
	um, err := lm.Update(g, image.Rectangle{Min: c, Max: c.Add(image.Pt(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	if navmesh.LandmarkChunks(um) != rows {
		t.Fatalf("updated: %d chunks, want %d", navmesh.LandmarkChunks(um), rows)
	}
	lm.Recycle()
	if n := navmesh.SpareLandmarkBlocks(um); n == 0 {
		t.Errorf("no spare blocks after recycling the mesh before the Update")
	}
}
