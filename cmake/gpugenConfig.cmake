# find_package(gpugen CONFIG REQUIRED) gives the gpugen executable (the
# imported target gpugen::gpugen) and gpugen_generate(), which turns a spec
# into CUDA sources of a target. See docs/integration.md.
cmake_minimum_required(VERSION 3.20) # DEPFILE for Makefile and Ninja generators

# Installed, this file is in <prefix>/lib/cmake/gpugen and gpugen in
# <prefix>/bin; in a source checkout it is in cmake/, beside ./gpugen.
find_program(GPUGEN_EXECUTABLE gpugen
  HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin" "${CMAKE_CURRENT_LIST_DIR}/.."
  NO_DEFAULT_PATH)
if(NOT GPUGEN_EXECUTABLE)
  set(gpugen_FOUND FALSE)
  set(gpugen_NOT_FOUND_MESSAGE "no gpugen executable beside ${CMAKE_CURRENT_LIST_FILE} (build it with make, or set GPUGEN_EXECUTABLE)")
  return()
endif()
if(NOT TARGET gpugen::gpugen)
  add_executable(gpugen::gpugen IMPORTED)
  set_target_properties(gpugen::gpugen PROPERTIES IMPORTED_LOCATION "${GPUGEN_EXECUTABLE}")
endif()

include(CMakeFindDependencyMacro)
find_dependency(CUDAToolkit) # the runtime headers, for C sources that include <module>.h
include("${CMAKE_CURRENT_LIST_DIR}/gpugenGenerate.cmake")
