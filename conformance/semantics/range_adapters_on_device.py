#!/usr/bin/python3
# The expected output of range_adapters_on_device.vx, computed independently of vx: each pass of
# the across loops in turn (their order does not change the result), Python's `range` for a
# range, `[::-1]` for `.rev()` and `[::k]` for `.step_by(k)` (Rust's adapters), exact integers
# (no value here leaves its type).
walk = [[0] * 64 for _ in range(4)]
hist = [[0] * 32 for _ in range(4)]
for b in range(4):
    for x in range(64):
        acc = 0
        k = x % 5 + 1
        for i in range(b, x + b + 1)[::-1][::k]:
            if i % 7 == 3:
                continue
            acc = (acc * 3 + i) % 1000000007
        for c in range(240, 256)[::x + 1][::-1]:
            acc += c * 1000
        walk[b][x] = acc
    for j in range(0, 32)[::-1][::b + 1]:
        for l in range(32):
            if l <= j:
                hist[b][l] = (hist[b][l] * 2 + j) % 1009
s = 0
for b in range(4):
    for x in range(64):
        s = (s * 31 + walk[b][x]) % 1000000007
hs = 0
for b in range(4):
    for l in range(32):
        hs = (hs * 7 + hist[b][l]) % 1000003
print(s, hs)
print(walk[0][0], walk[1][9], walk[3][63], hist[2][0])
