package atomicfile_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-nav/cairn/internal/atomicfile"
)

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "atomicfile")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "paths.txt")
	n, err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "0,0 1,1 2,1")
		return err
	})
	b, _ := os.ReadFile(path)
	fmt.Println(n, err, string(b))
	// Output: 12 <nil> 0,0 1,1 2,1
}
