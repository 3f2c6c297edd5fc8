// Package bucket is the uniform grid of buckets that package navmesh and
// its triangulator use to find what lies near a point or a segment: the
// segments of polygon input, the vertices of rings, the polygons of a mesh.
// Each bucket lists items, small integers; a grid is filled once and then
// only read, so it is safe for concurrent use.
package bucket

import (
	"math"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// Grid is a uniform grid of buckets over a box, each listing items.
type Grid struct {
	Min    mgl64.Vec2
	Scale  mgl64.Vec2 // buckets per unit of length along x and y
	Step   float64    // the lesser side of a bucket
	NX, NY int
	start  []int32 // bucket i lists items[start[i]:start[i+1]]
	items  []int32
}

// New returns an empty grid of about n buckets over b, their shape as near
// square as b allows.
func New(b geom.Box, n int) Grid {
	n = max(n, 1)
	w, h := b.Max[0]-b.Min[0], b.Max[1]-b.Min[1]
	nx, ny := 1, 1
	switch {
	case w > 0 && h > 0:
		nx = int(math.Round(math.Sqrt(float64(n) * w / h)))
		nx = min(max(nx, 1), n)
		ny = min(max(int(math.Ceil(float64(n)/float64(nx))), 1), n)
	case w > 0:
		nx = n
	case h > 0:
		ny = n
	}
	g := Grid{Min: b.Min, NX: nx, NY: ny, Step: math.Inf(1)}
	if w > 0 {
		g.Scale[0] = float64(nx) / w
		g.Step = w / float64(nx)
	}
	if h > 0 {
		g.Scale[1] = float64(ny) / h
		g.Step = math.Min(g.Step, h/float64(ny))
	}
	return g
}

// Col and Row return the bucket column and row of x and y, clamped to the
// grid. Both are monotone, so a bucket range computed from a bounding box
// holds the bucket of every point in it.
func (g *Grid) Col(x float64) int {
	return min(max(int((x-g.Min[0])*g.Scale[0]), 0), g.NX-1)
}

// Row: see [Grid.Col].
func (g *Grid) Row(y float64) int {
	return min(max(int((y-g.Min[1])*g.Scale[1]), 0), g.NY-1)
}

// Index returns the number of the bucket in column x and row y.
func (g *Grid) Index(x, y int) int { return y*g.NX + x }

// Cell returns the items of the bucket in column x and row y.
func (g *Grid) Cell(x, y int) []int32 {
	return g.Bucket(g.Index(x, y))
}

// Bucket returns the items of bucket i.
func (g *Grid) Bucket(i int) []int32 {
	return g.items[g.start[i]:g.start[i+1]]
}

// Entries returns the number of items listed, over all buckets.
func (g *Grid) Entries() int { return len(g.items) }

// Margin returns a distance far above the rounding error of positions in
// a box of magnitude mag divided into buckets of side step: rasterising
// with it never misses a bucket that a segment or polygon touches.
func Margin(step, mag float64) float64 {
	if math.IsInf(step, 1) {
		return 1e-12 * mag
	}
	return 1e-9*step + 1e-12*mag
}

// Band returns the y range of bucket row y, grown by margin.
func (g *Grid) Band(y int, margin float64) (y0, y1 float64) {
	if g.Scale[1] == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	return g.Min[1] + float64(y)/g.Scale[1] - margin, g.Min[1] + float64(y+1)/g.Scale[1] + margin
}

// Segment calls visit with every bucket that segment a–b may pass through:
// row by row, the columns of the piece of the segment in the row's band,
// each grown by margin. A point of the segment is always in one of them.
func (g *Grid) Segment(a, b mgl64.Vec2, margin float64, visit func(int)) {
	lo := mgl64.Vec2{math.Min(a[0], b[0]), math.Min(a[1], b[1])}
	hi := mgl64.Vec2{math.Max(a[0], b[0]), math.Max(a[1], b[1])}
	for y := g.Row(lo[1] - margin); y <= g.Row(hi[1]+margin); y++ {
		y0, y1 := g.Band(y, margin)
		y0, y1 = math.Max(y0, lo[1]), math.Min(y1, hi[1])
		x0, x1 := lo[0], hi[0]
		if a[1] != b[1] {
			s := (b[0] - a[0]) / (b[1] - a[1])
			u, v := a[0]+(y0-a[1])*s, a[0]+(y1-a[1])*s
			x0, x1 = math.Max(math.Min(u, v), lo[0]), math.Min(math.Max(u, v), hi[0])
		}
		for x := g.Col(x0 - margin); x <= g.Col(x1+margin); x++ {
			visit(g.Index(x, y))
		}
	}
}

// Point returns the bucket of p.
func (g *Grid) Point(p mgl64.Vec2) int { return g.Index(g.Col(p[0]), g.Row(p[1])) }

// Fill lists the items: visit calls emit(bucket, item) for each, and is
// called twice, to count and to place.
func (g *Grid) Fill(visit func(emit func(int, int32))) {
	g.FillWithin(math.MaxInt, func(emit func(int, int32) bool) {
		visit(func(b int, item int32) { emit(b, item) })
	})
}

// FillWithin is [Grid.Fill] for at most budget items, with an emit that
// reports whether visit should go on: when visit emits more than budget
// items while counting, FillWithin stops it there, leaves the grid empty
// and returns false; it returns true when it listed them all. It saves the
// separate counting pass of a caller that tries coarser grids in turn.
func (g *Grid) FillWithin(budget int, visit func(emit func(int, int32) bool)) bool {
	g.start = make([]int32, g.NX*g.NY+1)
	total := 0
	visit(func(b int, _ int32) bool {
		total++
		if total > budget {
			return false
		}
		g.start[b+1]++
		return true
	})
	if total > budget {
		g.start = nil
		return false
	}
	for i := 1; i < len(g.start); i++ {
		g.start[i] += g.start[i-1]
	}
	g.items = make([]int32, g.start[len(g.start)-1])
	at := make([]int32, g.NX*g.NY)
	copy(at, g.start)
	visit(func(b int, item int32) bool {
		g.items[at[b]] = item
		at[b]++
		return true
	})
	return true
}

// Spliced returns a copy of g in which the run of items lo to hi−1 is
// replaced by others and the items from hi on are moved by d: buckets b0
// to b1−1 list, in this order, their items of g below lo, the items visit
// emits for them (in the order emitted), and their items of g from hi on,
// plus d; the buckets before b0 list their items of g, and those from b1
// on theirs plus d. The items of g must lie in order along the buckets:
// those below lo in buckets before b1, those from lo to hi−1 in buckets b0
// to b1−1, and those from hi on in buckets from b0 on (as a tiled mesh's
// polygons, numbered row by row, lie in the buckets of their rows). Visit
// must emit the same items, in the same order, each time it is called: it
// is called twice. Its cost is linear in g's items, as a copy's is, and
// in the buckets b0 to b1−1. It writes the copy into spare's arrays where
// they have room, whatever they hold: spare must not be used after.
func (g *Grid) Spliced(spare Grid, b0, b1 int, lo, hi, d int32, visit func(emit func(b int, item int32))) Grid {
	n := Grid{Min: g.Min, Scale: g.Scale, Step: g.Step, NX: g.NX, NY: g.NY}
	n.start = reuse(spare.start, len(g.start))
	added := make([]int32, b1-b0+1) // per bucket of the run: the items visit emits
	visit(func(b int, _ int32) { added[b-b0+1]++ })
	copy(n.start[:b0+1], g.start[:b0+1])
	kept := func(b int) int32 { // the items of g that bucket b keeps
		k := int32(0)
		for _, v := range g.Bucket(b) {
			if v < lo || v >= hi {
				k++
			}
		}
		return k
	}
	for b := b0; b < b1; b++ {
		n.start[b+1] = n.start[b] + kept(b) + added[b-b0+1]
	}
	shift := n.start[b1] - g.start[b1]
	for b := b1 + 1; b < len(g.start); b++ {
		n.start[b] = g.start[b] + shift
	}
	n.items = reuse(spare.items, int(n.start[len(n.start)-1]))
	copy(n.items[:n.start[b0]], g.items[:g.start[b0]])     // all below lo
	Moved(n.items[n.start[b1]:], g.items[g.start[b1]:], d) // all from hi on
	// In the run: each bucket's items below lo, then room for those
	// emitted, then its items from hi on.
	at := make([]int32, b1-b0) // per bucket of the run: where the next emitted item goes
	for b := b0; b < b1; b++ {
		k := n.start[b]
		for _, v := range g.Bucket(b) {
			if v < lo {
				n.items[k] = v
				k++
			}
		}
		at[b-b0] = k
		k += added[b-b0+1]
		for _, v := range g.Bucket(b) {
			if v >= hi {
				n.items[k] = v + d
				k++
			}
		}
	}
	visit(func(b int, item int32) {
		n.items[at[b-b0]] = item
		at[b-b0]++
	})
	return n
}

// reuse returns s[:n] when s has room for n items, or a new slice of n
// with a little room to spare, for a copy that grows.
func reuse(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n, n+n/64+64)
}
