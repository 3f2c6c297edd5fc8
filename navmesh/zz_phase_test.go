package navmesh

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

func TestZZPhases(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	ring := make(orb.Ring, 5000)
	for i := range ring {
		a := 2 * math.Pi * float64(i) / 5000
		r := 2000 + 3000*rnd.Float64()
		ring[i] = orb.Point{r * math.Cos(a), r * math.Sin(a)}
	}
	star := func(n int, r0, r1 float64) orb.Ring {
		ring := make(orb.Ring, n)
		for i := range ring {
			a := 2 * math.Pi * float64(i) / float64(n)
			r := r0 + (r1-r0)*rnd.Float64()
			ring[i] = orb.Point{r * math.Cos(a), r * math.Sin(a)}
		}
		return ring
	}
	holes := orb.Polygon{star(1000, 4200, 5000)}
	for i := range 32 {
		for j := range 32 {
			x, y := -3100+200*float64(i)+40*rnd.Float64(), -3100+200*float64(j)+40*rnd.Float64()
			if len(holes) > 1000 || x*x+y*y > 3900*3900 {
				continue
			}
			holes = append(holes, orb.Ring{{x, y}, {x + 70, y}, {x + 70, y + 80}, {x, y + 80}})
		}
	}
	for _, mp := range []orb.MultiPolygon{{{ring}}, {holes}} {
		t0 := time.Now()
		in, err := readPolygons(mp)
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		outer := in.walk(in.rings[0])
		var hs [][]int32
		for _, r := range in.rings[1:] {
			hs = append(hs, in.walk(r))
		}
		tris, err := triangulate(in.verts, outer, hs, nil)
		if err != nil {
			t.Fatal(err)
		}
		t2 := time.Now()
		f := mergeConvex(in.verts, tris)
		t3 := time.Now()
		m := in.mesh(f)
		t4 := time.Now()
		newPolyIndex(m)
		t5 := time.Now()
		t.Logf("read %v triangulate %v merge %v mesh %v (index %v); %d polys", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4), m.NumPolys())
	}
}
