// NCCL as the nccl communicator plugin (plugins/comm_nccl) uses it, emulated
// on the CPU across processes (nccl_emulation.cpp): the subset of NCCL 2.28's
// <nccl.h> that plugin calls, with NCCL's names, values and signatures, so the
// plugin compiles unchanged against either header. README.md ("NCCL") says
// what the emulation does and what it cannot check.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// The release this subset follows; ncclGetVersion answers NCCL_VERSION_CODE.
#define NCCL_MAJOR 2
#define NCCL_MINOR 28
#define NCCL_PATCH 9
#define NCCL_SUFFIX ""
#define NCCL_VERSION_CODE 22809
#define NCCL_VERSION(X, Y, Z) (((X) <= 2 && (Y) <= 8) ? (X)*1000 + (Y)*100 + (Z) : (X)*10000 + (Y)*100 + (Z))

// Default visibility: the emulated plugin exports these (emulated_plugin.map).
#pragma GCC visibility push(default)
extern "C" {

// A communicator: one rank's membership of a group of ranks.
typedef struct ncclComm* ncclComm_t;
#define NCCL_COMM_NULL NULL

// What every rank passes to ncclCommInitRank, made once by ncclGetUniqueId
// and carried to the other ranks by the caller (here: a shared-memory name).
#define NCCL_UNIQUE_ID_BYTES 128
typedef struct {
  char internal[NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;

typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
  ncclNumResults = 8
} ncclResult_t;

// ncclMaxRedOp makes the enum int-sized, as NCCL's (user-created ops live above ncclNumOps).
typedef enum {
  ncclSum = 0,
  ncclProd = 1,
  ncclMax = 2,
  ncclMin = 3,
  ncclAvg = 4,
  ncclNumOps = 5,
  ncclMaxRedOp = 0x7fffffff
} ncclRedOp_t;

typedef enum {
  ncclInt8 = 0,
  ncclChar = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclInt = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6,  // declared, not emulated: calls on it are ncclInvalidArgument
  ncclHalf = 6,
  ncclFloat32 = 7,
  ncclFloat = 7,
  ncclFloat64 = 8,
  ncclDouble = 8,
  ncclBfloat16 = 9,  // declared, not emulated
  ncclFloat8e4m3 = 10,
  ncclFloat8e5m2 = 11,
  ncclNumTypes = 12
} ncclDataType_t;

// ---------------------------------------------------------- communicators
ncclResult_t ncclGetVersion(int* version);
ncclResult_t ncclGetUniqueId(ncclUniqueId* uniqueId);
// Joins rank `rank` of `nranks` on the current CUDA device; returns once all have joined.
ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank);
ncclResult_t ncclCommDestroy(ncclComm_t comm);
// Ends this rank's pending and blocked operations of `comm` with an error.
ncclResult_t ncclCommAbort(ncclComm_t comm);
// ncclSuccess, or the error an enqueued operation met (a peer missing past the deadline, an abort).
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* asyncError);
ncclResult_t ncclCommCount(const ncclComm_t comm, int* count);
ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device);
ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank);

const char* ncclGetErrorString(ncclResult_t result);
// What went wrong last, in words (the communicator's asynchronous error, if it has one).
const char* ncclGetLastError(ncclComm_t comm);

// ------------------------------------------------------------ collectives
// Each is enqueued on `stream` (NULL, cudaStreamLegacy or a created stream of
// the communicator's device) and exchanges data when the stream runs it.
ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, int root,
                           ncclComm_t comm, cudaStream_t stream);
// recvbuff holds nranks * sendcount elements, rank r's at r * sendcount.
ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream);
// sendbuff holds nranks * recvcount elements; rank r receives the reduction of block r.
ncclResult_t ncclReduceScatter(const void* sendbuff, void* recvbuff, size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream);

// ------------------------------------------------------- point to point
ncclResult_t ncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);

}  // extern "C"
#pragma GCC visibility pop
