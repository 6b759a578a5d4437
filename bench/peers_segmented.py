"""The torch peers of bench_segmented.cu: per-row torch.var_mean(x, dim=1)
(the layer-norm statistics, against gpugen's Welford _rows) and
torch.sum(x, dim=1) (against the float sum), float32, on the same shapes
and GPU. Each is checked against float64 before it is timed; the time is the
mean per call over back-to-back calls after warm-up (CUDA events). Writes
CSV rows (case,peer,rows,row_length,us,GBps,check) to argv[1] and a table to
stdout."""
import sys

import torch


def time_us(fn, bytes_read):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    iters = max(3, min(2000, int(3e12 * 0.03 / max(bytes_read, 1))))
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1000.0 / iters


def main():
    out = open(sys.argv[1] if len(sys.argv) > 1 else "peers_segmented.csv", "w")
    out.write("case,peer,rows,row_length,us,GBps,check\n")
    print("# %s, torch %s" % (torch.cuda.get_device_name(), torch.__version__))
    shapes = [(4096, 16384), (1 << 28 >> 10, 1024), (1 << 28 >> 8, 256), (1 << 28 >> 4, 16), (1 << 22 >> 10, 1024)]
    for rows, length in shapes:
        x = torch.rand(rows, length, device="cuda", dtype=torch.float32)
        ref_var, ref_mean = torch.var_mean(x.double(), dim=1, correction=0)
        var, mean = torch.var_mean(x, dim=1, correction=0)
        ok = torch.allclose(mean.double(), ref_mean, rtol=1e-4, atol=1e-5) and torch.allclose(var.double(), ref_var, rtol=1e-3, atol=1e-5)
        us = time_us(lambda: torch.var_mean(x, dim=1, correction=0), x.numel() * 4)
        line = "welford,torch.var_mean(dim=1),%d,%d,%.2f,%.1f,%s" % (rows, length, us, x.numel() * 4 / us / 1e3, "same" if ok else "DIFFERENT")
        out.write(line + "\n")
        print(line)
        s = torch.sum(x, dim=1)
        ok = torch.allclose(s.double(), x.double().sum(dim=1), rtol=1e-4, atol=1e-3)
        us = time_us(lambda: torch.sum(x, dim=1), x.numel() * 4)
        line = "float,torch.sum(dim=1),%d,%d,%.2f,%.1f,%s" % (rows, length, us, x.numel() * 4 / us / 1e3, "same" if ok else "DIFFERENT")
        out.write(line + "\n")
        print(line)
        del x
        torch.cuda.empty_cache()


main()
