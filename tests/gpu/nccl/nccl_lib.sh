# Sourced (sh): puts first on LD_LIBRARY_PATH the libnccl.so.2 whose version
# is that of the headers the tests were built with, when the loader would
# otherwise pick another. The device path (M_nccl_window_create) refuses a library of
# another version than the headers it was compiled with, and some machines
# carry a system libnccl2 older than the CUDA Toolkit's (docs/integration.md).
# NCCL_WANT_VERSION=2.28.9 names the version where the binaries were built on
# another machine and this one has no nccl.h beside nvcc (the GPU machines).
# Otherwise the headers are the first nccl.h that nvcc would include: beside
# nvcc, then the host compiler's /usr/local/include and /usr/include.
nccl_lib_select() {
  _cuda_inc=$(dirname "$(command -v "${NVCC:-nvcc}" 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")/../include
  _inc=$_cuda_inc/nccl.h
  for _h in "$_cuda_inc/nccl.h" /usr/local/include/nccl.h /usr/include/nccl.h; do
    if [ -f "$_h" ]; then _inc=$_h; break; fi
  done
  if [ -n "${NCCL_WANT_VERSION:-}" ]; then
    _want=$NCCL_WANT_VERSION
  elif [ -f "$_inc" ]; then
    _want=$(awk '/^#define NCCL_(MAJOR|MINOR|PATCH) /{v = v (v == "" ? "" : ".") $3} END {print v}' "$_inc")
  else
    echo "nccl_lib.sh: no nccl.h beside nvcc or in /usr/local/include, /usr/include, and no NCCL_WANT_VERSION: the loader's libnccl.so.2 stays"
    return 0
  fi
  _pip=$(python3 -c 'import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])' 2>/dev/null)
  for _lib in $(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 /{print $NF}') "$(dirname "$_inc")/../lib/libnccl.so.2" \
      "$(dirname "$_inc")/../lib64/libnccl.so.2" ${_pip:+"$_pip/lib/libnccl.so.2"}; do
    [ -f "$_lib" ] || continue
    if grep -a -q -m1 "NCCL version $_want[^0-9.]" "$_lib"; then
      _dir=$(dirname "$(readlink -f "$_lib")")
      echo "NCCL $_want (the headers' version): $_dir"
      LD_LIBRARY_PATH=$_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
      export LD_LIBRARY_PATH
      return 0
    fi
  done
  echo "no libnccl.so.2 of version $_want found; the device path's window will be refused"
}
nccl_lib_select
