package navmesh

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cairn-nav/cairn/internal/binfile"
)

// This file writes and reads the landmarks section of a mesh file (see
// file.go for the layout): versions 3 and 4 are versions 1 and 2 with
// landmarks ([Mesh.WithLandmarks]).

// Versions of a mesh file with landmarks, without and with area types.
const (
	fileLandmarks      = 3
	fileAreasLandmarks = 4
)

// maxLandmarkDist is the largest distance a landmarks section may hold.
const maxLandmarkDist = 1e15

// fileVersionOf returns the version of the file of a mesh with or without
// area types and landmarks.
func fileVersionOf(areas, lm bool) uint32 {
	switch {
	case areas && lm:
		return fileAreasLandmarks
	case lm:
		return fileLandmarks
	case areas:
		return fileAreas
	}
	return fileVersion
}

// versionParts returns whether a file of version v has an areas section
// and a landmarks section, and whether v is a known version.
func versionParts(v uint32) (areas, lm, ok bool) {
	switch v {
	case fileVersion:
		return false, false, true
	case fileAreas:
		return true, false, true
	case fileLandmarks:
		return false, true, true
	case fileAreasLandmarks:
		return true, true, true
	}
	return false, false, false
}

// writeLandmarks writes m's landmarks section, when it has landmarks.
func (m *Mesh) writeLandmarks(e *binfile.Writer) {
	lm := m.lm
	if lm == nil {
		return
	}
	e.U32(uint32(lm.k))
	for _, v := range lm.at {
		e.U32(uint32(v))
	}
	for _, c := range lm.d {
		for _, d := range c {
			e.U32(math.Float32bits(d))
		}
	}
}

// readLandmarks reads the landmarks section of a file of n vertices into
// f, starting at f.lmAt; the checks that need the whole file wait for
// checkLandmarks.
func (f *meshFile) readLandmarks(d *binfile.Reader, n int) error {
	le := binary.LittleEndian
	b := d.Scratch(4)
	if err := d.Read(b, "landmark count"); err != nil {
		return err
	}
	k := le.Uint32(b)
	if k < 1 || k > MaxLandmarks {
		return &FormatError{f.lmAt, fmt.Sprintf("%d landmarks, want 1 to %d", k, MaxLandmarks)}
	}
	f.lmK = int(k)
	f.lmAt32 = make([]int32, 0, k)
	err := d.Records(int(k), 4, "landmarks", func(b []byte) { f.lmAt32 = append(f.lmAt32, int32(le.Uint32(b))) })
	if err != nil {
		return err
	}
	total := n * int(k)
	f.lmD = make([]float32, 0, min(total, 1<<16))
	return d.Records(total, 4, "landmark distances", func(b []byte) { f.lmD = append(f.lmD, math.Float32frombits(le.Uint32(b))) })
}

// checkLandmarks checks the landmarks section read into f and gives them
// to m: landmarks that are vertices, each at distance 0 from itself, and
// distances that are NaN (none) or finite, at least 0 and at most
// maxLandmarkDist. It cannot check that the distances are those of the
// mesh without measuring them again: wrong ones can make a path longer
// than the shortest, never illegal.
func (f *meshFile) checkLandmarks(m *Mesh) error {
	if f.lmK == 0 {
		return nil
	}
	k := f.lmK
	for i, v := range f.lmAt32 {
		at := f.lmAt + 4 + 4*int64(i)
		if v < 0 || int(v) >= len(m.verts) {
			return &FormatError{at, fmt.Sprintf("landmark %d is vertex %d, want one of the %d", i, uint32(v), len(m.verts))}
		}
		if d := f.lmD[int(v)*k+i]; d != 0 {
			return &FormatError{f.lmDistOffset(int(v)*k + i), fmt.Sprintf("landmark %d is at distance %g from itself, want 0", i, d)}
		}
	}
	for j, d := range f.lmD {
		if x := float64(d); !math.IsNaN(x) && !(x >= 0 && x <= maxLandmarkDist) {
			return &FormatError{f.lmDistOffset(j), fmt.Sprintf("vertex %d is at distance %g from landmark %d, want NaN (none) or 0 to %g", j/k, x, j%k, maxLandmarkDist)}
		}
	}
	m.lm = newLandmarks(k, f.lmAt32, len(m.verts), f.lmD)
	return nil
}

// lmDistOffset returns the offset of the j-th landmark distance.
func (f *meshFile) lmDistOffset(j int) int64 {
	return f.lmAt + 4 + 4*int64(f.lmK) + 4*int64(j)
}
