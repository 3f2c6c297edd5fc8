// Package picture draws grid maps, searches, paths, HPA* graphs and navmesh
// polygons to PNG for the commands (pathfind and hpabuild).
//
// A [Canvas] works in world coordinates, the grid's: cell (x, y) covers
// [x, x+1) × [y, y+1), row 0 at the top, and [Centre] gives the point at
// the middle of a cell. A map is drawn with its long side at most 1024
// pixels (1024/n in rows of n panels): a small map is scaled up, each cell s×s pixels with s at most 16;
// a map over 1024 cells a side is scaled down, each block of k×k cells one
// pixel, blocked when more than half its cells are. Pictures are paletted,
// one [Colour] per thing drawn, and written atomically by [Canvas.WritePNG].
//
// A picture may hold several panels, copies of one map side by side
// ([NewPanels]), and bands of text around them: a title above
// ([Canvas.Title]), legends below ([Canvas.Legend]) and a caption above each
// panel ([Canvas.Caption]). Text is drawn in Inconsolata's 8×16 bitmap
// faces without blending, so that a picture keeps its palette; [Canvas.Pin]
// marks a start or goal with a ringed, lettered disc.
package picture

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/navmesh"
)

// Picture sizes: a map is drawn with its long side at most maxSide pixels,
// each block of cells as one pixel when it is larger, and each cell as up to
// maxCellSide×maxCellSide pixels when it is smaller.
const (
	maxSide     = 1024
	maxCellSide = 16
)

// Colour is an index into the palette of pictures, one per thing drawn. It
// implements [color.Color] with its palette entry, so that the pixels of a
// decoded picture can be compared with it; RGBA panics for an index past
// the last constant.
type Colour uint8

// The palette of pictures.
const (
	Free     Colour = iota // free cell
	Blocked                // blocked cell, or block of mostly blocked cells
	Expanded               // cell expanded by a grid search
	Open                   // cell left on a grid search's open list
	Border                 // HPA* cluster border
	Node1                  // HPA* abstract node of level 1; see NodeColour
	Node2                  // HPA* abstract node of level 2
	Node3                  // HPA* abstract node of level 3
	Node4                  // HPA* abstract node of level 4
	Abstract               // HPA* abstract path
	Path                   // cell path; grid A* in the demo
	Plain                  // plain grid A* in the demo
	Smooth                 // smoothed path; HPA* in the demo
	Navmesh                // navmesh path in the demo
	Start                  // start cell
	Goal                   // goal cell
	MeshEdge               // outline of a navmesh polygon along a wall
	Portal                 // outline of a navmesh polygon along a portal
	// LevelBorder is the border of an HPA* cluster of level 2 or more,
	// stronger than Border.
	LevelBorder
	// Edge is an HPA* edge of level 1, from node to node.
	Edge
	Text  // text, and the rings of pins and swatches
	Paper // the background of bands of text, and the halo of pins
	Ghost // the other methods' paths in a panel of the demo
)

var palette = color.Palette{
	Free:        color.RGBA{0xf3, 0xef, 0xe6, 0xff},
	Blocked:     color.RGBA{0x3b, 0x3b, 0x3b, 0xff},
	Expanded:    color.RGBA{0x9c, 0xc0, 0xec, 0xff},
	Open:        color.RGBA{0xf4, 0xd3, 0x5e, 0xff},
	Border:      color.RGBA{0xc9, 0xbf, 0xab, 0xff},
	Node1:       color.RGBA{0x8d, 0x99, 0xae, 0xff},
	Node2:       color.RGBA{0x2a, 0x9d, 0x8f, 0xff},
	Node3:       color.RGBA{0xe7, 0x6f, 0x51, 0xff},
	Node4:       color.RGBA{0x7f, 0x55, 0x39, 0xff},
	Abstract:    color.RGBA{0x9b, 0x5d, 0xe5, 0xff},
	Path:        color.RGBA{0x1f, 0x6f, 0xd6, 0xff},
	Plain:       color.RGBA{0xff, 0x9f, 0x1c, 0xff},
	Smooth:      color.RGBA{0xd6, 0x28, 0x28, 0xff},
	Navmesh:     color.RGBA{0xd0, 0x1c, 0xc8, 0xff},
	Start:       color.RGBA{0x2b, 0x93, 0x48, 0xff},
	Goal:        color.RGBA{0x00, 0xb4, 0xd8, 0xff},
	MeshEdge:    color.RGBA{0x8d, 0x99, 0xae, 0xff},
	Portal:      color.RGBA{0x7c, 0xc6, 0x8a, 0xff},
	LevelBorder: color.RGBA{0x7d, 0x6b, 0x4a, 0xff},
	Edge:        color.RGBA{0xb4, 0xc3, 0xd9, 0xff},
	Text:        color.RGBA{0x1b, 0x1b, 0x1b, 0xff},
	Paper:       color.RGBA{0xff, 0xff, 0xff, 0xff},
	Ghost:       color.RGBA{0x9e, 0x9e, 0x9e, 0xff},
}

// RGBA returns the colour of palette entry c.
func (c Colour) RGBA() (r, g, b, a uint32) { return palette[c].RGBA() }

// NodeColour returns the colour of an HPA* abstract node whose highest level
// is level: Node1 for level 1 (and below), up to Node4 for level 4 and
// above.
func NodeColour(level int) Colour { return Node1 + Colour(min(max(level, 1), 4)-1) }

// Canvas is a picture of a grid map, in world coordinates: cell (x, y)
// covers [x, x+1) × [y, y+1). Large maps are scaled down, k×k cells to a
// pixel; small ones up, each cell s×s pixels; one of k and s is 1. A Canvas
// is one panel of a picture: [New] makes a picture of one panel,
// [NewPanels] one of several, which share it. Drawing in world coordinates
// clips to the panel; the bands of text and [Canvas.WritePNG] belong to the
// whole picture. A Canvas is not safe for concurrent use, nor are the
// panels of one picture. Its drawing methods do not allocate, except
// [Canvas.Mesh] and those that draw text.
type Canvas struct {
	sh   *sheet
	k, s int
	// at is the top-left pixel of the panel's map, counted from the top of
	// the panels (below the title band); size is its size in pixels.
	at, size image.Point
	strip    int // height of the caption strip above the map; 0 without one
}

// sheet is the picture that the panels of a [Canvas] share.
type sheet struct {
	img    *image.Paletted
	top    int // height of the title band; 0 without a title
	panels int
}

// fit returns the scale of a map of w×h cells drawn with its long side at
// most side pixels: k cells a pixel when larger, s pixels a cell (at most
// maxCellSide) when smaller, and the size of the picture in pixels.
func fit(w, h, side int) (k, s int, size image.Point) {
	long := max(w, h)
	k, s = 1, 1
	if long > side {
		k = (long + side - 1) / side
	} else {
		s = max(1, min(maxCellSide, side/long))
	}
	return k, s, image.Pt((w+k-1)/k*s, (h+k-1)/k*s)
}

// New draws g: free cells light, blocked ones dark, and a block of k×k
// cells blocked when more than half its cells are. It is O(cells) and
// allocates the picture, at most 1024×1024 bytes.
func New(g *grid.Grid) *Canvas {
	c := &Canvas{}
	c.k, c.s, c.size = fit(g.Width(), g.Height(), maxSide)
	c.sh = &sheet{img: image.NewPaletted(image.Rectangle{Max: c.size}, palette), panels: 1}
	c.drawMap(g)
	return c
}

// bounds returns the pixels of the panel's map.
func (c *Canvas) bounds() image.Rectangle {
	lo := c.at.Add(image.Pt(0, c.sh.top))
	return image.Rectangle{Min: lo, Max: lo.Add(c.size)}
}

// drawMap paints the panel's map of g.
func (c *Canvas) drawMap(g *grid.Grid) {
	w, h := g.Width(), g.Height()
	o := c.bounds().Min
	c.Fill(c.bounds(), Free)
	if c.k == 1 {
		for y := range h {
			for x := range w {
				if !g.Passable(image.Pt(x, y)) {
					c.Fill(image.Rect(x*c.s, y*c.s, (x+1)*c.s, (y+1)*c.s).Add(o), Blocked)
				}
			}
		}
		return
	}
	// Count the blocked cells of each block, one row of blocks at a time.
	img := c.sh.img
	blocked := make([]int, c.size.X)
	for py := range c.size.Y {
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
				img.Pix[img.PixOffset(o.X+px, o.Y+py)] = uint8(Blocked)
			}
		}
	}
}

// PixelsPerCell returns the side of a cell in pixels: s when the map is
// scaled up (or drawn a pixel a cell), 1/k when it is scaled down.
func (c *Canvas) PixelsPerCell() float64 { return float64(c.s) / float64(c.k) }

// Fill paints the pixels of r, in picture pixels, clipped to the panel. It
// is O(pixels).
func (c *Canvas) Fill(r image.Rectangle, col Colour) {
	paint(c.sh.img, r.Intersect(c.bounds()), col)
}

// Pixel returns the pixel of the picture holding world point p; it may lie
// outside the panel.
func (c *Canvas) Pixel(p mgl64.Vec2) image.Point {
	f := c.PixelsPerCell()
	return image.Pt(int(math.Floor(p[0]*f)), int(math.Floor(p[1]*f))).Add(c.bounds().Min)
}

// Centre returns the centre of cell p in world coordinates.
func Centre(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5} }

// Cells paints the given cells: a pixel each when scaled down, the cell's
// square less a one-pixel margin when scaled up to 4 pixels or more.
func (c *Canvas) Cells(ps []image.Point, col Colour) {
	inset := 0
	if c.s >= 4 {
		inset = 1
	}
	o := c.bounds().Min
	for _, p := range ps {
		if c.k > 1 {
			c.Dot(image.Pt(p.X/c.k, p.Y/c.k).Add(o), 1, col)
			continue
		}
		r := image.Rect(p.X*c.s, p.Y*c.s, (p.X+1)*c.s, (p.Y+1)*c.s).Add(o)
		c.Fill(r.Inset(inset), col)
	}
}

// Dot paints the square of side width pixels centred on pixel p of the
// picture (its upper-left quarter when width is even).
func (c *Canvas) Dot(p image.Point, width int, col Colour) {
	lo := p.Sub(image.Pt((width-1)/2, (width-1)/2))
	c.Fill(image.Rectangle{Min: lo, Max: lo.Add(image.Pt(width, width))}, col)
}

// Line draws the segment from a to b, in world coordinates, with a square
// brush of width pixels. It is O(length in pixels × width²).
func (c *Canvas) Line(a, b mgl64.Vec2, width int, col Colour) {
	f := c.PixelsPerCell()
	o := c.bounds().Min
	dda(a[0]*f, a[1]*f, b[0]*f, b[1]*f, func(p image.Point) { c.Dot(p.Add(o), width, col) })
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

// Mesh outlines the polygons of m, one pixel wide and inside each polygon,
// so that neighbours show a double line: [MeshEdge] along walls, [Portal]
// along portals. It paints only free pixels (and outlines), so walls stay
// whole, and only when the picture has a pixel or more a cell; smaller, the
// outlines would fill it. It allocates two small slices, reused across
// polygons.
func (c *Canvas) Mesh(m *navmesh.Mesh) {
	if c.k > 1 {
		return
	}
	f := float64(c.s)
	img, pb := c.sh.img, c.bounds()
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
			col := uint8(MeshEdge)
			for _, nb := range nbs {
				// Portals are seen from outside: the edge a→b is Right→Left.
				if nb.Portal.Right == a && nb.Portal.Left == b {
					col = uint8(Portal)
				}
			}
			x0, y0 := px(a)
			x1, y1 := px(b)
			dda(x0, y0, x1, y1, func(p image.Point) {
				p = p.Add(pb.Min)
				if !p.In(pb) {
					return
				}
				i := img.PixOffset(p.X, p.Y)
				if v := Colour(img.Pix[i]); v == Free || v == MeshEdge || v == Portal {
					img.Pix[i] = col
				}
			})
		}
	}
}

// Polyline draws the legs between consecutive points, in world coordinates;
// a single point is drawn as a dot.
func (c *Canvas) Polyline(pts []mgl64.Vec2, width int, col Colour) {
	if len(pts) == 1 {
		c.Dot(c.Pixel(pts[0]), width, col)
	}
	for i := 1; i < len(pts); i++ {
		c.Line(pts[i-1], pts[i], width, col)
	}
}

// CellPath draws the legs between the centres of consecutive cells, which
// may be single moves or the straight legs of a smoothed path.
func (c *Canvas) CellPath(path []image.Point, width int, col Colour) {
	if len(path) == 1 {
		c.Dot(c.Pixel(Centre(path[0])), width, col)
	}
	for i := 1; i < len(path); i++ {
		c.Line(Centre(path[i-1]), Centre(path[i]), width, col)
	}
}

// Marker paints a square of side width pixels on the centre of cell p.
func (c *Canvas) Marker(p image.Point, width int, col Colour) {
	c.Dot(c.Pixel(Centre(p)), width, col)
}

// LineWidth returns the pixel width of a path's line: about a quarter of a
// cell when scaled up, at least 2; three times that when wide.
func (c *Canvas) LineWidth(wide bool) int {
	w := max(2, c.s/4)
	if wide {
		w = 3 * w
	}
	return w
}

// MarkerWidth returns the side of a square marker that stands out at the
// picture's scale, in pixels; [Canvas.Pin] marks starts and goals better.
func (c *Canvas) MarkerWidth() int {
	if c.k > 1 {
		return 7
	}
	return max(7, c.s-2)
}

// GridLines draws the borders of square clusters of side cells, one pixel
// wide, over the free pixels only, so that walls and lines drawn before
// stay whole. It does nothing when side is not positive. It is O(pixels).
func (c *Canvas) GridLines(side int, col Colour) {
	if side <= 0 {
		return
	}
	img, b := c.sh.img, c.bounds()
	mark := func(x, y int) {
		if i := y*img.Stride + x; img.Pix[i] == uint8(Free) {
			img.Pix[i] = uint8(col)
		}
	}
	for cx := side; ; cx += side {
		x := c.Pixel(mgl64.Vec2{float64(cx), 0}).X
		if x >= b.Max.X {
			break
		}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			mark(x, y)
		}
	}
	for cy := side; ; cy += side {
		y := c.Pixel(mgl64.Vec2{0, float64(cy)}).Y
		if y >= b.Max.Y {
			break
		}
		for x := b.Min.X; x < b.Max.X; x++ {
			mark(x, y)
		}
	}
}

// Nodes marks every abstract node of hg, in node order, with a square on
// its cell's centre coloured by [NodeColour] of its [hpa.Graph.NodeLevel]:
// about a third of a cell wide (at least a pixel) at level 1, and two
// pixels wider for each level above. It is O(nodes × levels).
func (c *Canvas) Nodes(hg *hpa.Graph) {
	base := 1
	if c.k == 1 {
		base = max(1, c.s/3)
	}
	for n := range hpa.NodeID(hg.NodeIDs()) {
		l := hg.NodeLevel(n)
		if l == 0 {
			continue // an ID an update left unused
		}
		c.Marker(hg.NodeCell(n), base+2*(l-1), NodeColour(l))
	}
}

// ScaleNote describes the size of the picture and the scale of its map for
// the commands' reports, as "1024×768 pixels, 16×16 a cell", "1024×1024
// pixels, 4×4 cells a pixel", or with panels "1032×1136 pixels, 4 panels
// of 512×512, 8×8 cells a pixel".
func (c *Canvas) ScaleNote() string {
	b := c.sh.img.Rect
	note := fmt.Sprintf("%d×%d pixels, ", b.Dx(), b.Dy())
	if c.sh.panels > 1 {
		note += fmt.Sprintf("%d panels of %d×%d, ", c.sh.panels, c.size.X, c.size.Y)
	}
	if c.k > 1 {
		return note + fmt.Sprintf("%d×%d cells a pixel", c.k, c.k)
	}
	return note + fmt.Sprintf("%d×%d a cell", c.s, c.s)
}

// WritePNG encodes the picture as PNG and writes it to path atomically
// (through a temporary file in the same directory, renamed over path), so
// that readers see the old file or the whole new one. Errors name path.
func (c *Canvas) WritePNG(path string) error {
	_, err := atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(bw, c.sh.img); err != nil {
			return err
		}
		return bw.Flush()
	})
	return err
}

// ReadPNG decodes the PNG file at path, for checking pictures the commands
// wrote.
func ReadPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

// Count returns the number of pixels of img painted with colour col.
func Count(img image.Image, col Colour) int {
	want := color.RGBAModel.Convert(col)
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == want {
				n++
			}
		}
	}
	return n
}
