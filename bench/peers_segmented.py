"""The torch peers of bench_segmented.cu: per-row torch.var_mean(x, dim=1)
(the layer-norm statistics, against gpugen's Welford _rows) and
torch.sum(x, dim=1) (against the float sum), float32, on the same shapes
and GPU; and torch.segment_reduce(x, "sum") with lengths and with offsets
(against the float _segmented) on bench_segmented.cu's uniform segment
lengths, 2^28 and 2^22 elements in all. Each is checked against float64
before it is timed; the time is the mean per call over back-to-back calls
after warm-up (CUDA events). Writes CSV rows
(case,peer,rows,row_length,us,GBps,check) to argv[1], rows being the number
of segments, and a table to stdout. With --rows-only (argv[2]) only the
per-row peers run."""
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
    if sys.argv[2:3] == ["--rows-only"]:
        return
    # torch.segment_reduce against the float _segmented: the uniform lengths of
    # bench_segmented.cu (1 to 16M, and one segment), checked against the
    # float64 sums of the same segments
    for total in (1 << 28, 1 << 22):
        x = torch.rand(total, device="cuda", dtype=torch.float32)
        for length in [1 << e for e in (0, 2, 4, 6, 8, 10, 12, 16, 20, 24)] + [total]:
            if length > total:
                continue
            segments = total // length
            lengths = torch.full((segments,), length, device="cuda", dtype=torch.int64)
            offsets = torch.arange(0, total + 1, length, device="cuda", dtype=torch.int64)
            ref = x.view(segments, length).double().sum(dim=1)
            for form, kwargs in (("lengths", {"lengths": lengths}), ("offsets", {"offsets": offsets})):
                peer = "torch.segment_reduce(%s)" % form
                s = torch.segment_reduce(x, "sum", **kwargs)
                ok = s.shape == ref.shape and torch.allclose(s.double(), ref, rtol=1e-4, atol=1e-3)
                us = time_us(lambda: torch.segment_reduce(x, "sum", **kwargs), total * 4) if ok else 0.0
                line = "float,%s,%d,%d,%.2f,%.1f,%s" % (peer, segments, length, us, total * 4 / us / 1e3 if us else 0,
                                                       "same" if ok else "DIFFERENT")
                out.write(line + "\n")
                print(line)
            del lengths, offsets, ref
        del x
        torch.cuda.empty_cache()


main()
