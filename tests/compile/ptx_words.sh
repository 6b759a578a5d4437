#!/bin/sh
# Checks the PTX of tests/compile/exercise.sh's kernels against the plans
# stated in MODULE.cuh: each shfl_idx_T kernel has exactly one shfl.sync per
# planned 32-bit word, and no kernel touches local memory.
# usage: ptx_words.sh MODULE.cuh exercise.ptx
set -e
cuh=$1
ptx=$2
status=0
if grep -q '\.local' "$ptx"; then
  echo "local memory used in $ptx:"; grep -n '\.local' "$ptx" | head -5
  status=1
fi
# "/* T: N bytes; the CUDA intrinsics" (native) or "/* T: N bytes, align" + " *   shuffle: W words"
expected=$(awk '
  /^\/\* .*: [0-9]+ bytes?; the CUDA intrinsics/ { sub(/^\/\* /, ""); split($0, a, ": "); n = a[2] + 0; print a[1] "|" int((n + 3) / 4); next }
  /^\/\* .*: [0-9]+ bytes?, align/ { sub(/^\/\* /, ""); split($0, a, ": "); name = a[1]; next }
  /^ \*   shuffle: / && name != "" { print name "|" $3; name = "" }' "$cuh")
[ -n "$expected" ] || { echo "no plans found in $cuh"; exit 1; }
checked=0
IFS='
'
for line in $expected; do
  type=${line%|*}
  words=${line#*|}
  id=$(echo "$type" | tr ' ' '_')
  got=$(awk -v k="shfl_idx_${id}P" '/^\.visible \.entry/ { on = index($0, k) > 0 } on && /shfl\.sync/ { n++ } END { print n + 0 }' "$ptx")
  if [ "$got" != "$words" ]; then
    echo "$type: $got shfl.sync in PTX, plan says $words"
    status=1
  fi
  checked=$((checked + 1))
done
echo "$checked types checked"
exit $status
