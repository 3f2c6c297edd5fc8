package mapgen

import (
	"image"
	"slices"
)

// Dungeon leaves: a binary space partition stops cutting below maxLeaf cells
// a side and never makes a leaf thinner than minLeaf.
const (
	minLeaf = 10
	maxLeaf = 36
)

// dungeons places rectangles of rock at least 16 cells apart and digs rooms
// and corridors in each.
func (m *world) dungeons() {
	hi := min(480, min(m.w, m.h)/2)
	if hi < 32 {
		return
	}
	lo := min(120, hi)
	n := m.perArea(22)
	if n == 0 {
		n = 1
	}
	for range n {
		for range 20 {
			dw, dh := m.r.between(lo, hi), m.r.between(lo, hi)
			x0, y0 := m.r.intn(m.w-dw+1), m.r.intn(m.h-dh+1)
			d := image.Rect(x0, y0, x0+dw, y0+dh)
			if overlapsAny(d.Inset(-16), m.dungeon) {
				continue
			}
			m.dungeon = append(m.dungeon, d)
			m.dig(d)
			break
		}
	}
}

func overlapsAny(r image.Rectangle, rs []image.Rectangle) bool {
	return slices.ContainsFunc(rs, r.Overlaps)
}

// dig fills d with rock, then digs rooms joined by corridors inside its
// one-cell outer ring, and doors through the ring.
func (m *world) dig(d image.Rectangle) {
	m.rect(d, false)
	m.rooms = m.rooms[:0]
	m.split(d.Inset(1))
	m.doors(d)
}

// split cuts b in two, recursively, down to leaves of at most maxLeaf cells a
// side, digs a room in each leaf and joins the two halves of each cut by a
// corridor. The rooms it digs are m.rooms[lo:hi].
func (m *world) split(b image.Rectangle) (lo, hi int) {
	dx, dy := b.Dx(), b.Dy()
	vertical := dx > dy || dx == dy && m.r.intn(2) == 0 // cut across x
	size := dy
	if vertical {
		size = dx
	}
	if size > maxLeaf || size >= 3*minLeaf && m.r.chance(300) {
		a, c := max(size*35/100, minLeaf), min(size*65/100, size-minLeaf)
		if a <= c {
			cut := m.r.between(a, c)
			b1, b2 := b, b
			if vertical {
				b1.Max.X, b2.Min.X = b.Min.X+cut, b.Min.X+cut
			} else {
				b1.Max.Y, b2.Min.Y = b.Min.Y+cut, b.Min.Y+cut
			}
			lo, mid := m.split(b1)
			_, hi = m.split(b2)
			m.join(lo, mid, hi)
			return lo, hi
		}
	}
	m.room(b)
	return len(m.rooms) - 1, len(m.rooms)
}

// room digs a room in leaf b, leaving at least one cell of rock round it, and
// gives some large rooms a grid of pillars.
func (m *world) room(b image.Rectangle) {
	dx, dy := max(b.Dx()-2, 1), max(b.Dy()-2, 1)
	rw, rh := m.r.between(max(3, dx/2), dx), m.r.between(max(3, dy/2), dy)
	rw, rh = min(rw, dx), min(rh, dy)
	x0 := b.Min.X + 1 + m.r.intn(dx-rw+1)
	y0 := b.Min.Y + 1 + m.r.intn(dy-rh+1)
	r := image.Rect(x0, y0, x0+rw, y0+rh)
	m.rect(r, true)
	if rw >= 9 && rh >= 9 && m.r.chance(200) {
		for y := r.Min.Y + 2; y < r.Max.Y-2; y += 3 {
			for x := r.Min.X + 2; x < r.Max.X-2; x += 3 {
				m.free[y*m.w+x] = false
			}
		}
	}
	m.rooms = append(m.rooms, r)
}

// join digs a corridor between a room of m.rooms[lo:mid] and one of
// m.rooms[mid:hi], close to each other, and now and then a second one
// between rooms drawn at random, which makes loops.
func (m *world) join(lo, mid, hi int) {
	best, bi, bj := -1, 0, 0
	for range 6 {
		i, j := m.r.between(lo, mid-1), m.r.between(mid, hi-1)
		if d := manhattan(centre(m.rooms[i]), centre(m.rooms[j])); best < 0 || d < best {
			best, bi, bj = d, i, j
		}
	}
	m.corridor(m.point(m.rooms[bi]), m.point(m.rooms[bj]), m.r.intn(2) == 0)
	if m.r.chance(150) {
		i, j := m.r.between(lo, mid-1), m.r.between(mid, hi-1)
		m.corridor(m.point(m.rooms[i]), m.point(m.rooms[j]), m.r.intn(2) == 0)
	}
}

// corridor digs an L-shaped corridor, one or two cells wide, from p to q:
// along x first when xFirst, else along y first.
func (m *world) corridor(p, q image.Point, xFirst bool) {
	wd := 1
	if m.r.chance(300) {
		wd = 2
	}
	c := image.Pt(p.X, q.Y)
	if xFirst {
		c = image.Pt(q.X, p.Y)
	}
	m.leg(p, c, wd)
	m.leg(c, q, wd)
}

// leg frees the straight run of cells from a to b, which share a row or a
// column, both included, widened to wd cells towards larger x and y.
func (m *world) leg(a, b image.Point, wd int) {
	m.rect(image.Rect(min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X)+wd, max(a.Y, b.Y)+wd), true)
}

// doors digs one to three doors through each side of dungeon d that is not
// on the map's edge: a corridor from the nearest room to the ring, through it,
// and a few cells out, clearing whatever lies there.
func (m *world) doors(d image.Rectangle) {
	sides := [4]struct {
		n     image.Point // outward normal
		onMap bool
	}{
		{image.Pt(0, -1), d.Min.Y > 0},
		{image.Pt(0, 1), d.Max.Y < m.h},
		{image.Pt(-1, 0), d.Min.X > 0},
		{image.Pt(1, 0), d.Max.X < m.w},
	}
	for _, s := range sides {
		if !s.onMap {
			continue
		}
		for range m.r.between(1, 3) {
			var door image.Point // the ring cell
			switch {
			case s.n.Y < 0:
				door = image.Pt(m.r.between(d.Min.X+2, d.Max.X-3), d.Min.Y)
			case s.n.Y > 0:
				door = image.Pt(m.r.between(d.Min.X+2, d.Max.X-3), d.Max.Y-1)
			case s.n.X < 0:
				door = image.Pt(d.Min.X, m.r.between(d.Min.Y+2, d.Max.Y-3))
			default:
				door = image.Pt(d.Max.X-1, m.r.between(d.Min.Y+2, d.Max.Y-3))
			}
			best, room := -1, image.Rectangle{}
			for _, r := range m.rooms {
				if dist := manhattan(centre(r), door); best < 0 || dist < best {
					best, room = dist, r
				}
			}
			// The last leg of the corridor runs along the normal, into the door.
			m.corridor(m.point(room), door.Sub(s.n), s.n.X == 0)
			wd := 1
			if m.r.chance(400) {
				wd = 2
			}
			m.leg(door, door.Add(s.n.Mul(6)), wd)
		}
	}
}

// point returns a random cell of r.
func (m *world) point(r image.Rectangle) image.Point {
	return image.Pt(m.r.between(r.Min.X, r.Max.X-1), m.r.between(r.Min.Y, r.Max.Y-1))
}

func centre(r image.Rectangle) image.Point { return r.Min.Add(r.Max).Div(2) }

func manhattan(a, b image.Point) int { return abs(a.X-b.X) + abs(a.Y-b.Y) }

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// vaults digs a few small rooms sealed in dungeon rock: free cells no path
// reaches.
func (m *world) vaults() {
	if len(m.dungeon) == 0 {
		return
	}
	for range max(1, m.perArea(40)) {
		for range 30 {
			d := m.dungeon[m.r.intn(len(m.dungeon))]
			iw, ih := m.r.between(2, 6), m.r.between(2, 6)
			if d.Dx() < iw+2 || d.Dy() < ih+2 {
				break
			}
			x0 := m.r.between(d.Min.X+1, d.Max.X-iw-1)
			y0 := m.r.between(d.Min.Y+1, d.Max.Y-ih-1)
			in := image.Rect(x0, y0, x0+iw, y0+ih)
			if m.blocked(in.Inset(-1)) {
				m.rect(in, true)
				break
			}
		}
	}
}

// blocked reports whether every cell of r, which must lie in the map, is
// blocked.
func (m *world) blocked(r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for _, f := range m.free[y*m.w+r.Min.X : y*m.w+r.Max.X] {
			if f {
				return false
			}
		}
	}
	return true
}
