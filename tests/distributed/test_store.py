"""init_process_group's rendezvous stores in one process, without a launcher (a world of one rank): the TCP store of
"tcp://" and of "env://" with MASTER_ADDR and MASTER_PORT, the file store, and the init methods and addresses that
must be refused, each naming what was wrong; the store's server out of file descriptors, and a client whose server
never answers. The stores of several ranks are tested under porta-run (failures.py, the collectives with 4 ranks,
hostile_store.py beside hostile clients) and across network namespaces (across_netns.sh)."""
import datetime
import os
import queue
import socket
import struct
import subprocess
import sys
import threading
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python"))
import porta  # noqa: E402
import porta.distributed as dist  # noqa: E402

TIMEOUT = datetime.timedelta(seconds=20)
HELPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile_store.py")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_rank_world(**kw):
    dist.init_process_group("mpi", rank=0, world_size=1, timeout=TIMEOUT, **kw)
    try:
        t = porta.ones(3)
        dist.all_reduce(t)
        assert t.tolist() == [1.0, 1.0, 1.0]
    finally:
        dist.destroy_process_group()
    assert not dist.is_initialized()


@pytest.fixture
def no_master(monkeypatch):
    for name in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)


def test_tcp_store_serves_and_its_port_is_free_again_after_destroy(no_master):
    port = free_port()
    one_rank_world(init_method=f"tcp://127.0.0.1:{port}")
    one_rank_world(init_method=f"tcp://127.0.0.1:{port}")  # the same port: the first store released it


def test_tcp_store_takes_a_bracketed_ipv6_host(no_master):
    try:  # the URL form of an IPv6 address, as torch.distributed takes it
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
            port = s.getsockname()[1]
    except OSError as e:
        pytest.skip(f"this machine has no IPv6 loopback (::1): {e}")
    one_rank_world(init_method=f"tcp://[::1]:{port}")


def test_env_init_reads_master_addr_and_port(no_master, monkeypatch):
    monkeypatch.setenv("MASTER_ADDR", "localhost")
    monkeypatch.setenv("MASTER_PORT", str(free_port()))
    one_rank_world(init_method="env://")
    one_rank_world()  # env:// is the default


def test_file_store(no_master, tmp_path):
    one_rank_world(init_method=f"file://{tmp_path}/rendezvous")


def test_env_init_without_master_addr_says_what_to_set(no_master):
    with pytest.raises(porta.InvalidArgumentError, match="needs MASTER_ADDR and MASTER_PORT.*porta-run"):
        dist.init_process_group("mpi", rank=0, world_size=1, timeout=TIMEOUT)
    assert not dist.is_initialized()


@pytest.mark.parametrize("method, message", [
    ("tcp://127.0.0.1", "has no port"),
    ("tcp://127.0.0.1:0", r"TCP port \(1 to 65535\)"),
    ("tcp://127.0.0.1:http", r"TCP port \(1 to 65535\)"),
    ("tcp://:1234", "host ''"),
    ("udp://127.0.0.1:1234", "is not one Porta knows"),
    ("tcp://nosuchhost.invalid:1234", "cannot resolve the host 'nosuchhost.invalid'"),
    ("tcp://203.0.113.77:1234", "is not an address of this machine; MASTER_ADDR must name rank 0's host"),
])
def test_bad_init_methods_are_refused_by_name(no_master, method, message):
    with pytest.raises(porta.InvalidArgumentError, match=message):
        dist.init_process_group("mpi", init_method=method, rank=0, world_size=1, timeout=TIMEOUT)
    assert not dist.is_initialized()


def test_master_port_in_use_is_refused_saying_so(no_master, monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
        monkeypatch.setenv("MASTER_PORT", str(taken.getsockname()[1]))
        with pytest.raises(porta.PortaIOError, match="the port is in use.*choose another MASTER_PORT"):
            dist.init_process_group("mpi", rank=0, world_size=1, timeout=TIMEOUT)
    assert not dist.is_initialized()


def test_a_rank_that_cannot_reach_the_store_times_out_naming_it(no_master):
    port = free_port()  # nobody serves it: rank 1's rank 0 never came
    with pytest.raises(porta.PortaTimeoutError, match=f"could not reach rank 0's store at 127.0.0.1:{port}"):
        dist.init_process_group("mpi", init_method=f"tcp://127.0.0.1:{port}", rank=1, world_size=2,
                                timeout=datetime.timedelta(seconds=1))
    assert not dist.is_initialized()


def test_a_store_that_never_answers_ends_the_join_at_the_timeout(no_master):
    with socket.socket() as mute:  # accepts (the kernel's backlog) and never answers
        mute.bind(("127.0.0.1", 0))
        mute.listen()
        start = time.monotonic()
        done = subprocess.run([sys.executable, HELPER, "join", str(mute.getsockname()[1])], capture_output=True,
                              text=True, timeout=20)
    assert "RAISED PortaTimeoutError" in done.stdout and "did not answer" in done.stdout, done.stdout + done.stderr
    assert time.monotonic() - start < 10


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def test_the_store_out_of_file_descriptors_turns_newcomers_away_without_spinning(no_master):
    port = free_port()
    server = subprocess.Popen([sys.executable, HELPER, "emfile-server", str(port)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line.strip()) for line in server.stdout], daemon=True).start()
    held = []
    try:
        assert lines.get(timeout=30) == "READY"  # serving, with no descriptor left
        held = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(20)]
        time.sleep(0.3)
        before = cpu_seconds(server.pid)
        time.sleep(1.0)
        assert cpu_seconds(server.pid) - before < 0.3  # the accept loop does not spin
        for c in held:  # each accepted on the reserve descriptor and closed at once
            c.settimeout(3)
            assert c.recv(1) == b""
        server.stdin.write("free\n")
        server.stdin.flush()
        assert lines.get(timeout=10) == "FREED"
        with socket.create_connection(("127.0.0.1", port), timeout=3) as c:  # and serves again
            c.sendall(b"\x05")  # STATES: rank 0 present
            got = b""
            while len(got) < 5:
                chunk = c.recv(5 - len(got))
                assert chunk, "the store closed the connection"
                got += chunk
            assert struct.unpack("=IB", got) == (1, 1)
        server.stdin.write("end\n")
        server.stdin.flush()
        assert lines.get(timeout=15) == "ENDED"
        assert server.wait(timeout=15) == 0
        assert "out of file descriptors" in server.stderr.read()
    finally:
        for c in held:
            c.close()
        if server.poll() is None:
            server.kill()
            server.wait()


def test_backend_availability_is_where_the_core_looks():
    assert dist.is_mpi_available() and dist.is_backend_available("MPI")  # the build's comm_mpi
    assert not dist.is_backend_available("no_such_backend")
