package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

// Picture sizes: a map is drawn with its long side at most maxSide pixels,
// each block of cells as one pixel when it is larger, and each cell as up to
// maxCellSide×maxCellSide pixels when it is smaller.
const (
	maxSide     = 1024
	maxCellSide = 16
)

// The palette of pictures: one index per thing drawn.
const (
	colFree     uint8 = iota // free cell
	colBlocked               // blocked cell, or block of mostly blocked cells
	colExpanded              // cell expanded by a grid search
	colOpen                  // cell left on a grid search's open list
	colBorder                // HPA* cluster border
	colNode1                 // HPA* abstract node of level 1; colNode1+l−1 for level l
	colNode2
	colNode3
	colNode4
	colAbstract // HPA* abstract path
	colPath     // cell path; grid A* in the demo
	colPlain    // plain grid A* in the demo
	colSmooth   // smoothed path; HPA* in the demo
	colNavmesh  // navmesh path in the demo
	colStart    // start cell
	colGoal     // goal cell
	colMeshEdge // outline of a navmesh polygon along a wall
	colPortal   // outline of a navmesh polygon along a portal
)

var pictureColours = color.Palette{
	colFree:     color.RGBA{0xf3, 0xef, 0xe6, 0xff},
	colBlocked:  color.RGBA{0x3b, 0x3b, 0x3b, 0xff},
	colExpanded: color.RGBA{0x9c, 0xc0, 0xec, 0xff},
	colOpen:     color.RGBA{0xf4, 0xd3, 0x5e, 0xff},
	colBorder:   color.RGBA{0xc9, 0xbf, 0xab, 0xff},
	colNode1:    color.RGBA{0x8d, 0x99, 0xae, 0xff},
	colNode2:    color.RGBA{0x2a, 0x9d, 0x8f, 0xff},
	colNode3:    color.RGBA{0xe7, 0x6f, 0x51, 0xff},
	colNode4:    color.RGBA{0x7f, 0x55, 0x39, 0xff},
	colAbstract: color.RGBA{0x9b, 0x5d, 0xe5, 0xff},
	colPath:     color.RGBA{0x1f, 0x6f, 0xd6, 0xff},
	colPlain:    color.RGBA{0xff, 0x9f, 0x1c, 0xff},
	colSmooth:   color.RGBA{0xd6, 0x28, 0x28, 0xff},
	colNavmesh:  color.RGBA{0xd0, 0x1c, 0xc8, 0xff},
	colStart:    color.RGBA{0x2b, 0x93, 0x48, 0xff},
	colGoal:     color.RGBA{0x00, 0xb4, 0xd8, 0xff},
	colMeshEdge: color.RGBA{0x8d, 0x99, 0xae, 0xff},
	colPortal:   color.RGBA{0x7c, 0xc6, 0x8a, 0xff},
}

// canvas is a picture of a grid map, in world coordinates: cell (x, y)
// covers [x, x+1) × [y, y+1). Large maps are scaled down, k×k cells to a
// pixel; small ones up, each cell s×s pixels; one of k and s is 1.
type canvas struct {
	img  *image.Paletted
	k, s int
}

// newCanvas draws g: free cells light, blocked ones dark, and a block of
// k×k cells blocked when more than half its cells are.
func newCanvas(g *grid.Grid) *canvas {
	w, h := g.Width(), g.Height()
	long := max(w, h)
	c := &canvas{k: 1, s: 1}
	if long > maxSide {
		c.k = (long + maxSide - 1) / maxSide
	} else {
		c.s = min(maxCellSide, maxSide/long)
	}
	pw, ph := (w+c.k-1)/c.k*c.s, (h+c.k-1)/c.k*c.s
	c.img = image.NewPaletted(image.Rect(0, 0, pw, ph), pictureColours)
	draw.Draw(c.img, c.img.Rect, image.NewUniform(pictureColours[colFree]), image.Point{}, draw.Src)
	if c.k == 1 {
		for y := range h {
			for x := range w {
				if !g.Passable(image.Pt(x, y)) {
					c.fill(image.Rect(x*c.s, y*c.s, (x+1)*c.s, (y+1)*c.s), colBlocked)
				}
			}
		}
		return c
	}
	// Count the blocked cells of each block, one row of blocks at a time.
	blocked := make([]int, pw)
	for py := range ph {
		clear(blocked)
		y0, y1 := py*c.k, min((py+1)*c.k, h)
		for y := y0; y < y1; y++ {
			for x := range w {
				if !g.Passable(image.Pt(x, y)) {
					blocked[x/c.k]++
				}
			}
		}
		for px, n := range blocked {
			cells := (y1 - y0) * (min((px+1)*c.k, w) - px*c.k)
			if 2*n > cells {
				c.img.Pix[py*c.img.Stride+px] = colBlocked
			}
		}
	}
	return c
}

// fill paints r, clipped to the picture.
func (c *canvas) fill(r image.Rectangle, col uint8) {
	r = r.Intersect(c.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[y*c.img.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			row[x] = col
		}
	}
}

// pixel returns the pixel holding world point p.
func (c *canvas) pixel(p mgl64.Vec2) image.Point {
	f := float64(c.s) / float64(c.k)
	return image.Pt(int(math.Floor(p[0]*f)), int(math.Floor(p[1]*f)))
}

// centre returns the centre of cell p in world coordinates.
func centre(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5} }

// cells paints the given cells: a pixel each when scaled down, the cell's
// square less a one-pixel margin when scaled up to 4 pixels or more.
func (c *canvas) cells(ps []image.Point, col uint8) {
	inset := 0
	if c.s >= 4 {
		inset = 1
	}
	for _, p := range ps {
		if c.k > 1 {
			c.dot(image.Pt(p.X/c.k, p.Y/c.k), 1, col)
			continue
		}
		r := image.Rect(p.X*c.s, p.Y*c.s, (p.X+1)*c.s, (p.Y+1)*c.s)
		c.fill(r.Inset(inset), col)
	}
}

// dot paints the square of side width pixels centred on pixel p.
func (c *canvas) dot(p image.Point, width int, col uint8) {
	lo := p.Sub(image.Pt((width-1)/2, (width-1)/2))
	c.fill(image.Rectangle{Min: lo, Max: lo.Add(image.Pt(width, width))}, col)
}

// line draws the segment from a to b, in world coordinates, with a square
// brush of width pixels.
func (c *canvas) line(a, b mgl64.Vec2, width int, col uint8) {
	f := float64(c.s) / float64(c.k)
	dda(a[0]*f, a[1]*f, b[0]*f, b[1]*f, func(p image.Point) { c.dot(p, width, col) })
}

// dda calls stamp for the pixels of the segment from (x0, y0) to (x1, y1),
// in pixel coordinates: one per pixel along the longer axis.
func dda(x0, y0, x1, y1 float64, stamp func(image.Point)) {
	dx, dy := x1-x0, y1-y0
	n := int(math.Ceil(max(math.Abs(dx), math.Abs(dy))))
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		stamp(image.Pt(int(math.Floor(x0+t*dx)), int(math.Floor(y0+t*dy))))
	}
}

// mesh outlines the polygons of m, one pixel wide and inside each polygon,
// so that neighbours show a double line: grey-blue along walls, green along
// portals. It paints only free pixels (and outlines), so walls stay whole,
// and only when the picture has a pixel or more a cell; smaller, the
// outlines would fill it.
func (c *canvas) mesh(m *navmesh.Mesh) {
	if c.k > 1 {
		return
	}
	f := float64(c.s)
	var poly []mgl64.Vec2
	var nbs []navmesh.Neighbor
	for id := range navmesh.PolyID(m.NumPolys()) {
		poly = m.AppendPolygon(poly[:0], id)
		nbs = m.AppendNeighbors(nbs[:0], id)
		lo, hi := poly[0], poly[0]
		for _, v := range poly {
			lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
			hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
		}
		// A point on the right or bottom of the bounding box goes to the
		// last pixel inside it.
		px := func(v mgl64.Vec2) (float64, float64) {
			x, y := v[0]*f, v[1]*f
			if v[0] == hi[0] && hi[0] > lo[0] {
				x--
			}
			if v[1] == hi[1] && hi[1] > lo[1] {
				y--
			}
			return x, y
		}
		for i, a := range poly {
			b := poly[(i+1)%len(poly)]
			col := colMeshEdge
			for _, nb := range nbs {
				// Portals are seen from outside: the edge a→b is Right→Left.
				if nb.Portal.Right == a && nb.Portal.Left == b {
					col = colPortal
				}
			}
			x0, y0 := px(a)
			x1, y1 := px(b)
			dda(x0, y0, x1, y1, func(p image.Point) {
				if !p.In(c.img.Rect) {
					return
				}
				i := c.img.PixOffset(p.X, p.Y)
				if v := c.img.Pix[i]; v == colFree || v == colMeshEdge || v == colPortal {
					c.img.Pix[i] = col
				}
			})
		}
	}
}

// polyline draws the legs between consecutive points, in world coordinates.
func (c *canvas) polyline(pts []mgl64.Vec2, width int, col uint8) {
	if len(pts) == 1 {
		c.dot(c.pixel(pts[0]), width, col)
	}
	for i := 1; i < len(pts); i++ {
		c.line(pts[i-1], pts[i], width, col)
	}
}

// cellPath draws the legs between the centres of consecutive cells, which
// may be single moves or the straight legs of a smoothed path.
func (c *canvas) cellPath(path []image.Point, width int, col uint8) {
	if len(path) == 1 {
		c.dot(c.pixel(centre(path[0])), width, col)
	}
	for i := 1; i < len(path); i++ {
		c.line(centre(path[i-1]), centre(path[i]), width, col)
	}
}

// marker paints a square of side width pixels on the centre of cell p.
func (c *canvas) marker(p image.Point, width int, col uint8) {
	c.dot(c.pixel(centre(p)), width, col)
}

// lineWidth returns the pixel width of a path's line: about a quarter of a
// cell when scaled up, at least 2; three times that when wide.
func (c *canvas) lineWidth(wide bool) int {
	w := max(2, c.s/4)
	if wide {
		w = 3 * w
	}
	return w
}

// markerWidth returns the side of the start and goal markers.
func (c *canvas) markerWidth() int {
	if c.k > 1 {
		return 7
	}
	return max(7, c.s-2)
}

// gridLines draws the borders of square clusters of side cells over the
// free pixels, so that walls stay whole.
func (c *canvas) gridLines(side int, col uint8) {
	if side <= 0 {
		return
	}
	b := c.img.Rect
	mark := func(x, y int) {
		if i := y*c.img.Stride + x; c.img.Pix[i] == colFree {
			c.img.Pix[i] = col
		}
	}
	for cx := side; ; cx += side {
		x := c.pixel(mgl64.Vec2{float64(cx), 0}).X
		if x >= b.Max.X {
			break
		}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			mark(x, y)
		}
	}
	for cy := side; ; cy += side {
		y := c.pixel(mgl64.Vec2{0, float64(cy)}).Y
		if y >= b.Max.Y {
			break
		}
		for x := b.Min.X; x < b.Max.X; x++ {
			mark(x, y)
		}
	}
}

// scaleNote describes the scale of the picture for the commands' reports.
func (c *canvas) scaleNote() string {
	b := c.img.Rect
	if c.k > 1 {
		return fmt.Sprintf("%d×%d pixels, %d×%d cells a pixel", b.Dx(), b.Dy(), c.k, c.k)
	}
	return fmt.Sprintf("%d×%d pixels, %d×%d a cell", b.Dx(), b.Dy(), c.s, c.s)
}

// writePNG encodes the picture as PNG and writes it to path atomically.
func (c *canvas) writePNG(path string) error {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, c.img); err != nil {
		return err
	}
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// checkOutDir returns an error unless the directory that path would be
// written to exists, so that a long command fails before its work rather
// than after it.
func checkOutDir(flagName, path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flagName, path, dir)
	}
	return nil
}

// drawMeshRoute draws the picture of an any-angle route: the map, the
// outlines of the mesh m (when not nil), the waypoint path and its ends.
func drawMeshRoute(g *grid.Grid, m *navmesh.Mesh, path []mgl64.Vec2, from, to image.Point) *canvas {
	c := newCanvas(g)
	if m != nil {
		c.mesh(m)
	}
	c.polyline(path, c.lineWidth(false), colNavmesh)
	mw := c.markerWidth()
	c.marker(from, mw, colStart)
	c.marker(to, mw, colGoal)
	return c
}

// drawRoute draws a route's picture: the map, what the search looked at
// (t, which may be nil), the path and its ends.
func drawRoute(g *grid.Grid, path []image.Point, from, to image.Point, smoothed bool, t *trace) *canvas {
	c := newCanvas(g)
	thin := c.lineWidth(false)
	if t != nil {
		c.cells(t.expanded, colExpanded)
		c.cells(t.open, colOpen)
		if t.graph != nil {
			c.gridLines(t.graph.ClusterSize(), colBorder)
			base := 1
			if c.k == 1 {
				base = max(1, c.s/3)
			}
			for n := range t.graph.Stats().Nodes {
				l := t.graph.NodeLevel(n)
				c.marker(t.graph.NodeCell(n), base+2*(l-1), colNode1+uint8(min(l, 4)-1))
			}
		}
		// The abstract path under the cell path, wider, with its nodes.
		c.cellPath(t.abstract, 2*thin, colAbstract)
		for _, p := range t.abstract {
			c.marker(p, 3*thin, colAbstract)
		}
		if smoothed {
			c.cellPath(t.cells, thin, colPath)
		}
	}
	if smoothed {
		c.cellPath(path, thin, colSmooth)
	} else {
		c.cellPath(path, thin, colPath)
	}
	mw := c.markerWidth()
	c.marker(from, mw, colStart)
	c.marker(to, mw, colGoal)
	return c
}
