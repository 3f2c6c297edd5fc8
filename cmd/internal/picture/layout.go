package picture

import (
	"image"
	"image/color"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/inconsolata"
	"golang.org/x/image/math/fixed"

	"github.com/cairn-nav/cairn/grid"
)

// The layout of panels and bands of text, in pixels. Text is set in
// Inconsolata's 8×16 faces: 8 pixels a character.
const (
	panelGap      = 8  // between panels
	captionHeight = 22 // the strip above each panel of NewPanels
	titleHeight   = 30 // the title band
	rowHeight     = 24 // a row of a legend
	legendPad     = 4  // above and below the rows of a legend
	textPad       = 8  // left of a title or legend
	swatchBox     = 24 // a key's swatch, and the gap before its label
	swatchSide    = 14 // the square swatch
	colGap        = 24 // between the columns of a legend
	keyPinRadius  = 8  // the pin of a key
	glyphAscent   = 14 // of the faces
	glyphHeight   = 17 // ascent and descent
)

var (
	regular = inconsolata.Regular8x16
	bold    = inconsolata.Bold8x16
)

// A Key is one entry of a legend or a caption: a swatch of Colour, then
// Label. Runes the face lacks (it has ASCII and Latin-1, with "·", "×" and
// "µ", but no arrows) are left out.
type Key struct {
	Colour Colour
	Label  string
	// Letter, when set, draws the swatch as a pin with this letter on it,
	// as [Canvas.Pin] marks a start or goal; otherwise it is a square.
	Letter string
}

// NewPanels draws g n times, in rows of cols panels, each under a caption
// strip ([Canvas.Caption]), and returns the panels, which share one picture
// on a white background. Each panel is drawn at the scale that fits the map
// in 1024/cols pixels, so that the picture stays about 1024 pixels wide.
// [Canvas.Title], [Canvas.Legend], [Canvas.ScaleNote] and
// [Canvas.WritePNG] act on the whole picture, through any of its panels. It
// panics unless 1 ≤ cols ≤ n, a programmer's error. It is O(cells + pixels)
// and allocates the picture.
func NewPanels(g *grid.Grid, n, cols int) []*Canvas {
	if cols < 1 || n < cols {
		panic("picture: NewPanels wants 1 ≤ cols ≤ n")
	}
	k, s, size := fit(g.Width(), g.Height(), maxSide/cols)
	rows := (n + cols - 1) / cols
	stepX, stepY := size.X+panelGap, captionHeight+size.Y+panelGap
	img := image.NewPaletted(image.Rect(0, 0, cols*stepX-panelGap, rows*stepY-panelGap), palette)
	paint(img, img.Rect, Paper)
	sh := &sheet{img: img, panels: n}
	cs := make([]*Canvas, n)
	for i := range cs {
		at := image.Pt(i%cols*stepX, i/cols*stepY+captionHeight)
		cs[i] = &Canvas{sh: sh, k: k, s: s, at: at, size: size, strip: captionHeight}
	}
	cs[0].drawMap(g)
	src := cs[0].bounds()
	for _, c := range cs[1:] {
		dst := c.bounds()
		for y := range size.Y {
			i, j := img.PixOffset(src.Min.X, src.Min.Y+y), img.PixOffset(dst.Min.X, dst.Min.Y+y)
			copy(img.Pix[j:j+size.X], img.Pix[i:i+size.X])
		}
	}
	return cs
}

// paint paints the pixels of r, clipped to img.
func paint(img *image.Paletted, r image.Rectangle, col Colour) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[y*img.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			row[x] = uint8(col)
		}
	}
}

// grow adds top rows above the picture and bottom rows below it, and
// widens it to width pixels when narrower, all white.
func (sh *sheet) grow(top, bottom, width int) {
	old := sh.img
	w, h := max(old.Rect.Dx(), width), old.Rect.Dy()
	if top == 0 && bottom == 0 && w == old.Rect.Dx() {
		return
	}
	img := image.NewPaletted(image.Rect(0, 0, w, top+h+bottom), palette)
	paint(img, img.Rect, Paper)
	for y := range h {
		i := img.PixOffset(0, top+y)
		copy(img.Pix[i:i+old.Rect.Dx()], old.Pix[y*old.Stride:])
	}
	sh.img = img
}

// Title sets the title of the picture: a band of bold text above the
// panels, added by the first call and rewritten by later ones. The picture
// is widened, white on the right, when the text is wider than it. Panels
// keep their world coordinates: drawing after Title lands below the band.
// It is O(pixels) and allocates the larger picture.
func (c *Canvas) Title(text string) {
	sh := c.sh
	w := textWidth(bold, text) + 2*textPad
	if sh.top == 0 {
		sh.grow(titleHeight, 0, w)
		sh.top = titleHeight
	} else {
		sh.grow(0, 0, w)
	}
	band := image.Rect(0, 0, sh.img.Rect.Dx(), titleHeight)
	paint(sh.img, band, Paper)
	drawText(sh.img, band, bold, textPad, baseline(0, titleHeight), text, Text)
}

// Legend adds a band below the picture with keys in rows and columns:
// as many columns as fit, the rows balanced, the keys in reading order,
// the columns spread evenly over the picture's width (so that a legend of
// four keys in two columns lines up with a 2×2 grid of panels and their
// captions). Each call adds a band; none when keys is empty. The picture
// is widened when one key is wider than it. It is O(pixels) and allocates
// the larger picture.
func (c *Canvas) Legend(keys []Key) {
	if len(keys) == 0 {
		return
	}
	sh := c.sh
	colW := 0
	for _, k := range keys {
		colW = max(colW, swatchBox+textWidth(regular, k.Label))
	}
	avail := sh.img.Rect.Dx() - 2*textPad
	cols := min(len(keys), max(1, (avail+colGap)/(colW+colGap)))
	rows := (len(keys) + cols - 1) / cols
	cols = (len(keys) + rows - 1) / rows
	stride := max(colW+colGap, (sh.img.Rect.Dx()+panelGap)/cols)
	y0 := sh.img.Rect.Dy()
	sh.grow(0, 2*legendPad+rows*rowHeight, 2*textPad+colW)
	for i, k := range keys {
		x := textPad + i%cols*stride
		y := y0 + legendPad + i/cols*rowHeight
		drawKey(sh.img, image.Rect(x, y, x+colW, y+rowHeight), k)
	}
}

// Caption labels the panel with k in the strip above it, cut at the
// panel's right edge. It draws nothing on a canvas from [New], which has
// no strip. It allocates a little.
func (c *Canvas) Caption(k Key) {
	if c.strip == 0 {
		return
	}
	b := c.bounds()
	strip := image.Rect(b.Min.X, b.Min.Y-c.strip, b.Max.X, b.Min.Y)
	paint(c.sh.img, strip, Paper)
	drawKey(c.sh.img, strip.Intersect(image.Rect(b.Min.X+textPad, 0, b.Max.X, b.Max.Y)), k)
}

// drawKey draws k in cell, a row of a legend or a caption strip: the
// swatch at the left, vertically centred, then the label.
func drawKey(img *image.Paletted, cell image.Rectangle, k Key) {
	mid := (cell.Min.Y + cell.Max.Y) / 2
	if k.Letter != "" {
		drawPin(img, cell, image.Pt(cell.Min.X+keyPinRadius+1, mid), keyPinRadius, k.Colour, k.Letter)
	} else {
		sq := image.Rect(0, 0, swatchSide, swatchSide).Add(image.Pt(cell.Min.X+2, mid-swatchSide/2))
		paint(img, sq.Intersect(cell), Text)
		paint(img, sq.Inset(1).Intersect(cell), k.Colour)
	}
	drawText(img, cell, regular, cell.Min.X+swatchBox, baseline(cell.Min.Y, cell.Dy()), k.Label, Text)
}

// Pin marks cell p with a disc of colour col, ringed dark and haloed
// white so that it shows on walls and paths alike, with letter (such as
// "S" or "G") on it in bold. The disc is about 20 pixels wide, more when
// cells are larger; near the panel's edge it moves inwards to show whole,
// so that a corner cell's pin is not cut to a quarter. It allocates a
// little.
func (c *Canvas) Pin(p image.Point, col Colour, letter string) {
	b, r := c.bounds(), c.pinRadius()
	ctr := c.Pixel(Centre(p))
	if in := b.Inset(r + 2); !in.Empty() {
		ctr.X = min(max(ctr.X, in.Min.X), in.Max.X-1)
		ctr.Y = min(max(ctr.Y, in.Min.Y), in.Max.Y-1)
	}
	drawPin(c.sh.img, b, ctr, r, col, letter)
}

// pinRadius returns the radius of a pin in pixels: 10, or three quarters
// of a cell when cells are larger.
func (c *Canvas) pinRadius() int { return max(10, c.s*3/4) }

// drawPin draws a pin of radius r centred on pixel ctr, clipped to clip:
// the disc, a two-pixel dark ring, a two-pixel white halo, the letter in
// dark or white, whichever stands out more on col.
func drawPin(img *image.Paletted, clip image.Rectangle, ctr image.Point, r int, col Colour, letter string) {
	clip = clip.Intersect(img.Rect)
	within := func(d2, r int) bool { return d2 <= r*r+r } // radius r+½
	for dy := -r - 2; dy <= r+2; dy++ {
		for dx := -r - 2; dx <= r+2; dx++ {
			q := ctr.Add(image.Pt(dx, dy))
			d2 := dx*dx + dy*dy
			if !q.In(clip) || !within(d2, r+2) {
				continue
			}
			v := Paper
			switch {
			case within(d2, r-2):
				v = col
			case within(d2, r):
				v = Text
			}
			img.Pix[img.PixOffset(q.X, q.Y)] = uint8(v)
		}
	}
	// Capitals stand 11 pixels above the baseline: centre them.
	ink := Text
	if contrast(col, Paper) > contrast(col, Text) {
		ink = Paper
	}
	// Twice, a pixel apart, to stand out as much as the ring.
	x := ctr.X - (textWidth(bold, letter)+1)/2
	drawText(img, clip, bold, x, ctr.Y+6, letter, ink)
	drawText(img, clip, bold, x+1, ctr.Y+6, letter, ink)
}

// contrast returns the WCAG contrast ratio of colours a and b, from 1 (the
// same) to 21 (black on white).
func contrast(a, b Colour) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance returns the relative luminance of colour c, 0 for black, 1 for
// white.
func luminance(c Colour) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		f := float64(v) / 0xffff
		if f <= 0.04045 {
			return f / 12.92
		}
		return math.Pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Uses reports whether any pixel of the panel has colour col, so that a
// legend can list only what was drawn. It is O(pixels) and does not
// allocate.
func (c *Canvas) Uses(col Colour) bool {
	img, b := c.sh.img, c.bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for _, v := range img.Pix[y*img.Stride+b.Min.X : y*img.Stride+b.Max.X] {
			if v == uint8(col) {
				return true
			}
		}
	}
	return false
}

// baseline returns the baseline that centres a line of text in a band of
// height h from row y0.
func baseline(y0, h int) int { return y0 + (h-glyphHeight)/2 + glyphAscent }

// textWidth returns the width of s in face, in pixels.
func textWidth(face *basicfont.Face, s string) int { return font.MeasureString(face, s).Ceil() }

// drawText draws s in face from pixel x on baseline y, clipped to clip,
// painting col where a glyph covers half a pixel or more.
func drawText(img *image.Paletted, clip image.Rectangle, face *basicfont.Face, x, y int, s string, col Colour) {
	d := font.Drawer{
		Dst:  ink{img: img, clip: clip.Intersect(img.Rect), col: uint8(col)},
		Src:  image.Opaque,
		Face: face,
		Dot:  fixed.P(x, y),
	}
	d.DrawString(s)
}

// ink is a [draw.Image] over a paletted picture that paints one colour
// where a glyph covers a pixel at least half, without blending (blends
// would map to whatever palette entry is nearest). It reads as transparent,
// so that drawing a mask over it hands Set the mask's coverage as alpha.
type ink struct {
	img  *image.Paletted
	clip image.Rectangle
	col  uint8
}

func (i ink) ColorModel() color.Model { return color.AlphaModel }
func (i ink) Bounds() image.Rectangle { return i.clip }
func (i ink) At(x, y int) color.Color { return color.Transparent }

func (i ink) Set(x, y int, c color.Color) {
	if _, _, _, a := c.RGBA(); a >= 0x8000 && image.Pt(x, y).In(i.clip) {
		i.img.Pix[i.img.PixOffset(x, y)] = i.col
	}
}
