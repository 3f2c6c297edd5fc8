package funnel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func v(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }

// vertical returns the portal at x spanning [yLow, yHigh], crossed by a
// walker heading east (+x): north (smaller y) is on its left.
func vertical(x, yLow, yHigh float64) Portal {
	return Portal{Left: v(x, yLow), Right: v(x, yHigh)}
}

func TestCrossSign(t *testing.T) {
	o := v(0, 0)
	tests := []struct {
		name    string
		facing  mgl64.Vec2
		left    mgl64.Vec2
		right   mgl64.Vec2
		onAhead mgl64.Vec2
	}{
		// y is down: north is −y, towards row 0.
		{"east: north is left", v(1, 0), v(0, -1), v(0, 1), v(5, 0)},
		{"south: east is left", v(0, 1), v(1, 0), v(-1, 0), v(0, 3)},
		{"west: south is left", v(-1, 0), v(0, 1), v(0, -1), v(-2, 0)},
		{"north: west is left", v(0, -1), v(-1, 0), v(1, 0), v(0, -7)},
		{"north-east", v(1, -1), v(0, -1), v(1, 0), v(2, -2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c := cross(o, tt.facing, tt.left); c >= 0 {
				t.Errorf("cross(o, %v, left %v) = %v, want < 0", tt.facing, tt.left, c)
			}
			if c := cross(o, tt.facing, tt.right); c <= 0 {
				t.Errorf("cross(o, %v, right %v) = %v, want > 0", tt.facing, tt.right, c)
			}
			if c := cross(o, tt.facing, tt.onAhead); c != 0 {
				t.Errorf("cross(o, %v, ahead %v) = %v, want 0", tt.facing, tt.onAhead, c)
			}
		})
	}
}

type pullCase struct {
	name        string
	start, goal mgl64.Vec2
	portals     []Portal
	want        []mgl64.Vec2
}

// lBend is a corridor that runs east and then turns right, to the south:
//
//	  0 1 2
//	0 S S|B|     S, B, C: the polygons [0,1]², [1,2]×[0,1], [1,2]×[1,3]
//	1 ---+-+     portal 0: x = 1, y ∈ [0,1]; portal 1: y = 1, x ∈ [1,2]
//	2    |C|     start (0.5,0.5) in S, goal (1.5,2.5) in C;
//	3    +-+     the path turns at the inner corner (1,1)
var lBend = []Portal{
	{Left: v(1, 0), Right: v(1, 1)}, // heading east: north is left
	{Left: v(2, 1), Right: v(1, 1)}, // heading south: east is left
}

// lBendLeft is the mirror image: east, then left to the north.
var lBendLeft = []Portal{
	{Left: v(1, 2), Right: v(1, 3)}, // heading east
	{Left: v(1, 2), Right: v(2, 2)}, // heading north: west is left
}

func repeatEach(ps []Portal, k int) []Portal {
	var out []Portal
	for _, p := range ps {
		for range k {
			out = append(out, p)
		}
	}
	return out
}

var pullCases = []pullCase{
	{
		name:  "no portals",
		start: v(0, 0), goal: v(3, 4),
		want: []mgl64.Vec2{v(0, 0), v(3, 4)},
	},
	{
		name:  "no portals, start is goal",
		start: v(2, 2), goal: v(2, 2),
		want: []mgl64.Vec2{v(2, 2)},
	},
	{
		name:  "straight corridor",
		start: v(0.5, 1), goal: v(3.5, 1),
		portals: []Portal{vertical(1, 0, 2), vertical(2, 0, 2), vertical(3, 0, 2)},
		want:    []mgl64.Vec2{v(0.5, 1), v(3.5, 1)},
	},
	{
		name:  "straight diagonal through wide portals",
		start: v(0, 0), goal: v(4, 3),
		portals: []Portal{vertical(1, -5, 5), vertical(2, -5, 5), vertical(3, -5, 5)},
		want:    []mgl64.Vec2{v(0, 0), v(4, 3)},
	},
	{
		name:  "single bend to the right (south)",
		start: v(0.5, 0.5), goal: v(1.5, 2.5),
		portals: lBend,
		want:    []mgl64.Vec2{v(0.5, 0.5), v(1, 1), v(1.5, 2.5)},
	},
	{
		name:  "single bend to the left (north)",
		start: v(0.5, 2.5), goal: v(1.5, 0.5),
		portals: lBendLeft,
		want:    []mgl64.Vec2{v(0.5, 2.5), v(1, 2), v(1.5, 0.5)},
	},
	{
		// Portals at x = 1..4 alternate between y ∈ [0,1] and y ∈ [3,4].
		name:  "zig-zag",
		start: v(0, 0.5), goal: v(5, 3.5),
		portals: []Portal{vertical(1, 0, 1), vertical(2, 3, 4), vertical(3, 0, 1), vertical(4, 3, 4)},
		want:    []mgl64.Vec2{v(0, 0.5), v(1, 1), v(2, 3), v(3, 1), v(4, 3), v(5, 3.5)},
	},
	{
		// A U-turn around the wall y = 1, x < 2:
		//
		//	  0 1 2 3
		//	0 S S S|B|    portal 0: x = 2, y ∈ [0,1]  (heading east)
		//	1 ------+-+   portal 1: y = 1, x ∈ [2,3]  (heading south)
		//	2 G G G|C|    portal 2: x = 2, y ∈ [1,2]  (heading west)
		//
		// The goal (0.5,1.5) lies right behind the start (0.5,0.5); the
		// path wraps around (2,1), the right end of all three portals.
		name:  "goal behind the start",
		start: v(0.5, 0.5), goal: v(0.5, 1.5),
		portals: []Portal{
			{Left: v(2, 0), Right: v(2, 1)},
			{Left: v(3, 1), Right: v(2, 1)},
			{Left: v(2, 2), Right: v(2, 1)},
		},
		want: []mgl64.Vec2{v(0.5, 0.5), v(2, 1), v(0.5, 1.5)},
	},
	{
		name:  "zero-width portal",
		start: v(0, 0), goal: v(4, 0),
		portals: []Portal{vertical(1, 0, 4), vertical(2, 3, 3), vertical(3, 0, 4)},
		want:    []mgl64.Vec2{v(0, 0), v(2, 3), v(4, 0)},
	},
	{
		name:  "zero-width portals in a row",
		start: v(0, 0), goal: v(4, 0),
		portals: []Portal{vertical(1, 1, 1), vertical(2, 3, 3), vertical(3, 1, 1)},
		want:    []mgl64.Vec2{v(0, 0), v(1, 1), v(2, 3), v(3, 1), v(4, 0)},
	},
	{
		name:  "zero-width portal on the straight line",
		start: v(0, 0), goal: v(4, 4),
		portals: []Portal{vertical(1, 0, 4), vertical(2, 2, 2), vertical(3, 0, 4)},
		want:    []mgl64.Vec2{v(0, 0), v(4, 4)},
	},
	{
		name:  "start inside the first portal",
		start: v(1, 1), goal: v(3, 1),
		portals: []Portal{vertical(1, 0, 2), vertical(2, 2, 4)},
		want:    []mgl64.Vec2{v(1, 1), v(2, 2), v(3, 1)},
	},
	{
		name:  "start at the left end of the first portal",
		start: v(1, 0), goal: v(3, 3),
		portals: []Portal{vertical(1, 0, 2), vertical(2, 2, 4)},
		want:    []mgl64.Vec2{v(1, 0), v(2, 2), v(3, 3)},
	},
	{
		name:  "start at the right end of the first portal",
		start: v(1, 2), goal: v(3, 0),
		portals: []Portal{vertical(1, 0, 2), vertical(2, 3, 4)},
		want:    []mgl64.Vec2{v(1, 2), v(2, 3), v(3, 0)},
	},
	{
		name:  "goal inside the last portal",
		start: v(0, 0), goal: v(2, 3),
		portals: []Portal{vertical(1, 0, 1), vertical(2, 2, 4)},
		want:    []mgl64.Vec2{v(0, 0), v(1, 1), v(2, 3)},
	},
	{
		name:  "goal at the right end of the last portal",
		start: v(0, 0), goal: v(2, 4),
		portals: []Portal{vertical(1, 0, 1), vertical(2, 2, 4)},
		want:    []mgl64.Vec2{v(0, 0), v(1, 1), v(2, 4)},
	},
	{
		name:  "start and goal on the only portal",
		start: v(1, 0.5), goal: v(1, 1.5),
		portals: []Portal{vertical(1, 0, 2)},
		want:    []mgl64.Vec2{v(1, 0.5), v(1, 1.5)},
	},
	{
		// The left ends (1,1), (2,2), (3,3) lie on one line through the
		// start; the path runs along it and turns only at (3,3).
		name:  "collinear portal ends",
		start: v(0, 0), goal: v(5, 4),
		portals: []Portal{vertical(1, 1, 3), vertical(2, 2, 4), vertical(3, 3, 5)},
		want:    []mgl64.Vec2{v(0, 0), v(3, 3), v(5, 4)},
	},
	{
		name:  "collinear portal ends, straight through",
		start: v(0, 0), goal: v(4, 4),
		portals: []Portal{vertical(1, 1, 3), vertical(2, 2, 4), vertical(3, 3, 5)},
		want:    []mgl64.Vec2{v(0, 0), v(4, 4)},
	},
	{
		// Both sides pinch to a line: the right ends (1,2), (2,2), (3,2)
		// and the left ends (1,0), (2,0), (3,0) of a strip y ∈ [0,2].
		name:  "path along a wall",
		start: v(0, 2), goal: v(4, 2),
		portals: []Portal{vertical(1, 0, 2), vertical(2, 0, 2), vertical(3, 0, 2)},
		want:    []mgl64.Vec2{v(0, 2), v(4, 2)},
	},
	{
		name:  "repeated portals, straight",
		start: v(0.5, 1), goal: v(3.5, 1),
		portals: repeatEach([]Portal{vertical(1, 0, 2), vertical(2, 0, 2)}, 3),
		want:    []mgl64.Vec2{v(0.5, 1), v(3.5, 1)},
	},
	{
		name:  "repeated portals, bend",
		start: v(0.5, 0.5), goal: v(1.5, 2.5),
		portals: repeatEach(lBend, 3),
		want:    []mgl64.Vec2{v(0.5, 0.5), v(1, 1), v(1.5, 2.5)},
	},
	{
		name:  "repeated portals, zig-zag",
		start: v(0, 0.5), goal: v(5, 3.5),
		portals: repeatEach([]Portal{vertical(1, 0, 1), vertical(2, 3, 4), vertical(3, 0, 1), vertical(4, 3, 4)}, 2),
		want:    []mgl64.Vec2{v(0, 0.5), v(1, 1), v(2, 3), v(3, 1), v(4, 3), v(5, 3.5)},
	},
	{
		name:  "repeated zero-width portal",
		start: v(0, 0), goal: v(4, 0),
		portals: repeatEach([]Portal{vertical(2, 3, 3)}, 3),
		want:    []mgl64.Vec2{v(0, 0), v(2, 3), v(4, 0)},
	},
}

func TestPull(t *testing.T) {
	for _, tt := range pullCases {
		t.Run(tt.name, func(t *testing.T) {
			got := Pull(nil, tt.start, tt.goal, tt.portals)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Pull:\n got  %v\n want %v\n%s", got, tt.want, describe(tt.start, tt.goal, tt.portals))
			}
			if err := crossesInOrder(got, tt.portals); err != nil {
				t.Errorf("path %v: %v\n%s", got, err, describe(tt.start, tt.goal, tt.portals))
			}
		})
	}
}

func TestPullAppends(t *testing.T) {
	prefix := []mgl64.Vec2{v(9, 9), v(0.5, 0.5)} // ends with start: kept anyway
	got := Pull(slices.Clone(prefix), v(0.5, 0.5), v(1.5, 2.5), lBend)
	want := []mgl64.Vec2{v(9, 9), v(0.5, 0.5), v(0.5, 0.5), v(1, 1), v(1.5, 2.5)}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

func TestPullAllocs(t *testing.T) {
	for _, tt := range pullCases {
		dst := make([]mgl64.Vec2, 0, len(tt.portals)+2)
		allocs := testing.AllocsPerRun(100, func() {
			dst = Pull(dst[:0], tt.start, tt.goal, tt.portals)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tt.name, allocs)
		}
	}
}

// strip is a random corridor running east: portal i lies at x = xs[i] and
// spans y ∈ [lo[i], hi[i]]; the polygons between consecutive portals are
// trapezoids (convex), the first polygon is the triangle of start and
// portal 0 and the last that of portal n−1 and goal.
type strip struct {
	start, goal mgl64.Vec2
	xs, lo, hi  []float64
}

func (s strip) portals() []Portal {
	ps := make([]Portal, len(s.xs))
	for i := range s.xs {
		ps[i] = vertical(s.xs[i], s.lo[i], s.hi[i])
	}
	return ps
}

// randomStrip draws a corridor of up to 40 portals. With integer set it
// draws small integers, which makes collinear points, zero-width portals
// and portals through start or goal common; otherwise reals. Now and then
// a portal repeats the one before it, and start or goal lies on the first
// or last portal.
func randomStrip(rng *rand.Rand, integer bool) strip {
	num := func(lo, hi int) float64 {
		if integer {
			return float64(lo + rng.IntN(hi-lo+1))
		}
		return float64(lo) + rng.Float64()*float64(hi-lo)
	}
	var s strip
	n := rng.IntN(41)
	x := 0.0
	for i := range n {
		if i > 0 && rng.IntN(8) == 0 { // repeat the previous portal
			s.xs = append(s.xs, s.xs[i-1])
			s.lo = append(s.lo, s.lo[i-1])
			s.hi = append(s.hi, s.hi[i-1])
			continue
		}
		x += num(1, 3)
		lo := num(0, 8)
		w := num(0, 4)
		if rng.IntN(6) == 0 {
			w = 0
		}
		s.xs = append(s.xs, x)
		s.lo = append(s.lo, lo)
		s.hi = append(s.hi, lo+w)
	}
	s.start = v(-num(1, 3), num(-1, 10))
	s.goal = v(x+num(1, 3), num(-1, 10))
	if n > 0 && rng.IntN(5) == 0 {
		s.start = v(s.xs[0], s.lo[0]+(s.hi[0]-s.lo[0])*float64(rng.IntN(3))/2)
	}
	if n > 0 && rng.IntN(5) == 0 {
		s.goal = v(s.xs[n-1], s.lo[n-1]+(s.hi[n-1]-s.lo[n-1])*float64(rng.IntN(3))/2)
	}
	return s
}

const eps = 1e-9

// yRange returns the y values the segment a–b takes at x, and whether it
// reaches x at all.
func yRange(a, b mgl64.Vec2, x float64) (lo, hi float64, ok bool) {
	if x < math.Min(a[0], b[0])-eps || x > math.Max(a[0], b[0])+eps {
		return 0, 0, false
	}
	if math.Abs(b[0]-a[0]) <= eps {
		return math.Min(a[1], b[1]), math.Max(a[1], b[1]), true
	}
	t := (x - a[0]) / (b[0] - a[0])
	y := a[1] + t*(b[1]-a[1])
	return y, y, true
}

// crossesAt reports whether segment a–b crosses the portal at x spanning
// [lo, hi], within eps.
func crossesAt(a, b mgl64.Vec2, x, lo, hi float64) bool {
	ylo, yhi, ok := yRange(a, b, x)
	return ok && ylo <= hi+eps && yhi >= lo-eps
}

// shortest is the oracle: Dijkstra on the visibility graph over start,
// every portal end point and goal, in corridor order (start 0, the ends of
// portal i at i+1, goal n+1). An edge joins points of increasing order
// when the straight segment crosses every portal strictly between them
// within its interval. It returns the length of the shortest path.
func (s strip) shortest() float64 {
	n := len(s.xs)
	type node struct {
		p     mgl64.Vec2
		order int
	}
	nodes := []node{{s.start, 0}}
	for i := range n {
		nodes = append(nodes, node{v(s.xs[i], s.lo[i]), i + 1}, node{v(s.xs[i], s.hi[i]), i + 1})
	}
	nodes = append(nodes, node{s.goal, n + 1})
	dist := make([]float64, len(nodes))
	done := make([]bool, len(nodes))
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[0] = 0
	for {
		u := -1
		for i := range nodes {
			if !done[i] && !math.IsInf(dist[i], 1) && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 {
			return math.Inf(1)
		}
		if u == len(nodes)-1 {
			return dist[u]
		}
		done[u] = true
	edges:
		for w := range nodes {
			if nodes[w].order <= nodes[u].order || done[w] {
				continue
			}
			a, b := nodes[u].p, nodes[w].p
			for k := nodes[u].order; k < nodes[w].order-1; k++ { // portal k has order k+1
				if !crossesAt(a, b, s.xs[k], s.lo[k], s.hi[k]) {
					continue edges
				}
			}
			if d := dist[u] + a.Sub(b).Len(); d < dist[w] {
				dist[w] = d
			}
		}
	}
}

func length(path []mgl64.Vec2) float64 {
	var sum float64
	for i := 1; i < len(path); i++ {
		sum += path[i].Sub(path[i-1]).Len()
	}
	return sum
}

func TestPullRandomStrips(t *testing.T) {
	var dst []mgl64.Vec2
	for seed := range uint64(3000) {
		rng := rand.New(rand.NewPCG(seed, 0x66756e6e656c))
		s := randomStrip(rng, seed%2 == 0)
		ps := s.portals()
		dst = Pull(dst[:0], s.start, s.goal, ps)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d: %s\npath %v\n%s", seed, fmt.Sprintf(format, args...), dst, describe(s.start, s.goal, ps))
		}
		if len(dst) == 0 || dst[0] != s.start || dst[len(dst)-1] != s.goal {
			fail("path does not run from start %v to goal %v", s.start, s.goal)
		}
		if len(dst) > len(ps)+2 {
			fail("%d points for %d portals", len(dst), len(ps))
		}
		for i := 1; i < len(dst); i++ {
			if dst[i] == dst[i-1] {
				fail("point %d repeats %v", i, dst[i])
			}
			if dst[i][0] < dst[i-1][0] {
				fail("path runs west at point %d", i)
			}
		}
		for k := range ps {
			crossed := false
			for i := range dst { // a one-point path is the segment (p, p)
				crossed = crossed || crossesAt(dst[max(i-1, 0)], dst[i], s.xs[k], s.lo[k], s.hi[k])
			}
			if !crossed {
				fail("portal %d (x = %v, y ∈ [%v, %v]) not crossed", k, s.xs[k], s.lo[k], s.hi[k])
			}
		}
		got, want := length(dst), s.shortest()
		if math.Abs(got-want) > eps*math.Max(1, want) {
			fail("length %.15g, shortest %.15g (diff %g)", got, want, got-want)
		}
	}
}

// crossesInOrder checks that path meets each portal's segment, in order
// along the path (within eps), for corridors of any shape.
func crossesInOrder(path []mgl64.Vec2, portals []Portal) error {
	seg := 1
	for k, p := range portals {
		for seg < len(path) && !segmentsMeet(path[seg-1], path[seg], p.Left, p.Right) {
			seg++
		}
		if seg >= len(path) && !(len(path) == 1 && onSegment(path[0], p.Left, p.Right)) {
			return fmt.Errorf("portal %d %v–%v is not crossed in order", k, p.Left, p.Right)
		}
	}
	return nil
}

func segmentsMeet(a, b, c, d mgl64.Vec2) bool {
	d1, d2 := cross(c, d, a), cross(c, d, b)
	d3, d4 := cross(a, b, c), cross(a, b, d)
	if ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) &&
		((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps)) {
		return true
	}
	return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b)
}

// onSegment reports whether p lies on segment a–b, within eps.
func onSegment(p, a, b mgl64.Vec2) bool {
	ab := b.Sub(a)
	l2 := ab.LenSqr()
	if l2 == 0 {
		return p.Sub(a).Len() <= eps
	}
	t := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
	return p.Sub(a.Add(ab.Mul(t))).Len() <= eps
}

func describe(start, goal mgl64.Vec2, portals []Portal) string {
	var b strings.Builder
	fmt.Fprintf(&b, "start %v goal %v, %d portals (left, right):\n", start, goal, len(portals))
	for i, p := range portals {
		fmt.Fprintf(&b, "  %2d: %v %v\n", i, p.Left, p.Right)
	}
	return b.String()
}

func BenchmarkPull(b *testing.B) {
	for _, n := range []int{8, 64, 512} {
		b.Run(fmt.Sprintf("portals=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			ps := make([]Portal, n)
			for i := range ps {
				lo := rng.Float64() * 8
				ps[i] = vertical(float64(i+1), lo, lo+1+rng.Float64()*3)
			}
			start, goal := v(0, 5), v(float64(n+1), 5)
			dst := make([]mgl64.Vec2, 0, n+2)
			b.ReportAllocs()
			for b.Loop() {
				dst = Pull(dst[:0], start, goal, ps)
				if dst[len(dst)-1] != goal {
					b.Fatal("path does not reach the goal")
				}
			}
		})
	}
}
