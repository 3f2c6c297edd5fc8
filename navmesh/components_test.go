package navmesh_test

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// regionCells returns, per region of g, its free cells' count.
func regionCells(g *grid.Grid) map[int32]int {
	n := map[int32]int{}
	for _, p := range testmap.FreeCells(g) {
		n[g.Region(p)]++
	}
	return n
}

// TestComponentsGrid: on meshes of random grids, untiled and in tiles, a
// mesh's components are the grid's regions: as many, each as large as its
// free cells, the largest the grid's largest; random points fall on free
// cells of the region they were drawn from, inside the polygon returned,
// and spread over the region by area.
func TestComponentsGrid(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 90, 70, 0.3, grid.Options{})
		cells := regionCells(g)
		for _, opt := range []navmesh.Options{{}, {TileSize: 16}} {
			m, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			c := navmesh.NewComponents(m)
			if c.Count() != g.NumRegions() {
				t.Fatalf("seed %d %+v: %d components, the grid has %d regions", seed, opt, c.Count(), g.NumRegions())
			}
			big, area, ok := c.Largest()
			_, size := g.LargestRegion()
			if !ok || math.Abs(area-float64(size)) > 1e-6 {
				t.Fatalf("seed %d %+v: largest component of area %v (%v), the largest region %d cells", seed, opt, area, ok, size)
			}
			r := rand.New(rand.NewPCG(uint64(seed), 1))
			for _, p := range testmap.FreeCells(g)[:40] {
				from, ok := m.Locate(mgl(p))
				if !ok {
					t.Fatalf("cell %v's centre is on no polygon", p)
				}
				region := g.Region(p)
				if a := c.Area(from); math.Abs(a-float64(cells[region])) > 1e-6 {
					t.Fatalf("seed %d %+v: the component of %v has area %v, its region %d cells", seed, opt, p, a, cells[region])
				}
				for range 20 {
					q, pt, ok := c.RandomPoint(r, from)
					cell := image.Pt(int(math.Floor(pt[0])), int(math.Floor(pt[1])))
					if !ok || !m.Contains(q, pt) || !m.Connected(from, q) || g.Region(cell) != region {
						t.Fatalf("seed %d %+v: a random point from %v: %v in polygon %d (%v), cell %v of region %d, want region %d",
							seed, opt, p, pt, q, ok, cell, g.Region(cell), region)
					}
				}
			}
			// Uniform over the largest region: the share of points left of
			// the region's median column is that of its cells.
			cols := make([]int, g.Width())
			for _, p := range testmap.FreeCells(g) {
				if g.Region(p) == g.Region(centreCell(m, big)) {
					cols[p.X]++
				}
			}
			mid, left := 0, 0
			for left < size/2 {
				left += cols[mid]
				mid++
			}
			const n = 40000
			hits := 0
			for range n {
				_, pt, _ := c.RandomPoint(r, big)
				if pt[0] < float64(mid) {
					hits++
				}
			}
			want := float64(left) / float64(size)
			if got := float64(hits) / n; math.Abs(got-want) > 5*math.Sqrt(want*(1-want)/n) {
				t.Errorf("seed %d %+v: %.4f of the points left of column %d, %.4f of the cells", seed, opt, got, mid, want)
			}
		}
	}
}

// centreCell returns the cell under a point of polygon p.
func centreCell(m *navmesh.Mesh, p navmesh.PolyID) image.Point {
	pts := m.AppendPolygon(nil, p)
	var c [2]float64
	for _, v := range pts {
		c[0] += v[0] / float64(len(pts))
		c[1] += v[1] / float64(len(pts))
	}
	return image.Pt(int(math.Floor(c[0])), int(math.Floor(c[1])))
}

// TestComponentsPolygons: on a mesh of two polygons with a hole, each
// component's area is its polygon's, points spread uniformly (a share of
// the area within a band, the hole left out), a polygon not of the mesh
// is refused, and a random point allocates nothing.
func TestComponentsPolygons(t *testing.T) {
	m, err := navmesh.FromPolygons(orb.MultiPolygon{
		{rect(0, 0, 10, 4), rect(2, 1, 3, 3)}, // 40 − 2
		{rect(20, 0, 23, 3)},                  // 9
	}, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := navmesh.NewComponents(m)
	a, _ := m.Locate(mgl64.Vec2{0.5, 0.5})
	b, _ := m.Locate(mgl64.Vec2{21, 1})
	if c.Count() != 2 || math.Abs(c.Area(a)-38) > 1e-9 || math.Abs(c.Area(b)-9) > 1e-9 {
		t.Fatalf("%d components of areas %v and %v, want 2 of 38 and 9", c.Count(), c.Area(a), c.Area(b))
	}
	if big, area, _ := c.Largest(); !m.Connected(big, a) || area != c.Area(a) {
		t.Errorf("the largest component is polygon %d's, of area %v", big, area)
	}
	if _, _, ok := c.RandomPoint(rand.New(rand.NewPCG(1, 1)), navmesh.PolyID(m.NumPolys())); ok || c.Area(-1) != 0 {
		t.Error("a polygon not of the mesh was taken")
	}
	r := rand.New(rand.NewPCG(2, 2))
	const n = 40000
	band := 0
	for range n {
		q, p, _ := c.RandomPoint(r, a)
		if !m.Contains(q, p) || p[0] > 2 && p[0] < 3 && p[1] > 1 && p[1] < 3 {
			t.Fatalf("point %v in polygon %d: off the polygon, or in the hole", p, q)
		}
		if p[0] < 4 {
			band++ // x < 4: area 16 − 2 of the 38
		}
	}
	want := 14.0 / 38
	if got := float64(band) / n; math.Abs(got-want) > 5*math.Sqrt(want*(1-want)/n) {
		t.Errorf("%.4f of the points at x < 4, want %.4f", got, want)
	}
	if allocs := testing.AllocsPerRun(100, func() { c.RandomPoint(r, a) }); allocs != 0 {
		t.Errorf("RandomPoint allocates %v times, want 0", allocs)
	}
}

// mgl returns the centre of cell p.
func mgl(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5} }
