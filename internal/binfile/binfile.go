// Package binfile holds what Cairn's binary file formats share: a buffered
// little-endian writer and an exact reader, both keeping the CRC-32
// (Castagnoli) of the bytes so far, which the formats store at their end.
// The formats themselves (hpa graphs, navmeshes) live with their packages.
package binfile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// bufSize is the size of the buffers of a Writer and a Reader.
const bufSize = 64 << 10

// Writer buffers little-endian writes to an io.Writer, keeps the CRC-32C of
// everything written, and remembers the first error; later writes are then
// dropped. It is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	buf []byte
	crc uint32
	n   int64
	err error
}

// NewWriter returns a Writer on w with a 64 KiB buffer.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, buf: make([]byte, 0, bufSize)} }

// Byte writes one byte.
func (e *Writer) Byte(b byte) { e.buf = append(e.buf, b); e.room() }

// Bytes writes b.
func (e *Writer) Bytes(b []byte) { e.buf = append(e.buf, b...); e.room() }

// U32 writes v, little-endian.
func (e *Writer) U32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v); e.room() }

// U64 writes v, little-endian.
func (e *Writer) U64(v uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, v); e.room() }

func (e *Writer) room() {
	if len(e.buf) > cap(e.buf)-16 {
		e.flush()
	}
}

// flush adds the buffer to the checksum and writes it.
func (e *Writer) flush() {
	e.crc = crc32.Update(e.crc, castagnoli, e.buf)
	if e.err == nil && len(e.buf) > 0 {
		var k int
		k, e.err = e.w.Write(e.buf)
		e.n += int64(k)
	}
	e.buf = e.buf[:0]
}

// Finish writes the CRC-32C of everything written before it, as a
// little-endian uint32, and returns the bytes written in all and the first
// error.
func (e *Writer) Finish() (int64, error) {
	e.flush()
	e.buf = binary.LittleEndian.AppendUint32(e.buf, e.crc)
	if e.err == nil {
		var k int
		k, e.err = e.w.Write(e.buf)
		e.n += int64(k)
	}
	e.buf = e.buf[:0]
	return e.n, e.err
}

// Reader reads exact byte counts from an io.Reader, keeping the offset and
// the CRC-32C of the bytes read. Its errors come from its format: a file
// that ends early is a format error made by the function given to
// NewReader; a failing reader's error is wrapped with the format's prefix.
// It is not safe for concurrent use.
type Reader struct {
	r         io.Reader
	buf       []byte
	off       int64
	crc       uint32
	prefix    string
	formatErr func(off int64, msg string) error
}

// NewReader returns a Reader on r with a 64 KiB scratch buffer. prefix
// starts the messages of I/O errors ("hpa"); formatErr makes the format's
// error for a truncated file.
func NewReader(r io.Reader, prefix string, formatErr func(off int64, msg string) error) *Reader {
	return &Reader{r: r, buf: make([]byte, bufSize), prefix: prefix, formatErr: formatErr}
}

// Scratch returns the first n bytes of the reader's buffer, for a header or
// a checksum read with Read; n is at most 64 KiB. Records overwrites it.
func (d *Reader) Scratch(n int) []byte { return d.buf[:n] }

// Offset returns the number of bytes read so far.
func (d *Reader) Offset() int64 { return d.off }

// CRC returns the CRC-32C of the bytes read so far.
func (d *Reader) CRC() uint32 { return d.crc }

// Header reads a file's header into hdr, which starts with magic: a file
// that starts otherwise is refused at the header's offset, "not a KIND file: it
// starts …, want …", even when it is shorter than the header, so that a
// file of another kind says what it is not before it says it is short.
func (d *Reader) Header(hdr []byte, magic, kind string) error {
	start := d.off
	err := d.Read(hdr[:len(magic)], "magic")
	if n := d.off - start; string(hdr[:n]) != magic[:n] {
		return d.formatErr(start, fmt.Sprintf("not a %s file: it starts %q, want %q", kind, hdr[:n], magic))
	}
	if err != nil {
		return err
	}
	return d.Read(hdr[len(magic):], "header")
}

// Checksum reads the file's trailing CRC-32C and checks it against the
// bytes read before it: a mismatch is a format error at its offset.
func (d *Reader) Checksum() error {
	at, want := d.off, d.crc
	sum := d.Scratch(4)
	if err := d.Read(sum, "checksum"); err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint32(sum); got != want {
		return d.formatErr(at, fmt.Sprintf("checksum %08x, want %08x: the file is damaged", got, want))
	}
	return nil
}

// Read fills p; the end of the input before p is full is a truncated file,
// reported as a format error naming what was being read.
func (d *Reader) Read(p []byte, what string) error {
	k, err := io.ReadFull(d.r, p)
	d.crc = crc32.Update(d.crc, castagnoli, p[:k])
	d.off += int64(k)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return d.formatErr(d.off, fmt.Sprintf("truncated file: it ends in the %s", what))
	case err != nil:
		return fmt.Errorf("%s: reading the %s at byte %d: %w", d.prefix, what, d.off, err)
	}
	return nil
}

// Records reads n records of size bytes, a buffer at a time, and passes each
// to fn; memory does not grow with n.
func (d *Reader) Records(n, size int, what string, fn func([]byte)) error {
	per := len(d.buf) / size
	for n > 0 {
		k := min(n, per)
		b := d.buf[:k*size]
		if err := d.Read(b, what); err != nil {
			return err
		}
		for i := range k {
			fn(b[i*size : (i+1)*size])
		}
		n -= k
	}
	return nil
}

// FNV is a 64-bit FNV-1a hash, for the fingerprints that bind files to what
// they were built from. Unlike hash/fnv it is a plain value: hashing
// allocates nothing. The zero value is not ready; start from NewFNV.
type FNV struct{ Sum uint64 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// NewFNV returns an FNV-1a hash of nothing yet.
func NewFNV() FNV { return FNV{Sum: fnvOffset} }

// Byte adds one byte.
func (f *FNV) Byte(b byte) { f.Sum = (f.Sum ^ uint64(b)) * fnvPrime }

// U32 adds v, little-endian.
func (f *FNV) U32(v uint32) {
	for range 4 {
		f.Byte(byte(v))
		v >>= 8
	}
}

// U64 adds v, little-endian.
func (f *FNV) U64(v uint64) {
	for range 8 {
		f.Byte(byte(v))
		v >>= 8
	}
}
