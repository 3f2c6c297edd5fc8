package navmesh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/meshcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// octagonMesh returns the mesh of an octagon round (20, 20) of radius 18,
// its corners at irrational coordinates, with five rectangular holes.
func octagonMesh(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	var outer orb.Ring
	for k := range 8 {
		a := math.Pi/8 + float64(k)*math.Pi/4
		outer = append(outer, orb.Point{20 + 18*math.Cos(a), 20 + 18*math.Sin(a)})
	}
	m, err := navmesh.FromPolygon(orb.Polygon{outer,
		rect(8, 9, 14, 13), rect(20, 5, 23, 18), rect(9, 22, 16, 31),
		rect(25, 9, 32, 12), rect(26, 22, 29, 33)}, navmesh.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// agentOctagon is the octagon 40 × 30 with rectangular holes of package
// agent's tests, where the asymmetry was first seen.
func agentOctagon(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	m, err := navmesh.FromPolygon(orb.Polygon{
		rg(4, 0, 36, 0, 40, 4, 40, 26, 36, 30, 4, 30, 0, 26, 0, 4),
		rect(6, 5, 14, 9), rect(20, 3, 23, 20), rect(8, 14, 16, 24),
		rect(27, 8, 34, 11), rect(28, 16, 31, 27),
	}, navmesh.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// slantedRegion returns a random valid area: a star-shaped ring round
// (20, 20) with holes, triangles and squares turned by random angles, so
// that its edges run at all angles between points that are not on any
// lattice. Holes that would make the input invalid are left out.
func slantedRegion(tb testing.TB, r *rand.Rand) *navmesh.Mesh {
	tb.Helper()
	for {
		n := 8 + r.IntN(24)
		angles := make([]float64, n)
		for i := range angles {
			angles[i] = r.Float64() * 2 * math.Pi
		}
		slices.Sort(angles)
		var outer orb.Ring
		for _, a := range angles {
			d := 12 + 8*r.Float64()
			outer = append(outer, orb.Point{20 + d*math.Cos(a), 20 + d*math.Sin(a)})
		}
		pg := orb.Polygon{outer}
		if _, err := navmesh.FromPolygon(pg, navmesh.Options{}); err != nil {
			continue
		}
		for range 2 + r.IntN(8) {
			c := orb.Point{10 + 20*r.Float64(), 10 + 20*r.Float64()}
			s, turn := 1+3*r.Float64(), r.Float64()*math.Pi
			k := 3 + r.IntN(2)
			var hole orb.Ring
			for j := range k {
				a := turn + float64(j)*2*math.Pi/float64(k)
				hole = append(hole, orb.Point{c[0] + s*math.Cos(a), c[1] + s*math.Sin(a)})
			}
			if _, err := navmesh.FromPolygon(append(pg, hole), navmesh.Options{}); err == nil {
				pg = append(pg, hole)
			}
		}
		m, err := navmesh.FromPolygon(pg, navmesh.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		return m
	}
}

// rayMesh is a mesh for the Raycast tests: lattice says its vertices lie
// on the 1/8 lattice, whose points then make good segment ends.
type rayMesh struct {
	name    string
	m       *navmesh.Mesh
	lattice bool
}

// rayMeshes returns meshes of random grids (convex polygons, rectangles,
// tiles, and eroded for a radius), the two octagons, three of the
// hand-made areas (with collinear points, islands, a tilted hole) and
// random areas with slanted edges.
func rayMeshes(tb testing.TB) []rayMesh {
	tb.Helper()
	var ms []rayMesh
	for seed := int64(1); seed <= 6; seed++ {
		g := testmap.Random(seed, 20, 15, 0.1+0.05*float64(seed%4), grid.Options{})
		opt := navmesh.Options{Rectangles: seed > 4}
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			tb.Fatal(err)
		}
		ms = append(ms, rayMesh{fmt.Sprintf("grid %d rectangles %v", seed, opt.Rectangles), m, true})
	}
	g := testmap.Random(7, 30, 20, 0.15, grid.Options{})
	for _, opt := range []navmesh.Options{{TileSize: 6}, {Radius: 0.3}} {
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			tb.Fatal(err)
		}
		ms = append(ms, rayMesh{fmt.Sprintf("grid 7 %+v", opt), m, true})
	}
	ms = append(ms, rayMesh{"octagon", octagonMesh(tb), false}, rayMesh{"agent octagon", agentOctagon(tb), true})
	for _, tc := range handPolygons() {
		if strings.HasPrefix(tc.name, "collinear") || tc.name == "islands" || strings.HasPrefix(tc.name, "triangle") {
			m, err := navmesh.FromPolygons(tc.mp, navmesh.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			ms = append(ms, rayMesh{tc.name, m, true})
		}
	}
	r := testmap.NewRand(11)
	for i := range 4 {
		ms = append(ms, rayMesh{fmt.Sprintf("slanted area %d", i), slantedRegion(tb, r), false})
	}
	return ms
}

// raySegments draws n segments of m of the kinds the test counts by: along
// polygon edges (walls and portals, whole, in part and beyond their ends),
// from vertex to vertex, from rounded points on edges, to vertices (and on
// through them), and between points of the mesh.
func raySegments(rm rayMesh, r *rand.Rand, n int) (kinds []string, segs [][2]mgl64.Vec2) {
	m := rm.m
	var verts []mgl64.Vec2
	var edges [][2]mgl64.Vec2
	var vs []mgl64.Vec2
	for id := range m.NumPolys() {
		vs = m.AppendPolygon(vs[:0], navmesh.PolyID(id))
		for i, v := range vs {
			verts = append(verts, v)
			edges = append(edges, [2]mgl64.Vec2{v, vs[(i+1)%len(vs)]})
		}
	}
	lo, hi := verts[0], verts[0]
	for _, v := range verts {
		lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
		hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
	}
	onEdge := func(e [2]mgl64.Vec2) mgl64.Vec2 {
		t := r.Float64()
		if r.IntN(2) == 0 {
			t = float64(1+r.IntN(7)) / 8
		}
		return e[0].Add(e[1].Sub(e[0]).Mul(t))
	}
	point := func() mgl64.Vec2 { // a point of the mesh
		for {
			p := mgl64.Vec2{lo[0] + r.Float64()*(hi[0]-lo[0]), lo[1] + r.Float64()*(hi[1]-lo[1])}
			if rm.lattice && r.IntN(2) == 0 {
				p = mgl64.Vec2{math.Floor(8*p[0]) / 8, math.Floor(8*p[1]) / 8}
			}
			if _, ok := m.Locate(p); ok {
				return p
			}
		}
	}
	near := func(p mgl64.Vec2) mgl64.Vec2 { // a point up to 10 away
		a, d := 2*math.Pi*r.Float64(), 10*r.Float64()
		q := p.Add(mgl64.Vec2{d * math.Cos(a), d * math.Sin(a)})
		if rm.lattice && r.IntN(2) == 0 {
			k := float64(r.IntN(12) - 6)
			q = p.Add([][2]float64{{k, 0}, {0, k}, {k, k}, {k, -k}}[r.IntN(4)])
		}
		return q
	}
	vertexNear := func(p mgl64.Vec2) mgl64.Vec2 { // one up to 12 away, if found soon
		v := verts[r.IntN(len(verts))]
		for range 100 {
			if v.Sub(p).Len() < 12 {
				break
			}
			v = verts[r.IntN(len(verts))]
		}
		return v
	}
	for range n {
		var kind string
		var a, b mgl64.Vec2
		switch e := edges[r.IntN(len(edges))]; r.IntN(5) {
		case 0:
			kind = "along an edge"
			switch r.IntN(4) {
			case 0:
				a, b = e[0], e[1]
			case 1:
				a, b = onEdge(e), onEdge(e)
			case 2:
				a, b = onEdge(e), e[r.IntN(2)]
			default:
				a = e[r.IntN(2)]
				if r.IntN(2) == 0 {
					a = onEdge(e)
				}
				b = a.Add(e[1].Sub(e[0]).Mul([]float64{1.25, 2, 4, -1, -3}[r.IntN(5)]))
			}
		case 1:
			kind = "vertex to vertex"
			a = e[0]
			b = vertexNear(a)
		case 2:
			kind = "from a point on an edge"
			a = onEdge(e)
			b = near(a)
			if r.IntN(2) == 0 {
				b = vertexNear(a)
			}
		case 3:
			kind = "to a vertex"
			a = point()
			b = vertexNear(a)
			if r.IntN(3) == 0 {
				b = b.Add(b.Sub(a).Mul(0.5 + r.Float64())) // on through it
			}
		default:
			kind = "between points"
			a = point()
			b = near(a)
		}
		kinds, segs = append(kinds, kind), append(segs, [2]mgl64.Vec2{a, b})
	}
	return kinds, segs
}

// rayTally counts disagreements with the oracle by kind of segment and of
// disagreement, keeping the first example of each.
type rayTally struct {
	n       map[string]int
	example map[string]string
	keys    []string
	total   map[string]int // segments of each kind
	hits    map[string]int // of which the oracle finds leaving the mesh
}

func (t *rayTally) add(key, example string) {
	if t.n[key] == 0 {
		t.keys = append(t.keys, key)
		t.example[key] = example
	}
	t.n[key]++
}

func (t *rayTally) String() string {
	var sb strings.Builder
	slices.Sort(t.keys)
	for _, k := range t.keys {
		fmt.Fprintf(&sb, "%6d  %s\n        e.g. %s\n", t.n[k], k, t.example[k])
	}
	return sb.String()
}

// checkRay checks Raycast on the segment from a to b against the oracle,
// both ways, and tallies what disagrees.
func checkRay(rm rayMesh, o *meshcheck.Checker, kind string, a, b mgl64.Vec2, t *rayTally) {
	t.total[kind]++
	h1, at1 := rm.m.Raycast(a, b)
	h2, at2 := rm.m.Raycast(b, a)
	seg := fmt.Sprintf("%s: (%v, %v) to (%v, %v)", rm.name, a[0], a[1], b[0], b[1])
	if h1 != h2 {
		t.add(kind+": asymmetric", fmt.Sprintf("%s: hit %v, back %v", seg, h1, h2))
	}
	want, _ := o.Leave(a, b)
	if want {
		t.hits[kind]++
	}
	for _, d := range []struct {
		from, to, at mgl64.Vec2
		hit          bool
	}{{a, b, at1, h1}, {b, a, at2, h2}} {
		s := fmt.Sprintf("%s: (%v, %v) to (%v, %v) hits at %v", rm.name, d.from[0], d.from[1], d.to[0], d.to[1], d.at)
		switch {
		case d.hit && !want:
			t.add(kind+": hit, but the segment is on the mesh", s)
		case !d.hit && want:
			t.add(kind+": clear, but the segment leaves the mesh", s)
		case !d.hit && d.at != d.to:
			t.add(kind+": clear, but at is not the end", s)
		case d.hit:
			_, tl := o.Leave(d.from, d.to)
			x := meshcheck.Point(d.from, d.to, tl)
			mag := 1 + math.Max(math.Max(math.Abs(x[0]), math.Abs(x[1])), math.Max(math.Abs(d.at[0]), math.Abs(d.at[1])))
			if d.at.Sub(x).Len() > 1e-9*mag || math.IsNaN(d.at[0]) || math.IsNaN(d.at[1]) {
				t.add(kind+": at is not where it leaves", fmt.Sprintf("%s, leaves at %v", s, x))
			}
		}
	}
}

// TestRaycastOracle checks Raycast both ways on segments of every kind
// raySegments draws, on every mesh of rayMeshes, against the exact oracle
// (internal/meshcheck): the answer must be the same both ways, and the
// oracle's, and a hit must be where the oracle says the segment first
// leaves the mesh, to within 10⁻⁹ of the coordinates' magnitude.
func TestRaycastOracle(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	tally := &rayTally{n: map[string]int{}, example: map[string]string{}, total: map[string]int{}, hits: map[string]int{}}
	for i, rm := range rayMeshes(t) {
		o := meshcheck.New(rm.m)
		kinds, segs := raySegments(rm, testmap.NewRand(int64(100+i)), n)
		for j, s := range segs {
			checkRay(rm, o, kinds[j], s[0], s[1], tally)
		}
	}
	// The segment package agent's tests first found one way only.
	checkRay(rayMesh{"agent octagon", agentOctagon(t), true}, meshcheck.New(agentOctagon(t)), "reported",
		mgl64.Vec2{23.24340579780035, 3.486811595600701}, mgl64.Vec2{23, 3}, tally)
	var kinds []string
	for k := range tally.total {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		t.Logf("%d segments %s, %d leaving the mesh", tally.total[k], k, tally.hits[k])
	}
	if len(tally.keys) > 0 {
		t.Errorf("disagreements with the oracle:\n%s", tally)
	}
}

// TestRaycastSlantedCorner casts along the slanted walls and portals of
// the octagon, from rounded points on them, to their corners exactly and
// back: a segment from a point of the mesh (by the oracle: a rounded point
// may fall off a wall) to a corner of its polygon lies on the mesh.
func TestRaycastSlantedCorner(t *testing.T) {
	m := octagonMesh(t)
	o := meshcheck.New(m)
	var vs []mgl64.Vec2
	checked := 0
	for id := range m.NumPolys() {
		vs = m.AppendPolygon(vs[:0], navmesh.PolyID(id))
		for i, a := range vs {
			b := vs[(i+1)%len(vs)]
			if a[0] == b[0] || a[1] == b[1] {
				continue
			}
			for _, k := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
				p := a.Add(b.Sub(a).Mul(k))
				if len(o.Holding(nil, p)) == 0 {
					continue
				}
				if hit, at := m.Raycast(p, b); hit {
					t.Errorf("Raycast(%v, %v), along an edge to its corner, hits at %v", p, b, at)
				}
				if hit, at := m.Raycast(b, p); hit {
					t.Errorf("Raycast(%v, %v), along an edge from its corner, hits at %v", b, p, at)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("%d segments: too few slanted edges", checked)
	}
	t.Logf("%d segments each way", checked)
}

// TestRaycastAllocs checks that Raycast allocates nothing on meshes of
// grids and polygons, on segments of every kind raySegments draws (many
// pass through corners, where it steps round the polygons there).
func TestRaycastAllocs(t *testing.T) {
	for i, rm := range rayMeshes(t) {
		_, segs := raySegments(rm, testmap.NewRand(int64(200+i)), 200)
		n := testing.AllocsPerRun(5, func() {
			for _, s := range segs {
				rm.m.Raycast(s[0], s[1])
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", rm.name, n)
		}
	}
}
