package grid

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"iter"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// This file reads and writes the Moving AI Lab benchmark formats: .map files
// (a small header, then one row of characters per map row) and .scen files
// (one pathfinding problem per line). See Sturtevant, "Benchmarks for
// Grid-Based Pathfinding", IEEE TCIAIG 4(2), 2012.

// FormatError reports a malformed Moving AI file: the file (its name as given
// to the reader), the 1-based line (0 when the problem is not tied to a line),
// and what is wrong.
type FormatError struct {
	File string
	Line int
	Msg  string
}

// Error returns "grid: FILE:LINE: MSG", leaving out ":LINE" when Line is 0
// and the file when File is empty ("grid: line LINE: MSG").
func (e *FormatError) Error() string {
	switch {
	case e.File == "" && e.Line == 0:
		return "grid: " + e.Msg
	case e.File == "":
		return fmt.Sprintf("grid: line %d: %s", e.Line, e.Msg)
	case e.Line == 0:
		return fmt.Sprintf("grid: %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("grid: %s:%d: %s", e.File, e.Line, e.Msg)
}

// maxHeaderLine bounds the length of a header line of a .map file and of any
// line of a .scen file; longer lines are format errors.
const maxHeaderLine = 4096

// cellKinds classifies the bytes of a map row: 1 passable, 0 blocked, -1 not
// a map character.
var cellKinds = func() (k [256]int8) {
	for i := range k {
		k[i] = -1
	}
	for _, c := range []byte(".GS") {
		k[c] = 1
	}
	for _, c := range []byte("@OTW") {
		k[c] = 0
	}
	return k
}()

// ReadMap parses a Moving AI .map file from r and builds its grid with opt;
// name is used in error messages. The header holds the lines "type octile",
// "height H" and "width W" in any order (keywords in any case, extra spaces
// allowed), then the line "map", then exactly H rows of exactly W
// characters. '.', 'G' and 'S' are passable cells; '@', 'O', 'T' and 'W' are
// blocked. The letters also give the cells their area types for the
// queries' [Filter]s ([AreaSwamp] 'S', [AreaWater] 'W', [AreaTrees] 'T',
// [AreaGround] '.' and 'G', [AreaSolid] '@' and 'O'), unless opt.Areas is
// set. Lines may end in LF or CRLF, the last row needs no line end, and
// blank lines may follow the rows.
//
// A malformed file gives a [*FormatError]; a failed read gives the reader's
// error, wrapped. opt.Costs, when not nil, must hold W·H entries, as [New]
// requires. ReadMap reads rows as they come, so memory grows with the data
// actually read, never with a size that the header merely claims; it never
// panics on any input.
func ReadMap(r io.Reader, name string, opt Options) (*Grid, error) {
	lr := newLineReader(r)
	ferr := func(line int, format string, args ...any) error {
		return &FormatError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var typeLine, heightLine, widthLine int // line numbers, 0 when not seen
	var width, height int
header:
	for {
		line, n, err := lr.next(maxHeaderLine)
		if err == io.EOF {
			return nil, ferr(lr.n+1, "file ends in the header, want a map line")
		}
		if err != nil {
			return nil, readError(name, err)
		}
		if n > maxHeaderLine {
			return nil, ferr(lr.n, "header line has %d bytes, want at most %d", n, maxHeaderLine)
		}
		if lr.n == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		f := strings.Fields(string(line))
		if len(f) == 0 {
			continue
		}
		key := strings.ToLower(f[0])
		if key == "map" {
			if len(f) != 1 {
				return nil, ferr(lr.n, "map line %q has extra fields", line)
			}
			switch {
			case typeLine == 0:
				return nil, ferr(lr.n, "missing type line before the map line")
			case heightLine == 0:
				return nil, ferr(lr.n, "missing height line before the map line")
			case widthLine == 0:
				return nil, ferr(lr.n, "missing width line before the map line")
			}
			break header
		}
		if len(f) != 2 {
			return nil, ferr(lr.n, "header line %q, want a keyword and one value", line)
		}
		switch key {
		case "type":
			if typeLine != 0 {
				return nil, ferr(lr.n, "second type line (first on line %d)", typeLine)
			}
			if !strings.EqualFold(f[1], "octile") {
				return nil, ferr(lr.n, "map type %q is not supported, want octile", f[1])
			}
			typeLine = lr.n
		case "height", "width":
			seen, v := &heightLine, &height
			if key == "width" {
				seen, v = &widthLine, &width
			}
			if *seen != 0 {
				return nil, ferr(lr.n, "second %s line (first on line %d)", key, *seen)
			}
			x, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, ferr(lr.n, "bad %s %q, want a whole number", key, f[1])
			}
			if x <= 0 || x > MaxCells {
				return nil, ferr(lr.n, "%s %d, want 1 to %d", key, x, MaxCells)
			}
			*seen, *v = lr.n, x
			if heightLine != 0 && widthLine != 0 && width > MaxCells/height {
				return nil, ferr(lr.n, "map size %d×%d exceeds %d cells", width, height, MaxCells)
			}
		default:
			return nil, ferr(lr.n, "unknown header line %q", line)
		}
	}

	free := make([]bool, 0, min(width*height, 1<<20))
	var areas []uint8 // from the letters, once one other than ground or solid is seen
	for y := range height {
		line, n, err := lr.next(width)
		if err == io.EOF {
			return nil, ferr(lr.n+1, "file ends after %d of %d map rows", y, height)
		}
		if err != nil {
			return nil, readError(name, err)
		}
		if n != width {
			return nil, ferr(lr.n, "map row y=%d has %d cells, want %d", y, n, width)
		}
		if len(free)+width > cap(free) {
			// Double the room as rows arrive, rather than append's slower
			// growth: memory still follows the rows actually read.
			free = slices.Grow(free, min(max(cap(free), width), width*height-len(free)))
		}
		if areas == nil && opt.Areas == nil && bytes.ContainsAny(line, "SWT") {
			areas = make([]uint8, len(free), cap(free))
			for i, f := range free {
				areas[i] = letterAreas['.']
				if !f {
					areas[i] = AreaSolid
				}
			}
		}
		for x, c := range line {
			switch cellKinds[c] {
			case 1:
				free = append(free, true)
			case 0:
				free = append(free, false)
			default:
				return nil, ferr(lr.n, "bad character %q in column %d (cell %d,%d)", line[x:x+1], x+1, x, y)
			}
			if areas != nil {
				areas = append(areas, letterAreas[c])
			}
		}
	}
	for line, n := range lr.lines(maxHeaderLine) {
		if n > maxHeaderLine || len(bytes.TrimSpace(line)) != 0 {
			return nil, ferr(lr.n, "extra line after the %d map rows", height)
		}
	}
	if lr.err != nil {
		return nil, readError(name, lr.err)
	}
	if areas != nil {
		opt.Areas = areas
	}
	return New(width, height, free, opt)
}

// letterAreas gives the area type of each map character.
var letterAreas = func() (a [256]uint8) {
	for i := range a {
		a[i] = AreaSolid
	}
	a['.'], a['G'], a['S'], a['W'], a['T'] = AreaGround, AreaGround, AreaSwamp, AreaWater, AreaTrees
	return a
}()

// LoadMap reads the Moving AI .map file at path with [ReadMap]. Its errors
// name the path; those from opening or reading the file wrap the
// [os.PathError].
func LoadMap(path string, opt Options) (*Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	defer f.Close()
	return ReadMap(f, path, opt)
}

// WriteMap writes g to w in Moving AI format: the lines "type octile",
// "height H", "width W" and "map", then one row per grid row, '.' for a
// passable cell and '@' for a blocked one, each line ending in LF. Neither
// terrain costs nor the grid's connectivity are stored; a grid with terrain
// costs is refused with an error. It allocates one row buffer.
func WriteMap(w io.Writer, g *Grid) error {
	if g.HasCosts() {
		return errors.New("grid: a grid with terrain costs cannot be written as a Moving AI map")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "type octile\nheight %d\nwidth %d\nmap\n", g.Height(), g.Width())
	row := make([]byte, g.Width()+1)
	row[g.Width()] = '\n'
	for y := range g.Height() {
		for x := range g.Width() {
			row[x] = '@'
			if g.Passable(image.Pt(x, y)) {
				row[x] = '.'
			}
		}
		bw.Write(row) // errors stick to bw and come back from Flush
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("grid: writing map: %w", err)
	}
	return nil
}

// Scenario is one problem of a Moving AI .scen file: a start, a goal, and the
// optimal length of an 8-connected path between them without corner cutting.
// Points have X the column and Y the row, (0, 0) the top-left cell.
type Scenario struct {
	// Bucket groups problems of similar length (by convention
	// floor(Optimal/4)).
	Bucket int
	// Map is the map field as written, which may carry a folder prefix; see
	// [Scenario.MapBase].
	Map string
	// Width and Height are the map size the scenario states.
	Width, Height int
	Start, Goal   image.Point
	// Optimal is the optimal path length as printed.
	Optimal float64
	// Decimals is the number of decimals printed in the length field
	// ("12.34" gives 2, "7" gives 0); see [Scenario.Matches]. A length in
	// exponent form counts the exponent too ("1.5e2" gives 0, "1e3" -3).
	Decimals int
}

// Matches reports whether cost equals the scenario's optimal length within
// its printed precision: |cost−Optimal| ≤ ½·10^−Decimals + 3·10⁻⁸·max(1, Optimal).
// The relative term is there because the published lengths were summed in
// single precision: den520d prints 230.764 for 95 + 96√2 = 230.76450…,
// whose correct rounding is 230.765, and the 8-decimal street lengths are off
// by up to 1.2·10⁻⁸ of the length.
func (s Scenario) Matches(cost float64) bool {
	tol := 0.5*math.Pow10(-s.Decimals) + 3e-8*math.Max(1, s.Optimal)
	return math.Abs(cost-s.Optimal) <= tol
}

// MapBase returns the base name of the scenario's map field, after the last
// '/' or '\' ("maps/dao/brc202d.map" gives "brc202d.map").
func (s Scenario) MapBase() string {
	return s.Map[strings.LastIndexAny(s.Map, `/\`)+1:]
}

// Check reports whether the scenario fits g: the sizes agree, and the start
// and goal are free cells of g. Its error names the first problem found.
func (s Scenario) Check(g *Grid) error {
	if s.Width != g.Width() || s.Height != g.Height() {
		return fmt.Errorf("grid: scenario for a %d×%d map, grid is %d×%d", s.Width, s.Height, g.Width(), g.Height())
	}
	for _, e := range [...]struct {
		what string
		p    image.Point
	}{{"start", s.Start}, {"goal", s.Goal}} {
		if !g.In(e.p) {
			return fmt.Errorf("grid: scenario %s (%d,%d) is outside the %d×%d grid", e.what, e.p.X, e.p.Y, g.Width(), g.Height())
		}
		if !g.Passable(e.p) {
			return fmt.Errorf("grid: scenario %s (%d,%d) is a blocked cell", e.what, e.p.X, e.p.Y)
		}
	}
	return nil
}

// ReadScenarios parses a Moving AI .scen file from r; name is used in error
// messages. The first non-blank line is the version line, "version 1" or
// "version 1.0" (any number equal to 1); each further non-blank line holds 9
// fields separated by tabs or runs of spaces: bucket, map, map width, map
// height, start x, start y, goal x, goal y, optimal length. Lines may end in
// LF or CRLF. A malformed file gives a [*FormatError] naming the line; a failed
// read gives the reader's error, wrapped. It never panics on any input.
func ReadScenarios(r io.Reader, name string) ([]Scenario, error) {
	lr := newLineReader(r)
	ferr := func(format string, args ...any) error {
		return &FormatError{File: name, Line: lr.n, Msg: fmt.Sprintf(format, args...)}
	}
	var out []Scenario
	version := false
	for line, n := range lr.lines(maxHeaderLine) {
		if n > maxHeaderLine {
			return nil, ferr("line has %d bytes, want at most %d", n, maxHeaderLine)
		}
		if lr.n == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		f := scenFields(string(line))
		if len(f) == 0 {
			continue
		}
		if !version {
			if len(f) != 2 || !strings.EqualFold(f[0], "version") {
				return nil, ferr("first line %q, want a version line such as \"version 1\"", line)
			}
			if !isVersion1(f[1]) {
				return nil, ferr("version %q is not supported, want 1", f[1])
			}
			version = true
			continue
		}
		if len(f) != 9 {
			return nil, ferr("line has %d fields, want 9", len(f))
		}
		var ints [7]int
		for i, j := range [...]int{0, 2, 3, 4, 5, 6, 7} {
			v, err := strconv.Atoi(f[j])
			if err != nil || v < 0 {
				return nil, ferr("bad %s %q, want a whole number ≥ 0", scenFieldNames[j], f[j])
			}
			ints[i] = v
		}
		s := Scenario{
			Bucket: ints[0],
			Map:    f[1],
			Width:  ints[1], Height: ints[2],
			Start: image.Pt(ints[3], ints[4]),
			Goal:  image.Pt(ints[5], ints[6]),
		}
		if s.Width == 0 || s.Height == 0 {
			return nil, ferr("map size %d×%d, want positive width and height", s.Width, s.Height)
		}
		bounds := image.Rect(0, 0, s.Width, s.Height)
		if !s.Start.In(bounds) || !s.Goal.In(bounds) {
			return nil, ferr("start (%d,%d) or goal (%d,%d) outside the stated %d×%d map",
				s.Start.X, s.Start.Y, s.Goal.X, s.Goal.Y, s.Width, s.Height)
		}
		if strings.ContainsFunc(s.Map, unicode.IsControl) {
			return nil, ferr("map field %q holds a control character", s.Map)
		}
		var err error
		if s.Optimal, s.Decimals, err = parseLength(f[8]); err != nil {
			return nil, ferr("bad optimal length %q: %v", f[8], err)
		}
		out = append(out, s)
	}
	if lr.err != nil {
		return nil, readError(name, lr.err)
	}
	if !version {
		return nil, &FormatError{File: name, Msg: "no version line: empty file"}
	}
	return out, nil
}

// LoadScenarios reads the Moving AI .scen file at path with [ReadScenarios].
// Its errors name the path; those from opening or reading the file wrap the
// [os.PathError].
func LoadScenarios(path string) ([]Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	defer f.Close()
	return ReadScenarios(f, path)
}

// WriteScenarios writes scens to w as a Moving AI .scen file: the line
// "version 1", then one tab-separated line per scenario, its length with as
// many decimals as its Decimals field says (8 when that is negative or above
// 8), so that [ReadScenarios] reads back the same scenarios. A map field
// holding a tab, a space or a control character, or an empty one, is an
// error, as is a negative bucket or length, or a point outside the stated
// map; nothing is written then.
func WriteScenarios(w io.Writer, scens []Scenario) error {
	for i, s := range scens {
		bounds := image.Rect(0, 0, s.Width, s.Height)
		switch {
		case s.Map == "" || strings.ContainsFunc(s.Map, func(r rune) bool { return r == ' ' || unicode.IsControl(r) }):
			return fmt.Errorf("grid: scenario %d: map field %q, want a name without spaces or control characters", i, s.Map)
		case s.Bucket < 0 || !(s.Optimal >= 0) || math.IsInf(s.Optimal, 1):
			return fmt.Errorf("grid: scenario %d: bucket %d, length %v, want both ≥ 0 and finite", i, s.Bucket, s.Optimal)
		case bounds.Empty() || !s.Start.In(bounds) || !s.Goal.In(bounds):
			return fmt.Errorf("grid: scenario %d: start (%d,%d) or goal (%d,%d) outside the stated %d×%d map",
				i, s.Start.X, s.Start.Y, s.Goal.X, s.Goal.Y, s.Width, s.Height)
		}
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("version 1\n")
	for _, s := range scens {
		dec := s.Decimals
		if dec < 0 || dec > 8 {
			dec = 8
		}
		fmt.Fprintf(bw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.*f\n", s.Bucket, s.Map, s.Width, s.Height,
			s.Start.X, s.Start.Y, s.Goal.X, s.Goal.Y, dec, s.Optimal)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("grid: writing scenarios: %w", err)
	}
	return nil
}

var scenFieldNames = [9]string{"bucket", "map", "map width", "map height",
	"start x", "start y", "goal x", "goal y", "optimal length"}

// scenFields splits a scenario line at tabs and runs of spaces.
func scenFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
}

// isVersion1 reports whether s is a version number equal to 1: "1", "1.",
// "1.0", "1.00" and so on.
func isVersion1(s string) bool {
	rest, ok := strings.CutPrefix(s, "1")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	rest, ok = strings.CutPrefix(rest, ".")
	return ok && strings.Trim(rest, "0") == ""
}

// parseLength parses a non-negative decimal number such as "12", "12.34" or
// "1.2e3" and returns it with the number of decimals it was printed to, less
// its exponent.
func parseLength(s string) (v float64, decimals int, err error) {
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	if whole+frac == "" || !allDigits(whole) || !allDigits(frac) {
		return 0, 0, errors.New("want a decimal number ≥ 0")
	}
	decimals = len(frac)
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil || e < -1000 || e > 1000 {
			return 0, 0, errors.New("bad exponent")
		}
		decimals -= e
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, 0, errors.New("out of range")
	}
	return v, decimals, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

var utf8BOM = []byte("\xef\xbb\xbf")

// readError wraps an error from the underlying reader.
func readError(name string, err error) error {
	if name == "" {
		return fmt.Errorf("grid: reading: %w", err)
	}
	return fmt.Errorf("grid: reading %s: %w", name, err)
}

// lineReader reads lines with a cap on how many bytes it keeps per line.
type lineReader struct {
	r   *bufio.Reader
	n   int // number of lines read so far: the 1-based number of the last one
	buf []byte
	err error // the failed read that ended lines, if one did
}

// lines yields each line that next reads with limit, and its length, until
// the end of the input or a failed read, which it leaves in l.err.
func (l *lineReader) lines(limit int) iter.Seq2[[]byte, int] {
	return func(yield func([]byte, int) bool) {
		for {
			line, n, err := l.next(limit)
			if err != nil {
				if err != io.EOF {
					l.err = err
				}
				return
			}
			if !yield(line, n) {
				return
			}
		}
	}
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next reads the next line and returns it without its LF or CRLF ending,
// together with its length n. A line longer than limit bytes is consumed
// whole but not kept: line is then nil and n still its length. At the end of
// the input next returns io.EOF; a final line without a line end is still a
// line. The returned slice is valid until the next call.
func (l *lineReader) next(limit int) (line []byte, n int, err error) {
	l.buf = l.buf[:0]
	total, over := 0, false
	var prev, last byte // the last two bytes of the line read so far
	for {
		chunk, err := l.r.ReadSlice('\n')
		total += len(chunk)
		if !over {
			if len(l.buf)+len(chunk) > limit+2 {
				over = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch len(chunk) {
		case 0:
		case 1:
			prev, last = last, chunk[0]
		default:
			prev, last = chunk[len(chunk)-2], chunk[len(chunk)-1]
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if total == 0 {
				return nil, 0, io.EOF
			}
			break
		}
		if err != nil {
			return nil, 0, err
		}
		break
	}
	l.n++
	n = total
	if last == '\n' {
		n--
		last = prev
	}
	if n > 0 && last == '\r' {
		n--
	}
	if over || n > limit {
		return nil, n, nil
	}
	return l.buf[:n], n, nil
}
