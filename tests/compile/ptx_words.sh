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
# Spec types state their plan: "/* T: N bytes, align" + " *   shuffle: W words". Builtin
# scalars move as ceil(size / 4) words (one for those of 1 and 2 bytes); their sizes, on
# x86-64 and the GPU alike, are listed here.
expected=$(awk '
  BEGIN { split("bool:1,char:1,signed char:1,unsigned char:1,short:2,unsigned short:2,int:4,unsigned int:4," \
                "long:8,unsigned long:8,long long:8,unsigned long long:8,float:4,double:8,__half:2,__nv_bfloat16:2", s, ",")
          for (i in s) { split(s[i], kv, ":"); size[kv[1]] = kv[2] } }
  /^template <> struct SharedMem<[^>]*> \{ / { t = $0; sub(/^template <> struct SharedMem</, "", t); sub(/>.*/, "", t)
    if (t in size) print t "|" int((size[t] + 3) / 4); next }
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
