package picture

import (
	"bytes"
	"image"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
)

// countIn returns the number of pixels of r, in c's picture, of colour col.
func countIn(c *Canvas, r image.Rectangle, col Colour) int {
	img := c.sh.img
	r = r.Intersect(img.Rect)
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for _, v := range img.Pix[y*img.Stride+r.Min.X : y*img.Stride+r.Max.X] {
			if v == uint8(col) {
				n++
			}
		}
	}
	return n
}

// sameRows reports the first pixel at which rows [y0, y0+h) of a differ
// from rows [y1, y1+h) of b, over the width of a.
func sameRows(t *testing.T, a, b *image.Paletted, y0, y1, h int) {
	t.Helper()
	for y := range h {
		for x := range a.Rect.Dx() {
			if got, want := b.ColorIndexAt(x, y1+y), a.ColorIndexAt(x, y0+y); got != want {
				t.Fatalf("pixel (%d, %d) has colour %d, want %d as it was at (%d, %d)", x, y1+y, got, want, x, y0+y)
			}
		}
	}
}

func clonePicture(c *Canvas) *image.Paletted {
	img := *c.sh.img
	img.Pix = bytes.Clone(img.Pix)
	return &img
}

// TestTitle checks that the title band holds dark text on white above the
// map, which moves down whole, and that drawing afterwards lands on the
// same cells.
func TestTitle(t *testing.T) {
	c := New(loadDemo(t)) // 1024×768
	c.Marker(image.Pt(3, 3), c.MarkerWidth(), Start)
	before := clonePicture(c)
	c.Title("demo.map · 3,3 to 60,30 · A* (jump points)")
	if got, want := c.sh.img.Rect, image.Rect(0, 0, 1024, 768+titleHeight); got != want {
		t.Fatalf("picture %v, want %v", got, want)
	}
	band := image.Rect(0, 0, 1024, titleHeight)
	text, paper := countIn(c, band, Text), countIn(c, band, Paper)
	if text < 100 || text+paper != band.Dx()*band.Dy() {
		t.Errorf("title band: %d text and %d white pixels of %d, want text on white", text, paper, band.Dx()*band.Dy())
	}
	sameRows(t, before, c.sh.img, 0, titleHeight, 768)
	if got, want := c.Pixel(Centre(image.Pt(3, 3))), image.Pt(56, 56+titleHeight); got != want {
		t.Errorf("cell 3,3 at pixel %v, want %v", got, want)
	}
	c.Marker(image.Pt(60, 30), c.MarkerWidth(), Goal)
	if got := Colour(c.sh.img.ColorIndexAt(60*16+8, 30*16+8+titleHeight)); got != Goal {
		t.Errorf("marker drawn after the title: colour %d at the goal's pixel, want %d", got, Goal)
	}

	// A second title replaces the first, in the same band.
	c.Title("x")
	if got := c.sh.img.Rect.Dy(); got != 768+titleHeight {
		t.Errorf("picture is %d pixels high after a second title, want %d", got, 768+titleHeight)
	}
	if n := countIn(c, band, Text); n == 0 || n >= text {
		t.Errorf("second title: %d text pixels, want fewer than the first's %d", n, text)
	}
}

// TestTitleWidens checks that a title wider than a small map widens the
// picture on the right, in white, and keeps the map whole.
func TestTitleWidens(t *testing.T) {
	g, err := grid.FromRows([]string{"....", ".#..", "...."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := New(g) // 64×48
	before := clonePicture(c)
	title := "4×3 map · 0,0 to 3,2 · baseline A*"
	c.Title(title)
	w := textWidth(bold, title) + 2*textPad
	if got, want := c.sh.img.Rect, image.Rect(0, 0, w, 48+titleHeight); got != want {
		t.Fatalf("picture %v, want %v", got, want)
	}
	sameRows(t, before, c.sh.img, 0, titleHeight, 48)
	right := image.Rect(64, titleHeight, w, titleHeight+48)
	if n := countIn(c, right, Paper); n != right.Dx()*right.Dy() {
		t.Errorf("%d white pixels right of the map, want %d", n, right.Dx()*right.Dy())
	}
}

// TestLegend checks that a legend adds a band with every key's swatch and
// label, in as many rows as it needs, its columns spread over the width.
func TestLegend(t *testing.T) {
	c := New(loadDemo(t))
	keys := []Key{
		{Colour: Expanded, Label: "expanded"},
		{Colour: Open, Label: "left open"},
		{Colour: Path, Label: "path"},
		{Colour: Start, Label: "start 3,3", Letter: "S"},
		{Colour: Goal, Label: "goal 60,30", Letter: "G"},
	}
	before := clonePicture(c)
	c.Legend(nil)
	if c.sh.img.Rect != before.Rect {
		t.Fatalf("an empty legend made the picture %v, want %v", c.sh.img.Rect, before.Rect)
	}
	c.Legend(keys)
	oneRow := 2*legendPad + rowHeight
	if got, want := c.sh.img.Rect, image.Rect(0, 0, 1024, 768+oneRow); got != want {
		t.Fatalf("picture %v, want %v: five short keys in one row", got, want)
	}
	sameRows(t, before, c.sh.img, 0, 0, 768)
	band := image.Rect(0, 768, 1024, 768+oneRow)
	for _, k := range keys {
		if countIn(c, band, k.Colour) == 0 {
			t.Errorf("no swatch of colour %d (%s) in the legend", k.Colour, k.Label)
		}
	}
	if countIn(c, band, Text) < 100 {
		t.Errorf("%d text pixels in the legend, want its labels", countIn(c, band, Text))
	}

	// Four long keys go in two rows of two, the second column starting
	// half way across, where a second panel would.
	long := strings.Repeat("x", 40)
	c.Legend([]Key{{Colour: Path, Label: long}, {Colour: Plain, Label: long}, {Colour: Smooth, Label: long}, {Colour: Navmesh, Label: long}})
	y0 := 768 + oneRow
	if got, want := c.sh.img.Rect.Dy(), y0+2*legendPad+2*rowHeight; got != want {
		t.Fatalf("picture is %d pixels high, want %d: two rows", got, want)
	}
	for i, col := range []Colour{Path, Plain, Smooth, Navmesh} {
		x := textPad + i%2*(1024+panelGap)/2 + swatchSide/2
		y := y0 + legendPad + i/2*rowHeight + rowHeight/2
		if got := Colour(c.sh.img.ColorIndexAt(x, y)); got != col {
			t.Errorf("key %d: swatch pixel (%d, %d) has colour %d, want %d", i, x, y, got, col)
		}
	}
}

// TestPin checks a pin's disc, ring, halo and letter, and that one on a
// corner cell moves inwards to show whole.
func TestPin(t *testing.T) {
	g := loadDemo(t)
	c := New(g) // 16 pixels a cell: radius 12
	c.Pin(image.Pt(30, 20), Start, "S")
	ctr := c.Pixel(Centre(image.Pt(30, 20)))
	r := c.pinRadius()
	for _, tc := range []struct {
		dx   int
		want Colour
	}{{-r + 3, Start}, {r - 3, Start}, {-r, Text}, {r - 1, Text}, {r + 2, Paper}, {-r - 2, Paper}} {
		if got := Colour(c.sh.img.ColorIndexAt(ctr.X+tc.dx, ctr.Y)); got != tc.want {
			t.Errorf("pixel %d right of the centre has colour %d, want %d", tc.dx, got, tc.want)
		}
	}
	if n := countIn(c, image.Rectangle{Min: ctr, Max: ctr}.Inset(-6), Text); n < 15 {
		t.Errorf("%d dark pixels within 6 of the centre, want the letter", n)
	}

	mid, corner := New(g), New(g)
	mid.Pin(image.Pt(30, 20), Goal, "G")
	corner.Pin(image.Pt(0, 0), Goal, "G")
	if a, b := countIn(corner, corner.sh.img.Rect, Goal), countIn(mid, mid.sh.img.Rect, Goal); a != b || a == 0 {
		t.Errorf("corner pin has %d goal pixels, one in the middle %d; want them equal", a, b)
	}
}

// TestPanels checks the layout of panels, that each holds the whole map,
// that drawing clips to its panel, and captions.
func TestPanels(t *testing.T) {
	g := loadDemo(t) // 64×48: 8 pixels a cell in panels of 512×384
	ps := NewPanels(g, 3, 2)
	c := ps[0]
	if got, want := c.sh.img.Rect, image.Rect(0, 0, 2*512+panelGap, 2*(captionHeight+384)+panelGap); got != want {
		t.Fatalf("picture %v, want %v", got, want)
	}
	if got, want := c.ScaleNote(), "1032×820 pixels, 3 panels of 512×384, 8×8 a cell"; got != want {
		t.Errorf("ScaleNote %q, want %q", got, want)
	}
	wantAt := []image.Point{{0, captionHeight}, {512 + panelGap, captionHeight}, {0, 2*captionHeight + 384 + panelGap}}
	for i, p := range ps {
		if got := p.bounds(); got != (image.Rectangle{Min: wantAt[i], Max: wantAt[i].Add(image.Pt(512, 384))}) {
			t.Errorf("panel %d covers %v, want 512×384 from %v", i, got, wantAt[i])
		}
		if got, want := countIn(c, p.bounds(), Blocked), countIn(c, ps[0].bounds(), Blocked); got != want || got == 0 {
			t.Errorf("panel %d has %d blocked pixels, panel 0 %d", i, got, want)
		}
	}
	if got := Colour(c.sh.img.ColorIndexAt(514, 100)); got != Paper {
		t.Errorf("the gap between panels has colour %d, want white", got)
	}
	// The fourth place of the grid stays white.
	if n := countIn(c, image.Rect(520, 430, 1032, 820), Paper); n != 512*390 {
		t.Errorf("%d white pixels where no panel is, want %d", n, 512*390)
	}

	ps[1].Line(mgl64.Vec2{-10, -10}, mgl64.Vec2{80, 60}, 9, Path)
	if total, in := countIn(c, c.sh.img.Rect, Path), countIn(c, ps[1].bounds(), Path); total == 0 || total != in {
		t.Errorf("%d path pixels, %d of them in the panel drawn on; want all", total, in)
	}
	if !ps[1].Uses(Path) || ps[0].Uses(Path) || ps[1].Uses(Smooth) {
		t.Errorf("Uses: panel 1 path %v, panel 0 path %v, panel 1 smooth %v; want true, false, false",
			ps[1].Uses(Path), ps[0].Uses(Path), ps[1].Uses(Smooth))
	}

	ps[1].Caption(Key{Colour: Path, Label: "A* (jump points)"})
	strip := func(p *Canvas) image.Rectangle {
		b := p.bounds()
		return image.Rect(b.Min.X, b.Min.Y-captionHeight, b.Max.X, b.Min.Y)
	}
	if countIn(c, strip(ps[1]), Path) == 0 || countIn(c, strip(ps[1]), Text) == 0 {
		t.Errorf("caption of panel 1 lacks its swatch or label")
	}
	if n := countIn(c, strip(ps[0]), Paper); n != 512*captionHeight {
		t.Errorf("the caption strip of panel 0 has %d white pixels, want all %d", n, 512*captionHeight)
	}

	// A canvas from New has no strip: Caption draws nothing.
	one := New(g)
	before := clonePicture(one)
	one.Caption(Key{Colour: Path, Label: "path"})
	if !bytes.Equal(before.Pix, one.sh.img.Pix) {
		t.Errorf("Caption changed a picture from New")
	}

	defer func() {
		if recover() == nil {
			t.Errorf("NewPanels(g, 1, 2) did not panic")
		}
	}()
	NewPanels(g, 1, 2)
}
