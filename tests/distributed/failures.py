"""Failure that is loud, run by mpirun with 2 ranks (tests/distributed/CMakeLists.txt says how each is judged).

timeout:  rank 1 never joins an all_reduce; rank 0's wait ends with PortaTimeoutError naming the op and its
          sequence number, then the job ends (MPI_Abort at exit: the operation never completed).
mismatch: with PORTA_DISTRIBUTED_DEBUG=DETAIL the ranks all_reduce different sizes; both are told, naming the other
          rank's call, instead of MPI truncating the message; the ranks stay usable.
"""
import datetime
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python"))
import porta  # noqa: E402
import porta.distributed as dist  # noqa: E402

mode = sys.argv[1]
dist.init_process_group("mpi", timeout=datetime.timedelta(seconds=30))
rank = dist.get_rank()
if mode == "timeout":
    if rank == 0:
        dist.all_reduce(porta.ones(3))  # #2 (init's world check is #1)
        try:
            dist.all_reduce(porta.ones(3), async_op=True).wait(timeout=2)
            print("TIMEOUT-WRONG: the wait returned", flush=True)
        except porta.PortaTimeoutError as e:
            ok = "all_reduce #3" in str(e) and "2000 ms" in str(e)
            print(("TIMEOUT-OK: " if ok else "TIMEOUT-WRONG: ") + str(e), flush=True)
    else:
        dist.all_reduce(porta.ones(3))
        time.sleep(4)  # then leaves without the second all_reduce
elif mode == "mismatch":
    try:
        dist.all_reduce(porta.ones(3 + rank))
        print("MISMATCH-WRONG: no error", flush=True)
    except porta.InvalidArgumentError as e:
        other = 1 - rank
        ok = f"rank {other} called all_reduce #2 of {3 + other} float32 elements (ReduceOp.SUM)" in str(e)
        print(("MISMATCH-OK: " if ok else "MISMATCH-WRONG: ") + str(e), flush=True)
        if not ok:
            sys.exit(1)
    t = porta.ones(2)
    dist.all_reduce(t)
    assert t.tolist() == [2.0, 2.0]
    dist.destroy_process_group()
