-- The four workloads of tools/bench/host in Lua (5.4 or LuaJIT): the same loops as the Vx
-- programs in vx/, written as plain Lua. Prints the kernel's CPU seconds (os.clock) and a check value.
-- usage: lua bench.lua scale ROWS COLS | gelu N | rowsums ROWS | histogram N
local w, a, b = arg[1], tonumber(arg[2]), tonumber(arg[3] or "0")
local clock = os.clock
local t0, t1

if w == "scale" then
  local g = {}
  for y = 0, a - 1 do
    local row = {}
    for x = 0, b - 1 do row[x] = 1.0 end
    g[y] = row
  end
  t0 = clock()
  for y = 0, a - 1 do
    for x = 0, b - 1 do
      g[y][x] = g[y][x] * 2.0 + y
    end
  end
  t1 = clock()
  print(string.format("%.9f %g %g", t1 - t0, g[0][0], g[a - 1][b - 1]))
elseif w == "gelu" then
  -- Lua 5.4 has no math.tanh: tanh from exp.
  local exp = math.exp
  local function tanh(x)
    if x > 20 then return 1.0 elseif x < -20 then return -1.0 end
    local e = exp(2 * x)
    return (e - 1) / (e + 1)
  end
  local inp, out = {}, {}
  for i = 0, a - 1 do inp[i] = ((i % 2001) - 1000.0) * 0.004 end
  t0 = clock()
  for i = 0, a - 1 do
    local x = inp[i]
    local cube = 0.044715 * x * x * x
    out[i] = 0.5 * x * (1.0 + tanh(0.7978846 * (x + cube)))
  end
  t1 = clock()
  print(string.format("%.9f %g %g", t1 - t0, out[0], out[a - 1]))
elseif w == "rowsums" then
  local n = 1024
  local m, sums, part = {}, {}, {}
  for r = 0, a - 1 do
    local row = {}
    for c = 0, n - 1 do row[c] = 0.5 end
    m[r] = row
  end
  for c = 0, n - 1 do m[0][c] = c end
  t0 = clock()
  for r = 0, a - 1 do
    for t = 0, n - 1 do part[t] = m[r][t] end
    local h = math.floor(n / 2)
    while h >= 1 do
      for i = 0, h - 1 do part[i] = part[i] + part[i + h] end
      h = math.floor(h / 2)
    end
    sums[r] = part[0]
  end
  t1 = clock()
  print(string.format("%.9f %g %g", t1 - t0, sums[0], sums[a - 1]))
elseif w == "histogram" then
  local v, bins = {}, {}
  for i = 0, a - 1 do v[i] = (i * 7) % 8 end
  for k = 0, 7 do bins[k] = 0 end
  t0 = clock()
  for i = 0, a - 1 do
    local x = v[i]
    bins[x] = bins[x] + 1
  end
  t1 = clock()
  print(string.format("%.9f %d %d", t1 - t0, bins[0], bins[7]))
else
  os.exit(2)
end
