"""Failure that is loud, run with 2 ranks (tests/distributed/CMakeLists.txt says how each is judged).

timeout:  (porta-run: a TCP store) rank 1 never joins an all_reduce; rank 0's wait ends with PortaTimeoutError
          naming the op, its sequence number and the rank missing with its last collective, then the job ends
          (MPI_Abort at exit: the operation never completed).
death:    (porta-run, mpirun told not to end the job itself) rank 1's process dies; rank 0's wait in the next
          all_reduce ends at once with BackendError naming rank 1, not at the 30 s timeout.
mismatch: (mpirun) with PORTA_DISTRIBUTED_DEBUG=DETAIL the ranks all_reduce different sizes; both are told, naming
          the other rank's call, instead of MPI truncating the message; the ranks stay usable.
ddp_mismatch: (mpirun) the same check on a seeded DDP bug: rank 0 all-reduces a metric between forward and backward,
          rank 1 does not; rank 0's metric meets rank 1's first gradient bucket, and both ranks are told, naming the
          other's call, instead of the metric silently summing a gradient.
nccl:     (porta-run, the nccl backend on the emulated cuda:0, the emulation's deadline 2 s) rank 1 never joins an
          all_reduce; rank 0's wait ends with BackendError carrying NCCL's asynchronous error, which names rank 1.
"""
import datetime
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python"))
import porta  # noqa: E402
import porta.distributed as dist  # noqa: E402

mode = sys.argv[1]
dist.init_process_group("nccl" if mode == "nccl" else "mpi", timeout=datetime.timedelta(seconds=30))
rank = dist.get_rank()
if mode == "timeout":
    if rank == 0:
        dist.all_reduce(porta.ones(3))  # #1
        try:
            dist.all_reduce(porta.ones(3), async_op=True).wait(timeout=2)
            print("TIMEOUT-WRONG: the wait returned", flush=True)
        except porta.PortaTimeoutError as e:
            ok = all(s in str(e) for s in ("all_reduce #2", "2000 ms", "rank 1 (its last collective: all_reduce #1)"))
            print(("TIMEOUT-OK: " if ok else "TIMEOUT-WRONG: ") + str(e), flush=True)
    else:
        dist.all_reduce(porta.ones(3))
        time.sleep(4)  # then leaves without the second all_reduce
elif mode == "nccl":
    dist.all_reduce(porta.ones(3, device="cuda:0"))
    if rank == 0:
        try:
            dist.all_reduce(porta.ones(3, device="cuda:0"))
            print("NCCL-WRONG: the all_reduce returned", flush=True)
        except porta.BackendError as e:
            ok = "all_reduce #2" in str(e) and "rank 1 of 2 had not arrived" in str(e)
            print(("NCCL-OK: " if ok else "NCCL-WRONG: ") + str(e), flush=True)
    else:
        time.sleep(4)  # then leaves without the second all_reduce
    os._exit(0)
elif mode == "death":
    dist.all_reduce(porta.ones(3))
    if rank == 1:
        os._exit(3)  # no goodbye to the store: a process that died
    try:
        dist.all_reduce(porta.ones(3))
        print("DEATH-WRONG: the all_reduce returned", flush=True)
    except porta.PortaTimeoutError as e:
        print("DEATH-WRONG: a timeout instead of the news: " + str(e), flush=True)
    except porta.BackendError as e:
        ok = "all_reduce #2" in str(e) and "rank 1's process ended without leaving the group" in str(e)
        print(("DEATH-OK: " if ok else "DEATH-WRONG: ") + str(e), flush=True)
    os._exit(0)  # the all_reduce never completes: nothing to finalize
elif mode == "ddp_mismatch":
    from porta import nn
    from porta.nn.parallel import DistributedDataParallel as DDP
    porta.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), bucket_cap_mb=1e-5)
    loss = model(porta.ones(3, 4)).sum()
    try:
        if rank == 0:
            dist.all_reduce(porta.ones(5))  # the seeded bug: a metric only rank 0 logs
        loss.backward()
        print("DDP-MISMATCH-WRONG: no error", flush=True)
    except porta.InvalidArgumentError as e:
        other = 1 - rank
        # the sequence number counts the construction's broadcasts too
        ok = re.search(f"rank {other} called all_reduce #\\d+ of {5 if other == 0 else 2} float32 elements", str(e))
        print(("DDP-MISMATCH-OK: " if ok else "DDP-MISMATCH-WRONG: ") + str(e), flush=True)
    dist.destroy_process_group()
elif mode == "mismatch":
    try:
        dist.all_reduce(porta.ones(3 + rank))
        print("MISMATCH-WRONG: no error", flush=True)
    except porta.InvalidArgumentError as e:
        other = 1 - rank
        ok = f"rank {other} called all_reduce #1 of {3 + other} float32 elements (ReduceOp.SUM)" in str(e)
        print(("MISMATCH-OK: " if ok else "MISMATCH-WRONG: ") + str(e), flush=True)
        if not ok:
            sys.exit(1)
    t = porta.ones(2)
    dist.all_reduce(t)
    assert t.tolist() == [2.0, 2.0]
    dist.destroy_process_group()
