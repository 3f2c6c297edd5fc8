package smooth

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Follower steers an agent along a polyline of waypoints. Each tick the
// game passes the agent's position to [Follower.Steer], which projects it
// onto the path, advances past the waypoints that projection has reached,
// and returns the point Lookahead further along the path: the point to
// steer toward. Points are [mgl64.Vec2] in world coordinates, so the cells
// of a smoothed path are handed over as their centres (x+0.5, y+0.5).
//
// # Projection
//
// The agent's projection is the point of the path nearest to it, searched
// in a window: from the last waypoint passed (the one before
// [Follower.Next]) to the end of the segment the previous projection lay
// on, or to 2×Lookahead past the previous projection if that is further.
// Within the window the later of two equally near points wins. An agent
// pushed off the path therefore rejoins it at the nearest point within
// reach ahead, and may skip a stretch of path shorter than the window,
// but never a longer one: on a path that doubles back, an agent pushed
// across to a return leg further ahead than the window reaches is led
// back to where it left, not on to the goal from there.
//
// Passed waypoints stay passed: the projection may move back along the
// segment it lies on (an agent pushed backward is steered forward again
// from where it now is) but never back past a waypoint it has passed, even
// when the agent is nearer to an earlier segment. An agent pushed behind
// the last waypoint it passed projects onto that waypoint, and its target
// is ahead of it, so the agent rejoins the path there and does not
// retrace it. [Follower.Next] therefore never decreases until
// [Follower.Reset].
//
// # Targets and arrival
//
// The target always lies on the path, between the projection and at most
// Lookahead further along it, and the goal (the last waypoint) once that
// is nearer than Lookahead. An agent that starts on the path and each
// tick moves straight toward its target, by no more than its distance to
// it, stays within Lookahead of the path; one pushed further away closes
// in again. A longer Lookahead gives smoother motion but cuts corners by
// more: without [Follower.Visible] it must stay below the clearance the
// path has from walls, or the agent walks into them; with Visible set the
// target is pulled back into sight, and any Lookahead is safe. One shorter
// than the agent's step per tick caps the agent's progress at Lookahead
// per tick. With Lookahead ≤ 0 (or NaN) the target is the next
// waypoint itself, as in a plain waypoint follower.
//
// Steer reports done once the goal is the next waypoint and the agent is
// within Arrive of it. Done is not sticky: an agent pushed off the goal is
// steered back to it.
//
// Lookahead and Arrive may be changed between calls. The zero Follower has
// an empty path. A Follower is not safe for concurrent use; keep one per
// agent.
type Follower struct {
	// Lookahead is the distance along the path, from the agent's
	// projection onto it, at which Steer places the target. Values ≤ 0
	// make the target the next waypoint.
	Lookahead float64

	// Arrive is the distance from the goal within which Steer reports
	// done. Zero (or less) means the agent must be on the goal, up to a
	// rounding error of 1e-9 relative to the goal's coordinates.
	Arrive float64

	// Visible, when not nil, says whether an agent can move straight from
	// a to b without leaving walkable space: a grid's SegmentFree, or a
	// navmesh raycast that keeps the agent's radius. Steer then never
	// returns a target that Visible rejects: see [Follower.Steer].
	Visible func(a, b mgl64.Vec2) bool
	blocked bool

	pts []mgl64.Vec2 // the waypoints, a copy of the caller's
	cum []float64    // cum[i] is the length of the path from pts[0] to pts[i]

	// The projection of the agent, set by Steer: the point at fraction t
	// of the segment pts[seg]–pts[seg+1]. Unless seg is the last segment,
	// t < 1 and the segment has a positive length. fromSeg and fromT are
	// the projection that the last Steer searched from, for Remaining.
	seg, fromSeg int
	t, fromT     float64
}

// NewFollower returns a Follower with the given Lookahead along a copy of
// waypoints, so the caller may reuse the slice. It allocates the copy and
// a table of distances along the path, O(len(waypoints)).
func NewFollower(waypoints []mgl64.Vec2, lookahead float64) *Follower {
	f := &Follower{Lookahead: lookahead}
	f.Reset(waypoints)
	return f
}

// Reset makes f follow a copy of waypoints from its start, keeping
// Lookahead and Arrive. It runs in O(len(waypoints)) and allocates only
// when waypoints is longer than any path f has held before.
func (f *Follower) Reset(waypoints []mgl64.Vec2) {
	f.pts = append(f.pts[:0], waypoints...)
	f.cum = f.cum[:0]
	var sum float64
	for i, p := range f.pts {
		if i > 0 {
			sum += p.Sub(f.pts[i-1]).Len()
		}
		f.cum = append(f.cum, sum)
	}
	f.seg, f.t = 0, 0
	if len(f.pts) >= 2 {
		f.seg, f.t = f.normalize(0, 0)
	}
	f.fromSeg, f.fromT = f.seg, f.t
}

// Steer projects pos onto the path, advances past the waypoints the
// projection has reached, and returns the point to steer toward and
// whether the agent has arrived: see [Follower] for the rules. On arrival
// the target is the goal. With an empty path Steer returns pos and true;
// with a single waypoint, that waypoint and whether pos is within Arrive
// of it.
//
// With [Follower.Visible] set, a target that Visible rejects from pos is
// pulled back along the path toward the projection, to the farthest point
// that about twenty halvings find in sight; if the projection is hidden
// too, the next or the last waypoint serves, and with neither in sight
// Steer returns pos itself and [Follower.Blocked] reports true. An agent
// that moves straight toward its target, by no more than its distance to
// it, then stays where Visible allows whatever its speed and Lookahead.
//
// Steer runs in time linear in the number of waypoints in the search
// window and within Lookahead of the projection, plus at most 23 calls of
// Visible, and does not allocate unless Visible does.
func (f *Follower) Steer(pos mgl64.Vec2) (target mgl64.Vec2, done bool) {
	n := len(f.pts)
	switch n {
	case 0:
		return pos, true
	case 1:
		return f.pts[0], f.arrived(pos)
	}
	f.fromSeg, f.fromT = f.seg, f.t
	f.seg, f.t = f.locate(pos, f.seg, f.t)
	f.blocked = false
	if f.seg == n-2 && f.arrived(pos) {
		return f.pts[n-1], true
	}
	target = f.target()
	if f.Visible != nil && !f.Visible(pos, target) {
		target = f.visibleTarget(pos)
	}
	return target, false
}

// visibleTarget returns the farthest point Visible accepts from pos on the
// path between the projection and the target: found by halving the arc
// between the projection (or the next or last waypoint, when the
// projection is hidden) and the target. With nothing in sight it returns
// pos and marks the follower blocked.
func (f *Follower) visibleTarget(pos mgl64.Vec2) mgl64.Vec2 {
	lo := f.arc(f.seg, f.t)
	hi := lo + max(f.Lookahead, 0)
	if !(f.Lookahead > 0) {
		hi = f.cum[f.seg+1]
	}
	if !f.Visible(pos, f.pointAt(lo)) {
		switch {
		case f.Visible(pos, f.pts[f.seg+1]):
			return f.pts[f.seg+1]
		case f.Visible(pos, f.pts[f.seg]):
			return f.pts[f.seg]
		}
		f.blocked = true
		return pos
	}
	for range 20 {
		mid := (lo + hi) / 2
		if f.Visible(pos, f.pointAt(mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return f.pointAt(lo)
}

// pointAt returns the point of the path at arc length s from its start.
func (f *Follower) pointAt(s float64) mgl64.Vec2 {
	pts, cum := f.pts, f.cum
	k := f.seg
	for k < len(pts)-2 && cum[k+1] <= s {
		k++
	}
	if !(s < cum[k+1]) || cum[k+1] <= cum[k] {
		return pts[k+1]
	}
	return lerp(pts[k], pts[k+1], max(s-cum[k], 0)/(cum[k+1]-cum[k]))
}

// Blocked reports whether the last Steer, with Visible set, found no point
// of the path ahead in sight of the agent, and so returned its position:
// the agent was pushed where it cannot see its path, and needs a new one.
func (f *Follower) Blocked() bool { return f.blocked }

// Next returns the index of the next waypoint not yet passed: the end of
// the segment that the agent's projection lies on. Waypoint 0, where the
// path starts, counts as passed from the outset, so Next starts at 1 (or
// later, past waypoints equal to the first) and reaches len(waypoints)−1
// when the goal is the next waypoint; it is 0 for a path of fewer than two
// waypoints. Next changes only in Steer and Reset, and Steer never
// decreases it. It does not allocate.
func (f *Follower) Next() int {
	if len(f.pts) < 2 {
		return 0
	}
	return f.seg + 1
}

// Remaining returns the length of the path from the projection of pos to
// the goal, not counting the distance from pos to the path. It projects
// pos as the last call to Steer projected its position, searching the same
// window, so that after Steer(pos) it measures from the very projection
// that Steer steered from (before any Steer, the window starts at the
// start of the path). It does not change f. It is 0 for a path of fewer
// than two waypoints, runs in time linear in the number of waypoints in
// the search window, and does not allocate.
func (f *Follower) Remaining(pos mgl64.Vec2) float64 {
	n := len(f.pts)
	if n < 2 {
		return 0
	}
	seg, t := f.locate(pos, f.fromSeg, f.fromT)
	return max(f.cum[n-1]-f.arc(seg, t), 0)
}

// arrived reports whether pos is within Arrive of the goal.
func (f *Follower) arrived(pos mgl64.Vec2) bool {
	goal := f.pts[len(f.pts)-1]
	r := 1e-9 * max(1, math.Abs(goal[0]), math.Abs(goal[1]))
	if f.Arrive > r {
		r = f.Arrive
	}
	return pos.Sub(goal).LenSqr() <= r*r
}

// arc returns the length of the path from its start to the point at
// fraction t of segment seg.
func (f *Follower) arc(seg int, t float64) float64 {
	if t >= 1 {
		return f.cum[seg+1]
	}
	return f.cum[seg] + t*(f.cum[seg+1]-f.cum[seg])
}

// locate returns the projection of pos: the nearest point to pos on the
// search window described at [Follower] for a previous projection at
// fraction t0 of segment seg0, as a segment and a fraction of it.
// len(f.pts) must be at least 2.
func (f *Follower) locate(pos mgl64.Vec2, seg0 int, t0 float64) (int, float64) {
	pts, cum := f.pts, f.cum
	last := len(pts) - 2
	hi := cum[seg0+1]
	if l := f.Lookahead; l > 0 {
		hi = max(hi, f.arc(seg0, t0)+2*l)
	}
	bestSeg, bestT, best := seg0, 0.0, math.Inf(1)
	for j := seg0; j <= last; j++ {
		if j > seg0 && cum[j] > hi {
			break
		}
		// The window ends within segment j when cum[j] ≤ hi < cum[j+1],
		// which gives the segment a positive length.
		tmax := 1.0
		if cum[j+1] > hi {
			tmax = (hi - cum[j]) / (cum[j+1] - cum[j])
		}
		a, b := pts[j], pts[j+1]
		t := 0.0
		if d := b.Sub(a); d.LenSqr() > 0 {
			t = pos.Sub(a).Dot(d) / d.LenSqr()
		}
		if !(t > 0) { // also NaN
			t = 0
		} else if t > tmax {
			t = tmax
		}
		// The first segment is taken whatever its distance (which may be
		// NaN); later ones win ties.
		if dd := pos.Sub(lerp(a, b, t)).LenSqr(); j == seg0 || dd <= best {
			bestSeg, bestT, best = j, t, dd
		}
	}
	return f.normalize(bestSeg, bestT)
}

// normalize moves a projection at the end of a segment, or on a segment of
// zero length, to the start of the next segment, unless the segment is the
// last one.
func (f *Follower) normalize(seg int, t float64) (int, float64) {
	for seg < len(f.pts)-2 && (t >= 1 || f.cum[seg+1] <= f.cum[seg]) {
		seg, t = seg+1, 0
	}
	return seg, t
}

// target returns the point to steer toward from the projection f.seg, f.t.
func (f *Follower) target() mgl64.Vec2 {
	if !(f.Lookahead > 0) {
		return f.pts[f.seg+1]
	}
	pts, cum := f.pts, f.cum
	last := len(pts) - 2
	a := f.arc(f.seg, f.t) + f.Lookahead
	k := f.seg
	for k < last && cum[k+1] <= a {
		k++
	}
	if !(a < cum[k+1]) {
		return pts[k+1] // the goal, k being the last segment
	}
	// cum[k] ≤ a < cum[k+1], so segment k has a positive length.
	return lerp(pts[k], pts[k+1], (a-cum[k])/(cum[k+1]-cum[k]))
}

// lerp returns the point at fraction t of the segment a–b, exactly b when
// t ≥ 1.
func lerp(a, b mgl64.Vec2, t float64) mgl64.Vec2 {
	if t >= 1 {
		return b
	}
	return a.Add(b.Sub(a).Mul(t))
}
