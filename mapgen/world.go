package mapgen

import (
	"fmt"
	"image"
	"math/bits"
	"math/rand/v2"

	"github.com/cairn-nav/cairn/grid"
)

// DefaultSize is the width and height of a [World] whose options leave them 0.
const DefaultSize = 4096

// MinSize is the smallest width or height [World] accepts.
const MinSize = 16

// WorldOptions selects a generated world. The zero value is the 4096×4096
// world of seed 0, 8-connected.
type WorldOptions struct {
	// Seed selects the world: each seed gives a different one.
	Seed uint64
	// Width and Height are the size in cells; 0 means [DefaultSize]. Each
	// must be at least [MinSize], and their product at most [grid.MaxCells].
	Width, Height int
	// Connectivity is passed to [grid.New].
	Connectivity grid.Connectivity
}

// World generates a game-like world: open ground scattered with rocks, forest
// clumps, lakes and mountain ridges with passes; rivers crossing the whole
// map, with bridges; long walls and walled enclosures with gaps and gates;
// and dungeons, rectangles of rock holding rooms (some pillared) joined by
// corridors, with doors to the outside. Feature sizes are in cells and do not
// depend on the map size; their numbers grow with the area (rivers, ridges
// and walls with the side), and maps from 64 cells a side on hold at least
// one river, ridge, wall, enclosure and dungeon.
//
// Every free cell lies in one connected region, except those of a few small
// sealed vaults in dungeon rock (at most 6×6 cells each, so queries into them
// are unreachable): pockets of under 100 cells that the features happen to
// close off are filled, and larger ones get a straight passage carved to the
// main region. Cells on the map's edge may be free.
//
// World is deterministic: the same options give the same grid on every
// platform, since it draws from one PCG stream ([rand.PCG]) seeded with
// opt.Seed and uses integer arithmetic only. It runs on one goroutine in
// O(width·height), most of it in [grid.New]; BenchmarkWorld measures it at
// 1024² and 4096².
func World(opt WorldOptions) (*grid.Grid, error) {
	w, h := opt.Width, opt.Height
	if w == 0 {
		w = DefaultSize
	}
	if h == 0 {
		h = DefaultSize
	}
	if w < MinSize || h < MinSize {
		return nil, fmt.Errorf("mapgen: world size %d×%d, want at least %d×%d", w, h, MinSize, MinSize)
	}
	if w > grid.MaxCells/h {
		return nil, fmt.Errorf("mapgen: world size %d×%d exceeds %d cells", w, h, grid.MaxCells)
	}
	m := &world{w: w, h: h, free: make([]bool, w*h), r: newRNG(opt.Seed)}
	fill(m.free, true)
	m.lakes()
	m.ridges()
	m.rocks()
	m.forests()
	m.rivers()
	m.walls()
	m.dungeons()
	m.connect()
	m.vaults()
	return grid.New(w, h, m.free, grid.Options{Connectivity: opt.Connectivity})
}

// world is a map being generated: a flat row-major slice of free flags.
type world struct {
	w, h    int
	free    []bool
	r       rng
	dungeon []image.Rectangle // the dungeons' rectangles
	rooms   []image.Rectangle // scratch: the rooms of the dungeon being built
}

// rng draws integers from a PCG stream. Its methods use only the stream's
// 64-bit outputs and integer arithmetic, so they give the same numbers on
// every platform.
type rng struct{ src *rand.PCG }

func newRNG(seed uint64) rng { return rng{rand.NewPCG(seed, 0x6361_6972_6e6d_6170)} }

// intn returns a number in [0, n); n must be positive.
func (r rng) intn(n int) int {
	hi, _ := bits.Mul64(r.src.Uint64(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi]; hi < lo gives lo.
func (r rng) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.intn(hi-lo+1)
}

// chance returns true with probability permille/1000.
func (r rng) chance(permille int) bool { return r.intn(1000) < permille }

// perArea returns how many of a feature, base of them on a 4096×4096 map,
// this map holds: base scaled by its area, rounded up or down at random.
func (m *world) perArea(base int) int {
	const ref = DefaultSize * DefaultSize
	n := base * m.w * m.h
	q := n / ref
	if m.r.intn(ref) < n%ref {
		q++
	}
	return q
}

// perSide is perArea for features whose length grows with the map's side:
// base of them on a 4096×4096 map, scaled by the mean side, at least one on
// maps from 64 cells a side.
func (m *world) perSide(base int) int {
	const ref = 2 * DefaultSize
	n := base * (m.w + m.h)
	q := n / ref
	if m.r.intn(ref) < n%ref {
		q++
	}
	if q == 0 && min(m.w, m.h) >= 64 {
		q = 1
	}
	return q
}

// span sets cells [x0, x1) of row y to v, clipped to the map.
func (m *world) span(y, x0, x1 int, v bool) {
	if y < 0 || y >= m.h {
		return
	}
	x0, x1 = max(x0, 0), min(x1, m.w)
	if x0 < x1 {
		fill(m.free[y*m.w+x0:y*m.w+x1], v)
	}
}

// rect sets the cells of r to v, clipped to the map.
func (m *world) rect(r image.Rectangle, v bool) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		m.span(y, r.Min.X, r.Max.X, v)
	}
}

// disk sets the cells within distance rad of (cx, cy) to v, clipped to the
// map. Radius 0 is one cell, radius 1 a plus sign.
func (m *world) disk(cx, cy, rad int, v bool) {
	dx := rad
	for dy := 0; dy <= rad; dy++ {
		for dx*dx+dy*dy > rad*rad {
			dx--
		}
		m.span(cy+dy, cx-dx, cx+dx+1, v)
		if dy > 0 {
			m.span(cy-dy, cx-dx, cx+dx+1, v)
		}
	}
}

// lakes draws lakes: random walks of overlapping disks.
func (m *world) lakes() {
	for range m.perArea(60) {
		x, y := m.r.intn(m.w), m.r.intn(m.h)
		rad := m.r.between(8, 40)
		for range m.r.between(4, 20) {
			m.disk(x, y, rad, false)
			x += m.r.between(-rad, rad)
			y += m.r.between(-rad, rad)
			rad = min(max(rad+m.r.between(-4, 4), 6), 48)
		}
	}
}

// compass holds 16 directions as integer vectors of length about 16.
var compass = [16]image.Point{
	{16, 0}, {15, 6}, {11, 11}, {6, 15}, {0, 16}, {-6, 15}, {-11, 11}, {-15, 6},
	{-16, 0}, {-15, -6}, {-11, -11}, {-6, -15}, {0, -16}, {6, -15}, {11, -11}, {15, -6},
}

// ridges draws mountain ridges: long, slowly turning chains of disks, broken
// by a pass every few hundred cells.
func (m *world) ridges() {
	for range m.perSide(14) {
		x, y := m.r.intn(m.w), m.r.intn(m.h)
		dir := m.r.intn(len(compass))
		rad := m.r.between(4, 12)
		pass := m.r.between(10, 40) // disks to the next pass
		for range m.r.between(40, 160) {
			if pass--; pass < 0 {
				pass = m.r.between(15, 50)
				x += compass[dir].X * rad * 3 / 16
				y += compass[dir].Y * rad * 3 / 16
			} else {
				m.disk(x, y, rad, false)
			}
			x += compass[dir].X * rad / 16
			y += compass[dir].Y * rad / 16
			if m.r.intn(4) == 0 {
				dir = (dir + m.r.between(-1, 1) + len(compass)) % len(compass)
			}
			if m.r.intn(8) == 0 {
				rad = min(max(rad+m.r.between(-1, 1), 3), 14)
			}
		}
	}
}

// rocks draws rocks: small clusters of disks.
func (m *world) rocks() {
	for range m.perArea(5000) {
		x, y := m.r.intn(m.w), m.r.intn(m.h)
		for range m.r.between(1, 4) {
			m.disk(x+m.r.between(-4, 4), y+m.r.between(-4, 4), m.r.between(1, 5), false)
		}
	}
}

// forests draws forest clumps: trees of one to thirteen cells scattered in a
// disk, dense enough to make winding paths and a few closed-off pockets.
func (m *world) forests() {
	for range m.perArea(1400) {
		cx, cy := m.r.intn(m.w), m.r.intn(m.h)
		rad := m.r.between(10, 56)
		density := m.r.between(150, 450) // per mille of the clump's area
		trees := rad * rad * 314 / 100 * density / 1000 / 4
		for range trees {
			dx, dy := m.r.between(-rad, rad), m.r.between(-rad, rad)
			if dx*dx+dy*dy > rad*rad {
				continue
			}
			size := 0
			switch v := m.r.intn(100); {
			case v >= 85:
				size = 2
			case v >= 40:
				size = 1
			}
			m.disk(cx+dx, cy+dy, size, false)
		}
	}
}

// rivers draws rivers from one edge of the map to the opposite one, wide and
// winding, with bridges a few hundred cells apart.
func (m *world) rivers() {
	for range m.perSide(3) {
		vertical := m.r.intn(2) == 0
		length, across := m.w, m.h // along the river, and across it
		if vertical {
			length, across = m.h, m.w
		}
		const one = 256 // fixed point: the offset and drift in 1/256 cells
		pos := m.r.between(across/8, across*7/8) * one
		vel := 0
		thick := m.r.between(5, 12)
		nextBridge := m.r.between(50, 700)
		bridge := 0 // cells of the current bridge left to draw
		for t := range length {
			if t == nextBridge {
				bridge = m.r.between(4, 8)
				nextBridge = t + bridge + m.r.between(250, 800)
			}
			vel = min(max(vel+m.r.between(-24, 24), -200), 200)
			switch off := pos / one; {
			case off < across/10:
				vel += 8
			case off > across*9/10-thick:
				vel -= 8
			}
			pos = min(max(pos+vel, 0), (across-1)*one)
			if m.r.intn(40) == 0 {
				thick = min(max(thick+m.r.between(-1, 1), 4), 16)
			}
			off := pos / one
			if bridge > 0 {
				m.across(vertical, t, off-3, off+thick+3, true)
				bridge--
			} else {
				m.across(vertical, t, off, off+thick, false)
			}
		}
	}
}

// across sets the cells [o0, o1) across a line at position t along it to v:
// row t when the line runs horizontally, column t when vertical.
func (m *world) across(vertical bool, t, o0, o1 int, v bool) {
	if vertical {
		m.span(t, o0, o1, v)
		return
	}
	if t < 0 || t >= m.w {
		return
	}
	for y := max(o0, 0); y < min(o1, m.h); y++ {
		m.free[y*m.w+t] = v
	}
}

// walls draws long walls with gaps, and walled enclosures with gates.
func (m *world) walls() {
	for range m.perSide(10) {
		vertical := m.r.intn(2) == 0
		length, across := m.w, m.h
		if vertical {
			length, across = m.h, m.w
		}
		n := m.r.between(length*3/10, length*9/10)
		t0 := m.r.intn(length - n + 1)
		m.wall(vertical, t0, t0+n, m.r.intn(across), m.r.between(1, 3), 30, 260)
	}
	for range m.perSide(5) {
		rw := m.r.between(min(40, m.w/2), min(600, m.w/2))
		rh := m.r.between(min(40, m.h/2), min(600, m.h/2))
		x0, y0 := m.r.intn(m.w-rw+1), m.r.intn(m.h-rh+1)
		thick := m.r.between(1, 3)
		gap := max(rw, rh) / 2
		m.wall(false, x0, x0+rw, y0, thick, gap/2, gap)
		m.wall(false, x0, x0+rw, y0+rh-thick, thick, gap/2, gap)
		m.wall(true, y0, y0+rh, x0, thick, gap/2, gap)
		m.wall(true, y0, y0+rh, x0+rw-thick, thick, gap/2, gap)
	}
}

// wall draws a wall of the given thickness along [t0, t1), starting at offset
// off across, with a gap of 2 to 7 cells every gapMin to gapMax cells. It
// jogs sideways now and then. A gap clears its surroundings too, so that
// nothing drawn before blocks it.
func (m *world) wall(vertical bool, t0, t1, off, thick, gapMin, gapMax int) {
	next := t0 + m.r.between(gapMin/2, gapMax)
	gap := 0
	for t := t0; t < t1; t++ {
		if t == next {
			gap = m.r.between(2, 7)
			next = t + gap + m.r.between(gapMin, gapMax)
		}
		if gap > 0 {
			m.across(vertical, t, off-2, off+thick+2, true)
			gap--
			continue
		}
		lo, hi := off, off+thick
		if m.r.intn(120) == 0 {
			off += m.r.between(1, 4) * (2*m.r.intn(2) - 1)
			lo, hi = min(lo, off), max(hi, off+thick)
		}
		m.across(vertical, t, lo, hi, false)
	}
}
