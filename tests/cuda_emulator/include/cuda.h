// The CUDA driver API subset the cuda plugin reaches through
// cudaGetDriverEntryPointByVersion (it never links libcuda): the current
// context and the devices' primary contexts. Emulated in driver.cpp.
#pragma once

struct CUctx_st;
using CUcontext = CUctx_st*;
using CUdevice = int;

enum CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_CONTEXT = 201,
};
