package grid

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers the decoder for image.Decode
	_ "image/jpeg"
	_ "image/png"
	"io"
	"os"
	"strings"
)

// This file reads grids drawn as pictures: one cell per pixel, dark pixels
// walls.

// ImageOptions chooses which pixels of an image are walls.
type ImageOptions struct {
	// Threshold is the luma below which a pixel is a wall, in (0, 1]; 0
	// means 0.5. Luma is 0.299·R + 0.587·G + 0.114·B of the pixel's
	// gamma-encoded channels, each from 0 to 1, as [image/color.GrayModel]
	// computes it. With 1, every pixel but pure white is a wall.
	Threshold float64
}

// ReadImage reads a PNG, GIF or JPEG image from r and builds its grid with
// opt: pixel (x, y) becomes cell (x, y), a wall when its luma is below
// iopt.Threshold (see [ImageOptions]). A pixel's colour is judged without
// its alpha (un-premultiplied), except that a fully transparent pixel is
// free whatever its colour. Of a GIF, only the first frame counts, on the
// image's logical screen; screen pixels outside that frame are free.
// Importing package grid registers the PNG, GIF and JPEG decoders with
// [image.RegisterFormat], as importing image/png and the others does, and
// ReadImage reads any other format the program has registered too. name is
// used in error messages.
//
// The image's header is read first, and an image of more than [MaxCells]
// pixels is refused before any pixel is decoded. A malformed image gives a
// [*FormatError]; a failed read gives the reader's error, wrapped; a
// threshold outside (0, 1] is an error too. Memory is that of the decoded
// image (up to 8 bytes a pixel) plus the grid's; the decoders allocate the
// image as its header says, before reading the pixels, so a short file with
// a large header still costs that memory. Its time is linear in the pixels;
// it shares no state, so calls may run concurrently. It never panics on any
// input.
func ReadImage(r io.Reader, name string, iopt ImageOptions, opt Options) (*Grid, error) {
	thr := iopt.Threshold
	if thr == 0 {
		thr = 0.5
	}
	if !(thr > 0 && thr <= 1) {
		return nil, fmt.Errorf("grid: image threshold %v, want a value in (0, 1]", iopt.Threshold)
	}
	ferr := func(format string, args ...any) error {
		return &FormatError{File: name, Msg: fmt.Sprintf(format, args...)}
	}
	er := &errReader{r: r}

	// Read the header, keeping the bytes it takes to decode them again.
	var head bytes.Buffer
	cfg, kind, err := image.DecodeConfig(io.TeeReader(er, &head))
	if er.err != nil {
		return nil, readError(name, er.err)
	}
	if errors.Is(err, image.ErrFormat) {
		return nil, ferr("unknown image format: want PNG, GIF or JPEG")
	}
	if err != nil {
		return nil, ferr("bad %s image: %s", strings.ToUpper(kind), trimCodec(err))
	}
	w, h := cfg.Width, cfg.Height
	if w <= 0 || h <= 0 {
		return nil, ferr("image of %d×%d pixels, want at least one pixel", w, h)
	}
	if w > MaxCells/h {
		return nil, ferr("image of %d×%d pixels has more than %d, the most cells a grid may have", w, h, MaxCells)
	}
	img, _, err := image.Decode(io.MultiReader(&head, er))
	if er.err != nil {
		return nil, readError(name, er.err)
	}
	if err != nil {
		return nil, ferr("bad %s image: %s", strings.ToUpper(kind), trimCodec(err))
	}
	free := imageFree(img, w, h, thr)
	return New(w, h, free, opt)
}

// LoadImage reads the image at path with [ReadImage]. Its errors name the
// path; those from opening or reading the file wrap the [os.PathError].
func LoadImage(path string, iopt ImageOptions, opt Options) (*Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	defer f.Close()
	return ReadImage(f, path, iopt, opt)
}

// trimCodec drops the codec's own prefix ("png: ") from a decoding error.
func trimCodec(err error) string {
	msg := err.Error()
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return "file ends early"
	}
	for _, p := range []string{"png: ", "gif: ", "jpeg: ", "image: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

// errReader remembers the first failed read other than io.EOF, to tell a
// broken reader from a malformed image.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// imageFree classifies the pixels of [0, w) × [0, h) of img, free or wall,
// in row-major order; pixels outside img's bounds are free.
func imageFree(img image.Image, w, h int, thr float64) []bool {
	limit := lumaLimit(thr * 0xffff)
	free := make([]bool, w*h)
	for i := range free {
		free[i] = true
	}
	in := img.Bounds().Intersect(image.Rect(0, 0, w, h))
	switch m := img.(type) {
	case *image.Paletted:
		var wall [256]bool // indices past the palette are free
		for i, c := range m.Palette[:min(len(m.Palette), 256)] {
			if c != nil {
				wall[i] = limit.wall(c.RGBA())
			}
		}
		for y := in.Min.Y; y < in.Max.Y; y++ {
			for x := in.Min.X; x < in.Max.X; x++ {
				free[y*w+x] = !wall[m.Pix[m.PixOffset(x, y)]]
			}
		}
	case image.RGBA64Image:
		for y := in.Min.Y; y < in.Max.Y; y++ {
			for x := in.Min.X; x < in.Max.X; x++ {
				c := m.RGBA64At(x, y)
				free[y*w+x] = !limit.wall(uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A))
			}
		}
	default:
		for y := in.Min.Y; y < in.Max.Y; y++ {
			for x := in.Min.X; x < in.Max.X; x++ {
				if c := img.At(x, y); c != nil {
					free[y*w+x] = !limit.wall(c.RGBA())
				}
			}
		}
	}
	return free
}

// lumaLimit is the luma below which a pixel is a wall, in 16-bit units.
type lumaLimit float64

// wall reports whether a pixel of the premultiplied 16-bit colour r, g, b,
// a is a wall: not fully transparent, and with the luma of its
// un-premultiplied colour below the limit.
func (l lumaLimit) wall(r, g, b, a uint32) bool {
	if a == 0 {
		return false
	}
	a = min(a, 0xffff)
	r, g, b = min(r, a), min(g, a), min(b, a)
	if a < 0xffff {
		r, g, b = r*0xffff/a, g*0xffff/a, b*0xffff/a
	}
	// The weights sum to 1<<16, so the sum fits in 32 bits.
	y := (19595*r + 38470*g + 7471*b + 1<<15) >> 16
	return float64(y) < float64(l)
}
