// Package atomicfile writes files so that readers see either the old file
// or the whole new one, never a part: the tools' outputs (graphs, maps,
// path lists, pictures) go through it.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write calls write with a temporary file in path's directory, then sets
// its mode to 0644, syncs and closes it, and renames it over path. It returns
// the number of bytes written. On any error the temporary file is removed,
// path is left as it was, and the error names path.
func Write(path string, write func(w io.Writer) error) (n int64, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	cw := &countWriter{w: f}
	if err = write(cw); err != nil {
		return cw.n, err
	}
	if err = f.Chmod(0o644); err != nil {
		return cw.n, err
	}
	if err = f.Sync(); err != nil {
		return cw.n, err
	}
	if err = f.Close(); err != nil {
		return cw.n, err
	}
	return cw.n, os.Rename(f.Name(), path)
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
