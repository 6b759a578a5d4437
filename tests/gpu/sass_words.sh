#!/bin/sh
# On a machine with cuobjdump: the SASS of each shfl_idx_T kernel of
# tests/compile/exercise.sh has as many SHFL instructions as the PTX has
# shfl.sync (one per planned word).  usage: sass_words.sh exercise.cu ARCH
set -e
cu=$1
arch=${2:-sm_90}
dir=$(dirname "$cu")
nvcc -std=c++17 -I"$dir" -arch="$arch" -cubin -o "$dir/exercise.cubin" "$cu"
nvcc -std=c++17 -I"$dir" -arch="$arch" -ptx -o "$dir/exercise.ptx" "$cu"
cuobjdump -sass "$dir/exercise.cubin" | awk '/Function :/ { f = $3 } /SHFL/ { n[f]++ } END { for (k in n) print k, n[k] }' | sort > "$dir/sass.txt"
awk '/^\.visible \.entry/ { f = $3; sub(/\(.*/, "", f) } /shfl\.sync/ { n[f]++ } END { for (k in n) print k, n[k] }' "$dir/exercise.ptx" | sort > "$dir/ptx.txt"
status=0
while read -r f want; do
  case $f in *shfl_idx_*) ;; *) continue ;; esac
  got=$(awk -v f="$f" '$1 == f { print $2 }' "$dir/sass.txt")
  printf '%-60s ptx %s sass %s\n' "$f" "$want" "${got:-0}"
  [ "${got:-0}" = "$want" ] || status=1
done < "$dir/ptx.txt"
exit $status
