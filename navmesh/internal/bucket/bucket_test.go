package bucket

import (
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// TestSegment checks on random grids and segments that Segment visits the
// bucket of every point of the segment, so that Fill lists each segment
// in the bucket of each of its points.
func TestSegment(t *testing.T) {
	r := testmap.NewRand(4)
	pt := func() mgl64.Vec2 { return mgl64.Vec2{r.Float64()*100 - 50, r.Float64()*30 - 10} }
	for n := range 300 {
		p := pt()
		b := geom.Box{Min: p, Max: p}.Grow(pt())
		if n%10 == 0 {
			b.Max[1] = b.Min[1] // a flat box
		}
		g := New(b, 1+r.IntN(200))
		mg := Margin(g.Step, b.Mag())
		segs := make([][2]mgl64.Vec2, 20)
		in := func() mgl64.Vec2 {
			return mgl64.Vec2{b.Min[0] + r.Float64()*(b.Max[0]-b.Min[0]), b.Min[1] + r.Float64()*(b.Max[1]-b.Min[1])}
		}
		for i := range segs {
			segs[i] = [2]mgl64.Vec2{in(), in()}
		}
		g.Fill(func(emit func(int, int32)) {
			for i, s := range segs {
				g.Segment(s[0], s[1], mg, func(k int) { emit(k, int32(i)) })
			}
		})
		for i, s := range segs {
			for k := range 50 {
				p := s[0].Add(s[1].Sub(s[0]).Mul(float64(k) / 49))
				if !slices.Contains(g.Bucket(g.Point(p)), int32(i)) {
					t.Fatalf("case %d: segment %v: point %v's bucket %d does not list it", n, s, p, g.Point(p))
				}
			}
		}
	}
}
