"""What a Python user would pick instead, on the same GPU and sizes as
bench.cu: torch.var_mean (Welford's job), CuPy ReductionKernel int32 ->
int64 sum of squares, torch.sum of int32 and of float32. Writes CSV rows
(case,n,bytes,us,GBps) to the file named by argv[1] and a table to stdout."""
import sys

import torch

try:
    import cupy
except ImportError:  # CuPy rows are left out, and the table says so
    cupy = None


def sizes(elem):
    return [1 << e for e in range(10, 29, 2)] + [(1 << 30) // elem]


def time_us(fn, nbytes):
    iters = int(min(2000, max(20, 0.02 * 3e12 / max(nbytes, 1))))
    for _ in range(5):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / iters


def main():
    out = open(sys.argv[1] if len(sys.argv) > 1 else "peers.csv", "w")
    out.write("case,n,bytes,us,GBps\n")
    print("# torch %s, cupy %s, %s" % (torch.__version__, cupy.__version__ if cupy else "missing",
                                       torch.cuda.get_device_name()))
    print("%-22s %11s %10s %8s" % ("case", "n", "us", "GB/s"))

    def row(name, n, nbytes, us):
        gbps = nbytes / us / 1e3
        print("%-22s %11d %10.2f %8.1f" % (name, n, us, gbps))
        out.write("%s,%d,%d,%.3f,%.2f\n" % (name, n, nbytes, us, gbps))
        sys.stdout.flush()

    gen = torch.Generator(device="cuda").manual_seed(1)
    for n in sizes(4):
        x = torch.rand(n, device="cuda", generator=gen)
        row("torch.var_mean", n, 4 * n, time_us(lambda: torch.var_mean(x), 4 * n))
        row("torch.sum_float32", n, 4 * n, time_us(lambda: torch.sum(x), 4 * n))
        xi = torch.randint(-100, 100, (n,), device="cuda", dtype=torch.int32, generator=gen)
        row("torch.sum_int32", n, 4 * n, time_us(lambda: torch.sum(xi), 4 * n))
        del x, xi
    if cupy is not None:
        sumsq = cupy.ReductionKernel("int32 x", "int64 y", "(long long)x * x", "a + b", "y = a", "0", "sumsq")
        for n in sizes(4):
            xi = cupy.random.randint(-100, 100, n, dtype=cupy.int32)
            row("cupy.sumsq_int64", n, 4 * n, time_us(lambda: sumsq(xi), 4 * n))
            del xi
    out.close()


if __name__ == "__main__":
    main()
