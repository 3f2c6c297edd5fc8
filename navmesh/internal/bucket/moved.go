package bucket

// Moved sets dst[i] to src[i] + d for each i of src; dst must be as long.
// It works eight entries at a time, which the compiler does not do by
// itself: on long arrays of IDs, as the rows an update moves, it runs
// about twice as fast as the plain loop.
func Moved[T ~int32](dst, src []T, d T) {
	dst = dst[:len(src)]
	i := 0
	for ; i+8 <= len(src); i += 8 {
		s, t := (*[8]T)(src[i:i+8]), (*[8]T)(dst[i:i+8])
		t[0], t[1], t[2], t[3] = s[0]+d, s[1]+d, s[2]+d, s[3]+d
		t[4], t[5], t[6], t[7] = s[4]+d, s[5]+d, s[6]+d, s[7]+d
	}
	for ; i < len(src); i++ {
		dst[i] = src[i] + d
	}
}

// MovedFrom sets dst[i] to src[i], plus d where src[i] ≥ from, for each i
// of src; dst must be as long, and every from − 1 − src[i] must be an
// int32. It has no branch to mispredict (an ID below from, or −1 for
// none, stays as it is), and works eight entries at a time, as Moved.
func MovedFrom[T ~int32](dst, src []T, from, d T) {
	dst = dst[:len(src)]
	m := from - 1
	i := 0
	for ; i+8 <= len(src); i += 8 {
		s, t := (*[8]T)(src[i:i+8]), (*[8]T)(dst[i:i+8])
		t[0], t[1], t[2], t[3] = s[0]+d&((m-s[0])>>31), s[1]+d&((m-s[1])>>31), s[2]+d&((m-s[2])>>31), s[3]+d&((m-s[3])>>31)
		t[4], t[5], t[6], t[7] = s[4]+d&((m-s[4])>>31), s[5]+d&((m-s[5])>>31), s[6]+d&((m-s[6])>>31), s[7]+d&((m-s[7])>>31)
	}
	for ; i < len(src); i++ {
		dst[i] = src[i] + d&((m-src[i])>>31)
	}
}
