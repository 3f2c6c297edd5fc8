package grid

import (
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Transform maps a game's world coordinates to the grid's and back: cells
// are squares of CellSize world units, and the grid's corner (0, 0), the
// top-left corner of cell (0, 0), lies at Origin. World and grid axes point
// the same way (grid y grows with world y), so a world point p has the
// continuous grid coordinates (p−Origin)/CellSize, and cell (x, y) covers
// the world square Origin + [x, x+1)·CellSize × [y, y+1)·CellSize.
//
// The zero value is the identity: a CellSize of 0 means 1, and the origin is
// (0, 0). A negative, NaN or infinite CellSize, or an origin that is not
// finite, is a caller's mistake that [Transform.Check] reports; the methods
// do not check, and return meaningless but harmless values then (never a
// panic).
//
// The methods are O(1), do not allocate, and are safe for concurrent use; a
// Transform is a plain value.
//
// Rounding: [Transform.ToWorld] and [Transform.ToGrid] are inverse up to
// a rounding error of a few units in the last place. [Transform.ToCell] of
// [Transform.CellCentre](c) is always c, but a point on the edge between two
// cells may fall in either of them unless CellSize is a power of two (or a
// small integer) and Origin a multiple of it, when the arithmetic is exact.
type Transform struct {
	// CellSize is the side of a cell in world units; 0 means 1.
	CellSize float64
	// Origin is the world position of the top-left corner of cell (0, 0).
	Origin mgl64.Vec2
}

// Check reports whether the transform is usable: CellSize finite and not
// negative, Origin finite. Its error says which field is wrong.
func (t Transform) Check() error {
	if !(t.CellSize >= 0) || math.IsInf(t.CellSize, 1) {
		return fmt.Errorf("grid: transform cell size %v, want a finite size ≥ 0 (0 means 1)", t.CellSize)
	}
	for _, v := range t.Origin {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("grid: transform origin (%v, %v) is not finite", t.Origin[0], t.Origin[1])
		}
	}
	return nil
}

func (t Transform) size() float64 {
	if t.CellSize == 0 {
		return 1
	}
	return t.CellSize
}

// ToGrid returns the continuous grid coordinates of the world point p, in
// which cell (x, y) covers [x, x+1) × [y, y+1): the coordinates that
// [Grid.SegmentFree] and the layers above the grid take.
func (t Transform) ToGrid(p mgl64.Vec2) mgl64.Vec2 {
	s := t.size()
	return mgl64.Vec2{(p[0] - t.Origin[0]) / s, (p[1] - t.Origin[1]) / s}
}

// ToWorld returns the world point of the continuous grid coordinates q; it
// is the inverse of [Transform.ToGrid].
func (t Transform) ToWorld(q mgl64.Vec2) mgl64.Vec2 {
	s := t.size()
	return mgl64.Vec2{t.Origin[0] + q[0]*s, t.Origin[1] + q[1]*s}
}

// ToCell returns the cell holding the world point p: the floor of
// [Transform.ToGrid](p). The cell may be outside any grid; check it with
// [Grid.In]. A coordinate that is NaN, infinite, or beyond the range of int
// saturates to [math.MinInt] or [math.MaxInt] (NaN gives math.MinInt), a
// cell outside every grid.
func (t Transform) ToCell(p mgl64.Vec2) image.Point {
	q := t.ToGrid(p)
	return image.Point{floorInt(q[0]), floorInt(q[1])}
}

// CellCentre returns the world position of the centre of cell c.
func (t Transform) CellCentre(c image.Point) mgl64.Vec2 {
	return t.ToWorld(mgl64.Vec2{float64(c.X) + 0.5, float64(c.Y) + 0.5})
}

// floorInt returns ⌊v⌋ as an int, saturating outside the range of int and
// mapping NaN to math.MinInt.
func floorInt(v float64) int {
	f := math.Floor(v)
	switch {
	case math.IsNaN(f) || f < float64(math.MinInt):
		return math.MinInt
	case f >= -float64(math.MinInt): // 2⁶³ (2³¹ on 32-bit systems), exactly
		return math.MaxInt
	}
	return int(f)
}
