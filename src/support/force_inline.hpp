// VX_FORCE_INLINE: the interpreter's hot paths (an operand read in place, an index offset, a
// checked arithmetic step) are inlined into every typed node that uses them, which is what makes
// a node a superinstruction (interp/nodes.hpp: OpAny, Leaf, SlotLoad).
//
// The sanitizer build defines VX_NO_FORCED_INLINE and leaves the choice to the compiler: forced
// inlining there multiplies the instrumented code, not the checks (clang 14, ASan + UBSan, -O1:
// interp/compile_ops.cpp compiles in 57 s instead of 311 s). Inlining changes no result.
#pragma once

#if defined(VX_NO_FORCED_INLINE)
#define VX_FORCE_INLINE inline
#else
#define VX_FORCE_INLINE [[gnu::always_inline]] inline
#endif
