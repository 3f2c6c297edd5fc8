package navmesh

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/paulmach/orb"
)

// segCheck counts the outcomes of compareSegmentChecks.
type segCheck struct {
	valid, invalid, otherPair int
}

// compareSegmentChecks runs checkSegments and its oracles on mp, when its
// rings pass readRings. checkSegments must give the verdict of the check
// it replaced, and the very error of the all-pairs oracle taken in its
// order; the check it replaced must give that of the all-pairs oracle in
// its own order. The two orders may name different meeting pairs when
// there are several (otherPair counts those); both are then segment
// faults of the same kind of message, each of a pair that truly meets.
func compareSegmentChecks(t *testing.T, what string, mp orb.MultiPolygon, pairs bool, c *segCheck) {
	t.Helper()
	in, err := readRings(mp)
	if err != nil {
		return
	}
	_, got := in.checkSegments()
	old := in.checkSegmentsBrute()
	str := func(err error) string {
		if err == nil {
			return "<nil>"
		}
		return err.Error()
	}
	if (got == nil) != (old == nil) {
		t.Fatalf("%s: checkSegments says %s, the old check %s\n%v", what, str(got), str(old), mp)
	}
	if pairs {
		if want := in.checkSegmentsPairs(true); str(got) != str(want) {
			t.Fatalf("%s: checkSegments says %s, all pairs %s\n%v", what, str(got), str(want), mp)
		}
		if want := in.checkSegmentsPairs(false); str(old) != str(want) {
			t.Fatalf("%s: the old check says %s, all pairs in its order %s\n%v", what, str(old), str(want), mp)
		}
	}
	if got == nil {
		c.valid++
		return
	}
	c.invalid++
	if str(got) == str(old) {
		return
	}
	c.otherPair++
	for _, err := range []error{got, old} {
		pe, ok := errors.AsType[*PolygonError](err)
		if !ok || !strings.Contains(pe.Problem, "segment") {
			t.Fatalf("%s: %s and %s: not both segment faults\n%v", what, str(got), str(old), mp)
		}
	}
}

// lattice is a random ring of 3 to 7 points of the s × s lattice.
func lattice(rnd *rand.Rand, s int) orb.Ring {
	r := make(orb.Ring, 3+rnd.IntN(5))
	for i := range r {
		r[i] = orb.Point{float64(rnd.IntN(s)), float64(rnd.IntN(s))}
	}
	return r
}

// boxRing is the rectangle [x0, x1] × [y0, y1] with, at random, some of
// the lattice points of its sides: collinear runs.
func boxRing(rnd *rand.Rand, x0, y0, x1, y1 int) orb.Ring {
	var r orb.Ring
	side := func(ax, ay, dx, dy, n int) {
		for i := range n {
			if i == 0 || rnd.IntN(3) == 0 {
				r = append(r, orb.Point{float64(ax + i*dx), float64(ay + i*dy)})
			}
		}
	}
	side(x0, y0, 1, 0, x1-x0)
	side(x1, y0, 0, 1, y1-y0)
	side(x1, y1, -1, 0, x1-x0)
	side(x0, y1, 0, -1, y1-y0)
	return r
}

// smallHole is a square, a diamond or a triangle of lattice points near
// (x, y), which may touch, cross or overlap whatever is there.
func smallHole(rnd *rand.Rand, x, y int) orb.Ring {
	s := float64(1 + rnd.IntN(3))
	fx, fy := float64(x), float64(y)
	switch rnd.IntN(3) {
	case 0:
		return orb.Ring{{fx, fy}, {fx + s, fy}, {fx + s, fy + s}, {fx, fy + s}}
	case 1:
		return orb.Ring{{fx + s, fy}, {fx + 2*s, fy + s}, {fx + s, fy + 2*s}, {fx, fy + s}}
	}
	return orb.Ring{{fx, fy}, {fx + 2*s, fy + s}, {fx + s, fy + 2*s}}
}

// shuffleRings turns rings round at random and starts them at a random
// point, which renumbers their segments.
func shuffleRings(rnd *rand.Rand, mp orb.MultiPolygon) {
	for _, pg := range mp {
		for _, r := range pg {
			if rnd.IntN(2) == 0 {
				slices.Reverse(r)
			}
			k := rnd.IntN(len(r))
			copy(r, append(slices.Clone(r[k:]), r[:k]...))
		}
	}
}

// randomSmall is a small input, often with faults of every kind: rings of
// random lattice points (crossings, touches, overlaps), or rectangles with
// collinear runs and small holes that may touch or cross the outer ring
// and each other, in one or two polygons that may overlap.
func randomSmall(rnd *rand.Rand) orb.MultiPolygon {
	var mp orb.MultiPolygon
	for range 1 + rnd.IntN(2) {
		var pg orb.Polygon
		if rnd.IntN(3) == 0 {
			for range 1 + rnd.IntN(3) {
				pg = append(pg, lattice(rnd, 3+rnd.IntN(6)))
			}
		} else {
			x0, y0 := rnd.IntN(8), rnd.IntN(8)
			x1, y1 := x0+3+rnd.IntN(8), y0+3+rnd.IntN(8)
			pg = append(pg, boxRing(rnd, x0, y0, x1, y1))
			for range rnd.IntN(5) {
				pg = append(pg, smallHole(rnd, x0-1+rnd.IntN(x1-x0+1), y0-1+rnd.IntN(y1-y0+1)))
			}
		}
		mp = append(mp, pg)
	}
	shuffleRings(rnd, mp)
	return mp
}

// TestCheckSegmentsSmall compares checkSegments with its oracles on many
// small random inputs.
func TestCheckSegmentsSmall(t *testing.T) {
	rnd := testmap.NewRand(21)
	var c segCheck
	for i := range 40000 {
		compareSegmentChecks(t, fmt.Sprintf("seed 21 input %d", i), randomSmall(rnd), true, &c)
	}
	t.Logf("%d valid, %d invalid, %d of them naming another pair than the old check", c.valid, c.invalid, c.otherPair)
	if c.valid < 1000 || c.invalid < 1000 || c.otherPair < 100 {
		t.Fatalf("%+v: the cases are not covered", c)
	}
}

// The degenerate families of the triangulator's tests (package tri's
// gen_test.go), as rings.

func ngon(n int, r float64) orb.Ring {
	pts := make(orb.Ring, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = orb.Point{r * math.Cos(a), r * math.Sin(a)}
	}
	return pts
}

func squareEdges(k int) orb.Ring {
	var pts orb.Ring
	for i := range k {
		pts = append(pts, orb.Point{float64(i), 0})
	}
	for i := range k {
		pts = append(pts, orb.Point{float64(k), float64(i)})
	}
	for i := range k {
		pts = append(pts, orb.Point{float64(k - i), float64(k)})
	}
	for i := range k {
		pts = append(pts, orb.Point{0, float64(k - i)})
	}
	return pts
}

func comb(n int, long float64) orb.Ring {
	pts := orb.Ring{{0, 0}, {float64(2*n - 1), 0}}
	for i := n - 1; i >= 0; i-- {
		x := float64(2 * i)
		pts = append(pts, orb.Point{x + 1, 1 + long}, orb.Point{x, 1 + long})
		if i > 0 {
			pts = append(pts, orb.Point{x, 1}, orb.Point{x - 1, 1})
		}
	}
	return pts
}

func spiralRing(turns float64, n int, w float64) orb.Ring {
	pts := make(orb.Ring, 0, 2*n)
	at := func(a, r float64) orb.Point { return orb.Point{r * math.Cos(a), r * math.Sin(a)} }
	for i := range n {
		a := 2 * math.Pi * turns * float64(i) / float64(n-1)
		pts = append(pts, at(a, w+2*w*a/(2*math.Pi)))
	}
	for i := n - 1; i >= 0; i-- {
		a := 2 * math.Pi * turns * float64(i) / float64(n-1)
		pts = append(pts, at(a, 2*w+2*w*a/(2*math.Pi)))
	}
	return pts
}

// gridOfHoles is a square of side 4m with m² small holes, squares and
// diamonds of lattice points, one in each 4 × 4 cell.
func gridOfHoles(m int) orb.Polygon {
	s := float64(4 * m)
	pg := orb.Polygon{{{0, 0}, {s, 0}, {s, s}, {0, s}}}
	for i := range m * m {
		x, y := float64(4*(i%m)+1), float64(4*(i/m)+1)
		if i%2 == 0 {
			pg = append(pg, orb.Ring{{x, y}, {x + 2, y}, {x + 2, y + 2}, {x, y + 2}})
		} else {
			pg = append(pg, orb.Ring{{x + 1, y}, {x + 2, y + 1}, {x + 1, y + 2}, {x, y + 1}})
		}
	}
	return pg
}

// families are the degenerate inputs: regular n-gons (on one circle but
// for rounding), collinear runs, combs, spirals and many holes.
func families() map[string]orb.MultiPolygon {
	return map[string]orb.MultiPolygon{
		"ngon7":        {{ngon(7, 10)}},
		"ngon2000":     {{ngon(2000, 1000)}},
		"ngon-holes":   {{ngon(400, 1000), ngon(300, 500), ngon(64, 100)}},
		"square300":    {{squareEdges(300)}},
		"square-holes": {{squareEdges(40), rotate(squareEdges(20), 5, 5), rotate(squareEdges(10), 27, 27)}},
		"comb300":      {{comb(300, 100)}},
		"spiral":       {{spiralRing(5, 400, 1)}},
		"holes":        {gridOfHoles(15)},
		"islands":      {{squareEdges(10)}, {rotate(squareEdges(10), 20, 0)}, {rotate(comb(20, 5), 0, 20)}},
	}
}

// rotate returns r moved by (dx, dy).
func rotate(r orb.Ring, dx, dy float64) orb.Ring {
	out := make(orb.Ring, len(r))
	for i, p := range r {
		out[i] = orb.Point{p[0] + dx, p[1] + dy}
	}
	return out
}

// mutate returns a copy of mp with one fault put in at random, or none:
// a point moved onto another ring's point (a touch at a vertex), onto the
// midpoint of a segment (a touch, or a near miss after rounding), or to
// a random place; two points swapped; a ring moved onto another.
func mutate(rnd *rand.Rand, mp orb.MultiPolygon) orb.MultiPolygon {
	out := make(orb.MultiPolygon, len(mp))
	var all [][2]int
	for i, pg := range mp {
		out[i] = make(orb.Polygon, len(pg))
		for k, r := range pg {
			out[i][k] = slices.Clone(r)
			all = append(all, [2]int{i, k})
		}
	}
	pick := func() (orb.Ring, int) {
		ik := all[rnd.IntN(len(all))]
		r := out[ik[0]][ik[1]]
		return r, rnd.IntN(len(r))
	}
	r, j := pick()
	s, k := pick()
	switch rnd.IntN(6) {
	case 0:
		r[j] = s[k]
	case 1:
		a, b := s[k], s[(k+1)%len(s)]
		r[j] = orb.Point{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}
	case 2:
		b := orb.Bound{Min: r[0], Max: r[0]}
		for _, p := range r {
			b = b.Extend(p)
		}
		r[j] = orb.Point{b.Min[0] + rnd.Float64()*(b.Max[0]-b.Min[0]), b.Min[1] + rnd.Float64()*(b.Max[1]-b.Min[1])}
	case 3:
		r[j], s[k] = s[k], r[j]
	case 4:
		d := orb.Point{s[k][0] - r[j][0], s[k][1] - r[j][1]}
		for i := range r {
			r[i] = orb.Point{r[i][0] + d[0], r[i][1] + d[1]}
		}
	}
	return out
}

// TestCheckSegmentsFamilies compares checkSegments with its oracles on
// the degenerate families, valid as they are and with faults put in.
func TestCheckSegmentsFamilies(t *testing.T) {
	fams := families()
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range fams {
			if !yield(name) {
				return
			}
		}
	})
	rnd := testmap.NewRand(5)
	var c segCheck
	for _, name := range names {
		mp := fams[name]
		in, err := readRings(mp)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := in.checkSegments(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range 60 {
			compareSegmentChecks(t, fmt.Sprintf("%s seed 5 mutation %d", name, i), mutate(rnd, mp), i%10 == 0, &c)
		}
	}
	t.Logf("%d valid, %d invalid, %d of them naming another pair than the old check", c.valid, c.invalid, c.otherPair)
	if c.invalid < 200 {
		t.Fatalf("%+v: the cases are not covered", c)
	}
}

// decodeRings turns fuzz bytes into up to three polygons of up to three
// rings of 3 to 10 points of the 8 × 8 lattice: dense enough that most
// rings meet others, or themselves, in every way.
func decodeRings(data []byte) orb.MultiPolygon {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	var mp orb.MultiPolygon
	for range 1 + next()%3 {
		var pg orb.Polygon
		for range 1 + next()%3 {
			var r orb.Ring
			for range 3 + next()%8 {
				b := next()
				r = append(r, orb.Point{float64(b & 7), float64(b >> 3 & 7)})
			}
			pg = append(pg, r)
		}
		mp = append(mp, pg)
	}
	return mp
}

func FuzzCheckSegments(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0o00, 0o04, 0o44, 0o40})                                  // a square
	f.Add([]byte{0, 1, 1, 0o00, 0o06, 0o66, 0o60, 1, 0o11, 0o13, 0o33, 0o31})       // and a hole
	f.Add([]byte{0, 0, 1, 0o00, 0o22, 0o02, 0o20})                                  // a bow-tie
	f.Add([]byte{1, 0, 1, 0o00, 0o03, 0o33, 0o30, 0, 1, 0o03, 0o06, 0o36, 0o33})    // sharing an edge
	f.Add([]byte{0, 2, 5, 0o00, 0o02, 0o04, 0o44, 0o40, 0o20, 0o20, 0o11, 0o21, 0}) // collinear runs
	f.Fuzz(func(t *testing.T, data []byte) {
		var c segCheck
		compareSegmentChecks(t, fmt.Sprintf("%x", data), decodeRings(data), true, &c)
	})
}

// BenchmarkCheckSegments times the input check alone on large degenerate
// inputs, beside the bucket grid it replaced on the smaller ones.
func BenchmarkCheckSegments(b *testing.B) {
	// faulty is r with point j moved out by twice the radius, so that
	// its segments cross the far side.
	faulty := func(r orb.Ring, j int) orb.Ring {
		r[j] = orb.Point{-r[j][0], -r[j][1] * 2}
		return r
	}
	cases := []struct {
		name string
		mp   orb.MultiPolygon
		old  bool
	}{
		{"circle100k", orb.MultiPolygon{{ngon(100000, 1e4)}}, true},
		{"circle1M", orb.MultiPolygon{{ngon(1000000, 1e4)}}, false},
		{"square250k", orb.MultiPolygon{{squareEdges(250000)}}, false},
		{"comb20000", orb.MultiPolygon{{comb(20000, 100)}}, true},
		{"comb250k", orb.MultiPolygon{{comb(250000, 100)}}, false},
		{"holes100k", orb.MultiPolygon{gridOfHoles(158)}, true},
		{"circle1M-fault", orb.MultiPolygon{{faulty(ngon(1000000, 1e4), 600000)}}, false},
		{"circle1M-faults", orb.MultiPolygon{{faulty(faulty(ngon(1000000, 1e4), 900000), 1000)}}, false},
	}
	for _, bc := range cases {
		in, err := readRings(bc.mp)
		if err != nil {
			b.Fatal(err)
		}
		run := func(name string, check func() error) {
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				fault := strings.HasSuffix(bc.name, "-fault") || strings.HasSuffix(bc.name, "-faults")
				for b.Loop() {
					if err := check(); (err != nil) != fault {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(in.verts)), "vertices")
			})
		}
		run("sweep/"+bc.name, func() error { _, err := in.checkSegments(); return err })
		if bc.old {
			run("buckets/"+bc.name, in.checkSegmentsBrute)
		}
	}
}

// TestActiveSet checks the treap against a slice under random insertions
// and removals: its order, and the neighbours remove reports.
func TestActiveSet(t *testing.T) {
	rnd := testmap.NewRand(3)
	const n = 2000
	set := newActiveSet(n)
	var want []int32
	in := make([]bool, n)
	for step := range 20000 {
		x := int32(rnd.IntN(n))
		if in[x] {
			i := slices.Index(want, x)
			below, above := set.remove(x)
			wb, wa := int32(-1), int32(-1)
			if i > 0 {
				wb = want[i-1]
			}
			if i+1 < len(want) {
				wa = want[i+1]
			}
			if below != wb || above != wa {
				t.Fatalf("step %d: remove %d gave neighbours %d, %d, want %d, %d", step, x, below, above, wb, wa)
			}
			want = slices.Delete(want, i, i+1)
		} else if i := rnd.IntN(len(want) + 1); i > 0 {
			set.insertAfter(x, want[i-1])
			want = slices.Insert(want, i, x)
		} else {
			at := set.root
			for at >= 0 && set.l[at] >= 0 {
				at = set.l[at]
			}
			set.insert(x, at, false)
			want = slices.Insert(want, 0, x)
		}
		in[x] = !in[x]
		var got []int32
		if len(want) > 0 {
			x := want[0]
			if set.pred(x) != -1 {
				t.Fatalf("step %d: %d is first but has %d below", step, x, set.pred(x))
			}
			for ; x >= 0; x = set.succ(x) {
				got = append(got, x)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: order %v, want %v", step, got, want)
		}
	}
}
