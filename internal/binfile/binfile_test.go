package binfile_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/fnv"
	"io"
	"testing"

	"github.com/cairn-nav/cairn/internal/binfile"
)

type formatError struct {
	off int64
	msg string
}

func (e *formatError) Error() string { return e.msg }

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := binfile.NewWriter(&buf)
	w.Bytes([]byte("MAGIC"))
	w.Byte(7)
	w.U32(0xdeadbeef)
	for i := range 20000 { // more than one buffer
		w.U64(uint64(i) * 0x9e3779b97f4a7c15)
	}
	n, err := w.Finish()
	if err != nil || n != int64(buf.Len()) || n != 5+1+4+8*20000+4 {
		t.Fatalf("Finish: %d bytes, %v; buffer holds %d", n, err, buf.Len())
	}
	data := buf.Bytes()
	if got, want := binary.LittleEndian.Uint32(data[len(data)-4:]), crc32.Checksum(data[:len(data)-4], crc32.MakeTable(crc32.Castagnoli)); got != want {
		t.Fatalf("stored CRC %08x, want %08x", got, want)
	}

	r := binfile.NewReader(bytes.NewReader(data), "test", func(off int64, msg string) error { return &formatError{off, msg} })
	hdr := r.Scratch(10)
	if err := r.Read(hdr, "header"); err != nil || string(hdr[:5]) != "MAGIC" || hdr[5] != 7 || binary.LittleEndian.Uint32(hdr[6:]) != 0xdeadbeef {
		t.Fatalf("header %q, %v", hdr, err)
	}
	i := 0
	err = r.Records(20000, 8, "values", func(b []byte) {
		if v := binary.LittleEndian.Uint64(b); v != uint64(i)*0x9e3779b97f4a7c15 {
			t.Fatalf("value %d: %x", i, v)
		}
		i++
	})
	if err != nil || i != 20000 {
		t.Fatalf("records: %d read, %v", i, err)
	}
	want := r.CRC()
	sum := r.Scratch(4)
	if err := r.Read(sum, "checksum"); err != nil || binary.LittleEndian.Uint32(sum) != want || r.Offset() != int64(len(data)) {
		t.Fatalf("checksum: %v, offset %d", err, r.Offset())
	}
	// One byte more is a truncated file, reported by the format's error.
	err = r.Read(make([]byte, 1), "trailer")
	var fe *formatError
	if !errors.As(err, &fe) || fe.off != int64(len(data)) || fe.msg != "truncated file: it ends in the trailer" {
		t.Fatalf("read past the end: %v", err)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error)  { return 0, errors.New("disk on fire") }
func (failing) Write([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestErrors(t *testing.T) {
	r := binfile.NewReader(failing{}, "test", func(off int64, msg string) error { return &formatError{off, msg} })
	if err := r.Read(make([]byte, 4), "header"); err == nil || err.Error() != "test: reading the header at byte 0: disk on fire" {
		t.Fatalf("error %v", err)
	}
	w := binfile.NewWriter(failing{})
	w.U32(1)
	if _, err := w.Finish(); err == nil {
		t.Fatal("Finish on a failing writer: no error")
	}
	var _ io.Writer = failing{}
}

func TestFNV(t *testing.T) {
	f := binfile.NewFNV()
	f.Byte(1)
	f.U32(0x05040302)
	f.U64(0x0d0c0b0a09080706)
	h := fnv.New64a()
	h.Write([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	if f.Sum != h.Sum64() {
		t.Fatalf("FNV %x, hash/fnv %x", f.Sum, h.Sum64())
	}
}

func TestHeader(t *testing.T) {
	for _, tc := range []struct {
		data string
		off  int64
		msg  string // "" for none
	}{
		{"MAGICxxxx", 0, ""},
		{"MAGICxx", -1, "truncated"}, // the magic, then too short
		{"OTHER", 0, `not a test file: it starts "OTHER", want "MAGIC"`},
		{"MA", -1, "truncated"}, // a short file that starts right
		{"MX", 0, `not a test file: it starts "MX", want "MAGIC"`}, // short and wrong: wrong first
	} {
		r := binfile.NewReader(bytes.NewReader([]byte(tc.data)), "test", func(off int64, msg string) error { return &formatError{off, msg} })
		hdr := make([]byte, 9)
		err := r.Header(hdr, "MAGIC", "test")
		if tc.msg == "" {
			if err != nil || string(hdr) != tc.data {
				t.Errorf("%q: %v, header %q", tc.data, err, hdr)
			}
			continue
		}
		var fe *formatError
		if !errors.As(err, &fe) || !bytes.Contains([]byte(fe.msg), []byte(tc.msg)) || tc.off >= 0 && fe.off != tc.off {
			t.Errorf("%q: error %v, want %q at %d", tc.data, err, tc.msg, tc.off)
		}
	}
}
