// Package smooth removes needless turns from cell paths with line-of-sight
// checks, so that a path found on a grid reads as a few straight legs.
//
// Points are cells as [image.Point]: cell (x, y) covers [x, x+1) × [y, y+1)
// and a path runs between cell centres (x+0.5, y+0.5), so distances between
// centres equal distances between the points themselves. The package knows
// nothing of grids: what may be walked straight is decided by a
// [LineOfSight] callback, typically a grid's LineOfSight method, which
// applies the same no-corner-cutting rule as the grid's moves.
//
// A [Follower] hands the result to steering: it works in continuous space,
// on the cell centres as [mgl64.Vec2] waypoints, and each tick turns an
// agent's position into the point to steer toward.
//
// Every function here is safe for concurrent use as long as the callback is,
// and none allocates when the destination slice has room. A Follower holds
// one agent's progress and is not safe for concurrent use; its Steer does
// not allocate.
package smooth

import (
	"image"
	"math"
)

// LineOfSight reports whether an agent can walk straight from a to b. The
// functions that take one panic when it is nil, whatever the path.
type LineOfSight func(a, b image.Point) bool

func checkLOS(los LineOfSight) {
	if los == nil {
		panic("smooth: nil line-of-sight function")
	}
}

// begin starts a smoothing of path into dst: it checks los, and appends a
// path of 0, 1 or 2 points whole (done) or else its first point.
func begin(dst, path []image.Point, los LineOfSight) (out []image.Point, done bool) {
	checkLOS(los)
	if len(path) <= 2 {
		return append(dst, path...), true
	}
	return append(dst, path[0]), false
}

// AppendTurns appends to dst the turning points of path and returns the
// extended slice. It is a single greedy pass: it keeps path[0]; then, from
// the last kept point path[i], it advances through path[i+2], path[i+3], ...
// while each is visible from path[i], keeps the last visible one, and
// repeats from there until path[len(path)-1], which is always kept. The
// kept points are a subsequence of path with the same first and last points.
//
// Where los(path[i], path[i+1]) is false, path[i+1] is kept anyway, so the
// output still follows the input; every other leg a → b of the output
// satisfies los(a, b). When los holds between the neighbours of path (as it
// does for a legal cell path and a grid's own line of sight), every leg of
// the output does, and since each leg replaces a stretch of path by a
// straight segment, [Length] of the output is at most Length(path).
//
// Visibility along a path is not monotone, so the greedy pass may keep a
// point that a later one could see past; [AppendTaut] tries harder.
//
// A path of 0, 1 or 2 points is appended unchanged without calling los.
// Otherwise los is called at most len(path)−2 times. dst may be path[:0]
// to smooth in place. AppendTurns does not allocate when dst has room.
func AppendTurns(dst []image.Point, path []image.Point, los LineOfSight) []image.Point {
	return greedy(dst, path, los, func(_ []image.Point, i int) int { return i + 1 })
}

// AppendCornerTurns is [AppendTurns] with only the corners of path as
// candidates: path[0], the points where the step direction changes, and
// path[len(path)-1]. From the last kept point it looks ahead over the
// corners in doubling strides (the 1st, 2nd, 4th, 8th … corner ahead) while
// it sees them, then halves the stride between the last corner it saw and
// the first it did not, keeps a seen corner whose successor is unseen, and
// repeats from there. On a cell path of long straight and diagonal runs (an
// HPA* or jump point path) a leg over k corners costs O(log k) line-of-sight
// calls instead of k, so the pass costs about O(legs × log(corners) × leg
// length) rather than O(corners × leg length). The result is a subsequence
// of the corners; every leg has line of sight under the same conditions as
// in AppendTurns, and it is never longer than path. Because visibility along
// a path is not monotone, a stride may land past a corner that is hidden and
// so keep fewer points than a corner-by-corner pass, or stop short of one it
// would have reached; on the paths of the tests its length stays within 2 %
// of AppendTurns's.
//
// A path of 0, 1 or 2 points is appended unchanged without calling los.
// dst may be path[:0] to smooth in place. It does not allocate when dst has
// room.
func AppendCornerTurns(dst []image.Point, path []image.Point, los LineOfSight) []image.Point {
	dst, done := begin(dst, path, los)
	if done {
		return dst
	}
	last := len(path) - 1
	var cs corners
	cs.path = path
	for i := 0; i < last; {
		// Corners are counted from path[i]: corner m is the m-th after
		// it. seen (corner ms) is visible from path[i] (the first corner
		// is kept even unseen: the path runs straight to it), at stride
		// corners ahead; probe looks 2·stride corners ahead until a probe
		// fails or reaches the end.
		cs.from(i)
		seen, ms := cs.at(1)
		stride := 1
		mu, unseen := 0, -1 // the nearest corner past seen known unseen
		for seen < last {
			probe, mp := cs.at(ms + stride)
			if los(path[i], path[probe]) {
				ms, seen, stride = mp, probe, stride*2
				continue
			}
			mu, unseen = mp, probe
			break
		}
		// Halve the gap between seen and unseen until they are neighbours.
		for unseen >= 0 && mu-ms > 1 {
			mid, mm := cs.at(ms + (mu-ms)/2)
			if los(path[i], path[mid]) {
				ms, seen = mm, mid
			} else {
				mu, unseen = mm, mid
			}
		}
		dst = append(dst, path[seen])
		cs.shift(ms)
		i = seen
	}
	return dst
}

// corners finds the corners of a path after a point, the first ones kept
// in an array so that AppendCornerTurns's strides and halvings do not walk
// the same cells again, the later ones walked afresh.
type corners struct {
	path []image.Point
	base int // the index the corners are counted from
	// idx[m−1] is the index of corner m, for m ≤ n; end is true when
	// corner n is the path's last point.
	idx [256]int32
	n   int
	end bool
}

// from counts the corners from path[i] on, keeping those it knew when i
// is its base already (after shift).
func (c *corners) from(i int) {
	if c.base != i || c.n == 0 && !c.end {
		c.base, c.n, c.end = i, 0, false
	}
}

// shift makes corner m the new base, keeping the corners after it.
func (c *corners) shift(m int) {
	if m <= c.n {
		c.base = int(c.idx[m-1])
		c.n = copy(c.idx[:], c.idx[m:c.n])
		if c.n == 0 {
			c.end = false
		}
		return
	}
	c.base, c.n, c.end = -1, 0, false
}

// at returns the index of corner m ≥ 1 and m, or, when there are fewer
// than m corners, the path's last index and their number.
func (c *corners) at(m int) (int, int) {
	for c.n < m && c.n < len(c.idx) && !c.end {
		j := c.base
		if c.n > 0 {
			j = int(c.idx[c.n-1])
		}
		k := nextCorner(c.path, j)
		c.idx[c.n] = int32(k)
		c.n++
		c.end = k == len(c.path)-1
	}
	if m <= c.n {
		return int(c.idx[m-1]), m
	}
	if c.end {
		return int(c.idx[c.n-1]), c.n
	}
	j, k := int(c.idx[c.n-1]), c.n // past the array: walk on
	for ; k < m && j < len(c.path)-1; k++ {
		j = nextCorner(c.path, j)
	}
	return j, k
}

// greedy is the pass of AppendTurns over the candidates next gives: it
// keeps path[0]; then from each kept point path[i] it walks the candidates
// next(i), next(next(i)), … while los sees them from path[i], keeps the
// last one seen, and repeats from there. The first candidate is kept even
// when los says no: the path runs straight to it. Writing in place is
// safe: the k-th kept point is path[j] with k ≤ j, and later reads are of
// path indices beyond j.
func greedy(dst, path []image.Point, los LineOfSight, next func(path []image.Point, i int) int) []image.Point {
	dst, done := begin(dst, path, los)
	if done {
		return dst
	}
	n := len(path)
	for i := 0; i < n-1; {
		j := next(path, i)
		for j < n-1 {
			k := next(path, j)
			if !los(path[i], path[k]) {
				break
			}
			j = k
		}
		dst = append(dst, path[j])
		i = j
	}
	return dst
}

// nextCorner returns the index of the first point after path[i] where the
// step direction changes, or the last index.
func nextCorner(path []image.Point, i int) int {
	d := path[i+1].Sub(path[i])
	for k := i + 1; k < len(path)-1; k++ {
		if path[k+1].Sub(path[k]) != d {
			return k
		}
	}
	return len(path) - 1
}

// AppendTaut is [AppendTurns] followed by passes that shorten the result
// further: each pass walks the kept points and drops every interior one
// whose surviving predecessor sees its successor, and passes repeat until
// one drops nothing. Each dropped point replaces two legs by one straight
// leg, so the result is never longer than that of AppendTurns, and it keeps
// the same first and last points and the guarantees stated there.
//
// The passes call los O(m²) times in the worst case, for m the number of
// points AppendTurns keeps (in practice a few times m). dst may be path[:0]
// to smooth in place. AppendTaut does not allocate when dst has room.
func AppendTaut(dst []image.Point, path []image.Point, los LineOfSight) []image.Point {
	checkLOS(los)
	start := len(dst)
	dst = AppendTurns(dst, path, los)
	pts := dst[start:]
	for len(pts) > 2 {
		k := 1 // pts[:k] are kept; pts[k-1] is the last of them
		for r := 1; r < len(pts)-1; r++ {
			if los(pts[k-1], pts[r+1]) {
				continue // drop pts[r]
			}
			pts[k] = pts[r]
			k++
		}
		pts[k] = pts[len(pts)-1]
		k++
		if k == len(pts) {
			break
		}
		pts = pts[:k]
	}
	return dst[:start+len(pts)]
}

// Length returns the Euclidean length of the polyline through pts, which is
// also the length between the centres of those cells: 0 for fewer than two
// points. It runs in O(len(pts)) and does not allocate.
func Length(pts []image.Point) float64 {
	var sum float64
	for i := 1; i < len(pts); i++ {
		// In floats: the difference of extreme coordinates overflows an int.
		a, b := pts[i-1], pts[i]
		sum += math.Hypot(float64(b.X)-float64(a.X), float64(b.Y)-float64(a.Y))
	}
	return sum
}
