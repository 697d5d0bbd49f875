# Sourced by the benchmark scripts whose anchors run on Debian's OpenBLAS
# (numpy, scipy, scikit-learn). OpenBLAS 0.3.21 (Debian 12) picks its
# kernels by the CPU model: on a core newer than it knows (Intel's
# Emerald Rapids, model 207) it falls back to its generic Prescott (SSE3)
# kernels, and on AMD's Zen 4 and 5, which have AVX-512, it takes its
# Haswell (AVX2) ones. gesdd at 500 x 500 took 106.9 ms with Prescott's
# on such an Intel VM against 50.6 ms with SkylakeX's (svd_anchors.sh). An anchor must run
# at its best (DESIGN.md: compare against the AVX-512 kernels where the
# CPU has them), so when OPENBLAS_CORETYPE is not set this sets it to
# SkylakeX on a CPU with AVX-512 whose core OpenBLAS would run without
# it, and to Haswell on one with AVX2 where OpenBLAS would take a generic
# core, and says so on stderr; a choice of OpenBLAS's that already uses
# the CPU's widest vectors stands.
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
  [ -n "$core" ] || return 0 # numpy loaded no OpenBLAS
  local want=
  if grep -qw avx512f /proc/cpuinfo; then
    case "$core" in
    SkylakeX | Cooperlake | SapphireRapids) ;;
    *) want=SkylakeX ;;
    esac
  elif grep -qw avx2 /proc/cpuinfo; then
    case "$core" in
    Prescott | Core2 | Penryn | Dunnington | Nehalem | Atom | Katmai | Coppermine | Northwood | Banias | Opteron | Barcelona | Bobcat) want=Haswell ;;
    esac
  fi
  if [ -n "$want" ]; then
    export OPENBLAS_CORETYPE=$want
    echo "OpenBLAS would use its $core kernels on this CPU: OPENBLAS_CORETYPE=$want" >&2
  fi
}
