package navmesh_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// TestFileConvexEmpty reads a mesh of convex polygons (source 3) without
// a polygon, on a map without a walkable cell: Read refuses it (it used to
// panic building the point index) and FromGrid writes such a map's mesh
// as rectangles (source 1), which Read accepts.
func TestFileConvexEmpty(t *testing.T) {
	rows := []string{"##", "##"}
	f := craft(rows, nil, nil)
	f.source = 3
	_, err := navmesh.Read(bytes.NewReader(f.bytes()))
	if fe, ok := errors.AsType[*navmesh.FormatError](err); !ok || fe.Offset != 12 || !strings.Contains(fe.Msg, "without polygons") {
		t.Fatalf("Read: %v, want a *FormatError at byte 12 for a convex mesh without polygons", err)
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := encodeMesh(t, mustMesh(t, g), g)
	if src := parseFile(t, b).source; src != 1 {
		t.Fatalf("FromGrid's mesh of no walkable cells is written as source %d, want 1", src)
	}
	m, err := navmesh.ReadFor(bytes.NewReader(b), g, navmesh.Options{})
	if err != nil || m.NumPolys() != 0 {
		t.Fatalf("ReadFor: %v, %v", m, err)
	}
}

// cellTriangles returns a file of source 3 for the walkable cells of g,
// each cut in two triangles by a diagonal chosen by r: a mesh FromGrid
// would not build, with vertices in the open, up to eight polygons round
// a vertex and, where blocked cells touch at a corner, polygons that meet
// at a single point.
func cellTriangles(g *grid.Grid, r interface{ IntN(int) int }) *meshFile {
	w, h := g.Width(), g.Height()
	rows := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := range w {
			if g.Passable(image.Pt(x, y)) {
				b.WriteByte('.')
			} else {
				b.WriteByte('#')
			}
		}
		rows[y] = b.String()
	}
	// The two triangles of walkable cell i are polygons first[i] and
	// first[i]+1; down[i] says the diagonal runs from the top left corner.
	first := make([]int32, w*h)
	down := make([]bool, w*h)
	n := int32(0)
	for i := range first {
		first[i] = -1
		if rows[i/w][i%w] == '.' {
			first[i], down[i] = n, r.IntN(2) == 0
			n += 2
		}
	}
	// side returns the triangle of cell (x, y) along its side s (0 west,
	// 1 south, 2 east, 3 north, on screen), or −1 off the walkable cells.
	side := func(x, y, s int) int32 {
		if x < 0 || y < 0 || x >= w || y >= h || first[y*w+x] < 0 {
			return -1
		}
		i := y*w + x
		if (down[i] && s <= 1) || (!down[i] && (s == 0 || s == 3)) {
			return first[i]
		}
		return first[i] + 1
	}
	across := func(x, y, s int) int32 {
		d := [4][3]int{{-1, 0, 2}, {0, 1, 3}, {1, 0, 0}, {0, -1, 1}}[s]
		return side(x+d[0], y+d[1], d[2])
	}
	polys := make([][][2]float64, n)
	nbs := make([][]int32, n)
	for i, p := range first {
		if p < 0 {
			continue
		}
		x, y := i%w, i/w
		X, Y := float64(x), float64(y)
		nw, sw, se, ne := [2]float64{X, Y}, [2]float64{X, Y + 1}, [2]float64{X + 1, Y + 1}, [2]float64{X + 1, Y}
		// Vertices in the package's order: on screen, down the west
		// side, east along the south side, up the east side, west along
		// the north side.
		if down[i] {
			polys[p], nbs[p] = [][2]float64{nw, sw, se}, []int32{across(x, y, 0), across(x, y, 1), p + 1}
			polys[p+1], nbs[p+1] = [][2]float64{nw, se, ne}, []int32{p, across(x, y, 2), across(x, y, 3)}
		} else {
			polys[p], nbs[p] = [][2]float64{nw, sw, ne}, []int32{across(x, y, 0), p + 1, across(x, y, 3)}
			polys[p+1], nbs[p+1] = [][2]float64{sw, se, ne}, []int32{across(x, y, 1), across(x, y, 2), p}
		}
	}
	f := craft(rows, polys, nbs)
	f.source = 3
	return f
}

// TestFileConvexCellTriangles reads meshes of source 3 that FromGrid
// would not build (see cellTriangles) and checks their paths against the
// any-angle oracle: Read's checks of walls and areas must leave nothing
// that a query trips on.
func TestFileConvexCellTriangles(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		g := testmap.Random(seed, 6+int(seed%5), 5+int(seed%4), 0.1+0.05*float64(seed%6), grid.Options{})
		r := testmap.NewRand(seed)
		m, err := navmesh.Read(bytes.NewReader(cellTriangles(g, r).bytes()))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		o := newAnyAngle(g)
		q := navmesh.NewSearcher(m)
		point := func() mgl64.Vec2 {
			return mgl64.Vec2{float64(r.IntN(2*g.Width()+1)) / 2, float64(r.IntN(2*g.Height()+1)) / 2}
		}
		for range 100 {
			from, to := point(), point()
			m.Raycast(from, to)
			path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil {
				continue // off the mesh
			}
			want := o.dist(from, to)
			if res.Status != core.Found {
				if !math.IsInf(want, 1) {
					t.Fatalf("seed %d: %v→%v: %v, want a path of length %.6g", seed, from, to, res.Status, want)
				}
				continue
			}
			got, err := checkPath(g, path, from, to)
			if err != nil || math.Abs(got-want) > 1e-9 {
				t.Fatalf("seed %d: %v→%v: path %v of length %.9g (%v), want %.9g", seed, from, to, path, got, err, want)
			}
		}
	}
}

// TestFileConvexIndexMemory reads a valid file of source 3 whose polygons
// are long thin triangles: two fans over a strip of n cells, from a corner
// to every point of the far side. With about one bucket per polygon, each
// fan triangle would be listed in every bucket it crosses: about 3n²
// entries for a file of about 80n bytes, where Read's documentation
// promises memory that grows with the bytes read. The index takes coarser
// buckets instead; the test checks the memory, and that points are still
// located in polygons that hold them.
func TestFileConvexIndexMemory(t *testing.T) {
	const n = 4000
	b := fanFile(n)
	var before, after runtimeMem
	before.read()
	m, err := navmesh.Read(bytes.NewReader(b))
	after.read()
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.total - before.total; grew > 64*uint64(len(b))+1<<20 {
		t.Fatalf("Read of a %d-byte file of %d polygons allocated %d bytes", len(b), m.NumPolys(), grew)
	}
	r := testmap.NewRand(1)
	for range 200 {
		p := mgl64.Vec2{r.Float64() * n, r.Float64()}
		id, ok := m.Locate(p)
		if !ok || !inPoly(m.AppendPolygon(nil, id), p) {
			t.Fatalf("Locate(%v) = %d, %v", p, id, ok)
		}
	}
}

// fanFile returns the file of source 3 of TestFileConvexIndexMemory: two
// fans of thin triangles over a strip of n cells.
func fanFile(n int) []byte {
	var polys [][][2]float64
	var nbs [][]int32
	// Fan from (0,0) over the south side, then from (n,1) over the north
	// side, each triangle in the package's order.
	for i := range n {
		x := float64(i)
		polys = append(polys, [][2]float64{{0, 0}, {x, 1}, {x + 1, 1}})
		south, prev, next := int32(-1), int32(i-1), int32(i+1)
		if i == 0 {
			prev = -1 // the west side
		}
		nbs = append(nbs, []int32{prev, south, next})
	}
	for j := range n {
		x := float64(j)
		polys = append(polys, [][2]float64{{x, 0}, {float64(n), 1}, {x + 1, 0}})
		prev, east, next := int32(n+j-1), int32(n+j+1), int32(-1)
		if j == n-1 {
			east = -1 // the east side
		}
		nbs = append(nbs, []int32{prev, east, next})
	}
	f := craft([]string{strings.Repeat(".", n)}, polys, nbs)
	f.source = 3
	return f.bytes()
}

// BenchmarkReadFan reads the files of fanFile. Choosing the point index's
// buckets counts the entries of each grid tried only up to its budget, so
// the time grows with n, not n² (it took 6 s for n = 32,000 when each
// count ran to the end).
func BenchmarkReadFan(b *testing.B) {
	for _, n := range []int{4000, 32000} {
		data := fanFile(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if m, err := navmesh.Read(bytes.NewReader(data)); err != nil || m.NumPolys() != 2*n {
					b.Fatal(m, err)
				}
			}
		})
	}
}

// TestFromGridAllSmall builds the meshes of every grid of 4×3 cells and
// smaller, pinch points (blocked cells touching at a corner), grids
// without a free cell and 1×1 grids included, writes them and reads them
// back (Read checks how they tile the walkable cells), and checks the
// paths on every 3×3 grid between cell centres and grid corners against
// the any-angle oracle.
func TestFromGridAllSmall(t *testing.T) {
	for _, size := range []image.Point{{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 2}, {2, 3}, {3, 3}, {4, 3}} {
		w, h := size.X, size.Y
		for mask := range 1 << (w * h) {
			free := make([]bool, w*h)
			cells := []byte(strings.Repeat("#", w*h))
			for i := range free {
				if free[i] = mask&(1<<i) != 0; free[i] {
					cells[i] = '.'
				}
			}
			rows := make([]string, h)
			for y := range h {
				rows[y] = string(cells[y*w : (y+1)*w])
			}
			g, err := grid.New(w, h, free, grid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var o *anyAngle
			if w == 3 && h == 3 {
				o = newAnyAngle(g)
			}
			for _, opt := range []navmesh.Options{{}, {Rectangles: true}} {
				m, err := navmesh.FromGrid(g, opt)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := navmesh.Read(bytes.NewReader(encodeMesh(t, m, g))); err != nil {
					t.Fatalf("%+v, map\n%s\nRead: %v", opt, strings.Join(rows, "\n"), err)
				}
				if o == nil {
					continue
				}
				var pts []mgl64.Vec2
				for y := range 2*h + 1 {
					for x := range 2*w + 1 {
						if x%2 == y%2 {
							pts = append(pts, mgl64.Vec2{float64(x) / 2, float64(y) / 2})
						}
					}
				}
				q := navmesh.NewSearcher(m)
				for _, from := range pts {
					for _, to := range pts {
						path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
						if err != nil {
							continue // off the mesh
						}
						want := o.dist(from, to)
						got, err := checkPath(g, path, from, to)
						if res.Status != core.Found {
							got, err = math.Inf(1), nil
						}
						if err != nil || !(math.Abs(got-want) <= 1e-9 || got == want) {
							t.Fatalf("%+v, map\n%s\n%v→%v: %v, path %v of length %.9g (%v), want %.9g", opt, strings.Join(rows, "\n"), from, to, res.Status, path, got, err, want)
						}
					}
				}
			}
		}
	}
}
