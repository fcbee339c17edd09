"""The MPI world the DDP modules share (test_ddp.py, test_ddp_low_precision.py): each asks for it by name, since
test_store.py runs without a launcher."""
import datetime

import pytest


@pytest.fixture(scope="module")
def mpi_world():
    import porta.distributed as dist  # the modules put bindings/python on sys.path before they import porta

    dist.init_process_group("mpi", timeout=datetime.timedelta(seconds=60))
    yield
    dist.destroy_process_group()
