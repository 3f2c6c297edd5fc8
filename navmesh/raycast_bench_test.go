package navmesh_test

import (
	"math"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// BenchmarkRaycast casts 1024 seeded random segments in turn on each mesh,
// from a point of the mesh in a random direction, up to 8 ("short") or
// 64 ("long") cells long: on den520d (skipped when the Moving AI maps are
// absent), on a generated 256 × 256 grid with 20 % blocked cells, and on
// the octagon with holes of the Raycast tests. It reports the share of
// hits.
func BenchmarkRaycast(b *testing.B) {
	meshes := []struct {
		name string
		m    func(b *testing.B) *navmesh.Mesh
	}{
		{"den520d", func(b *testing.B) *navmesh.Mesh {
			g, _ := testmap.MovingAI(b, "den520d.map")
			return mustMesh(b, g)
		}},
		{"random256", func(b *testing.B) *navmesh.Mesh {
			return mustMesh(b, testmap.Random(5, 256, 256, 0.2, grid.Options{}))
		}},
		{"octagon", func(b *testing.B) *navmesh.Mesh { return octagonMesh(b) }},
	}
	for _, mc := range meshes {
		for _, l := range []struct {
			name string
			max  float64
		}{{"short", 8}, {"long", 64}} {
			b.Run(mc.name+"/"+l.name, func(b *testing.B) {
				m := mc.m(b)
				segs := benchSegments(m, 1024, l.max)
				b.ReportAllocs()
				i, hits := 0, 0
				for b.Loop() {
					s := segs[i%len(segs)]
					i++
					if hit, at := m.Raycast(s[0], s[1]); hit {
						hits++
					} else if at != s[1] {
						b.Fatalf("Raycast(%v, %v) is clear at %v", s[0], s[1], at)
					}
				}
				b.ReportMetric(100*float64(hits)/float64(i), "hits%")
			})
		}
	}
}

// benchSegments returns n seeded random segments of m, each from a point
// of the mesh in a random direction, up to length long.
func benchSegments(m *navmesh.Mesh, n int, length float64) [][2]mgl64.Vec2 {
	r := testmap.NewRand(int64(n) + int64(length))
	var lo, hi mgl64.Vec2
	var vs []mgl64.Vec2
	for id := range m.NumPolys() {
		vs = m.AppendPolygon(vs[:0], navmesh.PolyID(id))
		for _, v := range vs {
			if id == 0 {
				lo, hi = v, v
			}
			lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
			hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
		}
	}
	segs := make([][2]mgl64.Vec2, 0, n)
	for len(segs) < n {
		from := mgl64.Vec2{lo[0] + r.Float64()*(hi[0]-lo[0]), lo[1] + r.Float64()*(hi[1]-lo[1])}
		if _, ok := m.Locate(from); !ok {
			continue
		}
		a, d := 2*math.Pi*r.Float64(), length*r.Float64()
		segs = append(segs, [2]mgl64.Vec2{from, from.Add(mgl64.Vec2{d * math.Cos(a), d * math.Sin(a)})})
	}
	return segs
}
