package navmesh

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/paulmach/orb"
)

// nestingInput is mp read and checked up to its nesting, with what
// checkNesting reads, or ok false if mp fails before.
func nestingInput(mp orb.MultiPolygon) (in *polyIn, under []int32, ok bool) {
	in, err := readRings(mp)
	if err != nil {
		return nil, nil, false
	}
	if under, err = in.checkSegments(); err != nil {
		return nil, nil, false
	}
	for ri := range in.rings {
		in.rings[ri].ccw = in.ccw(in.rings[ri])
	}
	return in, under, true
}

// enclosersBrute is enclosers by testing a point of each ring against
// every ring: of those that hold it, the one the most rings hold.
func (in *polyIn) enclosersBrute() []int32 {
	holds := func(ri, rj int) bool { return ri != rj && in.inside(in.rings[rj], in.verts[in.rings[ri].first]) }
	depth := make([]int, len(in.rings))
	for ri := range in.rings {
		for rj := range in.rings {
			if holds(ri, rj) {
				depth[ri]++
			}
		}
	}
	parent := make([]int32, len(in.rings))
	for ri := range in.rings {
		parent[ri] = -1
		for rj := range in.rings {
			if holds(ri, rj) && (parent[ri] < 0 || depth[rj] > depth[parent[ri]]) {
				parent[ri] = int32(rj)
			}
		}
	}
	return parent
}

// nestCheck counts the outcomes of compareNesting by the problem named,
// and the inputs with several rings nested wrongly.
type nestCheck map[string]int

// compareNesting runs checkNesting and the check it replaced on mp, when
// it passes the checks before them, and wants the very same error; with
// parents, it also checks the forest of rings against enclosersBrute.
func compareNesting(t *testing.T, what string, mp orb.MultiPolygon, parents bool, c nestCheck) {
	t.Helper()
	in, under, ok := nestingInput(mp)
	if !ok {
		c["skipped"]++
		return
	}
	parent := in.enclosers(under)
	if parents {
		if want := in.enclosersBrute(); !slices.Equal(parent, want) {
			t.Fatalf("%s: enclosers %v, want %v\n%v", what, parent, want, mp)
		}
	}
	faults := 0 // rings nested wrongly
	for ri, r := range in.rings {
		if p := parent[ri]; r.hole && p != int32(in.first[in.ids[ri][0]]) || !r.hole && p >= 0 && !in.rings[p].hole {
			faults++
		}
	}
	if faults > 1 {
		c["several wrong"]++
	}
	got, want := in.checkNesting(under), in.checkNestingBrute()
	str := func(err error) string {
		if err == nil {
			return "<nil>"
		}
		return err.Error()
	}
	if str(got) != str(want) {
		t.Fatalf("%s: checkNesting says %s, the old check %s\n%v", what, str(got), str(want), mp)
	}
	if got == nil {
		c["valid"]++
		return
	}
	pe, _ := errors.AsType[*PolygonError](got)
	c[strings.TrimRight(pe.Problem, " 0123456789")]++
}

// nestedRings is an input of rings that nest but never meet, drawn by
// pick (which returns a choice in [0, n)): in the square of side 64, up
// to depth levels of up to three rings side by side inside each ring,
// rectangles with collinear runs, their corners cut or not, or diamonds
// and triangles inside none. Each ring becomes, most often, what it must
// be for the input to be valid (a hole of the polygon whose outer ring
// holds it, an island in a hole), else an outer ring or a hole of a
// polygon at random; the polygons, the holes of each, and the points of
// each ring come in a random order.
func nestedRings(pick func(n int) int, depth int) orb.MultiPolygon {
	type role struct{ poly, hole int } // hole −1: the outer ring
	var rings []orb.Ring
	var roles []role
	np := 0
	var grow func(x0, y0, x1, y1, parent, depth int)
	grow = func(x0, y0, x1, y1, parent, depth int) {
		k := pick(4)
		if depth == 0 || k == 0 {
			return
		}
		vertical := y1-y0 > x1-x0
		if vertical {
			x0, y0, x1, y1 = y0, x0, y1, x1
		}
		w := (x1 - x0) / k
		if w < 4 || y1-y0 < 2 {
			return
		}
		for i := range k {
			// The slot [a, b] × [y0, y1], less a random margin.
			a, b := x0+i*w+1, x0+(i+1)*w-1
			a += pick((b - a) / 2)
			b -= pick((b - a) / 2)
			c, d := y0+pick((y1-y0)/3), y1-pick((y1-y0)/3)
			if vertical {
				a, c, b, d = c, a, d, b
			}
			leaf := b-a < 4 || d-c < 4
			var r orb.Ring
			switch s := pick(5); {
			case s == 0 || (leaf && s < 3):
				r = boxRing(rand.New(pickSource(pick)), a, c, b, d)
			case s == 1 && !leaf:
				r = orb.Ring{{float64(a + 1), float64(c)}, {float64(b - 1), float64(c)}, {float64(b), float64(c + 1)},
					{float64(b), float64(d - 1)}, {float64(b - 1), float64(d)}, {float64(a + 1), float64(d)},
					{float64(a), float64(d - 1)}, {float64(a), float64(c + 1)}}
			case s == 3:
				mx, my := float64(a+b)/2, float64(c+d)/2
				r, leaf = orb.Ring{{mx, float64(c)}, {float64(b), my}, {mx, float64(d)}, {float64(a), my}}, true
			case s == 4:
				r, leaf = orb.Ring{{float64(a), float64(c)}, {float64(b), float64(c)}, {float64(a), float64(d)}}, true
			default:
				r = boxRing(rand.New(pickSource(pick)), a, c, b, d)
			}
			// What it should be, or at random.
			want := role{np, -1}
			if parent >= 0 && roles[parent].hole < 0 {
				want = role{roles[parent].poly, 1}
			}
			switch x := pick(8); {
			case x == 5:
				want = role{np, -1}
			case x == 6 && np > 0:
				want = role{pick(np), 1}
			case x == 7 && parent >= 0:
				want = role{roles[parent].poly, 1}
			}
			if want.hole < 0 {
				np++
			}
			rings, roles = append(rings, r), append(roles, want)
			if !leaf {
				grow(a+1, c+1, b-1, d-1, len(rings)-1, depth-1)
			}
		}
	}
	grow(0, 0, 64, 64, -1, depth)
	mp := make(orb.MultiPolygon, np)
	for ri, r := range rings {
		if p := roles[ri].poly; roles[ri].hole < 0 {
			mp[p] = append(orb.Polygon{r}, mp[p]...)
		} else {
			mp[p] = append(mp[p], r)
		}
	}
	shuffle := func(n int, swap func(i, j int)) {
		for i := n - 1; i > 0; i-- {
			swap(i, pick(i+1))
		}
	}
	shuffle(len(mp), func(i, j int) { mp[i], mp[j] = mp[j], mp[i] })
	for _, pg := range mp {
		hs := pg[1:]
		shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
		for _, r := range pg {
			if pick(2) == 0 {
				slices.Reverse(r)
			}
			k := pick(len(r))
			copy(r, append(slices.Clone(r[k:]), r[:k]...))
		}
	}
	return mp
}

// pickSource is a rand.Source of the choices of pick, so that boxRing
// draws its collinear points from them too.
type pickSource func(n int) int

func (p pickSource) Uint64() uint64 { return uint64(p(256))<<56 | 0x5555_5555_5555 }

// renest returns a copy of mp with one ring given another role: a hole
// moved to another polygon or made a polygon of its own, an outer ring
// swapped with a hole or made a hole of another polygon, or a polygon
// moved to another place in the order. The rings do not move, so they
// still meet none.
func renest(rnd *rand.Rand, mp orb.MultiPolygon) orb.MultiPolygon {
	out := make(orb.MultiPolygon, len(mp))
	for i, pg := range mp {
		out[i] = slices.Clone(pg)
	}
	i := rnd.IntN(len(out))
	pg := out[i]
	k := rnd.IntN(len(pg))
	switch x := rnd.IntN(4); {
	case k > 0 && x == 0: // a polygon of its own
		r := pg[k]
		out[i] = slices.Delete(pg, k, k+1)
		out = slices.Insert(out, rnd.IntN(len(out)+1), orb.Polygon{r})
	case k > 0 && x == 1: // a hole of another polygon
		j := rnd.IntN(len(out))
		r := pg[k]
		out[i] = slices.Delete(pg, k, k+1)
		out[j] = slices.Insert(out[j], 1+rnd.IntN(len(out[j])), r)
	case k > 0 || (x == 2 && len(pg) > 1): // outer ring and a hole swapped
		k = 1 + rnd.IntN(len(pg)-1)
		pg[0], pg[k] = pg[k], pg[0]
	case x == 3 && len(pg) == 1 && len(out) > 1: // a hole of another polygon
		out = slices.Delete(out, i, i+1)
		j := rnd.IntN(len(out))
		out[j] = slices.Insert(out[j], 1+rnd.IntN(len(out[j])), pg[0])
	default: // the polygon moved in the order
		out = slices.Delete(out, i, i+1)
		out = slices.Insert(out, rnd.IntN(len(out)+1), pg)
	}
	return out
}

// wantCovered fails unless c counts every outcome at least n times.
func wantCovered(t *testing.T, c nestCheck, n int) {
	t.Helper()
	t.Logf("%v", c)
	for _, k := range []string{"valid", "not inside the outer ring", "inside hole", "encloses hole", "lies inside polygon", "encloses polygon"} {
		if c[k] < n {
			t.Fatalf("%q: %d cases, want %d", k, c[k], n)
		}
	}
}

// TestCheckNestingSmall compares checkNesting with the check it replaced
// on many small random inputs of nested rings, and enclosers with a brute
// force, then on their renestings.
func TestCheckNestingSmall(t *testing.T) {
	rnd := testmap.NewRand(8)
	pick := func(n int) int {
		if n <= 0 {
			return 0
		}
		return rnd.IntN(n)
	}
	c := nestCheck{}
	for i := range 20000 {
		mp := nestedRings(pick, 1+i%4)
		if len(mp) == 0 {
			continue
		}
		what := fmt.Sprintf("seed 8 input %d", i)
		compareNesting(t, what, mp, true, c)
		if in, _, ok := nestingInput(mp); ok && in.checkNestingBrute() == nil {
			for j := range 5 {
				compareNesting(t, fmt.Sprintf("%s renesting %d", what, j), renest(rnd, mp), false, c)
			}
		}
	}
	wantCovered(t, c, 500)
}

// TestCheckNestingFamilies compares checkNesting with the check it
// replaced on the degenerate families, valid as they are, with a ring
// given another role, and with a fault put in by mutate.
func TestCheckNestingFamilies(t *testing.T) {
	fams := families()
	// The holes of ngon-holes nest; as an island the inner one does not.
	fams["ngon-island"] = orb.MultiPolygon{{ngon(400, 1000), ngon(300, 500)}, {ngon(64, 100)}}
	fams["nested"] = orb.MultiPolygon{
		{squareEdges(40), rotate(squareEdges(30), 5, 5)},
		{rotate(squareEdges(20), 10, 10), rotate(squareEdges(10), 15, 15)},
		{rotate(squareEdges(6), 17, 17)},
		{rotate(ngon(50, 3), 60, 20), rotate(squareEdges(2), 59, 19)}, {rotate(comb(10, 5), 45, 0)},
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range fams {
			if !yield(name) {
				return
			}
		}
	})
	rnd := testmap.NewRand(9)
	c := nestCheck{}
	for _, name := range names {
		mp := fams[name]
		in, under, ok := nestingInput(mp)
		if !ok {
			t.Fatalf("%s: fails before the nesting", name)
		}
		if err := in.checkNesting(under); (err != nil) != (name == "ngon-holes") {
			t.Fatalf("%s: %v", name, err)
		}
		compareNesting(t, name, mp, true, c)
		for i := range 60 {
			compareNesting(t, fmt.Sprintf("%s seed 9 renesting %d", name, i), renest(rnd, mp), i%10 == 0, c)
			compareNesting(t, fmt.Sprintf("%s seed 9 mutation %d", name, i), mutate(rnd, mp), false, c)
		}
	}
	t.Logf("%v", c)
	if c["valid"] < 100 || c["not inside the outer ring"] < 20 || c["lies inside polygon"] < 20 {
		t.Fatalf("%v: the cases are not covered", c)
	}
}

func FuzzCheckNesting(f *testing.F) {
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{3, 1, 0, 0, 2, 0, 0, 3, 0, 1, 2, 0, 0, 3})
	f.Add([]byte{2, 2, 1, 1, 1, 1, 0, 0, 3, 2, 0, 0, 0, 6, 1, 1, 1, 7, 3})
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 6, 3, 0, 0, 0, 0, 0, 0, 6, 3, 1, 1, 1, 1, 0, 6, 7, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		pick := func(n int) int {
			if len(data) == 0 || n <= 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b % n
		}
		mp := nestedRings(pick, 4)
		if len(mp) == 0 {
			return
		}
		compareNesting(t, fmt.Sprintf("%x", data), mp, true, nestCheck{})
	})
}

// islands is a square of side 8m with m² square holes, each holding a
// square polygon: 2m² + 1 rings, m² + 1 polygons.
func islands(m int) orb.MultiPolygon {
	s := float64(8 * m)
	mp := orb.MultiPolygon{{{{0, 0}, {s, 0}, {s, s}, {0, s}}}}
	for i := range m * m {
		x, y := float64(8*(i%m)+1), float64(8*(i/m)+1)
		mp[0] = append(mp[0], orb.Ring{{x, y}, {x + 6, y}, {x + 6, y + 6}, {x, y + 6}})
		mp = append(mp, orb.Polygon{{{x + 2, y + 2}, {x + 4, y + 2}, {x + 4, y + 4}, {x + 2, y + 4}}})
	}
	return mp
}

// holeOut is pg with its last hole made a polygon of its own, which lies
// inside pg.
func holeOut(pg orb.Polygon) orb.MultiPolygon {
	n := len(pg) - 1
	return orb.MultiPolygon{pg[:n], {pg[n]}}
}

// nestingCases are the large inputs of the nesting benchmarks, and
// whether the check it replaced is quick enough to run beside.
var nestingCases = []struct {
	name string
	mp   func() orb.MultiPolygon
	old  bool
}{
	{"holes25k", func() orb.MultiPolygon { return orb.MultiPolygon{gridOfHoles(158)} }, true},
	{"holes250k", func() orb.MultiPolygon { return orb.MultiPolygon{gridOfHoles(500)} }, false},
	{"islands25k", func() orb.MultiPolygon { return islands(112) }, true},
	{"holes25k-fault", func() orb.MultiPolygon { return holeOut(gridOfHoles(158)) }, true},
	{"holes250k-fault", func() orb.MultiPolygon { return holeOut(gridOfHoles(500)) }, false},
}

// BenchmarkCheckNesting times the check of nesting alone on inputs with
// many rings, valid or with a fault found last, beside the check it
// replaced on the smaller ones. The sweep it reads is checkSegments's.
func BenchmarkCheckNesting(b *testing.B) {
	for _, bc := range nestingCases {
		in, under, ok := nestingInput(bc.mp())
		if !ok {
			b.Fatal("invalid input")
		}
		fault := strings.HasSuffix(bc.name, "-fault")
		run := func(name string, check func() error) {
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := check(); (err != nil) != fault {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(in.verts)), "vertices")
				b.ReportMetric(float64(len(in.rings)), "rings")
			})
		}
		run("sweep/"+bc.name, func() error { return in.checkNesting(under) })
		if bc.old {
			run("brute/"+bc.name, in.checkNestingBrute)
		}
	}
}

// BenchmarkFromPolygonsRings times FromPolygons end to end on the inputs
// of BenchmarkCheckNesting.
func BenchmarkFromPolygonsRings(b *testing.B) {
	for _, bc := range nestingCases {
		if strings.HasSuffix(bc.name, "-fault") {
			continue
		}
		mp := bc.mp()
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := FromPolygons(mp, Options{})
				if err != nil || m.NumPolys() == 0 {
					b.Fatalf("%v, %d polygons", err, m.NumPolys())
				}
			}
		})
	}
}
