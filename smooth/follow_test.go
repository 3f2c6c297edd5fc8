package smooth_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/smooth"
	"github.com/go-gl/mathgl/mgl64"
)

const eps = 1e-9

func v(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }

// followPaths are the polylines the simulated agent walks.
var followPaths = []struct {
	name string
	pts  []mgl64.Vec2
}{
	{"straight", []mgl64.Vec2{v(0, 0), v(10, 0)}},
	{"diagonal", []mgl64.Vec2{v(1.5, 2.5), v(7.5, 9.5)}},
	{"L", []mgl64.Vec2{v(0, 0), v(8, 0), v(8, 6)}},
	{"zig-zag", []mgl64.Vec2{v(0, 0), v(2, 3), v(4, 0), v(6, 3), v(8, 0), v(10, 3)}},
	{"U-turn", []mgl64.Vec2{v(0, 0), v(10, 0), v(10, 2), v(0, 2)}},
	{"hairpin", []mgl64.Vec2{v(0, 0), v(6, 0), v(6, 0.5), v(0, 0.5)}},
	{"there and back", []mgl64.Vec2{v(0, 0), v(6, 0), v(0, 0)}},
	{"repeated points", []mgl64.Vec2{v(1, 1), v(1, 1), v(5, 1), v(5, 1), v(5, 1), v(5, 5), v(5, 5)}},
	{"smoothed cells", []mgl64.Vec2{v(0.5, 0.5), v(2.5, 4.5), v(4.5, 5.5), v(9.5, 5.5)}},
}

// pathLength returns the length of the polyline through pts.
func pathLength(pts []mgl64.Vec2) float64 {
	var sum float64
	for i := 1; i < len(pts); i++ {
		sum += pts[i].Sub(pts[i-1]).Len()
	}
	return sum
}

// segDist returns the distance from p to the segment a–b and the distance
// from a to the nearest point.
func segDist(p, a, b mgl64.Vec2) (dist, along float64) {
	d := b.Sub(a)
	t := 0.0
	if dd := d.LenSqr(); dd > 0 {
		t = min(max(p.Sub(a).Dot(d)/dd, 0), 1)
	}
	q := a.Add(d.Mul(t))
	return p.Sub(q).Len(), q.Sub(a).Len()
}

// distToPath returns the distance from p to the polyline through pts.
func distToPath(p mgl64.Vec2, pts []mgl64.Vec2) float64 {
	if len(pts) == 1 {
		return p.Sub(pts[0]).Len()
	}
	best := math.Inf(1)
	for i := 1; i < len(pts); i++ {
		d, _ := segDist(p, pts[i-1], pts[i])
		best = min(best, d)
	}
	return best
}

// onPathWithin reports whether q lies on the polyline through pts at some
// distance along it in [lo, hi].
func onPathWithin(q mgl64.Vec2, pts []mgl64.Vec2, lo, hi float64) bool {
	var start float64
	for i := 1; i < len(pts); i++ {
		d, along := segDist(q, pts[i-1], pts[i])
		if a := start + along; d <= eps && a >= lo-eps && a <= hi+eps {
			return true
		}
		start += pts[i].Sub(pts[i-1]).Len()
	}
	return false
}

// step moves pos by at most speed straight toward target.
func step(pos, target mgl64.Vec2, speed float64) mgl64.Vec2 {
	d := target.Sub(pos)
	l := d.Len()
	if l <= speed {
		return target
	}
	return pos.Add(d.Mul(speed / l))
}

// push describes a shove of the agent by by, after the tick at which the
// follower's Next first reaches at (or the first tick when at ≤ 1).
type push struct {
	at int
	by mgl64.Vec2
}

// walk steers a simulated agent with the given speed from the start of pts
// until the follower reports done, checking the follower's promises at
// every tick, and returns the number of ticks taken.
func walk(t *testing.T, pts []mgl64.Vec2, lookahead, speed float64, p *push) int {
	t.Helper()
	f := smooth.NewFollower(pts, lookahead)
	n := len(pts)
	length := pathLength(pts)
	progress := speed
	if lookahead > 0 {
		progress = min(speed, lookahead)
	}
	maxTicks := int(2*length/progress) + 2*n + 10
	bound := max(lookahead, 0) + eps // how far the agent may be from the path
	if p != nil {
		maxTicks += int(2 * p.by.Len() / speed)
	}

	pos, prevNext, pushed := pts[0], f.Next(), false
	for tick := 0; ; tick++ {
		where := fmt.Sprintf("tick %d at %v", tick, pos)
		target, done := f.Steer(pos)
		next := f.Next()
		if next < prevNext || next < 1 || next > n-1 {
			t.Fatalf("%s: Next %d after %d, want it in [%d, %d] and not decreasing", where, next, prevNext, max(prevNext, 1), n-1)
		}
		prevNext = next

		s := length - f.Remaining(pos) // where Steer projected pos
		if lookahead > 0 {
			if !onPathWithin(target, pts, s, s+lookahead) {
				t.Fatalf("%s: target %v is not on the path within %v after the projection at %v", where, target, lookahead, s)
			}
		} else if !done && target != pts[next] {
			t.Fatalf("%s: target %v, want the next waypoint %v", where, target, pts[next])
		}
		if d := distToPath(pos, pts); d > bound {
			t.Fatalf("%s: %v from the path, want at most %v", where, d, bound)
		}

		if done {
			if target != pts[n-1] || pos.Sub(target).Len() > eps {
				t.Fatalf("%s: done with target %v, want on the goal %v", where, target, pts[n-1])
			}
			return tick
		}
		if tick >= maxTicks {
			t.Fatalf("%s: not done after %d ticks (target %v, Next %d)", where, tick, target, next)
		}
		pos = step(pos, target, speed)
		if p != nil && !pushed && next >= p.at {
			pos = pos.Add(p.by)
			pushed = true
			bound = max(lookahead, 0) + p.by.Len() + speed + eps
		}
	}
}

func TestFollowerWalks(t *testing.T) {
	for _, path := range followPaths {
		for _, lookahead := range []float64{0, 0.3, 1, 2.5} {
			for _, speed := range []float64{0.2, 0.7} {
				t.Run(fmt.Sprintf("%s/lookahead=%v/speed=%v", path.name, lookahead, speed), func(t *testing.T) {
					ticks := walk(t, path.pts, lookahead, speed, nil)
					if min := int(pathLength(path.pts) / speed / 2); ticks < min {
						t.Errorf("done after %d ticks, want at least %d", ticks, min)
					}
				})
			}
		}
	}
}

func TestFollowerPushed(t *testing.T) {
	for _, path := range followPaths {
		n := len(path.pts)
		at := max(n/2, 1)
		// Push sideways to the segment the agent is on by then.
		a, b := path.pts[at-1], path.pts[at]
		for a == b && at > 1 {
			at--
			a = path.pts[at-1]
		}
		d := b.Sub(a)
		if d.Len() == 0 {
			d = v(1, 0)
		}
		side := v(-d[1], d[0]).Normalize().Mul(3)
		for _, lookahead := range []float64{0, 1, 2.5} {
			for _, by := range []mgl64.Vec2{side, side.Mul(-1), d.Normalize().Mul(-4), d.Normalize().Mul(4)} {
				t.Run(fmt.Sprintf("%s/lookahead=%v/by=%.2v", path.name, lookahead, by), func(t *testing.T) {
					walk(t, path.pts, lookahead, 0.4, &push{at: at, by: by})
				})
			}
		}
	}
}

func TestFollowerRandomPolylines(t *testing.T) {
	// Random polylines on a small integer lattice, so that points repeat
	// and legs cross, overlap and double back; half the runs are pushed.
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 1))
		pts := make([]mgl64.Vec2, 2+r.IntN(8))
		for i := range pts {
			if i > 0 && r.IntN(5) == 0 {
				pts[i] = pts[i-1]
				continue
			}
			pts[i] = v(float64(r.IntN(11)), float64(r.IntN(11)))
		}
		lookahead := []float64{0, 0.2, 0.5, 1, 3}[r.IntN(5)]
		speed := 0.1 + r.Float64()
		var p *push
		if r.IntN(2) == 0 {
			p = &push{at: 1 + r.IntN(len(pts)-1), by: v(8*r.Float64()-4, 8*r.Float64()-4)}
		}
		shove := "none"
		if p != nil {
			shove = fmt.Sprintf("%v once Next reaches %d", p.by, p.at)
		}
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Logf("path %v, lookahead %v, speed %v, push %s", pts, lookahead, speed, shove)
			walk(t, pts, lookahead, speed, p)
		})
	}
}

func TestFollowerCases(t *testing.T) {
	l := []mgl64.Vec2{v(0, 0), v(4, 0), v(4, 4)}
	tests := []struct {
		name      string
		pts       []mgl64.Vec2
		lookahead float64
		arrive    float64
		pos       mgl64.Vec2
		target    mgl64.Vec2
		done      bool
		next      int
		remaining float64
	}{
		{name: "empty", pts: nil, lookahead: 1, pos: v(3, 4), target: v(3, 4), done: true},
		{name: "one point, away", pts: []mgl64.Vec2{v(2, 2)}, lookahead: 1, arrive: 0.5, pos: v(3, 4), target: v(2, 2)},
		{name: "one point, near", pts: []mgl64.Vec2{v(2, 2)}, lookahead: 1, arrive: 0.5, pos: v(2.3, 2.3), target: v(2, 2), done: true},
		{name: "one point, on it", pts: []mgl64.Vec2{v(2, 2)}, pos: v(2, 2), target: v(2, 2), done: true},
		{name: "at the start", pts: l, lookahead: 1, pos: v(0, 0), target: v(1, 0), next: 1, remaining: 8},
		{name: "before the start", pts: l, lookahead: 1, pos: v(-5, 3), target: v(1, 0), next: 1, remaining: 8},
		{name: "on a waypoint", pts: l, lookahead: 1, pos: v(4, 0), target: v(4, 1), next: 2, remaining: 4},
		{name: "lookahead round a corner", pts: l, lookahead: 1.5, pos: v(3, 0), target: v(4, 0.5), next: 1, remaining: 5},
		{name: "off the path", pts: l, lookahead: 1, pos: v(2, -3), target: v(3, 0), next: 1, remaining: 6},
		{name: "inside the corner", pts: l, lookahead: 1, pos: v(3.8, 0.5), target: v(4, 0.8), next: 1, remaining: 4.2},
		{name: "inside the corner, longer window", pts: l, lookahead: 2.5, pos: v(3.8, 0.5), target: v(4, 3), next: 2, remaining: 3.5},
		{name: "zero lookahead", pts: l, pos: v(1, 0.5), target: v(4, 0), next: 1, remaining: 7},
		{name: "negative lookahead", pts: l, lookahead: -1, pos: v(4, 0), target: v(4, 4), next: 2, remaining: 4},
		{name: "NaN lookahead", pts: l, lookahead: math.NaN(), pos: v(1, 0), target: v(4, 0), next: 1, remaining: 7},
		{name: "lookahead past the goal", pts: l, lookahead: 20, pos: v(1, 0), target: v(4, 4), next: 1, remaining: 7},
		{name: "infinite lookahead", pts: l, lookahead: math.Inf(1), pos: v(1, 0), target: v(4, 4), next: 1, remaining: 7},
		// The window reaches only to the end of the first leg.
		{name: "past the goal", pts: l, lookahead: 1, pos: v(4, 4.5), target: v(4, 1), next: 2, remaining: 4},
		{name: "on the goal, not reached", pts: []mgl64.Vec2{v(0, 0), v(4, 0), v(0, 0)}, lookahead: 1, pos: v(0, 0), target: v(1, 0), next: 1, remaining: 8},
		{name: "all one point", pts: []mgl64.Vec2{v(2, 2), v(2, 2), v(2, 2)}, lookahead: 1, pos: v(3, 3), target: v(2, 2), next: 2},
		{name: "all one point, on it", pts: []mgl64.Vec2{v(2, 2), v(2, 2), v(2, 2)}, lookahead: 1, pos: v(2, 2), target: v(2, 2), done: true, next: 2},
		{name: "repeated start", pts: []mgl64.Vec2{v(0, 0), v(0, 0), v(0, 0), v(3, 0)}, lookahead: 1, pos: v(0, 0), target: v(1, 0), next: 3, remaining: 3},
		{name: "NaN position", pts: l, lookahead: 1, pos: v(math.NaN(), 0), target: v(1, 0), next: 1, remaining: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := smooth.NewFollower(tt.pts, tt.lookahead)
			f.Arrive = tt.arrive
			target, done := f.Steer(tt.pos)
			if !target.ApproxEqualThreshold(tt.target, eps) || done != tt.done {
				t.Errorf("Steer(%v) = %v, %v; want %v, %v", tt.pos, target, done, tt.target, tt.done)
			}
			if got := f.Next(); got != tt.next {
				t.Errorf("Next() = %d, want %d", got, tt.next)
			}
			if got := f.Remaining(tt.pos); math.Abs(got-tt.remaining) > eps {
				t.Errorf("Remaining(%v) = %v, want %v", tt.pos, got, tt.remaining)
			}
		})
	}
}

func TestFollowerZero(t *testing.T) {
	var f smooth.Follower
	if target, done := f.Steer(v(1, 2)); target != v(1, 2) || !done {
		t.Errorf("zero Follower: Steer = %v, %v; want (1, 2), true", target, done)
	}
	if f.Next() != 0 || f.Remaining(v(1, 2)) != 0 {
		t.Errorf("zero Follower: Next %d, Remaining %v; want 0, 0", f.Next(), f.Remaining(v(1, 2)))
	}
	f.Lookahead = 1
	f.Reset([]mgl64.Vec2{v(0, 0), v(3, 0)})
	if target, done := f.Steer(v(0, 0)); target != v(1, 0) || done {
		t.Errorf("after Reset: Steer = %v, %v; want (1, 0), false", target, done)
	}
}

func TestFollowerNextBeforeSteer(t *testing.T) {
	for _, tc := range []struct {
		pts  []mgl64.Vec2
		want int
	}{
		{nil, 0},
		{[]mgl64.Vec2{v(1, 1)}, 0},
		{[]mgl64.Vec2{v(1, 1), v(2, 1)}, 1},
		{[]mgl64.Vec2{v(1, 1), v(1, 1), v(1, 1), v(2, 1)}, 3},
		{[]mgl64.Vec2{v(1, 1), v(1, 1), v(1, 1)}, 2},
	} {
		if got := smooth.NewFollower(tc.pts, 1).Next(); got != tc.want {
			t.Errorf("path %v: Next() = %d before Steer, want %d", tc.pts, got, tc.want)
		}
	}
}

func TestFollowerArrive(t *testing.T) {
	f := smooth.NewFollower([]mgl64.Vec2{v(0, 0), v(10, 0)}, 1)
	f.Arrive = 0.5
	for _, tc := range []struct {
		x    float64
		done bool
	}{{9, false}, {9.4, false}, {9.5, true}, {10, true}, {10.4, true}, {10.6, false}} {
		if _, done := f.Steer(v(tc.x, 0)); done != tc.done {
			t.Errorf("at x = %v: done %v, want %v", tc.x, done, tc.done)
		}
	}
	// Within Arrive of the goal, but the goal is not yet the next waypoint.
	f = smooth.NewFollower([]mgl64.Vec2{v(0, 0), v(4, 0), v(0, 0.2)}, 1)
	f.Arrive = 0.5
	if _, done := f.Steer(v(0, 0)); done {
		t.Errorf("there and back: done at the start")
	}
}

func TestFollowerCopies(t *testing.T) {
	pts := []mgl64.Vec2{v(0, 0), v(4, 0)}
	f := smooth.NewFollower(pts, 1)
	pts[1] = v(0, 4)
	if target, _ := f.Steer(v(0, 0)); target != v(1, 0) {
		t.Errorf("after the caller changed its slice: target %v, want (1, 0)", target)
	}
	f.Reset(pts)
	pts[1] = v(4, 0)
	if target, _ := f.Steer(v(0, 0)); target != v(0, 1) {
		t.Errorf("after Reset and a change to the caller's slice: target %v, want (0, 1)", target)
	}
}

func TestFollowerNeverBack(t *testing.T) {
	// The agent has turned the corner of the L; pushed back before it, it
	// keeps the corner passed and is steered on along the second leg.
	f := smooth.NewFollower([]mgl64.Vec2{v(0, 0), v(4, 0), v(4, 4)}, 1)
	f.Steer(v(4, 1))
	if f.Next() != 2 {
		t.Fatalf("Next %d after the corner, want 2", f.Next())
	}
	target, _ := f.Steer(v(1, 0))
	if f.Next() != 2 || target != v(4, 1) {
		t.Errorf("pushed back: target %v, Next %d; want (4, 1), 2", target, f.Next())
	}
	if r := f.Remaining(v(1, 0)); r != 4 {
		t.Errorf("pushed back: Remaining %v, want 4", r)
	}

	// Pushed back along the leg it is on, the agent is steered from where
	// it now is.
	f.Steer(v(4, 3))
	target, _ = f.Steer(v(4, 1.5))
	if f.Next() != 2 || target != v(4, 2.5) {
		t.Errorf("pushed back along the leg: target %v, Next %d; want (4, 2.5), 2", target, f.Next())
	}
}

func TestFollowerWindow(t *testing.T) {
	u := []mgl64.Vec2{v(0, 0), v(10, 0), v(10, 2), v(0, 2)}
	// Pushed across to the return leg of the U, 16 along the path ahead,
	// the agent is led back to where it was: the window reaches only 2
	// ahead.
	f := smooth.NewFollower(u, 1)
	f.Steer(v(3, 0))
	target, _ := f.Steer(v(3, 2.1))
	if f.Next() != 1 || target != v(4, 0) {
		t.Errorf("lookahead 1: target %v, Next %d; want (4, 0), 1", target, f.Next())
	}
	// With a window of 40 the return leg is within reach, and the agent
	// takes the short cut.
	f = smooth.NewFollower(u, 20)
	f.Steer(v(3, 0))
	target, _ = f.Steer(v(3, 2.1))
	if f.Next() != 3 || target != v(0, 2) {
		t.Errorf("lookahead 20: target %v, Next %d; want (0, 2), 3", target, f.Next())
	}
}

func TestFollowerAllocs(t *testing.T) {
	pts := followPaths[3].pts
	f := smooth.NewFollower(pts, 1)
	pos := pts[0]
	var rem float64
	var next int
	for _, tc := range []struct {
		name string
		fn   func()
	}{
		{"Steer", func() {
			target, done := f.Steer(pos)
			if done {
				f.Reset(pts)
				pos = pts[0]
				return
			}
			pos = step(pos, target, 0.3)
		}},
		{"Remaining", func() { rem = f.Remaining(pos) }},
		{"Next", func() { next = f.Next() }},
		{"Reset", func() { f.Reset(pts) }},
		{"Reset shorter", func() { f.Reset(pts[:2]) }},
	} {
		if n := testing.AllocsPerRun(100, tc.fn); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tc.name, n)
		}
	}
	if rem <= 0 || next < 1 {
		t.Fatalf("Remaining %v, Next %d", rem, next)
	}
}

func TestFollowerRandomMaps(t *testing.T) {
	// Smoothed paths on random maps, walked through the cell centres.
	for seed := uint64(1); seed <= 6; seed++ {
		g, path := randomPath(t, seed, 0.25)
		var pts []mgl64.Vec2
		for _, p := range smooth.AppendTaut(nil, path, g.LineOfSight) {
			pts = append(pts, v(float64(p.X)+0.5, float64(p.Y)+0.5))
		}
		for _, lookahead := range []float64{0, 0.5} {
			t.Run(fmt.Sprintf("seed=%d/lookahead=%v", seed, lookahead), func(t *testing.T) {
				walk(t, pts, lookahead, 0.3, nil)
			})
		}
	}
}

func BenchmarkFollowerSteer(b *testing.B) {
	for _, path := range followPaths {
		b.Run(path.name, func(b *testing.B) {
			b.ReportAllocs()
			f := smooth.NewFollower(path.pts, 1)
			pos := path.pts[0]
			for b.Loop() {
				target, done := f.Steer(pos)
				if done {
					f.Reset(path.pts)
					pos = path.pts[0]
					continue
				}
				if math.IsNaN(target[0] + target[1]) {
					b.Fatalf("target %v", target)
				}
				pos = step(pos, target, 0.3)
			}
		})
	}
}
