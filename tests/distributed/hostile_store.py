"""The TCP store of env:// beside clients that misbehave (issue 49, items 4 and 5). Modes:

job PORTA_RUN:     (ctest's distributed.store.hostile) starts a 2-rank job with porta-run at a free port of
                   127.0.0.1 and, once rank 0 serves the store and before rank 1 joins, points hostile clients at it:
                     flood    connects, sends GET and STATES requests without end and never reads a reply
                     garbage  an unknown request type, a key length of 4 GiB, a SET before HELLO
                     many     opens 200 connections and holds them (the store's limit for 2 ranks is 40)
                     silent   connects and says nothing
                   then lets rank 1 join. Both ranks must initialize within the group's timeout (20 s) and train
                   (DDP, 3 steps, ending with one process's parameters on the whole batch); the store must have
                   closed (and logged) the flood, closed the garbage and the connections past its limit at once,
                   and the silent ones about 5 s after they connected. Prints HOSTILE-OK, or HOSTILE-WRONG and why.
worker GO DONE:    a rank of that job (rank 1 waits for the file GO before it joins; both wait for DONE at the end).
emfile-server PORT: (test_store.py) serves a store of 1 rank, then takes every file descriptor its limit allows
                   and says READY; on "free" gives them back (FREED); on "end" destroys the group (ENDED).
join PORT:         (test_store.py) rank 1 of 2 joins the store at PORT with a timeout of 1 s; prints what it raised.
Every wait is bounded; only 127.0.0.1 is used."""
import datetime
import errno
import os
import resource
import select
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bindings", "python"))

GROUP_TIMEOUT_S = 20
PRESENT = 1  # RankState::present (core/src/distributed/store.hpp)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_request(key):
    return b"\x04" + struct.pack("=I", len(key)) + key


def closed_by_server(s):
    """Whether the store closed `s` (which was sent no reply, or whose replies are left unread)."""
    s.setblocking(False)  # with a timeout, recv would wait for it
    try:
        return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True  # reset


def wait_closed(socks, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(closed_by_server(s) for s in socks):
        time.sleep(0.02)
    return sum(closed_by_server(s) for s in socks)


def ask_states(port, timeout=5.0):
    """A stranger's STATES request on a fresh connection: each rank's state."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(b"\x05")
        got = b""
        while len(got) < 4 or len(got) < 4 + struct.unpack("=I", got[:4])[0]:
            chunk = s.recv(64)
            if not chunk:
                raise ConnectionError(f"the store closed the connection after {len(got)} bytes")
            got += chunk
        return list(got[4:])


# ---------------------------------------------------------------- the job's ranks

def worker(go_file, done_file):
    import numpy as np
    import porta
    import porta.distributed as dist
    from porta import nn
    from porta.nn.parallel import DistributedDataParallel as DDP

    rank = int(os.environ["RANK"])
    if rank == 1:
        deadline = time.monotonic() + 60
        while not os.path.exists(go_file):
            if time.monotonic() > deadline:
                sys.exit("HOSTILE-WRONG: rank 1 was never told to join")
            time.sleep(0.02)
    start = time.monotonic()
    dist.init_process_group("mpi", timeout=datetime.timedelta(seconds=GROUP_TIMEOUT_S))
    print(f"rank {rank} initialized in {time.monotonic() - start:.2f} s", flush=True)

    t = porta.ones(3) * (rank + 1)
    dist.all_reduce(t)
    assert t.tolist() == [3.0, 3.0, 3.0], t.tolist()

    def integer_linear():
        net = nn.Linear(4, 2)
        rng = np.random.default_rng(0)
        with porta.no_grad():
            for p in net.parameters():
                p.copy_(porta.tensor(rng.integers(-2, 3, size=tuple(p.shape)), dtype=porta.float32))
        return net

    model, reference = DDP(integer_linear()), integer_linear()
    opt = porta.optim.SGD(model.parameters(), lr=0.125)
    ref_opt = porta.optim.SGD(reference.parameters(), lr=0.125)
    for step in range(3):  # integers and powers of two: every value exact in float32
        rng = np.random.default_rng(100 + step)
        x = rng.integers(-3, 4, size=(8, 4)).astype(np.float32)
        y = rng.integers(-2, 3, size=(8, 2)).astype(np.float32)
        mine = slice(4 * rank, 4 * rank + 4)
        opt.zero_grad()
        # The shard's loss scaled to the whole batch: the ranks' average gradient is the batch's.
        ((model(porta.tensor(x[mine])) * porta.tensor(y[mine])).sum() / 8 * 2).backward()
        opt.step()
        ref_opt.zero_grad()
        ((reference(porta.tensor(x)) * porta.tensor(y)).sum() / 8).backward()
        ref_opt.step()
    for got, want in zip(model.module.parameters(), reference.parameters()):
        assert got.tolist() == want.tolist(), (got.tolist(), want.tolist())

    states = ask_states(int(os.environ["MASTER_PORT"]))  # the store still serves newcomers
    assert states == [PRESENT, PRESENT], states
    print(f"rank {rank} trained; the store says {states}", flush=True)

    deadline = time.monotonic() + 60
    while not os.path.exists(done_file) and time.monotonic() < deadline:
        time.sleep(0.02)
    dist.destroy_process_group()
    print(f"HOSTILE-RANK-OK {rank}", flush=True)


# ---------------------------------------------------------------- the driver

def flood(port, seconds):
    """Requests without end, replies never read: (socket, whether the store closed it, bytes sent)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)  # little room for the replies on this side
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    requests = (get_request(b"group/0/progress/0") + b"\x05" * 16) * 2048
    sent, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            sent += s.send(requests)
        except BlockingIOError:
            select.select([], [s], [], 0.05)
        except OSError:  # reset, broken pipe: the store closed it
            return s, True, sent
    return s, False, sent


def job(porta_run):
    overall = time.monotonic() + 90
    wrong = []
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="porta-hostile-")
    go, done = os.path.join(tmp, "go"), os.path.join(tmp, "done")
    cmd = [porta_run, "-n", "2", "--master-addr", "127.0.0.1", "--master-port", str(port), sys.executable,
           os.path.abspath(__file__), "worker", go, done]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output = []
    reader = threading.Thread(target=lambda: output.extend(proc.stdout), daemon=True)
    reader.start()
    held = []
    try:
        # Rank 0 serves the store (its HELLO may be under way).
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > overall - 60 or proc.poll() is not None:
                    raise RuntimeError("rank 0's store never served")
                time.sleep(0.02)

        s, flood_closed, flood_sent = flood(port, 8.0)
        held.append(s)
        print(f"flood: {flood_sent} bytes of requests sent, closed by the store: {flood_closed}", flush=True)
        if not flood_closed:
            wrong.append("the store kept the connection that never read its replies")

        garbage = []
        for data in (b"\xff" * 16, b"\x04" + struct.pack("=I", 0xFFFFFFFF),
                     b"\x02" + struct.pack("=I", 1) + b"k" + struct.pack("=I", 1) + b"v"):
            g = socket.create_connection(("127.0.0.1", port), timeout=2)
            g.sendall(data)
            garbage.append(g)
        held += garbage
        closed = wait_closed(garbage, 2.0)
        print(f"garbage: {closed} of {len(garbage)} connections closed by the store", flush=True)
        if closed != len(garbage):
            wrong.append(f"only {closed} of the {len(garbage)} connections that sent garbage were closed")

        many = []
        for _ in range(200):
            many.append(socket.create_connection(("127.0.0.1", port), timeout=2))
        held += many
        deadline = time.monotonic() + 3
        while (closed := sum(closed_by_server(c) for c in many)) < len(many) - 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        print(f"many: {closed} of {len(many)} idle connections closed at once (the limit: 40)", flush=True)
        if closed < len(many) - 40:
            wrong.append(f"only {closed} of {len(many)} connections were closed past the store's limit of 40")

        silent = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(3)]
        silent_at = time.monotonic()
        held += silent
        open(go, "w").close()  # rank 1 joins now

        while time.monotonic() < silent_at + 9 and not all(closed_by_server(c) for c in silent):
            time.sleep(0.05)
        closed = sum(closed_by_server(c) for c in silent)
        print(f"silent: {closed} of {len(silent)} closed {time.monotonic() - silent_at:.1f} s after connecting",
              flush=True)
        if closed != len(silent):
            wrong.append("the connections that never said HELLO were not closed within 9 s")
        open(done, "w").close()

        try:
            rc = proc.wait(timeout=max(1.0, overall - time.monotonic()))
        except subprocess.TimeoutExpired:
            rc = None
            wrong.append("the job did not end in time (a rank hung)")
    except Exception as e:  # noqa: BLE001
        rc = None
        wrong.append(f"{type(e).__name__}: {e}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait()
        for s in held:
            s.close()
        for f in (go, done):
            if os.path.exists(f):
                os.remove(f)
        os.rmdir(tmp)
    reader.join(5)
    text = "".join(output)
    print("---- the job's output\n" + text + "----", flush=True)
    if rc is not None and rc != 0:
        wrong.append(f"the job ended with status {rc}")
    for r in (0, 1):
        if f"HOSTILE-RANK-OK {r}" not in text:
            wrong.append(f"rank {r} did not finish")
    if "sent requests without reading the replies" not in text:
        wrong.append("the store did not log the connection it closed for not reading its replies")
    if wrong:
        print("HOSTILE-WRONG: " + "; ".join(wrong), flush=True)
        return 1
    print("HOSTILE-OK", flush=True)
    return 0


# ---------------------------------------------------------------- for test_store.py

def emfile_server(port):
    import porta
    import porta.distributed as dist

    dist.init_process_group("mpi", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1,
                            timeout=datetime.timedelta(seconds=20))
    t = porta.ones(2)
    dist.all_reduce(t)
    assert t.tolist() == [1.0, 1.0]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    top = max(int(fd) for fd in os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, top + 64), hard))  # a few to take, not thousands
    hogs = []
    try:
        while True:
            hogs.append(os.open("/dev/null", os.O_RDONLY | os.O_CLOEXEC))
    except OSError as e:
        assert e.errno == errno.EMFILE, e
    print("READY", flush=True)
    sys.stdin.readline()
    for fd in hogs:
        os.close(fd)
    print("FREED", flush=True)
    sys.stdin.readline()
    dist.destroy_process_group()
    print("ENDED", flush=True)


def join(port):
    import porta
    import porta.distributed as dist

    start = time.monotonic()
    try:
        dist.init_process_group("mpi", init_method=f"tcp://127.0.0.1:{port}", rank=1, world_size=2,
                                timeout=datetime.timedelta(seconds=1))
        print("JOINED", flush=True)
    except porta.PortaError as e:
        print(f"RAISED {type(e).__name__} after {time.monotonic() - start:.2f} s: {e}", flush=True)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "job":
        sys.exit(job(sys.argv[2]))
    elif mode == "worker":
        worker(sys.argv[2], sys.argv[3])
    elif mode == "emfile-server":
        emfile_server(int(sys.argv[2]))
    elif mode == "join":
        join(int(sys.argv[2]))
    else:
        sys.exit(f"unknown mode {mode}")
