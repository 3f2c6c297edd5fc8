package grid_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

const imageDir = "testdata/image"

// Colours of the fixtures.
var (
	white  = color.NRGBA{255, 255, 255, 255}
	black  = color.NRGBA{0, 0, 0, 255}
	gray50 = color.NRGBA{128, 128, 128, 255} // luma 0.502: free at 0.5
	gray49 = color.NRGBA{127, 127, 127, 255} // luma 0.498: a wall at 0.5
	red    = color.NRGBA{255, 0, 0, 255}     // luma 0.299
	green  = color.NRGBA{0, 255, 0, 255}     // luma 0.587
	blue   = color.NRGBA{0, 0, 255, 255}     // luma 0.114
	clear  = color.NRGBA{0, 0, 0, 0}         // transparent black
	ghost  = color.NRGBA{0, 0, 0, 8}         // nearly transparent black
	pale   = color.NRGBA{255, 255, 255, 8}   // nearly transparent white
)

// drawImage paints a drawing into an NRGBA image, one character a pixel.
func drawImage(drawing string, legend map[byte]color.NRGBA) *image.NRGBA {
	var rows []string
	for line := range strings.Lines(drawing) {
		if line = strings.TrimSpace(line); line != "" {
			rows = append(rows, line)
		}
	}
	img := image.NewNRGBA(image.Rect(0, 0, len(rows[0]), len(rows)))
	for y, row := range rows {
		for x := range len(row) {
			c, ok := legend[row[x]]
			if !ok {
				panic(fmt.Sprintf("drawImage: %q is not in the legend", row[x]))
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

var imageLegend = map[byte]color.NRGBA{'w': white, 'k': black, 'G': gray50, 'g': gray49, 'r': red, 'e': green, 'b': blue, 'c': clear, 'h': ghost, 'p': pale}

// The drawing of the colour fixtures, and the walls it gives at 0.5.
const (
	colourDrawing = `
		wkGgr
		ebchp
		kkwww`
	colourWant = `
		.#.##
		.#.#.
		##...`
)

func encodePNG(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// pngChunk returns a PNG chunk with its length and checksum.
func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

// pngHeader returns the signature and IHDR chunk of a w×h 8-bit gray PNG.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	return append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
}

// imageFixture is a file under testdata/image, what writes it, and the grid
// it must give.
type imageFixture struct {
	file string
	gen  func() []byte
	opt  grid.ImageOptions
	want string // the grid, or part of the error for a bad image
}

func imageFixtures() []imageFixture {
	colours := drawImage(colourDrawing, imageLegend)
	gray := image.NewGray(image.Rect(0, 0, 4, 2))
	copy(gray.Pix, []uint8{0, 127, 128, 255, 63, 64, 191, 254})
	palette := color.Palette{white, black, clear, gray49, gray50}
	pal := image.NewPaletted(image.Rect(0, 0, 4, 2), palette)
	copy(pal.Pix, []uint8{0, 1, 2, 3, 4, 0, 1, 2})
	deep := image.NewNRGBA64(image.Rect(0, 0, 3, 1))
	deep.SetNRGBA64(0, 0, color.NRGBA64{0x7fff, 0x7fff, 0x7fff, 0xffff}) // just below half
	deep.SetNRGBA64(1, 0, color.NRGBA64{0x8000, 0x8000, 0x8000, 0xffff}) // just above
	deep.SetNRGBA64(2, 0, color.NRGBA64{0, 0, 0, 1})                     // all but transparent black
	blocks := drawImage("kw\nwk", imageLegend)
	big := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	for y := range 16 {
		for x := range 16 {
			big.SetNRGBA(x, y, []color.NRGBA{black, white}[(x/8+y/8)%2])
		}
	}
	frame := image.NewPaletted(image.Rect(2, 1, 5, 3), palette)
	copy(frame.Pix, []uint8{1, 0, 1, 0, 1, 0})
	gen := func(img image.Image) func() []byte { return func() []byte { return encodePNG(img) } }
	return []imageFixture{
		{"colours.png", gen(colours), grid.ImageOptions{}, colourWant},
		{"colours.png", nil, grid.ImageOptions{Threshold: 0.1}, ".#...\n...#.\n##..."},
		{"colours.png", nil, grid.ImageOptions{Threshold: 0.3}, ".#..#\n.#.#.\n##..."},
		{"colours.png", nil, grid.ImageOptions{Threshold: 1}, ".####\n##.#.\n##..."},
		{"gray.png", gen(gray), grid.ImageOptions{}, "##..\n##.."},
		{"gray.png", nil, grid.ImageOptions{Threshold: 0.25}, "#...\n#..."},
		{"gray.png", nil, grid.ImageOptions{Threshold: 1}, "###.\n####"},
		{"paletted.png", gen(pal), grid.ImageOptions{}, ".#.#\n..#."},
		{"deep.png", gen(deep), grid.ImageOptions{}, "#.#"},
		{"paletted.gif", func() []byte {
			var buf bytes.Buffer
			if err := gif.Encode(&buf, pal, nil); err != nil {
				panic(err)
			}
			return buf.Bytes()
		}, grid.ImageOptions{}, ".#.#\n..#."},
		{"frame.gif", func() []byte {
			var buf bytes.Buffer
			err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0},
				Config: image.Config{ColorModel: palette, Width: 6, Height: 4}})
			if err != nil {
				panic(err)
			}
			return buf.Bytes()
		}, grid.ImageOptions{}, "......\n..#.#.\n...#..\n......"},
		{"blocks.jpg", func() []byte {
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, big, &jpeg.Options{Quality: 95}); err != nil {
				panic(err)
			}
			return buf.Bytes()
		}, grid.ImageOptions{}, ""}, // checked against big below
		{"blocks.png", gen(blocks), grid.ImageOptions{}, "#.\n.#"},

		{"bad/not-an-image.png", func() []byte { return []byte("type octile\n") }, grid.ImageOptions{}, "unknown image format: want PNG, GIF or JPEG"},
		{"bad/truncated.png", func() []byte { b := encodePNG(colours); return b[:len(b)-20] }, grid.ImageOptions{}, "bad PNG image: invalid format: unexpected EOF"},
		{"bad/checksum.png", func() []byte { b := encodePNG(colours); b[len(b)-20] ^= 0xff; return b }, grid.ImageOptions{}, "bad PNG image: "},
		{"bad/header-checksum.png", func() []byte { b := encodePNG(colours); b[30] ^= 0xff; return b }, grid.ImageOptions{}, "bad PNG image: invalid format: invalid checksum"},
		{"bad/huge.png", func() []byte { return pngHeader(20000, 20000) }, grid.ImageOptions{}, "image of 20000×20000 pixels has more than 268435456"},
		{"bad/huge.gif", func() []byte { return []byte("GIF89a\xff\xff\xff\xff\x00\x00\x00;") }, grid.ImageOptions{}, "image of 65535×65535 pixels has more than"},
		{"bad/empty.gif", func() []byte { return []byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;") }, grid.ImageOptions{}, "image of 0×0 pixels, want at least one pixel"},
		{"bad/no-pixels.png", func() []byte { return pngHeader(4, 4) }, grid.ImageOptions{}, "bad PNG image: "},
		{"bad/truncated.jpg", func() []byte {
			var buf bytes.Buffer
			jpeg.Encode(&buf, big, nil)
			return buf.Bytes()[:buf.Len()/2]
		}, grid.ImageOptions{}, "bad JPEG image: "},
	}
}

func TestImageFixtures(t *testing.T) {
	fixtures := imageFixtures()
	if *update {
		for _, f := range fixtures {
			if f.gen == nil {
				continue
			}
			p := filepath.Join(imageDir, filepath.FromSlash(f.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.gen(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range fixtures {
		t.Run(fmt.Sprintf("%s %v", f.file, f.opt.Threshold), func(t *testing.T) {
			path := filepath.Join(imageDir, filepath.FromSlash(f.file))
			g, err := grid.LoadImage(path, f.opt, grid.Options{})
			if strings.HasPrefix(f.file, "bad/") {
				var fe *grid.FormatError
				if g != nil || !errors.As(err, &fe) || fe.File != path || !strings.Contains(fe.Msg, f.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("LoadImage error\ngot  %v\nwant a one-line *FormatError for %s holding %q", err, path, f.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadImage: %v (run go test ./grid -run TestImageFixtures -update to write the fixtures)", err)
			}
			want := f.want
			if f.file == "blocks.jpg" {
				bg, err := grid.ReadImage(bytes.NewReader(encodePNGBlocks()), "b.png", grid.ImageOptions{}, grid.Options{})
				if err != nil {
					t.Fatal(err)
				}
				want = testmap.Render(bg, nil)
			}
			checkGrid(t, g, want)
		})
	}
}

// encodePNGBlocks is blocks.jpg's picture as a lossless PNG.
func encodePNGBlocks() []byte {
	big := image.NewGray(image.Rect(0, 0, 16, 16))
	for y := range 16 {
		for x := range 16 {
			big.Pix[y*16+x] = uint8(255 * ((x/8 + y/8) % 2))
		}
	}
	return encodePNG(big)
}

func TestReadImageOptions(t *testing.T) {
	data := encodePNG(drawImage(colourDrawing, imageLegend))
	for _, thr := range []float64{-0.5, 1.0000001, math.NaN(), math.Inf(1)} {
		if _, err := grid.ReadImage(bytes.NewReader(data), "c.png", grid.ImageOptions{Threshold: thr}, grid.Options{}); err == nil || !strings.Contains(err.Error(), "grid: image threshold") {
			t.Errorf("threshold %v: error %v, want one about the threshold", thr, err)
		}
	}
	g, err := grid.ReadImage(bytes.NewReader(data), "c.png", grid.ImageOptions{}, grid.Options{Connectivity: grid.Four})
	if err != nil || g.Connectivity() != grid.Four {
		t.Fatalf("got %v, %v, want a 4-connected grid", g, err)
	}
	if _, err := grid.ReadImage(bytes.NewReader(data), "c.png", grid.ImageOptions{}, grid.Options{Costs: []float64{1}}); err == nil {
		t.Error("ReadImage with 1 terrain cost for 15 cells succeeded, want an error")
	}
}

func TestReadImageReadError(t *testing.T) {
	data := encodePNG(drawImage(colourDrawing, imageLegend))
	for _, n := range []int{0, 10, len(data) / 2} {
		_, err := grid.ReadImage(&tiledErrReader{data[:n]}, "c.png", grid.ImageOptions{}, grid.Options{})
		if !errors.Is(err, errTiledRead) || !strings.HasPrefix(err.Error(), "grid: reading c.png: ") {
			t.Errorf("failing after %d bytes: error %v, want one wrapping %v and naming c.png", n, err, errTiledRead)
		}
	}
	missing := filepath.Join(imageDir, "no-such.png")
	if _, err := grid.LoadImage(missing, grid.ImageOptions{}, grid.Options{}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("LoadImage(%q) error = %v, want one wrapping fs.ErrNotExist and naming the path", missing, err)
	}
}

// cairnImage is an image of a made-up format registered for the tests, of
// a type without RGBA64At, so that ReadImage takes its general path. Its
// pixels are one byte each after the magic and the size: 0 black, 1 white,
// 2 a nil colour.
type cairnImage struct {
	w, h int
	pix  []byte
}

func (m *cairnImage) ColorModel() color.Model { return color.NRGBAModel }
func (m *cairnImage) Bounds() image.Rectangle { return image.Rect(0, 0, m.w, m.h) }
func (m *cairnImage) At(x, y int) color.Color {
	switch m.pix[y*m.w+x] {
	case 0:
		return black
	case 1:
		return white
	}
	return nil
}

func init() {
	decodeConfig := func(r io.Reader) (image.Config, error) {
		var head [10]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return image.Config{}, err
		}
		return image.Config{ColorModel: color.NRGBAModel, Width: int(head[8]), Height: int(head[9])}, nil
	}
	decode := func(r io.Reader) (image.Image, error) {
		b, err := io.ReadAll(r)
		if err != nil || len(b) < 10 || len(b)-10 != int(b[8])*int(b[9]) {
			return nil, errors.New("cairnimg: bad data")
		}
		return &cairnImage{int(b[8]), int(b[9]), b[10:]}, nil
	}
	image.RegisterFormat("cairnimg", "CAIRNIMG", decode, decodeConfig)
}

func TestReadImageRegistered(t *testing.T) {
	g, err := grid.ReadImage(bytes.NewReader([]byte("CAIRNIMG\x03\x02\x00\x01\x02\x01\x00\x00")), "m.cimg", grid.ImageOptions{}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrid(t, g, "#..\n.##")
	_, err = grid.ReadImage(bytes.NewReader([]byte("CAIRNIMG\x03\x02\x00")), "m.cimg", grid.ImageOptions{}, grid.Options{})
	if err == nil || err.Error() != "grid: m.cimg: bad CAIRNIMG image: cairnimg: bad data" {
		t.Errorf("error %v, want grid: m.cimg: bad CAIRNIMG image: cairnimg: bad data", err)
	}
}

func ExampleReadImage() {
	// A 4×2 picture: black walls, white and transparent floor.
	img := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	for i, c := range []color.NRGBA{black, white, white, {}, white, black, {0, 0, 0, 0}, {40, 40, 40, 255}} {
		img.SetNRGBA(i%4, i/4, c)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	g, err := grid.ReadImage(&buf, "room.png", grid.ImageOptions{}, grid.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(testmap.Render(g, nil))
	// Output:
	// #...
	// .#.#
}
