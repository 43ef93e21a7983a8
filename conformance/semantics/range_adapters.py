#!/usr/bin/python3
# The expected output of range_adapters.vx, computed independently of vx: a range is Python's
# `range` (exact integers, lazy), `.rev()` is `[::-1]` and `.step_by(k)` is `[::k]`, which is
# what Rust's adapters yield (the first element, then every k-th; reversed: the same, last
# first). Prints what the program prints.
I8, U8 = (-128, 127), (0, 255)
I32 = (-2**31, 2**31 - 1)
I64 = (-2**63, 2**63 - 1)
U64 = (0, 2**64 - 1)


def rng(a, b, inclusive=False):
    return range(a, b + 1 if inclusive else b)


def rev(r):
    return r[::-1]


def step(r, k):
    assert k >= 1
    return r[::k]


out = []


def line(xs):
    out.append("".join("%d " % x for x in xs))


line(rev(rng(0, 10)))
line(rev(rng(0, 9, True)))
line(step(rng(0, 10), 3))
line(step(rng(0, 9, True), 4))
line(rev(step(rng(0, 10), 3)))
line(step(rev(rng(0, 10)), 3))
line(rev(step(rng(0, 9, True), 4)))
line(rev(step(rng(0, 11), 3)))
line(step(rev(rng(0, 11)), 3))
line(step(step(rng(-7, 30), 2), 3))
line(rev(step(rev(step(rng(0, 20), 2)), 3)))
line(rev(rev(rng(3, 8, True))))
passes = len(rev(rng(5, 5))) + len(step(rng(5, 4, True), 2)) + len(step(rev(rng(9, 0)), 1))
passes += sum(rng(0, 3))
out.append("passes %d" % passes)
line(list(step(rng(250, 255, True), 2)) + list(rev(rng(250, 255, True))) +
     list(step(rng(0, 255, True), 1000)) + list(step(rev(rng(0, 255, True)), 100)))
line(list(step(rng(I32[1] - 7, I32[1], True), 3)) + list(rev(rng(I32[1] - 2, I32[1], True))) +
     list(step(rev(rng(I32[0], I32[0] + 5)), 2)))
line(list(step(rng(-128, 127, True), 200)) + list(step(rev(rng(-128, 127, True)), 85)))
line(step(rng(I64[0], I64[1], True), U64[1]))
line(step(rev(rng(I64[0], I64[1], True)), 9223372036854775807))
line(step(rev(rng(0, U64[1], True)), 6148914691236517205))
line(step(rng(0, 40), 7))
# The bounds, then each step, once: `bound 12 step 5 step 2`, then the passes.
out.append("bound 12 step 5 step 2 " +
           "".join("%d:%d " % (i, i * i) for i in step(rev(step(rng(0, 12), 5)), 2)))
seen = 0
stop = False
for i in step(rev(rng(0, 50)), 7):
    for j in rev(step(rng(0, i, True), 5)):
        if j % 2 == 1:
            continue
        if i + j == 32:
            break  # continue 'outer
        if j == 10 and i < 20:
            stop = True
            break
        seen = (seen * 3 + j + i) % 1000003
    if stop:
        break
out.append("seen %d" % seen)
last = 0
for i in step(rev(rng(1, 100, True)), 9):
    if i < 40:
        break
    last = i
out.append("last %d" % last)
print("\n".join(out))
