"""The torch peer of bench_multi.cu: torch.dot on float32 and float64 vectors
of 2^10..2^28 elements, checked against a float64 dot first; the time is the
mean per call over back-to-back calls after warm-up (CUDA events). Writes CSV
rows (case,peer,n,us,GBps,check) to argv[1] and a table to stdout."""
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
    out = open(sys.argv[1] if len(sys.argv) > 1 else "peers_multi.csv", "w")
    out.write("case,peer,n,us,GBps,check\n")
    print("# %s, torch %s" % (torch.cuda.get_device_name(), torch.__version__))
    for dtype, name in ((torch.float32, "sdot"), (torch.float64, "ddot")):
        x = torch.rand(1 << 28, device="cuda", dtype=dtype)
        y = torch.rand(1 << 28, device="cuda", dtype=dtype)
        for p in range(10, 29):
            a, b = x[: 1 << p], y[: 1 << p]
            ref = torch.dot(a.double(), b.double()).item()
            ok = abs(torch.dot(a, b).item() - ref) <= 1e-3 * abs(ref)
            nbytes = 2 * a.numel() * a.element_size()
            us = time_us(lambda: torch.dot(a, b), nbytes)
            line = "%s,torch.dot,%d,%.2f,%.1f,%s" % (name, 1 << p, us, nbytes / us / 1e3, "same" if ok else "DIFFERENT")
            out.write(line + "\n")
            print(line)
        del x, y
        torch.cuda.empty_cache()


main()
