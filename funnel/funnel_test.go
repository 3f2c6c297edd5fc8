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

// uTurn is the corridor of the map .#. over ... from cell (0,0) to cell
// (2,0): down into the bottom row, then back up round the wall's end.
var uTurn = []Portal{
	{Left: v(1, 1), Right: v(0, 1)}, // heading south: east is left
	{Left: v(2, 1), Right: v(3, 1)}, // heading north: west is left
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
		// The bug a colleague reported: the path turns at (1,1) into B,
		// from where the next portal is seen edge-on along y = 1.
		//
		//	  0 1 2 3
		//	0 |A|#|C|    A = [0,1]², C = [2,3]×[0,1], B = [0,3]×[1,2]
		//	1 +-+-+-+    portal 0: y = 1, x ∈ [0,1] (heading south)
		//	  |  B  |    portal 1: y = 1, x ∈ [2,3] (heading north)
		//	2 +-----+
		//
		// Straight from (1,1) to the goal would cut through cell (1,0).
		name:  "u-turn round the end of a wall",
		start: v(0.5, 0.5), goal: v(2.5, 0.5),
		portals: uTurn,
		want:    []mgl64.Vec2{v(0.5, 0.5), v(1, 1), v(2, 1), v(2.5, 0.5)},
	},
	{
		name:  "u-turn round the end of a wall, mirrored",
		start: v(2.5, 0.5), goal: v(0.5, 0.5),
		portals: []Portal{
			{Left: v(3, 1), Right: v(2, 1)}, // heading south: east is left
			{Left: v(0, 1), Right: v(1, 1)}, // heading north: west is left
		},
		want: []mgl64.Vec2{v(2.5, 0.5), v(2, 1), v(1, 1), v(0.5, 0.5)},
	},
	{
		// The same map transposed: A = [0,1]², B = [1,2]×[0,3],
		// C = [0,1]×[2,3]; the wall is cell (0,1).
		name:  "u-turn round the end of a wall, transposed",
		start: v(0.5, 0.5), goal: v(0.5, 2.5),
		portals: []Portal{
			{Left: v(1, 0), Right: v(1, 1)}, // heading east: north is left
			{Left: v(1, 3), Right: v(1, 2)}, // heading west: south is left
		},
		want: []mgl64.Vec2{v(0.5, 0.5), v(1, 1), v(1, 2), v(0.5, 2.5)},
	},
	{
		// The start is on the wall's line and on portal 0: the funnel
		// starts empty, and portal 1 is seen edge-on from the start.
		name:  "u-turn from a start on the wall's line",
		start: v(0.5, 1), goal: v(2.5, 0.5),
		portals: uTurn,
		want:    []mgl64.Vec2{v(0.5, 1), v(2, 1), v(2.5, 0.5)},
	},
	{
		name:  "start on the wall beside the portal",
		start: v(1.5, 1), goal: v(2.5, 0.5),
		portals: uTurn[1:],
		want:    []mgl64.Vec2{v(1.5, 1), v(2, 1), v(2.5, 0.5)},
	},
	{
		// The goal is on the line too, past the portal: the path runs
		// along y = 1 from (1,1) to it and turns only at (1,1).
		name:  "u-turn onto the wall's line",
		start: v(0.5, 0.5), goal: v(3.5, 1),
		portals: []Portal{
			{Left: v(1, 1), Right: v(0, 1)},
			{Left: v(2, 1), Right: v(3, 1)}, // into C = [2,4]×[0,1]
		},
		want: []mgl64.Vec2{v(0.5, 0.5), v(1, 1), v(3.5, 1)},
	},
	{
		// Two U-turns, each round the end of a wall whose line the next
		// portal continues:
		//
		//	  0 1 2 3 4
		//	0 S # . . .    A = [0,1]×[0,2], B = [2,5]×[0,1],
		//	1 . # . # .    C = [2,3]×[1,2], D = [4,5]×[1,3],
		//	2 . . . # G    E = [0,3]×[2,3]; corridor A E C B D
		name:  "serpentine",
		start: v(0.5, 0.5), goal: v(4.5, 2.5),
		portals: []Portal{
			{Left: v(1, 2), Right: v(0, 2)}, // A→E, heading south
			{Left: v(2, 2), Right: v(3, 2)}, // E→C, heading north
			{Left: v(2, 1), Right: v(3, 1)}, // C→B, heading north
			{Left: v(5, 1), Right: v(4, 1)}, // B→D, heading south
		},
		want: []mgl64.Vec2{v(0.5, 0.5), v(1, 2), v(2, 2), v(3, 1), v(4, 1), v(4.5, 2.5)},
	},
	{
		// Along y = 1 past an opening: from (1,1) the portal [4,5] is
		// seen edge-on beyond the opening [2,3] of the map .#.#. over
		// ....., corridor A→B→E.
		name:  "u-turn along a wall past an opening",
		start: v(0.5, 0.5), goal: v(4.5, 0.5),
		portals: []Portal{
			{Left: v(1, 1), Right: v(0, 1)},
			{Left: v(4, 1), Right: v(5, 1)},
		},
		want: []mgl64.Vec2{v(0.5, 0.5), v(1, 1), v(4, 1), v(4.5, 0.5)},
	},
	{
		// Seen edge-on while the funnel is open: from the start (0,1) on
		// the line y = 1, the portal [3,4] on that line lies on the
		// funnel's left ray, its nearer end first. The path runs along
		// the line to that end.
		//
		//	A = [0,2]×[1,3] (the start at its corner), B = [2,4]×[1,2],
		//	C = [3,4]×[0,1]: portal 0 is x = 2, y ∈ [1,2] (heading
		//	east), portal 1 is y = 1, x ∈ [3,4] (heading north).
		name:  "seen edge-on through an open funnel",
		start: v(0, 1), goal: v(3.5, 0.5),
		portals: []Portal{
			{Left: v(2, 1), Right: v(2, 2)},
			{Left: v(3, 1), Right: v(4, 1)},
		},
		want: []mgl64.Vec2{v(0, 1), v(3, 1), v(3.5, 0.5)},
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
		if general := corridorShortest(s.start, s.goal, ps); math.Abs(general-want) > eps*math.Max(1, want) {
			fail("the oracles disagree: strip %.15g, corridor %.15g", want, general)
		}
	}
}

// box is an axis-aligned rectangle [x0, x1] × [y0, y1].
type box struct{ x0, y0, x1, y1 float64 }

// randomCorridor draws a corridor of up to 30 axis-aligned rectangles with
// integer corners, each joined to the one before along part of one of its
// sides: the portal is the overlap of the two sides, so a rectangle's side
// is often split into a portal and walls, as a mesh built from a grid
// splits it. Half of the time a rectangle is left through the side it was
// entered by, a U-turn round the end of the wall beside the entry portal;
// such a portal lies on the line of the wall and of the entry portal, and
// so on the line through the point where a path turns round the wall's
// end. The corridor is a chain of convex polygons joined by portals, but
// its rectangles may overlap in the plane, which neither Pull nor the
// oracle minds. Start and goal are points of the half-integer lattice in
// the first and last rectangles, often on their sides.
func randomCorridor(rng *rand.Rand) (start, goal mgl64.Vec2, portals []Portal, boxes []box) {
	num := func(lo, hi int) float64 { return float64(lo + rng.IntN(hi-lo+1)) }
	cur := box{0, 0, num(1, 4), num(1, 4)}
	boxes = append(boxes, cur)
	entry := -1 // the side cur was entered by: 0 west, 1 south, 2 east, 3 north
	var entryLo, entryHi float64
	for range rng.IntN(31) {
		side := rng.IntN(4)
		if entry >= 0 && rng.IntN(2) == 0 {
			side = entry
		}
		// The side runs along one axis over [a0, a1]; the next box spans
		// [b0, b1] along it, overlapping [a0, a1] in a portal of positive
		// length that leaves room beside the entry portal.
		a0, a1 := cur.y0, cur.y1
		if side == 1 || side == 3 {
			a0, a1 = cur.x0, cur.x1
		}
		var b0, b1, lo, hi float64
		ok := false
		for range 20 {
			b0 = a0 + num(-3, int(a1-a0)-1)
			b1 = b0 + num(1, 5)
			lo, hi = math.Max(a0, b0), math.Min(a1, b1)
			if hi > lo && (side != entry || hi <= entryLo || lo >= entryHi) {
				ok = true
				break
			}
		}
		if !ok {
			continue
		}
		d := num(1, 3)
		var next box
		var p Portal
		switch side {
		case 0: // heading west: south is left
			next = box{cur.x0 - d, b0, cur.x0, b1}
			p = Portal{Left: v(cur.x0, hi), Right: v(cur.x0, lo)}
		case 1: // heading south: east is left
			next = box{b0, cur.y1, b1, cur.y1 + d}
			p = Portal{Left: v(hi, cur.y1), Right: v(lo, cur.y1)}
		case 2: // heading east: north is left
			next = box{cur.x1, b0, cur.x1 + d, b1}
			p = Portal{Left: v(cur.x1, lo), Right: v(cur.x1, hi)}
		case 3: // heading north: west is left
			next = box{b0, cur.y0 - d, b1, cur.y0}
			p = Portal{Left: v(lo, cur.y0), Right: v(hi, cur.y0)}
		}
		portals = append(portals, p)
		boxes = append(boxes, next)
		cur, entry, entryLo, entryHi = next, (side+2)%4, lo, hi
	}
	point := func(b box) mgl64.Vec2 {
		x := b.x0 + float64(rng.IntN(int(2*(b.x1-b.x0))+1))/2
		y := b.y0 + float64(rng.IntN(int(2*(b.y1-b.y0))+1))/2
		return v(x, y)
	}
	return point(boxes[0]), point(boxes[len(boxes)-1]), portals, boxes
}

// meets returns the parameters t ∈ [0, 1] at which the segment a + t·(b−a)
// meets the segment p–q, within eps, as an interval, and whether it meets
// it at all.
func meets(a, b, p, q mgl64.Vec2) (lo, hi float64, ok bool) {
	d, e := b.Sub(a), q.Sub(p)
	if d == (mgl64.Vec2{}) {
		return 0, 1, onSegment(a, p, q)
	}
	ap := p.Sub(a)
	den := d[0]*e[1] - d[1]*e[0]
	if math.Abs(den) <= eps*d.Len()*math.Max(e.Len(), eps) {
		// Parallel: they meet only when collinear, over the projection.
		if math.Abs(d[0]*ap[1]-d[1]*ap[0]) > eps*d.Len() {
			return 0, 0, false
		}
		dd := d.Dot(d)
		t0, t1 := ap.Dot(d)/dd, q.Sub(a).Dot(d)/dd
		lo, hi = math.Max(math.Min(t0, t1), 0), math.Min(math.Max(t0, t1), 1)
		return lo, hi, lo <= hi+eps
	}
	t := (ap[0]*e[1] - ap[1]*e[0]) / den
	u := (ap[0]*d[1] - ap[1]*d[0]) / den
	tol := eps / math.Max(d.Len(), eps)
	if t < -tol || t > 1+tol || u < -eps/math.Max(e.Len(), eps) || u > 1+eps/math.Max(e.Len(), eps) {
		return 0, 0, false
	}
	t = math.Min(math.Max(t, 0), 1)
	return t, t, true
}

// corridorShortest is the oracle for corridors of any shape: Dijkstra on
// the visibility graph over start, every portal end point and goal, in
// corridor order (start 0, the ends of portal i at i+1, goal n+1). An edge
// joins a point to another of the same or a later order when the straight
// segment between them meets every portal strictly between them in
// corridor order along it; between two portals it then lies in the convex
// polygon they bound, so it stays in the corridor. It returns the length
// of the shortest path.
func corridorShortest(start, goal mgl64.Vec2, portals []Portal) float64 {
	n := len(portals)
	type node struct {
		p     mgl64.Vec2
		order int
	}
	nodes := []node{{start, 0}}
	for i, p := range portals {
		nodes = append(nodes, node{p.Left, i + 1}, node{p.Right, i + 1})
	}
	nodes = append(nodes, node{goal, n + 1})
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
			if nodes[w].order < nodes[u].order || done[w] {
				continue
			}
			a, b := nodes[u].p, nodes[w].p
			t := 0.0
			for k := nodes[u].order; k < nodes[w].order-1; k++ { // portal k has order k+1
				lo, hi, ok := meets(a, b, portals[k].Left, portals[k].Right)
				if !ok || hi < t-eps {
					continue edges
				}
				t = math.Max(t, lo)
			}
			if d := dist[u] + a.Sub(b).Len(); d < dist[w] {
				dist[w] = d
			}
		}
	}
}

// edgeOn reports whether path has a point after which the line of a later
// portal passes through it outside the portal: the case where a path that
// has turned round the end of a wall sees the next portal edge-on.
func edgeOn(path []mgl64.Vec2, portals []Portal) bool {
	for _, a := range path[1:] {
		for _, p := range portals {
			if p.Left != p.Right && cross(a, p.Right, p.Left) == 0 && p.Left.Sub(a).Dot(p.Right.Sub(a)) > 0 {
				return true
			}
		}
	}
	return false
}

func TestPullRandomCorridors(t *testing.T) {
	var dst []mgl64.Vec2
	edgeOnCases := 0
	for seed := range uint64(4000) {
		rng := rand.New(rand.NewPCG(seed, 0x7475726e))
		start, goal, ps, boxes := randomCorridor(rng)
		dst = Pull(dst[:0], start, goal, ps)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d: %s\npath %v\nboxes %v\n%s", seed, fmt.Sprintf(format, args...), dst, boxes, describe(start, goal, ps))
		}
		if len(dst) == 0 || dst[0] != start || dst[len(dst)-1] != goal {
			fail("path does not run from start %v to goal %v", start, goal)
		}
		if len(dst) > len(ps)+2 {
			fail("%d points for %d portals", len(dst), len(ps))
		}
		for i := 1; i < len(dst); i++ {
			if dst[i] == dst[i-1] {
				fail("point %d repeats %v", i, dst[i])
			}
		}
		if err := crossesInOrder(dst, ps); err != nil {
			fail("%v", err)
		}
		got, want := length(dst), corridorShortest(start, goal, ps)
		if math.Abs(got-want) > eps*math.Max(1, want) {
			fail("length %.15g, shortest %.15g (diff %g)", got, want, got-want)
		}
		if edgeOn(dst, ps) {
			edgeOnCases++
		}
	}
	// The generator must keep making the case the corridors are for.
	if edgeOnCases < 500 {
		t.Errorf("only %d of the corridors see a portal edge-on from a turn", edgeOnCases)
	}
	t.Logf("%d corridors see a portal edge-on from a turn", edgeOnCases)
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
