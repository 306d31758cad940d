# The fabric check of Gantry, without nccl-tests: one all-reduce of MESSAGE_BYTES between the nodes of the job, one process per
# node (GPU 0 with NCCL, the CPU with gloo), timed over ITERATIONS after a warm-up. It prints the bus bandwidth as
# nccl-tests defines it for all-reduce: algbw * 2 * (n - 1) / n, algbw being bytes / seconds per all-reduce.
import datetime
import fcntl
import os
import socket
import struct
import sys
import time

import torch
import torch.distributed as dist

message_bytes = int(sys.argv[1])
iterations = int(sys.argv[2])
timeout_s = int(sys.argv[3])
rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
gpu = torch.cuda.is_available() and int(os.environ.get("GANTRY_GPUS_PER_NODE", "0")) > 0
backend = "nccl" if gpu else "gloo"
device = torch.device("cuda", 0) if gpu else torch.device("cpu")
address = "tcp://" + os.environ["MASTER_ADDR"] + ":" + os.environ["MASTER_PORT"]


def interface_towards(host, port):
    """The name of the interface this node reaches host through, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect((host, port))
        local = probe.getsockname()[0]
        for _, name in socket.if_nameindex():
            try:
                # SIOCGIFADDR: the IPv4 address of the interface.
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            if socket.inet_ntoa(packed[20:24]) == local:
                return name
    except OSError:
        return None
    finally:
        probe.close()
    return None


# Gloo listens on the address the host name resolves to, which is a loopback one on many hosts (127.0.1.1 on
# Debian): the others could not reach it. Unless told otherwise, it uses the interface that reaches rank 0.
if backend == "gloo" and not os.environ.get("GLOO_SOCKET_IFNAME"):
    interface = interface_towards(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]))
    if interface:
        os.environ["GLOO_SOCKET_IFNAME"] = interface
dist.init_process_group(backend, init_method=address, rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=timeout_s))
data = torch.ones(max(1, message_bytes // 4), dtype=torch.float32, device=device)


def sync():
    if gpu:
        torch.cuda.synchronize(device)


dist.all_reduce(data)
sync()
dist.barrier()
start = time.perf_counter()
for _ in range(iterations):
    dist.all_reduce(data)
sync()
elapsed = torch.tensor([time.perf_counter() - start], dtype=torch.float64, device=device)
# The time of the slowest rank, so that every rank reports the same figure and decides the same way.
dist.all_reduce(elapsed, op=dist.ReduceOp.MAX)
seconds = float(elapsed.item()) / iterations
algbw = data.numel() * 4 / seconds / 1e9
busbw = algbw * 2 * (world - 1) / world
print("busbw %.3f %s" % (busbw, backend))
dist.destroy_process_group()
