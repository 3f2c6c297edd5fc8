package atomicfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
