package atomicfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-nav/cairn/internal/atomicfile"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	n, err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "new contents")
		return err
	})
	if err != nil || n != 12 {
		t.Fatalf("Write: %d bytes, %v; want 12, nil", n, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new contents" {
		t.Fatalf("file holds %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}

	// A failed write leaves the old file and no temporary file.
	boom := errors.New("boom")
	_, err = atomicfile.Write(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want boom naming %s", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "new contents" {
		t.Fatalf("file holds %q after a failed write", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d entries in the folder, want 1", len(entries))
	}
	if _, err := atomicfile.Write(filepath.Join(dir, "missing", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Fatal("Write into a missing folder succeeded")
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string // want: in the error; empty for none
	}{
		{"folder exists", filepath.Join(dir, "p.png"), ""},
		{"file exists", file, ""},
		{"current folder", "p.png", ""},
		{"empty", "", "empty path"},
		{"missing folder", filepath.Join(dir, "missing", "p.png"), filepath.Join(dir, "missing", "p.png") + ": stat "},
		{"folder is a file", filepath.Join(file, "p.png"), file + " is not a directory"},
		{"a folder", dir, dir + ": is a directory, want a file"},
		{"the root", "/", "/: names a directory"},
		{"a trailing slash", filepath.Join(dir, "new") + "/", "names a directory"},
		{"dot", ".", "names a directory"},
		{"dot dot", dir + "/..", "names a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := atomicfile.Check(tc.path)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("Check left %d entries in the folder, want 1", len(entries))
	}
}

// TestWriteRemovesStale leaves temporary files as a killed writer would:
// Write removes those older than StaleAge and keeps younger ones, and other
// files that only look alike.
func TestWriteRemovesStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.hpa")
	old := time.Now().Add(-atomicfile.StaleAge - time.Minute)
	files := map[string]bool{ // name: whether Write should keep it
		".g.hpa.tmp123": false,
		".g.hpa.tmp9":   true, // young
		".g.hpa.tmpx1":  true, // not of Write's pattern
		".h.hpa.tmp123": true, // another file's
		"g.hpa.tmp123":  true,
	}
	for name, keep := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !keep || name != ".g.hpa.tmp9" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "graph"); return err }); err != nil {
		t.Fatal(err)
	}
	for name, keep := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != keep {
			t.Errorf("%s kept: %v, want %v", name, err == nil, keep)
		}
	}
}
