// Package atomicfile writes files so that readers see either the old file
// or the whole new one, never a part: the tools' outputs (graphs, maps,
// path lists, pictures) go through it.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Write calls write with a temporary file in path's directory, named
// .BASE.tmpNNN for a path whose last element is BASE, then sets its mode to
// 0644, syncs and closes it, and renames it over path. It returns the number
// of bytes written. On any error the temporary file is removed, path is left
// as it was, and the error names path.
//
// A process killed while writing leaves its temporary file behind. Write
// first removes the temporary files of path that have not been written to
// for [StaleAge]; a younger one may belong to a writer still at work, and
// is left alone.
func Write(path string, write func(w io.Writer) error) (n int64, err error) {
	if err := Check(path); err != nil {
		return 0, fmt.Errorf("writing %w", err)
	}
	removeStale(path)
	f, err := os.CreateTemp(filepath.Dir(path), tempPrefix(path)+"*")
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

// StaleAge is how long a temporary file of [Write] must have gone unwritten
// before a later Write of the same path removes it.
const StaleAge = time.Hour

// tempPrefix is the start of the names of path's temporary files.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp" }

// removeStale removes the temporary files of path older than StaleAge, as
// far as it can; a file it cannot remove is left, as it does no harm.
func removeStale(path string) {
	dir, prefix := filepath.Dir(path), tempPrefix(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) || !allDigits(e.Name()[len(prefix):]) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > StaleAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// Check returns an error unless [Write] could write path, as far as can be
// told before the work that makes its contents: path names a file (not a
// directory, nor a path ending in a separator), its directory exists, and a
// temporary file can be made there (one is made and removed). Tools call it
// first, so that a long command fails before its work rather than after.
// The error starts with path, as in "out/r.png: stat out: no such file or
// directory".
func Check(path string) error {
	if path == "" {
		return fmt.Errorf("empty path")
	}
	if strings.HasSuffix(path, string(filepath.Separator)) || strings.HasSuffix(path, "/") {
		return fmt.Errorf("%s: names a directory, want a file", path)
	}
	switch b := filepath.Base(path); b {
	case ".", "..", string(filepath.Separator):
		return fmt.Errorf("%s: names a directory, want a file", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: is a directory, want a file", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
