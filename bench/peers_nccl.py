"""Target 4's peer: PyTorch's SyncBatchNorm statistics across GPUs, two
processes (one per GPU) with torch.distributed and NCCL, as SyncBatchNorm's
forward computes them: torch.batch_norm_stats, an all-gather of (mean,
invstd, count), then torch.batch_norm_gather_stats_with_counts. Prints rank
0's mean time per call (CUDA events) for a 64 x 256 x 56 x 56 float NCHW
activation per GPU. usage: python3 peers_nccl.py [GPUS]"""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")


def stats(x, world):
    mean, invstd = torch.batch_norm_stats(x, 1e-5)
    count = torch.full((1,), x.numel() // x.size(1), dtype=mean.dtype, device=x.device)
    local = torch.cat([mean, invstd, count])
    gathered = torch.empty(world * local.numel(), dtype=local.dtype, device=x.device)
    dist.all_gather_into_tensor(gathered, local)
    gathered = gathered.view(world, -1)
    c = mean.numel()
    return torch.batch_norm_gather_stats_with_counts(
        x, gathered[:, :c], gathered[:, c:2 * c], None, None, 0.1, 1e-5, gathered[:, 2 * c])


def rank_main(rank, world, port):
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world,
                            device_id=torch.device("cuda", rank))
    x = torch.rand(64, 256, 56, 56, device="cuda")
    for _ in range(3):
        stats(x, world)
    torch.cuda.synchronize()
    dist.barrier()
    reps = 20
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        stats(x, world)
    stop.record()
    stop.synchronize()
    us = start.elapsed_time(stop) * 1000 / reps
    if rank == 0:
        print(f"torch {torch.__version__} SyncBN stats 64x256x56x56 per GPU, {world} processes: {us:.1f} us", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    world = int(sys.argv[1]) if len(sys.argv) > 1 else torch.cuda.device_count()
    mp.spawn(rank_main, args=(world, 29517), nprocs=world)
