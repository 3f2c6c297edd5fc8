package hpa

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"math"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/binfile"
)

// This file writes [Classes] to one binary file and reads them back.
// Version 1 of the format, all integers little-endian:
//
//	offset  size  field
//	     0     8  magic "CAIRNHPC"
//	     8     4  version, uint32 = 1
//	    12     8  source fingerprint, uint64 (see below)
//	    20     4  source grid width, uint32
//	    24     4  source grid height, uint32
//	    28     4  C, the number of classes, uint32 (1 to MaxClasses)
//	    32        C class records, in class order, each:
//	                 4  unit size, uint32 (1 to grid.MaxClearance)
//	                 1  1 when a filter follows, 0 when the class has none
//	              2048  the filter's Cost, 256 float64 (IEEE 754 bits)
//	                32  its Exclude, 256 bits (area a is bit a%8 of byte a/8)
//	                32  its Include, likewise
//	              then C graphs, in class order, each:
//	                 8  L, the graph's length in bytes, uint64
//	                 L  the class's graph as Graph.WriteTo writes it, for
//	                    the class's grid (which its fingerprint names)
//	  end−4    4  CRC-32C (Castagnoli) of every byte before it
//
// The source fingerprint is the 64-bit FNV-1a hash of the source grid's
// [Fingerprint], as a little-endian uint64, followed by the area type of
// every cell, one byte each, row by row: a class's grid depends on the
// areas too. The classes' grids are not stored but derived again by
// [ReadClasses], and each graph file inside binds its graph to its grid.

const (
	classesMagic      = "CAIRNHPC"
	classesVersion    = 1
	classesHeaderSize = 32
	classRecordSize   = 5
	filterSize        = 256*8 + 2*32
	// The smallest graph file: a header and a checksum, no nodes.
	minGraphSize = headerSize + 4
	// The largest graph length ReadClasses accepts; it reads a graph's
	// bytes as they come, so memory grows with those actually read.
	maxGraphSize = 1 << 48
)

// classesFingerprint returns the source fingerprint of g (see above). It
// reads every cell twice, O(width·height), and does not allocate.
func classesFingerprint(g *grid.Grid) uint64 {
	f := binfile.NewFNV()
	f.U64(Fingerprint(g))
	for y := range g.Height() {
		for x := range g.Width() {
			f.Byte(g.Area(image.Pt(x, y)))
		}
	}
	return f.Sum
}

// writerTo feeds what a graph's WriteTo writes into the classes file's
// writer, which keeps the file's checksum and its first error.
type writerTo struct{ e *binfile.Writer }

func (w writerTo) Write(p []byte) (int, error) { w.e.Bytes(p); return len(p), nil }

// WriteTo writes c to w in Cairn's binary classes format, version 1, and
// returns the number of bytes written: the classes (sizes and filters) and
// each class's graph as [Graph.WriteTo] writes it, but no grid; a class's
// graph takes 60 + 12·nodes + 12·edges bytes, and a class with a filter
// 2117 bytes besides. [ReadClasses] needs the same source grid, which the
// file's fingerprint identifies.
//
// Its cost is one pass over each graph and a fingerprint of each class's
// grid and of the source; it allocates a 64 KiB buffer and two words per
// node of each graph. Calls of WriteTo and [Classes.Update] are
// serialised; WriteTo must not overlap an edit of the source grid. It is
// safe for concurrent queries.
func (c *Classes) WriteTo(w io.Writer) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.src.RLock()
	fp := classesFingerprint(c.src)
	c.src.RUnlock()
	e := binfile.NewWriter(w)
	e.Bytes([]byte(classesMagic))
	e.U32(classesVersion)
	e.U64(fp)
	e.U32(uint32(c.src.Width()))
	e.U32(uint32(c.src.Height()))
	e.U32(uint32(len(c.cls)))
	writeClassRecords(e, c.cls)
	var bad error
	for i, cl := range c.cls {
		st := cl.h.Stats()
		size := int64(minGraphSize + (nodeSize+degreeSize)*st.Nodes + edgeSize*st.Edges)
		e.U64(uint64(size))
		if n, _ := cl.h.WriteTo(writerTo{e}); n != size && bad == nil { // writerTo never fails
			bad = fmt.Errorf("hpa: class %d's graph wrote %d bytes, want %d: was it updated meanwhile?", i, n, size)
		}
	}
	n, err := e.Finish()
	if bad != nil {
		return n, bad
	}
	return n, err
}

// writeClassRecords writes the class records of cls (see the format).
func writeClassRecords(e *binfile.Writer, cls []class) {
	for _, cl := range cls {
		e.U32(uint32(cl.k))
		if cl.f == nil {
			e.Byte(0)
			continue
		}
		e.Byte(1)
		for _, v := range cl.f.Cost {
			e.U64(math.Float64bits(v))
		}
		e.Bytes(packBits(&cl.f.Exclude))
		e.Bytes(packBits(&cl.f.Include))
	}
}

// packBits returns the 256 flags of b as 32 bytes, flag a bit a%8 of
// byte a/8.
func packBits(b *[256]bool) []byte {
	out := make([]byte, 32)
	for a, v := range b {
		if v {
			out[a/8] |= 1 << (a % 8)
		}
	}
	return out
}

// ReadClasses reads classes that [Classes.WriteTo] wrote for the source
// grid g, and returns them ready for queries, as [BuildClasses] would
// have built them with the same classes and options. name is used in
// error messages.
//
// It refuses, with a [*FormatError] giving the byte offset in the file
// and what is wrong, a file that is not a classes file, of an unknown
// version, built for another grid or other area types (by the source
// fingerprint: the message names both), truncated, failing its checksum,
// with no classes or more than [MaxClasses], with a unit size outside [1,
// grid.MaxClearance], a filter cost that BuildClasses refuses, a graph
// length that is not that of the graph inside, graphs of differing
// options, or a class's graph that [Read] refuses for the class's grid
// (the message then says which class, and the offset is in the classes
// file). A failed read of r is returned wrapped. ReadClasses never panics
// on any bytes, and its memory grows with the bytes actually read and the
// map, never with a count or length that the file merely claims.
//
// It reads exactly the bytes WriteTo wrote, so other data may follow in
// r. Its cost is a fingerprint of g, one [grid.Grid.Derived] per class
// other than the plain one, and one Read per class; it holds the graphs'
// bytes in memory until they are read. g must not be edited while it
// runs. It shares no state, so calls may run concurrently.
func ReadClasses(r io.Reader, name string, g *grid.Grid) (*Classes, error) {
	d, ferr, hdr, err := openClassesFile(r, name, g, classesMagic, "classes", classesVersion, classesHeaderSize, "classes were")
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	nc := le.Uint32(hdr[28:])
	if nc < 1 || nc > MaxClasses {
		return nil, ferr(28, "%d classes, want 1 to %d", nc, MaxClasses)
	}

	// Read everything, check the sum, then check the content, so that a
	// damaged file reads as such rather than as odd classes.
	classes, recAt, err := readClassRecords(d, ferr, int(nc))
	if err != nil {
		return nil, err
	}
	graphs := make([][]byte, nc)
	graphAt := make([]int64, nc)
	for i := range graphs {
		lenAt := d.Offset()
		b := d.Scratch(8)
		if err := d.Read(b, fmt.Sprintf("graph length of class %d", i)); err != nil {
			return nil, err
		}
		n := le.Uint64(b)
		if n < minGraphSize || n > maxGraphSize {
			return nil, ferr(lenAt, "class %d: graph of %d bytes, want %d to %d", i, n, minGraphSize, uint64(maxGraphSize))
		}
		graphAt[i] = d.Offset()
		buf := make([]byte, 0, min(n, 1<<16))
		for rem := int(n); rem > 0; {
			chunk := d.Scratch(min(rem, 1<<16))
			if err := d.Read(chunk, fmt.Sprintf("graph of class %d", i)); err != nil {
				return nil, err
			}
			buf = append(buf, chunk...)
			rem -= len(chunk)
		}
		graphs[i] = buf
	}
	if err := d.Checksum(); err != nil {
		return nil, err
	}

	// The content: the filters' costs as BuildClasses checks them, then
	// each class's graph against the class's grid.
	c, err := classesOf(g, classes, recAt, ferr)
	if err != nil {
		return nil, err
	}
	for i := range c.cls {
		br := bytes.NewReader(graphs[i])
		h, err := Read(br, c.cls[i].g)
		if err != nil {
			if fe, ok := errors.AsType[*FormatError](err); ok {
				return nil, ferr(graphAt[i]+fe.Offset, "class %d's graph: %s", i, fe.Msg)
			}
			return nil, ferr(graphAt[i], "class %d's graph: %v", i, err) // not reached: a bytes.Reader does not fail
		}
		if br.Len() != 0 {
			return nil, ferr(graphAt[i]+int64(len(graphs[i])-br.Len()), "class %d's graph ends %d bytes before the %d its length says", i, br.Len(), len(graphs[i]))
		}
		c.cls[i].h = h
		o, o0 := h.Options(), c.cls[0].h.Options()
		// The header fields that must agree, and where they are.
		fields := [...]struct {
			at   int64
			a, b int
		}{{28, o.ClusterSize, o0.ClusterSize}, {32, o.MaxEntrance, o0.MaxEntrance}, {48, o.Levels, o0.Levels}, {52, o.LevelFactor, o0.LevelFactor}}
		for _, f := range fields {
			if f.a != f.b {
				return nil, ferr(graphAt[i]+f.at, "class %d's graph has clusters of %d, entrances split above %d, %d levels and a level factor of %d, class 0's %d, %d, %d and %d: want the same",
					i, o.ClusterSize, o.MaxEntrance, o.Levels, o.LevelFactor, o0.ClusterSize, o0.MaxEntrance, o0.Levels, o0.LevelFactor)
			}
		}
	}
	return c, nil
}

// errorAt makes a *FormatError at a byte offset of a file.
type errorAt func(off int64, format string, args ...any) error

// openClassesFile starts reading a file of agent classes for source grid
// g (the classes file, the annotated graph file), called name in errors:
// it reads the header of size bytes and checks the magic, the version and
// the source fingerprint and size (bytes 8 to 27 of both formats), the
// last refused as what "built for another map". It returns the reader, the
// errors' maker and the header.
func openClassesFile(r io.Reader, name string, g *grid.Grid, magic, kind string, version uint32, size int, what string) (*binfile.Reader, errorAt, []byte, error) {
	if g == nil {
		return nil, nil, nil, errors.New("hpa: nil grid")
	}
	where, prefix := "", "hpa"
	if name != "" {
		where, prefix = name+": ", "hpa: "+name
	}
	ferr := func(off int64, format string, args ...any) error {
		return &FormatError{off, where + fmt.Sprintf(format, args...)}
	}
	d := binfile.NewReader(r, prefix, func(off int64, msg string) error { return ferr(off, "%s", msg) })
	hdr := d.Scratch(size)
	if err := d.Header(hdr, magic, kind); err != nil {
		return nil, nil, nil, err
	}
	le := binary.LittleEndian
	if v := le.Uint32(hdr[8:]); v != version {
		return nil, nil, nil, ferr(8, "unknown version %d, want %d", v, version)
	}
	fileFP, fw, fh := le.Uint64(hdr[12:]), le.Uint32(hdr[20:]), le.Uint32(hdr[24:])
	g.RLock()
	fp := classesFingerprint(g)
	g.RUnlock()
	if w, h := g.Width(), g.Height(); fp != fileFP || uint64(fw) != uint64(w) || uint64(fh) != uint64(h) {
		return nil, nil, nil, ferr(12, "%s built for another map or other area types: file fingerprint %016x (%d×%d), map fingerprint %016x (%d×%d)",
			what, fileFP, fw, fh, fp, w, h)
	}
	return d, ferr, hdr, nil
}

// readClassRecords reads n class records (see the format), returning the
// classes and the offset of each record; ferr makes its errors.
func readClassRecords(d *binfile.Reader, ferr errorAt, n int) ([]Class, []int64, error) {
	le := binary.LittleEndian
	classes := make([]Class, n)
	recAt := make([]int64, n)
	for i := range classes {
		recAt[i] = d.Offset()
		b := d.Scratch(classRecordSize)
		if err := d.Read(b, fmt.Sprintf("record of class %d", i)); err != nil {
			return nil, nil, err
		}
		k, flag := le.Uint32(b), b[4]
		if k < 1 || k > grid.MaxClearance {
			return nil, nil, ferr(recAt[i], "class %d: unit size %d, want 1 to %d", i, k, grid.MaxClearance)
		}
		if flag > 1 {
			return nil, nil, ferr(recAt[i]+4, "class %d: filter flag %d, want 0 (none) or 1", i, flag)
		}
		classes[i].Size = int(k)
		if flag == 0 {
			continue
		}
		fb := d.Scratch(filterSize)
		if err := d.Read(fb, fmt.Sprintf("filter of class %d", i)); err != nil {
			return nil, nil, err
		}
		f := new(grid.Filter)
		for a := range 256 {
			f.Cost[a] = math.Float64frombits(le.Uint64(fb[8*a:]))
			f.Exclude[a] = fb[2048+a/8]>>(a%8)&1 != 0
			f.Include[a] = fb[2080+a/8]>>(a%8)&1 != 0
		}
		classes[i].Filter = f
	}
	return classes, recAt, nil
}

// classesOf returns the classes read from records at recAt, over source
// grid g, their filters' costs checked as BuildClasses checks them.
func classesOf(g *grid.Grid, classes []Class, recAt []int64, ferr errorAt) (*Classes, error) {
	for i, cl := range classes {
		f := cl.Filter
		if f == nil {
			continue
		}
		for a, v := range f.Cost {
			if uint8(a) != grid.AreaSolid && !f.Exclude[a] && v != 0 && !(v >= 1 && v <= grid.MaxCost) {
				return nil, ferr(recAt[i]+classRecordSize+8*int64(a), "class %d: filter cost %v for area %d, want 0 or a value in [1, %g]", i, v, a, float64(grid.MaxCost))
			}
		}
	}
	c, err := newClasses(g, classes)
	if err != nil {
		return nil, ferr(recAt[0], "%v", err) // not reached: the classes were checked
	}
	return c, nil
}
