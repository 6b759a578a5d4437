# gpugen_generate(<target> SPEC <file> [OUTPUT_DIR <dir>])
#
# Runs gpugen on the spec at build time and adds the result to <target>:
# the generated <module>.cu as a source, and the include directories the
# generated headers need (the output directory, the spec's directory when it
# names headers, and its "include_dirs"). gpugen rewrites only files whose
# text changed and writes <module>.stamp last, so the stamp is the command's
# output; its depfile names the spec and every header gpugen read, so an
# edited header regenerates the module and a run cut short is redone.
#
# CUDA_ARCHITECTURES: when <target> has the compiler's default, it is set
# from the spec's "targets" (SASS for each, PTX for the newest); when it was
# chosen (-DCMAKE_CUDA_ARCHITECTURES, CUDAARCHS, a set() before the target
# or the target's property), it must build SASS for every target of the
# spec, or configuring stops with the missing ones.
function(gpugen_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SPEC;OUTPUT_DIR" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpugen_generate(${target}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "gpugen_generate(${target}): no target named '${target}' (create it first)")
  endif()
  if(NOT arg_SPEC)
    message(FATAL_ERROR "gpugen_generate(${target}): SPEC <file> is required")
  endif()
  get_filename_component(spec "${arg_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${spec}")
    message(FATAL_ERROR "gpugen_generate(${target}): the spec ${spec} does not exist")
  endif()
  get_filename_component(spec_dir "${spec}" DIRECTORY)

  # The module name, targets and include directories decide what the build
  # looks like, so a change to the spec configures again.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
  file(READ "${spec}" json)
  string(JSON module ERROR_VARIABLE err GET "${json}" module)
  if(err)
    message(FATAL_ERROR "gpugen_generate(${target}): ${spec}: no \"module\" (${err}); run gpugen --check on it")
  endif()

  if(arg_OUTPUT_DIR)
    get_filename_component(out "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/gpugen/${module}")
  endif()
  # Spaces are fine; '#' is not: CMake refuses it in a custom command's
  # output, and its depfile transformation for Ninja writes it unescaped,
  # which ninja reads as a comment (the build would never be up to date).
  if(out MATCHES "[#<>]")
    message(FATAL_ERROR "gpugen_generate(${target}): the output directory ${out} has a '#', '<' or '>', which "
      "CMake does not allow in a custom command's output; choose another OUTPUT_DIR (or build directory)")
  endif()
  if(spec MATCHES "#")
    message(FATAL_ERROR "gpugen_generate(${target}): the spec's path ${spec} has a '#', which CMake's depfiles "
      "cannot carry (ninja would read the rest as a comment); move the spec")
  endif()
  set(stamp "${out}/${module}.stamp")
  set(depfile "${out}/${module}.d")
  set(generated "${out}/${module}.h" "${out}/${module}.cuh" "${out}/${module}.cu" "${out}/${module}.mk")

  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${generated}
    COMMAND gpugen::gpugen -q -o "${out}" --depfile "${depfile}" "${spec}"
    DEPENDS "${spec}" gpugen::gpugen
    DEPFILE "${depfile}"
    COMMENT "gpugen: generating ${module} from ${arg_SPEC}"
    VERBATIM)
  target_sources("${target}" PRIVATE "${stamp}" "${out}/${module}.cu")

  set(includes "${out}")
  string(JSON nheaders ERROR_VARIABLE err LENGTH "${json}" headers)
  if(NOT err AND nheaders GREATER 0)
    list(APPEND includes "${spec_dir}")
  endif()
  string(JSON ndirs ERROR_VARIABLE err LENGTH "${json}" include_dirs)
  if(NOT err AND ndirs GREATER 0)
    math(EXPR last "${ndirs} - 1")
    foreach(i RANGE ${last})
      string(JSON dir GET "${json}" include_dirs ${i})
      get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${spec_dir}")
      if(dir MATCHES "#")
        message(FATAL_ERROR "gpugen_generate(${target}): the include directory ${dir} has a '#', which CMake's "
          "depfiles cannot carry; move it")
      endif()
      list(APPEND includes "${dir}")
    endforeach()
  endif()
  target_include_directories("${target}" PUBLIC ${includes})
  # the CUDA runtime headers, for C sources that include <module>.h (the
  # runtime itself comes with the target's CUDA sources)
  target_include_directories("${target}" PUBLIC ${CUDAToolkit_INCLUDE_DIRS})

  _gpugen_architectures("${target}" "${spec}" "${json}")
  _gpugen_nccl("${target}" "${spec}" "${json}")
endfunction()

# A spec with "nccl": true on some reduction: link NCCL (it ships with the
# CUDA Toolkit). Other modules never name it.
function(_gpugen_nccl target spec json)
  string(JSON nreductions ERROR_VARIABLE err LENGTH "${json}" reductions)
  if(err OR nreductions EQUAL 0)
    return()
  endif()
  set(uses_nccl OFF)
  math(EXPR last "${nreductions} - 1")
  foreach(i RANGE ${last})
    string(JSON nccl ERROR_VARIABLE err GET "${json}" reductions ${i} nccl)
    if(NOT err AND nccl)
      set(uses_nccl ON)
    endif()
  endforeach()
  if(NOT uses_nccl)
    return()
  endif()
  find_library(GPUGEN_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} "$ENV{NCCL_HOME}/lib")
  if(NOT GPUGEN_NCCL_LIBRARY)
    message(FATAL_ERROR "gpugen_generate(${target}): ${spec} asks for \"nccl\": true, and no libnccl was found "
      "(looked in ${CUDAToolkit_LIBRARY_DIR} and $NCCL_HOME/lib); set GPUGEN_NCCL_LIBRARY")
  endif()
  target_link_libraries("${target}" PUBLIC "${GPUGEN_NCCL_LIBRARY}")
endfunction()

# The spec's targets as CUDA_ARCHITECTURES ("80-real;90": SASS for each, PTX
# for the newest), set on the target or checked against what it has.
function(_gpugen_architectures target spec json)
  string(JSON ntargets ERROR_VARIABLE err LENGTH "${json}" targets)
  if(err OR ntargets EQUAL 0)
    message(FATAL_ERROR "gpugen_generate(${target}): ${spec}: no \"targets\"; run gpugen --check on it")
  endif()
  set(archs "")
  math(EXPR last "${ntargets} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" targets ${i})
    if(NOT name MATCHES "^sm_0*([1-9][0-9]*[af]?)$")
      message(FATAL_ERROR "gpugen_generate(${target}): ${spec}: targets[${i}] '${name}' is not sm_NN; run gpugen --check on it")
    endif()
    list(APPEND archs "${CMAKE_MATCH_1}")
  endforeach()
  # gpugen sorts the targets; do the same so the newest comes last
  list(SORT archs COMPARE NATURAL)
  list(REMOVE_DUPLICATES archs)

  # CMake stores the compiler's default in the cache like a choice; what
  # tells them apart is who wrote the entry (a -D or CUDAARCHS is a choice)
  # and whether the target or the directory set something else.
  get_target_property(have "${target}" CUDA_ARCHITECTURES)
  get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  if(NOT have OR (help STREQUAL "CUDA architectures" AND "$ENV{CUDAARCHS}" STREQUAL ""
                  AND "${have}" STREQUAL "$CACHE{CMAKE_CUDA_ARCHITECTURES}"))
    list(POP_BACK archs newest)
    list(TRANSFORM archs APPEND "-real")
    list(APPEND archs "${newest}")
    set_property(TARGET "${target}" PROPERTY CUDA_ARCHITECTURES ${archs})
    return()
  endif()
  if(have MATCHES "^(all|all-major|native)$")
    message(STATUS "gpugen_generate(${target}): CUDA_ARCHITECTURES is '${have}'; not checked against ${spec}")
    return()
  endif()
  set(missing "")
  foreach(arch IN LISTS archs)
    if(NOT arch IN_LIST have AND NOT "${arch}-real" IN_LIST have)
      list(APPEND missing "sm_${arch}")
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    message(FATAL_ERROR "gpugen_generate(${target}): CUDA_ARCHITECTURES '${have}' builds no SASS for ${missing}, "
      "which ${spec} targets; add them, or leave CUDA_ARCHITECTURES unset to take the spec's")
  endif()
endfunction()
