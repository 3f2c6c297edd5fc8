package binfile_test

import (
	"bytes"
	"fmt"

	"github.com/cairn-nav/cairn/internal/binfile"
)

func Example() {
	var buf bytes.Buffer
	w := binfile.NewWriter(&buf)
	w.Bytes([]byte("DEMO"))
	w.U32(42)
	n, _ := w.Finish() // appends the CRC-32C of the bytes before it

	r := binfile.NewReader(&buf, "demo", func(off int64, msg string) error { return fmt.Errorf("demo: %s (byte %d)", msg, off) })
	head := r.Scratch(8)
	if err := r.Read(head, "header"); err != nil {
		panic(err)
	}
	want := r.CRC()
	sum := make([]byte, 4)
	err := r.Read(sum, "checksum")
	fmt.Println(n, string(head[:4]), head[4], err, want == uint32(sum[0])|uint32(sum[1])<<8|uint32(sum[2])<<16|uint32(sum[3])<<24)
	fmt.Println(r.Read(make([]byte, 1), "trailer"))
	// Output:
	// 12 DEMO 42 <nil> true
	// demo: truncated file: it ends in the trailer (byte 12)
}
