// Package funnel pulls a corridor taut: given the portals a path must cross,
// in order, it returns the shortest polyline from start to goal through them.
// This is the string-pulling step that turns a navmesh corridor (a sequence
// of convex polygons joined by shared edges) into waypoints.
//
// Points are [mgl64.Vec2] in Cairn's world coordinates: x grows to the
// right and y grows down, so row 0 of a map is at the top (cell (x, y)
// covers [x, x+1) × [y, y+1)). Lengths are Euclidean, in cells.
//
// # Left and right
//
// With y pointing down the plane is the mirror image of the textbook one,
// so the sign rule for left and right flips. Let
//
//	cross(o, a, p) = (a.x−o.x)(p.y−o.y) − (a.y−o.y)(p.x−o.x)
//
// For a walker standing at o and facing a, the point p lies to its left
// when cross(o, a, p) < 0, to its right when cross(o, a, p) > 0, and on the
// line o–a when it is 0. On a map: a walker heading east (+x) has north
// (−y, towards row 0) on its left, and a walker heading south (+y) has east
// on its left. A turn to the left is counter-clockwise as seen on screen.
//
// Every function here is safe for concurrent use and none allocates when
// the destination slice has room.
package funnel

import "github.com/go-gl/mathgl/mgl64"

// Portal is an edge the path must cross, seen walking from start to goal:
// Left and Right are its end points as they lie to the walker's left and
// right (see the package documentation for what left means with y down).
// Left == Right is a portal of zero width: the path passes through that
// point.
type Portal struct {
	Left, Right mgl64.Vec2
}

// Pull appends to dst the taut path from start to goal through the portals
// in order, and returns the extended slice. The path is start, then the
// portal end points where the path turns, then goal. The corridor is the
// sequence of convex polygons joined by the portals: start lies in the first
// polygon (the one before portals[0]) and goal in the last; either may lie
// on a portal. With no portals the path is start, goal.
//
// The path has no two equal consecutive points, and no point where it
// goes straight on: a portal end point that the path passes through
// without turning (a zero-width portal on the straight line, a corner
// collinear with the next leg) is left out. When start == goal and
// the corridor does not force a detour, the path is the single point start.
// Points already in dst are left alone and not compared with the path.
//
// Pull is the "simple stupid funnel algorithm" (Mononen, 2010): from the
// last turn (the apex) it narrows a funnel with each portal's end points in
// turn, and when one side of the funnel crosses over the other, the end
// point on the crossed side is the next turn and becomes the apex. It is
// robust to degenerate input: zero-width portals, start or goal on a
// portal or equal to one of its end points, portals that repeat, and
// collinear end points. A portal whose line passes through the apex (the
// start or the last turn) is seen edge-on: when the apex lies on the
// portal, as when the path turns at a vertex that several portals share or
// starts on a portal, the portal is already crossed and is skipped; when
// the apex lies on the line outside the portal, as after a U-turn round
// the end of a wall whose line the portal continues, the path runs along
// the line to the portal's nearer end. Its decisions are exact sign tests
// on the input coordinates, so integer or grid-aligned corridors are
// pulled exactly.
//
// Cost: each new apex restarts the scan at the portal after it, so the
// portals between that one and the portal that caused the turn are read
// again. Pull therefore runs in O(n) for n portals when turns are spread
// along the corridor, as on navmesh paths, and in O(n·k) in the worst case
// for k turns (O(n²) at most). Besides the path it uses O(1) memory; it
// allocates only when dst lacks room for the path, which has at most
// len(portals)+2 points. If start is not in the first polygon, or the
// portals do not form a corridor, the result is still a polyline from start
// to goal through portal end points, but it need not cross every portal.
func Pull(dst []mgl64.Vec2, start, goal mgl64.Vec2, portals []Portal) []mgl64.Vec2 {
	base := len(dst)
	dst = append(dst, start)

	// The funnel: rays from apex through left and right, which came from
	// portals[leftIdx] and portals[rightIdx]. The funnel is empty (just
	// after a turn) when left == right == apex; otherwise left and right differ
	// from apex and cross(apex, right, left) < 0: left lies strictly to the
	// left of the right ray, so the funnel's angle is in (0°, 180°).
	// Index len(portals) is the goal, as a portal of zero width.
	apex, left, right := start, start, start
	leftIdx, rightIdx := -1, -1
	empty := true
	// turn makes the path turn at p, which came from portals[idx]: p is
	// the new apex and the funnel is empty. It returns the index the loop
	// goes on from, idx+1 after the loop's increment.
	turn := func(p mgl64.Vec2, idx int) int {
		apex = p
		dst = push(dst, base, apex)
		left, right = apex, apex
		empty = true
		return idx
	}
	n := len(portals)
	for i := 0; i <= n; i++ {
		l, r := goal, goal
		if i < n {
			l, r = portals[i].Left, portals[i].Right
		}
		if l != r && cross(apex, r, l) == 0 {
			// The apex lies on the portal's line. It may lie there outside
			// the portal: the polygon before the portal can have other
			// edges on the same line (a side split where neighbours
			// change), and a path that has just turned round the end of
			// a wall stands on the wall's line (a U-turn). Seen edge-on,
			// the portal is crossed at its nearer end, so it counts as a
			// portal of zero width there. On the portal, just after a
			// turn, it is already crossed; in an open funnel (which a
			// corridor makes only when it comes back to the apex) the
			// tests below decide.
			if dl, dr := l.Sub(apex), r.Sub(apex); dl.Dot(dr) > 0 {
				if dl.Dot(r.Sub(l)) > 0 {
					r = l // l is nearer
				} else {
					l = r
				}
			} else if empty {
				continue
			}
		}

		if empty {
			switch {
			case l == r:
				// The path passes through this point (for i == n, the goal).
				if l != apex {
					apex = l
					dst = push(dst, base, apex)
				}
			case cross(apex, r, l) > 0:
				// The apex lies beyond the portal's line, which no
				// corridor makes: the apex is in the closed convex polygon
				// before the portal. Skip the portal.
			default:
				left, right = l, r
				leftIdx, rightIdx = i, i
				empty = false
			}
			continue
		}

		// Right side: r narrows the funnel when it is on or to the left of
		// the right ray.
		if cross(apex, right, r) <= 0 {
			if cross(apex, left, r) > 0 {
				right, rightIdx = r, i
			} else {
				// r crosses over the left ray (or lies on it): the path
				// turns at left.
				i = turn(left, leftIdx)
				continue
			}
		}

		// Left side, the mirror image.
		if cross(apex, left, l) >= 0 {
			if cross(apex, right, l) < 0 {
				left, leftIdx = l, i
			} else {
				i = turn(right, rightIdx)
				continue
			}
		}
	}
	// A goal inside the funnel becomes the apex at i == n above; the goal
	// is appended here in every case, and push drops the repeat.
	return push(dst, base, goal)
}

// cross returns (a−o) × (p−o). In Cairn's y-down coordinates it is negative
// when p lies to the left of a walker at o facing a, positive when p lies to
// its right, and zero when o, a and p are collinear.
func cross(o, a, p mgl64.Vec2) float64 {
	return (a[0]-o[0])*(p[1]-o[1]) - (a[1]-o[1])*(p[0]-o[0])
}

// push appends p to the path dst[base:], which is not empty. It drops p
// when p repeats the last point, and replaces the last point by p when that
// point lies strictly between its predecessor and p on one straight line.
func push(dst []mgl64.Vec2, base int, p mgl64.Vec2) []mgl64.Vec2 {
	k := len(dst)
	b := dst[k-1]
	if b == p {
		return dst
	}
	if k-base >= 2 {
		a := dst[k-2]
		if cross(a, b, p) == 0 && b.Sub(a).Dot(p.Sub(b)) > 0 {
			dst[k-1] = p
			return dst
		}
	}
	return append(dst, p)
}
