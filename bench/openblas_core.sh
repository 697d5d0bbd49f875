# Sourced by the benchmark scripts whose anchors run on Debian's OpenBLAS
# (numpy, scipy, scikit-learn). OpenBLAS 0.3.21 (Debian 12) picks its
# kernels by the CPU model, and on a core newer than it knows (Intel's
# Emerald Rapids, model 207) it falls back to its generic Prescott (SSE3)
# kernels: gesdd at 500 x 500 then took 99.5 ms on such a VM, against
# 55.9 ms with the SkylakeX kernels. An anchor must run at its best, so
# when OPENBLAS_CORETYPE is not set and OpenBLAS would take one of its
# generic cores, this sets it to SkylakeX on a CPU with AVX-512 and to
# Haswell on one with AVX2 (a core OpenBLAS knows keeps its own choice),
# and says so on stderr.
openblas_core() {
  [ -n "${OPENBLAS_CORETYPE:-}" ] && return 0
  local core
  core=$(/usr/bin/python3 - 2>/dev/null <<'PY'
import ctypes, numpy
path = next((l.split()[-1] for l in open('/proc/self/maps') if 'openblas' in l.split()[-1]), None)
if path:
    lib = ctypes.CDLL(path)
    lib.openblas_get_corename.restype = ctypes.c_char_p
    print(lib.openblas_get_corename().decode())
PY
) || return 0
  case "$core" in
  Prescott | Core2 | Penryn | Dunnington | Nehalem | Atom | Katmai | Coppermine | Northwood | Banias | Opteron | Barcelona | Bobcat) ;;
  *) return 0 ;;
  esac
  local want=
  if grep -qw avx512f /proc/cpuinfo; then
    want=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then
    want=Haswell
  fi
  if [ -n "$want" ]; then
    export OPENBLAS_CORETYPE=$want
    echo "OpenBLAS would use its generic $core kernels on this CPU: OPENBLAS_CORETYPE=$want" >&2
  fi
}
