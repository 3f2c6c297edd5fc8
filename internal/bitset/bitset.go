// Package bitset reads words of bits at any offset from slices of 64-bit
// words, bit 0 of the first word first: the row and column bitsets of
// package grid and the target bitsets of hpa's jump point runs.
package bitset

// Word returns bits off to off+63 of words as one word, bit off lowest;
// bits before the first word and after the last read as 0. It is O(1).
func Word(words []uint64, off int) uint64 {
	if off < 0 {
		if off <= -64 || len(words) == 0 {
			return 0
		}
		return words[0] << uint(-off)
	}
	i, o := off>>6, uint(off&63)
	var w uint64
	if i < len(words) {
		w = words[i] >> o
	}
	if o != 0 && i+1 < len(words) {
		w |= words[i+1] << (64 - o)
	}
	return w
}
