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

// TestSpliced checks Spliced against a Fill of the items it should give:
// random items in random buckets, numbered in order, of which a random run
// is replaced by a random number of others, in buckets of a random range
// that holds the run. Every other case splices into spare arrays full of
// garbage, large enough to be used.
func TestSpliced(t *testing.T) {
	r := testmap.NewRand(9)
	for n := range 400 {
		g := New(geom.Box{Max: mgl64.Vec2{10, 6}}, 1+r.IntN(60))
		nb := g.NX * g.NY
		type entry struct {
			b    int
			item int32
		}
		// Items 0 to k−1, each in one to three buckets.
		k := int32(r.IntN(40))
		lo := int32(r.IntN(int(k) + 1))
		hi := lo + int32(r.IntN(int(k-lo)+1))
		b0 := r.IntN(nb)
		b1 := b0 + 1 + r.IntN(nb-b0)
		bucketOf := func(i int32) int { // in order along the buckets, as Spliced needs
			switch {
			case i < lo:
				return r.IntN(b1)
			case i < hi:
				return b0 + r.IntN(b1-b0)
			}
			return b0 + r.IntN(nb-b0)
		}
		var old []entry
		for i := range k {
			for range 1 + r.IntN(3) {
				old = append(old, entry{bucketOf(i), i})
			}
		}
		fill := func(es []entry) Grid {
			f := g
			f.Fill(func(emit func(int, int32)) {
				for _, e := range es {
					emit(e.b, e.item)
				}
			})
			return f
		}
		g = fill(old)
		// The run lo..hi−1 replaced by m items numbered from lo.
		m := int32(r.IntN(12))
		var run, want []entry
		for i := range m {
			for range 1 + r.IntN(3) {
				run = append(run, entry{b0 + r.IntN(b1-b0), lo + i})
			}
		}
		d := m - (hi - lo)
		for _, e := range old {
			if e.item < lo {
				want = append(want, e)
			}
		}
		want = append(want, run...)
		for _, e := range old {
			if e.item >= hi {
				want = append(want, entry{e.b, e.item + d})
			}
		}
		var spare Grid
		if n%2 == 1 {
			spare.start, spare.items = make([]int32, nb+1+r.IntN(3)), make([]int32, len(old)+len(run)+r.IntN(3))
			for i := range spare.start {
				spare.start[i] = -7
			}
			for i := range spare.items {
				spare.items[i] = -7
			}
		}
		got := g.Spliced(spare, b0, b1, lo, hi, d, func(emit func(int, int32)) {
			for _, e := range run {
				emit(e.b, e.item)
			}
		})
		w := fill(want)
		for b := range nb {
			if !slices.Equal(got.Bucket(b), w.Bucket(b)) {
				t.Fatalf("case %d: bucket %d of %d (run %d–%d in buckets %d–%d, %d new): %v, want %v", n, b, nb, lo, hi, b0, b1, m, got.Bucket(b), w.Bucket(b))
			}
		}
		if got.Entries() != w.Entries() {
			t.Fatalf("case %d: %d entries, want %d", n, got.Entries(), w.Entries())
		}
		if spare.items != nil && len(got.items) > 0 && &got.items[0] != &spare.items[0] {
			t.Fatalf("case %d: Spliced did not write into the spare arrays", n)
		}
	}
}
